import Glibc

/// A failed system call: which C function, the errno it left, and the path
/// it was about when there is one. Callers that show the error to a person
/// use `description` or `reason`; callers that recover test `errno`.
public struct SystemError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The C function that failed (`open`, `bind`, `posix_spawn`, ...).
    public let function: String
    /// The error number: errno right after the call, or the code the
    /// function returned (posix_spawn returns it instead of setting errno).
    public let errno: Int32
    /// The file or socket path the call was about, if any.
    public let path: String?

    /// - Parameters: function: the C function; errno: defaults to the
    ///   thread's errno now, so build the error before any other call;
    ///   path: the file the call was about.
    public init(_ function: String, errno: Int32 = Glibc.errno, path: String? = nil) {
        self.function = function
        self.errno = errno
        self.path = path
    }

    /// strerror(3)'s text for `errno`, e.g. `No such file or directory`.
    public var reason: String { String(cString: strerror(errno)) }

    /// `FUNCTION PATH: REASON` (`bind /run/user/1000/previewd/socket: Address
    /// already in use`), or `FUNCTION: REASON` without a path.
    public var description: String {
        if let path { return "\(function) \(path): \(reason)" }
        return "\(function): \(reason)"
    }

    /// EAGAIN/EWOULDBLOCK: a non-blocking descriptor has nothing now.
    public var wouldBlock: Bool { errno == EAGAIN || errno == EWOULDBLOCK }
    /// ENOENT: the file (or a directory on its path) does not exist.
    public var isNotFound: Bool { errno == ENOENT }
    /// ECHILD: no such child to wait for (it was reaped already).
    public var isNoSuchChild: Bool { errno == ECHILD }
    /// EEXIST: the file, or a name on a bus, exists or is owned already.
    public var isAlreadyExisting: Bool { errno == EEXIST }
    /// ENOENT, ECONNREFUSED, ECONNRESET, ENOTCONN: nobody answers at the
    /// other end (no socket there, nobody listening, or the peer went away).
    public var isNoPeer: Bool { [ENOENT, ECONNREFUSED, ECONNRESET, ENOTCONN].contains(errno) }
}
