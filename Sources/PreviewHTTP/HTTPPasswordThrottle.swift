/// The rules that make guessing the web password slow, per client IPv4
/// address: each wrong digest from an address delays its 401 longer, and
/// after `lockoutAfter` of them the address is refused (429) for
/// `lockout` seconds, even with the right password, so one address tries
/// at most `lockoutAfter` passwords a `lockout`. Other addresses are not
/// held up: the right password from another address passes at once.
/// Pure: the caller passes the time (monotonic seconds), holds the value
/// under its lock and does the sleeping.
public struct HTTPPasswordThrottle: Sendable {
    /// What `admit` says of a request before its digest is checked.
    public enum Admission: Equatable, Sendable {
        /// Check the digest.
        case check
        /// Refuse it (429): the address is locked out for `secondsLeft` more (rounded up).
        case lockedOut(secondsLeft: Int)
    }

    /// What `failed` says of a wrong digest.
    public enum Penalty: Equatable, Sendable {
        /// Answer 401 after `seconds`.
        case delay(seconds: Double)
        /// This failure locked the address out for `seconds` (answer 429; log it).
        case lockedOutNow(seconds: Int)
        /// The address was locked out already, by a guess made alongside
        /// this one (answer 429).
        case lockedOut(secondsLeft: Int)
    }

    /// The first wrong digest's delay, in seconds; each next one doubles it.
    public let firstDelay: Double
    /// The longest delay, in seconds.
    public let maxDelay: Double
    /// Wrong digests that lock an address out.
    public let lockoutAfter: Int
    /// Seconds a lockout lasts; also how long an address's count of wrong
    /// digests is kept after its last one.
    public let lockout: Double
    /// Addresses remembered, at most: past it the one whose last wrong
    /// digest is oldest is forgotten.
    public let capacity: Int

    private struct Record {
        var failures: Int
        /// When the last wrong digest came.
        var last: Double
        var lockedUntil: Double?
    }
    private var records: [UInt32: Record] = [:]

    /// - Parameters: firstDelay, maxDelay, lockout: seconds; lockoutAfter:
    ///   wrong digests; capacity: addresses remembered.
    public init(
        firstDelay: Double = 0.1, maxDelay: Double = 5, lockoutAfter: Int = 10, lockout: Double = 300,
        capacity: Int = 4096
    ) {
        self.firstDelay = firstDelay
        self.maxDelay = maxDelay
        self.lockoutAfter = lockoutAfter
        self.lockout = lockout
        self.capacity = capacity
    }

    /// Addresses remembered now.
    public var count: Int { records.count }

    /// Whether a request from `address` (`in_addr.s_addr`) may have its
    /// digest checked at `now`.
    public mutating func admit(_ address: UInt32, now: Double) -> Admission {
        forgetIfOver(address, now: now)
        guard let until = records[address]?.lockedUntil else { return .check }
        return .lockedOut(secondsLeft: Self.seconds(until - now))
    }

    /// Counts a wrong digest from `address` at `now`.
    public mutating func failed(_ address: UInt32, now: Double) -> Penalty {
        forgetIfOver(address, now: now)
        if let until = records[address]?.lockedUntil { return .lockedOut(secondsLeft: Self.seconds(until - now)) }
        if records[address] == nil, records.count >= capacity,
            let oldest = records.min(by: { $0.value.last < $1.value.last })?.key
        {
            records[oldest] = nil
        }
        var record = records[address] ?? Record(failures: 0, last: now)
        record.failures += 1
        record.last = now
        defer { records[address] = record }
        guard record.failures < lockoutAfter else {
            record.lockedUntil = now + lockout
            return .lockedOutNow(seconds: Self.seconds(lockout))
        }
        return .delay(seconds: min(firstDelay * Double(1 << min(record.failures - 1, 30)), maxDelay))
    }

    /// The right password came from `address`: its count starts again.
    public mutating func succeeded(_ address: UInt32) { records[address] = nil }

    /// Drops `address`'s record once its lockout is over, or (never locked
    /// out) `lockout` seconds after its last wrong digest.
    private mutating func forgetIfOver(_ address: UInt32, now: Double) {
        guard let record = records[address] else { return }
        let over = record.lockedUntil.map { now >= $0 } ?? (now - record.last >= lockout)
        if over { records[address] = nil }
    }

    /// Whole seconds, rounded up, as said in a 429's `Retry-After`.
    private static func seconds(_ value: Double) -> Int { max(1, Int(value.rounded(.up))) }
}
