import FoundationEssentials
import PreviewCore
import PreviewPlatform

/// `library.sqlite`: the Library's entries, one row each, so a change
/// writes one row instead of the whole Library (a whole-file rewrite took
/// 70–110 ms at 10,000 saved tracks, on the control thread).
///
///     items(uri TEXT PRIMARY KEY, added INTEGER, name TEXT, artist TEXT,
///           songs BLOB)        -- songs: the entry's `[Song]` as JSON
///     meta(key TEXT PRIMARY KEY, value INTEGER)   -- 'last_change': Unix seconds
///
/// `songs` is JSON of `Song`'s own Codable so that tags added to `Song`
/// later are stored without a schema change; each entry's is small. Rows
/// are in insertion order (rowid; an UPDATE keeps it), which is the
/// Library's order. Each change is one transaction that also records its
/// time (`stats`' `db_update` after a restart). Durability: WAL with
/// `synchronous=NORMAL` (`SQLiteDatabase`), so a commit survives `kill -9`.
final class LibraryStore {
    /// The database file.
    let path: String
    private let db: SQLiteDatabase
    private let insertItem: SQLiteStatement
    private let updateItem: SQLiteStatement
    private let deleteItem: SQLiteStatement
    private let setLastChange: SQLiteStatement
    private let encoder = JSONEncoder()
    /// URIs of rows `load` left out: kept until the next change, which
    /// deletes them (as the JSON store dropped them at its next save), so a
    /// start alone never rewrites anything and the URI can be saved again.
    private var damaged: [String] = []

    /// What `load` read.
    struct Contents {
        /// The usable entries, oldest first.
        var entries: [Library.Entry] = []
        /// Unix seconds of the last change; nil when the database never had one.
        var lastChange: Int?
    }

    /// Opens or creates the database and its tables.
    /// - Throws: `SQLiteError`; `isDamagedFile` when the file is no database.
    init(path: String) throws(SQLiteError) {
        self.path = path
        db = try SQLiteDatabase(path: path)
        // STRICT: SQLite refuses a value of another type instead of storing it.
        // user_version: the format, for a later previewd to migrate from.
        try db.execute(
            """
            CREATE TABLE IF NOT EXISTS items (uri TEXT PRIMARY KEY NOT NULL, added INTEGER NOT NULL,
                name TEXT, artist TEXT, songs BLOB NOT NULL) STRICT;
            CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY NOT NULL, value INTEGER NOT NULL) STRICT;
            PRAGMA user_version = 1;
            """)
        insertItem = try db.prepare("INSERT INTO items (uri, added, name, artist, songs) VALUES (?, ?, ?, ?, ?)")
        updateItem = try db.prepare("UPDATE items SET name = ?, artist = ?, songs = ? WHERE uri = ?")
        deleteItem = try db.prepare("DELETE FROM items WHERE uri = ?")
        setLastChange = try db.prepare(
            """
            INSERT INTO meta (key, value) VALUES ('last_change', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value
            """)
    }

    /// Reads every row, oldest first. A row whose songs do not decode or
    /// whose entry has a `problem` is left out and reported to `warn`.
    /// - Throws: `SQLiteError` of the reads (`isDamagedFile` for a damaged file).
    func load(warn: (String) -> Void) throws(SQLiteError) -> Contents {
        var contents = Contents()
        let time = try db.prepare("SELECT value FROM meta WHERE key = 'last_change'")
        if try time.step() == .row { contents.lastChange = time.int(at: 0) }
        let rows = try db.prepare("SELECT uri, added, name, artist, songs FROM items ORDER BY rowid")
        let decoder = JSONDecoder()
        while try rows.step() == .row {
            let uri = rows.string(at: 0) ?? ""
            let why: String
            do {
                let songs = try decoder.decode([Song].self, from: Data(rows.blob(at: 4) ?? []))
                let entry = Library.Entry(
                    uri: uri, added: rows.int(at: 1), name: rows.string(at: 2),
                    artist: rows.string(at: 3), songs: songs)
                guard let problem = entry.problem else {
                    contents.entries.append(entry)
                    continue
                }
                why = problem
            } catch {
                why = "songs: " + LibraryFile.describe(error)
            }
            damaged.append(uri)
            warn("\(path): \(uri) left out (\(why))")
        }
        return contents
    }

    /// Saves `entry` as the newest row.
    /// - Throws: `.encoding` or `.database`.
    func add(_ entry: Library.Entry, at time: Int) throws(StorageError) {
        let songs = try encode(entry.songs)
        try change(at: time) { () throws(SQLiteError) in try insert(entry, songs: songs) }
    }

    /// Deletes the row of `uri`.
    /// - Throws: `.database`.
    func remove(_ uri: String, at time: Int) throws(StorageError) {
        try change(at: time) { () throws(SQLiteError) in try run(deleteItem) { () throws(SQLiteError) in try deleteItem.bind(uri, at: 1) } }
    }

    /// Deletes every row.
    /// - Throws: `.database`.
    func removeAll(at time: Int) throws(StorageError) {
        try change(at: time) { () throws(SQLiteError) in try db.execute("DELETE FROM items") }
    }

    /// Writes the name, artist and songs of each of `entries`, in one
    /// transaction (an `update`'s results, saved once at its end).
    /// - Throws: `.encoding` or `.database`; nothing is written then.
    func replace(_ entries: [Library.Entry], at time: Int) throws(StorageError) {
        var rows: [(Library.Entry, [UInt8])] = []
        for entry in entries { rows.append((entry, try encode(entry.songs))) }
        try change(at: time) { () throws(SQLiteError) in
            for (entry, songs) in rows {
                try run(updateItem) { () throws(SQLiteError) in
                    try updateItem.bind(entry.name, at: 1)
                    try updateItem.bind(entry.artist, at: 2)
                    try updateItem.bind(blob: songs, at: 3)
                    try updateItem.bind(entry.uri, at: 4)
                }
            }
        }
    }

    /// Saves `entries`, oldest first, into a database that never had a
    /// change (importing `library.json`), with `time` as the last change.
    /// - Throws: `.encoding` or `.database`; nothing is written then.
    func insertAll(_ entries: [Library.Entry], at time: Int) throws(StorageError) {
        var rows: [(Library.Entry, [UInt8])] = []
        for entry in entries { rows.append((entry, try encode(entry.songs))) }
        try change(at: time) { () throws(SQLiteError) in
            for (entry, songs) in rows { try insert(entry, songs: songs) }
        }
    }

    /// One transaction: the damaged rows go, `body` runs, the time is recorded.
    private func change(at time: Int, _ body: () throws(SQLiteError) -> Void) throws(StorageError) {
        do {
            try db.transaction { () throws(SQLiteError) in
                for uri in damaged {
                    try run(deleteItem) { () throws(SQLiteError) in try deleteItem.bind(uri, at: 1) }
                }
                try body()
                try run(setLastChange) { () throws(SQLiteError) in try setLastChange.bind(time, at: 1) }
            }
        } catch {
            throw .database(path: path, error)
        }
        damaged = []
    }

    private func insert(_ entry: Library.Entry, songs: [UInt8]) throws(SQLiteError) {
        try run(insertItem) { () throws(SQLiteError) in
            try insertItem.bind(entry.uri, at: 1)
            try insertItem.bind(entry.added, at: 2)
            try insertItem.bind(entry.name, at: 3)
            try insertItem.bind(entry.artist, at: 4)
            try insertItem.bind(blob: songs, at: 5)
        }
    }

    /// Binds `statement`'s parameters with `bind`, runs it to its end and
    /// resets it for the next use (also when a step fails).
    private func run(_ statement: SQLiteStatement, _ bind: () throws(SQLiteError) -> Void) throws(SQLiteError) {
        defer { statement.reset() }
        try bind()
        while try statement.step() == .row {}
    }

    private func encode(_ songs: [Song]) throws(StorageError) -> [UInt8] {
        do { return Array(try encoder.encode(songs)) } catch { throw .encoding(path: path, "\(error)") }
    }
}
