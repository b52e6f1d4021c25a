import Glibc

/// poll(2)'s event bits (`events` asked for, `revents` returned).
public struct PollEvents: OptionSet, Sendable {
    public let rawValue: Int16
    public init(rawValue: Int16) { self.rawValue = rawValue }

    /// POLLIN: data to read, or a connection to accept.
    public static let readable = PollEvents(rawValue: Int16(POLLIN))
    /// POLLOUT: room to write.
    public static let writable = PollEvents(rawValue: Int16(POLLOUT))
    /// POLLHUP: the peer hung up (returned only).
    public static let hangUp = PollEvents(rawValue: Int16(POLLHUP))
    /// POLLERR: an error is pending (returned only).
    public static let error = PollEvents(rawValue: Int16(POLLERR))
}

/// One entry of poll(2)'s array: a `struct pollfd` and nothing else, so an
/// array of them is handed to the kernel as it is, without a copy.
public struct PollDescriptor {
    private var raw: pollfd

    /// Waits for `events` on `descriptor`.
    public init(_ descriptor: FileDescriptor, events: PollEvents) {
        raw = pollfd(fd: descriptor.rawValue, events: events.rawValue, revents: 0)
    }

    public var descriptor: FileDescriptor { FileDescriptor(rawValue: raw.fd) }
    /// What was asked for.
    public var events: PollEvents { PollEvents(rawValue: raw.events) }
    /// What the last `poll` found (empty: nothing happened on this one).
    public var returnedEvents: PollEvents { PollEvents(rawValue: raw.revents) }

    /// poll(2) over `descriptors`, setting each one's `returnedEvents`.
    /// - Parameter timeout: milliseconds to wait at most; -1 waits for ever, 0 not at all.
    /// - Returns: how many descriptors have events; 0 when the time ran out.
    /// - Throws: `SystemError("poll")`. A signal that comes first makes it
    ///   poll again (with the same timeout): signals reach the loop through
    ///   the signal pipe, which is one of the descriptors.
    @discardableResult
    public static func poll(_ descriptors: inout [PollDescriptor], timeout: Int32) throws(SystemError) -> Int {
        let n = try Syscall.call("poll") {
            descriptors.withUnsafeMutableBufferPointer { buf in
                buf.withMemoryRebound(to: pollfd.self) { Glibc.poll($0.baseAddress, nfds_t($0.count), timeout) }
            }
        }
        return Int(n)
    }
}
