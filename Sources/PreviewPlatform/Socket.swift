import Glibc

/// An AF_UNIX socket address (`struct sockaddr_un`): a file system path,
/// or a name in Linux's abstract namespace. Checks the length once, here,
/// instead of at every place that fills `sun_path`.
public struct UnixSocketAddress: @unchecked Sendable {
    private var storage = sockaddr_un()
    private let length: socklen_t
    /// The path as given (`@NAME` for an abstract name), for messages.
    public let path: String

    /// Bytes a path may have: `sun_path` (108 bytes) less its NUL.
    public static let maxPathBytes = MemoryLayout.size(ofValue: sockaddr_un().sun_path) - 1

    /// The socket file at `path`.
    /// - Throws: `SystemError("sockaddr_un", errno: ENAMETOOLONG, path:)`
    ///   when the path has more than `maxPathBytes` bytes.
    public init(path: String) throws(SystemError) {
        let bytes = Array(path.utf8)
        guard bytes.count <= Self.maxPathBytes else {
            throw SystemError("sockaddr_un", errno: ENAMETOOLONG, path: path)
        }
        self.path = path
        length = socklen_t(MemoryLayout<sockaddr_un>.size)
        fill(bytes)
    }

    /// The abstract-namespace name `name` (written `@name` by systemd):
    /// `sun_path` starts with a NUL and the length, not a NUL, ends it.
    /// - Throws: as `init(path:)`, for a name over `maxPathBytes - 1` bytes.
    public init(abstractName name: [UInt8]) throws(SystemError) {
        let path = "@" + String(decoding: name, as: UTF8.self)
        guard name.count + 1 <= Self.maxPathBytes else {
            throw SystemError("sockaddr_un", errno: ENAMETOOLONG, path: path)
        }
        self.path = path
        length = socklen_t(MemoryLayout<sa_family_t>.size + 1 + name.count)
        fill([0] + name)
    }

    private mutating func fill(_ bytes: [UInt8]) {
        storage.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &storage.sun_path) { raw in
            for (i, b) in bytes.enumerated() { raw[i] = b }
        }
    }

    fileprivate func withSockaddr<R>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> R) -> R {
        withUnsafePointer(to: storage) { p in
            p.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, length) }
        }
    }
}

/// The kind of socket (socket(2)'s type).
public enum SocketType: Sendable {
    /// SOCK_STREAM: a connection, bytes in order (the MPD protocol).
    case stream
    /// SOCK_DGRAM: separate messages (sd_notify).
    case datagram

    fileprivate var rawValue: Int32 {
        switch self {
        case .stream: Int32(SOCK_STREAM.rawValue)
        case .datagram: Int32(SOCK_DGRAM.rawValue)
        }
    }
}

/// Who is at the other end of a Unix socket (SO_PEERCRED's `struct ucred`).
public struct PeerCredentials: Equatable, Sendable {
    public var processID: Int32
    public var userID: UInt32
    public var groupID: UInt32
}

/// Making AF_UNIX sockets: each returns an owner, so a failure half-way
/// leaves nothing open.
public enum UnixSocket {
    /// socket(2) AF_UNIX, close-on-exec, non-blocking when asked.
    /// - Throws: `SystemError("socket")`.
    public static func make(_ type: SocketType, nonBlocking: Bool = false) throws(SystemError) -> OwnedDescriptor {
        var flags = type.rawValue | Int32(SOCK_CLOEXEC.rawValue)
        if nonBlocking { flags |= Int32(SOCK_NONBLOCK.rawValue) }
        let s = try Syscall.call("socket") { socket(AF_UNIX, flags, 0) }
        return OwnedDescriptor(FileDescriptor(rawValue: s))
    }

    /// A non-blocking, close-on-exec stream socket bound to `address` and
    /// listening (socket(2), bind(2), listen(2)). The umask is `creationMask`
    /// during bind(2), so the socket file has its final mode from the moment
    /// it exists: there is no window in which another user could connect.
    /// - Parameters: backlog: listen(2)'s queue length; creationMask: the
    ///   umask for bind (0o177 makes the socket 0600).
    /// - Throws: `SystemError` naming `socket`, `bind` (with the path) or `listen`.
    public static func listen(
        at address: UnixSocketAddress, backlog: Int32 = 128,
        creationMask: UInt32 = 0o177
    ) throws(SystemError) -> OwnedDescriptor {
        let s = try make(.stream, nonBlocking: true)
        let oldMask = umask(mode_t(creationMask))
        let rc = address.withSockaddr { bind(s.descriptor.rawValue, $0, $1) }
        let bindErrno = Glibc.errno
        umask(oldMask)
        guard rc == 0 else { throw SystemError("bind", errno: bindErrno, path: address.path) }
        try Syscall.call("listen") { Glibc.listen(s.descriptor.rawValue, backlog) }
        return s
    }

    /// A blocking, close-on-exec socket connected to `address` (socket(2),
    /// connect(2)).
    /// - Throws: `SystemError("socket")`, or `SystemError("connect", path:)`
    ///   (ENOENT: no socket file; ECONNREFUSED: nobody listening).
    /// - Parameter timeout: seconds connect(2) may wait for a listener whose
    ///   backlog is full (a stopped daemon), through SO_SNDTIMEO, which
    ///   Linux applies to a Unix socket's connect; past it, EAGAIN. nil:
    ///   for ever. It stays set for the socket's sends.
    public static func connect(
        to address: UnixSocketAddress, type: SocketType = .stream,
        timeout: Double? = nil
    ) throws(SystemError) -> OwnedDescriptor {
        let s = try make(type)
        if let timeout { try s.descriptor.setSendTimeout(seconds: timeout) }
        try Syscall.once("connect", path: address.path) { address.withSockaddr { Glibc.connect(s.descriptor.rawValue, $0, $1) } }
        return s
    }
}

extension FileDescriptor {
    /// accept(2) on a listening socket; the new connection is made
    /// non-blocking and close-on-exec.
    /// - Throws: `SystemError("accept")`; EAGAIN when none is pending.
    public func accept() throws(SystemError) -> FileDescriptor {
        let c = try Syscall.call("accept") { Glibc.accept(rawValue, nil, nil) }
        let fd = FileDescriptor(rawValue: c)
        fd.setNonBlockingCloseOnExec()
        return fd
    }

    /// send(2) with MSG_NOSIGNAL, once: a peer that went away is an EPIPE
    /// error here instead of a SIGPIPE that kills the process.
    /// - Returns: bytes sent (possibly fewer than given).
    /// - Throws: `SystemError("send")`; EAGAIN when the socket buffer is full.
    public func send(_ bytes: UnsafeRawBufferPointer) throws(SystemError) -> Int {
        try Syscall.call("send") { Glibc.send(rawValue, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL)) }
    }

    /// `send(_:)` for a slice of bytes. - Returns: bytes sent. - Throws: as `send(_:)`.
    public func send(_ bytes: ArraySlice<UInt8>) throws(SystemError) -> Int {
        try Syscall.call("send") { bytes.withUnsafeBytes { Glibc.send(rawValue, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } }
    }

    /// send(2) with MSG_NOSIGNAL until every byte is sent (on a blocking socket).
    /// - Throws: `SystemError("send")`; EPIPE when the peer is gone.
    public func sendAll(_ bytes: [UInt8]) throws(SystemError) {
        var offset = 0
        while offset < bytes.count {
            offset += try Syscall.call("send") {
                bytes.withUnsafeBytes { Glibc.send(rawValue, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
            }
        }
    }

    /// sendto(2) with MSG_NOSIGNAL: one datagram to `address`.
    /// - Throws: `SystemError("sendto", path:)`.
    public func send(_ bytes: [UInt8], to address: UnixSocketAddress) throws(SystemError) {
        try Syscall.call("sendto", path: address.path) {
            bytes.withUnsafeBytes { raw in
                address.withSockaddr { sendto(rawValue, raw.baseAddress, raw.count, Int32(MSG_NOSIGNAL), $0, $1) }
            }
        }
    }

    /// recv(2) into the start of `buffer`, with MSG_DONTWAIT when
    /// `dontWait` (for one read that must not block on a blocking socket).
    /// - Returns: bytes received; 0 when the peer closed.
    /// - Throws: `SystemError("recv")`; EAGAIN when nothing is there.
    public func receive(into buffer: inout [UInt8], dontWait: Bool = false) throws(SystemError) -> Int {
        let flags = dontWait ? Int32(MSG_DONTWAIT) : 0
        return try Syscall.call("recv") { buffer.withUnsafeMutableBytes { recv(rawValue, $0.baseAddress, $0.count, flags) } }
    }

    /// getsockopt(2) SO_PEERCRED: the process at the other end of a
    /// connected Unix socket, or nil when the kernel does not say.
    public func peerCredentials() -> PeerCredentials? {
        // struct ucred (pid, uid, gid); Glibc's module hides it behind _GNU_SOURCE.
        var cred: (pid: Int32, uid: UInt32, gid: UInt32) = (0, 0, 0)
        var size = socklen_t(MemoryLayout.size(ofValue: cred))
        guard getsockopt(rawValue, SOL_SOCKET, SO_PEERCRED, &cred, &size) == 0, size == 12 else { return nil }
        return PeerCredentials(processID: cred.pid, userID: cred.uid, groupID: cred.gid)
    }

    /// setsockopt(2) SO_RCVTIMEO: a read waits at most `seconds` seconds,
    /// then fails with EAGAIN; 0 waits for ever.
    /// - Throws: `SystemError("setsockopt")`.
    public func setReceiveTimeout(seconds: Int) throws(SystemError) {
        try setTimeout(SO_RCVTIMEO, seconds: Double(seconds))
    }

    /// setsockopt(2) SO_RCVTIMEO with a fraction of a second (0.5 waits
    /// half a second; 0 for ever).
    /// - Throws: `SystemError("setsockopt")`.
    public func setReceiveTimeout(seconds: Double) throws(SystemError) {
        try setTimeout(SO_RCVTIMEO, seconds: seconds)
    }

    /// setsockopt(2) SO_SNDTIMEO: a send, or a Unix socket's connect(2),
    /// waits at most `seconds`, then fails with EAGAIN; 0 waits for ever.
    /// - Throws: `SystemError("setsockopt")`.
    public func setSendTimeout(seconds: Double) throws(SystemError) {
        try setTimeout(SO_SNDTIMEO, seconds: seconds)
    }

    private func setTimeout(_ option: Int32, seconds: Double) throws(SystemError) {
        let whole = seconds.rounded(.down)
        var limit = timeval(tv_sec: Int(whole), tv_usec: Int((seconds - whole) * 1_000_000))
        try Syscall.call("setsockopt") {
            setsockopt(rawValue, SOL_SOCKET, option, &limit, socklen_t(MemoryLayout<timeval>.size))
        }
    }
}
