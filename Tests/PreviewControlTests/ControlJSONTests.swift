@testable import PreviewControl
import PreviewCore
import Testing

/// previewctl's JSON: numbers in JSON's syntax only, and the documents' shapes.
@Suite struct ControlJSONTests {
    @Test func onlyJSONNumbersBecomeNumbers() {
        #expect(ControlJSON.number("30.000") == .number("30.000"))
        #expect(ControlJSON.number("-5") == .number("-5"))
        for text in ["inf", "nan", "0x10", "1.", ".5", "", "12abc", "+3"] {
            #expect(ControlJSON.number(text) == nil, "\(text)")
        }
    }

    @Test func statusOfAStoppedPlayer() {
        let text = ControlJSON.status(
            status: [
                "state": "stop", "volume": "40", "repeat": "1", "random": "0",
                "single": "oneshot", "consume": "0", "playlistlength": "3",
            ], song: [:])
        #expect(
            text == """
                {"state":"stop","volume":40,"repeat":true,"random":false,"single":"oneshot","consume":false,\
                "autoplay":false,"crossfade":0,"length":3,"song":null,"error":null}

                """)
    }

    @Test func queueAndSavedAndPlaylists() {
        let songs = [["file": "deezer:track:1", "Title": "A \"quoted\" title", "duration": "30.000", "Id": "7"]]
        #expect(
            ControlJSON.queue(songs, current: 0) == """
                {"songs":[{"position":1,"id":7,"uri":"deezer:track:1","title":"A \\"quoted\\" title","duration":30.000,"current":true}]}

                """)
        let record = CatalogRecord.split([("album", "deezer:album:2"), ("Title", "B"), ("added", "2026-01-01T00:00:00Z")])
        #expect(
            ControlJSON.saved(record) == """
                {"items":[{"kind":"album","uri":"deezer:album:2","title":"B","added":"2026-01-01T00:00:00Z"}]}

                """)
        #expect(
            ControlJSON.playlists([("playlist", "x"), ("Last-Modified", "2026-01-01T00:00:00Z")])
                == "{\"playlists\":[{\"name\":\"x\",\"modified\":\"2026-01-01T00:00:00Z\"}]}\n")
    }

    @Test func theFlagIsTakenOnlyFromListingCommands() {
        #expect(ControlJSON.takeFlag(["status", "--json"]) == (["status"], true))
        #expect(ControlJSON.takeFlag(["want", "--json"]) == (["want"], true))
        #expect(ControlJSON.takeFlag(["search", "x", "--json"]) == (["search", "x", "--json"], false))
        #expect(ControlJSON.takeFlag(["next"]) == (["next"], false))
    }
}

/// Control characters from data never reach previewctl's output raw.
@Suite struct TerminalSafeTests {
    @Test func c0DelAndC1AreDroppedAndTheTextAroundThemStays() {
        let hostile = "A\u{1B}]0;pwned\u{07}B\u{1B}[2JC\u{9B}2JD\u{7F}E\u{0}F\r\u{85}G"
        #expect(TerminalSafe.text(hostile) == "A]0;pwnedB[2JC2JDEFG")
        #expect(TerminalSafe.text("tab\there\nnext") == "tab\there\nnext")
        // Non-controls whose UTF-8 starts as C1's does (U+00A0 ... U+00BF) stay.
        #expect(TerminalSafe.text("caf\u{E9} \u{A0}\u{BF} Beyonc\u{E9}") == "caf\u{E9} \u{A0}\u{BF} Beyonc\u{E9}")
    }

    /// Issue 42: U+202E in a title showed "evil\u{202E}3pm.exe" as "evilexe.mp3".
    @Test(arguments: [
        0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069, 0x200E, 0x200F, 0x061C,
        0x200B, 0x2060, 0x2064, 0xFEFF, 0x180E, 0xE0041, 0xE0042, 0x3164, 0x115F, 0x00AD, 0x034F, 0x17B4,
    ])
    func bidiControlsAndInvisibleCharactersAreDropped(_ value: Int) {
        let u = String(Unicode.Scalar(UInt32(value))!)
        #expect(TerminalSafe.text("evil" + u + "3pm.exe") == "evil3pm.exe")
    }

    @Test func joinersAndOtherTextStay() {
        let text =
            "\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467} \u{645}\u{6CC}\u{200C}\u{62E}\u{648}\u{627}\u{647}\u{645} \u{2014} \u{2019}\u{2026} \u{E1}"
        #expect(TerminalSafe.text(text) == text)
    }

    @Test func jsonEscapesEveryControlCharacter() {
        #expect(
            CatalogFormat.jsonString("a\u{1B}[2J\u{07}\u{7F}\u{9B}\u{85}b\u{A0}")
                == "\"a\\u001b[2J\\u0007\\u007f\\u009b\\u0085b\u{A0}\"")
    }
}
