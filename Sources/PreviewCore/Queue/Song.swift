/// A stable song id, as MPD's `Id` / `songid`: unique within the daemon's
/// life, never reused, unaffected by moves.
public typealias SongID = UInt32

/// What the queue knows of a song: where to get it and the tags to show.
public struct Song: Equatable, Sendable, Codable {
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
    /// Further values added with `addtagid` (MPD tags are multi-valued),
    /// listed after the song's own tags.
    public var addedTags: [TagValue] = []
    /// The most bytes `addedTags` may hold in all (`addedTagBytes`): each
    /// `addtagid` line is within 64 KiB, but a client could send lines
    /// without end (2,000 of 8 KiB once grew the daemon by 49 MiB).
    public static let maxAddedTagBytes = 65536
    /// What one added value costs beside its bytes: its name and a fixed
    /// `tagOverheadBytes`, so that empty values are bounded too.
    public static let tagOverheadBytes = 16
    /// Bytes counted against `maxAddedTagBytes`: each added value's UTF-8
    /// bytes, its tag name's and `tagOverheadBytes`.
    public var addedTagBytes: Int { addedTags.reduce(0) { $0 + Song.cost(of: $1) } }

    /// What `tag` counts against `maxAddedTagBytes`.
    public static func cost(of tag: TagValue) -> Int {
        tag.value.utf8.count + tag.name.utf8.count + tagOverheadBytes
    }
    /// `Track`: the position on its disc, when known.
    public var track: UInt16?
    /// `Disc`: the disc number, when known.
    public var disc: UInt16?
    /// The album's tags (AlbumArtist, Date, Genre, Label) and Deezer id,
    /// shared with the album's other songs; nil for a plain URL.
    public var albumTags: AlbumTags?
    /// Why the catalog says this song cannot play (shown as `Unplayable:`;
    /// the song is skipped with this reason when reached), or nil.
    public var unplayable: String?

    /// - Parameters: as the properties.
    public init(
        uri: String, title: String? = nil, artist: String? = nil,
        album: String? = nil, duration: Double? = nil
    ) {
        self.uri = uri
        self.title = title
        self.artist = artist
        self.album = album
        self.duration = duration
    }
}

/// A song in the queue with its stable id.
public struct QueuedSong: Equatable, Sendable, Codable {
    /// The stable id.
    public var id: SongID
    /// The song.
    public var song: Song
    /// MPD's priority (0...255): in random mode, higher priorities play first.
    public var priority: UInt8 = 0
    /// The queue version at which this entry was added or last changed
    /// (its data or its position), for `plchanges`.
    public var version: UInt32 = 0
    /// MPD's `rangeid`: the part of the song to play, in seconds
    /// (`start..<end`, end nil for "to the end"); nil for the whole song.
    public var range: SongRange?
    /// The queue version at which this entry was added or its data (not
    /// its position) last changed: what the queue's store rewrites. Not
    /// saved: a restored queue starts with every entry unchanged.
    public var edited: UInt32 = 0

    /// - Parameters: as the properties.
    public init(
        id: SongID, song: Song, priority: UInt8 = 0, version: UInt32 = 0, range: SongRange? = nil,
        edited: UInt32 = 0
    ) {
        self.id = id
        self.song = song
        self.priority = priority
        self.version = version
        self.range = range
        self.edited = edited
    }

    private enum CodingKeys: String, CodingKey {
        case id, song, priority, version, range
    }

    /// Equal entries hold the same song the same way; `edited` is
    /// bookkeeping of the store, which a restored entry starts without.
    public static func == (a: QueuedSong, b: QueuedSong) -> Bool {
        a.id == b.id && a.song == b.song && a.priority == b.priority && a.version == b.version && a.range == b.range
    }
}

/// A part of a song, in seconds, as `rangeid START:END` sets it.
public struct SongRange: Equatable, Sendable, Codable {
    public var start: Double
    public var end: Double?
    public init(start: Double, end: Double?) {
        self.start = start
        self.end = end
    }
}

/// One tag value, by MPD tag name (`Artist`, `Album`, `Title`).
public struct TagValue: Equatable, Sendable, Codable {
    public var name: String
    public var value: String
    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}

extension Song {
    /// Whether `uri` names what previewd plays (`http(s)://` or `deezer:`):
    /// a hand-edited playlist or state file may hold `file://`, `ftp://`
    /// or a bare path, which the queue would take and then fail on with a
    /// misleading error.
    public static func isQueueable(_ uri: String) -> Bool {
        isDirectURL(uri) || uri.prefix(7).lowercased() == "deezer:"
    }

    /// Whether `uri` is a direct stream URL (`http(s)://`, any case).
    public static func isDirectURL(_ uri: String) -> Bool {
        let head = uri.prefix(8).lowercased()
        return head.hasPrefix("http://") || head.hasPrefix("https://")
    }

    /// Whether the song is a direct stream URL (`http(s)://`), not a catalog item.
    public var isDirectURL: Bool { Song.isDirectURL(uri) }

    /// The song's artist and title, as the output names its stream,
    /// whether its body may never end (a direct URL), and for a catalog
    /// preview the bound on its length (`maxPreviewSeconds`).
    public var streamInfo: StreamInfo {
        StreamInfo(artist: artist, title: title, mayBeEndless: isDirectURL, maxSeconds: isDirectURL ? nil : Song.maxPreviewSeconds)
    }

    /// Seconds a catalog preview may play before it fails: Deezer's are
    /// 30 s, and a catalog that sends an endless body would otherwise play
    /// on for as long as its 8 MiB download lasts (minutes).
    public static let maxPreviewSeconds = 60.0
}
