import PreviewCore
import PreviewPlatform

/// `loudness.sqlite`: each measured song's loudness, so a preview is
/// measured once in its life, not once per play or per start.
///
///     songs(uri TEXT PRIMARY KEY, album INTEGER, lufs REAL, peak REAL, seconds REAL)
///
/// `uri` is the song's (`deezer:track:ID`); `album` its Deezer album id
/// (NULL when unknown), for `album` mode; `lufs` the integrated loudness,
/// `peak` the linear sample peak, `seconds` the measured length.
package final class LoudnessStore {
    /// One stored row.
    package struct Row: Equatable {
        package var uri: String
        package var album: Int?
        package var loudness: Loudness

        package init(uri: String, album: Int?, loudness: Loudness) {
            self.uri = uri
            self.album = album
            self.loudness = loudness
        }
    }

    /// The database file.
    package let path: String
    private let db: SQLiteDatabase
    private let upsert: SQLiteStatement

    /// Opens or creates the database and its table.
    /// - Throws: `SQLiteError` (`isDamagedFile` when the file is no database).
    package init(path: String) throws(SQLiteError) {
        self.path = path
        db = try SQLiteDatabase(path: path)
        try db.execute(
            """
            CREATE TABLE IF NOT EXISTS songs (uri TEXT PRIMARY KEY NOT NULL, album INTEGER,
                lufs REAL NOT NULL, peak REAL NOT NULL, seconds REAL NOT NULL) STRICT;
            PRAGMA user_version = 1;
            """)
        upsert = try db.prepare(
            """
            INSERT INTO songs (uri, album, lufs, peak, seconds) VALUES (?, ?, ?, ?, ?)
            ON CONFLICT (uri) DO UPDATE SET album = excluded.album, lufs = excluded.lufs,
                peak = excluded.peak, seconds = excluded.seconds
            """)
    }

    /// Every row whose figures can set a gain (`Loudness.isUsable`).
    /// - Throws: `SQLiteError` of the reads.
    package func load() throws(SQLiteError) -> [Row] {
        let rows = try db.prepare("SELECT uri, album, lufs, peak, seconds FROM songs")
        var out: [Row] = []
        while try rows.step() == .row {
            let loudness = Loudness(integrated: rows.double(at: 2), peak: rows.double(at: 3), seconds: rows.double(at: 4))
            guard let uri = rows.string(at: 0), loudness.isUsable else { continue }
            out.append(Row(uri: uri, album: rows.type(at: 1) == .null ? nil : rows.int(at: 1), loudness: loudness))
        }
        return out
    }

    /// Saves `row`, replacing an earlier measurement of the same song.
    /// - Throws: `StorageError.database`.
    package func save(_ row: Row) throws(StorageError) {
        defer { upsert.reset() }
        do {
            try upsert.bind(row.uri, at: 1)
            if let album = row.album { try upsert.bind(album, at: 2) } else { try upsert.bindNull(at: 2) }
            try upsert.bind(row.loudness.integrated, at: 3)
            try upsert.bind(row.loudness.peak, at: 4)
            try upsert.bind(row.loudness.seconds, at: 5)
            while try upsert.step() == .row {}
        } catch {
            throw .database(path: path, error)
        }
    }
}
