import PreviewCore

/// What the web front end lets through, before any route runs (issue 34,
/// "Secure by default"): a request must name this server in its `Host`
/// header (so a page on another site cannot reach it through DNS
/// rebinding), and a request that changes state must also come from this
/// server's own pages (`Origin`, when the browser sends one) and carry the
/// page's token (`X-Previewweb-Token`), which no other site can read (CSRF).
public struct WebGuard: Sendable {
    /// The answer for one request.
    public enum Verdict: Equatable, Sendable {
        case allow
        /// Refused with this HTTP status and a line saying why.
        case refuse(status: Int, reason: String)
    }

    /// The `Host` values this server answers to: `ADDRESS:PORT`, and for a
    /// loopback address `localhost:PORT` and `127.0.0.1:PORT` too.
    public let hosts: Set<String>
    /// Listening beyond loopback (behind a password): any IPv4 address
    /// with this port is answered too, as a phone names the machine by
    /// its address on the network. Names other than `localhost` stay
    /// refused: DNS rebinding needs one.
    public let anyAddress: Bool
    /// The port listened on.
    public let port: Int
    /// The token state-changing requests must carry (made at start).
    public let token: String

    /// The header the token travels in.
    public static let tokenHeader = "X-Previewweb-Token"
    /// The request headers `check` reads.
    public static let headers = ["Host", "Origin", tokenHeader, "Sec-Fetch-Site", "Sec-Fetch-Mode"]

    /// - Parameters: address: the IPv4 address listened on; port: its port;
    ///   token: the secret the pages carry.
    public init(address: String, port: Int, token: String) {
        var hosts: Set<String> = ["localhost:\(port)", "127.0.0.1:\(port)"]
        if address != "0.0.0.0" { hosts.insert("\(address):\(port)") }
        self.hosts = hosts
        self.anyAddress = !address.hasPrefix("127.")
        self.port = port
        self.token = token
    }

    /// Whether `method` changes state (everything but GET and HEAD).
    public static func changesState(_ method: String) -> Bool { method != "GET" && method != "HEAD" }

    /// The verdict on a request with these headers (nil: absent).
    /// `fetchSite` and `fetchMode` are `Sec-Fetch-Site` and
    /// `Sec-Fetch-Mode`: another page may link to this one (a navigation),
    /// but not read from it, open its event stream or load its covers,
    /// which would spend its places, its cache and Deezer's quota.
    public func check(
        method: String, host: String?, origin: String?, token sent: String?,
        fetchSite: String? = nil, fetchMode: String? = nil
    ) -> Verdict {
        guard let host, answers(host.lowercased()) else {
            let names = hosts.sorted().joined(separator: ", ") + (anyAddress ? ", IPV4:\(port)" : "")
            return .refuse(status: 421, reason: "this server answers to \(names) only")
        }
        if let origin, origin != "http://" + host.lowercased() {
            return .refuse(
                status: 403,
                reason: Self.changesState(method)
                    ? "requests from another site may not change anything" : "requests from another site are refused")
        }
        if let fetchSite, !["same-origin", "none"].contains(fetchSite), fetchMode != "navigate" {
            return .refuse(status: 403, reason: "requests from another site are refused")
        }
        guard Self.changesState(method) else { return .allow }
        guard let sent, Self.sameBytes(sent, token) else {
            return .refuse(status: 403, reason: "a request that changes something needs the page's token")
        }
        return .allow
    }

    /// Whether `host` (lower case) names this server.
    func answers(_ host: String) -> Bool {
        if hosts.contains(host) { return true }
        guard anyAddress, host.hasSuffix(":\(port)") else { return false }
        let parts = host.dropLast(":\(port)".count).split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts.allSatisfy { !$0.isEmpty && $0.count <= 3 && UInt8($0) != nil }
    }

    /// Compares in time independent of where the first difference is.
    static func sameBytes(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        guard x.count == y.count else { return false }
        var difference: UInt8 = 0
        for i in x.indices { difference |= x[i] ^ y[i] }
        return difference == 0
    }
}
