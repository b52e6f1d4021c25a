import Glibc

/// Connecting to a TCP server on an IPv4 address, as `UnixSocket.connect`
/// does for a Unix socket: previewweb's relay of previewd's HTTP stream.
public enum TCPSocket {
    /// A blocking, close-on-exec stream socket connected to
    /// `address`:`port` (inet_pton(3), socket(2), connect(2)). Sends,
    /// receives and the connect itself wait at most `timeout` seconds
    /// (SO_SNDTIMEO, SO_RCVTIMEO), then fail with EAGAIN or ETIMEDOUT.
    /// - Parameters: address: dotted IPv4 (`127.0.0.1`); port: 1...65535.
    /// - Throws: `SystemError("inet_pton", errno: EINVAL, path: address)`
    ///   for an address that is not dotted IPv4; `SystemError` of
    ///   `socket`, `setsockopt`, or `connect` with `path` ADDRESS:PORT
    ///   (ECONNREFUSED: nobody listening).
    public static func connect(address: String, port: Int, timeout: Double) throws(SystemError) -> OwnedDescriptor {
        var target = sockaddr_in()
        target.sin_family = sa_family_t(AF_INET)
        target.sin_port = in_port_t(UInt16(clamping: port)).bigEndian
        guard inet_pton(AF_INET, address, &target.sin_addr) == 1 else { throw SystemError("inet_pton", errno: EINVAL, path: address) }
        let made = try Syscall.call("socket") { socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0) }
        let s = OwnedDescriptor(FileDescriptor(rawValue: made))
        try s.descriptor.setSendTimeout(seconds: timeout)
        try s.descriptor.setReceiveTimeout(seconds: timeout)
        let size = socklen_t(MemoryLayout<sockaddr_in>.size)
        try Syscall.once("connect", path: "\(address):\(port)") {
            withUnsafePointer(to: &target) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(s.descriptor.rawValue, $0, size) }
            }
        }
        return s
    }
}
