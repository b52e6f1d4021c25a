import PreviewCore
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
