/// An IPv4 address and TCP port, as `struct sockaddr_in` holds them.
public struct IPv4Endpoint: Hashable, Sendable, CustomStringConvertible {
    /// `in_addr.s_addr` as it is stored: the address's bytes in network
    /// order, read as a host-order number (127.0.0.1 is 0x0100007F on
    /// x86), which is also how /proc/net/tcp prints it.
    public let address: UInt32
    /// The port, in host order.
    public let port: UInt16

    /// - Parameters: address: `in_addr.s_addr` as stored; port: in host order.
    public init(address: UInt32, port: UInt16) {
        self.address = address
        self.port = port
    }

    /// Dotted, without the port: `127.0.0.1`.
    public var host: String {
        withUnsafeBytes(of: address) { $0.map(String.init).joined(separator: ".") }
    }

    /// `127.0.0.1:6680`.
    public var description: String { "\(host):\(port)" }
}

/// The table of TCP sockets the kernel shows in /proc/net/tcp (IPv4) and
/// /proc/net/tcp6 (IPv6), read to learn which user made the other end of
/// a loopback connection: TCP has no SO_PEERCRED, but on loopback both
/// ends are sockets of this machine, listed with their owner's uid.
public enum ProcNetTCP {
    /// One end of a connection as the table prints it.
    public struct Endpoint: Equatable, Sendable {
        /// The address as 32-bit words, each as the kernel prints it
        /// (`%08X` of the stored word): one for IPv4, four for IPv6.
        public let words: [UInt32]
        /// The port, as a number (the table prints it in hex).
        public let port: UInt16

        /// An IPv4 socket's end (/proc/net/tcp).
        public static func ipv4(_ endpoint: IPv4Endpoint) -> Endpoint {
            Endpoint(words: [endpoint.address], port: endpoint.port)
        }

        /// An IPv6 socket's end at the v4-mapped address `::ffff:A.B.C.D`
        /// (/proc/net/tcp6): what an IPv6 client connected to an IPv4
        /// server shows.
        public static func v4Mapped(_ endpoint: IPv4Endpoint) -> Endpoint {
            Endpoint(words: [0, 0, UInt32(0x0000_FFFF).bigEndian, endpoint.address], port: endpoint.port)
        }
    }

    /// The uid of the socket in `table` (the text of /proc/net/tcp or
    /// /proc/net/tcp6) whose local end is `local` and remote end `remote`.
    /// Lines in TIME_WAIT (06) or NEW_SYN_RECV (0C) are passed over: the
    /// kernel prints uid 0 for those whoever made them.
    /// - Returns: nil when no full socket of that pair is listed, or the
    ///   line is malformed.
    public static func owner(local: Endpoint, remote: Endpoint, in table: [UInt8]) -> UInt32? {
        for line in table.split(separator: UInt8(ascii: "\n")).dropFirst() {
            // sl, local_address, rem_address, st, tx_queue:rx_queue, tr:tm->when, retrnsmt, uid, ...
            let fields = line.split(separator: UInt8(ascii: " "))
            guard fields.count >= 8, endpoint(fields[1]) == local, endpoint(fields[2]) == remote else { continue }
            let state = String(decoding: fields[3], as: UTF8.self)
            guard state != "06", state != "0C" else { continue }
            return UInt32(String(decoding: fields[7], as: UTF8.self))
        }
        return nil
    }

    /// `0100007F:1A24` (or 32 hex digits before the colon) as an endpoint.
    static func endpoint(_ field: ArraySlice<UInt8>) -> Endpoint? {
        let parts = field.split(separator: UInt8(ascii: ":"), omittingEmptySubsequences: false)
        guard parts.count == 2, [8, 32].contains(parts[0].count), let port = UInt16(String(decoding: parts[1], as: UTF8.self), radix: 16)
        else { return nil }
        let digits = Array(parts[0])
        var words: [UInt32] = []
        for start in stride(from: 0, to: digits.count, by: 8) {
            guard let word = UInt32(String(decoding: digits[start..<start + 8], as: UTF8.self), radix: 16) else { return nil }
            words.append(word)
        }
        return Endpoint(words: words, port: port)
    }

    /// The uid that made the client socket of a TCP connection from
    /// `client` to `server` on this machine: its line in /proc/net/tcp,
    /// else (an IPv6 socket at a v4-mapped address) in /proc/net/tcp6.
    /// - Returns: nil when neither file lists it (the client is on another
    ///   machine, or already gone) or neither can be read.
    public static func owner(ofClient client: IPv4Endpoint, server: IPv4Endpoint) -> UInt32? {
        if let table = try? AtomicFile.read("/proc/net/tcp"), let uid = owner(local: .ipv4(client), remote: .ipv4(server), in: table) {
            return uid
        }
        guard let table = try? AtomicFile.read("/proc/net/tcp6") else { return nil }
        return owner(local: .v4Mapped(client), remote: .v4Mapped(server), in: table)
    }
}
