import PreviewCore
import Testing

@Suite struct LineWriterTests {
    /// Values of every length up to three words, with a line break at each
    /// place: the word-at-a-time check must find every one of them.
    @Test(arguments: 0..<25)
    func lineBreaksBecomeSpacesAtEveryOffset(length: Int) {
        let plain = String(repeating: "a", count: length)
        var reply = Reply()
        reply.field("K", plain)
        #expect(reply.text == "K: \(plain)\n")
        for at in 0..<length {
            for brk in ["\n", "\r"] {
                var chars = Array(plain)
                chars[at] = Character(brk)
                var r = Reply()
                r.field("K", String(chars))
                chars[at] = " "
                #expect(r.text == "K: \(String(chars))\n", "break at \(at) of \(length)")
            }
        }
    }

    /// Bytes below 0x0E that are not line breaks (tab, 0x01) stay as they are.
    @Test func otherControlBytesStay() {
        var reply = Reply()
        reply.field("K", "a\tb\u{01}cdefghij\u{0B}")
        #expect(reply.text == "K: a\tb\u{01}cdefghij\u{0B}\n")
    }

    /// Too little room given: the lines are written again with more.
    @Test func linesGrowWhenTheGuessIsShort() {
        var reply = Reply()
        reply.field("Pos", 1)
        reply.lines(capacity: 1) { w in
            w.field("Title", String(repeating: "t", count: 5000))
            w.field("Id", 7)
        }
        #expect(reply.text == "Pos: 1\nTitle: " + String(repeating: "t", count: 5000) + "\nId: 7\n")
    }

    /// A writer out of room writes nothing more; rewound, it writes again.
    @Test func overflowStopsAndRewindResumes() {
        var reply = Reply()
        reply.lines(capacity: 20) { w in
            w.field("A", "1234")  // 8 bytes
            let mark = w.position
            w.field("Title", "much too long for what is left")
            #expect(w.overflowed)
            w.rewind(to: mark)
            #expect(!w.overflowed)
            w.field("B", 5)
        }
        #expect(reply.text == "A: 1234\nB: 5\n")
    }
}
