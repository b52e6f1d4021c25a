import FoundationEssentials
import PreviewCore
import PreviewPlatform
import PreviewTestSupport
import Testing
@testable import PreviewServer
@testable import PreviewCatalog
@testable import PreviewPlayback
@testable import PreviewStorage

/// The named parts of the controller, each on its own: preview URL expiry,
/// the prefetch order, the stream lifecycle under a clock the test moves,
/// and state round trips.
@Suite struct PreviewURLCacheTests {
    static func track(_ id: Int, exp: Int?) -> DeezerTrack {
        let query = exp.map { "?hdnea=exp=\($0)~acl=/x~hmac=0" } ?? ""
        let json = #"{"id":\#(id),"title":"T","preview":"http://cdn.test/\#(id).mp3\#(query)"}"#
        return try! JSONDecoder().decode(DeezerTrack.self, from: Data(json.utf8))
    }

    @Test func aSignedURLIsHandedOutUntilAMinuteBeforeItExpires() {
        var now = 1_800_000_000.0
        let cache = PreviewURLCache(wallClock: { now })
        cache.remember(Self.track(1, exp: 1_800_000_100))
        #expect(cache.validURL(for: 1) == "http://cdn.test/1.mp3?hdnea=exp=1800000100~acl=/x~hmac=0")
        now = 1_800_000_040  // 60 s left: still handed out
        #expect(cache.validURL(for: 1) != nil)
        now = 1_800_000_041  // 59 s left: no longer worth starting
        #expect(cache.validURL(for: 1) == nil)
    }

    @Test func anUnsignedURLNeverExpiresAndForgetDropsIt() {
        let cache = PreviewURLCache(wallClock: { 4_000_000_000 })
        cache.remember(Self.track(2, exp: nil))
        #expect(cache.validURL(for: 2) == "http://cdn.test/2.mp3")
        cache.forget(2)
        #expect(cache.validURL(for: 2) == nil)
        #expect(cache.validURL(for: 3) == nil)
    }
}

@Suite struct PrefetcherTests {
    /// A prefetcher over a fake engine whose catalog answers `/track/N`
    /// (N < 900) with a preview valid until 2100, and "no data" for the rest.
    final class Rig {
        let engine = FakeEngine()
        var timers: [() -> Void] = []
        var requested: [String] = []
        let urls = PreviewURLCache(wallClock: { 1_800_000_000 })
        var prefetcher: Prefetcher!

        init() {
            // No cache: each resolution is a request the test can count.
            let client = DeezerClient(
                apiBase: "http://api.test", cacheTTL: 0,
                schedule: { [unowned self] _, action in timers.append(action) }
            ) { [unowned self] url, done in
                requested.append(url)
                let id = Int(url.split(separator: "/").last ?? "") ?? 0
                let body =
                    id < 900
                    ? #"{"id":\#(id),"preview":"http://cdn.test/\#(id).mp3?hdnea=exp=4102444800~"}"#
                    : #"{"error":{"type":"DataException","message":"no data","code":800}}"#
                done(HTTPResult(status: 200, contentType: "application/json", body: Array(body.utf8), transportError: nil))
            }
            prefetcher = Prefetcher(
                engine: engine, catalog: client, previewURLs: urls, log: Log(level: .error),
                schedule: { [unowned self] _, action in timers.append(action) })
        }

        /// Runs the timers due (all: the prefetcher only schedules at 0 s).
        func runTimers() {
            while !timers.isEmpty {
                let due = timers
                timers = []
                for t in due { t() }
            }
        }
    }

    static func song(_ uri: String, unplayable: String? = nil) -> Song {
        var s = Song(uri: uri)
        s.unplayable = unplayable
        return s
    }

    @Test func catalogTracksAreListedInPlayOrderOnceResolved() {
        let rig = Rig()
        rig.prefetcher.candidates = {
            [
                Self.song("deezer:track:3"), Self.song("http://radio.test/live.mp3"),
                Self.song("deezer:track:9", unplayable: "not available"), Self.song("deezer:track:2"),
            ]
        }
        rig.prefetcher.refresh()
        #expect(rig.requested == ["http://api.test/track/3", "http://api.test/track/2"], "unknown URLs are resolved first")
        #expect(rig.engine.prefetches == [], "nothing listed yet: no URL known")
        rig.runTimers()
        #expect(rig.engine.prefetches == [["deezer:track:3", "deezer:track:2"]], "play order; no stream, no unplayable song")
        #expect(rig.prefetcher.listedURL(for: "deezer:track:2") == "http://cdn.test/2.mp3?hdnea=exp=4102444800~")
        rig.prefetcher.refresh()
        #expect(rig.engine.prefetches.count == 1, "the same list is not sent again")
    }

    @Test func aTrackThatDoesNotResolveIsLeftOutUntilForgotten() {
        let rig = Rig()
        rig.prefetcher.candidates = { [Self.song("deezer:track:900"), Self.song("deezer:track:1")] }
        rig.prefetcher.refresh()
        rig.runTimers()
        #expect(rig.engine.prefetches.last == ["deezer:track:1"])
        rig.prefetcher.refresh()
        #expect(rig.requested.filter { $0.hasSuffix("/track/900") }.count == 1, "not asked again")
        rig.prefetcher.forgetFailures()
        rig.prefetcher.refresh()
        #expect(rig.requested.filter { $0.hasSuffix("/track/900") }.count == 2)
    }

    @Test func countZeroAndAHeldListSendNothingNew() {
        let rig = Rig()
        rig.urls.remember(PreviewURLCacheTests.track(5, exp: nil))
        rig.prefetcher.candidates = { [Self.song("deezer:track:5")] }
        rig.prefetcher.refresh()
        #expect(rig.engine.prefetches == [["deezer:track:5"]])
        rig.prefetcher.candidates = { nil }  // a song is being started
        rig.prefetcher.refresh()
        #expect(rig.engine.prefetches.count == 1)
        rig.prefetcher.count = 0
        rig.prefetcher.candidates = { [Self.song("deezer:track:5")] }
        rig.prefetcher.refresh()
        #expect(rig.engine.prefetches.last == [])
    }
}

@Suite struct StreamLifecycleTests {
    static let format = AudioFormat(sampleRate: 44100, channels: 2)

    func playing(_ ids: [Int], autoStart: Bool = false) -> (Harness, ClientSession) {
        let h = Harness()
        h.engine.autoStart = autoStart
        let c = h.connect()
        for id in ids { #expect(h.send(c, "add deezer:track:\(id)\n") == "OK\n") }
        return (h, c)
    }

    @Test func aCommandWaitsForFirstAudioAtMostTheStartWaitLimit() throws {
        let (h, c) = playing([1])
        #expect(h.send(c, "play\n") == "", "answered once audible")
        h.advance(PlayerController.startWaitLimit - 0.01)
        #expect(h.take(c) == "")
        h.advance(0.01)
        #expect(h.take(c) == "OK\n")
        #expect(h.controller.streams.active?.audible == false)
    }

    @Test func firstAudioAnswersTheWaitingCommandAndSetsTheFormat() throws {
        let (h, c) = playing([1])
        _ = h.send(c, "play\n")
        let (stream, _) = try #require(h.engine.lastPlay)
        h.controller.handle(.streamStarted(stream, Self.format, bitrate: 128, totalFrames: nil))
        h.settle()
        #expect(h.take(c) == "OK\n")
        #expect(h.controller.streams.active?.format == Self.format)
        #expect(h.controller.streams.active?.bitrate == 128)
    }

    @Test func anOverloadedServerIsTriedOnceMoreAfterRetryAfter() throws {
        let (h, c) = playing([1, 2])
        _ = h.send(c, "play\n")
        let (stream, url) = try #require(h.engine.lastPlay)
        h.controller.handle(.streamFailed(stream, .unavailable(retryAfter: 3), frames: 0))
        h.settle()
        h.advance(2.9)
        #expect(h.engine.lastPlay?.0 == stream, "not before Retry-After")
        h.advance(0.1)
        let (again, againURL) = try #require(h.engine.lastPlay)
        #expect(again == stream + 1 && againURL == url && h.controller.currentID == 1)
        h.controller.handle(.streamFailed(again, .unavailable(retryAfter: 3), frames: 0))
        h.settle()
        h.advance(PlayerController.startWaitLimit)
        #expect(h.controller.currentID == 2, "the second 503 skips")
        #expect(h.controller.lastError == "deezer:track:1: HTTP status 503 (retry after 3 s)")
    }

    @Test func playbackStopsWhenEverySongFailedInARow() throws {
        let (h, c) = playing([1, 2])
        _ = h.send(c, "play\n")
        for _ in 0..<2 {
            let (stream, _) = try #require(h.engine.lastPlay)
            h.controller.handle(.streamFailed(stream, .decode("junk"), frames: 0))
            h.settle()
        }
        #expect(h.controller.state == .stop)
        #expect(h.controller.streams.active == nil)
        #expect(h.controller.lastError == "deezer:track:2: decode error: junk")
    }

    @Test func playTimeCountsWhatEachStreamPlayed() throws {
        let (h, c) = playing([1, 2], autoStart: true)
        _ = h.send(c, "play\n")
        let (first, _) = try #require(h.engine.lastPlay)
        h.engine.positionValue = PlaybackPosition(stream: first, frames: 44100 * 5, format: Self.format, bitrate: 128)
        #expect(h.controller.elapsed == 5)
        _ = h.send(c, "next\n")
        h.advance(PlayerController.skipSettle)
        let (second, _) = try #require(h.engine.lastPlay)
        h.engine.positionValue = PlaybackPosition(stream: second, frames: 44100 * 2, format: Self.format, bitrate: 128)
        #expect(h.controller.totalPlayTime == 7)
        h.advance(100)
        #expect(h.controller.uptime == h.clock - 1000, "uptime follows the injected clock")
    }

    /// The last song, written whole while the output still holds
    /// `unheard` seconds of it: the queue's end waits for them.
    func lastSongWritten(unheard: Double) throws -> (Harness, ClientSession, StreamID) {
        let (h, c) = playing([1], autoStart: true)
        _ = h.send(c, "play\n")
        let (stream, _) = try #require(h.engine.lastPlay)
        let end = 44100 * 30
        h.engine.positionValue = PlaybackPosition(stream: stream, frames: end - Int(unheard * 44100), format: Self.format, bitrate: 128)
        h.controller.handle(.streamFinished(stream, frames: end))
        return (h, c, stream)
    }

    @Test func theQueueStopsWhenItsLastSamplesAreAboutToBeHeard() throws {
        let (h, c, _) = try lastSongWritten(unheard: 1)
        #expect(h.controller.state == .play && !h.engine.calls.contains(.stop))
        #expect(h.send(c, "status\n").contains("elapsed: 29.000\n"))
        h.advance(0.85)
        #expect(h.controller.state == .play, "still \(1 - 0.85) s to hear")
        h.advance(1 - PlayerController.stopLead - 0.85 + 0.001)
        #expect(h.controller.state == .stop && h.engine.calls.last == .stop)
        #expect(!h.engine.calls.contains(.dropBuffered), "its end was heard: nothing to drop")
        #expect(h.controller.queuedSongs[0].song.duration == 30.0)
    }

    @Test func aCommandBeforeTheQueuesEndIsHeardDropsThatEnd() throws {
        let (h, c, stream) = try lastSongWritten(unheard: 1)
        _ = h.send(c, "seekcur 10\n")
        let url = try #require(h.engine.lastPlay).1
        #expect(
            h.engine.calls.suffix(4) == [.dropBuffered, .paused(false), .play(stream + 1, url), .range(10, nil)],
            "dropped first, then the seek plays at once")
        #expect(h.controller.state == .play && h.controller.streams.active?.finishedAt == nil)
        h.engine.calls = []
        _ = h.send(c, "stop\n")
        #expect(h.engine.calls == [.stop], "the new stream holds no finished end")
        let (h2, c2, _) = try lastSongWritten(unheard: 1)
        _ = h2.send(c2, "stop\n")
        #expect(h2.engine.calls.suffix(2) == [.dropBuffered, .stop])
        #expect(h2.controller.state == .stop)
        h2.advance(2)
        #expect(h2.engine.calls.last == .stop && h2.controller.state == .stop, "the wait's timer did nothing")
    }

    @Test func aPauseBeforeTheQueuesLastSamplesAreHeardHoldsTheStop() throws {
        let (h, c, stream) = try lastSongWritten(unheard: 1)
        _ = h.send(c, "pause 1\n")
        h.advance(5)
        #expect(h.controller.state == .pause, "no stop while the end is not heard")
        h.engine.positionValue?.frames = 44100 * 30 - 22050
        _ = h.send(c, "pause 0\n")
        h.advance(0.3)
        #expect(h.controller.state == .play)
        h.advance(0.5 - PlayerController.stopLead - 0.3 + 0.001)
        #expect(h.controller.state == .stop)
        #expect(h.engine.lastPlay?.0 == stream, "no other stream began")
    }

    @Test func aLastSongBehindTheUnheardEndOfTheOneBeforeWaitsForBoth() throws {
        let (h, c) = playing([1], autoStart: true)
        _ = h.send(c, "play\n")
        let (stream, _) = try #require(h.engine.lastPlay)
        // Its 0.3 s were all written while 0.5 s of the song before it still play.
        var heard = PlaybackPosition(stream: stream, frames: 0, format: Self.format, bitrate: 128)
        heard.framesBeforeStart = 22050
        h.engine.positionValue = heard
        h.controller.handle(.streamFinished(stream, frames: 13230))
        h.advance(0.6)
        #expect(h.controller.state == .play, "0.8 s to hear, less the stop's lead")
        h.advance(0.8 - PlayerController.stopLead - 0.6 + 0.001)
        #expect(h.controller.state == .stop)
    }

    @Test func aSongAddedBeforeTheQueuesEndIsHeardStartsAtOnce() throws {
        let (h, c, stream) = try lastSongWritten(unheard: 1)
        _ = h.send(c, "add deezer:track:2\n")
        h.advance(0)
        #expect(h.controller.currentID == 2 && h.engine.lastPlay?.0 != stream, "written behind the end, no gap")
        #expect(!h.engine.calls.contains(.dropBuffered))
    }

    @Test func aSongWithAnotherAfterItEndsWhenWrittenSoTheNextFollowsGaplessly() throws {
        let (h, c) = playing([1, 2], autoStart: true)
        _ = h.send(c, "play\n")
        let (first, _) = try #require(h.engine.lastPlay)
        h.engine.positionValue = PlaybackPosition(stream: first, frames: 44100 * 29, format: Self.format, bitrate: 128)
        h.controller.handle(.streamFinished(first, frames: 44100 * 30))
        #expect(h.controller.currentID == 2 && h.engine.lastPlay?.0 != first)
    }
}

@Suite struct StateRoundTripTests {
    @Test func aSnapshotRestoresToTheSameState() throws {
        let h = Harness()
        let c = h.connect()
        for id in 1...3 { _ = h.send(c, "add deezer:track:\(id)\n") }
        _ = h.send(c, "random 1\nrepeat 1\nsetvol 40\nprio 5 2\nrangeid 3 1:9\nreplay_gain_mode track\nplay 1\n")
        h.engine.positionValue = PlaybackPosition(
            stream: try #require(h.engine.lastPlay).0, frames: 44100 * 4,
            format: StreamLifecycleTests.format, bitrate: 128)
        let saved = h.controller.snapshot()
        #expect(saved.elapsed == 4 && saved.volume == 40 && saved.current == 2 && saved.replayGainMode == "track")

        let bytes = try JSONEncoder().encode(saved)
        let decoded = try JSONDecoder().decode(SavedState.self, from: bytes)
        #expect(decoded == saved)

        let restored = Harness()
        restored.controller.restore(decoded, playing: false)
        restored.settle()
        let again = restored.controller.snapshot()
        #expect(again.state == .pause, "a restored session comes back paused")
        #expect(restored.engine.calls.contains(.range(4, nil)), "from where it was")
        #expect(again.queue.map(\.song) == saved.queue.map(\.song))
        #expect(again.queue.map(\.id) == [1, 2, 3] && again.queue.map(\.priority) == [0, 0, 5])
        #expect(again.queue[2].range == SongRange(start: 1, end: 9))
        #expect(again.nextID == saved.nextID && again.queueVersion == saved.queueVersion)
        #expect(
            (again.current, again.elapsed, again.modes, again.volume, again.replayGainMode)
                == (saved.current, saved.elapsed, saved.modes, saved.volume, saved.replayGainMode))
    }

    @Test func aStoppedSessionRestoresStoppedWithoutAStream() {
        let h = Harness()
        let c = h.connect()
        _ = h.send(c, "add deezer:track:1\nconsume 1\n")
        let saved = h.controller.snapshot()
        let restored = Harness()
        restored.controller.restore(saved, playing: true)
        #expect(restored.controller.snapshot() == saved)
        #expect(restored.engine.lastPlay == nil)
        #expect(restored.controller.modes == h.controller.modes)
    }
}
