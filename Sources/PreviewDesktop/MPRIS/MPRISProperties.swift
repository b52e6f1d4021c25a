import PreviewCore
import PreviewDBus

/// The MPRIS D-Bus Interface Specification 2.2 as previewd fills it in:
/// names, and the pure mapping from the player's state to property values
/// and back (unit-tested; `MPRISAdapter` does the talking).
enum MPRIS {
    /// The well-known name: fixed, one previewd per session bus.
    static let busName = "org.mpris.MediaPlayer2.previewd"
    static let objectPath = "/org/mpris/MediaPlayer2"
    static let rootInterface = "org.mpris.MediaPlayer2"
    static let playerInterface = "org.mpris.MediaPlayer2.Player"
    static let propertiesInterface = "org.freedesktop.DBus.Properties"
    static let introspectableInterface = "org.freedesktop.DBus.Introspectable"
    /// The spec's track id for "no track" (Metadata while the queue has no current song).
    static let noTrack = "/org/mpris/MediaPlayer2/TrackList/NoTrack"
    /// Track ids are object paths under this one, ending in the song id.
    static let trackPrefix = "/org/mpris/MediaPlayer2/previewd/song/"

    /// `org.mpris.MediaPlayer2`'s properties: constant, as previewd has no
    /// window to raise, is not to be quit from a desktop widget, and
    /// keeps no MPRIS track list (the queue is the MPD protocol's).
    static let rootProperties: [DBusEntry] = [
        DBusEntry("CanQuit", .boolean(false)),
        DBusEntry("CanRaise", .boolean(false)),
        DBusEntry("HasTrackList", .boolean(false)),
        DBusEntry("Identity", .string("previewd")),
        DBusEntry("DesktopEntry", .string("previewd")),
        DBusEntry("SupportedUriSchemes", .strings(["deezer", "https"])),
        DBusEntry("SupportedMimeTypes", .strings(["audio/mpeg"])),
    ]

    /// The track id of song `id`: `/org/mpris/MediaPlayer2/previewd/song/ID`.
    static func trackID(_ id: SongID) -> String { trackPrefix + String(id) }

    /// The song id in a track id made by `trackID`, else nil.
    static func songID(trackID: String) -> SongID? {
        guard trackID.hasPrefix(trackPrefix) else { return nil }
        return SongID(trackID.dropFirst(trackPrefix.count))
    }

    /// `PlaybackStatus`: `Playing`, `Paused` or `Stopped`.
    static func playbackStatus(_ state: PlaybackState) -> String {
        switch state {
        case .play: return "Playing"
        case .pause: return "Paused"
        case .stop: return "Stopped"
        }
    }

    /// `LoopStatus`: `Track` for repeat with single on (the song again and
    /// again), `Playlist` for repeat alone, `None` otherwise (single
    /// without repeat stops after the song; oneshot repeats nothing).
    static func loopStatus(_ modes: PlaybackModes) -> String {
        guard modes.repeat else { return "None" }
        return modes.single == .on ? "Track" : "Playlist"
    }

    /// The repeat and single modes a `LoopStatus` value sets, or nil for
    /// a value the spec does not name.
    static func modes(loopStatus: String) -> (repeat: Bool, single: SingleMode)? {
        switch loopStatus {
        case "None": return (false, .off)
        case "Track": return (true, .on)
        case "Playlist": return (true, .off)
        default: return nil
        }
    }

    /// `Volume` (0.0 to 1.0) for `setvol`'s percent.
    static func volume(percent: Int) -> Double { Double(max(0, min(100, percent))) / 100 }

    /// `setvol`'s percent for a `Volume`: clamped to 0...100 % (the spec
    /// says values below 0 mean 0; previewd does not amplify past 100 %),
    /// nil for NaN.
    static func percent(volume: Double) -> Int? {
        guard !volume.isNaN else { return nil }
        return Int((max(0, min(1, volume)) * 100).rounded())
    }

    /// Seconds as MPRIS's microseconds (rounded; clamped to Int64).
    static func microseconds(_ seconds: Double) -> Int64 {
        guard seconds.isFinite else { return 0 }
        return Int64(clamping: Int((seconds * 1_000_000).rounded()))
    }

    /// `Metadata` for the current song (the spec's "Metadata" section with
    /// the xesam fields), or only the NoTrack id when there is none. The
    /// length is the whole song's, as `Position` counts from its start
    /// (a `rangeid` part included). The cover is the Deezer API's
    /// `/album/ID/image` under `apiBase`, which redirects to the album's
    /// picture: a URL made from the album id, so no song carries one.
    static func metadata(_ entry: QueuedSong?, apiBase: String? = nil) -> [DBusEntry] {
        guard let entry else { return [DBusEntry("mpris:trackid", .objectPath(noTrack))] }
        let song = entry.song
        var fields = [DBusEntry("mpris:trackid", .objectPath(trackID(entry.id)))]
        if let length = song.duration { fields.append(DBusEntry("mpris:length", .int64(microseconds(length)))) }
        if let apiBase, let album = song.albumTags?.id {
            fields.append(DBusEntry("mpris:artUrl", .string("\(apiBase)/album/\(album)/image")))
        }
        if let title = song.title { fields.append(DBusEntry("xesam:title", .string(title))) }
        if let artist = song.artist { fields.append(DBusEntry("xesam:artist", .strings([artist]))) }
        if let album = song.album { fields.append(DBusEntry("xesam:album", .string(album))) }
        if let albumArtist = song.albumTags?.artist {
            fields.append(DBusEntry("xesam:albumArtist", .strings([albumArtist])))
        }
        if let track = song.track { fields.append(DBusEntry("xesam:trackNumber", .int32(Int32(track)))) }
        if let disc = song.disc { fields.append(DBusEntry("xesam:discNumber", .int32(Int32(disc)))) }
        fields.append(DBusEntry("xesam:url", .string(song.uri)))
        return fields
    }

    /// What the `org.mpris.MediaPlayer2.Player` properties are made from.
    struct PlayerInput: Equatable {
        var state: PlaybackState
        var modes: PlaybackModes
        var volumePercent: Int
        /// The current song, when there is one (also while stopped).
        var current: QueuedSong?
        var queueIsEmpty: Bool
        /// The Deezer API base the covers' URLs are made under.
        var apiBase: String? = nil
    }

    /// Every Player property but `Position`, which changes all the time and
    /// is read on demand (the spec has clients extrapolate it, and `Seeked`
    /// tells of jumps).
    static func playerProperties(_ p: PlayerInput) -> [DBusEntry] {
        let active = p.state != .stop && p.current != nil
        return [
            DBusEntry("PlaybackStatus", .string(playbackStatus(p.state))),
            DBusEntry("LoopStatus", .string(loopStatus(p.modes))),
            DBusEntry("Rate", .double(1)),
            DBusEntry("Shuffle", .boolean(p.modes.random)),
            DBusEntry("Metadata", .dictionary(metadata(p.current, apiBase: p.apiBase))),
            DBusEntry("Volume", .double(volume(percent: p.volumePercent))),
            DBusEntry("MinimumRate", .double(1)),
            DBusEntry("MaximumRate", .double(1)),
            // `next`/`previous` refuse while stopped ("Not playing").
            DBusEntry("CanGoNext", .boolean(active)),
            DBusEntry("CanGoPrevious", .boolean(active)),
            DBusEntry("CanPlay", .boolean(!p.queueIsEmpty)),
            DBusEntry("CanPause", .boolean(!p.queueIsEmpty)),
            DBusEntry("CanSeek", .boolean(active)),
            DBusEntry("CanControl", .boolean(true)),
        ]
    }

    /// The entries of `new` whose value differs from `old`'s (all of them
    /// when `old` is empty): what a `PropertiesChanged` signal carries.
    static func changes(from old: [DBusEntry], to new: [DBusEntry]) -> [DBusEntry] {
        new.filter { entry in old.first(where: { $0.key == entry.key })?.value != entry.value }
    }
}
