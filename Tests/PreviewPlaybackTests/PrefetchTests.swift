import PreviewCore
import PreviewTestSupport
import Testing
@testable import PreviewServer
@testable import PreviewPlayback

/// Prefetch lists and cut downloads, as the controller drives the engine.
@Suite struct PrefetchTests {
    static let format = AudioFormat(sampleRate: 44100, channels: 2)

    static func preview(_ id: Int) -> String { "http://cdn.test/\(id).mp3?hdnea=exp=4102444800~hmac=0" }

    /// A harness whose tracks 1...4 resolve to previews valid until 2100.
    func harness() -> Harness {
        let h = Harness()
        for id in 1...4 {
            h.bodies["/track/\(id)"] = """
                {"id":\(id),"readable":true,"title":"T\(id)","duration":30,"preview":"\(Self.preview(id))","type":"track",\
                "artist":{"id":1,"name":"A","type":"artist"},"album":{"id":1,"title":"B","type":"album"}}
                """
        }
        h.engine.autoStart = false
        return h
    }

    func audible(_ h: Harness) throws -> StreamID {
        let (stream, _) = try #require(h.engine.lastPlay)
        h.controller.handle(.streamStarted(stream, Self.format, bitrate: 128, totalFrames: nil))
        h.settle()
        return stream
    }

    @Test func theNextSongsAreFetchedOnceTheCurrentOneIsHeard() throws {
        let h = harness()
        let c = h.connect()
        for id in 1...4 { #expect(h.send(c, "add deezer:track:\(id)\n") == "OK\n") }
        #expect(h.send(c, "play\n") == "")  // answers once audible
        #expect(h.engine.prefetches.isEmpty, "nothing competes with the song being started")
        _ = try audible(h)
        #expect(h.engine.prefetches.last == ["deezer:track:2", "deezer:track:3"])
        _ = h.send(c, "next\n")  // answers at once
        #expect(h.engine.lastPlay?.1 == Self.preview(2))
        _ = try audible(h)
        h.advance(PlayerController.burstQuiet)  // the key-repeat rule: after the burst
        #expect(h.engine.prefetches.last == ["deezer:track:3", "deezer:track:4"])
        _ = h.send(c, "single 1\n")
        #expect(h.engine.prefetches.last == [], "single mode stops after this song")
        _ = h.send(c, "single 0\nrepeat 1\n")
        #expect(h.engine.prefetches.last == ["deezer:track:3", "deezer:track:4"])
        _ = h.send(c, "stop\n")
        #expect(h.engine.prefetches.last == [])
    }

    /// Tracks 1...4 queued with prefetch off, the first playing and heard.
    func playingWithoutPrefetch() throws -> Harness {
        let h = harness()
        h.controller.prefetchCount = 0
        let c = h.connect()
        for id in 1...4 { _ = h.send(c, "add deezer:track:\(id)\n") }
        _ = h.send(c, "play\n")
        _ = try audible(h)
        return h
    }

    @Test func prefetchCountZeroFetchesNothing() throws {
        let h = try playingWithoutPrefetch()
        #expect(h.engine.prefetches.allSatisfy { $0.isEmpty })
    }

    @Test func aBurstOfNextOpensOnlyTheSongItLandsOn() throws {
        let h = try playingWithoutPrefetch()
        let plays = h.engine.calls.filter { if case .play = $0 { return true } else { return false } }.count
        let keys = (0..<3).map { _ in h.connect() }
        for k in keys { _ = h.send(k, "next\n") }
        #expect(h.controller.currentID == 4, "the cursor moves at once")
        #expect(h.engine.lastPlay?.1 == Self.preview(1), "nothing opened yet")
        h.advance(PlayerController.skipSettle)
        let after = h.engine.calls.filter { if case .play = $0 { return true } else { return false } }.count
        #expect(after == plays + 1)
        #expect(h.engine.lastPlay?.1 == Self.preview(4))
    }

    /// Track 1 playing and heard; its stream and the API requests so far.
    func playingTrack1(_ h: Harness) throws -> (StreamID, Int) {
        let c = h.connect()
        _ = h.send(c, "add deezer:track:1\nplay\n")
        return (try audible(h), h.requested.count)
    }

    @Test func aBrokenConnectionResumesFromTheSameURL() throws {
        let h = harness()
        let (stream, requests) = try playingTrack1(h)
        h.controller.handle(.streamCut(stream, .transport("Transferred a partial file"), bytes: 100_000))
        h.settle()
        #expect(h.requested.count == requests, "the URL is still valid")
        #expect(h.engine.resumes.map(\.0) == [stream])
        #expect(h.engine.resumes.map(\.1) == [Self.preview(1)])
    }

    @Test func aRefusedURLIsResolvedAgainThenResumed() throws {
        let h = harness()
        let (stream, requests) = try playingTrack1(h)
        h.controller.handle(.streamCut(stream, .httpStatus(403), bytes: 100_000))
        h.settle()
        #expect(h.requested.count == requests + 1)
        #expect(h.requested.last == "http://api.test/track/1")
        #expect(h.engine.resumes.map(\.0) == [stream])
        #expect(h.controller.currentID == 1 && h.controller.lastError == nil)
    }

    @Test func aLostOutputIsAnErrorUntilItIsBack() {
        let h = harness()
        h.controller.handle(.outputChanged(lost: "PulseAudio connection lost"))
        #expect(h.controller.statusError == "output: PulseAudio connection lost; reconnecting")
        h.controller.handle(.outputChanged(lost: nil))
        #expect(h.controller.statusError == nil)
    }
}
