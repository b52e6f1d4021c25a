import PreviewCore
import PreviewPlatform

/// One client connection's protocol state: lines (`LineFramer`), command lists,
/// commands awaiting catalog answers, and idle. Bytes in, bytes out; the
/// socket itself belongs to the server.
package final class ClientSession {
    /// Most bytes a command list may collect before it is refused (mpd's
    /// default `max_command_list_size`, 2 MiB).
    let maxCommandListBytes: Int

    /// Replies waiting for the socket.
    private var output = ReplyOutput()

    /// Reply bytes to write now (more may follow once they are taken).
    package var pendingOutput: ArraySlice<UInt8> { output.pending }

    /// Whether more of a reply follows `pendingOutput` (a long listing
    /// being formatted as it is read).
    package var hasMoreOutput: Bool { output.hasMore }

    /// The socket took `n` more bytes.
    /// - Returns: true when a large reply's storage (1 MiB or more) was let
    ///   go, so that the caller can give the memory back.
    @discardableResult
    package func consumeOutput(_ n: Int) -> Bool { output.consume(n) }

    /// Reply bytes waiting for the socket at which buffered requests wait
    /// too: 64 KiB of pipelined `status` lines would otherwise queue 2.5 MB
    /// of replies at once, to be written, freed and faulted in again.
    static let replyHoldBytes = 256 << 10

    /// Whether requests read from the socket wait, unanswered, for the
    /// replies before them to be taken (`resumeInput` answers them). The
    /// server reads no more from such a client meanwhile.
    package private(set) var inputHeld = false

    /// Whether enough reply bytes wait that requests should wait too (a
    /// listing still being formatted counts as enough).
    private var outputFull: Bool { output.pending.count >= ClientSession.replyHoldBytes || output.hasMore }

    /// Whether held requests can be answered now: the replies before them
    /// were taken. `resumeInput` then answers them, up to `replyHoldBytes`
    /// of replies; otherwise it does nothing.
    package var canResumeInput: Bool { inputHeld && !outputFull }
    package func resumeInput() { if canResumeInput { process() } }

    /// Set once the client closed its side (`endOfInput`: a read returned
    /// end of file). What it sent before is still answered and written: a
    /// script that pipes requests and half-closes waits for them all.
    package private(set) var inputEnded = false
    package func endOfInput() { inputEnded = true }

    /// Whether a client whose input ended has nothing more coming: every
    /// request it sent answered (none waits for the catalog or for room)
    /// and every reply written. The server then closes the connection.
    package var finished: Bool {
        inputEnded && execution == nil && !inputHeld && !output.hasMore && output.pending.isEmpty
    }

    /// Set when the connection should close once its replies are written.
    package private(set) var closing = false

    private let table: CommandTable
    private let log: Log
    private let hub: MessageHub
    /// This connection's settings and messages.
    package let state = SessionState()
    private var framer = LineFramer()

    /// A request line, or why it could not be read (too long, not UTF-8):
    /// inside a command list the list then fails at that line.
    private typealias Line = Result<String, ProtocolError>

    /// The command list being collected (`command_list_begin` seen), kept
    /// outside any enum so appending stays O(1).
    private struct ListCollection {
        var okMode: Bool
        var lines: [Line] = []
        var bytes = 0
    }
    private var collecting: ListCollection?

    /// A command list (or a lone command) being executed.
    private struct Execution {
        var lines: [Line]
        var index = 0
        var inList: Bool
        var okMode: Bool
        /// At least `largeListBytes` of requests.
        var large = false
    }
    private var execution: Execution?
    /// Requests in a command list from which its end is worth giving the
    /// heap back for (see `finishedLargeList`).
    static let largeListBytes = 1 << 20
    /// Set when a command list of `largeListBytes` or more has finished:
    /// its lines and arguments are freed between the songs it queued, so
    /// the caller can give those pages back (`takeFinishedLargeList`).
    private var finishedLargeList = false

    /// Whether a large command list finished since the last call.
    package func takeFinishedLargeList() -> Bool {
        defer { finishedLargeList = false }
        return finishedLargeList
    }
    /// A finished call nobody else holds, reused by the next command.
    private var spareCall: CommandCall?
    /// The last command's spec: clients repeat commands (status bars poll
    /// `status`), and this skips the table's hashing then.
    private var lastSpec: CommandSpec?
    private var waiting = false  // a `.pending` command is outstanding

    /// When the client last sent a whole line or read a reply (monotonic
    /// seconds), as the server saw it: for `--connection-timeout`. A byte
    /// alone is no sign of life: a slow-loris client dribbles one a line.
    package var lastActive = 0.0
    /// Lines (and over-long lines) taken from the input so far.
    package private(set) var linesTaken = 0
    /// Whether silence is this client's right: it waits in `idle` or
    /// `events`, or for a command previewd has not answered yet.
    package var mayBeSilent: Bool { waitingFor.isWaiting || waiting || execution != nil }

    /// `idle`, the `events` stream, and the changes not yet reported.
    private(set) var waitingFor = IdleWait()
    /// Whether the client reads an `events` stream.
    package var inEventStream: Bool { waitingFor.inEventStream }
    /// When the next `tick` record is due (monotonic seconds).
    package var nextTick: Double { waitingFor.nextTick }
    /// The next `tick` record is due `interval` after the one just sent,
    /// or at `now` when ticks were missed while the server was busy.
    package func tickSent(now: Double) {
        waitingFor.nextTick = max(waitingFor.nextTick + (waitingFor.tickInterval ?? .infinity), now)
    }

    /// - Parameter maxCommandListBytes: the longest command list taken
    ///   (mpd's `max_command_list_size`, 2 MiB by default as in mpd).
    package init(table: CommandTable, log: Log, hub: MessageHub, maxCommandListBytes: Int = 2 << 20) {
        self.maxCommandListBytes = maxCommandListBytes
        self.table = table
        self.log = log
        self.hub = hub
        output.append("OK MPD 0.23.5\n")
        hub.register(state)
    }

    deinit { hub.unregister(state) }

    /// Bytes arrived from the client.
    package func receive(_ bytes: UnsafeRawBufferPointer) {
        framer.append(bytes)
        process()
    }

    /// Something changed: report it now if idling on it, else keep it.
    package func notify(_ changed: Subsystems) {
        if let reply = waitingFor.note(changed) {
            send(reply)
            process()
        }
    }

    /// Sends `event` if the client reads the events stream.
    package func deliver(_ event: PlayerEvent) {
        guard inEventStream else { return }
        send(event.protocolLines + "OK\n")
    }

    // MARK: input

    private func process() {
        inputHeld = false
        while !closing, execution == nil {
            if outputFull {
                inputHeld = framer.hasUnread
                break
            }
            guard let line = nextLine() else { break }
            handle(line)
        }
        framer.compact()
    }

    /// The next request line, or nil until more bytes arrive. A line that
    /// cannot be a request is answered with its ACK (inside a command list,
    /// the list fails at that line when it runs) and skipped.
    private func nextLine() -> String? {
        while let next = framer.next() {
            linesTaken &+= 1
            switch next {
            case .success(let line): return line
            case .failure(let error):
                if collecting != nil {
                    collecting!.lines.append(.failure(error))
                } else {
                    send(error.ackLine(index: 0, command: ""))
                }
            }
        }
        return nil
    }

    private func handle(_ line: String) {
        if waitingFor.isWaiting {
            // In idle or an events stream, only `noidle` is allowed (as in
            // mpd, anything else ends the connection).
            if line.trimmingSuffix("\r") == "noidle" {
                waitingFor.stop()
                send("OK\n")
            } else {
                log.info("client sent \"\(line.prefix(40))\" during \(inEventStream ? "events" : "idle"); closing")
                closing = true
            }
            return
        }
        if collecting != nil {
            if line.trimmingSuffix("\r") == "command_list_end" {
                let list = collecting!
                collecting = nil
                execution = Execution(
                    lines: list.lines, inList: true, okMode: list.okMode,
                    large: list.bytes >= ClientSession.largeListBytes)
                run()
                return
            }
            // Not idle, so `noidle` means nothing: mpd drops the line, in lists too.
            if line.trimmingSuffix("\r") == "noidle" { return }
            // Counted as mpd counts it: each line with its newline.
            guard collecting!.bytes + line.utf8.count + 1 <= maxCommandListBytes else {
                // As mpd, the connection ends: were it kept, the list's
                // remaining lines would arrive as single commands and run
                // (a `clear` at its end would empty the queue).
                let index = collecting!.lines.count
                collecting = nil
                log.info("command list over \(maxCommandListBytes) bytes; closing the connection")
                send(
                    ProtocolError(.argument, "command list too long (at most \(maxCommandListBytes) bytes); closing the connection")
                        .ackLine(index: index, command: ""))
                closing = true
                return
            }
            collecting!.lines.append(.success(line))
            collecting!.bytes += line.utf8.count + 1
            return
        }
        // Only lines starting with c or n can be the words below.
        if let first = line.utf8.first, first == UInt8(ascii: "c") || first == UInt8(ascii: "n") {
            switch line.trimmingSuffix("\r") {
            case "command_list_begin":
                collecting = ListCollection(okMode: false)
                return
            case "command_list_ok_begin":
                collecting = ListCollection(okMode: true)
                return
            case "noidle": return  // not idle: mpd ignores it silently
            default: break
            }
        }
        runAlone(line)
    }

    // MARK: execution

    /// Runs commands of `execution` until one is pending or all are done.
    private func run() {
        while let ex = execution, !waiting {
            guard ex.index < ex.lines.count else {
                execution = nil
                if ex.large { finishedLargeList = true }
                send("OK\n")
                return
            }
            let ackIndex = ex.inList ? ex.index : 0
            execution!.index += 1
            switch ex.lines[ex.index] {
            case .success(let line):
                guard execute(line, ackIndex: ackIndex, okMode: ex.okMode) else { return }
            case .failure(let error):
                fail(error, index: ackIndex, command: "")
                return
            }
        }
    }

    /// Runs a lone command (no list): the common case, kept free of the
    /// list bookkeeping.
    private func runAlone(_ line: String) {
        if execute(line, ackIndex: 0, okMode: false) { send("OK\n") }
    }

    /// Runs one command line and sends its reply (and `list_OK` in ok mode).
    /// - Returns: whether the next command may run now; false when this one
    ///   failed (the ACK is sent), is pending (`run()` goes on once it
    ///   finishes; a lone command gets an empty execution for that), or
    ///   changed the connection's mode (idle, events, close).
    private func execute(_ line: String, ackIndex: Int, okMode: Bool) -> Bool {
        let spec: CommandSpec, args: [String]
        do throws(ProtocolError) { (spec, args) = try resolve(line) } catch {
            // No command to name: the line did not parse, or names none we know.
            fail(error, index: ackIndex, command: "")
            return false
        }
        if let reply = spec.reply, args.isEmpty {
            output.append(reply())
            if okMode { send("list_OK\n") }
            return true
        }
        let call: CommandCall
        let outcome: CommandOutcome
        do {
            try spec.checkArity(args.count)
            call = makeCall(args)
            outcome = try spec.handler(call)
        } catch {
            fail(ToAck.protocolError(error), index: ackIndex, command: spec.name)
            return false
        }
        // Handed over, not shared: a call nobody else holds is reused.
        return conclude(outcome, of: consume call, name: spec.name, ackIndex: ackIndex, okMode: okMode)
    }

    /// The command a request line names, and its arguments. Most lines are
    /// a bare command name, which needs no word list; a client repeating its
    /// last command (status bars poll `status`) skips the table's hashing.
    /// - Throws: the parser's ACK, `.unknown` "No command given" for an empty
    ///   line, or the table's `unknown command "NAME"`.
    private func resolve(_ line: String) throws(ProtocolError) -> (CommandSpec, [String]) {
        let bare = RequestParser.isBareWord(line)
        let words = bare ? [] : try RequestParser.parse(line)
        guard let first = bare ? line : words.first else { throw ProtocolError(.unknown, "No command given") }
        let spec: CommandSpec
        if let last = lastSpec, last.name == first {
            spec = last
        } else {
            spec = try table.lookup(first)
            lastSpec = spec
        }
        return (spec, words.count <= 1 ? [] : Array(words.dropFirst()))
    }

    /// A call for `args`: the spare one when the last command left it, so a
    /// busy connection does not allocate one per command.
    private func makeCall(_ args: [String]) -> CommandCall {
        guard let spare = spareCall else { return CommandCall(args: args, session: state) }
        spareCall = nil
        spare.reuse(args: args)
        return spare
    }

    /// Acts on how a handler finished: sends its reply, waits for a pending
    /// one, or moves the connection into its new mode (closing, events, idle).
    /// - Returns: as `execute`.
    private func conclude(
        _ outcome: CommandOutcome, of call: consuming CommandCall, name: String,
        ackIndex: Int, okMode: Bool
    ) -> Bool {
        switch outcome {
        case .done:
            sendReply(of: call, okMode: okMode)
            return true
        case .pending:
            // The handler could answer at once after all.
            if let early = call.earlyResult {
                if let error = early {
                    fail(error, index: ackIndex, command: name)
                    return false
                }
                sendReply(of: call, okMode: okMode)
                return true
            }
            awaitAnswer(of: call, name: name, ackIndex: ackIndex, okMode: okMode)
            return false
        case .close:
            execution = nil
            closing = true
            return false
        case .events(let tick):
            execution = nil
            sendBody(of: call)
            send("OK\n")
            waitingFor.startEvents(tick: tick, now: SystemClock.monotonicSeconds())
            return false
        case .idle(let mask):
            execution = nil
            if let reply = waitingFor.startIdle(mask) { send(reply) }
            return false
        }
    }

    /// Waits for a `.pending` command's answer: a lone command gets an
    /// empty execution for that, and `run()` goes on once it finishes.
    private func awaitAnswer(of call: CommandCall, name: String, ackIndex: Int, okMode: Bool) {
        if execution == nil { execution = Execution(lines: [], inList: false, okMode: false) }
        waiting = true
        call.onFinish = { [weak self] error in
            guard let self else { return }
            self.waiting = false
            if let error {
                self.fail(error, index: ackIndex, command: name)
            } else {
                self.sendBody(of: call)
                if okMode { self.send("list_OK\n") }
                self.run()
            }
            self.process()
        }
    }

    /// Sends a finished command's reply (and `list_OK` in ok mode), keeping
    /// its call for the next command.
    private func sendReply(of call: consuming CommandCall, okMode: Bool) {
        sendBody(of: call)
        if okMode { send("list_OK\n") }
        keepSpare(call)
    }

    /// Keeps a finished call for reuse if no handler kept it.
    private func keepSpare(_ call: consuming CommandCall) {
        var call = call
        if isKnownUniquelyReferenced(&call) { spareCall = call }
    }

    private func fail(_ error: ProtocolError, index: Int, command: String) {
        execution = nil
        send(error.ackLine(index: index, command: command))
    }

    private func send(_ text: String) { output.append(text) }

    /// Sends a call's reply body and the listing that follows it, if any.
    private func sendBody(of call: CommandCall) {
        output.append(call.takeReply())
        if let listing = call.takeListing() { output.append(listing) }
    }
}

extension String {
    /// The string without one trailing `suffix`.
    func trimmingSuffix(_ suffix: String) -> Substring {
        hasSuffix(suffix) ? dropLast(suffix.count) : self[...]
    }
}
