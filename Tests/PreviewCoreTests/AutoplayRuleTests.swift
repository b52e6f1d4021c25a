import Foundation
import Testing
@testable import PreviewCore

@Suite struct AutoplayRuleTests {
    func candidate(_ n: Int, artist: String = "a", unplayable: Bool = false) -> AutoplayRule.Candidate {
        var song = Song(uri: "deezer:track:\(n)", title: "T\(n)", artist: artist)
        if unplayable { song.unplayable = "deezer:track:\(n) has no preview" }
        return AutoplayRule.Candidate(song: song, artist: artist, weight: 0, like: "Seed")
    }

    @Test func mergeWeighsBySeedAndSourceAndAddsUpRepeats() {
        var pool: [AutoplayRule.Candidate] = []
        AutoplayRule.merge([candidate(1), candidate(2)], seed: 0, source: .radio, into: &pool)
        AutoplayRule.merge([candidate(2), candidate(3)], seed: 1, source: .genre, into: &pool)
        #expect(pool.map(\.song.uri) == ["deezer:track:1", "deezer:track:2", "deezer:track:3"])
        // 5 x 1.0; 5 x 1.0 + 4 x 0.3; 4 x 0.3.
        #expect(pool.map(\.weight) == [5.0, 5.0 + 4 * 0.3, 4 * 0.3])
        // A seed past the weights' end counts as the last.
        AutoplayRule.merge([candidate(4)], seed: 9, source: .top, into: &pool)
        #expect(pool.last?.weight == 1 * 0.8)
    }

    @Test func thePoolKeepsTheHeaviestUpToItsBound() {
        var pool: [AutoplayRule.Candidate] = []
        AutoplayRule.merge((0..<AutoplayRule.maxPool).map { candidate($0) }, seed: 4, source: .genre, into: &pool)
        AutoplayRule.merge([candidate(5000), candidate(5001)], seed: 0, source: .radio, into: &pool)
        #expect(pool.count == AutoplayRule.maxPool)
        // The two heavy ones stay, at the end; the lightest last ones went.
        #expect(pool.suffix(2).map(\.song.uri) == ["deezer:track:5000", "deezer:track:5001"])
        #expect(pool.first?.song.uri == "deezer:track:0" && !pool.contains { $0.song.uri == "deezer:track:999" })
    }

    @Test func pickSkipsHeardQueuedAndUnplayableForGood() {
        var pool: [AutoplayRule.Candidate] = []
        AutoplayRule.merge(
            [candidate(1), candidate(2), candidate(3, unplayable: true), candidate(4, artist: "b")],
            seed: 0, source: .radio, into: &pool)
        var rng = SplitMix64(seed: 7)
        let (picks, rest) = AutoplayRule.pick(
            5, from: pool, heard: PlayHistory(uris: ["deezer:track:1"]),
            queued: ["deezer:track:2"], tail: [], using: &rng)
        #expect(picks.map(\.song.uri) == ["deezer:track:4"])
        #expect(rest.isEmpty)
    }

    @Test func noArtistAThirdTimeInARow() {
        var pool: [AutoplayRule.Candidate] = []
        AutoplayRule.merge(
            (1...6).map { candidate($0, artist: "a") } + [candidate(7, artist: "b")],
            seed: 0, source: .radio, into: &pool)
        var rng = SplitMix64(seed: 1)
        // After "a", "a" only "b" may come; then two "a", and no more.
        let (picks, rest) = AutoplayRule.pick(6, from: pool, heard: PlayHistory(), queued: [], tail: ["a", "a"], using: &rng)
        #expect(picks.map(\.artist) == ["b", "a", "a"])
        #expect(rest.count == 4 && rest.allSatisfy { $0.artist == "a" })
        #expect(AutoplayRule.wouldRun("a", after: ["b", "a", "a"]))
        #expect(!AutoplayRule.wouldRun("a", after: ["a", "b", "a"]))
        #expect(!AutoplayRule.wouldRun("a", after: ["a"]))
    }

    @Test func heavierSongsComeFirstMoreOften() {
        var firsts = [String: Int]()
        var rng = SplitMix64(seed: 3)
        var pool: [AutoplayRule.Candidate] = []
        AutoplayRule.merge([candidate(1, artist: "a")], seed: 0, source: .radio, into: &pool)  // 5.0
        AutoplayRule.merge([candidate(2, artist: "b")], seed: 4, source: .genre, into: &pool)  // 0.3
        for _ in 0..<2000 {
            let (picks, _) = AutoplayRule.pick(1, from: pool, heard: PlayHistory(), queued: [], tail: [], using: &rng)
            firsts[picks[0].song.uri, default: 0] += 1
        }
        // P(first) = 5 / 5.3 ≈ 0.94 for a weighted draw.
        let heavy = Double(firsts["deezer:track:1", default: 0]) / 2000
        #expect(heavy > 0.9 && heavy < 0.98, "\(heavy)")
    }

    @Test func taggedSaysWhatItIsLikeAndIsKnownAgain() {
        var c = candidate(1)
        c.like = "Joyland"
        let song = AutoplayRule.tagged(c)
        #expect(song.addedTags == [TagValue(name: "Comment", value: "autoplay: like \"Joyland\"")])
        #expect(AutoplayRule.added(song))
        #expect(!AutoplayRule.added(c.song))
    }

    @Test func anAutoplayedSongLeavesTheQueueOncePlayed() throws {
        var q = Queue()
        try q.add(Song(uri: "deezer:track:1"))
        try q.add(AutoplayRule.tagged(candidate(2)))
        try q.add(AutoplayRule.tagged(candidate(3)))
        var p = Player(seed: 1)
        _ = try p.play(position: 0, in: q)
        #expect(p.songFinished(in: q) == [.start(2)])  // the user's own song stays
        #expect(p.songFinished(in: q) == [.remove(2), .start(3)])
    }

    @Test func inRandomOrderTheSongThatLeftIsNotNextAgain() throws {
        var q = Queue()
        try q.add(Song(uri: "deezer:track:1"))
        try q.add(AutoplayRule.tagged(candidate(2)))
        var p = Player(seed: 1)
        p.setRandom(true, in: q)
        _ = try p.play(id: 2, in: q)
        let effects = p.songFinished(in: q)
        #expect(effects.first == .remove(2))
        #expect(!p.randomOrder.contains(2))
    }

    @Test func withSingleOnTheSongThatLeftIsNotCurrent() throws {
        var q = Queue()
        try q.add(Song(uri: "deezer:track:1"))
        try q.add(AutoplayRule.tagged(candidate(2)))
        var p = Player(seed: 1)
        p.setSingle(.on)
        _ = try p.play(id: 2, in: q)
        #expect(p.songFinished(in: q) == [.remove(2), .halt])
        #expect(p.current == nil && p.state == .stop)
    }
}

@Suite struct PlayHistoryTests {
    @Test func remembersTheLast500Plays() {
        var h = PlayHistory()
        for n in 0..<PlayHistory.limit + 10 { h.played("u\(n)") }
        #expect(h.uris.count == PlayHistory.limit)
        #expect(!h.contains("u9") && h.contains("u10") && h.contains("u509"))
        #expect(h.uris.suffix(2) == ["u508", "u509"])
    }

    @Test func aSongPlayedTwiceStaysUntilItsLastPlayIsForgotten() {
        var h = PlayHistory(uris: ["x"])
        for n in 0..<PlayHistory.limit - 2 { h.played("u\(n)") }
        h.played("x")
        h.played("y")  // the first "x" is forgotten, the second stays
        #expect(h.contains("x"))
    }

    @Test func savedAsAPlainListAndCutOnLoad() throws {
        let h = PlayHistory(uris: ["a", "b"])
        let text = String(decoding: try JSONEncoder().encode(h), as: UTF8.self)
        #expect(text == "[\"a\",\"b\"]")
        let long = "[" + (0..<600).map { "\"u\($0)\"" }.joined(separator: ",") + "]"
        let loaded = try JSONDecoder().decode(PlayHistory.self, from: Data(long.utf8))
        #expect(loaded.uris.first == "u100" && loaded.uris.count == PlayHistory.limit)
    }
}
