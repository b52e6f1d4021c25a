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
    /// Set by a handler that answers with another's reply cut down
    /// (`listfiles` from `lsinfo`): applied to the reply's bytes when taken.
    var replyFilter: (([UInt8]) -> [UInt8])?

    init(args: [String], session: SessionState) {
        self.args = args
        self.session = session
    }

    /// The reply's bytes, leaving the reply empty (so the buffer moves on
    /// without a copy).
    func takeReply() -> [UInt8] {
        let bytes = reply.bytes
        reply = Reply()
        return replyFilter?(bytes) ?? bytes
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
        replyFilter = nil
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

    /// Completes a `.pending` command with what `body` does: success, or
    /// the ACK of what it throws.
    func finish(_ body: () throws -> Void) {
        do {
            try body()
            finish(nil)
        } catch {
            finish(error)
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

    init(
        name: String, minArgs: Int, maxArgs: Int?, handler: @escaping (CommandCall) throws -> CommandOutcome,
        reply: (() -> [UInt8])? = nil
    ) {
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

/// What a client must be allowed to do to run a command: MPD's permissions
/// (`password` grants them, `default_permissions` in mpd.conf sets them).
/// previewd serves only its own user's socket and grants every permission to
/// each connection, so `commands` lists every command and `notcommands`
/// none; the column records what mpd would ask.
enum Permission: CaseIterable {
    /// Allowed before any password: `ping`, `close`, `commands`.
    case anyone
    case read, add, player, control, admin
}

/// One entry of `Commands.list`: a command's name, permission, argument
/// counts and handler.
struct CommandDeclaration {
    /// How the command answers.
    enum Run {
        /// A handler given the call and the daemon's parts; what it throws
        /// becomes the ACK (`ToAck`).
        case handler((CommandCall, Services) throws -> CommandOutcome)
        /// The same bytes for every connection, no arguments (`status`): the
        /// session sends them without making a `CommandCall`. Given the
        /// daemon's parts once, it makes the function that gives the bytes,
        /// holding only what it reads (a status bar polls it).
        case reply((Services) -> () -> [UInt8])
    }

    let name: String
    let permission: Permission
    let minArgs: Int
    /// nil: no upper bound.
    let maxArgs: Int?
    let run: Run

    init(
        _ name: String, _ permission: Permission, _ minArgs: Int, _ maxArgs: Int?,
        _ handler: @escaping (CommandCall, Services) throws -> CommandOutcome
    ) {
        self.name = name
        self.permission = permission
        self.minArgs = minArgs
        self.maxArgs = maxArgs
        run = .handler(handler)
    }

    /// A command without arguments whose reply is `reply`'s bytes, whatever the connection.
    init(replying name: String, _ permission: Permission, _ reply: @escaping (Services) -> () -> [UInt8]) {
        self.name = name
        self.permission = permission
        minArgs = 0
        maxArgs = 0
        run = .reply(reply)
    }
}

/// The command table: `Commands.list` bound to one daemon's parts, by name.
package struct CommandTable {
    private(set) var specs: [String: CommandSpec]

    /// An empty table (a server before it starts).
    package init() { specs = [:] }

    /// Binds each declaration's handler to `services`.
    init(_ declarations: [CommandDeclaration], services: Services) {
        specs = [String: CommandSpec](minimumCapacity: declarations.count)
        for d in declarations {
            switch d.run {
            case .handler(let handler):
                specs[d.name] = CommandSpec(
                    name: d.name, minArgs: d.minArgs, maxArgs: d.maxArgs,
                    handler: { call in try handler(call, services) })
            case .reply(let reply):
                let bytes = reply(services)
                specs[d.name] = CommandSpec(
                    name: d.name, minArgs: 0, maxArgs: 0,
                    handler: { call in
                        call.reply.append(bytes: bytes())
                        return .done
                    }, reply: bytes)
            }
        }
    }

    /// The spec for `name`.
    /// - Throws: `.unknown` `unknown command "NAME"`.
    func lookup(_ name: String) throws(ProtocolError) -> CommandSpec {
        guard let spec = specs[name] else { throw ProtocolError(.unknown, "unknown command \"\(name)\"") }
        return spec
    }
}
