import PreviewCore
import PreviewHTTP

extension WebApp {
    /// `GET /stream.mp3`, `/stream.flac` ("Play on this device"): previewd's
    /// HTTP stream, relayed through this origin and its password, so a page
    /// (a phone beyond loopback) plays it in an `<audio>` element without
    /// reaching previewd's own listener, which serves loopback only. The
    /// stream's address comes from `outputs` (`WebStream.source`); previewd
    /// lets previewweb in as its own uid. 404 when no HTTP stream output is
    /// enabled, 503 past `WebStream.maxRelays`, 502 when the stream cannot
    /// be reached. A `HEAD` says whether a stream is there without opening it.
    func stream(path: String, client: Int32, headOnly: Bool) -> WebResponse {
        guard let type = WebStream.formats[path] else { return .text(404, "not here\n") }
        let reply: [(String, String)]
        do { reply = try mpd.connect().run(["outputs"])[0] } catch { return failure(error) }
        let source: WebStream.Source
        do { source = try WebStream.source(outputs: reply) } catch { return .text(error.status, error.reason + "\n") }
        if headOnly { return WebResponse(status: 200, type: type, body: "") }
        guard relays.take() else { return .text(503, "at most \(WebStream.maxRelays) streams at once\n") }
        let upstream: HTTPUpstream
        do {
            upstream = try HTTPUpstream.get(address: source.address, port: source.port, path: path, timeout: 5)
        } catch {
            relays.giveBack()
            return .text(502, "cannot reach previewd's HTTP stream at \(source.address):\(source.port): \(error.reason)\n")
        }
        guard upstream.status == 200 else {
            relays.giveBack()
            // 503: previewd's 16 listeners are taken; anything else is previewd's fault, not the page's.
            return .text(upstream.status == 503 ? 503 : 502, "previewd's HTTP stream answered \(upstream.status)\n")
        }
        var response = WebResponse(status: 200, type: type, body: "")
        let counter = relays
        response.stream = StreamRelay(upstream: upstream, client: client, onClose: { counter.giveBack() })
        return response
    }
}

/// The body of a relayed stream: previewd's bytes as they come. While
/// previewd is paused its stream sends nothing and the relay waits,
/// watching the browser's socket meanwhile (as `IdleEventStream` does), so
/// a page that leaves, or an `<audio>` element that is stopped, closes the
/// connection to previewd and frees its place at once.
final class StreamRelay: HTTPStream, @unchecked Sendable {
    // Used by its connection's thread only (libmicrohttpd calls `next`
    // and `close` there), hence unchecked.
    private var upstream: HTTPUpstream?
    private let client: Int32
    private let onClose: @Sendable () -> Void

    /// Seconds between looks at a quiet stream; the client's socket is
    /// watched throughout, so this only bounds a wait for nothing.
    static let look = 10

    /// - Parameter client: the browser's socket (-1: unknown; the relay
    ///   then ends with previewd's stream only).
    init(upstream: HTTPUpstream, client: Int32, onClose: @escaping @Sendable () -> Void) {
        self.upstream = upstream
        self.client = client
        self.onClose = onClose
    }

    func next() -> [UInt8]? {
        guard let upstream else { return nil }
        while true {
            switch upstream.read(watching: client, seconds: Self.look) {
            case .bytes(let bytes): return bytes
            case .quiet: continue
            case .end, .clientGone: return nil
            }
        }
    }

    func close() {
        if upstream != nil { onClose() }
        upstream = nil
    }
}
