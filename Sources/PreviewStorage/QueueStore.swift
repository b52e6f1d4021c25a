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
final class QueueStore {
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

    /// What one `save` wrote, for the log and the tests.
    struct Written: Equatable {
        var inserted = 0, updated = 0, reordered = 0, deleted = 0
    }

    /// Opens or creates the database and its table.
    /// - Throws: `SQLiteError`; `isDamagedFile` when the file is no database.
    init(path: String) throws(SQLiteError) {
        self.path = path
        db = try SQLiteDatabase(path: path)
        // STRICT: SQLite refuses a value of another type instead of storing it.
        try db.execute("""
            CREATE TABLE IF NOT EXISTS songs (id INTEGER PRIMARY KEY NOT NULL, ord INTEGER NOT NULL,
                uri TEXT NOT NULL, title TEXT, artist TEXT, album TEXT, duration REAL, track INTEGER,
                disc INTEGER, album_tags BLOB, unplayable TEXT, added_tags BLOB, priority INTEGER NOT NULL,
                range_start REAL, range_end REAL) STRICT;
            CREATE INDEX IF NOT EXISTS songs_by_ord ON songs (ord);
            PRAGMA user_version = 1;
            """)
        let columns = "uri, title, artist, album, duration, track, disc, album_tags, unplayable, added_tags, priority, "
            + "range_start, range_end"
        insertRow = try db.prepare("INSERT OR REPLACE INTO songs (id, ord, \(columns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
        updateRow = try db.prepare("""
            UPDATE songs SET ord = ?2, uri = ?3, title = ?4, artist = ?5, album = ?6, duration = ?7, track = ?8,
                disc = ?9, album_tags = ?10, unplayable = ?11, added_tags = ?12, priority = ?13, range_start = ?14,
                range_end = ?15 WHERE id = ?1
            """)
        updateOrder = try db.prepare("UPDATE songs SET ord = ? WHERE id = ?")
        deleteRow = try db.prepare("DELETE FROM songs WHERE id = ?")
    }

    /// The stored queue in order; each entry's `version` is `version`.
    /// - Throws: `SQLiteError` of the read (`isDamagedFile` for a damaged file).
    func load(version: UInt32) throws(SQLiteError) -> [QueuedSong] {
        let rows = try db.prepare("""
            SELECT id, ord, uri, title, artist, album, duration, track, disc, album_tags, unplayable, added_tags,
                priority, range_start, range_end FROM songs ORDER BY ord
            """)
        var songs: [QueuedSong] = []
        var albums: [[UInt8]: AlbumTags] = [:]
        let decoder = JSONDecoder()
        keys = [:]
        while try rows.step() == .row {
            var song = Song(uri: rows.string(at: 2) ?? "", title: rows.string(at: 3), artist: rows.string(at: 4),
                            album: rows.string(at: 5), duration: rows.type(at: 6) == .null ? nil : rows.double(at: 6))
            if rows.type(at: 7) != .null { song.track = UInt16(clamping: rows.int(at: 7)) }
            if rows.type(at: 8) != .null { song.disc = UInt16(clamping: rows.int(at: 8)) }
            if let blob = rows.blob(at: 9) {
                if let known = albums[blob] {
                    song.albumTags = known
                } else if let tags = try? decoder.decode(AlbumTags.self, from: Data(blob)) {
                    albums[blob] = tags
                    song.albumTags = tags
                }
            }
            song.unplayable = rows.string(at: 10)
            if let blob = rows.blob(at: 11) { song.addedTags = (try? decoder.decode([TagValue].self, from: Data(blob))) ?? [] }
            var entry = QueuedSong(id: SongID(clamping: rows.int(at: 0)), song: song,
                                   priority: UInt8(clamping: rows.int(at: 12)), version: version)
            if rows.type(at: 13) != .null {
                entry.range = SongRange(start: rows.double(at: 13), end: rows.type(at: 14) == .null ? nil : rows.double(at: 14))
            }
            keys[entry.id] = Int64(rows.int(at: 1))
            songs.append(entry)
        }
        savedVersion = version
        return songs
    }

    /// Brings the rows in line with `songs`: new songs are inserted, songs
    /// `edited` since the last save rewritten, songs out of order given new
    /// keys, songs gone deleted; one transaction.
    /// - Parameter version: the queue version `songs` are of.
    /// - Throws: `.encoding` or `.database`; nothing is written then, and
    ///   the next save writes this one's changes too.
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

    private func bind(_ entry: QueuedSong, key: Int64, to row: SQLiteStatement,
                      albums: inout [ObjectIdentifier: [UInt8]], encoder: JSONEncoder) throws(SQLiteError) {
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
