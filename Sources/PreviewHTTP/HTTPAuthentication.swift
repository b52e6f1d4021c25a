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
    /// Answered already (401 with a challenge, or 429): the result of queueing it.
    case answered(MHD_Result)
}

/// Authentication's state shared by the connections' threads: the open
/// sessions and the count of wrong passwords by client address.
final class HTTPAuthenticationState: Sendable {
    let sessions = HTTPSessions()
    let guesses = Mutex(HTTPPasswordThrottle())
    /// Says a lockout (a line without the program's name).
    let log: @Sendable (String) -> Void

    init(log: @escaping @Sendable (String) -> Void) { self.log = log }
}

extension HTTPCredentials {
    /// Checks a request: its session cookie, else its digest
    /// (`MHD_digest_auth_check2`; nonces live 5 minutes, and a browser
    /// renews a stale one unasked). A request that carried an
    /// `Authorization` header and failed counts against its client's
    /// address (`HTTPPasswordThrottle`): its 401 waits on this
    /// connection's thread, and an address locked out gets 429 before
    /// any digest is checked. A request without the header, or with a
    /// stale nonce, is asked for credentials and counts for nothing.
    func authorize(_ connection: OpaquePointer, client: IPv4Endpoint?, state: HTTPAuthenticationState) -> HTTPAuthorization {
        if let cookie = pv_mhd_cookie(connection, Self.cookie), state.sessions.check(String(cString: cookie)) {
            return .allow(setCookie: nil)
        }
        let address = client?.address ?? 0
        let admission = state.guesses.withLock { $0.admit(address, now: SystemClock.monotonicSeconds()) }
        if case .lockedOut(let left) = admission { return .answered(tooManyGuesses(connection, retryAfter: left)) }
        let verdict = pv_mhd_digest_check(connection, realm, user, password, 300)
        if verdict == 1 {
            state.guesses.withLock { $0.succeeded(address) }
            return .allow(setCookie: "\(Self.cookie)=\(state.sessions.open()); Path=/; HttpOnly; SameSite=Strict")
        }
        if verdict == 0, pv_mhd_header(connection, "Authorization") != nil {
            switch state.guesses.withLock({ $0.failed(address, now: SystemClock.monotonicSeconds()) }) {
            case .delay(let seconds): ThisProcess.sleep(seconds: seconds)
            case .lockedOutNow(let seconds):
                let who = client?.host ?? "a client"
                state.log("\(who) sent \(state.guesses.withLock { $0.lockoutAfter }) wrong passwords: refused for \(seconds) s")
                return .answered(tooManyGuesses(connection, retryAfter: seconds))
            case .lockedOut(let left): return .answered(tooManyGuesses(connection, retryAfter: left))
            }
        }
        return .answered(challenge(connection, stale: verdict == -1))
    }

    /// A 401 answer with the digest challenge (`MHD_queue_auth_fail_response2`).
    private func challenge(_ connection: OpaquePointer, stale: Bool) -> MHD_Result {
        guard let response = Self.text("the user name and password are needed\n") else { return pv_mhd_no() }
        let queued = pv_mhd_ask_credentials(connection, realm, "previewweb", response, stale ? 1 : 0)
        MHD_destroy_response(response)
        return queued
    }

    /// A 429 answer for an address locked out (`MHD_queue_response`).
    private func tooManyGuesses(_ connection: OpaquePointer, retryAfter seconds: Int) -> MHD_Result {
        guard let response = Self.text("too many wrong passwords; try again in \(seconds) s\n") else { return pv_mhd_no() }
        _ = MHD_add_response_header(response, "Retry-After", String(seconds))
        let queued = MHD_queue_response(connection, 429, response)
        MHD_destroy_response(response)
        return queued
    }

    /// A plain-text response (`MHD_create_response_from_buffer`); nil when
    /// libmicrohttpd has no memory for it.
    private static func text(_ line: String) -> OpaquePointer? {
        let body = Array(line.utf8)
        guard let response = body.withUnsafeBytes({ pv_mhd_response_copy($0.count, $0.baseAddress) }) else { return nil }
        _ = MHD_add_response_header(response, "Content-Type", "text/plain; charset=utf-8")
        return response
    }
}
