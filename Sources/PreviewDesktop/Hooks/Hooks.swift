import PreviewCore
import PreviewPlatform

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

    /// The hook as `--on-event` takes it: `[NAME,...:]COMMAND`.
    public var setting: String {
        (events.map { $0.sorted().joined(separator: ",") + ":" } ?? "") + command
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
package final class HookRunner {
    package let hooks: [Hook]
    let timeout: Double
    private let log: Log
    private var running: [(process: Subprocess, deadline: Double, command: String)] = []

    /// - Parameters: hooks in order; timeout in seconds; log for failures.
    package init(hooks: [Hook], timeout: Double, log: Log) {
        self.hooks = hooks
        self.timeout = timeout
        self.log = log
    }

    /// The earliest kill deadline of a running hook (monotonic seconds).
    package var nextDeadline: Double? { running.map(\.deadline).min() }

    /// Starts every hook that matches `event`.
    package func run(_ event: PlayerEvent) {
        for hook in hooks where hook.matches(event.name) {
            spawn(hook.command, event: event)
        }
    }

    /// Reaps finished hooks and kills overdue ones (`now`: monotonic seconds).
    package func reap(now: Double = SystemClock.monotonicSeconds()) {
        running.removeAll { entry in
            do throws(SystemError) {
                if try entry.process.poll() != nil { return true }
            } catch {
                // ECHILD: reaped already; other errors: try again next turn.
                if error.isNoSuchChild { return true }
            }
            if now >= entry.deadline {
                let limit = timeout == timeout.rounded() ? "\(Int(clamping: timeout))" : "\(timeout)"
                log.warning("hook still running after \(limit) s, killed: \(entry.command)")
                try? entry.process.killGroup(.kill)
                _ = try? entry.process.wait()
                return true
            }
            return false
        }
    }

    /// Kills every hook still running (at shutdown).
    package func killAll() {
        for entry in running {
            try? entry.process.killGroup(.kill)
            _ = try? entry.process.wait()
        }
        running = []
    }

    private func spawn(_ command: String, event: PlayerEvent) {
        let pipe: Pipe
        do { pipe = try Pipe() } catch {
            log.error("hook not run, no pipe: \(error.reason)")
            return
        }
        // The child reads its stdin blocking; our end stays non-blocking.
        pipe.readEnd.descriptor.setBlocking()
        let environment = Environment.all.filter { !$0.hasPrefix("PREVIEWD_") } + event.environment
        let process: Subprocess
        do {
            // Its own process group, so a timeout kills what it started too;
            // SIGPIPE back to its default, which previewd ignores.
            process = try Subprocess.spawn("/bin/sh", arguments: ["/bin/sh", "-c", command], environment: environment,
                                           standardInput: pipe.readEnd.descriptor, newProcessGroup: true,
                                           defaultSignals: [.pipe])
        } catch {
            log.error("hook not run: \(error.reason): \(command)")
            return
        }
        // A record is far below a pipe's buffer, so this write does not block.
        try? pipe.writeEnd.descriptor.writeAll(Array(event.keyValueLines.utf8))
        pipe.writeEnd.close()
        running.append((process, SystemClock.monotonicSeconds() + timeout, command))
    }
}
