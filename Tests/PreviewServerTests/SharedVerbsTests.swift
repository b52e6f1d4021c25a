import PreviewCore
import PreviewDBus
import PreviewTestSupport
import Testing
@testable import PreviewDesktop
@testable import PreviewPlayback
@testable import PreviewServer

/// MPD's commands and MPRIS's methods reach playback through the same verbs
/// (`PlayerController+Verbs.swift`): driven from the same state, `previous`
/// and the seeks leave the same queue state and ask the same of the engine.
@Suite struct SharedVerbsTests {
    static let format = AudioFormat(sampleRate: 44100, channels: 2)

    /// What a verb left behind: the player's state, the current song, and
    /// the engine calls it made.
    struct Outcome: Equatable {
        var state: PlaybackState
        var current: SongID?
        var calls: [FakeEngine.Call]
    }

    /// A bench (tracks 1...3 queued) playing the second song `seconds` into it.
    func playingSecondSong(at seconds: Double) -> MPRISTests.Bench {
        let b = MPRISTests.Bench()
        let c = b.h.connect()
        #expect(b.h.send(c, "play 1\n") == "OK\n")
        guard case .play(let stream, _)? = b.h.engine.calls.last(where: { if case .play = $0 { true } else { false } }) else {
            Issue.record("no stream was started")
            return b
        }
        b.h.engine.positionValue = PlaybackPosition(stream: stream, frames: Int(seconds * 44100), format: Self.format, bitrate: 128)
        b.h.engine.calls = []
        return b
    }

    /// Runs `action` on a fresh bench at `seconds` and lets every timer run.
    func outcome(at seconds: Double, _ action: (MPRISTests.Bench) -> Void) -> Outcome {
        let b = playingSecondSong(at: seconds)
        action(b)
        b.h.advance(1)
        return Outcome(state: b.h.controller.state, current: b.h.controller.currentID, calls: b.h.engine.calls)
    }

    /// MPD's words through a client of the bench.
    func mpd(_ line: String) -> (MPRISTests.Bench) -> Void {
        { b in #expect(b.h.send(b.h.connect(), line + "\n") == "OK\n") }
    }

    /// An MPRIS method call on the bench's adapter.
    func mpris(_ member: String, _ args: [DBusValue] = []) -> (MPRISTests.Bench) -> Void {
        { b in #expect(b.call(member, args) == .values([])) }
    }

    @Test func previousEarlyInASongGoesBackOneSongBothWays() {
        let viaMPD = outcome(at: 1, mpd("previous"))
        #expect(viaMPD == outcome(at: 1, mpris("Previous")))
        #expect(viaMPD.current == 1, "1 s in: the song before (song ids count from 1)")
        #expect(viaMPD.state == .play)
    }

    @Test func previousLaterInASongRestartsItBothWays() {
        let viaMPD = outcome(at: 5, mpd("previous"))
        #expect(viaMPD == outcome(at: 5, mpris("Previous")))
        #expect(viaMPD.current == 2, "5 s in (past previousRestartSeconds): the same song again")
        #expect(viaMPD.calls.contains { if case .play = $0 { true } else { false } }, "restarted from its start")
    }

    @Test func relativeSeeksAreClampedAtTheStartBothWays() {
        let back = outcome(at: 5, mpd("seekcur -2"))
        #expect(back == outcome(at: 5, mpris("Seek", [.int64(-2_000_000)])))
        #expect(back.calls.contains(.range(3, nil)))
        let tooFar = outcome(at: 5, mpd("seekcur -10"))
        #expect(tooFar == outcome(at: 5, mpris("Seek", [.int64(-10_000_000)])))
        #expect(!tooFar.calls.contains { if case .range = $0 { true } else { false } }, "clamped to 0: no range")
        #expect(tooFar.current == 2)
        let ahead = outcome(at: 5, mpd("seekcur +2"))
        #expect(ahead == outcome(at: 5, mpris("Seek", [.int64(2_000_000)])))
        #expect(ahead.calls.contains(.range(7, nil)))
    }

    @Test func anAbsoluteSeekIsTheSameBothWays() {
        let viaMPD = outcome(at: 5, mpd("seekcur 12"))
        #expect(viaMPD == outcome(at: 5, mpris("SetPosition", [.objectPath(MPRIS.trackID(2)), .int64(12_000_000)])))
        #expect(viaMPD.calls.contains(.range(12, nil)))
    }
}
