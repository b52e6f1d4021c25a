import PreviewCore
import PreviewPlatform
import Synchronization

/// A loopback listener without a password (previewweb, previewd's HTTP
/// stream) serves only the user it runs as, as previewd's socket does
/// (SO_PEERCRED): TCP has no peer credentials, but
/// on loopback the client's socket is this machine's, listed in
/// /proc/net/tcp with its owner's uid (`ProcNetTCP`). A client of another
/// uid, or one not listed there, is refused before a byte is read. Each
/// refusal is logged, at most one line in 10 s (with the count held back).
public final class OwnUserOnly: Sendable {
    /// The uid served.
    public let userID: UInt32
    private let owner: @Sendable (IPv4Endpoint, IPv4Endpoint) -> UInt32?
    private let log: @Sendable (String) -> Void
    private let now: @Sendable () -> Double
    private let program: String
    private let refusals = Mutex(RepeatLimiter(interval: 10))

    /// - Parameters:
    ///   - userID: the uid served (previewweb's effective one).
    ///   - owner: the uid that made a client's socket (`client`, `server`),
    ///     nil when unknown; `ProcNetTCP.owner(ofClient:server:)` by default.
    ///   - log: where a refusal's line goes (with the program's name).
    ///   - now: monotonic seconds, for the log's rate.
    ///   - program: the name the log line starts with and names as the server.
    public init(
        userID: UInt32, owner: @escaping @Sendable (IPv4Endpoint, IPv4Endpoint) -> UInt32? = ProcNetTCP.owner,
        log: @escaping @Sendable (String) -> Void, now: @escaping @Sendable () -> Double = SystemClock.monotonicSeconds,
        program: String = "previewweb"
    ) {
        self.userID = userID
        self.program = program
        self.owner = owner
        self.log = log
        self.now = now
    }

    /// Whether to serve `client`, connected to `server` (an `HTTPServer.AcceptPolicy`).
    public func admit(_ client: IPv4Endpoint, _ server: IPv4Endpoint) -> Bool {
        let uid = owner(client, server)
        if uid == userID { return true }
        let who = uid.map { "uid \($0)" } ?? "\(client) (no socket of this machine)"
        let line: String? = refusals.withLock { limiter in
            guard let held = limiter.admit("refused", now: now()) else { return nil }
            return "\(program): refused a connection from \(who) (\(program) serves uid \(userID) only)" + limiter.suffix(held: held)
        }
        if let line { log(line) }
        return false
    }
}
