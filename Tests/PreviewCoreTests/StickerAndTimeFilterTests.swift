import Testing
@testable import PreviewCore

/// The pure parts of issue 33's commands: `sticker`'s arguments, the time
/// and format filters, ISO 8601 times and MixRamp's numbers.
@Suite struct StickerAndTimeFilterTests {
    @Test func stickerSubcommandsParseWithTheirArguments() throws {
        #expect(try StickerRequest.parse(["get", "song", "deezer:track:1", "rating"]) == .get(uri: "deezer:track:1", name: "rating"))
        #expect(try StickerRequest.parse(["set", "song", "u", "rating", "5"]) == .set(uri: "u", name: "rating", value: "5"))
        #expect(try StickerRequest.parse(["inc", "song", "u", "plays", "2"]) == .add(uri: "u", name: "plays", delta: 2))
        #expect(try StickerRequest.parse(["dec", "song", "u", "plays", "3"]) == .add(uri: "u", name: "plays", delta: -3))
        #expect(try StickerRequest.parse(["delete", "song", "u"]) == .delete(uri: "u", name: nil))
        #expect(try StickerRequest.parse(["delete", "song", "u", "n"]) == .delete(uri: "u", name: "n"))
        #expect(try StickerRequest.parse(["list", "song", "u"]) == .list(uri: "u"))
        #expect(try StickerRequest.parse(["find", "song", "", "n"]) == .find(base: "", name: "n", comparison: nil))
        #expect(try StickerRequest.parse(["find", "song", "", "n", ">", "3"]) == .find(base: "", name: "n", comparison: .greaterThan("3")))
        #expect(try StickerRequest.parse(["find", "song", "", "n", "<", "3"]) == .find(base: "", name: "n", comparison: .lessThan("3")))
        #expect(try StickerRequest.parse(["find", "song", "", "n", "=", "3"]) == .find(base: "", name: "n", comparison: .equals("3")))
    }

    @Test func stickerErrorsUseMpdsWordsAndTheBounds() {
        #expect(throws: ProtocolError(.argument, "unknown sticker domain")) { try StickerRequest.parse(["get", "album", "x", "y"]) }
        #expect(throws: ProtocolError(.argument, "bad request")) { try StickerRequest.parse(["bogus", "song", "a"]) }
        #expect(throws: ProtocolError(.argument, "bad request")) { try StickerRequest.parse(["get", "song", "a"]) }
        #expect(throws: ProtocolError(.argument, "bad operator")) { try StickerRequest.parse(["find", "song", "", "n", "~", "3"]) }
        #expect(throws: ProtocolError(.argument, "Integer expected: x")) { try StickerRequest.parse(["inc", "song", "u", "n", "x"]) }
        #expect(throws: ProtocolError(.argument, "empty sticker name")) { try StickerRequest.parse(["inc", "song", "u", "", "1"]) }
        let long = String(repeating: "n", count: StickerRequest.maxNameBytes + 1)
        #expect(throws: ProtocolError(.argument, "sticker name too long (at most 255 bytes)")) {
            try StickerRequest.parse(["get", "song", "u", long])
        }
        let big = String(repeating: "v", count: StickerRequest.maxValueBytes + 1)
        #expect(throws: ProtocolError(.argument, "sticker value too long (at most 1024 bytes)")) {
            try StickerRequest.parse(["set", "song", "u", "n", big])
        }
        #expect(throws: ProtocolError(.argument, "control characters in the sticker value")) {
            try StickerRequest.parse(["set", "song", "u", "n", "a\u{1B}[2J"])
        }
        #expect(throws: Never.self) {
            try StickerRequest.parse(["set", "song", "u", "n", String(repeating: "v", count: StickerRequest.maxValueBytes)])
        }
    }

    @Test func iso8601TimesInTheFormsMpdReads() {
        #expect(ISO8601.unixSeconds("1970-01-01") == 0)
        #expect(ISO8601.unixSeconds("2020-01-01") == 1_577_836_800)
        #expect(ISO8601.unixSeconds("2020-01-01T00:00:00Z") == 1_577_836_800)
        #expect(ISO8601.unixSeconds("2026-11-30T04:00:00Z") == 1_796_011_200)
        #expect(ISO8601.unixSeconds("2020-01-01T01:30") == 1_577_836_800 + 5400)
        #expect(ISO8601.unixSeconds("2020-01-01T02:00:00+02:00") == 1_577_836_800)
        #expect(ISO8601.unixSeconds("2020-01-01T00:00:00-0130") == 1_577_836_800 + 5400)
        #expect(ISO8601.unixSeconds("1600-03-01") == -11_670_912_000)
        for bad in [
            "", "x", "2020", "2020-13-01", "2020-01-32", "2020-01-01T", "2020-01-01T24:00", "2020-01-01Zjunk",
            "20-01-01", "2020-01-01T00:00:00+",
        ] {
            #expect(ISO8601.unixSeconds(bad) == nil, "\(bad)")
        }
    }

    @Test func timeFiltersReadIsoAndUnixSecondsInBothForms() throws {
        #expect(try SongFilter.parse(["(modified-since '2020-01-01')"], foldCase: false) == .addedSince(1_577_836_800))
        #expect(try SongFilter.parse(["(added-since '1600000000')"], foldCase: false) == .addedSince(1_600_000_000))
        #expect(try SongFilter.parse(["modified-since", "1600000000"], foldCase: false) == .addedSince(1_600_000_000))
        #expect(throws: ProtocolError(.argument, "Failed to parse date")) {
            try SongFilter.parse(["(modified-since 'x')"], foldCase: false)
        }
        #expect(throws: ProtocolError(.argument, "Failed to parse date")) {
            try SongFilter.parse(["modified-since", "-5"], foldCase: false)
        }
    }

    @Test func aTimeFilterMatchesByTheLibrarysAddedTimeOnly() throws {
        let filter = try SongFilter.parse(["((added-since '1000') AND (artist == 'A'))"], foldCase: false)
        var song = Song(uri: "deezer:track:1", artist: "A")
        #expect(filter.needsLibrary)
        #expect(filter.matches(song, added: { _ in 1000 }))
        #expect(!filter.matches(song, added: { _ in 999 }))
        #expect(!filter.matches(song))
        song.artist = "B"
        #expect(!filter.matches(song, added: { _ in 2000 }))
        let negated = try SongFilter.parse(["(!(added-since '1000'))"], foldCase: false)
        #expect(!negated.needsLibrary)
        #expect(negated.matches(song))
        #expect(!negated.matches(song, added: { _ in 1000 }))
    }

    @Test func audioFormatFiltersAreCheckedAsMpdChecksThem() throws {
        #expect(try SongFilter.parse(["(AudioFormat == '44100:16:2')"], foldCase: false) == .audioFormat("44100:16:2"))
        #expect(try SongFilter.parse(["(audioformat =~ '*:f:*')"], foldCase: false) == .audioFormat("*:f:*"))
        let cases: [(String, String)] = [
            ("(AudioFormat == 'x')", "Failed to parse the sample rate"),
            ("(AudioFormat != '44100:16:2')", "'==' or '=~' expected"),
            ("(AudioFormat == '44100:*:2')", "Failed to parse the sample format"),
            ("(AudioFormat =~ '44100:16')", "Channel count missing"),
            ("(AudioFormat == '44100')", "Sample format missing"),
            ("(AudioFormat == '0:16:2')", "Invalid sample rate: 0"),
            ("(AudioFormat == '44100:16:9')", "Invalid channel count: 9"),
            ("(AudioFormat == '44100:16:x')", "Failed to parse the channel count"),
            ("(bogus == 'x')", "Unknown filter type: bogus"),
        ]
        for (text, message) in cases {
            #expect(throws: ProtocolError(.argument, message), "\(text)") { try SongFilter.parse([text], foldCase: false) }
        }
        #expect(!SongFilter.audioFormat("*:*:*").matches(Song(uri: "deezer:track:1")))
    }

    @Test func mixRampNumbersPrintAsMpdPrintsFloats() throws {
        #expect(MixRamp.format(-17) == "-17")
        #expect(MixRamp.format(1.5) == "1.5")
        #expect(MixRamp.format(1.25) == "1.25")
        #expect(MixRamp.format(try MixRamp.parse("1e3")) == "1000")
        #expect(MixRamp.format(try MixRamp.parse("inf")) == "inf")
        #expect(!MixRamp().delayIsOn)
        #expect(throws: ProtocolError(.argument, "Float expected: x")) { try MixRamp.parse("x") }
    }
}
