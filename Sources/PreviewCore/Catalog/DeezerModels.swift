/// Shapes of the public Deezer API's JSON bodies, as far as previewd reads
/// them. Every field a region-limited or old response may lack is optional.
/// Decoding happens in the server target (JSONDecoder); these are plain data.

/// `{"error":{"type","message","code"}}`, sent with HTTP 200. `code` may be missing.
public struct DeezerErrorEnvelope: Decodable, Sendable {
    /// The error object.
    public struct Body: Decodable, Sendable {
        public var type: String?
        public var message: String?
        public var code: Int?
    }
    public var error: Body
}

/// An artist as embedded in track and album objects.
public struct DeezerArtistRef: Decodable, Sendable, Equatable {
    public var id: Int?
    public var name: String?
}

/// An album as embedded in track objects.
public struct DeezerAlbumRef: Decodable, Sendable, Equatable {
    public var id: Int?
    public var title: String?
    /// 500x500 cover image URL.
    public var cover_big: String?
    /// 1000x1000 cover image URL.
    public var cover_xl: String?
    /// `YYYY-MM-DD` (in `/track/ID` bodies; listings leave it out).
    public var release_date: String?
}

/// A track object (`/track/ID`, and the items of every track list).
public struct DeezerTrack: Decodable, Sendable, Equatable {
    public var id: Int
    public var title: String?
    /// Full track length in seconds (the preview is at most 30 s of it).
    public var duration: Int?
    /// Signed preview MP3 URL; `""` when the track has none.
    public var preview: String?
    /// False when the track cannot be played in the caller's country.
    public var readable: Bool?
    public var artist: DeezerArtistRef?
    public var album: DeezerAlbumRef?
    public var isrc: String?
    public var rank: Int?
    public var bpm: Double?
    /// Deezer's own date for the track; `1900-01-01` on many, so the
    /// `Date` tag comes from the album.
    public var release_date: String?
    /// The position on its disc (`/track/ID` and album track lists only).
    public var track_position: Int?
    /// The disc number (`/track/ID` and album track lists only).
    public var disk_number: Int?
    /// Undocumented; believed to be the track's loudness in dB (`/track/ID`
    /// only). See `ReplayGain.deezer`.
    public var gain: Double?

    public init(
        id: Int, title: String? = nil, duration: Int? = nil, preview: String? = nil, readable: Bool? = nil,
        artist: DeezerArtistRef? = nil, album: DeezerAlbumRef? = nil
    ) {
        self.id = id
        self.title = title
        self.duration = duration
        self.preview = preview
        self.readable = readable
        self.artist = artist
        self.album = album
    }
}

/// A paged list: `{"data":[...],"total":N,"next":URL}`.
public struct DeezerPage<Item: Decodable & Sendable>: Decodable, Sendable {
    /// The page's entries, at most `maxEntries` (more are dropped as it is
    /// read: previewd asks for 100 at most, and a catalog that sent half a
    /// million on one page once queued them all).
    public var data: [Item]
    public var total: Int?
    public var next: String?

    /// Entries one page keeps at most.
    public static var maxEntries: Int { 2000 }

    private enum Keys: String, CodingKey { case data, total, next }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        var entries = try c.nestedUnkeyedContainer(forKey: .data)
        var data: [Item] = []
        while !entries.isAtEnd, data.count < Self.maxEntries { data.append(try entries.decode(Item.self)) }
        self.data = data
        total = try c.decodeIfPresent(Int.self, forKey: .total)
        next = try c.decodeIfPresent(String.self, forKey: .next)
    }
}

/// An album object (`/album/ID`, and the items of album lists).
public struct DeezerAlbum: Decodable, Sendable {
    public var id: Int
    public var title: String?
    public var artist: DeezerArtistRef?
    public var nb_tracks: Int?
    public var cover_big: String?
    public var cover_xl: String?
    /// `YYYY-MM-DD`.
    public var release_date: String?
    public var label: String?
    public var fans: Int?
    /// Total length in seconds.
    public var duration: Int?
    /// `album`, `single`, `ep`, `compile`.
    public var record_type: String?
    /// `{"data":[{id,name}]}`.
    public var genres: DeezerPage<DeezerGenre>?
    /// The album's main genre (`/chart/GENRE` is its chart); 0 or -1 when none.
    public var genre_id: Int?

    /// The tags the album gives each of its tracks.
    public var tags: AlbumTags {
        AlbumTags(
            id: id, artist: artist?.name, date: release_date,
            genres: Array((genres?.data.compactMap(\.name) ?? []).prefix(Self.maxGenres)),
            label: label, trackCount: nb_tracks, complete: true)
    }

    /// Genres an album's songs carry at most: every song of the album holds
    /// its album's tags (in its queue row too), and a catalog once sent
    /// 15,000 of 1 KiB, which made one `add` write 3 GB.
    public static let maxGenres = 8
}

/// An artist object (`/artist/ID`, and the items of artist lists).
public struct DeezerArtist: Decodable, Sendable {
    public var id: Int
    public var name: String?
    public var nb_album: Int?
    public var nb_fan: Int?
    /// 500x500 picture URL (the artist's cover).
    public var picture_big: String?
}

/// A playlist's creator.
public struct DeezerUserRef: Decodable, Sendable {
    public var id: Int?
    public var name: String?
}

/// A playlist object (`/playlist/ID`, and the items of playlist lists).
public struct DeezerPlaylist: Decodable, Sendable {
    public var id: Int
    public var title: String?
    public var nb_tracks: Int?
    public var fans: Int?
    public var duration: Int?
    public var creator: DeezerUserRef?
    public var user: DeezerUserRef?
    /// 500x500 picture URL (the playlist's cover).
    public var picture_big: String?
}

/// A genre (`/genre`).
public struct DeezerGenre: Decodable, Sendable {
    public var id: Int
    public var name: String?
}

/// `/chart`: the top lists of every kind.
public struct DeezerChart: Decodable, Sendable {
    public var tracks: DeezerPage<DeezerTrack>?
    public var albums: DeezerPage<DeezerAlbum>?
    public var artists: DeezerPage<DeezerArtist>?
    public var playlists: DeezerPage<DeezerPlaylist>?
}

/// Length of a Deezer preview, in seconds.
public let previewLengthSeconds = 30.0

extension DeezerTrack {
    /// Bytes of UTF-8 in the track's text (title, artist, album, URLs,
    /// codes): what a list of tracks is bounded by besides its count.
    public var textBytes: Int {
        [title, preview, isrc, release_date, artist?.name, album?.title, album?.cover_big, album?.cover_xl, album?.release_date]
            .reduce(0) { $0 + ($1?.utf8.count ?? 0) }
    }

    /// The queue entry for this track.
    /// - Parameters:
    ///   - albumTitle: the album tag when the track object has none (album
    ///     track lists omit it).
    ///   - albumTags: the album's tags when known (an album's own listing);
    ///     else the little the track's album reference tells.
    public func song(albumTitle: String? = nil, albumTags: AlbumTags? = nil) -> Song {
        var song = Song(
            uri: "deezer:track:\(id)",
            title: title,
            artist: artist?.name,
            album: album?.title ?? albumTitle,
            // A negative length is no length: the preview's own.
            duration: duration.map { $0 >= 0 ? min(Double($0), previewLengthSeconds) : previewLengthSeconds }
                ?? previewLengthSeconds)
        song.track = track_position.flatMap(UInt16.init(exactly:)).flatMap { $0 > 0 ? $0 : nil }
        song.disc = disk_number.flatMap(UInt16.init(exactly:)).flatMap { $0 > 0 ? $0 : nil }
        if let albumTags {
            song.albumTags = albumTags
        } else if let ref = album, ref.id != nil || ref.release_date != nil {
            song.albumTags = AlbumTags(id: ref.id, date: ref.release_date, complete: false)
        }
        song.unplayable = unplayableReason
        return song
    }

    /// Why this track cannot play, or nil when it can: no preview, or not
    /// readable where the caller is.
    public var unplayableReason: String? {
        guard let preview, !preview.isEmpty else { return "deezer:track:\(id) has no preview" }
        if readable == false { return "deezer:track:\(id) is not available in this country" }
        return nil
    }
}

/// A radio (`/radio`, `/search/radio`): a mix Deezer keeps playing.
public struct DeezerRadio: Decodable, Sendable {
    public var id: Int
    public var title: String?
    /// 500x500 picture URL (the radio's cover).
    public var picture_big: String?
}
