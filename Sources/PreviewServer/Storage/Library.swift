import PreviewCore

/// The user's Library ("Add to Library"): saved albums, tracks and artists,
/// each with the time it was added and the songs it resolved to, so that
/// listing it (`librarylist`, `lsinfo deezer:library`, `listallinfo`,
/// `stats`) needs no catalog request. Saved as `library.json` in the state
/// directory: a JSON array of `Entry`, oldest first, rewritten whole and
/// atomically on each change (`JSONFile`), so a `kill -9` leaves the old or
/// the new file, never a torn one.
///
/// The song list and the totals are derived once per change and kept
/// (`songs`, `summary`): commands read them, not the entries.
final class Library {
    /// The Library as a directory of MPD's database view (`lsinfo`, `listall`).
    static let directory = "deezer:library"

    /// One saved item.
    struct Entry: Codable, Equatable {
        /// `deezer:album:ID`, `deezer:track:ID` or `deezer:artist:ID` (canonical).
        var uri: String
        /// Unix seconds.
        var added: Int
        /// The album's title or the artist's name, when the catalog gave one
        /// (nil for a track: its song has the title).
        var name: String?
        /// The album's artist, when the catalog gave one (albums only).
        var artist: String?
        /// What the item resolved to: a track's one song, an album's tracks,
        /// none for an artist (an artist is listed by name, not expanded).
        /// Stored as `Song` encodes itself, so tags added to it later are kept.
        var songs: [Song]
    }

    /// What the catalog gave for one item: the parts of an `Entry` that an
    /// `update` replaces.
    struct Resolved: Equatable {
        var name: String?
        var artist: String?
        var songs: [Song]
    }

    /// `stats`' figures over the Library.
    struct Summary: Equatable {
        /// Distinct `Artist` values of the songs and names of saved artists.
        var artists = 0
        /// Distinct `Album` values of the songs.
        var albums = 0
        /// Distinct song URIs.
        var songs = 0
        /// Sum of the songs' durations, whole seconds (rounded down).
        var playtime = 0
    }

    /// Oldest first, as in the file; `entries` shows them newest first.
    private var stored: [Entry] = []
    /// Position in `stored` by URI.
    private var index: [String: Int] = [:]
    private var cachedSongs: [Song]?
    private var cachedSummary: Summary?
    private let file: JSONFile<LibraryFile>
    /// Unix seconds of the last change or update (`stats` `db_update`): the
    /// file's modification time after a restart, 0 when there is no file.
    private(set) var lastChange: Int

    /// Loads the file. An entry that does not decode, has a `problem`, or
    /// repeats an earlier URI is left out and reported to `warn` (the next
    /// save drops it); a file that is no JSON array is set aside by `JSONFile`.
    /// - Parameter lastModified: the file's modification time, Unix seconds.
    init(file: JSONFile<LibraryFile>, lastModified: Int?, warn: (String) -> Void) {
        self.file = file
        lastChange = lastModified ?? 0
        for (n, slot) in (file.load()?.slots ?? []).enumerated() {
            let why: String
            switch slot {
            case .damaged(let reason): why = reason
            case .entry(let entry):
                if let problem = entry.problem {
                    why = problem
                } else if index[entry.uri] != nil {
                    why = "\(entry.uri) twice"
                } else {
                    index[entry.uri] = stored.count
                    stored.append(entry)
                    continue
                }
            }
            warn("\(file.path): entry \(n + 1) left out (\(why))")
        }
    }

    /// Newest first.
    var entries: ReversedCollection<[Entry]> { stored.reversed() }

    /// Every saved song, newest first, each URI once (where a track and
    /// its album are both saved, at the newer one's place). Built once per
    /// change: `list`, `find`, `search` and `count` may read it per command.
    var songs: [Song] {
        if let cachedSongs { return cachedSongs }
        var seen = Set<String>(minimumCapacity: stored.count)
        var out: [Song] = []
        out.reserveCapacity(stored.count)
        for entry in stored.reversed() {
            for song in entry.songs where seen.insert(song.uri).inserted { out.append(song) }
        }
        cachedSongs = out
        return out
    }

    /// `stats`' figures, built once per change.
    var summary: Summary {
        if let cachedSummary { return cachedSummary }
        let all = songs
        var artists = Set(all.compactMap(\.artist))
        for entry in stored where entry.uri.hasPrefix("deezer:artist:") {
            if let name = entry.name { artists.insert(name) }
        }
        let seconds = all.reduce(0.0) { $0 + ($1.duration ?? 0) }
        let summary = Summary(artists: artists.count, albums: Set(all.compactMap(\.album)).count, songs: all.count,
                              playtime: Int(clamping: seconds, rounding: .down))
        cachedSummary = summary
        return summary
    }

    /// The canonical URI of a Library item, from any form `CatalogURI` reads
    /// (a Deezer link too).
    /// - Throws: `.notLibraryItem` for anything but an album, a track or an artist.
    static func item(_ text: String) throws(StorageError) -> CatalogURI {
        switch try? CatalogURI(parsing: text) {
        case let uri?:
            switch uri {
            case .album, .track, .artist: return uri
            default: throw .notLibraryItem(text)
            }
        case nil: throw .notLibraryItem(text)
        }
    }

    func contains(_ uri: String) -> Bool { index[uri] != nil }

    /// Saves `uri` as the newest entry.
    /// - Returns: false when it was there already (nothing changes).
    /// - Throws: `.encoding` or `.writing`; the entry is not kept then.
    func add(_ uri: String, _ resolved: Resolved, at time: Int) throws(StorageError) -> Bool {
        guard index[uri] == nil else { return false }
        stored.append(Entry(uri: uri, added: time, name: resolved.name, artist: resolved.artist, songs: resolved.songs))
        do { try save(at: time) } catch {
            stored.removeLast()
            throw error
        }
        index[uri] = stored.count - 1
        return true
    }

    /// Removes `uri`.
    /// - Throws: `.notInLibrary` when it is not there; `.encoding` or
    ///   `.writing` (the entry stays then).
    func remove(_ uri: String, at time: Int) throws(StorageError) {
        guard let i = index[uri] else { throw .notInLibrary(uri) }
        let removed = stored.remove(at: i)
        do { try save(at: time) } catch {
            stored.insert(removed, at: i)
            throw error
        }
        reindex()
    }

    /// Empties the Library and its file (the fuzzer's reset between inputs).
    /// - Throws: `.encoding` or `.writing`.
    func removeAll(at time: Int) throws(StorageError) {
        stored = []
        index = [:]
        try save(at: time)
    }

    /// Replaces what `uri` resolved to, in memory only (an `update` saves
    /// once at the end, `finishUpdate`). - Returns: false when `uri` is no
    /// longer saved (removed while the update ran).
    func replace(_ uri: String, with resolved: Resolved) -> Bool {
        guard let i = index[uri] else { return false }
        stored[i].name = resolved.name
        stored[i].artist = resolved.artist
        stored[i].songs = resolved.songs
        invalidate()
        return true
    }

    /// Writes the Library after an update and records its time.
    /// - Throws: `.encoding` or `.writing` (the new songs stay in memory).
    func finishUpdate(at time: Int) throws(StorageError) {
        lastChange = time
        try save(at: time)
    }

    private func save(at time: Int) throws(StorageError) {
        invalidate()
        try file.save(LibraryFile(entries: stored))
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
    var problem: String? {
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

/// `library.json`'s content: the entries, each decoded on its own, so one
/// damaged entry is left out (`Library.init` says which) instead of the
/// whole file being set aside.
struct LibraryFile: StoredValue {
    /// One array element: the entry, or why it does not decode.
    enum Slot {
        case entry(Library.Entry)
        case damaged(String)
    }
    /// The array's elements, in order.
    var slots: [Slot]
    /// Entries are checked one by one in `Library.init`.
    var problem: String? { nil }

    init(entries: [Library.Entry]) { slots = entries.map { .entry($0) } }

    init(from decoder: any Decoder) throws {
        var array = try decoder.unkeyedContainer()
        var slots: [Slot] = []
        while !array.isAtEnd { slots.append(try array.decode(Element.self).slot) }
        self.slots = slots
    }

    func encode(to encoder: any Encoder) throws {
        var array = encoder.unkeyedContainer()
        for case .entry(let entry) in slots { try array.encode(entry) }
    }

    /// One element, decoded without failing the array.
    private struct Element: Decodable {
        let slot: Slot
        init(from decoder: any Decoder) {
            do { slot = .entry(try Library.Entry(from: decoder)) } catch { slot = .damaged(LibraryFile.describe(error)) }
        }
    }

    /// A decoding error in a line: what is wrong and where (the key path).
    static func describe(_ error: any Error) -> String {
        guard let e = error as? DecodingError else { return "\(error)" }
        switch e {
        case .keyNotFound(let key, _): return "no \"\(key.stringValue)\""
        case .typeMismatch(_, let c), .valueNotFound(_, let c), .dataCorrupted(let c):
            return c.codingPath.map(\.stringValue).joined(separator: ".") + ": " + c.debugDescription
        @unknown default: return "\(e)"
        }
    }
}
