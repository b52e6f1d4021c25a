import Synchronization

/// The result of an HTTP GET.
public struct HTTPResult: Sendable {
    /// HTTP status code, or 0 when no response arrived.
    public var status: Int
    /// The `Content-Type` header, when present.
    public var contentType: String?
    /// The body bytes.
    public var body: [UInt8]
    /// The transport error text (curl's) when the transfer failed.
    public var transportError: String?
    /// Where a redirect not followed points (a `head`'s 3xx `Location`,
    /// made absolute), else nil.
    public var location: String?
    /// The body's share of the network's `MemoryBudget`, given back when
    /// the last copy of this result is gone (its reader is done with it).
    public var lease: MemoryBudget.Lease?
    /// - Parameters: as the properties.
    public init(
        status: Int, contentType: String?, body: [UInt8], transportError: String?, location: String? = nil,
        lease: MemoryBudget.Lease? = nil
    ) {
        self.status = status
        self.contentType = contentType
        self.body = body
        self.transportError = transportError
        self.location = location
        self.lease = lease
    }
}

/// Bytes held against one limit, by any thread: the prefetched previews'
/// downloads (`--prefetch-memory`), and the bodies of API answers in
/// flight (60 concurrent `add`s whose answers were each just under the
/// 16 MiB cap once held 1.36 GB).
public final class MemoryBudget: Sendable {
    /// The most bytes held at once.
    public let limit: Int
    private let used = Atomic<Int>(0)

    /// - Parameter limit: bytes.
    public init(limit: Int) { self.limit = limit }

    /// Bytes held now.
    public var inUse: Int { used.load(ordering: .relaxed) }

    /// Takes `n` bytes; when `mayExceed` is false, only if they fit.
    /// - Returns: whether the bytes were taken.
    public func take(_ n: Int, mayExceed: Bool) -> Bool {
        let now = used.add(n, ordering: .relaxed).newValue
        if !mayExceed && now > limit {
            used.subtract(n, ordering: .relaxed)
            return false
        }
        return true
    }

    /// Gives back `n` bytes taken with `take`.
    public func give(_ n: Int) { used.subtract(n, ordering: .relaxed) }

    /// Bytes reserved, given back when the lease is gone.
    public final class Lease: Sendable {
        private let budget: MemoryBudget
        /// The bytes held.
        public let bytes: Int

        /// Takes over `bytes` already taken from `budget`.
        public init(_ budget: MemoryBudget, bytes: Int) {
            self.budget = budget
            self.bytes = bytes
        }

        deinit { budget.give(bytes) }
    }
}

/// HTTP GET for the catalog clients (Deezer's API, Last.fm, cover images):
/// the whole body in memory. The curl network (`PreviewAudio.CurlNetwork`)
/// implements it, and the engine fetches previews over the same network.
public protocol HTTPClient: AnyObject, Sendable {
    /// Fetches `url` (http or https, redirects followed) with GET (RFC 9110
    /// section 9.3.1). `completion` is called once, on a network thread, with
    /// the status, the body and any transport error.
    func get(_ url: String, completion: @escaping @Sendable (HTTPResult) -> Void)

    /// Asks for `url` with HEAD (RFC 9110 section 9.3.2), redirects NOT
    /// followed: the status, and a redirect's target in `location`. No body
    /// is downloaded (share links are resolved this way).
    func head(_ url: String, completion: @escaping @Sendable (HTTPResult) -> Void)
}
