import PreviewCore
@testable import PreviewServer
import PreviewTestSupport
import Testing

/// `playlistinfo` of a long queue is formatted chunk by chunk as the
/// socket takes it (`SongListing`, `ReplyOutput`).
@Suite struct SongListingTests {
    /// A queue of `n` direct URLs, added in one command list.
    private func queue(_ h: Harness, _ c: ClientSession, _ n: Int) {
        let adds = (0..<n).map { "add \"http://cdn.test/song-\($0).mp3\"\n" }.joined()
        #expect(h.send(c, "command_list_begin\n" + adds + "command_list_end\n") == "OK\n")
    }

    /// What the listing must be: each song as `playlistinfo` formats one.
    private func expected(_ positions: Range<Int>) -> String {
        positions.map { "file: http://cdn.test/song-\($0).mp3\nPos: \($0)\nId: \($0 + 1)\n" }.joined()
    }

    @Test func aLongListingIsWholeAndInOrderWithWhatFollows() {
        let h = Harness()
        let c = h.connect()
        queue(h, c, 5000)  // about 230 KB: two chunks and more
        let bytes = Array("playlistinfo\nping\nplaylistinfo 2:4\n".utf8)
        bytes.withUnsafeBytes { c.receive($0) }
        // Only a chunk is formatted at a time.
        #expect(c.pendingOutput.count <= SongListing.chunkBytes + 1024)
        #expect(c.hasMoreOutput)
        #expect(h.take(c) == expected(0..<5000) + "OK\nOK\n" + expected(2..<4) + "OK\n")
        #expect(!c.hasMoreOutput)
    }

    @Test func anEditWhileListingLeavesTheListingAsTheCommandSawIt() {
        let h = Harness()
        let c = h.connect()
        queue(h, c, 4000)
        var first: [UInt8] = []
        let bytes = Array("playlistinfo\n".utf8)
        bytes.withUnsafeBytes { c.receive($0) }
        first += c.pendingOutput
        c.consumeOutput(c.pendingOutput.count)
        // The client reads on while another command clears the queue.
        let other = h.connect()
        #expect(h.send(other, "clear\n") == "OK\n")
        #expect(String(decoding: first, as: UTF8.self) + h.take(c) == expected(0..<4000) + "OK\n")
        #expect(h.send(c, "playlistinfo\n") == "OK\n")
    }

    @Test func aSongLongerThanAChunkIsListedWhole() {
        let h = Harness()
        let c = h.connect()
        queue(h, c, 3)
        let value = String(repeating: "v", count: 60_000)
        // Added values hold at most 64 KiB; the song's own tags fill the rest.
        for tag in ["Comment", "Title", "Artist"] {
            #expect(h.send(c, "cleartagid 2 \(tag)\n") == "OK\n")
            #expect(h.send(c, "addtagid 2 \(tag) \(value)\n") == "OK\n")
        }
        let one = h.send(c, "playlistid 2\n")
        let big = String(one.dropLast("OK\n".count))
        #expect(big.utf8.count > SongListing.chunkBytes)
        #expect(big.hasPrefix("file: http://cdn.test/song-1.mp3\n") && big.hasSuffix("Pos: 1\nId: 2\n"))
        #expect(h.send(c, "playlistinfo\n") == expected(0..<1) + big + expected(2..<3) + "OK\n")
    }
}
