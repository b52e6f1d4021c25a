import Glibc
import PreviewCore
import PreviewPlatform
import Testing
@testable import PreviewDesktop

/// `--on-event` parsing.
@Suite struct HookTests {
    @Test func aPrefixOfEventNamesFilters() {
        let h = Hook(parsing: "player,mixer: notify-send \"$PREVIEWD_TITLE\"")
        #expect(h.events == ["player", "mixer"])
        #expect(h.command == "notify-send \"$PREVIEWD_TITLE\"")
        #expect(h.matches("mixer") && !h.matches("playlist"))
    }

    @Test func anythingElseIsAllCommand() {
        let h = Hook(parsing: "logger -t previewd: changed")
        #expect(h.events == nil && h.command == "logger -t previewd: changed")
        #expect(h.matches("playlist") && !h.matches("tick"), "ticks only when asked for")
        #expect(Hook(parsing: "tick:date").matches("tick"))
    }
}

/// The runner's bound: at most 8 hook processes, the rest waiting with
/// repeats coalesced (real /bin/sh children).
@Suite struct HookRunnerTests {
    @Test func aBurstRunsAtMostEightAndCoalescesTheRest() throws {
        var template = Array("/tmp/previewd-hooks-XXXXXX".utf8CString)
        let dir = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
        defer { try? FileSystem.remove(dir + "/ran"); try? FileSystem.removeDirectory(dir) }
        let runner = HookRunner(
            hooks: [Hook(parsing: "echo \"$PREVIEWD_EVENT $PREVIEWD_N\" >> \(dir)/ran; sleep 0.2")],
            timeout: 30, log: Log(level: .error))
        for n in 0..<20 { runner.run(PlayerEvent(name: "player", reason: .user, fields: [.init("n", "\(n)")])) }
        for n in 20..<25 { runner.run(PlayerEvent(name: "mixer", reason: .user, fields: [.init("n", "\(n)")])) }
        #expect(runner.runningCount == 8)
        #expect(runner.waitingCount == 2)
        #expect(try #require(runner.nextDeadline) < SystemClock.monotonicSeconds() + 1)
        let deadline = SystemClock.monotonicSeconds() + 20
        while runner.runningCount + runner.waitingCount > 0, SystemClock.monotonicSeconds() < deadline {
            #expect(runner.runningCount <= 8)
            usleep(20_000)
            runner.reap()
        }
        let lines = String(decoding: try #require(try AtomicFile.read(dir + "/ran")), as: UTF8.self).split(separator: "\n")
        // The first eight as they came, then the newest of each kind once
        // (those two start together: their lines may come in either order).
        #expect(Set(lines.prefix(8)) == Set((0..<8).map { "player \($0)" }))
        #expect(lines.count == 10 && Set(lines.dropFirst(8)) == ["player 19", "mixer 24"])
    }
}
