/// Makes equal values of songs share one storage: the same tag strings
/// and one `AlbumTags` per album, as songs queued from the catalog share
/// them. Songs decoded from a file (the saved queue) each come with copies
/// of their own, which for 100,000 songs of a few albums cost some 370 B a
/// song more than the queue held before the restart.
public struct SongInterning {
    private var strings = Set<String>()
    private var albums: [Int: [AlbumTags]] = [:]
    private var unnumberedAlbums: [AlbumTags] = []

    public init() {}

    /// `songs` with their strings and album tags shared wherever equal.
    public static func shared(_ songs: [QueuedSong]) -> [QueuedSong] {
        var interning = SongInterning()
        return songs.map { entry in
            var entry = entry
            entry.song = interning.share(entry.song)
            return entry
        }
    }

    /// `song` with each string and its album tags replaced by an equal one
    /// met before, when there is one.
    public mutating func share(_ song: Song) -> Song {
        var song = song
        song.uri = share(song.uri)
        song.title = song.title.map { share($0) }
        song.artist = song.artist.map { share($0) }
        song.album = song.album.map { share($0) }
        if let tags = song.albumTags { song.albumTags = share(tags) }
        return song
    }

    private mutating func share(_ text: String) -> String {
        strings.insert(text).memberAfterInsert
    }

    private mutating func share(_ tags: AlbumTags) -> AlbumTags {
        if let id = tags.id {
            if let known = albums[id]?.first(where: { $0 == tags }) { return known }
            albums[id, default: []].append(tags)
        } else {
            if let known = unnumberedAlbums.first(where: { $0 == tags }) { return known }
            // (Rare: a plain URL's song has none; only tags without an id land here.)
            if unnumberedAlbums.count < 64 { unnumberedAlbums.append(tags) }
        }
        return tags
    }
}
