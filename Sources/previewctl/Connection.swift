// previewctl's plumbing: exit codes and messages, stdout, and the one
// connection to the daemon (requests out, reply records in).
import PreviewControl
import PreviewCore
import PreviewPlatform

/// exit(3), under the name C and the rest of this file use.
func exit(_ code: Int32) -> Never { ThisProcess.exit(code) }

func fail(_ message: String, _ code: Int32) -> Never {
    writeStandardError("previewctl: \(TerminalSafe.text(message))\n")
    exit(code)
}

/// Exits 1 with the daemon's refusal: `COMMAND: MESSAGE`, or the message
/// alone when the ACK names no command.
func failRefused(command: String, message: String) -> Never {
    fail(command.isEmpty ? message : "\(command): \(message)", 1)
}

/// Exits 1 with the refusal an `ACK` line carries (the line itself when it
/// does not parse).
func failRefused(ackLine line: String) -> Never {
    if case .ack(_, _, let command, let message, _)? = ResponseParser.parse([line][...])?.0 {
        failRefused(command: command, message: message)
    }
    fail(line, 1)
}

func out(_ text: String) {
    // A closed pipe (`previewctl queue | head`) ends the output, not the run.
    try? FileDescriptor.standardOutput.writeAll(Array(TerminalSafe.text(text).utf8))
}

/// One connection to the daemon.
final class Connection {
    private let fd: FileDescriptor
    private var reader: LineReader
    private var lines: [String] = []

    /// Why a connection could not be made: the message and the exit code.
    struct Failure: Error {
        let message: String
        let code: Int32
    }

    /// Connects and reads the greeting (and a refusal sent with it).
    /// - Parameter timeout: seconds to wait for the connection, the
    ///   greeting and each reply line (`--timeout`).
    /// - Throws: `Failure`: 64 for a path too long, 75 when previewd did
    ///   not accept or greet within `timeout` (stopped), else 69.
    init(path: String, timeout: Double = Connection.defaultTimeout) throws(Failure) {
        self.timeout = timeout
        let address: UnixSocketAddress
        do { address = try UnixSocketAddress(path: path) } catch { throw Failure(message: "socket path too long: \(path)", code: 64) }
        let uid = ThisProcess.userID
        if SocketPath.directory(of: path) == SocketPath.privateDirectory(uid: uid) {
            do { try PrivateDirectory.check(SocketPath.privateDirectory(uid: uid), owner: uid, create: false) } catch {
                throw Failure(message: "\(error); not trusting a socket there. Set XDG_RUNTIME_DIR, or pass --socket PATH", code: 69)
            }
        }
        do {
            fd = try UnixSocket.connect(to: address, type: .stream, timeout: timeout).release()
        } catch {
            if error.wouldBlock {
                throw Failure(message: "previewd at \(path) did not take the connection within \(Connection.seconds(timeout)) "
                              + "(busy or stopped? --timeout S waits longer)", code: Connection.timedOut)
            }
            throw Failure(message: "cannot reach previewd at \(path): \(error.reason) (is it running?)", code: 69)
        }
        reader = LineReader(fd: fd)
        // Whoever listens gets every command and its arguments: only a
        // daemon of this user is spoken to.
        guard let peer = fd.peerCredentials(), peer.userID == uid else {
            let who = fd.peerCredentials().map { "uid \($0.userID)" } ?? "an unknown user"
            fd.close()
            throw Failure(message: "\(path) is served by \(who), not by you (uid \(uid)); refusing it", code: 69)
        }
        setReplyTimeout(timeout)
        let greeting: String?
        do { greeting = try reader.next() } catch {
            fd.close()
            if error.wouldBlock {
                throw Failure(message: "previewd at \(path) did not greet within \(Connection.seconds(timeout)) "
                              + "(busy or stopped? --timeout S waits longer)", code: Connection.timedOut)
            }
            throw Failure(message: "\(path) does not speak the MPD protocol", code: 69)
        }
        guard let greeting, greeting.hasPrefix("OK MPD ") else {
            fd.close()
            throw Failure(message: "\(path) does not speak the MPD protocol", code: 69)
        }
        // A refusal (too many clients, another user) comes with the greeting.
        if let line = reader.peek() {
            if case .ack(_, _, _, let message, _)? = ResponseParser.parse([line][...])?.0 {
                fd.close()
                throw Failure(message: "previewd refused the connection: \(message)", code: 69)
            }
        }
    }

    /// A connection for the life of the process (the kernel closes it), or
    /// exit with the failure's message and code.
    static func open(path: String, timeout: Double) -> Connection {
        do { return try Connection(path: path, timeout: timeout) } catch { fail(error.message, error.code) }
    }

    /// Ends the connection (`watch`, before it reconnects).
    func close() { fd.close() }

    /// Seconds to wait for previewd (`--timeout`).
    let timeout: Double

    /// Seconds to wait without `--timeout`: `$MPD_TIMEOUT` as mpc reads
    /// it, else 5 (a hotkey should not hang on a stopped daemon).
    static let defaultTimeout: Double = {
        guard let env = Environment.value("MPD_TIMEOUT"), let n = Double(env), n > 0, n.isFinite else { return 5 }
        return min(n, 86_400)
    }()

    /// The exit code when previewd did not answer in time (EX_TEMPFAIL:
    /// trying again may work, where 69 says it is not there at all).
    static let timedOut: Int32 = 75

    /// `5 s`, `0.5 s`.
    static func seconds(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
    }

    /// SO_RCVTIMEO: a read waits at most `seconds` (0: for ever, as `watch` does).
    private func setReplyTimeout(_ seconds: Double) {
        try? fd.setReceiveTimeout(seconds: seconds)
    }

    /// The next line; nil at the end of the connection (and, unless
    /// `exitOnTimeout`, when SO_RCVTIMEO ran out).
    private func readLine(exitOnTimeout: Bool = true) -> String? {
        do { return try reader.next() } catch {
            // SO_RCVTIMEO ran out.
            if error.wouldBlock, exitOnTimeout {
                fail("previewd did not answer within \(Connection.seconds(timeout)) (busy or stopped? --timeout S waits longer)",
                     Connection.timedOut)
            }
            return nil
        }
    }

    /// Sends `lines` as one request (a command list when several) and reads the reply.
    func request(_ commands: [String]) -> ResponseParser.Reply {
        let text = commands.count == 1 ? commands[0] + "\n" : Connection.commandList(commands, begin: "command_list_begin")
        do { try fd.sendAll(Array(text.utf8)) } catch { fail("connection to previewd lost", 69) }
        var replyLines: [String] = []
        while true {
            guard let line = readLine() else { fail("connection to previewd lost", 69) }
            replyLines.append(line)
            if line == "OK" || ResponseParser.isAck(line) {
                return ResponseParser.parse(replyLines[...])!.0
            }
        }
    }

    /// Sends `commands` as one `command_list_ok_begin` list (one round trip)
    /// and returns each command's fields; exits 1 on an ACK.
    func mustEach(_ commands: [String]) -> [[(String, String)]] {
        let text = Connection.commandList(commands, begin: "command_list_ok_begin")
        do { try fd.sendAll(Array(text.utf8)) } catch { fail("connection to previewd lost", 69) }
        var results: [[(String, String)]] = []
        var fields: [(String, String)] = []
        while true {
            guard let line = readLine() else { fail("connection to previewd lost", 69) }
            if line == "list_OK" {
                results.append(fields)
                fields = []
            } else if line == "OK" {
                guard results.count == commands.count else {
                    fail("previewd sent \(results.count) replies for \(commands.count) commands", 69)
                }
                return results
            } else if ResponseParser.isAck(line) {
                failRefused(ackLine: line)
            } else if let field = ResponseParser.field(line[...]) {
                fields.append(field)
            }
        }
    }

    /// `commands` between `begin` and `command_list_end`, a line each. A
    /// plain loop: `joined()` is generic over Sequence, and its first call
    /// costs a conformance lookup at run time, on every hotkey press.
    private static func commandList(_ commands: [String], begin: String) -> String {
        var text = begin + "\n"
        for command in commands {
            text += command
            text += "\n"
        }
        return text + "command_list_end\n"
    }

    /// Reads previewd's `events` stream (a `tick` every `interval` seconds
    /// if given), calling `record` with each record's fields; returns when
    /// the daemon goes away, or with ticks asked for, when none came for
    /// `interval` + `timeout` seconds (a stopped daemon); exits 1 on an ACK.
    func events(interval: Double?, _ record: ([String: String]) -> Void) {
        // Records come when something changes, which may be never; ticks
        // come on time from a daemon that runs.
        setReplyTimeout(interval.map { $0 + timeout } ?? 0)
        _ = try? fd.send(Array(("events" + (interval.map { " \($0)" } ?? "") + "\n").utf8)[...])
        var fields: [String: String] = [:]
        while true {
            guard let line = readLine(exitOnTimeout: false) else { return }
            if line == "OK" {
                record(fields)
                fields = [:]
            } else if ResponseParser.isAck(line) {
                failRefused(ackLine: line)
            } else if let (name, value) = ResponseParser.field(line[...]) {
                fields[name] = value
            }
        }
    }

    /// Like `request`, exiting 1 with the daemon's message on an ACK.
    func must(_ commands: [String]) -> [(String, String)] {
        switch request(commands) {
        case .ok(let fields): return fields
        case .ack(_, _, let command, let message, _):
            failRefused(command: command, message: message)
        }
    }
}

/// Columns of the terminal on stdout (TIOCGWINSZ), else `$COLUMNS`, else 80.
func terminalWidth() -> Int {
    if let columns = FileDescriptor.standardOutput.terminalColumns { return columns }
    if let env = Environment.value("COLUMNS"), let n = Int(env), n > 0 { return n }
    return 80
}

func dictionary(_ fields: [(String, String)]) -> [String: String] {
    var d: [String: String] = [:]
    for (k, v) in fields where d[k] == nil { d[k] = v }
    return d
}
