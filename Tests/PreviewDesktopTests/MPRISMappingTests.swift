@testable import PreviewCore
import PreviewDBus
import Testing
@testable import PreviewDesktop

/// MPRIS's pure mapping of the player's state: PlaybackStatus, LoopStatus,
/// Volume, Metadata, and which properties a change announces.
@Suite struct MPRISMappingTests {

    @Test func playbackAndLoopStatus() {
        #expect(MPRIS.playbackStatus(.play) == "Playing")
        #expect(MPRIS.playbackStatus(.pause) == "Paused")
        #expect(MPRIS.playbackStatus(.stop) == "Stopped")
        var modes = PlaybackModes()
        #expect(MPRIS.loopStatus(modes) == "None")
        modes.single = .on
        #expect(MPRIS.loopStatus(modes) == "None", "single without repeat stops after the song")
        modes.repeat = true
        #expect(MPRIS.loopStatus(modes) == "Track")
        modes.single = .oneshot
        #expect(MPRIS.loopStatus(modes) == "Playlist")
        modes.single = .off
        #expect(MPRIS.loopStatus(modes) == "Playlist")
        #expect(MPRIS.modes(loopStatus: "Track")! == (true, .on))
        #expect(MPRIS.modes(loopStatus: "Playlist")! == (true, .off))
        #expect(MPRIS.modes(loopStatus: "None")! == (false, .off))
        #expect(MPRIS.modes(loopStatus: "none") == nil)
    }

    @Test func volumeAndMicroseconds() {
        #expect(MPRIS.volume(percent: 50) == 0.5)
        #expect(MPRIS.percent(volume: 0.5) == 50)
        #expect(MPRIS.percent(volume: 0.333) == 33)
        #expect(MPRIS.percent(volume: -1) == 0)
        #expect(MPRIS.percent(volume: 1.5) == 100)
        #expect(MPRIS.percent(volume: .nan) == nil)
        #expect(MPRIS.microseconds(30.0408) == 30_040_800)
        #expect(MPRIS.microseconds(.infinity) == 0)
        #expect(MPRIS.trackID(7) == "/org/mpris/MediaPlayer2/previewd/song/7")
        #expect(MPRIS.songID(trackID: "/org/mpris/MediaPlayer2/previewd/song/7") == 7)
        #expect(MPRIS.songID(trackID: "/org/mpris/MediaPlayer2/TrackList/NoTrack") == nil)
    }

    @Test func metadataOfACatalogSong() {
        var song = Song(
            uri: "deezer:track:3135556", title: "Harder, Better, Faster, Stronger", artist: "Daft Punk",
            album: "Discovery", duration: 30)
        song.track = 4
        song.albumTags = AlbumTags(id: 302127, artist: "Daft Punk", complete: true)
        let fields = MPRIS.metadata(QueuedSong(id: 3, song: song), apiBase: "https://api.deezer.com")
        #expect(
            fields == [
                DBusEntry("mpris:trackid", .objectPath("/org/mpris/MediaPlayer2/previewd/song/3")),
                DBusEntry("mpris:length", .int64(30_000_000)),
                DBusEntry("mpris:artUrl", .string("https://api.deezer.com/album/302127/image")),
                DBusEntry("xesam:title", .string("Harder, Better, Faster, Stronger")),
                DBusEntry("xesam:artist", .strings(["Daft Punk"])),
                DBusEntry("xesam:album", .string("Discovery")),
                DBusEntry("xesam:albumArtist", .strings(["Daft Punk"])),
                DBusEntry("xesam:trackNumber", .int32(4)),
                DBusEntry("xesam:url", .string("deezer:track:3135556")),
            ])
    }

    @Test func metadataOfAStreamAndOfNoSong() {
        let fields = MPRIS.metadata(QueuedSong(id: 1, song: Song(uri: "https://radio.test/live.mp3")))
        #expect(
            fields == [
                DBusEntry("mpris:trackid", .objectPath(MPRIS.trackID(1))),
                DBusEntry("xesam:url", .string("https://radio.test/live.mp3")),
            ])
        #expect(MPRIS.metadata(nil) == [DBusEntry("mpris:trackid", .objectPath("/org/mpris/MediaPlayer2/TrackList/NoTrack"))])
    }

    @Test func changesCarryOnlyWhatDiffers() {
        let old = [DBusEntry("A", .int32(1)), DBusEntry("B", .string("x"))]
        #expect(MPRIS.changes(from: old, to: old).isEmpty)
        #expect(MPRIS.changes(from: old, to: [DBusEntry("A", .int32(2)), DBusEntry("B", .string("x"))]) == [DBusEntry("A", .int32(2))])
        #expect(MPRIS.changes(from: [], to: old) == old)
    }
}
