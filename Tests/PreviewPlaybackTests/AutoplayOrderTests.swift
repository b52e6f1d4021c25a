import PreviewCore
import PreviewTestSupport
import Testing
@testable import PreviewPlayback

/// Autoplay chooses the same songs whatever order the catalog's answers
/// arrive in: its reads run at once, and a busy machine reorders them.
@Suite struct AutoplayOrderTests {
    /// The songs played from deezer:track:3135556 on, autoplay choosing all
    /// but the first (it takes each played song out of the queue), every
    /// held answer delivered last-asked first when `reversed`.
    func autoplayed(songs: Int, reversed: Bool) -> [String] {
        let h = Harness()
        // No /artist/ID/top was recorded for Daft Punk's related artists
        // (artist-27-related.json: 103, then 295821). Two other recorded
        // pages of tracks, in the same {data, total} shape, stand in, so
        // that the two related lists hold different songs.
        h.bodies["/artist/103/top"] = Fixtures.read("fixtures/deezer/chart-0-tracks.json")
        h.bodies["/artist/295821/top"] = Fixtures.read("fixtures/deezer/playlist-9200461-tracks.json")
        h.holdAnswers = true
        let c = h.connect()
        func deliver() {
            while !h.held.isEmpty {
                let answers = reversed ? h.held.reversed() : h.held
                h.held = []
                for answer in answers { answer() }
                h.settle()
            }
        }
        _ = h.send(c, "add deezer:track:3135556\n")
        deliver()
        _ = h.send(c, "autoplay 1\n")
        _ = h.send(c, "play\n")
        deliver()
        var played: [String] = []
        for _ in 0..<songs {
            played += h.send(c, "currentsong\n").split(separator: "\n").filter { $0.hasPrefix("file: ") }.map(String.init)
            _ = h.send(c, "next\n")
            deliver()
        }
        return played
    }

    @Test func theAnswersOrderChangesNoSong() {
        let inOrder = autoplayed(songs: 8, reversed: false)
        #expect(inOrder.count == 8 && Set(inOrder).count == 8, "\(inOrder)")
        #expect(autoplayed(songs: 8, reversed: true) == inOrder)
    }
}
