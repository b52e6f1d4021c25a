import PreviewCore
import Glibc
import PreviewPlatform
import PreviewTestSupport
import Testing
@testable import PreviewServer
@testable import PreviewPlayback
@testable import PreviewStorage

/// Replay gain as the controller drives it: measurements asked of the
/// engine, kept, and the gain handed to the next play of the song.
@Suite struct LoudnessTests {
    static let loud = Loudness(integrated: -9.5, peak: 0.84, seconds: 30)

    /// Track mode, "Harder, Better, Faster, Stronger" (not measured) queued
    /// and played: the plan the engine got and the stream's id.
    func coldPlay(_ h: Harness, _ c: ClientSession) throws -> (GainPlan, StreamID) {
        #expect(h.send(c, "replay_gain_mode track\n") == "OK\n")
        #expect(h.send(c, "add deezer:track:3135556\n") == "OK\n")
        #expect(h.send(c, "play\n") == "OK\n")
        let plan = try #require(h.engine.infos.last?.measure)
        let id = try #require(h.engine.calls.compactMap { if case .play(let id, _) = $0 { id } else { nil } }.last)
        return (plan, id)
    }

    @Test func anUnmeasuredSongIsMeasuredByTheEngineBeforeItsFirstSample() throws {
        let h = Harness()
        let c = h.connect()
        // Not measured yet: the engine gets a plan, with Deezer's recorded
        // gain (-12.4, from the /track body `add` read) as its fallback.
        let (plan, id) = try coldPlay(h, c)
        #expect(plan.key == "deezer:track:3135556" && plan.mode == .track && plan.deezerGain == -12.4)
        #expect(plan.resolve(nil) == ReplayGain(decibels: -5.6, source: .deezer))
        #expect(plan.resolve(Self.loud) == ReplayGain(decibels: -8.5, source: .track))
        #expect(h.engine.measured == [], "no second decode is asked for")
        // The engine reports what it measured, then the gain it chose, before the first sample.
        h.controller.handle(.loudnessMeasured(key: "deezer:track:3135556", Self.loud))
        h.controller.handle(.gainChosen(id, plan.resolve(Self.loud)))
        #expect(h.send(c, "replay_gain_status\n") == "replay_gain_mode: track\nreplay_gain_db: -8.50\nreplay_gain_source: track\nOK\n")
        // Measured now: the next play gets the gain itself, and no plan.
        #expect(h.send(c, "play 0\n") == "OK\n")
        #expect(h.engine.infos.last?.measure == nil)
        let gain = try #require(h.engine.infos.last?.gain)
        #expect(abs(gain - pow(10, -8.5 / 20)) < 1e-9)
        #expect(h.send(c, "replay_gain_status\n") == "replay_gain_mode: track\nreplay_gain_db: -8.50\nreplay_gain_source: track\nOK\n")
        #expect(h.send(c, "replay_gain_mode off\n") == "OK\n")
        #expect(h.send(c, "play 0\n") == "OK\n")
        #expect(h.engine.infos.last?.gain == 1 && h.engine.infos.last?.measure == nil)
        #expect(h.send(c, "replay_gain_status\n") == "replay_gain_mode: off\nOK\n")
    }

    @Test func aSongNotHeldIsStillMeasuredForNextTime() throws {
        let h = Harness()
        let c = h.connect()
        // Past the wait's bound the engine chose the fallback: the body is measured once whole.
        let (plan, id) = try coldPlay(h, c)
        h.controller.handle(.gainChosen(id, plan.resolve(nil)))
        #expect(h.engine.measured == ["deezer:track:3135556"])
        #expect(h.send(c, "replay_gain_status\n") == "replay_gain_mode: track\nreplay_gain_db: -5.60\nreplay_gain_source: deezer\nOK\n")
        // Held once a run: the next play gets the fallback itself, and no second request.
        #expect(h.send(c, "play 0\n") == "OK\n")
        #expect(h.engine.infos.last?.measure == nil && h.engine.measured == ["deezer:track:3135556"])
        // With crossfade on a song is held too (a fade takes its held PCM along).
        #expect(h.send(c, "add deezer:track:3135553\n") == "OK\n")
        #expect(h.send(c, "crossfade 3\n") == "OK\n")
        #expect(h.send(c, "play 1\n") == "OK\n")
        #expect(h.engine.infos.last?.measure?.key == "deezer:track:3135553")
        #expect(h.engine.measured == ["deezer:track:3135556"], "no second decode")
    }

    @Test func aSilentSongIsNotMeasuredAgain() throws {
        let h = Harness()
        let c = h.connect()
        let (plan, id) = try coldPlay(h, c)
        let silent = Loudness(integrated: -.infinity, peak: 0, seconds: 30)
        h.controller.handle(.loudnessMeasured(key: "deezer:track:3135556", silent))
        h.controller.handle(.gainChosen(id, plan.resolve(silent)))
        #expect(plan.resolve(silent).source == .deezer)
        #expect(h.engine.measured == [], "the analyzer would find the same silence")
        #expect(h.send(c, "play 0\n") == "OK\n")
        #expect(h.engine.infos.last?.measure == nil, "held once a run")
    }

    @Test func theTrackThatCompletesAnAlbumGetsTheAlbumsGain() {
        let peer = Loudness(integrated: -19.5, peak: 0.5, seconds: 30)
        let plan = GainPlan(key: "deezer:track:2", mode: .album, random: false, preamp: 0, albumPeers: [peer], albumTrackCount: 2)
        let album = Loudness.album([peer, Self.loud])!
        #expect(plan.resolve(Self.loud) == ReplayGain.measured(album, preamp: 0, source: .album))
        var short = plan
        short.albumTrackCount = 3
        #expect(short.resolve(Self.loud).source == .track, "a track short of the album: the track's own")
        #expect(short.resolve(nil) == .none)
        var random = plan
        random.mode = .auto
        random.random = true
        #expect(random.resolve(Self.loud).source == .track, "auto in random mode is track mode")
    }

    @Test func measurementsSurviveARestartOfTheStore() throws {
        var template = Array("/tmp/previewd-loudness-XXXXXX".utf8CString)
        let dir = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
        defer { unlink(dir + "/loudness.sqlite"); rmdir(dir) }
        let path = dir + "/loudness.sqlite"
        let log = Log(level: .error)
        let book = LoudnessBook(store: try LoudnessStore(path: path), log: log)
        book.record("deezer:track:1", album: 7, Self.loud)
        book.record("deezer:track:2", album: 7, Loudness(integrated: -.infinity, peak: 0, seconds: 30))
        let again = LoudnessBook(store: try LoudnessStore(path: path), log: log)
        #expect(again.loudness(of: "deezer:track:1") == Self.loud)
        #expect(again.loudness(of: "deezer:track:2") == nil, "silence is not kept")
    }

    @Test func albumModeWaitsForEveryTrackOfTheAlbum() {
        let book = LoudnessBook(store: nil, log: Log(level: .error))
        book.mode = .album
        let tags = AlbumTags(id: 7, trackCount: 2, complete: true)
        var song = Song(uri: "deezer:track:1")
        song.albumTags = tags
        book.record("deezer:track:1", album: 7, Self.loud)
        #expect(book.gain(for: song, random: false).source == .track)
        book.record("deezer:track:2", album: 7, Loudness(integrated: -19.5, peak: 0.5, seconds: 30))
        let gain = book.gain(for: song, random: false)
        #expect(gain.source == .album)
        #expect(
            abs(gain.decibels - (-18 - Loudness.album([Self.loud, Loudness(integrated: -19.5, peak: 0.5, seconds: 30)])!.integrated)) < 1e-9
        )
    }
}

/// What the engine is told of each stream, for the sound server's stream name.
@Suite struct StreamInfoTests {
    @Test func eachPlayNamesTheSongAsArtistAndTitle() throws {
        let h = Harness()
        let c = h.connect()
        #expect(h.send(c, "add deezer:track:3135556\n") == "OK\n")
        #expect(h.send(c, "add http://cdn.test/plain.mp3\n") == "OK\n")
        #expect(h.send(c, "play 0\n") == "OK\n")
        let info = try #require(h.engine.infos.last)
        #expect(info.mediaName == "Daft Punk – Harder, Better, Faster, Stronger")
        #expect(info.gain == 1, "replay gain is off")
        #expect(h.send(c, "play 1\n") == "OK\n")
        #expect(h.engine.infos.last?.mediaName == nil, "a plain URL has no tags: the output keeps its own name")
    }

    @Test func theNameFallsBackToWhatIsKnown() {
        #expect(StreamInfo(artist: "A", title: nil).mediaName == "A")
        #expect(StreamInfo(artist: "", title: "T").mediaName == "T")
        #expect(StreamInfo().mediaName == nil)
    }
}
