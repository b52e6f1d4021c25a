import Glibc
import PreviewPlatform

/// One `GET` to an HTTP server on an IPv4 address, its body read as it
/// comes, for a relay: previewweb passes previewd's HTTP stream on to a
/// browser. Asked as HTTP/1.0, so the body is the bytes up to the close
/// (no chunked framing to undo: a live stream has no length). Owns its
/// socket (closed on deinit); used by one thread at a time.
public final class HTTPUpstream {
    private let socket: FileDescriptor
    /// The answer's status code (200 when the body follows).
    public let status: Int
    /// Body bytes that came with the head, handed out first by `read`.
    private var early: [UInt8]

    /// Bytes of an answer's head, at most.
    static let maxHeadBytes = 8192

    private init(socket: FileDescriptor, status: Int, early: [UInt8]) {
        self.socket = socket
        self.status = status
        self.early = early
    }

    deinit { socket.close() }

    /// Connects to `address`:`port`, sends `GET path` and reads the
    /// answer's head, within `timeout` seconds for each step.
    /// - Throws: `SystemError` of `TCPSocket.connect`, `send` or `recv`
    ///   (EPROTO: the head is not HTTP, or longer than `maxHeadBytes`).
    public static func get(address: String, port: Int, path: String, timeout: Double) throws(SystemError) -> HTTPUpstream {
        let connected = try TCPSocket.connect(address: address, port: port, timeout: timeout)
        try connected.descriptor.sendAll(Array("GET \(path) HTTP/1.0\r\nHost: \(address):\(port)\r\n\r\n".utf8))
        let (status, early) = try readHead(connected.descriptor)
        return HTTPUpstream(socket: connected.release(), status: status, early: early)
    }

    /// The status code of the head, and the body bytes read beyond it.
    private static func readHead(_ fd: FileDescriptor) throws(SystemError) -> (Int, [UInt8]) {
        var head: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        let end: [UInt8] = Array("\r\n\r\n".utf8)
        while true {
            if let at = head.firstRange(of: end) {
                // The status line: `HTTP/1.1 200 OK`.
                let line = head[..<(head.firstRange(of: end[..<2])?.lowerBound ?? at.lowerBound)]
                let words = String(decoding: line, as: UTF8.self).split(separator: " ")
                guard words.count >= 2, words[0].hasPrefix("HTTP/1."), let status = Int(words[1]) else {
                    throw SystemError("recv", errno: EPROTO)
                }
                return (status, Array(head[at.upperBound...]))
            }
            guard head.count < maxHeadBytes else { throw SystemError("recv", errno: EPROTO) }
            let n = try fd.receive(into: &buffer)
            guard n > 0 else { throw SystemError("recv", errno: ECONNRESET) }
            head += buffer[..<n]
        }
    }

    /// What `read(watching:seconds:)` saw first.
    public enum Read: Equatable {
        /// Body bytes.
        case bytes([UInt8])
        /// The server ended the body (or the connection failed).
        case end
        /// `client` is readable or hung up: its reader left.
        case clientGone
        /// Nothing came for `seconds`.
        case quiet
    }

    /// The next body bytes, waiting (poll(2)) at most `seconds` for them,
    /// while watching `client` (the socket of the connection the bytes go
    /// to, -1: none): a client that leaves ends the wait at once, so the
    /// relay closes this connection with it.
    public func read(watching client: Int32, seconds: Int) -> Read {
        if !early.isEmpty {
            defer { early = [] }
            return .bytes(early)
        }
        var fds = [PollDescriptor(socket, events: .readable)]
        if client >= 0 { fds.append(PollDescriptor(FileDescriptor(rawValue: client), events: .readable)) }
        guard let n = try? PollDescriptor.poll(&fds, timeout: Int32(seconds * 1000)), n > 0 else { return .quiet }
        if fds.count > 1, !fds[1].returnedEvents.isEmpty { return .clientGone }
        var buffer = [UInt8](repeating: 0, count: 16384)
        do {
            let got = try socket.receive(into: &buffer, dontWait: true)
            return got > 0 ? .bytes(Array(buffer[..<got])) : .end
        } catch {
            return error.wouldBlock ? .quiet : .end
        }
    }
}
