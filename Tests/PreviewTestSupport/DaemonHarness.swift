import Glibc
import PreviewCore
import PreviewDaemon
import PreviewPlatform
import PreviewPlayback
import PreviewServer
import Synchronization

/// A controller, command table and sessions over a fake engine, with the
/// Deezer API answered from ../shared/fixtures (by path, query ignored)
/// or from bodies the test sets. Answers may be held back to test waiting.
package final class Harness {
    package let engine = FakeEngine()
    /// The sessions, told of each change at once.
    package let listener = SessionListener()
    package var sessions: [ClientSession] {
        get { listener.sessions }
        set { listener.sessions = newValue }
    }
    /// Bodies by API path (without query), checked before the fixture files.
    package var bodies: [String: String] = [:]
    /// Answers for URLs outside the API (covers), checked first; nil passes
    /// the URL on to the API answers.
    package var binary: (String) -> HTTPResult? = { _ in nil }
    /// Requested URLs, in order.
    package var requested: [String] = []
    /// A manual clock for the rate limiter, retries and time-outs.
    package var clock = 1000.0
    /// Unix seconds the controller reads (signed-URL expiry): 2026-12-02.
    package var wallClock = 1_796_169_600.0
    package var timers: [(Double, () -> Void)] = []

    /// Moves the clock and runs the timers that fall due.
    package func advance(_ seconds: Double) {
        clock += seconds
        while let i = timers.firstIndex(where: { $0.0 <= clock }) {
            let (_, action) = timers.remove(at: i)
            action()
        }
        settle()
    }

    /// When true, HTTP answers wait in `held` until `release()`.
    package var holdAnswers = false
    package var held: [() -> Void] = []

    /// - Parameter lastfmKey: the Last.fm API key the daemon is given (none by default).
    package init(lastfmKey: String? = nil) {
        playlistDirectory = "/tmp/previewd-harness-\(getpid())-\(Harness.counter.add(1, ordering: .relaxed).newValue)"
        mkdir(playlistDirectory, 0o700)
        var options = DaemonOptions.unlisted(apiBase: "http://api.test", stateDirectory: playlistDirectory, logLevel: .error)
        options.lastfmKey = lastfmKey
        let clocks = Clock(monotonic: { [unowned self] in self.clock }, wall: { [unowned self] in self.wallClock })
        instance = Instance(
            options: options, engine: engine, log: Log(level: .error),
            get: { [unowned self] url, completion in
                requested.append(url)
                let answer = { completion(self.binary(url) ?? self.answer(url)) }
                if holdAnswers { held.append(answer) } else { answer() }
            }, schedule: { [unowned self] delay, action in timers.append((clock + delay, action)) }, clock: clocks, seed: 7,
            listener: listener)
    }

    /// The daemon's parts, as previewd wires them.
    package var instance: Instance!
    package var controller: PlayerController { instance.controller }
    package var table: CommandTable { instance.table }
    package var hub: MessageHub { instance.hub }

    package static let counter = Atomic<Int>(0)
    /// The state directory: stored playlists and the want list go under it.
    package let playlistDirectory: String

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
    package func settle() {
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
    package func deliverLocal() {
        for s in sessions where !s.state.pendingLocal.isEmpty {
            let local = s.state.pendingLocal
            s.state.pendingLocal = []
            s.notify(local)
        }
    }

    package func release() {
        let pending = held
        held = []
        for p in pending { p() }
        settle()
    }

    private func answer(_ url: String) -> HTTPResult {
        CatalogAnswers.answer(url, bodies: bodies)
    }

    /// A new client; its greeting is consumed. `maxCommandListBytes` as
    /// `--max-command-list` sets it.
    package func connect(maxCommandListBytes: Int = 2 << 20) -> ClientSession {
        let s = ClientSession(table: table, log: Log(level: .error), hub: hub, maxCommandListBytes: maxCommandListBytes)
        sessions.append(s)
        let greeting = take(s)
        precondition(greeting == "OK MPD 0.23.5\n", "no greeting: \(greeting)")
        return s
    }

    /// Sends `text` and returns (and clears) everything the session wrote.
    @discardableResult
    package func send(_ s: ClientSession, _ text: String) -> String {
        let bytes = Array(text.utf8)
        bytes.withUnsafeBytes { s.receive($0) }
        settle()
        return take(s)
    }

    /// Everything the session has to write, as a socket taking it all would
    /// (and the server answering requests held meanwhile).
    package func take(_ s: ClientSession) -> String {
        var out: [UInt8] = []
        while !s.pendingOutput.isEmpty || s.inputHeld {
            out += s.pendingOutput
            s.consumeOutput(s.pendingOutput.count)
            s.resumeInput()
        }
        return String(decoding: out, as: UTF8.self)
    }
}
