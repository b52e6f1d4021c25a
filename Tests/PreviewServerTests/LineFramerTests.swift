import PreviewCore
@testable import PreviewServer
import Testing

/// Request lines cut from the bytes as they arrive (`LineFramer`).
@Suite struct LineFramerTests {
    private func lines(_ chunks: [[UInt8]]) -> [String] {
        var framer = LineFramer()
        var out: [String] = []
        for chunk in chunks {
            chunk.withUnsafeBytes { framer.append($0) }
            while let next = framer.next() {
                switch next {
                case .success(let line): out.append(line)
                case .failure(let error): out.append("ACK " + error.message)
                }
            }
            framer.compact()
        }
        return out
    }

    @Test func aLineSplitAcrossReadsIsWhole() {
        #expect(lines([Array("sta".utf8), Array("tus\nping\npla".utf8), Array("y 3\n".utf8)]) == ["status", "ping", "play 3"])
        #expect(lines([Array("status".utf8)]) == [])
    }

    @Test func anOverLongLineIsRefusedAndTheNextOneRead() {
        let long = [UInt8](repeating: 0x61, count: LineFramer.maxLineBytes + 1)
        // Its start arrives before its end, in reads too long to keep.
        let chunks = [long, Array("more\nping\n".utf8)]
        #expect(lines(chunks) == ["ACK " + LineFramer.tooLong.message, "ping"])
        let exact = [UInt8](repeating: 0x61, count: LineFramer.maxLineBytes) + [0x0A]
        #expect(lines([exact]) == [String(repeating: "a", count: LineFramer.maxLineBytes)])
    }

    @Test func aLineThatIsNotUTF8IsRefused() {
        #expect(
            lines([[0x70, 0xFF, 0x0A] + Array("find title \"été\"\n".utf8)])
                == ["ACK " + LineFramer.invalidUTF8.message, "find title \"été\""])
    }
}
