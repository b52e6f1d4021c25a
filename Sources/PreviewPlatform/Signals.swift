import Glibc

/// A signal number.
public struct Signal: RawRepresentable, Hashable, Sendable {
    public let rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }

    public static let terminate = Signal(rawValue: SIGTERM)
    public static let interrupt = Signal(rawValue: SIGINT)
    public static let hangUp = Signal(rawValue: SIGHUP)
    public static let pipe = Signal(rawValue: SIGPIPE)
    public static let kill = Signal(rawValue: SIGKILL)

    /// signal(2) SIG_IGN: this process ignores the signal from now on
    /// (SIGPIPE: a write to a closed socket is an EPIPE error instead).
    public func ignore() {
        _ = signal(rawValue, SIG_IGN)
    }

    /// Whether this process ignores the signal now (sigaction(2), asked
    /// without a new action); false if the number is not a signal.
    public var isIgnored: Bool {
        var current = sigaction()
        guard sigaction(rawValue, nil, &current) == 0 else { return false }
        return unsafeBitCast(current.__sigaction_handler.sa_handler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self)
    }
}

/// Where the handler writes; a C signal handler cannot capture context.
nonisolated(unsafe) private var signalPipeWriteFD: Int32 = -1

/// Turns signals into bytes on a pipe, so a `poll` loop waits for them
/// beside its other descriptors and handles them outside the handler.
/// One at a time per process: the handler has a single pipe to write to.
public struct SignalPipe: ~Copyable {
    private let pipe: Pipe

    /// Readable (POLLIN) once one of the signals has arrived.
    public var readEnd: FileDescriptor { pipe.readEnd.descriptor }

    /// Makes the pipe and installs the handler for `signals` (signal(2)),
    /// and for each of `unlessIgnored` the process does not ignore already.
    /// Whoever started us with SIGHUP or SIGINT ignored meant it: `nohup`
    /// does so to outlive the terminal, and a shell does so for the jobs it
    /// starts in the background, which Ctrl-C is not for.
    /// - Throws: `SystemError("pipe")`.
    public init(catching signals: [Signal], unlessIgnored: [Signal] = []) throws(SystemError) {
        pipe = try Pipe()
        signalPipeWriteFD = pipe.writeEnd.descriptor.rawValue
        let onSignal: @convention(c) (Int32) -> Void = { _ in
            // Only async-signal-safe calls here; errno is put back because
            // the interrupted code may be about to read it.
            let saved = Glibc.errno
            var b: UInt8 = 1
            _ = Glibc.write(signalPipeWriteFD, &b, 1)
            Glibc.errno = saved
        }
        for s in signals + unlessIgnored.filter({ !$0.isIgnored }) { _ = signal(s.rawValue, onSignal) }
    }

    /// Closes both ends (close(2)); a signal after this is dropped.
    public consuming func close() {}

    deinit {
        signalPipeWriteFD = -1
    }
}
