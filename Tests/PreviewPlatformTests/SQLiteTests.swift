import Glibc
import PreviewPlatform
import Testing

/// The SQLite wrapper over a database file in a fresh directory.
@Suite struct SQLiteTests {
    @Test func createInsertSelectAndReopen() throws {
        let dir = temporaryDirectory()
        defer { clean(dir) }
        let path = dir + "/test.sqlite"
        do {
            let db = try SQLiteDatabase(path: path)
            try db.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT, data BLOB)")
            let insert = try db.prepare("INSERT INTO t (id, name, data) VALUES (?, ?, ?)")
            for (id, name, data) in [(1, "één", [0, 1, 255] as [UInt8]), (2, "", []), (3, "a\u{0}b", [7])] {
                try insert.bind(id, at: 1)
                try insert.bind(name, at: 2)
                try insert.bind(blob: data, at: 3)
                #expect(try insert.step() == .done)
                #expect(db.changes == 1)
                insert.reset()
            }
            try insert.bind(4, at: 1)
            try insert.bind(nil, at: 2)
            try insert.bindNull(at: 3)
            #expect(try insert.step() == .done)
        }
        // Reopened: what was committed is there.
        let db = try SQLiteDatabase(path: path)
        let select = try db.prepare("SELECT id, name, data FROM t ORDER BY id")
        var rows: [[String]] = []
        while try select.step() == .row {
            rows.append(["\(select.int(at: 0))", select.string(at: 1) ?? "NULL", select.blob(at: 2).map { "\($0)" } ?? "NULL"])
        }
        #expect(rows == [["1", "één", "[0, 1, 255]"], ["2", "", "[]"], ["3", "a\u{0}b", "[7]"], ["4", "NULL", "NULL"]])
        select.reset()
        #expect(try select.step() == .row)
        #expect(select.type(at: 0) == .integer && select.type(at: 1) == .text && select.type(at: 2) == .blob)
        // WAL with synchronous=NORMAL (1) is what every connection gets.
        let mode = try db.prepare("PRAGMA journal_mode")
        #expect(try mode.step() == .row && mode.string(at: 0) == "wal")
        let sync = try db.prepare("PRAGMA synchronous")
        #expect(try sync.step() == .row && sync.int(at: 0) == 1)
    }

    @Test func errorsNameTheFunctionTheCodeAndSQLitesMessage() throws {
        let dir = temporaryDirectory()
        defer { clean(dir) }
        let db = try SQLiteDatabase(path: dir + "/test.sqlite", threading: .serialized)
        let syntax = try #require(throws: SQLiteError.self) { try db.prepare("SELEC 1") }
        #expect(syntax == SQLiteError("sqlite3_prepare_v2", code: 1, message: #"near "SELEC": syntax error"#))
        #expect(syntax.description == #"sqlite3_prepare_v2: near "SELEC": syntax error (code 1)"#)
        let exec = try #require(throws: SQLiteError.self) { try db.execute("DROP TABLE nosuch") }
        #expect(exec == SQLiteError("sqlite3_exec", code: 1, message: "no such table: nosuch"))
        try db.execute("CREATE TABLE t (k TEXT PRIMARY KEY)")
        let insert = try db.prepare("INSERT INTO t VALUES (?)")
        try insert.bind("x", at: 1)
        _ = try insert.step()
        insert.reset()
        try insert.bind("x", at: 1)
        let twice = try #require(throws: SQLiteError.self) { try insert.step() }
        // SQLITE_CONSTRAINT_PRIMARYKEY, an extended code.
        #expect(twice.function == "sqlite3_step" && twice.code == 1555 && twice.isConstraint && !twice.isDamagedFile)
        #expect(twice.message == "UNIQUE constraint failed: t.k")
        insert.reset()  // a statement is bound only between runs
        let range = try #require(throws: SQLiteError.self) { try insert.bind(1, at: 2) }
        #expect(range.function == "sqlite3_bind_int64" && range.code == 25)
        let open = try #require(throws: SQLiteError.self) { try SQLiteDatabase(path: dir + "/no/such/dir/x.sqlite") }
        #expect(open == SQLiteError("sqlite3_open_v2", code: 14, message: "unable to open database file"))
    }

    @Test func aFailedTransactionRollsBack() throws {
        let dir = temporaryDirectory()
        defer { clean(dir) }
        let db = try SQLiteDatabase(path: dir + "/test.sqlite")
        try db.execute("CREATE TABLE t (k INTEGER PRIMARY KEY)")
        let insert = try db.prepare("INSERT INTO t VALUES (?)")
        func add(_ k: Int) throws(SQLiteError) {
            defer { insert.reset() }
            try insert.bind(k, at: 1)
            _ = try insert.step()
        }
        try db.transaction { () throws(SQLiteError) in try add(1) }
        let error = try #require(throws: SQLiteError.self) {
            try db.transaction { () throws(SQLiteError) in
                try add(2)
                try add(1)  // refused: the whole transaction goes
            }
        }
        #expect(error.isConstraint)
        let count = try db.prepare("SELECT count(*), max(k) FROM t")
        #expect(try count.step() == .row && count.int(at: 0) == 1 && count.int(at: 1) == 1)
        // Out of the transaction again: the next one works.
        #expect(
            try db.transaction { () throws(SQLiteError) in
                try add(3); return 7
            } == 7)
    }

    @Test func aFileThatIsNoDatabaseSaysSo() throws {
        let dir = temporaryDirectory()
        defer { clean(dir) }
        try AtomicFile.write(Array(String(repeating: "x", count: 4096).utf8), to: dir + "/junk")
        let error = try #require(throws: SQLiteError.self) { try SQLiteDatabase(path: dir + "/junk") }
        #expect(error.isDamagedFile && error.code == 26 && error.message == "file is not a database")
    }
}
