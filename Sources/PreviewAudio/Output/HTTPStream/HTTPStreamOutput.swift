import Glibc
import PreviewCore
import PreviewHTTP
import PreviewPlatform
import Synchronization

/// The HTTP stream, as MPD's httpd output: what plays is encoded for
/// listeners on HOST:PORT as `GET /stream.mp3` (LAME, CBR 128 kbit/s) and
/// `GET /stream.flac` (libFLAC, lossless), always 44,100 Hz stereo s16
/// (other PCM goes through `PCMConverter`). It follows the engine and
/// never paces it: `write` only converts, encodes and queues, and a
/// listener that falls `StreamFeed.bufferSeconds` behind is dropped. Each
/// format's encoder runs only while someone listens to it. ICY metadata
/// (`StreamTitle`) goes to players that ask for it. While paused the
/// listeners get silence (`PauseSilence`), so their players wait for more
/// instead of giving up; when playback stops, or the output is turned
/// off, their streams end.
///
/// On a loopback address without a password only this process's user is
/// served (`OwnUserOnly`); beyond loopback a password is required (HTTP
/// digest, `HTTPCredentials`).
///
/// The engine calls it from one thread of its own (`setPaused` from the
/// control thread); the connections are libmicrohttpd's threads; a thread
/// of its own feeds the pause's silence. `encoding` keeps the writer and
/// that thread from feeding at once.
final class HTTPStreamOutput: AudioOutput, @unchecked Sendable {
    /// What the streams carry, whatever the songs' format.
    static let streamFormat = AudioFormat(sampleRate: 44100, channels: 2)
    /// The port listened on (the one chosen when 0 was asked for).
    let port: Int
    private var server: HTTPServer?
    private let feeds: [StreamFeed]
    private let log: @Sendable (String) -> Void
    // The writing thread's alone.
    private var converter: PCMConverter?
    /// Held while feeding; guards the pause's state below.
    private let encoding = Monitor()
    private var paused = false
    /// Audio went out since the last stop: a pause then owes silence.
    private var live = false
    private var closing = false
    private var silence: PauseSilence?
    private var silencer: pthread_t?

    /// Starts listening at once, so a listener may connect before anything plays.
    /// - Parameters:
    ///   - host: dotted IPv4 to listen on (`127.0.0.1`, `0.0.0.0`).
    ///   - port: TCP port; 0 for any free one (see `port`).
    ///   - maxListeners: connections streaming at once, both formats
    ///     together; one more is answered 503.
    ///   - credentials: the digest password every request must give;
    ///     needed beyond loopback (127.x.x.x).
    ///   - log: where a line about a listener dropped, an encoder failing
    ///     or a refused connection goes (with the program's name).
    /// - Throws: `StreamFailure.output` with the reason: a host beyond
    ///   loopback without credentials, a malformed host, the port in use.
    init(
        host: String, port: Int, maxListeners: Int = 16, credentials: HTTPCredentials? = nil,
        log: @escaping @Sendable (String) -> Void
    ) throws(StreamFailure) {
        guard host.hasPrefix("127.") || credentials != nil else {
            throw .output("HTTP stream on \(host): beyond loopback (127.x.x.x) a password is needed")
        }
        let feeds = StreamKind.allCases.map { StreamFeed(kind: $0, log: { log("previewd: HTTP stream " + $0) }) }
        self.feeds = feeds
        self.log = log
        var policy: HTTPServer.AcceptPolicy?
        if credentials == nil {
            let ownUser = OwnUserOnly(userID: ThisProcess.effectiveUserID, log: log, program: "previewd")
            policy = { client, server in ownUser.admit(client, server) }
        }
        let gate = ListenerGate(limit: maxListeners)
        do {
            // No idle timeout: a listener's connection is silent while
            // playback is paused. A client that never sends its request is
            // still cut at the request deadline.
            server = try HTTPServer(
                address: host, port: port, maxConnections: maxListeners + 8,
                maxConnectionsPerAddress: maxListeners + 2, idleTimeout: 0,
                headers: ["Icy-MetaData"], credentials: credentials, acceptPolicy: policy,
                log: { log("previewd: HTTP stream: " + $0) }
            ) { request in
                HTTPStreamOutput.answer(request, feeds: feeds, gate: gate)
            }
        } catch {
            throw .output("HTTP stream cannot listen on \(host):\(port): \(error)")
        }
        self.port = server?.port ?? port
        silencer = startThread { [self] in feedSilence() }
    }

    // AudioOutput, on the writing thread.

    func configure(_ format: AudioFormat) throws(StreamFailure) {
        guard format != converter?.input else { return }
        let next = try PCMConverter(from: format, to: HTTPStreamOutput.streamFormat)
        encoding.locked {
            // The old format's last samples stay in the stream: songs play gapless.
            converter?.flush(feed)
            converter = next
        }
    }

    func write(_ pcm: UnsafeRawBufferPointer, interrupted: () -> Bool) throws(StreamFailure) -> Int {
        guard let converter else { throw .output("HTTP stream written before configure") }
        encoding.locked {
            live = true
            // Audio queued before the pause still goes out; silence follows it.
            if paused { silence?.restart(now: SystemClock.monotonicSeconds()) }
            if feeds.contains(where: \.isWanted) { converter.convert(pcm, feed) }
        }
        return pcm.count
    }

    /// Hands converted samples to every format's feed.
    private func feed(_ samples: UnsafeBufferPointer<Int16>) {
        for feed in feeds { feed.feed(samples) }
    }

    func nowPlaying(_ info: StreamInfo) {
        let title = ICYInserter.streamTitle(artist: info.artist, title: info.title)
        encoding.locked { for feed in feeds { feed.setTitle(title) } }
    }

    /// A skip: what the resampler holds belongs to the song left. What the
    /// listeners were sent is theirs (their players buffer it anyway).
    func discard() { encoding.locked { converter?.reset() } }

    /// Playback stopped: the streams end, as MPD's do, after their last
    /// frames; a listener may connect again for the next playback.
    func stopped() {
        encoding.locked {
            live = false
            converter?.flush(feed)
            for feed in feeds { feed.end() }
        }
    }

    /// The output was turned off: its listeners' streams end, as on a stop.
    func release() { stopped() }

    /// From the control thread: a pause starts the silence, a resume ends
    /// it. A pause means a song is loaded (the player ignores one while
    /// stopped), so its listeners get silence even when it came before
    /// the song's first audio did.
    func setPaused(_ paused: Bool) {
        encoding.locked {
            self.paused = paused
            if paused { live = true }
            silence =
                paused
                ? PauseSilence(
                    sampleRate: HTTPStreamOutput.streamFormat.sampleRate,
                    now: SystemClock.monotonicSeconds()) : nil
            encoding.broadcast()
        }
    }

    func trackEnded() {}
    func setVolume(_ percent: Int) {}
    var hasMixer: Bool { false }
    func wake() {}

    /// Ends the streams (as `stopped`), the silence's thread, and stops
    /// listening. Its owner calls it (the engine at shutdown): until then
    /// the silence's thread holds the output, so it is never freed open.
    func close() {
        let thread: pthread_t? = encoding.locked {
            defer { silencer = nil }
            closing = true
            encoding.broadcast()
            return silencer
        }
        if let thread { pthread_join(thread, nil) }
        guard server != nil else { return }
        stopped()
        server = nil
    }

    /// The silence's thread: while paused after audio went out, feeds what
    /// `PauseSilence` owes every tick, to whoever listens.
    private func feedSilence() {
        encoding.locked {
            while !closing {
                guard paused, live, silence != nil else {
                    encoding.wait()
                    continue
                }
                encoding.wait(seconds: PauseSilence.tick)
                guard paused, live, !closing, var owed = silence else { continue }
                let frames = owed.take(now: SystemClock.monotonicSeconds())
                silence = owed
                guard frames > 0, feeds.contains(where: \.isWanted) else { continue }
                let zeros = [Int16](repeating: 0, count: frames * HTTPStreamOutput.streamFormat.channels)
                zeros.withUnsafeBufferPointer { feed($0) }
            }
        }
    }

    /// Each listener's bytes queued and not yet sent (its lag), both
    /// formats; as many as there are listeners. Any thread.
    func backlogs() -> [Int] { feeds.flatMap(\.backlogs) }

    /// The answer to one request, on its connection's thread.
    private static func answer(_ request: HTTPRequest, feeds: [StreamFeed], gate: ListenerGate) -> HTTPResponse {
        let text = [("Content-Type", "text/plain; charset=utf-8")]
        guard let feed = feeds.first(where: { $0.kind.path == request.path }) else {
            return HTTPResponse(status: 404, headers: text, body: Array("no such stream: /stream.mp3 or /stream.flac\n".utf8))
        }
        var headers = [
            ("Content-Type", feed.kind.contentType), ("Cache-Control", "no-cache, no-store"),
            ("X-Content-Type-Options", "nosniff"), ("icy-name", "previewd"),
        ]
        // A player may ask what the stream is before it listens.
        // A streamed answer of unknown length, so no `Content-Length: 0`.
        if request.method == "HEAD" { return HTTPResponse(status: 200, headers: headers, stream: HeadOnly()) }
        guard request.method == "GET" else { return HTTPResponse(status: 405, headers: text + [("Allow", "GET, HEAD")]) }
        guard gate.enter() else {
            return HTTPResponse(status: 503, headers: text + [("Retry-After", "30")], body: Array("too many listeners\n".utf8))
        }
        // A small send buffer keeps the kernel from hiding megabytes of a
        // stalled listener's lag behind ours, so the bound means seconds.
        var size: Int32 = 64 * 1024
        if request.client >= 0 { setsockopt(request.client, SOL_SOCKET, SO_SNDBUF, &size, socklen_t(MemoryLayout<Int32>.size)) }
        let icy = request.headers["Icy-MetaData"] == "1" && feed.kind == .mp3
        let listener = StreamListener(
            bound: feed.kind.maxBytesPerSecond * StreamFeed.bufferSeconds, icy: icy,
            socket: request.client, onClose: { gate.leave() })
        feed.join(listener)
        if icy { headers.append(("icy-metaint", String(ICYInserter.interval))) }
        return HTTPResponse(status: 200, headers: headers, stream: listener)
    }
}

/// The count of listeners against the limit, across both formats.
final class ListenerGate: Sendable {
    private let count = Mutex(0)
    private let limit: Int

    /// - Parameter limit: listeners at once.
    init(limit: Int) { self.limit = limit }

    /// Takes a place; false when all are taken.
    func enter() -> Bool {
        count.withLock { n in
            guard n < limit else { return false }
            n += 1
            return true
        }
    }

    /// Frees a place.
    func leave() { count.withLock { $0 -= 1 } }
}

/// The body of an answer to `HEAD`: none, and no length either.
private final class HeadOnly: HTTPStream {
    func next() -> [UInt8]? { nil }
    func close() {}
}
