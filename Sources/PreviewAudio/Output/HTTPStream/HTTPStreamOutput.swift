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
/// (`StreamTitle`) goes to players that ask for it.
///
/// On a loopback address without a password only this process's user is
/// served (`OwnUserOnly`); beyond loopback a password is required (HTTP
/// digest, `HTTPCredentials`).
///
/// The engine calls it from one thread of its own; the connections are
/// libmicrohttpd's threads.
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
    init(host: String, port: Int, maxListeners: Int = 16, credentials: HTTPCredentials? = nil,
         log: @escaping @Sendable (String) -> Void) throws(StreamFailure) {
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
            server = try HTTPServer(address: host, port: port, maxConnections: maxListeners + 8,
                                    maxConnectionsPerAddress: maxListeners + 2, idleTimeout: 0,
                                    headers: ["Icy-MetaData"], credentials: credentials, acceptPolicy: policy,
                                    log: { log("previewd: HTTP stream: " + $0) }) { request in
                HTTPStreamOutput.answer(request, feeds: feeds, gate: gate)
            }
        } catch {
            throw .output("HTTP stream cannot listen on \(host):\(port): \(error)")
        }
        self.port = server?.port ?? port
    }

    deinit { close() }

    // AudioOutput, on the writing thread.

    func configure(_ format: AudioFormat) throws(StreamFailure) {
        guard format != converter?.input else { return }
        // The old format's last samples stay in the stream: songs play gapless.
        converter?.flush(feed)
        converter = try PCMConverter(from: format, to: HTTPStreamOutput.streamFormat)
    }

    func write(_ pcm: UnsafeRawBufferPointer, interrupted: () -> Bool) throws(StreamFailure) -> Int {
        guard let converter else { throw .output("HTTP stream written before configure") }
        if feeds.contains(where: \.isWanted) { converter.convert(pcm, feed) }
        return pcm.count
    }

    /// Hands converted samples to every format's feed.
    private func feed(_ samples: UnsafeBufferPointer<Int16>) {
        for feed in feeds { feed.feed(samples) }
    }

    func nowPlaying(_ info: StreamInfo) {
        let title = ICYInserter.streamTitle(artist: info.artist, title: info.title)
        for feed in feeds { feed.setTitle(title) }
    }

    /// A skip: what the resampler holds belongs to the song left. What the
    /// listeners were sent is theirs (their players buffer it anyway).
    func discard() { converter?.reset() }

    /// Playback stopped: the streams end, as MPD's do, after their last
    /// frames; a listener may connect again for the next playback.
    func stopped() {
        converter?.flush(feed)
        for feed in feeds { feed.end() }
    }

    /// Nothing to do: while paused the listeners get nothing and wait.
    func setPaused(_ paused: Bool) {}
    func trackEnded() {}
    func setVolume(_ percent: Int) {}
    var hasMixer: Bool { false }
    func wake() {}

    /// Ends the streams (as `stopped`) and stops listening.
    func close() {
        guard server != nil else { return }
        stopped()
        server = nil
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
        guard request.method == "GET" else { return HTTPResponse(status: 405, headers: text + [("Allow", "GET")]) }
        guard gate.enter() else {
            return HTTPResponse(status: 503, headers: text + [("Retry-After", "30")], body: Array("too many listeners\n".utf8))
        }
        // A small send buffer keeps the kernel from hiding megabytes of a
        // stalled listener's lag behind ours, so the bound means seconds.
        var size: Int32 = 64 * 1024
        if request.client >= 0 { setsockopt(request.client, SOL_SOCKET, SO_SNDBUF, &size, socklen_t(MemoryLayout<Int32>.size)) }
        let icy = request.headers["Icy-MetaData"] == "1" && feed.kind == .mp3
        let listener = StreamListener(bound: feed.kind.maxBytesPerSecond * StreamFeed.bufferSeconds, icy: icy,
                                      socket: request.client, onClose: { gate.leave() })
        feed.join(listener)
        var headers = [("Content-Type", feed.kind.contentType), ("Cache-Control", "no-cache, no-store"),
                       ("X-Content-Type-Options", "nosniff"), ("icy-name", "previewd")]
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
