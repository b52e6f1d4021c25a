import Glibc

/// A failure to set up or use a socket, with errno's text.
public struct SocketError: Error, CustomStringConvertible, Sendable {
    public let description: String
    init(_ what: String, errno code: Int32 = errno) {
        description = "\(what): \(String(cString: strerror(code)))"
    }
    init(message: String) { description = message }
}

/// The listening Unix stream socket (socket(2), bind(2), listen(2)).
/// Owns the file descriptor and removes the socket file on `close()`.
final class UnixListener {
    let fd: Int32
    let path: String
    /// Whether the socket came from the service manager (socket activation):
    /// then it is not ours to remove.
    let inherited: Bool

    /// Adopts a listening socket passed by systemd (`LISTEN_FDS`), fd 3.
    init(inheritedFD: Int32, path: String) {
        fd = inheritedFD
        self.path = path
        inherited = true
        setNonBlockingCloseOnExec(inheritedFD)
    }

    /// Creates the directory (0700) and binds `path` (0600 from the start).
    /// A stale socket file is replaced; a live daemon on the path is an error.
    /// - Throws: `SocketError` naming the step that failed.
    init(path: String) throws(SocketError) {
        self.path = path
        inherited = false
        var addr = sockaddr_un()
        guard path.utf8.count < MemoryLayout.size(ofValue: addr.sun_path) else {
            throw SocketError(message: "socket path too long: \(path)")
        }
        try UnixListener.makeDirectories(parentOf: path)
        var st = stat()
        if lstat(path, &st) == 0 {
            guard (st.st_mode & S_IFMT) == S_IFSOCK else {
                throw SocketError(message: "\(path) exists and is not a socket; not replacing it")
            }
            if UnixListener.isLive(path) {
                throw SocketError(message: "another previewd is already listening on \(path)")
            }
            unlink(path)
        }
        let s = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard s >= 0 else { throw SocketError("socket") }
        addr.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &addr.sun_path) { raw in
            for (i, b) in path.utf8.enumerated() { raw[i] = b }
        }
        // umask makes the socket 0600 the moment bind creates it: no window
        // in which another user could connect.
        let oldMask = umask(0o177)
        let rc = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(s, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        umask(oldMask)
        guard rc == 0 else {
            let e = errno
            Glibc.close(s)
            throw SocketError("bind \(path)", errno: e)
        }
        guard listen(s, 128) == 0 else {
            let e = errno
            Glibc.close(s)
            throw SocketError("listen", errno: e)
        }
        fd = s
    }

    /// Accepts one pending connection (non-blocking), or nil.
    func accept() -> Int32? {
        let c = Glibc.accept(fd, nil, nil)
        guard c >= 0 else { return nil }
        setNonBlockingCloseOnExec(c)
        return c
    }

    /// Closes the socket and removes its file (unless systemd owns it).
    func close() {
        Glibc.close(fd)
        if !inherited { unlink(path) }
    }

    /// Whether something accepts connections on `path`.
    static func isLive(_ path: String) -> Bool {
        let s = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard s >= 0 else { return false }
        defer { Glibc.close(s) }
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &addr.sun_path) { raw in
            for (i, b) in path.utf8.prefix(raw.count - 1).enumerated() { raw[i] = b }
        }
        let rc = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(s, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        return rc == 0
    }

    /// mkdir -p for the socket's directory; directories it creates are 0700.
    static func makeDirectories(parentOf path: String) throws(SocketError) {
        guard let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return }
        try makeDirectories(String(path[..<slash]))
    }

    /// mkdir -p `dir` with mode 0700 for the directories it creates.
    static func makeDirectories(_ dir: String) throws(SocketError) {
        var prefix = ""
        for part in dir.split(separator: "/", omittingEmptySubsequences: true) {
            prefix += (prefix.isEmpty && !dir.hasPrefix("/") ? "" : "/") + part
            if mkdir(prefix, 0o700) != 0 && errno != EEXIST {
                throw SocketError("mkdir \(prefix)")
            }
        }
    }
}
