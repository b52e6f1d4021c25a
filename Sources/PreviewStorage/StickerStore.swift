import PreviewCore
import PreviewPlatform

/// `sticker.sqlite`: MPD's stickers, name and value pairs that clients
/// attach to songs (ratings, play counts), as mpd keeps them in its
/// `sticker_file`:
///
///     sticker(type TEXT, uri TEXT, name TEXT, value TEXT, UNIQUE(type, uri, name))
///
/// `type` is always `song`; `uri` the song's canonical URI
/// (`deezer:track:ID`). Every change is its own transaction, so a sticker
/// set before a kill -9 is there after it.
package final class StickerStore {
    /// One sticker of a song.
    package struct Sticker: Equatable {
        package var name: String
        package var value: String
    }

    /// Most stickers kept in all (with `StickerRequest`'s bounds on names
    /// and values, the file stays under about 65 MB); a new one past it is
    /// refused.
    package static let maxStickers = 50_000

    /// The database file.
    package let path: String
    /// The bound on stickers this store keeps (`maxStickers` but in tests).
    package let limit: Int
    private let db: SQLiteDatabase

    /// Opens or creates the database and its table.
    /// - Parameter maxStickers: the bound (tests make it small).
    /// - Throws: `SQLiteError` (`isDamagedFile` when the file is no database).
    package init(path: String, maxStickers: Int = StickerStore.maxStickers) throws(SQLiteError) {
        self.path = path
        limit = maxStickers
        db = try SQLiteDatabase(path: path)
        try db.execute(
            """
            CREATE TABLE IF NOT EXISTS sticker (type TEXT NOT NULL, uri TEXT NOT NULL, name TEXT NOT NULL,
                value TEXT NOT NULL, UNIQUE (type, uri, name));
            """)
    }

    /// The value of `name` on `uri`, or nil.
    /// - Throws: `StorageError.database`.
    package func value(uri: String, name: String) throws(StorageError) -> String? {
        try run("SELECT value FROM sticker WHERE type = 'song' AND uri = ? AND name = ?", [uri, name]) { $0.string(at: 0) }.first ?? nil
    }

    /// Every sticker of `uri`, by name.
    /// - Throws: `StorageError.database`.
    package func list(uri: String) throws(StorageError) -> [Sticker] {
        try run("SELECT name, value FROM sticker WHERE type = 'song' AND uri = ? ORDER BY name", [uri]) {
            Sticker(name: $0.string(at: 0) ?? "", value: $0.string(at: 1) ?? "")
        }
    }

    /// Sets `name` on `uri` to `value`.
    /// - Throws: `.stickerLimit` for a new sticker past the bound;
    ///   `.database`.
    package func set(uri: String, name: String, value: String) throws(StorageError) {
        try checkRoom(uri: uri, name: name)
        try upsert(uri: uri, name: name, value: value)
    }

    private func upsert(uri: String, name: String, value: String) throws(StorageError) {
        _ = try run(
            """
            INSERT INTO sticker (type, uri, name, value) VALUES ('song', ?, ?, ?)
            ON CONFLICT (type, uri, name) DO UPDATE SET value = excluded.value
            """, [uri, name, value]
        ) { _ in () }
    }

    /// Adds `delta` to the integer `name` holds on `uri` (text that is no
    /// integer counts as 0, as SQLite reads it), or sets it to `delta`;
    /// the sum saturates at Int64's bounds.
    /// - Returns: the new value.
    /// - Throws: `.stickerLimit`, `.database`.
    @discardableResult
    package func add(uri: String, name: String, delta: Int64) throws(StorageError) -> Int64 {
        try checkRoom(uri: uri, name: name)
        let old = Int64(try value(uri: uri, name: name) ?? "") ?? 0
        let (sum, overflow) = old.addingReportingOverflow(delta)
        let new = overflow ? (delta > 0 ? Int64.max : Int64.min) : sum
        try upsert(uri: uri, name: name, value: String(new))
        return new
    }

    /// Deletes `name` from `uri`, or every sticker of `uri` when `name` is nil.
    /// - Returns: whether there was anything to delete.
    /// - Throws: `.database`.
    package func delete(uri: String, name: String?) throws(StorageError) -> Bool {
        if let name {
            _ = try run("DELETE FROM sticker WHERE type = 'song' AND uri = ? AND name = ?", [uri, name]) { _ in () }
        } else {
            _ = try run("DELETE FROM sticker WHERE type = 'song' AND uri = ?", [uri]) { _ in () }
        }
        return db.changes > 0
    }

    /// The songs whose URI is `base` or lies under `base/` ("" for all)
    /// that have `name`, with its value, by URI; with a comparison, those
    /// whose value compares so (as text, as mpd's SQL does).
    /// - Throws: `.database`.
    package func find(
        base: String, name: String, comparison: StickerRequest.Comparison?
    ) throws(StorageError) -> [(uri: String, value: String)] {
        var sql = "SELECT uri, value FROM sticker WHERE type = 'song' AND name = ?"
        var args: [Argument] = [.text(name)]
        if !base.isEmpty {
            // The prefix is compared with substr, not LIKE: a `%` or `_` in
            // a name is a character, not a pattern.
            sql += " AND (uri = ? OR substr(uri, 1, ?) = ?)"
            args += [.text(base), .integer((base + "/").utf8.count), .text(base + "/")]
        }
        switch comparison {
        case nil: break
        case .equals(let v): sql += " AND value = ?"; args.append(.text(v))
        case .lessThan(let v): sql += " AND value < ?"; args.append(.text(v))
        case .greaterThan(let v): sql += " AND value > ?"; args.append(.text(v))
        }
        return try run(sql + " ORDER BY uri", args) { ($0.string(at: 0) ?? "", $0.string(at: 1) ?? "") }
    }

    /// Stickers kept in all.
    /// - Throws: `.database`.
    package func count() throws(StorageError) -> Int {
        try run("SELECT count(*) FROM sticker", [String]()) { $0.int(at: 0) }.first ?? 0
    }

    private func checkRoom(uri: String, name: String) throws(StorageError) {
        guard try count() >= limit, try value(uri: uri, name: name) == nil else { return }
        throw .stickerLimit(limit)
    }

    private enum Argument {
        case text(String), integer(Int)
    }

    private func run<T>(_ sql: String, _ texts: [String], _ row: (SQLiteStatement) -> T) throws(StorageError) -> [T] {
        try run(sql, texts.map(Argument.text), row)
    }

    /// Runs `sql` with `args` bound in order, mapping each row.
    private func run<T>(_ sql: String, _ args: [Argument], _ row: (SQLiteStatement) -> T) throws(StorageError) -> [T] {
        do {
            let statement = try db.prepare(sql)
            for (i, arg) in args.enumerated() {
                switch arg {
                case .text(let text): try statement.bind(text, at: Int32(i + 1))
                case .integer(let n): try statement.bind(n, at: Int32(i + 1))
                }
            }
            var out: [T] = []
            while try statement.step() == .row { out.append(row(statement)) }
            return out
        } catch {
            throw .database(path: path, error)
        }
    }
}
