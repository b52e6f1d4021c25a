import PreviewCore
import PreviewPlatform

/// Why a connection to an MPD server failed, or what it refused. Each
/// program words these its own way (previewctl as an exit code and a line,
/// previewweb as an HTTP status).
public enum MPDClientError: Error, Equatable, Sendable {
    /// The socket's path does not fit a `sockaddr_un`.
    case pathTooLong
    /// connect(2) failed (`reason`: strerror's text), or, `timedOut`,
    /// waited its whole timeout on a full backlog (a stopped server).
    case connect(reason: String, timedOut: Bool)
    /// The socket is served by another user (SO_PEERCRED; nil: unknown),
    /// who would get every command and its arguments.
    case otherUser(UInt32?)
    /// No `OK MPD` greeting: none within the timeout (`timedOut`), or
    /// something else answered.
    case noGreeting(timedOut: Bool)
    /// The server answered `ACK` (with the greeting: a refused connection,
    /// as "too many clients").
    case refused(code: Int, command: String, message: String)
    /// A reply line did not come within the reply timeout.
    case timedOut
    /// The connection ended or failed (the text says how).
    case lost(String)
    /// The reply did not have the shape asked for (the text says how).
    case malformed(String)

    /// The refusal an `ACK` line carries (code 5, "unknown", and the line
    /// itself as the message when it does not parse).
    static func refusal(_ line: String) -> MPDClientError {
        guard case .ack(let code, _, let command, let message, _)? = ResponseParser.parse([line][...])?.0 else {
            return .refused(code: 5, command: "", message: line)
        }
        return .refused(code: code, command: command, message: message)
    }
}

/// One connection to an MPD server's Unix socket (MPD's protocol,
/// doc/protocol.rst "Protocol overview"), owning its descriptor: the one
/// client previewctl and previewweb share. Used by one thread at a time.
public final class MPDConnection {
    private let fd: FileDescriptor
    private var reader: LineReader
    private var open = true

    /// Connects, checks that the peer is user `uid` (SO_PEERCRED), and
    /// reads the `OK MPD` greeting and any refusal sent with it.
    /// - Parameters:
    ///   - path: the server's socket.
    ///   - timeout: seconds connect(2), the greeting and each later reply
    ///     line may wait (`setReplyTimeout` changes the last).
    /// - Throws: `MPDClientError`: `.pathTooLong`, `.connect`,
    ///   `.otherUser`, `.noGreeting`, or `.refused` for a refusal at once.
    public init(path: String, timeout: Double, uid: UInt32 = ThisProcess.userID) throws(MPDClientError) {
        let address: UnixSocketAddress
        do { address = try UnixSocketAddress(path: path) } catch { throw .pathTooLong }
        do {
            fd = try UnixSocket.connect(to: address, type: .stream, timeout: timeout).release()
        } catch {
            throw .connect(reason: error.reason, timedOut: error.wouldBlock)
        }
        reader = LineReader(fd: fd)
        do { try greet(uid: uid, timeout: timeout) } catch {
            fd.close()
            open = false
            throw error
        }
    }

    private func greet(uid: UInt32, timeout: Double) throws(MPDClientError) {
        guard let peer = fd.peerCredentials(), peer.userID == uid else { throw .otherUser(fd.peerCredentials()?.userID) }
        setReplyTimeout(timeout)
        let greeting: String?
        do { greeting = try reader.next() } catch { throw .noGreeting(timedOut: error.wouldBlock) }
        guard let greeting else { throw .noGreeting(timedOut: false) }
        if ResponseParser.isAck(greeting) { throw .refusal(greeting) }
        guard greeting.hasPrefix("OK MPD ") else { throw .noGreeting(timedOut: false) }
        if let line = reader.peek(), ResponseParser.isAck(line) { throw .refusal(line) }
    }

    deinit { close() }

    /// Ends the connection (the descriptor is closed once).
    public func close() {
        if open { fd.close() }
        open = false
    }

    /// SO_RCVTIMEO: a reply line waits at most `seconds` (0: for ever).
    public func setReplyTimeout(_ seconds: Double) {
        try? fd.setReceiveTimeout(seconds: seconds)
    }

    /// Sends `text` as it is (its lines end in "\n"), with MSG_NOSIGNAL.
    /// - Throws: `.lost`.
    public func send(_ text: String) throws(MPDClientError) {
        do { try fd.sendAll(Array(text.utf8)) } catch { throw .lost(error.description) }
    }

    /// The next reply line; nil at the end of the connection.
    /// - Throws: `.timedOut` when the reply timeout ran out, `.lost` on a
    ///   read error.
    public func nextLine() throws(MPDClientError) -> String? {
        do { return try reader.next() } catch {
            throw error.wouldBlock ? .timedOut : .lost(error.description)
        }
    }

    /// The next reply line; the end of the connection is `.lost`.
    private func line() throws(MPDClientError) -> String {
        guard let line = try nextLine() else { throw .lost("previewd closed the connection") }
        return line
    }

    /// Sends `commands` as one request (a `command_list_begin` list when
    /// several) and reads the reply, an ACK included.
    /// - Throws: `.lost`, `.timedOut`.
    public func request(_ commands: [String]) throws(MPDClientError) -> ResponseParser.Reply {
        try send(commands.count == 1 ? commands[0] + "\n" : Self.commandList(commands, begin: "command_list_begin"))
        var replyLines: [String] = []
        while true {
            let line = try line()
            replyLines.append(line)
            if line == "OK" || ResponseParser.isAck(line) { return ResponseParser.parse(replyLines[...])!.0 }
        }
    }

    /// Sends `commands` (a `command_list_ok_begin` list when several, one
    /// round trip) and returns each one's fields.
    /// - Throws: `.refused` on an ACK (the commands before it ran),
    ///   `.malformed` when the count of replies is not the count of
    ///   commands, `.lost`, `.timedOut`.
    public func requestEach(_ commands: [String]) throws(MPDClientError) -> [[(String, String)]] {
        try send(commands.count == 1 ? commands[0] + "\n" : Self.commandList(commands, begin: "command_list_ok_begin"))
        var replies: [[(String, String)]] = []
        var fields: [(String, String)] = []
        while true {
            let line = try line()
            if line == "list_OK" {
                replies.append(fields)
                fields = []
            } else if line == "OK" {
                if commands.count == 1 { replies.append(fields) }
                guard replies.count == commands.count else {
                    throw .malformed("previewd sent \(replies.count) replies for \(commands.count) commands")
                }
                return replies
            } else if ResponseParser.isAck(line) {
                throw .refusal(line)
            } else if let field = ResponseParser.field(line[...]) {
                fields.append(field)
            }
        }
    }

    /// A binary reply (`albumart`, `readpicture`): its fields and the
    /// chunk's bytes (protocol.rst, "Binary Responses").
    /// - Throws: `.refused`, `.lost`, `.timedOut`.
    public func requestBinary(_ command: String) throws(MPDClientError) -> (fields: [(String, String)], bytes: [UInt8]) {
        try send(command + "\n")
        var fields: [(String, String)] = []
        var bytes: [UInt8] = []
        while true {
            let line = try line()
            if line == "OK" { return (fields, bytes) }
            if ResponseParser.isAck(line) { throw .refusal(line) }
            guard let field = ResponseParser.field(line[...]) else { continue }
            if field.0 == "binary", let count = Int(field.1), count >= 0 {
                // The chunk, then the newline that ends it.
                let chunk: [UInt8]?
                do { chunk = try reader.bytes(count + 1) } catch { throw .lost(error.description) }
                guard let chunk else { throw .lost("previewd closed the connection") }
                bytes = Array(chunk.dropLast())
            } else {
                fields.append(field)
            }
        }
    }

    /// What `wait(watching:seconds:)` saw first.
    public enum Wait: Sendable { case reply, watchedReadable, quiet }

    /// Waits (poll(2)) until a reply line can be read, or `watched` (a
    /// descriptor, -1: none) is readable or hung up, or `seconds` pass.
    public func wait(watching watched: Int32, seconds: Int) -> Wait {
        if reader.peek() != nil { return .reply }
        var fds = [PollDescriptor(fd, events: .readable)]
        if watched >= 0 { fds.append(PollDescriptor(FileDescriptor(rawValue: watched), events: .readable)) }
        guard let n = try? PollDescriptor.poll(&fds, timeout: Int32(seconds * 1000)), n > 0 else { return .quiet }
        if fds.count > 1, !fds[1].returnedEvents.isEmpty { return .watchedReadable }
        return .reply
    }

    /// `commands` between `begin` and `command_list_end`, a line each. A
    /// plain loop: `joined()` is generic over Sequence, and its first call
    /// costs a conformance lookup at run time, on every hotkey press.
    static func commandList(_ commands: [String], begin: String) -> String {
        var text = begin + "\n"
        for command in commands {
            text += command
            text += "\n"
        }
        return text + "command_list_end\n"
    }
}
