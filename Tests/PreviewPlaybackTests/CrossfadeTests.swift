import PreviewCore
import PreviewTestSupport
import Testing
@testable import PreviewPlayback
@testable import PreviewServer

/// The controller's side of crossfade: it names the next song to the engine
/// while one plays, and adopts the stream the engine faded into.
@Suite struct CrossfadeTests {
    let prefetch = PrefetchTests()

    /// Tracks 1...3 queued with crossfade 3, the first playing and heard.
    func playing() throws -> (Harness, ClientSession, StreamID) {
        let h = prefetch.harness()
        let c = h.connect()
        for id in 1...3 { _ = h.send(c, "add deezer:track:\(id)\n") }
        #expect(h.send(c, "crossfade 3\n") == "OK\n")
        _ = h.send(c, "play\n")
        let stream = try prefetch.audible(h)
        return (h, c, stream)
    }

    @Test func theNextSongIsNamedOnceTheCurrentOneIsHeard() throws {
        let (h, _, stream) = try playing()
        let (next, seconds) = try #require(h.engine.queuedNext.last)
        let named = try #require(next)
        #expect(seconds == 3)
        #expect(named.key == "deezer:track:2" && named.url == PrefetchTests.preview(2))
        #expect(named.id != stream && named.info.mediaName == "A – T2")
    }

    @Test func aFadeMakesTheNextSongCurrentWithoutPlayingItAgain() throws {
        let (h, c, stream) = try playing()
        let named = try #require(h.engine.queuedNext.last?.0)
        let plays = h.engine.calls.count
        h.controller.handle(.streamFaded(stream, frames: 44100 * 27, into: named.id))
        h.settle()
        #expect(h.engine.calls.count == plays, "no play, stop or pause: the engine plays it already")
        let status = h.send(c, "status\n")
        #expect(status.contains("\nsong: 1\n") && status.contains("\nxfade: 3\n"), "\(status)")
        h.controller.handle(.streamStarted(named.id, PrefetchTests.format, bitrate: 128, totalFrames: nil))
        h.settle()
        #expect(h.engine.queuedNext.last?.0?.key == "deezer:track:3", "and the song after it is named next")
    }

    @Test func editsAndModesRenameOrForgetTheNextSong() throws {
        let (h, c, _) = try playing()
        _ = h.send(c, "single 1\n")
        #expect(h.engine.queuedNext.last.map { $0.0 == nil } == true, "single: nothing follows")
        _ = h.send(c, "single 0\n")
        #expect(h.engine.queuedNext.last?.0?.key == "deezer:track:2")
        _ = h.send(c, "crossfade 0\n")
        #expect(h.engine.queuedNext.last.map { $0.0 == nil } == true)
        #expect(!h.send(c, "status\n").contains("xfade"))
    }

    @Test func aStaleFadeIsIgnored() throws {
        let (h, c, stream) = try playing()
        _ = h.send(c, "next\n")
        h.controller.handle(.streamFaded(stream, frames: 1, into: 999))
        h.settle()
        #expect(h.send(c, "status\n").contains("\nsong: 1\n"))
    }

    @Test func anUnmeasuredNextSongIsMeasuredAsItFadesIn() throws {
        let (h, c, stream) = try playing()
        // (The first OK answers `play`, held until the song was heard.)
        #expect(h.send(c, "replay_gain_mode track\n") == "OK\nOK\n")
        // The mode change names the next song again, with a plan: the engine
        // measures it as the fade begins, from the body it holds whole.
        let named = try #require(h.engine.queuedNext.last?.0)
        #expect(named.info.measure?.key == "deezer:track:2" && named.info.measure?.mode == .track)
        #expect(h.engine.infos.last?.measure == nil, "the song playing was started with the mode off")
        h.controller.handle(.streamFaded(stream, frames: 44100 * 27, into: named.id))
        h.settle()
        h.controller.handle(.gainChosen(named.id, ReplayGain(decibels: -7.25, source: .track)))
        h.settle()
        #expect(h.send(c, "replay_gain_status\n") == "replay_gain_mode: track\nreplay_gain_db: -7.25\nreplay_gain_source: track\nOK\n")
        // Held once this run: played again, it gets no second plan.
        #expect(h.send(c, "play 1\n") == "")
        #expect(h.engine.infos.last?.measure == nil)
    }

    @Test func directURLsArePrefetchedOnlyWithCrossfadeOn() throws {
        let h = prefetch.harness()
        let c = h.connect()
        _ = h.send(c, "add deezer:track:1\nadd http://radio.test/stream.mp3\n")
        _ = h.send(c, "play\n")
        _ = try prefetch.audible(h)
        #expect((h.engine.prefetches.last ?? []).isEmpty, "a direct URL may be a radio: streamed as it plays")
        #expect(h.send(c, "crossfade 2\n") == "OK\nOK\n", "play's answer, then crossfade's")
        h.settle()
        #expect(h.engine.prefetches.last == ["http://radio.test/stream.mp3"])
        let named = try #require(h.engine.queuedNext.last?.0)
        #expect(named.key == "http://radio.test/stream.mp3" && named.url == named.key && named.info.mayBeEndless)
    }
}
