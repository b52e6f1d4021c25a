import PreviewControl
import Testing

/// `previewctl watch`'s `--format` over an `events` record.
@Suite struct WatchFormatTests {
    @Test func watchValuesFromARecord() {
        let v = StatusFormat.values(event: [
            "event": "player", "reason": "eof", "state": "play", "file": "f",
            "position": "2", "elapsed": "15.000", "duration": "30.000",
        ])
        #expect(
            StatusFormat.render("%event% %reason% %state% %position% %elapsed%/%duration% %percent%%", v)
                == "player eof playing 2 0:15/0:30 50%")
    }
}
