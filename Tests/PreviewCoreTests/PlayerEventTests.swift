import Testing
@testable import PreviewCore

@Suite struct PlayerEventTests {
    let event = PlayerEvent(
        name: "player", reason: .urlRefreshed,
        fields: [.init("state", "play"), .init("title", "Two\nLines")])

    @Test func protocolLinesStartWithEventAndReason() {
        #expect(event.protocolLines == "event: player\nreason: url-refreshed\nstate: play\ntitle: Two Lines\n")
    }

    @Test func hooksGetKeyValueLinesAndEnvironment() {
        #expect(event.keyValueLines == "event=player\nreason=url-refreshed\nstate=play\ntitle=Two Lines\n")
        #expect(
            event.environment == [
                "PREVIEWD_EVENT=player", "PREVIEWD_REASON=url-refreshed",
                "PREVIEWD_STATE=play", "PREVIEWD_TITLE=Two Lines",
            ])
    }
}

@Suite struct PlayerEventEnvironmentTests {
    @Test func longValuesAreCutForTheEnvironmentAndWholeOnStdin() {
        let title = String(repeating: "é", count: 600_000)  // 1.2 MB: execve(2) refused it whole
        let event = PlayerEvent(name: "player", reason: .user, fields: [.init("title", title), .init("state", "play")])
        let environment = event.environment
        let cut = environment.first { $0.hasPrefix("PREVIEWD_TITLE=") }!
        #expect(cut.utf8.count - "PREVIEWD_TITLE=".utf8.count == 4096)
        #expect(cut == "PREVIEWD_TITLE=" + String(repeating: "é", count: 2048))
        #expect(environment.suffix(2) == ["PREVIEWD_STATE=play", "PREVIEWD_TRUNCATED=TITLE"])
        #expect(event.keyValueLines.contains("title=" + title + "\n"))
        // A cut never splits a scalar's bytes: 4,096 bytes of "aé…" hold 4,095.
        #expect(PlayerEvent.prefix("a" + String(repeating: "é", count: 3000), bytes: 4096).utf8.count == 4095)
    }
}
