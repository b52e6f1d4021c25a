import CMicrohttpd
import PreviewPlatform
import Synchronization

/// HTTP digest authentication (RFC 7616, SHA-256, done by libmicrohttpd's
/// `MHD_digest_auth_check2`), asked of every request, with a session
/// cookie once it succeeded: a browser's parallel requests then need no
/// digest each (libmicrohttpd refuses some of those Chromium sends on
/// parallel connections with one nonce, and a browser takes a refusal for
/// a wrong password). The cookie is `HttpOnly; SameSite=Strict`, 128
/// random bits, kept in memory only (a restart asks for the digest again,
/// which the browser answers from its cache).
public struct HTTPCredentials: Sendable {
    /// The realm a browser shows in its prompt.
    public var realm: String
    public var user: String
    public var password: String

    public init(realm: String, user: String, password: String) {
        self.realm = realm
        self.user = user
        self.password = password
    }

    /// The cookie's name.
    static let cookie = "previewweb-session"
}

/// The sessions a successful digest opened: at most `capacity`, the least
/// recently used forgotten first.
final class HTTPSessions: Sendable {
    private let sessions = Mutex<(ids: [String: UInt64], clock: UInt64)>(([:], 0))
    /// Sessions kept, at most.
    static let capacity = 256

    /// Whether `id` is an open session (and marks it used).
    func check(_ id: String) -> Bool {
        sessions.withLock { s in
            guard s.ids[id] != nil else { return false }
            s.clock += 1
            s.ids[id] = s.clock
            return true
        }
    }

    /// A new session's id.
    func open() -> String {
        let id = (0..<2).map { _ in String(UInt64.random(in: .min ... .max), radix: 16) }.joined(separator: "-")
        sessions.withLock { s in
            s.clock += 1
            s.ids[id] = s.clock
            if s.ids.count > Self.capacity, let oldest = s.ids.min(by: { $0.value < $1.value }) { s.ids[oldest.key] = nil }
        }
        return id
    }
}

/// What authentication decided for one request.
enum HTTPAuthorization {
    /// Let through; with a new session, its `Set-Cookie` value.
    case allow(setCookie: String?)
    /// Answered 401 with a challenge (the result of queueing it).
    case challenged(MHD_Result)
}

extension HTTPCredentials {
    /// Checks a request: its session cookie, else its digest
    /// (`MHD_digest_auth_check2`; nonces live 5 minutes, and a browser
    /// renews a stale one unasked).
    func authorize(_ connection: OpaquePointer, sessions: HTTPSessions) -> HTTPAuthorization {
        if let cookie = pv_mhd_cookie(connection, Self.cookie), sessions.check(String(cString: cookie)) {
            return .allow(setCookie: nil)
        }
        let verdict = pv_mhd_digest_check(connection, realm, user, password, 300)
        guard verdict == 1 else { return .challenged(challenge(connection, stale: verdict == -1)) }
        return .allow(setCookie: "\(Self.cookie)=\(sessions.open()); Path=/; HttpOnly; SameSite=Strict")
    }

    /// A 401 answer with the digest challenge (`MHD_queue_auth_fail_response2`).
    private func challenge(_ connection: OpaquePointer, stale: Bool) -> MHD_Result {
        let body = Array("the user name and password are needed\n".utf8)
        guard let response = body.withUnsafeBytes({ pv_mhd_response_copy($0.count, $0.baseAddress) }) else { return pv_mhd_no() }
        _ = MHD_add_response_header(response, "Content-Type", "text/plain; charset=utf-8")
        let queued = pv_mhd_ask_credentials(connection, realm, "previewweb", response, stale ? 1 : 0)
        MHD_destroy_response(response)
        return queued
    }
}
