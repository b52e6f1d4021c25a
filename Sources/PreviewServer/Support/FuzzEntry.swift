import FoundationEssentials
import PreviewCore

/// Entry points for the fuzzing harness (`previewfuzz`, run by
/// `contrib/fuzz/run`) and its regression tests: each takes arbitrary bytes
/// and must neither crash nor hang. They reach the same code the daemon
/// runs on untrusted input: request lines, whole client sessions through
/// the command table, Deezer answers, stored playlists and the state file.
public enum FuzzEntry {
    /// The targets `run` knows.
    public static let targets = ["request", "session", "deezer", "m3u", "state"]

    /// Runs target `name` on `bytes`; `engine` stands in for the audio side
    /// (a fake: nothing plays). Stored playlists go under `directory`.
    /// - Returns: false for an unknown target.
    public static func run(_ name: String, _ bytes: [UInt8], engine: AudioEngine, directory: String) -> Bool {
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
            if let songs = try? M3U.parse(text) {
                // What it writes, it must read back.
                guard (try? M3U.parse(M3U.format(songs))) != nil else { fatalError("M3U.format wrote what M3U.parse refuses") }
            }
        case "state":
            if let saved = try? JSONDecoder().decode(SavedState.self, from: Data(bytes)) {
                _ = Queue(restoring: saved.queue, nextID: saved.nextID, version: saved.queueVersion)
            }
        default:
            return false
        }
        return true
    }

    /// A client session: `bytes` arrive on a fresh connection to a fresh
    /// controller whose Deezer answers come from the same bytes (after the
    /// first line break) or say "no data".
    private static func session(_ bytes: [UInt8], engine: AudioEngine, directory: String) {
        let split = bytes.firstIndex(of: 0x0A).map { $0 + 1 } ?? bytes.count
        let answer = Array(bytes[split...])
        var timers: [() -> Void] = []
        let catalog = DeezerClient(apiBase: "http://api.invalid", schedule: { _, action in timers.append(action) }) { _, done in
            let body = answer.isEmpty ? Array(#"{"error":{"type":"DataException","message":"no data","code":800}}"#.utf8) : answer
            done(HTTPResult(status: 200, contentType: "application/json", body: body, transportError: nil))
        }
        let log = Log(level: .error)
        var sessions: [ClientSession] = []
        let controller = PlayerController(engine: engine, catalog: catalog, log: log, seed: 1,
                                          schedule: { _, action in timers.append(action) }) { changed in
            for s in sessions { s.notify(changed) }
        }
        let wants = WantList(file: JSONFile(path: directory + "/want.json", log: log))
        let table = Commands.table(Services(controller: controller, hub: MessageHub(),
                                            playlists: PlaylistStore(directory: directory), wants: wants))
        let session = ClientSession(table: table, log: log, hub: MessageHub())
        sessions.append(session)
        bytes.withUnsafeBytes { session.receive($0) }
        // Timers run at once, a bounded number of rounds: time is not the point.
        for _ in 0..<20 where !timers.isEmpty {
            let due = timers
            timers = []
            for t in due { t() }
        }
        // The controller, its sessions and its timers refer to one another
        // (for the daemon's lifetime); cut the loop so each input is freed.
        sessions.removeAll()
        timers.removeAll()
    }
}
