import CSQLite

/// One compiled statement (a `sqlite3_stmt *`), owned: finalized when the
/// last reference goes (sqlite3_finalize(3)). It keeps its database open.
/// Parameters are numbered from 1, result columns from 0, as in SQLite.
public final class SQLiteStatement {
    /// What `step` found.
    public enum Step: Sendable {
        /// A result row: read it with `int`, `string`, `blob`.
        case row
        /// The statement has run to its end.
        case done
    }

    /// A column's type in the current row (sqlite3_column_type(3)).
    public enum ColumnType: Sendable {
        case integer, float, text, blob, null
    }

    let handle: OpaquePointer
    /// Kept so the connection outlives its statements.
    let database: SQLiteDatabase

    init(_ handle: OpaquePointer, database: SQLiteDatabase) {
        self.handle = handle
        self.database = database
    }

    deinit { sqlite3_finalize(handle) }

    /// Binds parameter `index` to an integer (sqlite3_bind_int64(3)).
    /// - Throws: `SQLiteError` of sqlite3_bind_int64 (SQLITE_RANGE: no such parameter).
    public func bind(_ value: Int, at index: Int32) throws(SQLiteError) {
        try check("sqlite3_bind_int64", sqlite3_bind_int64(handle, index, Int64(value)))
    }

    /// Binds parameter `index` to a floating-point value (sqlite3_bind_double(3)).
    /// - Throws: `SQLiteError` of sqlite3_bind_double (SQLITE_RANGE: no such parameter).
    public func bind(_ value: Double, at index: Int32) throws(SQLiteError) {
        try check("sqlite3_bind_double", sqlite3_bind_double(handle, index, value))
    }

    /// Binds parameter `index` to a text (sqlite3_bind_text(3), copied), or
    /// to NULL for nil.
    /// - Throws: `SQLiteError` of sqlite3_bind_text (SQLITE_TOOBIG past 2 GiB).
    public func bind(_ value: String?, at index: Int32) throws(SQLiteError) {
        guard let value else { return try bindNull(at: index) }
        guard let count = Int32(exactly: value.utf8.count) else { throw Self.tooBig("sqlite3_bind_text") }
        // withCString's pointer is never NULL (NULL would bind NULL, not "").
        try check("sqlite3_bind_text", value.withCString { pv_sqlite3_bind_text(handle, index, $0, count) })
    }

    /// Binds parameter `index` to a blob (sqlite3_bind_blob(3), copied; an
    /// empty one with sqlite3_bind_zeroblob(3), since a NULL pointer would bind NULL).
    /// - Throws: `SQLiteError` of sqlite3_bind_blob (SQLITE_TOOBIG past 2 GiB).
    public func bind(blob bytes: [UInt8], at index: Int32) throws(SQLiteError) {
        guard let count = Int32(exactly: bytes.count) else { throw Self.tooBig("sqlite3_bind_blob") }
        guard count > 0 else { return try check("sqlite3_bind_zeroblob", sqlite3_bind_zeroblob(handle, index, 0)) }
        try check("sqlite3_bind_blob", bytes.withUnsafeBytes { pv_sqlite3_bind_blob(handle, index, $0.baseAddress, count) })
    }

    /// Binds parameter `index` to NULL (sqlite3_bind_null(3)).
    /// - Throws: `SQLiteError` of sqlite3_bind_null.
    public func bindNull(at index: Int32) throws(SQLiteError) {
        try check("sqlite3_bind_null", sqlite3_bind_null(handle, index))
    }

    /// Runs the statement to its next row or its end (sqlite3_step(3)).
    /// - Throws: `SQLiteError` of sqlite3_step: a constraint (`isConstraint`),
    ///   SQLITE_BUSY after the busy timeout, an I/O error, a damaged file.
    public func step() throws(SQLiteError) -> Step {
        switch sqlite3_step(handle) {
        case SQLITE_ROW: return .row
        case SQLITE_DONE: return .done
        case let rc: throw SQLiteError("sqlite3_step", code: rc, db: database.handle)
        }
    }

    /// Makes the statement ready to run again and clears its parameters
    /// (sqlite3_reset(3), sqlite3_clear_bindings(3)). Its result code
    /// repeats the last `step`'s error, which that call threw already.
    public func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    /// The type of column `index` in the current row (sqlite3_column_type(3)).
    public func type(at index: Int32) -> ColumnType {
        switch sqlite3_column_type(handle, index) {
        case SQLITE_INTEGER: return .integer
        case SQLITE_FLOAT: return .float
        case SQLITE_TEXT: return .text
        case SQLITE_BLOB: return .blob
        default: return .null
        }
    }

    /// Column `index` as an integer (sqlite3_column_int64(3); 0 for NULL).
    public func int(at index: Int32) -> Int { Int(sqlite3_column_int64(handle, index)) }

    /// Column `index` as a floating-point value (sqlite3_column_double(3); 0 for NULL).
    public func double(at index: Int32) -> Double { sqlite3_column_double(handle, index) }

    /// Column `index` as UTF-8 text (sqlite3_column_text(3)), nil for NULL.
    public func string(at index: Int32) -> String? {
        guard sqlite3_column_type(handle, index) != SQLITE_NULL, let text = sqlite3_column_text(handle, index) else {
            return nil
        }
        // The length after the text: the conversion to text may change it.
        return String(decoding: UnsafeBufferPointer(start: text, count: Int(sqlite3_column_bytes(handle, index))), as: UTF8.self)
    }

    /// Column `index` as bytes (sqlite3_column_blob(3)), nil for NULL.
    public func blob(at index: Int32) -> [UInt8]? {
        guard sqlite3_column_type(handle, index) != SQLITE_NULL else { return nil }
        // An empty blob comes back as a NULL pointer.
        guard let bytes = sqlite3_column_blob(handle, index) else { return [] }
        return Array(UnsafeRawBufferPointer(start: bytes, count: Int(sqlite3_column_bytes(handle, index))))
    }

    private func check(_ function: String, _ rc: Int32) throws(SQLiteError) {
        guard rc == SQLITE_OK else { throw SQLiteError(function, code: rc, db: database.handle) }
    }

    private static func tooBig(_ function: String) -> SQLiteError {
        SQLiteError(function, code: SQLITE_TOOBIG, message: String(cString: sqlite3_errstr(SQLITE_TOOBIG)))
    }
}
