import Testing
@testable import PreviewCore

/// Issue 42: CR LF in a catalog title wrote a line into a stored playlist,
/// a hook's standard input and the `events` stream. Each form of line break,
/// in each format.
@Suite struct CatalogTextTests {
    /// Every line break a catalog string can carry, as JSON writes it.
    static let escapedBreaks = [
        #"\n"#, #"\r"#, #"\r\n"#, #"\f"#, #"\u000b"#, #"\u000D\u000A"#, #"\u0085"#, #"\u2028"#,
        #"\u2029"#, "\u{2028}", "\u{2029}", "\u{85}", #"\u001c"#, #"\u001D"#, #"\u001e"#,
        #"\u0000"#,
    ]

    func normalized(_ json: String) -> String { String(decoding: CatalogText.normalizeJSON(Array(json.utf8)), as: UTF8.self) }

    @Test(arguments: escapedBreaks) func everyLineBreakInAStringIsOneSpace(_ form: String) {
        #expect(
            normalized(#"{"title":"Evil"# + form + #"http://x/injected.mp3","n":1}"#)
                == #"{"title":"Evil http://x/injected.mp3","n":1}"#)
    }

    @Test func outsideStringsAndOtherEscapesStayAsTheyAre() {
        let json = "{\n  \"a\" : \"q\\\"\\\\n\\t\\u00e9\\ud83d\\ude00\",\r\n \"b\":[1,2]}"
        #expect(normalized(json) == json)
    }

    @Test func aLongStringIsCutWhereACharacterEnds() {
        let long = String(repeating: "a", count: 1023) + "é" + "tail"  // é's 2 bytes would pass 1024
        #expect(normalized(#"["\#(long)","x"]"#) == #"["\#(String(repeating: "a", count: 1023))","x"]"#)
        let pairs = String(repeating: #"\ud83d\ude00"#, count: 300)  // 4 bytes each once decoded
        #expect(normalized(#"["\#(pairs)"]"#) == #"["\#(String(repeating: #"\ud83d\ude00"#, count: 256))"]"#)
        let exact = String(repeating: "b", count: 1024)
        #expect(normalized(#"["\#(exact)"]"#) == #"["\#(exact)"]"#)
    }

    @Test func notJSONStaysNotJSON() {
        #expect(normalized(#"{"a":"\x"}"#) == #"{"a":"\x"}"#)
        #expect(normalized(#"{"a":"open"#) == #"{"a":"open"#)
    }

    @Test(arguments: [
        "\n", "\r", "\r\n", "\u{0B}", "\u{0C}", "\u{85}", "\u{2028}", "\u{2029}", "\u{1C}", "\u{1D}", "\u{1E}",
        "\u{0}",
    ])
    func oneLineTurnsEachFormIntoASpace(_ form: String) {
        #expect(CatalogText.oneLine("Evil" + form + "PREVIEWD_STATE=hacked") == "Evil PREVIEWD_STATE=hacked")
    }

    @Test(arguments: ["\n", "\r\n", "\u{2028}"]) func aStoredPlaylistKeepsOneLinePerField(_ form: String) throws {
        let song = Song(
            uri: "deezer:track:1", title: "Evil" + form + "http://x/injected.mp3", artist: "A" + form + "B",
            album: "C" + form + "D")
        let text = M3U.format([song])
        #expect(text == "#EXTM3U\n#EXTINF:-1,A B - Evil http://x/injected.mp3\n#EXTALB:C D\ndeezer:track:1\n")
        #expect(try M3U.parse(text).map(\.uri) == ["deezer:track:1"])
    }

    @Test(arguments: ["\r\n", "\u{2028}", "\r"]) func hookAndEventsRecordsKeepOneLinePerField(_ form: String) {
        let event = PlayerEvent(
            name: "player", reason: .user,
            fields: [.init("title", "Evil" + form + "file: forged"), .init("state", "play")])
        #expect(event.protocolLines == "event: player\nreason: user\ntitle: Evil file: forged\nstate: play\n")
        #expect(event.keyValueLines == "event=player\nreason=user\ntitle=Evil file: forged\nstate=play\n")
        #expect(event.environment.contains("PREVIEWD_TITLE=Evil file: forged"))
    }
}
