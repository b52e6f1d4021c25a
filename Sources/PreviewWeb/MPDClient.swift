import Glibc
import PreviewCore
import PreviewPlatform

/// How the front end reaches previewd: a fresh `MPDConnection` per request
/// (the daemon serves many clients; a connection costs a millisecond), as
/// myMPD speaks to mpd. The front end speaks only the protocol, so the
/// daemon stays the one owner of the state.
public struct MPDClient: Sendable {
    /// The daemon's socket.
    public let socketPath: String
    /// Seconds a reply may take.
    public let timeout: Int

    public init(socketPath: String, timeout: Int = 10) {
        self.socketPath = socketPath
        self.timeout = timeout
    }

    /// A new connection, greeted.
    /// - Throws: `MPDFailure.unreachable`.
    public func connect() throws(MPDFailure) -> MPDConnection {
        try MPDConnection(socketPath: socketPath, timeout: timeout)
    }

    /// One command's reply: its `key: value` lines, in order.
    /// - Throws: `MPDFailure`.
    public func run(_ line: String) throws(MPDFailure) -> [(String, String)] {
        try connect().run([line])[0]
    }

    /// The fields of a reply as a dictionary (the first value of each key).
    public static func dictionary(_ fields: [(String, String)]) -> [String: String] {
        Dictionary(fields, uniquingKeysWith: { first, _ in first })
    }
}

/// Why a command got no reply, or the daemon's refusal.
public enum MPDFailure: Error, Equatable, Sendable {
    /// The socket cannot be reached or stopped answering (the text says why).
    case unreachable(String)
    /// The daemon answered `ACK`: its message.
    case refused(String)
}

/// One connection to previewd's MPD socket, owning its descriptor (closed
/// on deinit). Used by one thread at a time.
public final class MPDConnection {
    private let fd: FileDescriptor
    private var reader: LineReader

    /// Connects, checks the peer is this user's (SO_PEERCRED: whoever
    /// listens there would get every command, as previewctl checks) and
    /// reads the `OK MPD` greeting.
    /// - Throws: `MPDFailure.unreachable`.
    init(socketPath: String, timeout: Int) throws(MPDFailure) {
        let address: UnixSocketAddress
        do { address = try UnixSocketAddress(path: socketPath) } catch { throw .unreachable("socket path too long") }
        do { fd = try UnixSocket.connect(to: address, type: .stream).release() } catch {
            throw .unreachable("cannot reach previewd at \(socketPath): \(error.reason)")
        }
        reader = LineReader(fd: fd)
        guard let peer = fd.peerCredentials(), peer.userID == ThisProcess.userID else {
            fd.close()
            throw .unreachable("\(socketPath) is not served by this user's previewd")
        }
        try? fd.setReceiveTimeout(seconds: timeout)
        guard let greeting = try? reader.next(), greeting.hasPrefix("OK MPD ") else {
            fd.close()
            throw .unreachable("\(socketPath) does not speak the MPD protocol")
        }
    }

    deinit { fd.close() }

    /// Sets how long a read may wait (SO_RCVTIMEO), in seconds.
    func setTimeout(seconds: Int) { try? fd.setReceiveTimeout(seconds: seconds) }

    /// Sends one line (the newline is added).
    /// - Throws: `MPDFailure.unreachable`.
    func send(_ line: String) throws(MPDFailure) {
        do { try fd.writeAll(Array((line + "\n").utf8)) } catch { throw .unreachable(error.description) }
    }

    /// The replies to `lines`, one array of fields each; more than one line
    /// is sent as one command list (`command_list_ok_begin`), so the daemon
    /// runs them in a row.
    /// - Throws: `MPDFailure`: `.refused` with the daemon's message when a
    ///   command fails (those before it have run).
    public func run(_ lines: [String]) throws(MPDFailure) -> [[(String, String)]] {
        if lines.count == 1 {
            try send(lines[0])
        } else {
            try send((["command_list_ok_begin"] + lines + ["command_list_end"]).joined(separator: "\n"))
        }
        var replies: [[(String, String)]] = [[]]
        while true {
            guard let line = try nextLine() else { throw .unreachable("previewd closed the connection") }
            if line == "OK" { return lines.count == 1 ? replies : Array(replies.dropLast()) }
            if line == "list_OK" {
                replies.append([])
            } else if ResponseParser.isAck(line) {
                if case .ack(_, _, _, let message, _)? = ResponseParser.parse([line][...])?.0 { throw .refused(message) }
                throw .refused(line)
            } else if let field = ResponseParser.field(line[...]) {
                replies[replies.count - 1].append(field)
            }
        }
    }

    /// A binary reply (`albumart`): its fields and the chunk's bytes.
    /// - Throws: `MPDFailure`.
    func runBinary(_ line: String) throws(MPDFailure) -> (fields: [(String, String)], bytes: [UInt8]) {
        try send(line)
        var fields: [(String, String)] = []
        var bytes: [UInt8] = []
        while true {
            guard let line = try nextLine() else { throw .unreachable("previewd closed the connection") }
            if line == "OK" { return (fields, bytes) }
            if ResponseParser.isAck(line) {
                if case .ack(_, _, _, let message, _)? = ResponseParser.parse([line][...])?.0 { throw .refused(message) }
                throw .refused(line)
            }
            guard let field = ResponseParser.field(line[...]) else { continue }
            if field.0 == "binary", let count = Int(field.1), count >= 0 {
                // The chunk, then the newline that ends it.
                let chunk: [UInt8]?
                do { chunk = try reader.bytes(count + 1) } catch { throw .unreachable(error.description) }
                guard let chunk else { throw .unreachable("previewd closed the connection") }
                bytes = Array(chunk.dropLast())
            } else {
                fields.append(field)
            }
        }
    }

    /// The next line; nil at the end of the stream.
    /// - Throws: `.unreachable` on a read error, `.timedOut` text when the
    ///   receive timeout ran out.
    func nextLine() throws(MPDFailure) -> String? {
        do { return try reader.next() } catch {
            throw .unreachable(error.errno == EAGAIN || error.errno == EWOULDBLOCK ? MPDConnection.timedOut : error.description)
        }
    }

    /// The text of `.unreachable` when a read waited its whole timeout.
    static let timedOut = "previewd did not answer in time"
}
