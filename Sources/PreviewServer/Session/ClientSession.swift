import PreviewCore

/// One client connection's protocol state: line framing, command lists,
/// commands awaiting catalog answers, and idle. Bytes in, bytes out; the
/// socket itself belongs to the server.
final class ClientSession {
    /// Longest request line accepted. Longer lines are answered with an ACK
    /// and skipped, and the connection stays usable (mpd drops the client).
    static let maxLineBytes = 64 * 1024
    /// Most bytes a command list may collect before it is refused (mpd's
    /// default `max_command_list_size`, 2 MiB).
    let maxCommandListBytes: Int

    /// Reply bytes; those from `outputHead` on wait to be written.
    private(set) var output: [UInt8] = []
    private var outputHead = 0

    /// Reply bytes not written yet.
    var pendingOutput: ArraySlice<UInt8> { output[outputHead...] }

    /// The socket took `n` more bytes. Storage is compacted only now and
    /// then, so a large reply drains in linear time.
    func consumeOutput(_ n: Int) {
        outputHead += n
        if outputHead == output.count {
            output.removeAll(keepingCapacity: output.count < 1 << 20)
            outputHead = 0
        } else if outputHead > 1 << 16, outputHead > output.count / 2 {
            output.removeSubrange(0..<outputHead)
            outputHead = 0
        }
    }
    /// Set when the connection should close once `output` is written.
    private(set) var closing = false

    private let table: CommandTable
    private let log: Log
    private let hub: MessageHub
    /// This connection's settings and messages.
    let state = SessionState()
    private var input: [UInt8] = []
    private var inputStart = 0
    private var discardingLongLine = false

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
    }
    private var execution: Execution?
    private var waiting = false  // a `.pending` command is outstanding

    /// Subsystems the client is idling on, when in idle.
    private var idleMask: Subsystems?
    /// Whether the client reads an `events` stream.
    private(set) var inEventStream = false
    /// Seconds between its `tick` records, if it asked for them.
    private(set) var tickInterval: Double?
    /// When the next `tick` record is due (monotonic seconds).
    var nextTick = Double.infinity
    /// Changes not yet reported to this client (MPD accumulates per client).
    private var pendingEvents: Subsystems = []

    private static let tooLong = ProtocolError(.argument, "line too long (at most \(maxLineBytes) bytes)")
    private static let invalidUTF8 = ProtocolError(.argument, "request is not valid UTF-8")

    /// - Parameter maxCommandListBytes: the longest command list taken
    ///   (mpd's `max_command_list_size`, 2 MiB by default as in mpd).
    init(table: CommandTable, log: Log, hub: MessageHub, maxCommandListBytes: Int = 2 << 20) {
        self.maxCommandListBytes = maxCommandListBytes
        self.table = table
        self.log = log
        self.hub = hub
        output = Array("OK MPD 0.23.5\n".utf8)
        hub.register(state)
    }

    deinit { hub.unregister(state) }

    /// Bytes arrived from the client.
    func receive(_ bytes: UnsafeRawBufferPointer) {
        input.append(contentsOf: bytes)
        process()
    }

    /// Something changed: report it now if idling on it, else keep it.
    func notify(_ changed: Subsystems) {
        pendingEvents.formUnion(changed)
        if let mask = idleMask, !pendingEvents.intersection(mask).isEmpty {
            finishIdle(mask)
            process()
        }
    }

    /// Sends `event` if the client reads the events stream.
    func deliver(_ event: PlayerEvent) {
        guard inEventStream else { return }
        send(event.protocolLines + "OK\n")
    }

    // MARK: input

    private func process() {
        while !closing, execution == nil, let line = nextLine() {
            handle(line)
        }
        compactInput()
    }

    /// The next complete line without its `\n`, or nil. Over-long lines are
    /// skipped and answered with an ACK.
    private func nextLine() -> String? {
        while true {
            let end = input.count
            var i = inputStart
            while i < end, input[i] != 0x0A { i += 1 }
            if i == end {
                if end - inputStart > ClientSession.maxLineBytes {
                    discardingLongLine = true
                    inputStart = end
                }
                return nil
            }
            let lineBytes = input[inputStart..<i]
            inputStart = i + 1
            if discardingLongLine || lineBytes.count > ClientSession.maxLineBytes {
                discardingLongLine = false
                if collecting != nil {
                    // Fail the list at this line when it runs, like any other bad line in it.
                    collecting!.lines.append(.failure(ClientSession.tooLong))
                } else {
                    send(ClientSession.tooLong.ackLine(index: 0, command: ""))
                }
                continue
            }
            guard let line = String(validating: lineBytes, as: UTF8.self) else {
                if collecting != nil {
                    collecting!.lines.append(.failure(ClientSession.invalidUTF8))
                } else {
                    send(ClientSession.invalidUTF8.ackLine(index: 0, command: ""))
                }
                continue
            }
            return line
        }
    }

    private func compactInput() {
        if inputStart > 0 && (inputStart == input.count || inputStart > 64 * 1024) {
            input.removeSubrange(0..<inputStart)
            inputStart = 0
        }
    }

    private func handle(_ line: String) {
        if inEventStream {
            // As in idle: `noidle` ends the stream (with an empty record).
            if line.trimmingSuffix("\r") == "noidle" {
                inEventStream = false
                tickInterval = nil
                nextTick = .infinity
                send("OK\n")
            } else {
                log.info("client sent \"\(line.prefix(40))\" during events; closing")
                closing = true
            }
            return
        }
        if idleMask != nil {
            // In idle, only `noidle` is allowed (as in mpd, anything else ends the connection).
            if line.trimmingSuffix("\r") == "noidle" {
                // Nothing in the mask happened (or idle would have returned):
                // mpd answers OK and keeps the other pending changes.
                idleMask = nil
                send("OK\n")
            } else {
                log.info("client sent \"\(line.prefix(40))\" during idle; closing")
                closing = true
            }
            return
        }
        if collecting != nil {
            if line.trimmingSuffix("\r") == "command_list_end" {
                let list = collecting!
                collecting = nil
                execution = Execution(lines: list.lines, inList: true, okMode: list.okMode)
                run()
                return
            }
            // Not idle, so `noidle` means nothing: mpd drops the line, in lists too.
            if line.trimmingSuffix("\r") == "noidle" { return }
            guard collecting!.bytes + line.utf8.count <= maxCommandListBytes else {
                let index = collecting!.lines.count
                collecting = nil
                send(ProtocolError(.argument, "command list too long (at most \(maxCommandListBytes) bytes)").ackLine(index: index, command: ""))
                return
            }
            collecting!.lines.append(.success(line))
            collecting!.bytes += line.utf8.count
            return
        }
        switch line.trimmingSuffix("\r") {
        case "command_list_begin": collecting = ListCollection(okMode: false)
        case "command_list_ok_begin": collecting = ListCollection(okMode: true)
        case "noidle": break  // not idle: mpd ignores it silently
        default:
            execution = Execution(lines: [.success(line)], inList: false, okMode: false)
            run()
        }
    }

    // MARK: execution

    /// Runs commands of `execution` until one is pending or all are done.
    private func run() {
        while var ex = execution, !waiting {
            guard ex.index < ex.lines.count else {
                execution = nil
                send("OK\n")
                return
            }
            let ackIndex = ex.inList ? ex.index : 0
            let line: String
            switch ex.lines[ex.index] {
            case .success(let text): line = text
            case .failure(let error):
                fail(error, index: ackIndex, command: "")
                return
            }
            var name = ""
            let call: CommandCall
            let spec: CommandSpec
            do throws(ProtocolError) {
                let words = try RequestParser.parse(line)
                guard let first = words.first else { throw ProtocolError(.unknown, "No command given") }
                name = first
                spec = try table.lookup(first)
                name = spec.name
                try spec.checkArity(words.count - 1)
                call = CommandCall(args: Array(words.dropFirst()), session: state)
            } catch {
                fail(error, index: ackIndex, command: table.specs[name] == nil ? "" : name)
                return
            }
            let outcome: CommandOutcome
            do throws(ProtocolError) {
                outcome = try spec.handler(call)
            } catch {
                fail(error, index: ackIndex, command: name)
                return
            }
            ex.index += 1
            execution = ex
            switch outcome {
            case .done:
                send(call.reply.bytes)
                if ex.okMode { send("list_OK\n") }
            case .pending:
                if let early = call.earlyResult {
                    if let error = early {
                        fail(error, index: ackIndex, command: name)
                        return
                    }
                    send(call.reply.bytes)
                    if ex.okMode { send("list_OK\n") }
                    continue
                }
                waiting = true
                call.onFinish = { [weak self] error in
                    guard let self else { return }
                    self.waiting = false
                    if let error {
                        self.fail(error, index: ackIndex, command: name)
                    } else {
                        self.send(call.reply.bytes)
                        if ex.okMode { self.send("list_OK\n") }
                        self.run()
                    }
                    self.process()
                }
                return
            case .close:
                execution = nil
                closing = true
                return
            case .events(let tick):
                execution = nil
                send(call.reply.bytes)
                send("OK\n")
                inEventStream = true
                tickInterval = tick
                nextTick = tick.map { monotonicTime() + $0 } ?? .infinity
                return
            case .idle(let mask):
                execution = nil
                idleMask = mask
                if !pendingEvents.intersection(mask).isEmpty { finishIdle(mask) }
                return
            }
        }
    }

    private func fail(_ error: ProtocolError, index: Int, command: String) {
        execution = nil
        send(error.ackLine(index: index, command: command))
    }

    private func finishIdle(_ mask: Subsystems) {
        // Like mpd, an idle that returns forgets every pending change, also
        // those outside its mask.
        let report = pendingEvents.intersection(mask)
        pendingEvents = []
        idleMask = nil
        send(report.changedLines + "OK\n")
    }

    private func send(_ text: String) {
        output.append(contentsOf: text.utf8)
    }

    private func send(_ bytes: [UInt8]) {
        output.append(contentsOf: bytes)
    }
}

extension String {
    /// The string without one trailing `suffix`.
    func trimmingSuffix(_ suffix: String) -> Substring {
        hasSuffix(suffix) ? dropLast(suffix.count) : self[...]
    }
}
