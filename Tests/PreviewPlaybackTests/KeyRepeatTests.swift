import PreviewCore
import PreviewTestSupport
import Testing
@testable import PreviewServer
@testable import PreviewPlayback

/// The key-repeat rule: a burst of `next`/`previous`, pipelined on one
/// connection or spread over many, is answered at once, opens only the
/// song it lands on (and songs prefetched before it, which need no
/// network), and lists nothing new to prefetch until it is over.
@Suite struct KeyRepeatTests {
    static let format = AudioFormat(sampleRate: 44100, channels: 2)

    /// Tracks 1...`count` queued with `prefetch` songs prefetched ahead,
    /// the first playing and heard.
    func playing(_ count: Int = 9, prefetch: Int = 2) throws -> (Harness, ClientSession) {
        let h = Harness()
        h.engine.autoStart = false
        h.controller.prefetchCount = prefetch
        let c = h.connect()
        for id in 1...count { #expect(h.send(c, "add deezer:track:\(id)\n") == "OK\n") }
        #expect(h.send(c, "play\n") == "", "play still waits for the first audio")
        try heard(h)
        #expect(h.take(c) == "OK\n")
        return (h, c)
    }

    /// The engine's last stream reaches the output.
    func heard(_ h: Harness) throws {
        let (stream, _) = try #require(h.engine.lastPlay)
        h.controller.handle(.streamStarted(stream, Self.format, bitrate: 128, totalFrames: nil))
        h.settle()
    }

    /// The tracks the engine was told to play, from call `from` on.
    func opened(_ h: Harness, from: Int) -> [Int] {
        h.engine.calls[from...].compactMap { call in
            guard case .play(_, let url) = call, let name = url.split(separator: "/").last,
                let id = Int(name.prefix(while: \.isNumber))
            else { return nil }
            return id
        }
    }

    /// Sends `next` six times the way `send` says and checks the burst
    /// opened only prefetched songs before the settle, then the landing one.
    func burstOfSix(_ send: (Harness) -> Void) throws {
        let (h, _) = try playing()
        #expect(h.engine.prefetches.last == ["deezer:track:2", "deezer:track:3"])
        let lists = h.engine.prefetches.count
        let calls = h.engine.calls.count
        send(h)
        #expect(h.controller.currentID == 7, "the cursor moves at once")
        #expect(opened(h, from: calls) == [2, 3], "only what was prefetched starts at once")
        h.advance(PlayerController.skipSettle)
        #expect(opened(h, from: calls) == [2, 3, 7], "then the song the burst landed on")
        try heard(h)
        #expect(h.engine.prefetches.count == lists, "no new list while the burst may go on")
        h.advance(PlayerController.burstQuiet)
        #expect(h.engine.prefetches.last == ["deezer:track:8", "deezer:track:9"])
        #expect(h.engine.prefetches.count == lists + 1)
    }

    @Test func aPipelinedBurstAnswersAtOnceAndOpensWhereItLands() throws {
        try burstOfSix { h in
            let c = h.sessions[0]
            #expect(h.send(c, String(repeating: "next\n", count: 6)) == String(repeating: "OK\n", count: 6))
        }
    }

    @Test func aBurstOverSeveralConnectionsAnswersEachAtOnce() throws {
        try burstOfSix { h in
            let keys = (0..<6).map { _ in h.connect() }
            for k in keys { #expect(h.send(k, "next\n") == "OK\n") }
        }
    }

    @Test func aBurstOfPreviousAnswersAtOnceToo() throws {
        let (h, c) = try playing()
        #expect(h.send(c, "play 6\n") == "", "track 7")
        try heard(h)
        #expect(h.take(c) == "OK\n")
        let calls = h.engine.calls.count
        #expect(h.send(c, "previous\nprevious\nprevious\n") == "OK\nOK\nOK\n")
        #expect(h.controller.currentID == 4)
        h.advance(PlayerController.skipSettle)
        #expect(opened(h, from: calls) == [4])
    }

    @Test func withoutPrefetchABurstOpensOnlyTheSongItLandsOn() throws {
        let (h, c) = try playing(prefetch: 0)
        let calls = h.engine.calls.count
        #expect(h.send(c, String(repeating: "next\n", count: 5)) == String(repeating: "OK\n", count: 5))
        let other = h.connect()
        #expect(h.send(other, "next\n") == "OK\n")
        #expect(opened(h, from: calls) == [])
        h.advance(PlayerController.skipSettle)
        try heard(h)
        h.advance(PlayerController.burstQuiet)
        #expect(opened(h, from: calls) == [7])
        #expect(h.engine.prefetches.allSatisfy { $0.isEmpty })
    }

    @Test func aLandingSongNotYetHeardHoldsThePrefetchAfterTheBurst() throws {
        let (h, c) = try playing()
        let lists = h.engine.prefetches.count
        _ = h.send(c, "next\nnext\nnext\n")
        h.advance(PlayerController.skipSettle + PlayerController.burstQuiet)
        #expect(h.engine.prefetches.count == lists, "the song being started does not wait behind others")
        try heard(h)
        #expect(h.engine.prefetches.last == ["deezer:track:5", "deezer:track:6"])
    }

    @Test func aSkipWithinTheQuietTimeMakesTheBurstLast() throws {
        let (h, c) = try playing()
        let lists = h.engine.prefetches.count
        _ = h.send(c, "next\nnext\nnext\n")
        h.advance(PlayerController.skipSettle)
        try heard(h)
        h.advance(PlayerController.burstQuiet - 0.1)
        _ = h.send(h.connect(), "next\n")
        h.advance(0.2)
        #expect(h.engine.prefetches.count == lists, "the first skips' quiet time passed, the last one's not")
        h.advance(PlayerController.skipSettle)
        try heard(h)
        h.advance(PlayerController.burstQuiet)
        #expect(h.engine.prefetches.last == ["deezer:track:6", "deezer:track:7"])
    }

    @Test func playEndsABurstSoItsSongPrefetchesOnceHeard() throws {
        let (h, c) = try playing()
        _ = h.send(c, "next\nnext\nnext\n")
        #expect(h.send(c, "play 6\n") == "", "track 7: play waits for the first audio")
        try heard(h)
        #expect(h.take(c) == "OK\n")
        #expect(h.engine.prefetches.last == ["deezer:track:8", "deezer:track:9"])
    }
}
