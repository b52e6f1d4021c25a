import Glibc
import PreviewCore

/// One `--on-event` hook: a shell command and the event names it runs for
/// (nil: every event but `tick`).
public struct Hook: Equatable, Sendable {
    public var events: Set<String>?
    public var command: String

    /// Parses `[NAME[,NAME...]:]COMMAND`: a prefix of known event names
    /// (`player`, `mixer`, ...) before the first `:` filters; anything else
    /// is all command.
    public init(parsing text: String) {
        if let colon = text.firstIndex(of: ":") {
            let names = text[..<colon].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            if !names.isEmpty, names.allSatisfy(PlayerEvent.names.contains) {
                events = Set(names)
                command = String(text[text.index(after: colon)...]).trimmingPrefixSpaces()
                return
            }
        }
        events = nil
        command = text
    }

    /// Whether the hook runs for an event named `name`.
    public func matches(_ name: String) -> Bool {
        events?.contains(name) ?? (name != "tick")
    }
}

extension String {
    fileprivate func trimmingPrefixSpaces() -> String { String(drop(while: { $0 == " " })) }
}

/// Runs hooks without ever waiting for them: each matching event starts
/// `/bin/sh -c COMMAND` (posix_spawn) in its own process group, with the
/// record in the environment (`PREVIEWD_EVENT`, `PREVIEWD_TITLE`, ...) and
/// as `key=value` lines on standard input. Children are reaped as they
/// end; one still running after `timeout` seconds has its group killed.
final class HookRunner {
    let hooks: [Hook]
    let timeout: Double
    private let log: Log
    private var running: [(pid: pid_t, deadline: Double, command: String)] = []

    /// - Parameters: hooks in order; timeout in seconds; log for failures.
    init(hooks: [Hook], timeout: Double, log: Log) {
        self.hooks = hooks
        self.timeout = timeout
        self.log = log
    }

    /// The earliest kill deadline of a running hook (monotonic seconds).
    var nextDeadline: Double? { running.map(\.deadline).min() }

    /// Starts every hook that matches `event`.
    func run(_ event: PlayerEvent) {
        for hook in hooks where hook.matches(event.name) {
            spawn(hook.command, event: event)
        }
    }

    /// Reaps finished hooks and kills overdue ones (waitpid WNOHANG, kill).
    func reap(now: Double = monotonicTime()) {
        running.removeAll { entry in
            var status: Int32 = 0
            let r = waitpid(entry.pid, &status, WNOHANG)
            if r == entry.pid || (r < 0 && errno == ECHILD) { return true }
            if now >= entry.deadline {
                let limit = timeout == timeout.rounded() ? "\(Int(clamping: timeout))" : "\(timeout)"
                log.warning("hook still running after \(limit) s, killed: \(entry.command)")
                kill(-entry.pid, SIGKILL)
                _ = waitpid(entry.pid, &status, 0)
                return true
            }
            return false
        }
    }

    /// Kills every hook still running (at shutdown).
    func killAll() {
        for entry in running {
            kill(-entry.pid, SIGKILL)
            var status: Int32 = 0
            _ = waitpid(entry.pid, &status, 0)
        }
        running = []
    }

    private func spawn(_ command: String, event: PlayerEvent) {
        var fds: [Int32] = [0, 0]
        guard makePipe(&fds) else {
            log.error("hook not run, no pipe: \(String(cString: strerror(errno)))")
            return
        }
        // The child reads its stdin blocking; our end stays non-blocking.
        _ = fcntl(fds[0], F_SETFL, 0)
        defer { Glibc.close(fds[0]) }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, fds[0], 0)
        var attr = posix_spawnattr_t()
        posix_spawnattr_init(&attr)
        defer { posix_spawnattr_destroy(&attr) }
        // Its own process group, so a timeout kills what it started too;
        // SIGPIPE back to its default, which previewd ignores.
        var defaults = sigset_t()
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGPIPE)
        posix_spawnattr_setsigdefault(&attr, &defaults)
        posix_spawnattr_setpgroup(&attr, 0)
        posix_spawnattr_setflags(&attr, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF))

        var environment: [String] = []
        var e = environ
        while let entry = e.pointee {
            let text = String(cString: entry)
            if !text.hasPrefix("PREVIEWD_") { environment.append(text) }
            e += 1
        }
        environment += event.environment
        let argv: [UnsafeMutablePointer<CChar>?] = ["/bin/sh", "-c", command].map { (text: String) in strdup(text) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] = environment.map { (text: String) in strdup(text) } + [nil]
        defer {
            for p in argv { free(p) }
            for p in envp { free(p) }
        }
        var pid: pid_t = 0
        let rc = posix_spawn(&pid, "/bin/sh", &actions, &attr, argv, envp)
        guard rc == 0 else {
            Glibc.close(fds[1])
            log.error("hook not run: \(String(cString: strerror(rc))): \(command)")
            return
        }
        // A record is far below a pipe's buffer, so this write does not block.
        let text = Array(event.keyValueLines.utf8)
        _ = text.withUnsafeBytes { Glibc.write(fds[1], $0.baseAddress, $0.count) }
        Glibc.close(fds[1])
        running.append((pid, monotonicTime() + timeout, command))
    }
}
