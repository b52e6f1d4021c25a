// previewctl's plumbing: exit codes and messages, stdout, and the one
// connection to the daemon (requests out, reply records in).
import PreviewClient
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

/// The connection to the daemon: the shared `MPDConnection`, its failures
/// worded as previewctl's lines and exit codes.
final class Connection {
    private let mpd: MPDConnection

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
        let uid = ThisProcess.userID
        if SocketPath.directory(of: path) == SocketPath.privateDirectory(uid: uid) {
            do { try PrivateDirectory.check(SocketPath.privateDirectory(uid: uid), owner: uid, create: false) } catch {
                throw Failure(message: "\(error); not trusting a socket there. Set XDG_RUNTIME_DIR, or pass --socket PATH", code: 69)
            }
        }
        do { mpd = try MPDConnection(path: path, timeout: timeout, uid: uid) } catch {
            throw Connection.failure(error, path: path, uid: uid, timeout: timeout)
        }
    }

    private static func failure(_ error: MPDClientError, path: String, uid: UInt32, timeout: Double) -> Failure {
        let wait = "(busy or stopped? --timeout S waits longer)"
        switch error {
        case .pathTooLong:
            return Failure(message: "socket path too long: \(path)", code: 64)
        case .connect(_, timedOut: true):
            return Failure(message: "previewd at \(path) did not take the connection within \(seconds(timeout)) \(wait)", code: timedOut)
        case .connect(let reason, timedOut: false):
            return Failure(message: "cannot reach previewd at \(path): \(reason) (is it running?)", code: 69)
        case .otherUser(let other):
            let who = other.map { "uid \($0)" } ?? "an unknown user"
            return Failure(message: "\(path) is served by \(who), not by you (uid \(uid)); refusing it", code: 69)
        case .noGreeting(timedOut: true):
            return Failure(message: "previewd at \(path) did not greet within \(seconds(timeout)) \(wait)", code: timedOut)
        case .refused(_, _, let message):
            return Failure(message: "previewd refused the connection: \(message)", code: 69)
        case .noGreeting, .timedOut, .lost, .malformed:
            return Failure(message: "\(path) does not speak the MPD protocol", code: 69)
        }
    }

    /// A connection for the life of the process (the kernel closes it), or
    /// exit with the failure's message and code.
    static func open(path: String, timeout: Double) -> Connection {
        do { return try Connection(path: path, timeout: timeout) } catch { previewctl.fail(error.message, error.code) }
    }

    /// Ends the connection (`watch`, before it reconnects).
    func close() { mpd.close() }

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

    /// Exits as a failed exchange with a connected daemon must.
    private func fail(_ error: MPDClientError) -> Never {
        switch error {
        case .timedOut:
            previewctl.fail(
                "previewd did not answer within \(Connection.seconds(timeout)) (busy or stopped? --timeout S waits longer)",
                Connection.timedOut)
        case .refused(_, let command, let message): failRefused(command: command, message: message)
        case .malformed(let message): previewctl.fail(message, 69)
        default: previewctl.fail("connection to previewd lost", 69)
        }
    }

    /// Sends `lines` as one request (a command list when several) and reads the reply.
    func request(_ commands: [String]) -> ResponseParser.Reply {
        do { return try mpd.request(commands) } catch { fail(error) }
    }

    /// Sends `commands` as one `command_list_ok_begin` list (one round trip)
    /// and returns each command's fields; exits 1 on an ACK.
    func mustEach(_ commands: [String]) -> [[(String, String)]] {
        do { return try mpd.requestEach(commands) } catch { fail(error) }
    }

    /// Reads previewd's `events` stream (a `tick` every `interval` seconds
    /// if given), calling `record` with each record's fields; returns when
    /// the daemon goes away, or with ticks asked for, when none came for
    /// `interval` + `timeout` seconds (a stopped daemon); exits 1 on an ACK.
    func events(interval: Double?, _ record: ([String: String]) -> Void) {
        // Records come when something changes, which may be never; ticks
        // come on time from a daemon that runs.
        mpd.setReplyTimeout(interval.map { $0 + timeout } ?? 0)
        try? mpd.send("events" + (interval.map { " \($0)" } ?? "") + "\n")
        var fields: [String: String] = [:]
        while true {
            guard let line = try? mpd.nextLine() else { return }
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

/// The first value of each field name.
func dictionary(_ fields: [(String, String)]) -> [String: String] { ResponseParser.dictionary(fields) }
