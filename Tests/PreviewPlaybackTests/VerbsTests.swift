import PreviewCore
import PreviewPlatform
import PreviewTestSupport
import Testing
@testable import PreviewPlayback

/// The playback owner alone, through its verbs: a controller over a
/// recording engine and the catalog of recorded answers, with a clock the
/// test moves, listening as the server would.
final class PlaybackBench: PlaybackListener {
    let engine = FakeEngine()
    let catalog = CatalogBench()
    var clock = 1000.0
    private var timers: [(Double, () -> Void)] = []
    private(set) var controller: PlayerController!
    /// What the controller told its listener, in order.
    var changes: [Subsystems] = []
    var events: [(Subsystems, EventReason)] = []
    var seeks: [Double] = []

    /// A controller whose queue holds three 30-second catalog tracks (ids 1, 2, 3).
    init() {
        let clocks = Clock(monotonic: { [unowned self] in clock }, wall: { [unowned self] in catalog.wallClock })
        controller = PlayerController(
            engine: engine, catalog: catalog.browser, log: Log(level: .error), seed: 7,
            clock: clocks,
            schedule: { [unowned self] delay, action in timers.append((clock + delay, action)) })
        controller.addListener(self)
        let songs = (1...3).map { Song(uri: "deezer:track:\($0)", title: "Track \($0)", duration: 30) }
        #expect((try? controller.insert(songs, at: nil)) == [1, 2, 3])
        #expect(changes == [.playlist])
        changes = []
        events = []
    }

    /// Moves the clock, runs the timers due and hands the engine's events
    /// to the controller, as the server's loop would.
    func advance(_ seconds: Double = 0) {
        clock += seconds
        repeat {
            while let i = timers.firstIndex(where: { $0.0 <= clock }) { timers.remove(at: i).1() }
            let pending = engine.events
            engine.events = []
            for e in pending { controller.handle(e) }
        } while !engine.events.isEmpty || timers.contains { $0.0 <= clock }
    }

    /// Playing song `id`, `seconds` into it.
    func play(_ id: SongID, at seconds: Double) throws {
        try controller.play(id: id)
        advance(1)
        let (stream, _) = try #require(engine.lastPlay)
        engine.positionValue = PlaybackPosition(
            stream: stream, frames: Int(seconds * 44100),
            format: AudioFormat(sampleRate: 44100, channels: 2), bitrate: 128)
        engine.calls = []
        changes = []
        events = []
    }

    func playbackChanged(_ subsystems: Subsystems) { changes.append(subsystems) }
    func playbackEvent(_ subsystems: Subsystems, reason: EventReason) { events.append((subsystems, reason)) }
    func playbackSeeked(to seconds: Double) { seeks.append(seconds) }
}

@Suite struct VerbsTests {
    @Test func previousGoesBackEarlyInASongAndRestartsItLater() throws {
        let early = PlaybackBench()
        try early.play(2, at: 1)
        try early.controller.previous()
        early.advance(1)
        #expect(early.controller.currentID == 1)
        #expect(early.events.first?.1 == .user)

        let later = PlaybackBench()
        try later.play(2, at: 5)
        try later.controller.previous()
        later.advance(1)
        #expect(later.controller.currentID == 2, "past previousRestartSeconds (3): the song again")
        #expect(later.engine.calls.contains { if case .play = $0 { true } else { false } })
        later.controller.previousRestartSeconds = 0
        try later.play(2, at: 5)
        try later.controller.previous()
        later.advance(1)
        #expect(later.controller.currentID == 1, "0: always the song before, as mpd")
    }

    @Test func skippingWhileStoppedIsRefused() {
        let b = PlaybackBench()
        #expect(throws: ProtocolError(.playerSync, "Not playing")) { try b.controller.next() }
        #expect(throws: ProtocolError(.playerSync, "Not playing")) { try b.controller.previous() }
        #expect(throws: ProtocolError(.playerSync, "Not playing")) { try b.controller.seekCurrent(by: 5) }
        #expect(b.engine.calls.isEmpty)
    }

    @Test func aRelativeSeekStopsAtTheStartAndIsToldToListeners() throws {
        let b = PlaybackBench()
        try b.play(2, at: 5)
        try b.controller.seekCurrent(by: -2)
        #expect(b.engine.calls.contains(.range(3, nil)))
        #expect(b.seeks == [3])
        try b.controller.seekCurrent(by: -60)
        #expect(b.seeks == [3, 0], "before the start is the start")
        #expect(b.controller.currentID == 2)
    }

    @Test func pastTheEndARelativeSeekIsRefusedOrGoesOn() throws {
        let b = PlaybackBench()
        try b.play(2, at: 5)
        #expect(throws: ProtocolError(.argument, "Seek position beyond the end of the song")) {
            try b.controller.seekCurrent(by: 40)
        }
        #expect(b.controller.currentID == 2)
        try b.controller.seekCurrent(by: 40, pastEnd: .next)
        b.advance(1)
        #expect(b.controller.currentID == 3, "MPRIS: past the end is Next")
        #expect(b.seeks == [])
    }

    @Test func theCrossfadeIsBoundedWhereItIsSet() throws {
        let b = PlaybackBench()
        #expect(throws: ProtocolError(.argument, "Crossfade too long: at most 10 s for 30-second previews")) {
            try b.controller.setCrossfade(11)
        }
        #expect(b.controller.crossfadeSeconds == 0)
        #expect(b.changes.isEmpty)
        try b.controller.setCrossfade(3)
        #expect(b.controller.crossfadeSeconds == 3)
        #expect(b.changes == [.options])
    }

    @Test func theVolumeMovesWithinItsBounds() {
        let b = PlaybackBench()
        b.controller.setVolume(80)
        b.controller.changeVolume(by: 30)
        #expect(b.controller.volume == 100)
        b.controller.changeVolume(by: -150)
        #expect(b.controller.volume == 0)
        #expect(b.engine.calls.suffix(2) == [.volume(100), .volume(0)])
        #expect(b.changes == [.mixer, .mixer, .mixer])
    }

    @Test func loopStatusSetsRepeatAndSingleInOneChange() {
        let b = PlaybackBench()
        b.controller.setLoop(repeat: true, single: .on)
        #expect(b.controller.modes.repeat && b.controller.modes.single == .on)
        #expect(b.changes == [.options])
    }
}
