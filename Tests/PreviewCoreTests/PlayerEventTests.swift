import Testing
@testable import PreviewCore

@Suite struct PlayerEventTests {
    let event = PlayerEvent(name: "player", reason: .urlRefreshed,
                            fields: [.init("state", "play"), .init("title", "Two\nLines")])

    @Test func protocolLinesStartWithEventAndReason() {
        #expect(event.protocolLines == "event: player\nreason: url-refreshed\nstate: play\ntitle: Two Lines\n")
    }

    @Test func hooksGetKeyValueLinesAndEnvironment() {
        #expect(event.keyValueLines == "event=player\nreason=url-refreshed\nstate=play\ntitle=Two Lines\n")
        #expect(event.environment == ["PREVIEWD_EVENT=player", "PREVIEWD_REASON=url-refreshed",
                                      "PREVIEWD_STATE=play", "PREVIEWD_TITLE=Two Lines"])
    }

    @Test func watchValuesFromARecord() {
        let v = StatusFormat.values(event: ["event": "player", "reason": "eof", "state": "play", "file": "f",
                                            "position": "2", "elapsed": "15.000", "duration": "30.000"])
        #expect(StatusFormat.render("%event% %reason% %state% %position% %elapsed%/%duration% %percent%%", v)
                == "player eof playing 2 0:15/0:30 50%")
    }
}
