import Testing
@testable import PreviewControl
@testable import PreviewCore

/// Numbers from outside: the checks where they enter, and conversions that
/// cannot trap where they are written.
@Suite struct CheckedNumbersTests {
    @Test func secondsAreFiniteAndInRange() {
        #expect(Seconds.parse("30") == 30)
        #expect(Seconds.parse("0.5") == 0.5)
        #expect(Seconds.parse("1000000000") == 1e9)
        for text in ["330e53", "inf", "-inf", "nan", "-1e400", "1e400", "99999999999999999999", "-1", "1000000000.5", "x", ""] {
            #expect(Seconds.parse(text) == nil, "\(text)")
        }
    }

    @Test func clampingNeverTraps() {
        #expect(Int(clamping: 2.5) == 3)
        #expect(Int(clamping: -2.5) == -3)
        #expect(Int(clamping: 2.9, rounding: .down) == 2)
        #expect(Int(clamping: 1e300) == .max)
        #expect(Int(clamping: .infinity) == .max)
        #expect(Int(clamping: -.infinity) == .min)
        #expect(Int(clamping: .nan) == 0)
        #expect(Int(clamping: 9.223372036854775807e18) == .max)
        #expect(Int(clamping: -9.223372036854775808e18) == .min)
        #expect(Int.max.clampedAdding(1) == .max)
        #expect(Int.min.clampedAdding(-1) == .min)
    }

    @Test func m3uRefusesDurationsNoSongCanHaveNamingTheLine() {
        for bad in ["330e53", "inf", "-1e400", "nan", "99999999999999999999"] {
            #expect(throws: M3U.ParseError(line: 3, reason: "duration out of range: \(bad)")) {
                try M3U.parse("#EXTM3U\n\n#EXTINF:\(bad),x\nhttp://127.0.0.1:1/y.mp3\n")
            }
        }
    }

    @Test func m3uKeepsWhatPlayersWrite() throws {
        let songs = try M3U.parse(
            "#EXTM3U\r\n#EXTINF:-1,A - B\r\nhttp://h/1\r\n#EXTINF:abc tvg-id=\"x\",C\nHTTPS://h/2\n#EXTINF:12.5,D\ndeezer:track:3\n")
        #expect(songs.map(\.uri) == ["http://h/1", "HTTPS://h/2", "deezer:track:3"])
        #expect(songs.map(\.duration) == [nil, nil, 12.5])
        #expect(songs.map(\.title) == ["B", "C", "D"])
        // What it writes, it reads back: a duration at the limit rounds to the limit.
        let edge = [Song(uri: "http://h/u", title: "t", duration: Seconds.maximum - 0.4)]
        #expect(try M3U.parse(M3U.format(edge)).first?.duration == Seconds.maximum)
    }

    @Test func m3uTakesOnlyWhatPreviewdPlays() {
        for (uri, shown) in [
            ("file:///etc/passwd", "file:///etc/passwd"), ("ftp://h/x.mp3", "ftp://h/x.mp3"),
            ("/home/u/x.mp3", "/home/u/x.mp3"),
            ("x" + String(repeating: "y", count: 100), "x" + String(repeating: "y", count: 79) + "…"),
        ] {
            #expect(throws: M3U.ParseError(line: 3, reason: "only http(s):// and deezer: URIs can be queued, not \"\(shown)\"")) {
                try M3U.parse("#EXTM3U\nhttp://h/ok.mp3\n\(uri)\n")
            }
        }
    }

    @Test func secondsFormattingOfAnyDoubleIsText() {
        #expect(formatSeconds(1.5) == "1.500")
        #expect(formatSeconds(.nan) == "0.000")
        #expect(formatSeconds(-3) == "0.000")
        #expect(formatSeconds(.infinity) == "9223372036854775.807")
        var reply = Reply()
        reply.field("duration", seconds: 1e300)
        #expect(String(decoding: reply.bytes, as: UTF8.self) == "duration: 9223372036854775.807\n")
    }

    @Test func previewctlReadsAnyReplyWithoutTrapping() {
        // Replies previewctl reads come from whatever answers on the socket.
        let status = [
            "state": "play", "song": "9223372036854775807", "playlistlength": "1",
            "elapsed": "1e300", "duration": "1e-300",
        ]
        let text = ControlFormat.status(status: status, song: ["Title": "t"])
        #expect(text.hasPrefix("t\n[playing] #9223372036854775807/1   153722867280912930:07/0:00 (9223372036854775807%)\n"))
        #expect(ControlFormat.progressBar(fraction: .nan, width: 4) == "[    ]")
        #expect(ControlFormat.clock(.infinity) == "153722867280912930:07")
        let v = StatusFormat.values(status: status, song: ["file": "f"])
        #expect(v["position"] == "9223372036854775807")
        #expect(v["percent"] == "9223372036854775807")
        #expect(ControlFormat.unixTime(iso: "99999999999999999-01-01T00:00:00Z") == nil)
        #expect(ControlFormat.unixTime(iso: "2026-12-02T00:00:00Z") == 1_796_169_600)
        #expect(ControlFormat.age(of: .min, now: 1_796_169_600) == "292471208677 years ago")
        #expect(ControlFormat.age(of: .max, now: 0) == "just now")
        #expect(ControlFormat.cropCommands(position: .max, length: 1) == [])
        #expect(ControlFormat.cropCommands(position: 1, length: 3) == ["delete 2:3", "delete 0:1"])
    }

    @Test func ackLinesInAnyOrderParse() {
        let lines = ["ACK ]{x}@[ odd"][...]
        guard case .ack(let code, let index, _, _, _)? = ResponseParser.parse(lines)?.0 else {
            Issue.record("not an ACK")
            return
        }
        #expect(code == 0 && index == 0)
        #expect(
            ResponseParser.parse(["ACK [50@0] {load} No such playlist"][...])?.0
                == .ack(code: 50, index: 0, command: "load", message: "No such playlist", fields: []))
    }

    @Test func songIdsStayWithinWhatClientsCanName() throws {
        var queue = Queue(restoring: [], nextID: Queue.maxID, version: 0)
        #expect(try queue.add(Song(uri: "u")) == Queue.maxID)
        #expect(throws: ProtocolError(.playlistMax, "No song ids left")) { try queue.add(Song(uri: "v")) }
        #expect(throws: ProtocolError(.playlistMax, "No song ids left")) { try queue.add(contentsOf: [Song(uri: "v")]) }
        var two = Queue(restoring: [], nextID: Queue.maxID - 1, version: 0)
        #expect(throws: ProtocolError(.playlistMax, "No song ids left")) {
            try two.add(contentsOf: [Song(uri: "a"), Song(uri: "b"), Song(uri: "c")])
        }
        #expect(try two.add(contentsOf: [Song(uri: "a"), Song(uri: "b")]) == [Queue.maxID - 1, Queue.maxID])
    }

    @Test func aBareAckEndsAReply() {
        #expect(ResponseParser.isAck("ACK"))
        #expect(!ResponseParser.isAck("ACKNOWLEDGED: 1"))
        #expect(ResponseParser.parse(["ACK"][...])?.1 == 1)
    }

    @Test func replyFieldsSplitAtTheFirstColonAndSpace() {
        #expect(ResponseParser.field("Title: Aerodynamic: Live"[...])! == ("Title", "Aerodynamic: Live"))
        #expect(ResponseParser.field("file: http://x/a.mp3"[...])! == ("file", "http://x/a.mp3"))
        #expect(ResponseParser.field("Artist: "[...])! == ("Artist", ""))
        #expect(ResponseParser.field("Album: Café Été"[...])! == ("Album", "Café Été"))
        #expect(ResponseParser.field("no separator"[...]) == nil)
        #expect(ResponseParser.field("time:12"[...]) == nil)
        #expect(ResponseParser.field("ends with a colon:"[...]) == nil)
        #expect(ResponseParser.fields(of: "a: 1\nnoise\nb: x: y\n").map { "\($0.0)=\($0.1)" } == ["a=1", "b=x: y"])
    }

    @Test func catalogTablesOfAnyWidth() {
        let records = CatalogRecord.split([("file", "deezer:track:1"), ("Title", "T"), ("Time", "99999999999999999999")])
        for width in [Int.max, Int.min, 0, 100_000_000] {
            let lines = CatalogFormat.table(records, width: width).split(separator: "\n")
            #expect(lines.count == 2)
            #expect(lines.allSatisfy { $0.count <= 1000 + 40 }, "\(width)")
        }
    }
}

@Suite struct QueueVersionArgumentTests {
    @Test func anyIntegerIsAVersionAsMPDReadsIt() throws {
        #expect(try Arguments.version("0") == 0)
        #expect(try Arguments.version("4294967295") == .max)
        #expect(try Arguments.version("-1") == .max)  // strtoul's wrap
        #expect(try Arguments.version("4294967296") == 0)  // the low 32 bits
        #expect(try Arguments.version("99999999999999999999") == .max)
        #expect(throws: ProtocolError(.argument, "Integer expected: abc")) { try Arguments.version("abc") }
    }
}
