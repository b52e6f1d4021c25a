import PreviewCore
import PreviewPlatform
import Synchronization

/// How the front end reaches previewd: a fresh `MPDConnection` per request
/// (the daemon serves many clients; a connection costs a millisecond), as
/// myMPD speaks to mpd. The front end speaks only the protocol, so the
/// daemon stays the one owner of the state. At most `maxConnections` are
/// open at once, well under previewd's own client limit (100), so web
/// traffic never locks other MPD clients out.
public struct MPDClient: Sendable {
    /// The daemon's socket.
    public let socketPath: String
    /// Seconds a reply may take.
    public let timeout: Int
    private let open = Places(limit: MPDClient.maxConnections)

    /// Connections to previewd open at once, at most (event streams included).
    public static let maxConnections = 48

    public init(socketPath: String, timeout: Int = 10) {
        self.socketPath = socketPath
        self.timeout = timeout
    }

    /// A new connection, greeted.
    /// - Throws: `MPDFailure.busy` when `maxConnections` are open,
    ///   `.unreachable`.
    public func connect() throws(MPDFailure) -> MPDConnection {
        guard open.take() else {
            throw .busy("previewweb has \(Self.maxConnections) requests to previewd under way; try again")
        }
        do { return try MPDConnection.open(socketPath: socketPath, timeout: timeout, count: open) } catch {
            open.giveBack()
            throw error
        }
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
    /// The daemon answered `ACK`: its error code (MPD's `ACK_ERROR_*`: 50
    /// is "no such thing", 54 "busy", 5 "unknown") and message.
    case refused(code: Int, message: String)
    /// Every connection is taken, previewweb's or previewd's (the text says which).
    case busy(String)

    /// The failure of an `ACK` line (previewd's client limit is `.busy`).
    static func of(ack line: String) -> MPDFailure {
        guard case .ack(let code, _, _, let message, _)? = ResponseParser.parse([line][...])?.0 else {
            return .refused(code: 5, message: line)
        }
        return message.hasPrefix("too many clients") ? .busy("previewd: " + message) : .refused(code: code, message: message)
    }
}

/// Places taken out of a fixed number (connections to previewd, event
/// streams), shared by the server's threads.
final class Places: Sendable {
    private let taken = Atomic<Int>(0)
    let limit: Int

    init(limit: Int) { self.limit = limit }

    /// Takes a place; false when all are taken.
    func take() -> Bool {
        while true {
            let now = taken.load(ordering: .relaxed)
            guard now < limit else { return false }
            if taken.compareExchange(expected: now, desired: now + 1, ordering: .relaxed).exchanged { return true }
        }
    }

    func giveBack() { taken.subtract(1, ordering: .relaxed) }
}

/// One connection to previewd's MPD socket, owning its descriptor (closed
/// on deinit, its place in `MPDClient`'s count given back). Used by one
/// thread at a time.
public final class MPDConnection {
    private let fd: FileDescriptor
    private var reader: LineReader
    private let count: Places

    private init(fd: FileDescriptor, reader: LineReader, count: Places) {
        self.fd = fd
        self.reader = reader
        self.count = count
    }

    /// Connects, checks the peer is this user's (SO_PEERCRED: whoever
    /// listens there would get every command, as previewctl checks) and
    /// reads the `OK MPD` greeting. The connection holds its place in
    /// `count` from then on; on failure nothing is held.
    /// - Throws: `MPDFailure.unreachable`, or `.busy` when previewd
    ///   answers its client limit instead of the greeting.
    static func open(socketPath: String, timeout: Int, count: Places) throws(MPDFailure) -> MPDConnection {
        let address: UnixSocketAddress
        do { address = try UnixSocketAddress(path: socketPath) } catch { throw .unreachable("socket path too long") }
        let fd: FileDescriptor
        do { fd = try UnixSocket.connect(to: address, type: .stream).release() } catch {
            throw .unreachable("cannot reach previewd at \(socketPath): \(error.reason)")
        }
        var reader = LineReader(fd: fd)
        guard let peer = fd.peerCredentials(), peer.userID == ThisProcess.userID else {
            fd.close()
            throw .unreachable("\(socketPath) is not served by this user's previewd")
        }
        try? fd.setReceiveTimeout(seconds: timeout)
        let greeting = (try? reader.next()) ?? nil
        guard let greeting, greeting.hasPrefix("OK MPD ") else {
            fd.close()
            if let greeting, ResponseParser.isAck(greeting) { throw .of(ack: greeting) }
            throw .unreachable("\(socketPath) does not speak the MPD protocol")
        }
        return MPDConnection(fd: fd, reader: reader, count: count)
    }

    deinit {
        fd.close()
        count.giveBack()
    }

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
                throw .of(ack: line)
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
            if ResponseParser.isAck(line) { throw .of(ack: line) }
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
            throw .unreachable(error.wouldBlock ? MPDConnection.timedOut : error.description)
        }
    }

    /// What `wait(watching:seconds:)` saw first.
    enum Wait { case reply, clientGone, quiet }

    /// Waits (poll(2)) until a reply line can be read, or `client` (an
    /// HTTP connection's socket, -1: none) is readable or hung up, which
    /// on an event stream means its page left, or `seconds` pass.
    func wait(watching client: Int32, seconds: Int) -> Wait {
        if reader.peek() != nil { return .reply }
        var fds = [PollDescriptor(fd, events: .readable)]
        if client >= 0 { fds.append(PollDescriptor(FileDescriptor(rawValue: client), events: .readable)) }
        guard let n = try? PollDescriptor.poll(&fds, timeout: Int32(seconds * 1000)), n > 0 else { return .quiet }
        if fds.count > 1, !fds[1].returnedEvents.isEmpty { return .clientGone }
        return .reply
    }

    /// The text of `.unreachable` when a read waited its whole timeout.
    static let timedOut = "previewd did not answer in time"
}
