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
    /// The token state-changing requests must carry (made at start).
    public let token: String

    /// The header the token travels in.
    public static let tokenHeader = "X-Previewweb-Token"

    /// - Parameters: address: the IPv4 address listened on; port: its port;
    ///   token: the secret the pages carry.
    public init(address: String, port: Int, token: String) {
        var hosts: Set<String> = ["\(address):\(port)"]
        if address.hasPrefix("127.") { hosts.formUnion(["localhost:\(port)", "127.0.0.1:\(port)"]) }
        self.hosts = hosts
        self.token = token
    }

    /// Whether `method` changes state (everything but GET and HEAD).
    public static func changesState(_ method: String) -> Bool { method != "GET" && method != "HEAD" }

    /// The verdict on a request with these headers (nil: absent).
    public func check(method: String, host: String?, origin: String?, token sent: String?) -> Verdict {
        guard let host, hosts.contains(host.lowercased()) else {
            return .refuse(status: 421, reason: "this server answers to \(hosts.sorted().joined(separator: ", ")) only")
        }
        guard Self.changesState(method) else { return .allow }
        if let origin, origin != "http://" + host.lowercased() {
            return .refuse(status: 403, reason: "requests from another site may not change anything")
        }
        guard let sent, Self.sameBytes(sent, token) else {
            return .refuse(status: 403, reason: "a request that changes something needs the page's token")
        }
        return .allow
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
