import Dispatch
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
///
/// At most `maxRunning` hooks run at once. Events beyond that wait in
/// order, and a waiting run of the same hook for the same event name takes
/// the newer record instead of waiting twice: so what waits is bounded by
/// hooks × event names, and a burst of 200 `player` events costs at most
/// `maxRunning` processes and one more run per hook.
package final class HookRunner {
    package let hooks: [Hook]
    let timeout: Double
    /// Hook processes running at once, at most.
    package static let maxRunning = 8
    /// How often a full runner looks for hooks that ended, in seconds: the
    /// loop is woken by nothing else when a child exits.
    static let waitingPoll = 0.05
    private let log: Log
    private var running: [(process: Subprocess, deadline: Double, command: String)] = []
    /// Runs waiting for a free slot, oldest first.
    private var waiting: [(hook: Int, event: PlayerEvent)] = []
    /// Whether the log was told that events wait (once per full spell).
    private var saidFull = false

    /// - Parameters: hooks in order; timeout in seconds; log for failures.
    package init(hooks: [Hook], timeout: Double, log: Log) {
        self.hooks = hooks
        self.timeout = timeout
        self.log = log
    }

    /// The earliest kill deadline of a running hook (monotonic seconds),
    /// or soon when runs wait for a slot.
    package var nextDeadline: Double? {
        let kill = running.map(\.deadline).min()
        guard !waiting.isEmpty else { return kill }
        return min(kill ?? .infinity, SystemClock.monotonicSeconds() + HookRunner.waitingPoll)
    }

    /// Hook runs waiting for a slot (for tests and the log).
    package var waitingCount: Int { waiting.count }
    /// Hook processes running now.
    package var runningCount: Int { running.count }

    /// Starts every hook that matches `event`, or queues it when
    /// `maxRunning` run already.
    package func run(_ event: PlayerEvent) {
        for (index, hook) in hooks.enumerated() where hook.matches(event.name) {
            if let same = waiting.firstIndex(where: { $0.hook == index && $0.event.name == event.name }) {
                waiting[same].event = event
            } else if running.count < HookRunner.maxRunning && waiting.isEmpty {
                spawn(hook.command, event: event)
            } else {
                if !saidFull {
                    log.info("\(HookRunner.maxRunning) hooks running; later events wait, repeats of one kind coalesce")
                    saidFull = true
                }
                waiting.append((index, event))
            }
        }
    }

    /// Reaps finished hooks, kills overdue ones (`now`: monotonic seconds)
    /// and starts waiting runs in the slots freed.
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
        while running.count < HookRunner.maxRunning, !waiting.isEmpty {
            let next = waiting.removeFirst()
            spawn(hooks[next.hook].command, event: next.event)
        }
        if waiting.isEmpty { saidFull = false }
    }

    /// Kills every hook still running (at shutdown); waiting runs are dropped.
    package func killAll() {
        for entry in running {
            try? entry.process.killGroup(.kill)
            _ = try? entry.process.wait()
        }
        running = []
        waiting = []
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
            process = try Subprocess.spawn(
                "/bin/sh", arguments: ["/bin/sh", "-c", command], environment: environment,
                standardInput: pipe.readEnd.descriptor, newProcessGroup: true,
                defaultSignals: [.pipe])
        } catch {
            log.error("hook not run: \(error.reason): \(command)")
            return
        }
        let record = Array(event.keyValueLines.utf8)
        if record.count <= HookRunner.pipeBytes {
            // Within the pipe's buffer: this write does not block.
            try? pipe.writeEnd.descriptor.writeAll(record)
            pipe.writeEnd.close()
        } else {
            // A record past the buffer (a huge catalog title) is written as
            // the hook reads it, off the loop; the write ends when the
            // child has it all or is gone (EPIPE: SIGPIPE is ignored here).
            let end = pipe.writeEnd.release()
            end.setBlocking()
            HookRunner.writer.async {
                try? end.writeAll(record)
                end.close()
            }
        }
        running.append((process, SystemClock.monotonicSeconds() + timeout, command))
    }

    /// What a pipe holds before a write blocks (Linux's default, 16 pages).
    static let pipeBytes = 65536
    /// Writes the large records; at most `maxRunning` wait at once.
    private static let writer = DispatchQueue(label: "previewd.hook-stdin", attributes: .concurrent)
}
