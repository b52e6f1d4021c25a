/// MPD's tag types (`tagtypes`, `list TAG`, `find TAG VALUE`), in the order
/// mpd 0.23 lists them. previewd fills the ones Deezer has data for
/// (`advertised`); the others are accepted wherever mpd accepts them and
/// have no values, except those a client adds with `addtagid`.
public enum TagType: Int, CaseIterable, Sendable {
    case artist, artistSort, album, albumSort, albumArtist, albumArtistSort, title, track, name, genre, date,
        originalDate, composer, composerSort, performer, conductor, work, movement, movementNumber, ensemble,
        location, grouping, comment, disc, label, musicBrainzArtistID, musicBrainzAlbumID, musicBrainzAlbumArtistID,
        musicBrainzTrackID, musicBrainzReleaseTrackID, musicBrainzWorkID

    /// The name as mpd spells it in replies (`AlbumArtist`, `MUSICBRAINZ_TRACKID`).
    public var mpdName: String { TagType.names[rawValue] }

    private static let names = [
        "Artist", "ArtistSort", "Album", "AlbumSort", "AlbumArtist", "AlbumArtistSort", "Title", "Track", "Name",
        "Genre", "Date", "OriginalDate", "Composer", "ComposerSort", "Performer", "Conductor", "Work", "Movement",
        "MovementNumber", "Ensemble", "Location", "Grouping", "Comment", "Disc", "Label", "MUSICBRAINZ_ARTISTID",
        "MUSICBRAINZ_ALBUMID", "MUSICBRAINZ_ALBUMARTISTID", "MUSICBRAINZ_TRACKID", "MUSICBRAINZ_RELEASETRACKID",
        "MUSICBRAINZ_WORKID",
    ]
    private static let byLowercasedName = Dictionary(uniqueKeysWithValues: allCases.map { ($0.mpdName.lowercased(), $0) })

    /// The tag named `name`, in any letter case (as mpd parses them); nil for
    /// an unknown name.
    public init?(name: String) {
        guard let tag = TagType.byLowercasedName[name.lowercased()] else { return nil }
        self = tag
    }

    /// The tags previewd has values for, in mpd's order: what `tagtypes` lists.
    public static let advertised: [TagType] = [.artist, .album, .albumArtist, .title, .track, .genre, .date, .disc, .label]

    /// The tag mpd reads instead when a song lacks this one (its
    /// `ApplyTagFallback`): AlbumArtist and ArtistSort fall back to Artist,
    /// AlbumArtistSort to AlbumArtist, AlbumSort to Album.
    public var fallback: TagType? {
        switch self {
        case .albumArtistSort: return .albumArtist
        case .albumArtist, .artistSort: return .artist
        case .albumSort: return .album
        case .composerSort: return .composer
        default: return nil
        }
    }
}

/// What the tracks of one album share: the tags Deezer gives on the album
/// (`/album/ID`) rather than on each track. One instance is shared by every
/// song of the album, so the queue holds these strings once per album.
public final class AlbumTags: Sendable, Codable, Equatable {
    /// Deezer's album id, when known (songs `base deezer:album:ID` finds).
    public let id: Int?
    /// `AlbumArtist`: the album's main artist.
    public let artist: String?
    /// `Date`: the album's release date, `YYYY-MM-DD`.
    public let date: String?
    /// `Genre`: one value per genre, in Deezer's order.
    public let genres: [String]
    /// `Label`.
    public let label: String?
    /// How many tracks the album has (Deezer's `nb_tracks`), when known:
    /// `album` replay gain waits until that many are measured.
    public let trackCount: Int?
    /// True when these came from the album's own body (`/album/ID`); false
    /// when only a listing's album reference was seen, so the rest is still
    /// to be looked up.
    public let complete: Bool

    /// - Parameters: as the properties.
    public init(
        id: Int?, artist: String? = nil, date: String? = nil, genres: [String] = [], label: String? = nil,
        trackCount: Int? = nil, complete: Bool
    ) {
        self.id = id
        self.artist = artist
        self.date = date
        self.genres = genres
        self.label = label
        self.trackCount = trackCount
        self.complete = complete
    }

    public static func == (a: AlbumTags, b: AlbumTags) -> Bool {
        a === b
            || (a.id == b.id && a.artist == b.artist && a.date == b.date && a.genres == b.genres
                && a.label == b.label && a.trackCount == b.trackCount
                && a.complete == b.complete)
    }
}

extension Song {
    /// The song's own values of `tag` (no fallback): its Deezer tags, then
    /// any added with `addtagid`.
    public func values(of tag: TagType) -> [String] {
        var own: [String]
        switch tag {
        case .artist: own = artist.map { [$0] } ?? []
        case .album: own = album.map { [$0] } ?? []
        case .title: own = title.map { [$0] } ?? []
        case .track: own = track.map { [String($0)] } ?? []
        case .disc: own = disc.map { [String($0)] } ?? []
        case .albumArtist: own = albumTags?.artist.map { [$0] } ?? []
        case .date: own = albumTags?.date.map { [$0] } ?? []
        case .genre: own = albumTags?.genres ?? []
        case .label: own = albumTags?.label.map { [$0] } ?? []
        default: own = []
        }
        if !addedTags.isEmpty {
            let name = tag.mpdName
            own += addedTags.lazy.filter { $0.name == name }.map(\.value)
        }
        return own
    }

    /// The values of `tag`, or of its fallback (and the fallback's) when the
    /// song has none: what `list` and `find` compare, as mpd does.
    public func values(of tag: TagType, fallback: Bool) -> [String] {
        var tag = tag
        while true {
            let found = values(of: tag)
            guard found.isEmpty, fallback, let next = tag.fallback else { return found }
            tag = next
        }
    }

    /// Drops the catalog's values of `tag` (Track, Disc and the album's
    /// tags), as `cleartagid` does; the album's other songs keep theirs.
    public mutating func clearCatalogValues(of tag: TagType) {
        switch tag {
        case .track: track = nil
        case .disc: disc = nil
        case .albumArtist, .date, .genre, .label:
            guard let a = albumTags else { return }
            albumTags = AlbumTags(
                id: a.id, artist: tag == .albumArtist ? nil : a.artist, date: tag == .date ? nil : a.date,
                genres: tag == .genre ? [] : a.genres, label: tag == .label ? nil : a.label,
                trackCount: a.trackCount, complete: a.complete)
        default: return
        }
    }

    /// Whether the song lies under `base`, as MPD's `base` filter asks of a
    /// directory: its own URI, a URI under `base/`, or the tracks of the
    /// Deezer album `base` names.
    public func isInside(base: String) -> Bool {
        if uri == base { return true }
        let trimmed = base.hasSuffix("/") ? String(base.dropLast()) : base
        if uri == trimmed || uri.hasPrefix(trimmed + "/") || trimmed.isEmpty { return true }
        if let id = albumTags?.id, trimmed == "deezer:album:\(id)" { return true }
        return false
    }
}
