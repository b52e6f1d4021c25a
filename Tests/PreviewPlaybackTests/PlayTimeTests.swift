import PreviewCore
import PreviewTestSupport
import Testing
@testable import PreviewServer
@testable import PreviewPlayback

/// `stats` playtime counts what was heard: a restored position and the
/// part of a song a seek jumped over are never played time.
@Suite struct PlayTimeTests {
    static let format = AudioFormat(sampleRate: 44100, channels: 2)

    /// Puts the engine `seconds` into the song of its last stream.
    func at(_ h: Harness, _ seconds: Double) throws {
        let (stream, _) = try #require(h.engine.lastPlay)
        h.engine.positionValue = PlaybackPosition(stream: stream, frames: Int(seconds * 44100), format: Self.format, bitrate: 128)
    }

    func playtime(_ h: Harness, _ c: ClientSession) -> String? {
        h.send(c, "stats\n").split(separator: "\n").first { $0.hasPrefix("playtime: ") }.map(String.init)
    }

    @Test func aRestoredPositionIsNotPlayed() throws {
        let before = Harness()
        let c = before.connect()
        _ = before.send(c, "add deezer:track:1\nadd deezer:track:2\nplay\n")
        try at(before, 4)
        let saved = before.controller.snapshot()
        #expect(saved.elapsed == 4)

        let h = Harness()
        h.controller.restore(saved, playing: false)
        h.settle()
        try at(h, 4)
        let k = h.connect()
        #expect(h.controller.elapsed == 4, "status shows where it stands")
        #expect(h.controller.totalPlayTime == 0)
        #expect(playtime(h, k) == "playtime: 0")
        _ = h.send(k, "pause 0\n")
        try at(h, 6.5)
        #expect(h.controller.totalPlayTime == 2.5)
        _ = h.send(k, "next\n")
        h.advance(PlayerController.skipSettle)
        try at(h, 1)
        #expect(h.controller.totalPlayTime == 3.5, "what the restored stream played counts once it ends")
        #expect(playtime(h, k) == "playtime: 3")
    }

    @Test func thePartASeekJumpedOverIsNotPlayed() throws {
        let h = Harness()
        let c = h.connect()
        _ = h.send(c, "add deezer:track:1\nplay\n")
        try at(h, 5)
        #expect(h.send(c, "seekcur 20\n") == "OK\n")
        #expect(h.controller.totalPlayTime == 5, "the seek's stream has not played yet")
        try at(h, 22)
        #expect(h.controller.totalPlayTime == 7)
        #expect(h.send(c, "seekcur 10\n") == "OK\n")
        try at(h, 13)
        #expect(h.controller.totalPlayTime == 10, "a seek back plays the same part again, and that counts")
        #expect(playtime(h, c) == "playtime: 10")
    }
}
