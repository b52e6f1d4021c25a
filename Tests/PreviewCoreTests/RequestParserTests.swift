import Testing
@testable import PreviewCore

@Suite struct RequestParserTests {
    @Test func bareWords() throws {
        #expect(try RequestParser.parse("play 3") == ["play", "3"])
        #expect(try RequestParser.parse("  status\t ") == ["status"])
        #expect(try RequestParser.parse("") == [])
        #expect(try RequestParser.parse("ping\r") == ["ping"])
    }

    @Test func quotedWithEscapes() throws {
        #expect(try RequestParser.parse(#"add "a b\"c\\d""#) == ["add", #"a b"c\d"#])
        #expect(try RequestParser.parse(#"add """#) == ["add", ""])
    }

    @Test func errorsUseMPDCodesAndTexts() {
        #expect(throws: ProtocolError(.unknown, "Missing closing '\"'")) { try RequestParser.parse(#"add "abc"#) }
        #expect(throws: ProtocolError(.unknown, "Invalid unquoted character")) { try RequestParser.parse(#"add abc""#) }
        #expect(throws: ProtocolError(.unknown, "Space expected after closing '\"'")) { try RequestParser.parse(#"add "a"b"#) }
    }

    @Test func quoteRoundTrips() throws {
        let tricky = #"x "y" \z"#
        #expect(try RequestParser.parse("add " + RequestParser.quote(tricky)) == ["add", tricky])
    }

    @Test func ackLine() {
        #expect(ProtocolError(.argument, "Bad song index").ackLine(index: 2, command: "play") == "ACK [2@2] {play} Bad song index\n")
    }
}

@Suite struct ArgumentsTests {
    @Test func ranges() throws {
        #expect(try Arguments.range("3") == 3..<4)
        #expect(try Arguments.range("1:4") == 1..<4)
        #expect(try Arguments.range("2:") == 2..<Int.max)
        #expect(throws: Arguments.RangeError.endBeforeStart) { try Arguments.range("4:1") }
        #expect(throws: Arguments.RangeError.bound(.notInteger("x"))) { try Arguments.range("x") }
    }

    /// Each failure names the bound that failed, not the whole argument.
    @Test func rangeFailureKinds() {
        #expect(throws: Arguments.RangeError.bound(.notInteger("a"))) { try Arguments.range("a:3") }
        #expect(throws: Arguments.RangeError.bound(.notInteger("b"))) { try Arguments.range("1:b") }
        #expect(throws: Arguments.RangeError.bound(.notInteger(""))) { try Arguments.range(":3") }
        #expect(throws: Arguments.RangeError.bound(.negative("-1"))) { try Arguments.range("-1") }
        #expect(throws: Arguments.RangeError.bound(.tooLarge("3000000000"))) { try Arguments.range("1:3000000000") }
        #expect(throws: Arguments.RangeError.bound(.tooLarge("-99999999999"))) { try Arguments.range("-99999999999") }
    }

    /// The ACKs the kinds stand for: the texts `unsigned` has always sent.
    @Test func rangeFailureACKs() {
        #expect(Arguments.RangeError.endBeforeStart.protocolError == ProtocolError(.argument, "Bad range"))
        #expect(Arguments.RangeError.bound(.notInteger("x")).protocolError == ProtocolError(.argument, "Integer expected: x"))
        #expect(Arguments.RangeError.bound(.tooLarge("9")).protocolError == ProtocolError(.argument, "Number too large: 9"))
        #expect(Arguments.RangeError.bound(.negative("-1")).protocolError == ProtocolError(.argument, "Number too small: -1"))
        #expect(throws: ProtocolError(.argument, "Number too small: -1")) { try Arguments.unsigned("-1") }
        #expect(throws: ProtocolError(.argument, "Integer expected: 1.5")) { try Arguments.integer("1.5") }
    }

    @Test func positions() throws {
        #expect(try Arguments.position("+0") == .afterCurrent(0))
        #expect(try Arguments.position("-2") == .beforeCurrent(2))
        #expect(try Arguments.position("5") == .absolute(5))
    }

    @Test func booleans() throws {
        #expect(try Arguments.boolean("1"))
        #expect(throws: ProtocolError(.argument, "Boolean (0/1) expected: 2")) { try Arguments.boolean("2") }
    }

    @Test func secondsFormatting() {
        #expect(formatSeconds(30.0408) == "30.041")
        #expect(formatSeconds(0) == "0.000")
        #expect(formatSeconds(1.005) == "1.005")
    }

    @Test(arguments: [0, 0.0004, 1.005, 9.9995, 29.99, 30.0408, 12345.678, -3])
    func replySecondsAgreeWithFormatSeconds(seconds: Double) {
        var reply = Reply()
        reply.field("duration", seconds: seconds)
        #expect(reply.text == "duration: \(formatSeconds(seconds))\n")
    }

    @Test func replyFields() {
        var reply = Reply()
        reply.field("Title", "two\nlines\r")
        reply.field("Pos", 0)
        reply.field("Id", -42)
        reply.field("big", Int.max)
        #expect(reply.text == "Title: two lines \nPos: 0\nId: -42\nbig: 9223372036854775807\n")
    }
}

@Suite struct ResponseParserTests {
    @Test func okWithFields() {
        let (reply, used) = ResponseParser.parse(["volume: 5", "state: play", "OK", "extra"][...])!
        #expect(used == 3)
        #expect(reply == .ok([("volume", "5"), ("state", "play")]))
    }

    @Test func ack() {
        let (reply, _) = ResponseParser.parse(["ACK [50@1] {add} deezer:track:-1: no data"][...])!
        #expect(reply == .ack(code: 50, index: 1, command: "add", message: "deezer:track:-1: no data", fields: []))
    }

    @Test func incomplete() {
        #expect(ResponseParser.parse(["volume: 5"][...]) == nil)
    }
}

@Suite struct SubsystemTests {
    @Test func namesAndOrder() throws {
        #expect(try Subsystems(name: "PLAYER") == .player)
        #expect(throws: ProtocolError(.argument, "Unrecognized idle event: nope")) { try Subsystems(name: "nope") }
        #expect(Subsystems([.player, .playlist]).changedLines == "changed: playlist\nchanged: player\n")
    }
}

@Suite struct SocketPathTests {
    @Test func precedence() {
        let env = ["PREVIEWD_SOCKET": "/s", "XDG_RUNTIME_DIR": "/run/user/7"]
        #expect(SocketPath.resolve(explicit: "/x", environment: { env[$0] }, uid: 7) == "/x")
        #expect(SocketPath.resolve(explicit: nil, environment: { env[$0] }, uid: 7) == "/s")
        #expect(
            SocketPath.resolve(explicit: nil, environment: { $0 == "XDG_RUNTIME_DIR" ? "/run/user/7" : nil }, uid: 7)
                == "/run/user/7/previewd/socket")
        #expect(SocketPath.resolve(explicit: nil, environment: { _ in nil }, uid: 7) == "/tmp/previewd-7/socket")
    }
}

@Suite struct ArgumentLimitTests {
    @Test func hugeNumbersAreRefusedNotTrapped() {
        #expect(throws: Arguments.RangeError.bound(.tooLarge("9223372036854775807"))) { try Arguments.range("9223372036854775807") }
        #expect(throws: ProtocolError(.argument, "Number too large: 99999999999999999999999")) {
            try Arguments.unsigned("99999999999999999999999")
        }
        #expect(throws: ProtocolError(.argument, "Number too large: 3000000000")) { try Arguments.position("+3000000000") }
        #expect(throws: ProtocolError(.argument, "Number too large: -9223372036854775808")) {
            try Arguments.integer("-9223372036854775808")
        }
        #expect(throws: ProtocolError(.argument, "Number too large: -9223372036854775809")) {
            try Arguments.integer("-9223372036854775809")
        }
    }
}

@Suite struct TextEncodingTests {
    @Test func replaceAndPercentEncode() {
        #expect("a--b--c".replacingAll("--", with: "+") == "a+b+c")
        #expect("x\"y".replacingAll("\"", with: " ") == "x y")
        #expect(percentEncodeQueryValue("Not Afraid artist:\"é\"") == "Not%20Afraid%20artist%3A%22%C3%A9%22")
    }
}
