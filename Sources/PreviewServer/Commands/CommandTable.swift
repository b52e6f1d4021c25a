import PreviewCore

/// How a command handler finished.
enum CommandOutcome {
    /// The reply is complete.
    case done
    /// The handler will call `CommandCall.finish` later (catalog requests).
    case pending
    /// The client enters idle for these subsystems (`idle`).
    case idle(Subsystems)
    /// Close the connection without a reply (`close`).
    case close
    /// The reply is the first record of an `events` stream; records follow
    /// until `noidle`, with a `tick` record every so many seconds if given.
    case events(tick: Double?)
}

/// One command being executed: its arguments and the reply being built.
final class CommandCall {
    /// The arguments after the command name.
    private(set) var args: [String]
    /// The connection's own settings and messages.
    let session: SessionState
    /// The reply body.
    var reply = Reply()
    /// Songs listed after the reply body, formatted as the client reads them.
    var listing: SongListing?
    /// Set by the session for `.pending` handlers; nil error means success.
    var onFinish: ((ProtocolError?) -> Void)?

    init(args: [String], session: SessionState) {
        self.args = args
        self.session = session
    }

    /// The reply's bytes, leaving the reply empty (so the buffer moves on
    /// without a copy).
    func takeReply() -> [UInt8] {
        let bytes = reply.bytes
        reply = Reply()
        return bytes
    }

    /// The listing after the reply, leaving none.
    func takeListing() -> SongListing? {
        defer { listing = nil }
        return listing
    }

    /// Makes a finished call (`.done`, not referenced elsewhere) the next
    /// command's: a fresh reply and these arguments.
    func reuse(args: [String]) {
        self.args = args
        reply = Reply()
        listing = nil
        onFinish = nil
        earlyResult = nil
    }

    /// The outcome when `finish` ran before the session set `onFinish`
    /// (a handler that could answer at once after all): `.some(nil)` is success.
    private(set) var earlyResult: ProtocolError??

    /// Completes a `.pending` command with an answer: `fill` writes the
    /// reply from the value; a failure becomes the ACK.
    func answer<T>(_ result: Result<T, ProtocolError>, fill: (T) -> Void) {
        switch result {
        case .failure(let e): finish(e)
        case .success(let value):
            fill(value)
            finish(nil)
        }
    }

    /// Completes a `.pending` command: nil is success; an error becomes
    /// the ACK (`ToAck`).
    func finish(_ failure: (any Error)?) {
        let error = failure.map(ToAck.protocolError)
        guard let f = onFinish else {
            earlyResult = .some(error)
            return
        }
        onFinish = nil
        f(error)
    }
}

/// A command's name, accepted argument counts and handler. A class, made
/// once per table: each command looked up is one reference counted, not
/// its name and closures each.
final class CommandSpec {
    let name: String
    let minArgs: Int
    /// nil: no upper bound.
    let maxArgs: Int?
    /// Throws what fails; `ToAck` makes the ACK of it.
    let handler: (CommandCall) throws -> CommandOutcome
    /// For a command that takes no arguments and answers the same bytes to
    /// every connection (`status`): its whole reply, which the session
    /// sends without making a `CommandCall` (status bars poll it).
    let reply: (() -> [UInt8])?

    init(name: String, minArgs: Int, maxArgs: Int?, handler: @escaping (CommandCall) throws -> CommandOutcome,
         reply: (() -> [UInt8])? = nil) {
        self.name = name
        self.minArgs = minArgs
        self.maxArgs = maxArgs
        self.handler = handler
        self.reply = reply
    }

    /// The ACK for a wrong argument count, in MPD's words.
    func checkArity(_ count: Int) throws(ProtocolError) {
        if minArgs == maxArgs, count != minArgs {
            throw ProtocolError(.argument, "wrong number of arguments for \"\(name)\"")
        }
        if count < minArgs { throw ProtocolError(.argument, "too few arguments for \"\(name)\"") }
        if let maxArgs, count > maxArgs { throw ProtocolError(.argument, "too many arguments for \"\(name)\"") }
    }
}

/// The command table: every command previewd answers, by name.
struct CommandTable {
    // Room for every command from the start (about 150): no rehashing
    // while the table is built, once per daemon and once per fuzz input.
    private(set) var specs = [String: CommandSpec](minimumCapacity: 192)

    mutating func register(_ name: String, _ minArgs: Int, _ maxArgs: Int?, _ handler: @escaping (CommandCall) throws -> CommandOutcome) {
        specs[name] = CommandSpec(name: name, minArgs: minArgs, maxArgs: maxArgs, handler: handler)
    }

    /// Registers a command without arguments whose reply is `reply()`'s
    /// bytes, whatever the connection (see `CommandSpec.reply`).
    mutating func register(_ name: String, reply: @escaping () -> [UInt8]) {
        specs[name] = CommandSpec(name: name, minArgs: 0, maxArgs: 0, handler: { call in
            call.reply.append(bytes: reply())
            return .done
        }, reply: reply)
    }

    /// The spec for `name`.
    /// - Throws: `.unknown` `unknown command "NAME"`.
    func lookup(_ name: String) throws(ProtocolError) -> CommandSpec {
        guard let spec = specs[name] else { throw ProtocolError(.unknown, "unknown command \"\(name)\"") }
        return spec
    }

    /// Names in alphabetical order (for `commands`).
    var names: [String] { specs.keys.sorted() }
}
