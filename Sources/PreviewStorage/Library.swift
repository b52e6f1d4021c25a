import PreviewCore
import PreviewPlatform

/// The user's Library ("Add to Library"): saved albums, tracks and artists,
/// each with the time it was added and the songs it resolved to, so that
/// listing it (`librarylist`, `lsinfo deezer:library`, `listallinfo`,
/// `stats`) needs no catalog request. Saved in `library.sqlite` in the
/// state directory (`LibraryStore`), one row per entry: a change writes
/// its one row in a transaction, so a `kill -9` leaves the Library as it
/// was before or after the change. Everything is read once, at start-up.
///
/// The song list and the totals are derived once per change and kept
/// (`songs`, `summary`): commands read them, not the entries.
package final class Library {
    /// The Library as a directory of MPD's database view (`lsinfo`, `listall`).
    package static let directory = "deezer:library"

    /// One saved item.
    package struct Entry: Codable, Equatable {
        /// `deezer:album:ID`, `deezer:track:ID` or `deezer:artist:ID` (canonical).
        package var uri: String
        /// Unix seconds.
        package var added: Int
        /// The album's title or the artist's name, when the catalog gave one
        /// (nil for a track: its song has the title).
        package var name: String?
        /// The album's artist, when the catalog gave one (albums only).
        package var artist: String?
        /// What the item resolved to: a track's one song, an album's tracks,
        /// none for an artist (an artist is listed by name, not expanded).
        /// Stored as `Song` encodes itself, so tags added to it later are kept.
        package var songs: [Song]
    }

    /// What the catalog gave for one item: the parts of an `Entry` that an
    /// `update` replaces.
    package struct Resolved: Equatable {
        var name: String?
        var artist: String?
        var songs: [Song]

        package init(name: String?, artist: String?, songs: [Song]) {
            self.name = name
            self.artist = artist
            self.songs = songs
        }
    }

    /// `stats`' figures over the Library.
    package struct Summary: Equatable {
        /// Distinct `Artist` values of the songs and names of saved artists.
        package var artists = 0
        /// Distinct `Album` values of the songs.
        package var albums = 0
        /// Distinct song URIs.
        package var songs = 0
        /// Sum of the songs' durations, whole seconds (rounded down).
        package var playtime = 0
    }

    /// Oldest first, as in the database; `entries` shows them newest first.
    private var stored: [Entry] = []
    /// Position in `stored` by URI.
    private var index: [String: Int] = [:]
    private var cachedSongs: [Song]?
    /// Unix seconds each song's entry was added, by song URI (built with `cachedSongs`).
    private var cachedAdded: [String: Int] = [:]
    private var cachedSummary: Summary?
    /// Where changes go, or why the database could not be opened (each
    /// change fails with that then).
    private let store: Result<LibraryStore, StorageError>
    /// URIs `replace` changed in memory, which `finishUpdate` saves.
    private var unsaved: Set<String> = []
    /// Unix seconds of the last change or update (`stats` `db_update`), as
    /// the database recorded it; 0 when there never was one.
    package private(set) var lastChange: Int

    /// Opens and reads `library.sqlite` in `directory` (`LibraryStore.open`:
    /// a damaged file is set aside, a `library.json` imported). A row whose
    /// songs do not decode or whose entry has a `problem` is left out and
    /// reported to `warn` (the next change deletes it); when the database
    /// cannot be opened at all the Library is empty and changes fail.
    /// - Parameter warn: defaults to `log.warning`.
    package init(directory: String, log: Log, warn: ((String) -> Void)? = nil) {
        let opened = LibraryStore.open(directory: directory, log: log, warn: warn ?? log.warning)
        store = opened.store.mapError { .database(path: directory + "/library.sqlite", $0) }
        stored = opened.contents.entries
        lastChange = opened.contents.lastChange ?? 0
        reindex()
    }

    /// Newest first.
    package var entries: ReversedCollection<[Entry]> { stored.reversed() }

    /// Every saved song, newest first, each URI once (where a track and
    /// its album are both saved, at the newer one's place). Built once per
    /// change: `list`, `find`, `search` and `count` may read it per command.
    package var songs: [Song] {
        if let cachedSongs { return cachedSongs }
        var added: [String: Int] = [:]
        var out: [Song] = []
        out.reserveCapacity(stored.count)
        for entry in stored.reversed() {
            for song in entry.songs where added[song.uri] == nil {
                added[song.uri] = entry.added
                out.append(song)
            }
        }
        cachedSongs = out
        cachedAdded = added
        return out
    }

    /// When the Library entry holding the song `uri` was added (the newest
    /// such entry), Unix seconds; nil when no entry holds it.
    package func added(_ uri: String) -> Int? {
        _ = songs
        return cachedAdded[uri]
    }

    /// `stats`' figures, built once per change.
    package var summary: Summary {
        if let cachedSummary { return cachedSummary }
        let all = songs
        var artists = Set(all.compactMap(\.artist))
        for entry in stored where entry.uri.hasPrefix("deezer:artist:") {
            if let name = entry.name { artists.insert(name) }
        }
        let seconds = all.reduce(0.0) { $0 + ($1.duration ?? 0) }
        let summary = Summary(
            artists: artists.count, albums: Set(all.compactMap(\.album)).count, songs: all.count,
            playtime: Int(clamping: seconds, rounding: .down))
        cachedSummary = summary
        return summary
    }

    /// The canonical URI of a Library item, from any form `CatalogURI` reads
    /// (a Deezer link too).
    /// - Throws: `.notLibraryItem` for anything but an album, a track or an artist.
    package static func item(_ text: String) throws(StorageError) -> CatalogURI {
        switch try? CatalogURI(parsing: text) {
        case let uri?:
            switch uri {
            case .album, .track, .artist: return uri
            default: throw .notLibraryItem(text)
            }
        case nil: throw .notLibraryItem(text)
        }
    }

    package func contains(_ uri: String) -> Bool { index[uri] != nil }

    /// Saves `uri` as the newest entry (one row written).
    /// - Returns: false when it was there already (nothing changes).
    /// - Throws: `.encoding` or `.database`; the entry is not kept then.
    package func add(_ uri: String, _ resolved: Resolved, at time: Int) throws(StorageError) -> Bool {
        guard index[uri] == nil else { return false }
        let entry = Entry(uri: uri, added: time, name: resolved.name, artist: resolved.artist, songs: resolved.songs)
        try opened().add(entry, at: time)
        stored.append(entry)
        index[uri] = stored.count - 1
        changed(at: time)
        return true
    }

    /// Removes `uri` (one row deleted).
    /// - Throws: `.notInLibrary` when it is not there; `.database` (the entry stays then).
    package func remove(_ uri: String, at time: Int) throws(StorageError) {
        guard let i = index[uri] else { throw .notInLibrary(uri) }
        try opened().remove(uri, at: time)
        stored.remove(at: i)
        unsaved.remove(uri)
        // Only the entries after it move (rebuilding the whole index took
        // 2 ms at 10,000 entries, more than the database's delete).
        index[uri] = nil
        for j in i..<stored.count { index[stored[j].uri] = j }
        changed(at: time)
    }

    /// Empties the Library and its database (the fuzzer's reset between inputs).
    /// - Throws: `.database` (nothing changes then).
    package func removeAll(at time: Int) throws(StorageError) {
        try opened().removeAll(at: time)
        stored = []
        index = [:]
        unsaved = []
        changed(at: time)
    }

    /// Replaces what `uri` resolved to, in memory only (an `update` saves
    /// once at the end, `finishUpdate`). - Returns: false when `uri` is no
    /// longer saved (removed while the update ran).
    package func replace(_ uri: String, with resolved: Resolved) -> Bool {
        guard let i = index[uri] else { return false }
        stored[i].name = resolved.name
        stored[i].artist = resolved.artist
        stored[i].songs = resolved.songs
        unsaved.insert(uri)
        invalidate()
        return true
    }

    /// Writes the entries `replace` changed, in one transaction, and records
    /// the update's time.
    /// - Throws: `.encoding` or `.database` (the new songs stay in memory,
    ///   and the next `finishUpdate` writes them again).
    package func finishUpdate(at time: Int) throws(StorageError) {
        lastChange = time
        let entries = stored.filter { unsaved.contains($0.uri) }
        try opened().replace(entries, at: time)
        unsaved = []
        changed(at: time)
    }

    /// Throws when the database could not be opened, so that a listing
    /// says why instead of showing an empty Library (a full disk).
    /// - Throws: `.unreadable` with the error it could not be opened with.
    package func checkReadable() throws(StorageError) {
        if case .failure(.database(let path, let error)) = store { throw .unreadable(path: path, error) }
    }

    /// The store, or the error it could not be opened with.
    private func opened() throws(StorageError) -> LibraryStore { try store.get() }

    private func changed(at time: Int) {
        invalidate()
        lastChange = time
    }

    private func invalidate() {
        cachedSongs = nil
        cachedSummary = nil
    }

    private func reindex() {
        index = Dictionary(uniqueKeysWithValues: stored.enumerated().map { ($1.uri, $0) })
    }
}

extension Library.Entry: StoredValue {
    package var problem: String? {
        guard let item = try? Library.item(uri), item.text == uri else { return "not an album, a track or an artist: \(uri)" }
        guard (0...WantList.latestTime).contains(added) else { return "time out of range: \(added)" }
        for song in songs {
            guard song.uri.hasPrefix("deezer:track:") else { return "\(uri): song \(song.uri) is no Deezer track" }
            if let d = song.duration, !Seconds.isValid(d) { return "\(uri): \(song.uri): duration out of range: \(d)" }
        }
        switch item {
        case .track: return songs.count == 1 && songs[0].uri == uri ? nil : "\(uri): not its one song"
        case .artist: return songs.isEmpty ? nil : "\(uri): an artist keeps no songs"
        default: return nil
        }
    }
}
