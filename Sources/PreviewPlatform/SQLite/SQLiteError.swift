import CSQLite

/// A failed SQLite call: which C function, the result code it returned and
/// the connection's message for it (sqlite3_errmsg(3)), e.g.
/// `sqlite3_prepare_v2: near "SELEC": syntax error (code 1)`.
public struct SQLiteError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The C function that failed (`sqlite3_open_v2`, `sqlite3_step`, ...).
    public let function: String
    /// The extended result code (`SQLITE_CONSTRAINT_PRIMARYKEY` is 1555);
    /// `primaryCode` is the family (`SQLITE_CONSTRAINT`, 19).
    public let code: Int32
    /// sqlite3_errmsg(3) right after the call, or sqlite3_errstr(3) of the
    /// code when there was no connection to ask.
    public let message: String

    /// - Parameters: function: the C function; code: its result code;
    ///   message: what SQLite said about it.
    public init(_ function: String, code: Int32, message: String) {
        self.function = function
        self.code = code
        self.message = message
    }

    /// The error of the call just made on `db`: build it before any other
    /// call on that connection, which would replace the message.
    init(_ function: String, code: Int32, db: OpaquePointer?) {
        let message = db.flatMap { sqlite3_errmsg($0) } ?? sqlite3_errstr(code)
        self.init(function, code: code, message: message.map { String(cString: $0) } ?? "error \(code)")
    }

    /// The result code without its extended part (the low 8 bits).
    public var primaryCode: Int32 { code & 0xff }
    /// SQLITE_CORRUPT or SQLITE_NOTADB: the file is no usable database
    /// (damaged, or something else under that name). Other errors (a full
    /// disk, permissions, a lock) say nothing about the file's content.
    public var isDamagedFile: Bool { primaryCode == SQLITE_CORRUPT || primaryCode == SQLITE_NOTADB }
    /// SQLITE_CONSTRAINT: a UNIQUE, NOT NULL, CHECK or type (STRICT) rule refused the row.
    public var isConstraint: Bool { primaryCode == SQLITE_CONSTRAINT }

    /// `FUNCTION: MESSAGE (code CODE)`.
    public var description: String { "\(function): \(message) (code \(code))" }
}
