import PreviewCore
import PreviewPlatform
import Testing
@testable import PreviewPlayback
@testable import PreviewServer

/// The engine interface, recorded: tests see what the server asked for and
/// inject the events a real engine would send.
final class FakeEngine: AudioEngine, @unchecked Sendable {
    enum Call: Equatable {
        case play(StreamID, String)
        case paused(Bool)
        case stop
        case dropBuffered
        case volume(Int)
        case range(Double, Double?)
    }
    var calls: [Call] = []
    var positionValue: PlaybackPosition?
    /// Events the harness hands to the controller after each request, as
    /// the server's loop would; `play` queues a start unless `autoStart` is off.
    var events: [EngineEvent] = []
    var autoStart = true

    func start(events: @escaping @Sendable (EngineEvent) -> Void) throws {}
    func play(stream id: StreamID, url: String, key: String?, from start: Double, until end: Double?, info: StreamInfo) {
        calls.append(.play(id, url))
        infos.append(info)
        if autoStart { events.append(.streamStarted(id, AudioFormat(sampleRate: 44100, channels: 2), bitrate: 128, totalFrames: nil)) }
        if start != 0 || end != nil { calls.append(.range(start, end)) }
    }
    /// Each `prefetch` list, as keys.
    var prefetches: [[String]] = []
    /// Each `resume`, in order.
    var resumes: [(StreamID, String)] = []
    func prefetch(_ items: [MediaItem]) { prefetches.append(items.map(\.key)) }
    /// Each `measureLoudness` key, in order.
    var measured: [String] = []
    func measureLoudness(_ key: String) { measured.append(key) }
    /// The `info` of each `play`, in order.
    var infos: [StreamInfo] = []
    func resume(stream id: StreamID, url: String) { resumes.append((id, url)) }
    func setPaused(_ paused: Bool) { calls.append(.paused(paused)) }
    /// Each `selectOutput` argument, in order.
    var outputSelections: [Bool] = []
    func selectOutput(main: Bool) { outputSelections.append(main) }
    func stop() { calls.append(.stop) }
    func dropBuffered() { calls.append(.dropBuffered) }
    /// Each `queueNext`, in order: the stream (nil: none) and the overlap.
    var queuedNext: [(NextStream?, Double)] = []
    func queueNext(_ next: NextStream?, crossfade seconds: Double) { queuedNext.append((next, seconds)) }
    func setVolume(_ percent: Int) { calls.append(.volume(percent)) }
    func position() -> PlaybackPosition? { positionValue }
    func shutdown() {}

    /// The last `play` call.
    var lastPlay: (StreamID, String)? {
        for call in calls.reversed() { if case .play(let id, let url) = call { return (id, url) } }
        return nil
    }
}

/// A controller, command table and sessions over a fake engine, with the
/// Deezer API answered from ../shared/fixtures (by path, query ignored)
/// or from bodies the test sets. Answers may be held back to test waiting.
final class Harness {
    let engine = FakeEngine()
    /// The sessions, told of each change at once.
    let listener = SessionListener()
    var sessions: [ClientSession] {
        get { listener.sessions }
        set { listener.sessions = newValue }
    }
    /// Bodies by API path (without query), checked before the fixture files.
    var bodies: [String: String] = [:]
    /// Answers for URLs outside the API (covers), checked first; nil passes
    /// the URL on to the API answers.
    var binary: (String) -> HTTPResult? = { _ in nil }
    /// Requested URLs, in order.
    var requested: [String] = []
    /// A manual clock for the rate limiter, retries and time-outs.
    var clock = 1000.0
    /// Unix seconds the controller reads (signed-URL expiry): 2026-12-02.
    var wallClock = 1_796_169_600.0
    var timers: [(Double, () -> Void)] = []

    /// Moves the clock and runs the timers that fall due.
    func advance(_ seconds: Double) {
        clock += seconds
        while let i = timers.firstIndex(where: { $0.0 <= clock }) {
            let (_, action) = timers.remove(at: i)
            action()
        }
        settle()
    }

    /// When true, HTTP answers wait in `held` until `release()`.
    var holdAnswers = false
    var held: [() -> Void] = []

    /// - Parameter lastfmKey: the Last.fm API key the daemon is given (none by default).
    init(lastfmKey: String? = nil) {
        playlistDirectory = "/tmp/previewd-harness-\(getpid())-\(Harness.counter.add(1, ordering: .relaxed).newValue)"
        mkdir(playlistDirectory, 0o700)
        var options = DaemonOptions(socketPath: "", apiBase: "http://api.test", stateDirectory: playlistDirectory, logLevel: .error)
        options.lastfmKey = lastfmKey
        let clocks = Clock(monotonic: { [unowned self] in self.clock }, wall: { [unowned self] in self.wallClock })
        instance = Instance(options: options, engine: engine, log: Log(level: .error), get: { [unowned self] url, completion in
            requested.append(url)
            let answer = { completion(self.binary(url) ?? self.answer(url)) }
            if holdAnswers { held.append(answer) } else { answer() }
        }, schedule: { [unowned self] delay, action in timers.append((clock + delay, action)) }, clock: clocks, seed: 7,
                            listener: listener)
    }

    /// The daemon's parts, as previewd wires them.
    var instance: Instance!
    var controller: PlayerController { instance.controller }
    var table: CommandTable { instance.table }
    var hub: MessageHub { instance.hub }

    static let counter = Atomic<Int>(0)
    /// The state directory: stored playlists and the want list go under it.
    let playlistDirectory: String

    deinit {
        // The sessions hold the controller (through the command table), which
        // holds the listener holding them.
        listener.sessions.removeAll()
        // The stored playlists, then every file beside them (want.json,
        // library.sqlite with its -wal and -shm, what a test left there).
        for directory in [playlistDirectory + "/playlists", playlistDirectory] {
            for name in (try? FileSystem.entries(ofDirectory: directory)) ?? [] where name != "." && name != ".." {
                unlink(directory + "/" + name)
            }
            rmdir(directory)
        }
    }

    /// Delivers engine events and client-only changes until none are left.
    func settle() {
        repeat {
            while let i = timers.firstIndex(where: { $0.0 <= clock }) {
                let (_, action) = timers.remove(at: i)
                action()
            }
            deliverLocal()
            let pending = engine.events
            engine.events = []
            for e in pending { controller.handle(e) }
        } while !engine.events.isEmpty || sessions.contains(where: { !$0.state.pendingLocal.isEmpty })
            || timers.contains(where: { $0.0 <= clock })
    }

    /// Messages meant for single clients, as the server delivers them.
    func deliverLocal() {
        for s in sessions where !s.state.pendingLocal.isEmpty {
            let local = s.state.pendingLocal
            s.state.pendingLocal = []
            s.notify(local)
        }
    }

    func release() {
        let pending = held
        held = []
        for p in pending { p() }
        settle()
    }

    private func answer(_ url: String) -> HTTPResult {
        var path = String(url.dropFirst("http://api.test".count))
        if let q = path.firstIndex(of: "?") { path = String(path[..<q]) }
        if let body = bodies[path] { return HTTPResult(status: 200, contentType: "application/json", body: Array(body.utf8), transportError: nil) }
        let name = String(path.dropFirst()).replacingAll("/", with: "-") + ".json"
        if let text = Fixtures.read("fixtures/deezer/" + name) {
            return HTTPResult(status: 200, contentType: "application/json", body: Array(text.utf8), transportError: nil)
        }
        // Tracks without a fixture of their own get a playable stand-in.
        if path.hasPrefix("/track/"), let id = Int(path.dropFirst("/track/".count)), id > 0 {
            let body = #"{"id":\#(id),"title":"Track \#(id)","preview":"http://cdn.test/\#(id).mp3?hdnea=exp=4000000000~x","artist":{"name":"A"}}"#
            return HTTPResult(status: 200, contentType: "application/json", body: Array(body.utf8), transportError: nil)
        }
        let error = #"{"error":{"type":"DataException","message":"no data","code":800}}"#
        return HTTPResult(status: 200, contentType: "application/json", body: Array(error.utf8), transportError: nil)
    }

    /// A new client; its greeting is consumed.
    func connect() -> ClientSession {
        let s = ClientSession(table: table, log: Log(level: .error), hub: hub)
        sessions.append(s)
        #expect(take(s) == "OK MPD 0.23.5\n")
        return s
    }

    /// Sends `text` and returns (and clears) everything the session wrote.
    @discardableResult
    func send(_ s: ClientSession, _ text: String) -> String {
        let bytes = Array(text.utf8)
        bytes.withUnsafeBytes { s.receive($0) }
        settle()
        return take(s)
    }

    /// Everything the session has to write, as a socket taking it all would
    /// (and the server answering requests held meanwhile).
    func take(_ s: ClientSession) -> String {
        var out: [UInt8] = []
        while !s.pendingOutput.isEmpty || s.inputHeld {
            out += s.pendingOutput
            s.consumeOutput(s.pendingOutput.count)
            s.resumeInput()
        }
        return String(decoding: out, as: UTF8.self)
    }
}


import Glibc
import Synchronization

/// Reads files from ../shared beside the checkout.
enum Fixtures {
    static let shared: String = {
        if let env = getenv("PREVIEWD_SHARED") { return String(cString: env) }
        var path = #filePath
        for _ in 0..<4 { path = String(path[..<path.lastIndex(of: "/")!]) }
        return path + "/shared"
    }()

    static func read(_ relative: String) -> String? {
        guard let f = fopen(shared + "/" + relative, "rb") else { return nil }
        defer { fclose(f) }
        var data: [UInt8] = []
        var buf = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = fread(&buf, 1, buf.count, f)
            if n <= 0 { break }
            data += buf[..<n]
        }
        return String(decoding: data, as: UTF8.self)
    }
}
