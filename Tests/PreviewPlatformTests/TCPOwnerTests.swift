import Glibc
@testable import PreviewPlatform
import Testing

@Suite struct TCPOwnerTests {
    /// 127.0.0.1 as `in_addr.s_addr` stores it on this machine.
    static let loopback = UInt32(0x7F00_0001).bigEndian
    static let server = IPv4Endpoint(address: loopback, port: 6680)
    static let client = IPv4Endpoint(address: loopback, port: 41234)

    /// /proc/net/tcp as x86 prints it: the listener, the server's end of the
    /// connection (root's), the client's end (nobody's), a TIME_WAIT line of
    /// an older connection of the same pair (uid 0, as the kernel prints
    /// every one) and a connection elsewhere.
    static let table = Array(
        """
          sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
           0: 0100007F:1A18 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 1001 1 0000000000000000 100 0 0 10 0
           1: 0100007F:1A18 0100007F:A112 01 00000000:00000000 00:00000000 00000000     0        0 1002 1 0000000000000000 20 4 30 10 -1
           2: 0100007F:A112 0100007F:1A18 01 00000000:00000000 00:00000000 00000000 65534        0 1003 1 0000000000000000 20 4 30 10 -1
           3: 0100007F:A113 0100007F:1A18 06 00000000:00000000 03:00001000 00000000     0        0 0 3 0000000000000000
           4: 0200007F:A112 0100007F:1A19 01 00000000:00000000 00:00000000 00000000  1000        0 1004 1 0000000000000000 20 4 30 10 -1

        """.utf8)

    @Test func theClientsOwnLineGivesItsUid() {
        #expect(ProcNetTCP.owner(local: .ipv4(Self.client), remote: .ipv4(Self.server), in: Self.table) == 65534)
        // The server's own end of the same connection is root's, and is not the one asked for.
        #expect(ProcNetTCP.owner(local: .ipv4(Self.server), remote: .ipv4(Self.client), in: Self.table) == 0)
    }

    @Test func aTimeWaitLineOrNoLineIsNoOwner() {
        let older = IPv4Endpoint(address: Self.loopback, port: 0xA113)
        #expect(ProcNetTCP.owner(local: .ipv4(older), remote: .ipv4(Self.server), in: Self.table) == nil)
        let elsewhere = IPv4Endpoint(address: Self.loopback, port: 1)
        #expect(ProcNetTCP.owner(local: .ipv4(elsewhere), remote: .ipv4(Self.server), in: Self.table) == nil)
        #expect(ProcNetTCP.owner(local: .ipv4(Self.client), remote: .ipv4(Self.server), in: []) == nil)
        #expect(ProcNetTCP.owner(local: .ipv4(Self.client), remote: .ipv4(Self.server), in: Array("header\n0: junk\n".utf8)) == nil)
    }

    @Test func anIPv6ClientAtAV4MappedAddressIsFoundInTcp6() {
        let table = Array(
            """
              sl  local_address                         remote_address                        st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
               0: 0000000000000000FFFF00000100007F:A112 0000000000000000FFFF00000100007F:1A18 01 00000000:00000000 00:00000000 00000000  1000        0 2001 1 0000000000000000 20 4 30 10 -1

            """.utf8)
        #expect(ProcNetTCP.owner(local: .v4Mapped(Self.client), remote: .v4Mapped(Self.server), in: table) == 1000)
        #expect(ProcNetTCP.owner(local: .ipv4(Self.client), remote: .ipv4(Self.server), in: table) == nil)
    }

    @Test func aRealLoopbackConnectionIsOurs() throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        let client = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(listener); close(client) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = Self.loopback
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(listener, pointer, length) == 0 && listen(listener, 1) == 0 && getsockname(listener, pointer, &length) == 0
                    && connect(client, pointer, length) == 0
            }
        }
        try #require(bound)
        let server = IPv4Endpoint(address: Self.loopback, port: UInt16(bigEndian: address.sin_port))
        var local = sockaddr_in()
        _ = withUnsafeMutablePointer(to: &local) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(client, $0, &length) }
        }
        let mine = IPv4Endpoint(address: Self.loopback, port: UInt16(bigEndian: local.sin_port))
        #expect(mine.description == "127.0.0.1:\(mine.port)")
        #expect(ProcNetTCP.owner(ofClient: mine, server: server) == geteuid())
        #expect(ProcNetTCP.owner(ofClient: IPv4Endpoint(address: Self.loopback, port: 1), server: server) == nil)
    }
}
