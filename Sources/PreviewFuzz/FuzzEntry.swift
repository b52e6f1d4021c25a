import FoundationEssentials
import PreviewCatalog
import PreviewCore
import PreviewControl
import PreviewDesktop
import PreviewPlatform
import PreviewPlayback
import PreviewDaemon
import PreviewServer
import PreviewStorage

/// Entry points for the fuzzing harness (`previewfuzz`, run by
/// `contrib/fuzz/run`) and its regression tests: each takes arbitrary bytes
/// and must neither crash nor hang. They reach the same code the daemon
/// runs on untrusted input: request lines, whole client sessions through
/// the command table, Deezer and Last.fm answers, media response heads,
/// stored playlists, the state file, event records and hooks, and
/// previewctl's arguments and its reading of replies.
public enum FuzzEntry {
    /// The targets `run` knows.
    public static let targets = [
        "request", "session", "deezer", "m3u", "state", "http", "lastfm", "events",
        "ctl-args", "ctl-reply",
    ]

    /// What one input did, beyond not crashing.
    public enum Outcome: Equatable, Sendable {
        /// The code ran and its invariants held.
        case clean
        /// An invariant the target checks did not hold (the fuzz driver
        /// traps on it, so that libFuzzer keeps the input).
        case broken(String)
        /// `run` knows no such target.
        case unknownTarget
    }

    /// Runs target `name` on `bytes`; `engine` stands in for the audio side
    /// (a fake: nothing plays). Stored playlists go under `directory`.
    public static func run(_ name: String, _ bytes: [UInt8], engine: AudioEngine, directory: String) -> Outcome {
        let text = String(decoding: bytes, as: UTF8.self)
        switch name {
        case "request":
            _ = try? RequestParser.parse(text)
        case "session":
            session(bytes, engine: engine, directory: directory)
        case "deezer":
            let decoder = JSONDecoder()
            let data = Data(bytes)
            _ = (try? decoder.decode(DeezerTrack.self, from: data))?.song()
            _ = try? decoder.decode(DeezerAlbum.self, from: data)
            _ = (try? decoder.decode(DeezerPage<DeezerTrack>.self, from: data))?.data.map { $0.song() }
            _ = try? decoder.decode(DeezerErrorEnvelope.self, from: data)
            _ = DeezerClient.earliestExpiry(in: bytes)
        case "m3u":
            // What it writes, it must read back.
            if let songs = try? M3U.parse(text), (try? M3U.parse(M3U.format(songs))) == nil {
                return .broken("M3U.format wrote what M3U.parse refuses")
            }
        case "state":
            state(bytes, engine: engine, directory: directory)
        case "http":
            if let broken = mediaHead(text) { return .broken(broken) }
        case "lastfm":
            let client = LastfmClient(base: "http://lastfm.invalid", key: "k") { _, done in
                done(HTTPResult(status: 200, contentType: "application/json", body: bytes, transportError: nil))
            }
            for kind in [LastfmClient.Kind.tracks, .artists, .albums] {
                client.top(kind, country: nil, tag: "rock", limit: 50) { _ in }
            }
        case "events":
            events(bytes, engine: engine, directory: directory)
        case "ctl-args":
            controlArguments(bytes)
        case "ctl-reply":
            controlReply(text)
        default:
            return .unknownTarget
        }
        return .clean
    }

    /// A client session: `bytes` arrive on a fresh connection to a fresh
    /// controller whose Deezer answers come from the same bytes (after the
    /// first line break) or say "no data".
    private static func session(_ bytes: [UInt8], engine: AudioEngine, directory: String) {
        let split = bytes.firstIndex(of: 0x0A).map { $0 + 1 } ?? bytes.count
        withDaemon(answer: Array(bytes[split...]), engine: engine, directory: directory) { session, _ in
            bytes.withUnsafeBytes { session.receive($0) }
        }
    }

    /// A state file as the daemon reads it at start: decoded, checked,
    /// restored, then listed and reported as clients would see it.
    private static func state(_ bytes: [UInt8], engine: AudioEngine, directory: String) {
        guard let saved = try? JSONDecoder().decode(SavedState.self, from: Data(bytes)), saved.problem == nil else { return }
        withDaemon(answer: [], engine: engine, directory: directory) { session, controller in
            controller.restore(saved, playing: saved.state == .play)
            let requests = "playlistinfo\nstatus\ncurrentsong\nplchanges 0\nsave s\nlistplaylistinfo s\nstats\n"
            Array(requests.utf8).withUnsafeBytes { session.receive($0) }
        }
    }

    /// An `events` record and `--on-event` hooks: the first line is a hook
    /// (`[NAME,...:]COMMAND`), the rest a state file whose current song the
    /// record describes.
    private static func events(_ bytes: [UInt8], engine: AudioEngine, directory: String) {
        let split = bytes.firstIndex(of: 0x0A) ?? bytes.count
        let hook = Hook(parsing: String(decoding: bytes[..<split], as: UTF8.self))
        for name in PlayerEvent.names { _ = hook.matches(name) }
        let body = Data(bytes[min(split + 1, bytes.count)...])
        guard let saved = try? JSONDecoder().decode(SavedState.self, from: body), saved.problem == nil else { return }
        withDaemon(answer: [], engine: engine, directory: directory) { _, controller in
            controller.restore(saved, playing: saved.state == .play)
            for reason in EventReason.allCases {
                let record = PlayerEvent(name: "player", reason: reason, fields: controller.eventFields())
                _ = (record.protocolLines, record.keyValueLines, record.environment)
            }
        }
    }

    /// A media response head as text: a status line, then `Name: value`
    /// header lines, read as the engine reads them for a plain request, a
    /// Range request and a seek's Range probe.
    /// - Returns: what is wrong when a skip falls outside 0 ... the byte asked for.
    private static func mediaHead(_ text: String) -> String? {
        let lines = text.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" })
        let statusWords = lines.first?.split(separator: " ") ?? []
        var head = MediaResponseHead(status: statusWords.count > 1 ? Int(statusWords[1]) ?? 0 : 0)
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let value = String(line[line.index(after: colon)...].drop(while: { $0 == " " }))
            switch line[..<colon].lowercased() {
            case "content-type": head.contentType = value
            case "content-range": head.contentRange = value
            default: break
            }
        }
        for (start, required) in [(0, false), (400_000, false), (400_000, true), (Int.max, true)] {
            if case .success(let skip) = head.bytesToSkip(rangeStart: start, rangeRequired: required), !(0...start).contains(skip) {
                return "skip \(skip) outside 0...\(start)"
            }
        }
        return nil
    }

    /// previewctl's arguments, one per line, as its `main` takes them.
    private static func controlArguments(_ bytes: [UInt8]) {
        let arguments = bytes.split(separator: 0x0A, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
        guard let command = try? ControlCommand(arguments: arguments) else { return }
        if case .catalog(let catalog) = command { _ = catalog.requests }
    }

    /// Replies as previewctl reads them, from whatever answers on its
    /// socket: the first line is a `--format` string, the rest replies.
    private static func controlReply(_ text: String) {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)[...]
        let format = lines.popFirst() ?? ""
        var fields: [(String, String)] = []
        while let (reply, used) = ResponseParser.parse(lines) {
            lines = lines.dropFirst(used)
            switch reply {
            case .ok(let f): fields += f
            case .ack(_, _, _, _, let f): fields += f
            }
        }
        fields += ResponseParser.fields(of: text)
        let values = Dictionary(fields, uniquingKeysWith: { first, _ in first })
        _ = ControlFormat.status(status: values, song: values)
        _ = ControlFormat.songLine(values)
        for v in [StatusFormat.values(status: values, song: values), StatusFormat.values(event: values)] {
            _ = (StatusFormat.render(format, v), StatusFormat.render(ControlCommand.defaultFormat, v), StatusFormat.json(v))
        }
        let records = CatalogRecord.split(fields)
        _ = (CatalogFormat.table(records, width: 80), CatalogFormat.plain(records))
        _ = CatalogFormat.json(records, total: values["total"].flatMap { Int($0) })
        for r in records {
            _ = r.value("added").flatMap(ControlFormat.unixTime(iso:)).map { ControlFormat.age(of: $0, now: 1_800_000_000) }
        }
        if let position = values["song"].flatMap({ Int($0) }), let length = values["playlistlength"].flatMap({ Int($0) }) {
            _ = ControlFormat.cropCommands(position: position, length: length)
        }
    }

    /// A fresh daemon's control side (controller, command table, one client
    /// session) around `body`; its Deezer answers are `answer` or say "no
    /// data". Timers run at once afterwards, a bounded number of rounds:
    /// time is not the point.
    private static func withDaemon(
        answer: [UInt8], engine: AudioEngine, directory: String,
        _ body: (ClientSession, PlayerController) -> Void
    ) {
        var timers: [() -> Void] = []
        let sessions = SessionListener()
        let options = DaemonOptions.unlisted(apiBase: "http://api.invalid", stateDirectory: directory, logLevel: .error)
        let log = Log(level: .error)
        let instance = Instance(
            options: options, engine: engine, log: log,
            get: { _, done in
                let body = answer.isEmpty ? Array(#"{"error":{"type":"DataException","message":"no data","code":800}}"#.utf8) : answer
                done(HTTPResult(status: 200, contentType: "application/json", body: body, transportError: nil))
            }, schedule: { _, action in timers.append(action) }, seed: 1, maxQueueLength: 100, listener: sessions)
        let (controller, playlists, wants, table) = (instance.controller, instance.playlists, instance.wants, instance.table)
        // Each input starts with no playlists, an empty want list and Library, so that
        // one input neither changes what the next does nor slows it down.
        defer {
            playlists.removeAll()
            for entry in wants.entries { _ = try? wants.remove(entry.uri) }
            try? instance.library.removeAll(at: 0)
        }
        // A small command-list bound, so inputs within the fuzzer's length
        // reach it (the over-size list must run nothing).
        let session = ClientSession(table: table, log: log, hub: instance.hub, maxCommandListBytes: 4096)
        sessions.sessions.append(session)
        body(session, controller)
        // As the server would: the replies taken, requests held meanwhile answered.
        while !session.pendingOutput.isEmpty || session.inputHeld {
            session.consumeOutput(session.pendingOutput.count)
            session.resumeInput()
        }
        for _ in 0..<20 where !timers.isEmpty {
            let due = timers
            timers = []
            for t in due { t() }
        }
        // The controller, its sessions and its timers refer to one another
        // (for the daemon's lifetime); cut the loop so each input is freed.
        sessions.sessions.removeAll()
        timers.removeAll()
    }
}
