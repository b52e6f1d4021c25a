import CSQLite
import Glibc

/// One SQLite connection (a `sqlite3 *`), owned: closed when the last
/// reference goes (sqlite3_close_v2(3)). Not Sendable: previewd uses each
/// connection on one thread, which is what `.singleThread` (NOMUTEX) asks
/// for and the compiler now checks.
///
/// Every connection is set up for previewd's kind of durability:
/// `journal_mode=WAL` with `synchronous=NORMAL`. A commit has then been
/// written to the `-wal` file (write(2), in the kernel's page cache) before
/// it returns, so it survives the process being killed (`kill -9`, a crash);
/// only a power cut or kernel crash may lose the last commits, never leaving
/// a torn database. `synchronous=FULL` would add an fsync per commit for
/// that last case, at several milliseconds each.
public final class SQLiteDatabase {
    /// How SQLite guards the connection against use from several threads.
    public enum Threading: Sendable {
        /// SQLITE_OPEN_NOMUTEX: no locking; one thread at a time (the caller's promise).
        case singleThread
        /// SQLITE_OPEN_FULLMUTEX: every call takes the connection's mutex.
        case serialized
    }

    let handle: OpaquePointer
    /// The file, as given to `init`.
    public let path: String

    /// Opens (creating it when missing) the database file at `path`
    /// (sqlite3_open_v2(3) with SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE),
    /// sets WAL, `synchronous=NORMAL` and the busy timeout.
    /// - Parameters:
    ///   - threading: NOMUTEX or FULLMUTEX.
    ///   - busyTimeout: how long a call waits for another connection's lock
    ///     before failing with SQLITE_BUSY, milliseconds (sqlite3_busy_timeout(3)).
    /// - Throws: `SQLiteError` of sqlite3_open_v2, or of sqlite3_exec for the
    ///   pragmas: SQLITE_NOTADB (`isDamagedFile`) when the file is no
    ///   database, which SQLite only finds out on the first read.
    public init(path: String, threading: Threading = .singleThread, busyTimeout: Int32 = 2000) throws(SQLiteError) {
        var db: OpaquePointer?
        let flags =
            SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
            | (threading == .singleThread ? SQLITE_OPEN_NOMUTEX : SQLITE_OPEN_FULLMUTEX)
        SQLiteDatabase.makePrivate(path)
        let rc = sqlite3_open_v2(path, &db, flags, nil)
        guard rc == SQLITE_OK, let db else {
            let error = SQLiteError("sqlite3_open_v2", code: rc, db: db)
            sqlite3_close_v2(db)  // a handle comes back even on failure (for its message)
            throw error
        }
        handle = db
        self.path = path
        sqlite3_extended_result_codes(db, 1)
        sqlite3_busy_timeout(db, busyTimeout)
        // WAL is kept in the file once set; a file system without shared
        // memory keeps the rollback journal, which is as durable (slower).
        try execute("PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL")
    }

    /// The database file is made 0600 before SQLite opens it (created so
    /// when missing); SQLite gives its -wal and -shm files the database
    /// file's mode, and those left by an older run are narrowed too.
    private static func makePrivate(_ path: String) {
        guard !path.isEmpty, !path.hasPrefix(":"), !path.hasPrefix("file:") else { return }
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        if fd >= 0 { close(fd) }
        for file in [path, path + "-wal", path + "-shm"] { try? FileSystem.restrict(file, to: 0o600) }
    }

    deinit {
        // close_v2 waits for statements still alive; `SQLiteStatement` holds
        // its database, so there are none by now.
        sqlite3_close_v2(handle)
    }

    /// Runs `sql`, one or more statements separated by `;`, ignoring any rows
    /// (sqlite3_exec(3)).
    /// - Throws: `SQLiteError` of sqlite3_exec, with SQLite's message.
    public func execute(_ sql: String) throws(SQLiteError) {
        var message: UnsafeMutablePointer<CChar>?
        let rc = sqlite3_exec(handle, sql, nil, nil, &message)
        defer { sqlite3_free(message) }
        guard rc == SQLITE_OK else {
            throw SQLiteError("sqlite3_exec", code: rc, message: message.map { String(cString: $0) } ?? "error \(rc)")
        }
    }

    /// Compiles one statement (sqlite3_prepare_v2(3)); `?` marks its
    /// parameters, numbered from 1.
    /// - Throws: `SQLiteError` of sqlite3_prepare_v2 (a syntax error, an unknown table).
    public func prepare(_ sql: String) throws(SQLiteError) -> SQLiteStatement {
        var statement: OpaquePointer?
        let rc = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
        guard rc == SQLITE_OK, let statement else {
            sqlite3_finalize(statement)
            throw SQLiteError("sqlite3_prepare_v2", code: rc == SQLITE_OK ? SQLITE_MISUSE : rc, db: handle)
        }
        return SQLiteStatement(statement, database: self)
    }

    /// Runs `body` in one transaction: `BEGIN IMMEDIATE` (takes the write
    /// lock at once, so the commit cannot fail on another writer), then
    /// `COMMIT`; when `body` or the commit throws, `ROLLBACK` and rethrow.
    /// - Throws: `body`'s error, or `SQLiteError` of sqlite3_exec for BEGIN or COMMIT.
    public func transaction<Result>(_ body: () throws(SQLiteError) -> Result) throws(SQLiteError) -> Result {
        try execute("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            // Some errors (a full disk) roll back by themselves: only an
            // open transaction is rolled back here.
            if sqlite3_get_autocommit(handle) == 0 { try? execute("ROLLBACK") }
            throw error
        }
    }

    /// Rows the last INSERT, UPDATE or DELETE changed (sqlite3_changes64(3)).
    public var changes: Int { Int(sqlite3_changes64(handle)) }
}
