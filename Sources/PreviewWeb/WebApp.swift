import PreviewCore
import PreviewHTTP
import PreviewPlatform
import Synchronization

/// The web front end's routes, over the MPD socket (`MPDClient`), behind
/// `WebGuard`:
///
/// - `GET /`, `/app.js`, `/app.css`: the page (`WebAssets`), which carries
///   the token in a `<meta>` element;
/// - `GET /api/status`: the player and the current song as JSON (the same
///   object as `previewctl status --json`);
/// - `POST /api/play`, `/api/pause`, `/api/next`, `/api/previous`: the
///   command; `{"ok":true}`, or a 409 with the daemon's refusal.
///
/// Every answer carries a strict Content-Security-Policy: the page loads
/// nothing from elsewhere and runs no inline script, so catalog text
/// cannot become code even if a title slipped through unescaped.
public struct WebApp: Sendable {
    public let guardian: WebGuard
    public let mpd: MPDClient

    /// The request headers the routes read.
    public static let headers = ["Host", "Origin", WebGuard.tokenHeader]

    /// The commands a `POST /api/NAME` runs, by NAME.
    static let commands = ["play": "play", "pause": "pause", "next": "next", "previous": "previous"]

    public init(guardian: WebGuard, mpd: MPDClient) {
        self.guardian = guardian
        self.mpd = mpd
    }

    /// The answer to one request.
    public func respond(to request: HTTPRequest) -> WebResponse {
        let verdict = guardian.check(method: request.method, host: request.headers["Host"],
                                     origin: request.headers["Origin"], token: request.headers[WebGuard.tokenHeader])
        if case .refuse(let status, let reason) = verdict { return .text(status, reason + "\n") }
        switch (request.method, request.path) {
        case ("GET", "/"), ("HEAD", "/"):
            return WebResponse(status: 200, type: "text/html; charset=utf-8", body: WebAssets.page(token: guardian.token))
        case ("GET", "/app.js"): return WebResponse(status: 200, type: "text/javascript; charset=utf-8", body: WebAssets.script)
        case ("GET", "/app.css"): return WebResponse(status: 200, type: "text/css; charset=utf-8", body: WebAssets.style)
        case ("GET", "/api/status"): return status()
        case ("POST", let path) where path.hasPrefix("/api/"):
            guard let command = Self.commands[String(path.dropFirst(5))] else { return .text(404, "no such command\n") }
            do {
                _ = try mpd.run(command)
                return WebResponse(status: 200, type: "application/json", body: "{\"ok\":true}\n")
            } catch {
                return failure(error)
            }
        default: return .text(request.method == "GET" ? 404 : 405, "not here\n")
        }
    }

    private func status() -> WebResponse {
        do {
            let st = MPDClient.dictionary(try mpd.run("status"))
            let song = MPDClient.dictionary(try mpd.run("currentsong"))
            return WebResponse(status: 200, type: "application/json", body: ControlJSON.status(status: st, song: song))
        } catch {
            return failure(error)
        }
    }

    private func failure(_ error: MPDClient.Failure) -> WebResponse {
        switch error {
        case .refused(let message): return .text(409, message + "\n")
        case .unreachable(let why): return .text(502, why + "\n")
        }
    }
}

/// A response as `WebApp` makes it; `headers` adds the security headers
/// every answer carries.
public struct WebResponse: Sendable {
    public var status: Int
    public var type: String
    public var body: String

    static func text(_ status: Int, _ body: String) -> WebResponse {
        WebResponse(status: status, type: "text/plain; charset=utf-8", body: body)
    }

    /// As `HTTPServer` sends it.
    public var http: HTTPResponse { HTTPResponse(status: status, headers: headers, body: Array(body.utf8)) }

    /// The headers to send: the type, and the same security headers on every answer.
    public var headers: [(String, String)] {
        [("Content-Type", type),
         ("Content-Security-Policy",
          "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
            + "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"),
         ("X-Content-Type-Options", "nosniff"), ("Referrer-Policy", "no-referrer"), ("Cache-Control", "no-store")]
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
