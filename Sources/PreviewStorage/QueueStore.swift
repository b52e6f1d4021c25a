import FoundationEssentials
import PreviewCore
import PreviewPlatform

/// `queue.sqlite`: the queue, one row per song, so that a save writes the
/// songs that changed and not the whole queue (as one `state.json`, a
/// playing 200,000-song queue wrote 76 MB in 10 s, and a 1,000,000-song
/// one took 25 s to start).
///
///     songs(id INTEGER PRIMARY KEY, ord INTEGER, uri TEXT, title TEXT,
///           artist TEXT, album TEXT, duration REAL, track INTEGER,
///           disc INTEGER, album_tags BLOB, unplayable TEXT,
///           added_tags BLOB, priority INTEGER, range_start REAL,
///           range_end REAL)            -- the queue: rows by `ord`
///
/// `ord` keys leave gaps (`QueueOrder`), so an add, a move or a removal
/// touches its own rows. `album_tags` and `added_tags` are JSON of their
/// Codable types, encoded once per album and decoded once per distinct
/// value. Written only from one thread at a time (the state saver's).
package final class QueueStore {
    /// The database file.
    let path: String
    private let db: SQLiteDatabase
    private let insertRow: SQLiteStatement
    private let updateRow: SQLiteStatement
    private let updateOrder: SQLiteStatement
    private let deleteRow: SQLiteStatement
    /// The `ord` of every stored song, by id.
    private var keys: [SongID: Int64] = [:]
    /// The queue version of the last save: entries `edited` after it are rewritten.
    private var savedVersion: UInt32 = 0

    /// What one `save` wrote, for the log and the tests: rows inserted,
    /// rewritten, given a new order key, deleted.
    package struct Written: Equatable, Sendable {
        package var inserted = 0, updated = 0, reordered = 0, deleted = 0
    }

    /// Opens or creates the database and its table.
    /// - Throws: `SQLiteError`; `isDamagedFile` when the file is no database.
    init(path: String) throws(SQLiteError) {
        self.path = path
        db = try SQLiteDatabase(path: path)
        // STRICT: SQLite refuses a value of another type instead of storing it.
        try db.execute(
            """
            CREATE TABLE IF NOT EXISTS songs (id INTEGER PRIMARY KEY NOT NULL, ord INTEGER NOT NULL,
                uri TEXT NOT NULL, title TEXT, artist TEXT, album TEXT, duration REAL, track INTEGER,
                disc INTEGER, album_tags BLOB, unplayable TEXT, added_tags BLOB, priority INTEGER NOT NULL,
                range_start REAL, range_end REAL) STRICT;
            CREATE INDEX IF NOT EXISTS songs_by_ord ON songs (ord);
            PRAGMA user_version = 1;
            """)
        let columns =
            "uri, title, artist, album, duration, track, disc, album_tags, unplayable, added_tags, priority, "
            + "range_start, range_end"
        insertRow = try db.prepare(
            "INSERT OR REPLACE INTO songs (id, ord, \(columns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
        updateRow = try db.prepare(
            """
            UPDATE songs SET ord = ?2, uri = ?3, title = ?4, artist = ?5, album = ?6, duration = ?7, track = ?8,
                disc = ?9, album_tags = ?10, unplayable = ?11, added_tags = ?12, priority = ?13, range_start = ?14,
                range_end = ?15 WHERE id = ?1
            """)
        updateOrder = try db.prepare("UPDATE songs SET ord = ? WHERE id = ?")
        deleteRow = try db.prepare("DELETE FROM songs WHERE id = ?")
    }

    /// What `load` read: the queue, or the first row previewd cannot use
    /// (the file was edited by hand, or damaged).
    enum Loaded {
        case songs([QueuedSong])
        case problem(String)
    }

    /// The stored queue in order; each entry's `version` is `version`. A
    /// value out of its range is a problem, never clamped: the file may
    /// have been edited.
    /// - Throws: `SQLiteError` of the read (`isDamagedFile` for a damaged file).
    func load(version: UInt32) throws(SQLiteError) -> Loaded {
        let rows = try db.prepare(
            """
            SELECT id, ord, uri, title, artist, album, duration, track, disc, album_tags, unplayable, added_tags,
                priority, range_start, range_end FROM songs ORDER BY ord
            """)
        var songs: [QueuedSong] = []
        var reader = RowReader()
        keys = [:]
        while try rows.step() == .row {
            let entry: QueuedSong
            do throws(RowReader.Unusable) { entry = try reader.entry(rows, version: version) } catch {
                keys = [:]
                return .problem("row \(songs.count + 1): \(error.reason)")
            }
            keys[entry.id] = Int64(rows.int(at: 1))
            songs.append(entry)
        }
        savedVersion = version
        return .songs(songs)
    }

    /// Brings the rows in line with `songs`: new songs are inserted, songs
    /// `edited` since the last save rewritten, songs out of order given new
    /// keys, songs gone deleted; one transaction.
    /// - Parameter version: the queue version `songs` are of.
    /// - Throws: `.database`; nothing is written then, and the next save
    ///   writes this one's changes too.
    @discardableResult
    func save(_ songs: [QueuedSong], version: UInt32) throws(StorageError) -> Written {
        let stored = songs.map { keys[$0.id] }
        let newKeys = QueueOrder.plan(stored)
        var gone: [SongID] = []
        if keys.count > stored.count(where: { $0 != nil }) {
            let present = Set(songs.map(\.id))
            gone = keys.keys.filter { !present.contains($0) }
        }
        var written = Written()
        var albums: [ObjectIdentifier: [UInt8]] = [:]
        let encoder = JSONEncoder()
        do {
            try db.transaction { () throws(SQLiteError) in
                for id in gone {
                    try run(deleteRow) { () throws(SQLiteError) in try deleteRow.bind(Int(id), at: 1) }
                }
                for (position, entry) in songs.enumerated() {
                    let key = newKeys[position] ?? stored[position]!
                    if stored[position] == nil || entry.edited > savedVersion {
                        let row = stored[position] == nil ? insertRow : updateRow
                        try run(row) { () throws(SQLiteError) in
                            try bind(entry, key: key, to: row, albums: &albums, encoder: encoder)
                        }
                        if stored[position] == nil { written.inserted += 1 } else { written.updated += 1 }
                    } else if newKeys[position] != nil {
                        try run(updateOrder) { () throws(SQLiteError) in
                            try updateOrder.bind(Int(key), at: 1)
                            try updateOrder.bind(Int(entry.id), at: 2)
                        }
                        written.reordered += 1
                    }
                }
            }
        } catch {
            throw .database(path: path, error)
        }
        written.deleted = gone.count
        for id in gone { keys[id] = nil }
        for (position, key) in newKeys { keys[songs[position].id] = key }
        savedVersion = version
        return written
    }

    /// Deletes every row (a queue restored from an older `state.json`
    /// replaces whatever this file held).
    /// - Throws: `.database`.
    func removeAll() throws(StorageError) {
        do { try db.execute("DELETE FROM songs") } catch { throw .database(path: path, error) }
        keys = [:]
        savedVersion = 0
    }

    private func bind(
        _ entry: QueuedSong, key: Int64, to row: SQLiteStatement,
        albums: inout [ObjectIdentifier: [UInt8]], encoder: JSONEncoder
    ) throws(SQLiteError) {
        let song = entry.song
        try row.bind(Int(entry.id), at: 1)
        try row.bind(Int(key), at: 2)
        try row.bind(song.uri, at: 3)
        try row.bind(song.title, at: 4)
        try row.bind(song.artist, at: 5)
        try row.bind(song.album, at: 6)
        try bind(song.duration, at: 7, to: row)
        try bind(song.track.map(Int.init), at: 8, to: row)
        try bind(song.disc.map(Int.init), at: 9, to: row)
        // Strings, integers and booleans only: JSONEncoder cannot fail on
        // these, so `try?` loses nothing.
        if let tags = song.albumTags {
            let id = ObjectIdentifier(tags)
            if albums[id] == nil { albums[id] = (try? encoder.encode(tags)).map(Array.init) ?? [] }
            try row.bind(blob: albums[id]!, at: 10)
        } else {
            try row.bindNull(at: 10)
        }
        try row.bind(song.unplayable, at: 11)
        if song.addedTags.isEmpty {
            try row.bindNull(at: 12)
        } else {
            try row.bind(blob: (try? encoder.encode(song.addedTags)).map(Array.init) ?? [], at: 12)
        }
        try row.bind(Int(entry.priority), at: 13)
        try bind(entry.range?.start, at: 14, to: row)
        try bind(entry.range?.end, at: 15, to: row)
    }

    private func bind(_ value: Double?, at index: Int32, to row: SQLiteStatement) throws(SQLiteError) {
        if let value { try row.bind(value, at: index) } else { try row.bindNull(at: index) }
    }

    private func bind(_ value: Int?, at index: Int32, to row: SQLiteStatement) throws(SQLiteError) {
        if let value { try row.bind(value, at: index) } else { try row.bindNull(at: index) }
    }

    /// Binds with `bind`, runs `statement` to its end and resets it (also
    /// when a step fails).
    private func run(_ statement: SQLiteStatement, _ bind: () throws(SQLiteError) -> Void) throws(SQLiteError) {
        defer { statement.reset() }
        try bind()
        while try statement.step() == .row {}
    }
}

/// Reads one row of `songs` into a queue entry, refusing what the queue
/// could not hold (`Queue`, `Song.isQueueable`, `Song.maxAddedTagBytes`),
/// and decoding each album's tags once.
private struct RowReader {
    struct Unusable: Error {
        let reason: String
    }

    private var albums: [[UInt8]: AlbumTags] = [:]
    private let decoder = JSONDecoder()

    mutating func entry(_ row: SQLiteStatement, version: UInt32) throws(Unusable) -> QueuedSong {
        let id = try integer(row, 0, "id", in: 1...Int(Queue.maxID))!
        guard let uri = row.string(at: 2), Song.isQueueable(uri) else {
            throw Unusable(reason: "song \(id): not an http(s):// or deezer: URI")
        }
        var song = Song(
            uri: uri, title: row.string(at: 3), artist: row.string(at: 4), album: row.string(at: 5),
            duration: try real(row, 6, "duration", song: id))
        song.track = try integer(row, 7, "track", in: 0...Int(UInt16.max)).map { UInt16($0) }
        song.disc = try integer(row, 8, "disc", in: 0...Int(UInt16.max)).map { UInt16($0) }
        if let blob = row.blob(at: 9) {
            if albums[blob] == nil {
                guard let tags = try? decoder.decode(AlbumTags.self, from: Data(blob)) else {
                    throw Unusable(reason: "song \(id): album tags do not parse")
                }
                albums[blob] = tags
            }
            song.albumTags = albums[blob]
        }
        song.unplayable = row.string(at: 10)
        if let blob = row.blob(at: 11) {
            guard let tags = try? decoder.decode([TagValue].self, from: Data(blob)) else {
                throw Unusable(reason: "song \(id): added tags do not parse")
            }
            song.addedTags = tags
            guard song.addedTagBytes <= Song.maxAddedTagBytes else {
                throw Unusable(reason: "song \(id): added tags over \(Song.maxAddedTagBytes) bytes")
            }
        }
        var entry = QueuedSong(id: SongID(id), song: song, version: version)
        entry.priority = UInt8(try integer(row, 12, "priority", in: 0...255) ?? 0)
        if let start = try real(row, 13, "range start", song: id) {
            entry.range = SongRange(start: start, end: try real(row, 14, "range end", song: id))
        }
        return entry
    }

    /// Column `index` as an integer in `range`, nil for NULL.
    private func integer(
        _ row: SQLiteStatement, _ index: Int32, _ what: String,
        in range: ClosedRange<Int>
    ) throws(Unusable) -> Int? {
        switch row.type(at: index) {
        case .null: return nil
        case .integer:
            let value = row.int(at: index)
            guard range.contains(value) else { throw Unusable(reason: "\(what) out of range: \(value)") }
            return value
        default: throw Unusable(reason: "\(what) is not an integer")
        }
    }

    /// Column `index` as a number, nil for NULL (the ranges are checked by
    /// `SavedState.problem`, as for `state.json`).
    private func real(_ row: SQLiteStatement, _ index: Int32, _ what: String, song: Int) throws(Unusable) -> Double? {
        switch row.type(at: index) {
        case .null: return nil
        case .integer, .float: return row.double(at: index)
        default: throw Unusable(reason: "song \(song): \(what) is not a number")
        }
    }
}
