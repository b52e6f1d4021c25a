import PreviewCore
import Testing
@testable import PreviewAudio

/// The parts of the PulseAudio output with no PulseAudio call in them.
@Suite struct PulseStreamBookTests {
    /// 44.1 kHz stereo s16: 4 bytes a frame, a 0.5 s buffer.
    private func book() -> PulseStreamBook {
        var b = PulseStreamBook()
        b.opened(bufferBytes: 88_200)
        return b
    }

    @Test func theClockIsWhatWasWrittenLessTheServersLatencyAndWhatIsKeptBack() {
        var b = book()
        b.accept(40_000, bytesPerFrame: 4)
        b.staged = [UInt8](repeating: 0, count: 400)
        #expect(b.clock(latency: 5000, bytesPerFrame: 4) == OutputClock(stream: 1, accepted: 10_000, unplayed: 5100))
        // Before the server has told its latency, nothing written is heard yet.
        #expect(b.clock(latency: nil, bytesPerFrame: 4).unplayed == 10_000)
        b.flushed()
        #expect(b.staged.isEmpty)
        #expect(b.clock(latency: nil, bytesPerFrame: 4) == OutputClock(stream: 1, accepted: 10_000, unplayed: 0))
        b.opened(bufferBytes: 88_200)
        #expect(b.clock(latency: 70, bytesPerFrame: 4) == OutputClock(stream: 2, accepted: 0, unplayed: 0))
    }

    @Test func aChunkEndIsKeptBackOnlyWhileTheServerHoldsHalfABuffer() {
        var b = book()
        // The server's usual request: a quarter second; 30,000 bytes do not fill it.
        #expect(b.keepsBack(30_000, writable: 44_100))
        #expect(!b.keepsBack(44_100, writable: 44_100))
        b.staged = [UInt8](repeating: 0, count: 20_000)
        #expect(!b.keepsBack(30_000, writable: 44_100))
        // A server that asks for more than half its buffer is running low: send at once.
        b.staged = []
        #expect(!b.keepsBack(30_000, writable: 60_000))
    }

    @Test func timingIsAskedSoonAfterAStartThenLessOften() {
        var b = book()
        var asked: [UInt64] = []
        for ms in stride(from: UInt64(0), through: 4000, by: 10) where b.asksTiming(at: 1_000_000 + ms * 1000) {
            asked.append(ms)
        }
        #expect(asked == [0, 20, 60, 140, 300, 620, 1260, 2260, 3260])
        let afresh = b.asksTiming(at: 1_000_000 + 3_270_000, afresh: true)
        let soonAfter = b.asksTiming(at: 1_000_000 + 3_290_000)
        #expect(afresh && soonAfter)
    }
}

@Suite struct VolumeRampTests {
    @Test func aChangeTakesTwelveStepsAndEndsExactly() {
        var ramp = VolumeRamp()
        ramp.start(to: 40)
        var steps: [Double] = []
        while let v = ramp.step() { steps.append(v) }
        #expect(steps.count == VolumeRamp.steps)
        #expect(steps.first == 95)
        #expect(zip(steps, steps.dropFirst()).allSatisfy { $0 > $1 })
        #expect(steps.last == 40)
        let after = ramp.step()
        #expect(after == nil)
    }

    @Test func aChangeDuringARampStartsFromWhereItIs() {
        var ramp = VolumeRamp()
        ramp.start(to: 0)
        for _ in 0..<6 { _ = ramp.step() }
        let halfway = ramp.applied
        ramp.start(to: 100)
        let next = ramp.step()
        #expect(next! > halfway)
        ramp.finish(at: 100)
        #expect(ramp == VolumeRamp())
    }
}

@Suite struct PulsePropertiesTests {
    @Test func theStreamIsNamedAfterTheSongAndForgetsWhatItLacks() {
        let song = StreamInfo(artist: "Daft Punk", title: "One More Time")
        #expect(
            song.pulseProperties.map { "\($0.0)=\($0.1)" }
                == ["media.name=Daft Punk – One More Time", "media.role=music", "media.artist=Daft Punk", "media.title=One More Time"])
        #expect(song.pulseKeysUnset.isEmpty)
        let url = StreamInfo()
        #expect(url.pulseProperties.map { "\($0.0)=\($0.1)" } == ["media.name=previewd", "media.role=music"])
        #expect(url.pulseKeysUnset == ["media.artist", "media.title"])
    }
}

/// The paced null output's clock (`PacingClock`).
@Suite struct PacingClockTests {
    @Test func aPauseTakesOnlyWhatADeviceWouldHavePlayed() {
        let clock = PacingClock()
        // A second of audio, interrupted at once: the lead (0.05 s, 2205
        // frames) is taken, and what the call's own time played (up to 0.1 s
        // allowed here, for a busy machine); not the rest.
        let taken = clock.consume(frames: 44_100, rate: 44_100, interrupted: { true })
        #expect((2200...6615).contains(taken))
        // No more than the lead: taken whole without waiting or asking.
        clock.reset()
        #expect(clock.consume(frames: 1000, rate: 44_100, interrupted: { true }) == 1000)
    }
}
