import Glibc

/// How a child process ended (waitpid(2)'s status).
public enum ExitStatus: Equatable, Sendable {
    /// exit(3) with this code (0...255).
    case exited(Int32)
    /// Killed by this signal number.
    case signaled(Int32)

    /// Decodes a waitpid(2) status word (WIFEXITED/WEXITSTATUS/WTERMSIG are
    /// macros Swift does not import).
    public init(waitStatus status: Int32) {
        let signal = status & 0x7f
        self = signal == 0 ? .exited((status >> 8) & 0xff) : .signaled(signal)
    }
}

/// A child process started by `spawn`. Copyable: it is a process id; the
/// caller reaps it (`poll`/`wait`) exactly once.
public struct Subprocess: Hashable, Sendable {
    /// The child's process id (and, with `newProcessGroup`, its group's).
    public let id: Int32

    /// posix_spawn(3) `path` with `arguments` (argv, `arguments[0]` included)
    /// and `environment` (`NAME=value` strings) as Swift strings.
    /// - Parameters:
    ///   - standardInput: becomes the child's fd 0 (posix_spawn_file_actions_adddup2).
    ///   - newProcessGroup: the child leads a group of its own, so
    ///     `killGroup` reaches what it starts as well (POSIX_SPAWN_SETPGROUP).
    ///   - defaultSignals: reset to their default action in the child
    ///     (POSIX_SPAWN_SETSIGDEF), e.g. SIGPIPE this process ignores.
    /// - Throws: `SystemError("posix_spawn", path:)` with the code it returned.
    public static func spawn(
        _ path: String, arguments: [String], environment: [String],
        standardInput: FileDescriptor? = nil, newProcessGroup: Bool = false,
        defaultSignals: [Signal] = []
    ) throws(SystemError) -> Subprocess {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if let standardInput { posix_spawn_file_actions_adddup2(&actions, standardInput.rawValue, 0) }
        var attr = posix_spawnattr_t()
        posix_spawnattr_init(&attr)
        defer { posix_spawnattr_destroy(&attr) }
        var flags: Int32 = 0
        if !defaultSignals.isEmpty {
            var set = sigset_t()
            sigemptyset(&set)
            for s in defaultSignals { sigaddset(&set, s.rawValue) }
            posix_spawnattr_setsigdefault(&attr, &set)
            flags |= Int32(POSIX_SPAWN_SETSIGDEF)
        }
        if newProcessGroup {
            posix_spawnattr_setpgroup(&attr, 0)
            flags |= Int32(POSIX_SPAWN_SETPGROUP)
        }
        posix_spawnattr_setflags(&attr, Int16(flags))

        // posix_spawn wants NULL-terminated arrays of C strings that live
        // through the call.
        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup($0) } + [nil]
        defer {
            for p in argv { free(p) }
            for p in envp { free(p) }
        }
        var pid: pid_t = 0
        try Syscall.returningError("posix_spawn", path: path, negated: false) { posix_spawn(&pid, path, &actions, &attr, argv, envp) }
        return Subprocess(id: pid)
    }

    /// waitpid(2) WNOHANG: the status if the child has ended (it is reaped
    /// then), nil while it runs.
    /// - Throws: `SystemError("waitpid")`; ECHILD when it was reaped already.
    public func poll() throws(SystemError) -> ExitStatus? {
        var status: Int32 = 0
        let r = try Syscall.call("waitpid") { waitpid(id, &status, WNOHANG) }
        return r == id ? ExitStatus(waitStatus: status) : nil
    }

    /// waitpid(2), blocking until the child ends.
    /// - Throws: `SystemError("waitpid")`.
    @discardableResult
    public func wait() throws(SystemError) -> ExitStatus {
        var status: Int32 = 0
        try Syscall.call("waitpid") { waitpid(id, &status, 0) }
        return ExitStatus(waitStatus: status)
    }

    /// kill(2) to the child's process group (`-id`): only meaningful for a
    /// child spawned with `newProcessGroup`.
    /// - Throws: `SystemError("kill")`; ESRCH when the group is gone.
    public func killGroup(_ signal: Signal) throws(SystemError) {
        try Syscall.call("kill") { kill(-id, signal.rawValue) }
    }
}
