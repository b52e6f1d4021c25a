/// A stable song id, as MPD's `Id` / `songid`: unique within the daemon's
/// life, never reused, unaffected by moves.
public typealias SongID = UInt32

/// What the queue knows of a song: where to get it and the tags to show.
public struct Song: Equatable, Sendable {
    /// The URI the client added: `deezer:track:ID` or an `http(s)://` URL.
    public var uri: String
    /// `Title` tag, when known.
    public var title: String?
    /// `Artist` tag, when known.
    public var artist: String?
    /// `Album` tag, when known.
    public var album: String?
    /// Length of the audio that will play, in seconds (a preview: at most 30),
    /// when known; replaced by the decoder's exact figure once it has one.
    public var duration: Double?

    /// - Parameters: as the properties.
    public init(uri: String, title: String? = nil, artist: String? = nil,
                album: String? = nil, duration: Double? = nil) {
        self.uri = uri
        self.title = title
        self.artist = artist
        self.album = album
        self.duration = duration
    }
}

/// A song in the queue with its stable id.
public struct QueuedSong: Equatable, Sendable {
    /// The stable id.
    public var id: SongID
    /// The song.
    public var song: Song
    /// MPD's priority (0...255); stored for `prio`, not used for ordering yet.
    public var priority: UInt8 = 0
}
