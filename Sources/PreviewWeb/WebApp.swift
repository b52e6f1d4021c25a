import PreviewControl
import PreviewCore
import PreviewHTTP
import PreviewPlatform
import Synchronization

/// The web front end's routes, over the MPD socket (`MPDClient`), behind
/// `WebGuard` (docs/web.md):
///
/// - `GET /`, `/v/VERSION/app.css`, `/v/VERSION/js/*.js`,
///   `/manifest.webmanifest`, `/icon.svg`: the page (`WebAssets`), which
///   carries the token in a `<meta>` element; gzipped when the browser
///   accepts it, the versioned files kept by it for good;
/// - `GET /api/status`: the player and the current song as JSON (the same
///   object as `previewctl status --json`);
/// - `GET /api/mpd?c=LINE[&c=LINE...]`: MPD commands that only read;
///   `POST` the same for commands that change state (`WebCommands`). The
///   answer is `WebCommands.json` of the replies, or the daemon's refusal
///   as `{"error": MESSAGE}` with status 409 (502 when it cannot be
///   reached, 503 when every connection to it is taken);
/// - `GET /api/events`: Server-Sent Events from `idle` (`IdleEventStream`),
///   at most `maxEventStreams` at once (503 beyond);
/// - `GET /cover?uri=URI`: the cover of a track, album, artist, playlist
///   or radio, through `CoverCache` (404 when it has none);
/// - `GET /stream.mp3`, `/stream.flac`: previewd's HTTP stream, relayed
///   (`stream(path:client:headOnly:)`), at most `WebStream.maxRelays` at once.
///
/// Every answer carries a strict Content-Security-Policy: the page loads
/// nothing from elsewhere and runs no inline script, so catalog text
/// cannot become code even if a title slipped through unescaped.
public struct WebApp: Sendable {
    public let guardian: WebGuard
    public let mpd: MPDClient
    public let covers: CoverCache?
    /// The page's files, made once (with the guard's token).
    public let assets: WebAssets
    private let streams = Places(limit: WebApp.maxEventStreams)
    /// Relays of previewd's HTTP stream under way (`WebStreamRelay.swift`).
    let relays = Places(limit: WebStream.maxRelays)

    /// Event streams open at once, at most (each holds a thread and a
    /// connection to previewd).
    public static let maxEventStreams = 32

    /// The request headers the routes read.
    public static let headers = WebGuard.headers + ["Accept-Encoding"]

    /// Bytes of a request's query (decoded), at most: even percent-encoded
    /// (3 bytes each) with the headers it leaves room for the answer
    /// within libmicrohttpd's 64 KiB a connection, so a command never runs
    /// without its answer being sent. The page's longest list (a radio's
    /// 14 `add`s) is under 1 KiB.
    public static let maxQueryBytes = 16 * 1024

    /// - Parameter covers: nil when no cache directory could be made: covers
    ///   are then answered 404 and the page shows its placeholders.
    public init(guardian: WebGuard, mpd: MPDClient, covers: CoverCache?) {
        self.guardian = guardian
        self.mpd = mpd
        self.covers = covers
        assets = WebAssets(token: guardian.token)
    }

    /// The answer to one request.
    public func respond(to request: HTTPRequest) -> WebResponse {
        guard ["GET", "HEAD", "POST"].contains(request.method) else { return .text(405, "GET, HEAD or POST only\n") }
        if let repeated = request.repeatedHeaders.first { return .text(400, "more than one \(repeated) header\n") }
        guard request.queryBytes <= Self.maxQueryBytes else {
            return WebResponse(status: 414, type: "application/json", body: Self.error("the query is over \(Self.maxQueryBytes) bytes"))
        }
        let verdict = guardian.check(
            method: request.method, host: request.headers["Host"],
            origin: request.headers["Origin"], token: request.headers[WebGuard.tokenHeader],
            fetchSite: request.headers["Sec-Fetch-Site"], fetchMode: request.headers["Sec-Fetch-Mode"])
        if case .refuse(let status, let reason) = verdict { return .text(status, reason + "\n") }
        let reading = request.method == "GET" || request.method == "HEAD"
        if reading, let file = assets.files[request.path] {
            return .file(file, gzip: WebAssets.acceptsGzip(request.headers["Accept-Encoding"]))
        }
        switch (reading, request.path) {
        case (true, "/api/status"): return status()
        case (_, "/api/mpd"):
            return relay(request.arguments("c"), changing: !reading).gzipped(WebAssets.acceptsGzip(request.headers["Accept-Encoding"]))
        case (true, "/api/events"): return events(client: request.client)
        case (true, "/cover"): return cover(request.arguments("uri").first ?? "")
        case (true, "/stream.mp3"), (true, "/stream.flac"):
            return stream(path: request.path, client: request.client, headOnly: request.method == "HEAD")
        default: return .text(reading ? 404 : 405, "not here\n")
        }
    }

    private func status() -> WebResponse {
        do {
            let replies = try mpd.connect().run(["status", "currentsong"])
            let body = ControlJSON.status(status: MPDClient.dictionary(replies[0]), song: MPDClient.dictionary(replies[1]))
            return WebResponse(status: 200, type: "application/json", body: body)
        } catch {
            return failure(error)
        }
    }

    private func relay(_ lines: [String], changing: Bool) -> WebResponse {
        let checked: [String]
        do { checked = try WebCommands.check(lines, changing: changing) } catch {
            return WebResponse(status: error.status, type: "application/json", body: Self.error(error.reason))
        }
        do {
            return WebResponse(status: 200, type: "application/json", body: WebCommands.json(try mpd.connect().run(checked)))
        } catch {
            return failure(error)
        }
    }

    private func events(client: Int32) -> WebResponse {
        guard streams.take() else {
            return .text(503, "at most \(Self.maxEventStreams) event streams at once\n")
        }
        let connection: PooledConnection
        do { connection = try mpd.connect() } catch {
            streams.giveBack()
            return failure(error)
        }
        let counter = streams
        var response = WebResponse(status: 200, type: "text/event-stream", body: "")
        response.stream = IdleEventStream(connection: connection, client: client, onClose: { counter.giveBack() })
        return response
    }

    private func cover(_ uri: String) -> WebResponse {
        guard let name = WebCovers.fileName(for: uri) else {
            return .text(400, "uri must be deezer:album:ID (track, artist, playlist, radio)\n")
        }
        guard let covers else { return .text(404, "no cover cache\n") }
        do {
            let answer = try covers.cover(named: name) { () throws(MPDFailure) -> [UInt8] in try self.fetchCover(uri) }
            guard case .image(let bytes, let type) = answer else { return .text(404, "no cover\n") }
            var response = WebResponse(status: 200, type: type, body: "")
            response.bytes = bytes
            response.cacheControl = "private, max-age=86400"
            return response
        } catch {
            // The daemon's refusal here is a fetch that failed (Deezer busy): try again later.
            if case .refused(_, let message) = error { return failure(.unreachable("no cover now: " + message)) }
            return failure(error)
        }
    }

    /// The whole cover from previewd, `albumart` chunk after chunk.
    private func fetchCover(_ uri: String) throws(MPDFailure) -> [UInt8] {
        let connection = try mpd.connect()
        var bytes: [UInt8] = []
        while true {
            let (fields, chunk) = try connection.runBinary("albumart \(RequestParser.quote(uri)) \(bytes.count)")
            bytes += chunk
            let size = Int(MPDClient.dictionary(fields)["size"] ?? "") ?? 0
            if chunk.isEmpty || bytes.count >= size || bytes.count > WebCovers.maxCoverBytes { return bytes }
        }
    }

    func failure(_ error: MPDFailure) -> WebResponse {
        switch error {
        case .refused(_, let message): return WebResponse(status: 409, type: "application/json", body: Self.error(message))
        case .busy(let why): return WebResponse(status: 503, type: "application/json", body: Self.error(why))
        case .unreachable(let why): return WebResponse(status: 502, type: "application/json", body: Self.error(why))
        }
    }

    private static func error(_ message: String) -> String { "{\"error\":" + CatalogFormat.jsonString(message) + "}\n" }
}

/// A response as `WebApp` makes it; `headers` adds the security headers
/// every answer carries.
public struct WebResponse: Sendable {
    public var status: Int
    public var type: String
    public var body: String
    /// Sent instead of `body` when set (an image).
    public var bytes: [UInt8]?
    /// Sent instead of either when set (event streams).
    public var stream: HTTPStream?
    /// `no-store` but for covers, which do not change, and the page's files.
    public var cacheControl = "no-store"
    /// `Content-Encoding` (`gzip`), when the body is encoded.
    public var encoding: String?
    /// Whether another `Accept-Encoding` gets another body (`Vary`).
    public var variesByEncoding = false
    /// Whether the Content-Security-Policy goes with it: with everything a
    /// browser may show as a document, not with the page's style and
    /// scripts (a policy governs documents; 300 bytes each, 10 times a load).
    public var carriesPolicy = true

    public init(status: Int, type: String, body: String) {
        self.status = status
        self.type = type
        self.body = body
    }

    static func text(_ status: Int, _ body: String) -> WebResponse {
        WebResponse(status: status, type: "text/plain; charset=utf-8", body: body)
    }

    /// Bodies of at least this many bytes are sent gzipped to a browser
    /// that takes it (a reply of Listen Now or a search: 5 to 30 KB of
    /// JSON, a fifth of that gzipped); smaller ones gain less than the
    /// header costs.
    static let gzipFrom = 1024

    /// This answer gzipped (zlib, level 6) when `accepted` and its body is
    /// `gzipFrom` bytes or more; else as it is.
    func gzipped(_ accepted: Bool) -> WebResponse {
        guard stream == nil, encoding == nil, (bytes?.count ?? body.utf8.count) >= Self.gzipFrom else { return self }
        var out = self
        out.variesByEncoding = true
        guard accepted, let zipped = Gzip.compress(bytes ?? Array(body.utf8), level: 6) else { return out }
        out.bytes = zipped
        out.encoding = "gzip"
        return out
    }

    /// One of the page's files, gzipped when `gzip` (the browser accepts it) and it has a gzip.
    static func file(_ file: WebAssets.File, gzip: Bool) -> WebResponse {
        var response = WebResponse(status: 200, type: file.type, body: "")
        response.bytes = file.body
        if let gzipped = file.gzipped {
            response.variesByEncoding = true
            if gzip {
                response.bytes = gzipped
                response.encoding = "gzip"
            }
        }
        response.cacheControl = file.kept.cacheControl
        response.carriesPolicy = !file.immutable
        return response
    }

    /// As `HTTPServer` sends it.
    public var http: HTTPResponse {
        HTTPResponse(status: status, headers: headers, body: bytes ?? Array(body.utf8), stream: stream)
    }

    /// The page's Content-Security-Policy: nothing from elsewhere, no inline script or style.
    static let policy =
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; media-src 'self'; "
        + "connect-src 'self'; manifest-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

    /// The headers to send: the type, and the same security headers on every answer.
    public var headers: [(String, String)] {
        [("Content-Type", type)]
            + (carriesPolicy ? [("Content-Security-Policy", Self.policy)] : [])
            + [("X-Content-Type-Options", "nosniff"), ("Referrer-Policy", "no-referrer"), ("Cache-Control", cacheControl)]
            + (encoding.map { [("Content-Encoding", $0)] } ?? []) + (variesByEncoding ? [("Vary", "Accept-Encoding")] : [])
    }
}

/// The app once it is made, shared with the server's threads (the server
/// starts before its port, which the guard names, is known).
public final class WebAppSlot: Sendable {
    private let app = Mutex<WebApp?>(nil)

    public init() {}

    public func set(_ value: WebApp) { app.withLock { $0 = value } }

    /// The app's answer, or 503 before it is set.
    public func respond(to request: HTTPRequest) -> HTTPResponse {
        guard let current = app.withLock({ $0 }) else { return WebResponse.text(503, "starting\n").http }
        return current.respond(to: request).http
    }
}
