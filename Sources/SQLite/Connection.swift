#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CSQLite

// SQLITE_TRANSIENT is a macro C casts to a function pointer; Swift cannot import it.
private let SQLITE_TRANSIENT = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

/// One connection. Writes go through `write {}` (BEGIN IMMEDIATE) so that a
/// second process waits on the busy timeout instead of failing mid-transaction;
/// while a transaction is held (`hold`), as savepoints inside it.
public final class Connection {
    let handle: OpaquePointer
    private var statements: [String: OpaquePointer] = [:]

    /// `immutable` opens read-only without locks or a -shm file: for a file
    /// on read-only media or in a folder the reader cannot write.
    public init(path: String, readOnly: Bool, create: Bool, immutable: Bool = false) throws {
        var flags = readOnly || immutable ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE
        if create { flags |= SQLITE_OPEN_CREATE }
        flags |= SQLITE_OPEN_NOMUTEX
        var name = path
        if immutable {
            flags |= SQLITE_OPEN_URI
            name = "file:" + Connection.uriEscaped(path) + "?immutable=1"
        }
        _ = Connection.configured
        var db: OpaquePointer?
        let rc = sqlite3_open_v2(name, &db, flags, nil)
        guard rc == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
            if let db { sqlite3_close_v2(db) }
            throw SQLiteError(code: rc, message: message)
        }
        guard let count = relctl_sqlite3_row_function(db) else {
            let message = String(cString: sqlite3_errmsg(db))
            sqlite3_close_v2(db)
            throw SQLiteError(code: SQLITE_NOMEM, message: "cannot make relctl_row: \(message)")
        }
        handle = db
        rowCount = count
        sqlite3_extended_result_codes(db, 1)
        sqlite3_busy_timeout(db, 15_000)
    }

    /// SQLite's process-wide settings, made once before the first open.
    private static let configured: Int32 = relctl_sqlite3_memstatus_off()

    /// A path as the path part of an SQLite URI: '%', '?' and '#' escaped.
    static func uriEscaped(_ path: String) -> String {
        let hex = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "%"), UInt8(ascii: "?"), UInt8(ascii: "#"):
                out += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 15)]]
            default: out.append(byte)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    deinit {
        if holding { _ = sqlite3_exec(handle, "ROLLBACK", nil, nil, nil) }
        for (_, stmt) in statements { sqlite3_finalize(stmt) }
        sqlite3_close_v2(handle)
    }

    /// Turns SQLite's errors into the owner's, so that they never reach
    /// layers that know nothing of SQLite.
    public var translate: @Sendable (SQLiteError) -> Error = { $0 }

    private func error(_ rc: Int32) -> Error {
        translate(SQLiteError(code: sqlite3_extended_errcode(handle), message: String(cString: sqlite3_errmsg(handle)),
                              systemErrno: sqlite3_system_errno(handle)))
    }

    public func execute(_ sql: String) throws {
        let rc = sqlite3_exec(handle, sql, nil, nil, nil)
        if rc != SQLITE_OK { throw error(rc) }
    }

    /// `execute`, tried again every 10 ms for up to `milliseconds` while
    /// SQLite answers "busy" without waiting (its busy timeout does not cover
    /// every lock, such as the one a journal-mode switch needs).
    public func execute(_ sql: String, retryingBusyFor milliseconds: Int) throws {
        var waited = 0
        while true {
            let rc = sqlite3_exec(handle, sql, nil, nil, nil)
            if rc == SQLITE_OK { return }
            guard rc & 0xff == SQLITE_BUSY, waited < milliseconds else { throw error(rc) }
            usleep(10_000)
            waited += 10
        }
    }

    private func statement(_ sql: String) throws -> OpaquePointer {
        if let s = statements[sql] { return s }
        var stmt: OpaquePointer?
        let rc = sqlite3_prepare_v2(handle, sql, -1, &stmt, nil)
        guard rc == SQLITE_OK, let stmt else { throw error(rc) }
        statements[sql] = stmt
        return stmt
    }

    /// Runs one statement with bound values and returns every row.
    @discardableResult
    public func query(_ sql: String, _ args: [SQLValue] = []) throws -> [Row] {
        let stmt = try statement(sql)
        defer { sqlite3_reset(stmt); sqlite3_clear_bindings(stmt) }
        for (i, arg) in args.enumerated() {
            let idx = Int32(i + 1)
            let rc: Int32
            switch arg {
            case .null: rc = sqlite3_bind_null(stmt, idx)
            case .int(let n): rc = sqlite3_bind_int64(stmt, idx, n)
            case .text(let s): rc = Connection.bind(stmt, idx, s)
            }
            if rc != SQLITE_OK { throw error(rc) }
        }
        var rows: [Row] = []
        let columns = sqlite3_column_count(stmt)
        let cursor = Cursor(stmt: stmt, integers: (0..<columns).map { Connection.isDeclaredInteger(stmt, $0) })
        while true {
            let rc = sqlite3_step(stmt)
            if rc == SQLITE_DONE { break }
            guard rc == SQLITE_ROW else { throw error(rc) }
            var values: [SQLValue] = []
            values.reserveCapacity(Int(columns))
            do {
                for c in 0..<columns { values.append(try cursor.value(c)) }
            } catch let e as SQLiteError { throw translate(e) }
            rows.append(Row(values: values))
        }
        return rows
    }

    /// Text bound by its length: a string with a NUL in it is stored whole, never cut there.
    @discardableResult
    static func bind(_ stmt: OpaquePointer?, _ idx: Int32, _ s: String) -> Int32 {
        sqlite3_bind_text(stmt, idx, s, Int32(s.utf8.count), SQLITE_TRANSIENT)
    }

    /// A text column by its length: all of it, NULs included. Bytes that are
    /// not UTF-8 (written by hand with a cast) are an error naming the column,
    /// never text silently repaired into something else.
    static func text(_ stmt: OpaquePointer?, _ column: Int32) throws -> String {
        let count = Int(sqlite3_column_bytes(stmt, column))
        guard let p = sqlite3_column_text(stmt, column) else { return "" }
        // SQLite ends every text with a NUL: with none inside, the C-string reader (much faster than the generic one) sees all of it.
        let whole = strlen(p) == count
        let text = whole ? p.withMemoryRebound(to: CChar.self, capacity: count + 1) { String(validatingCString: $0) }
                         : String(validating: UnsafeBufferPointer(start: p, count: count), as: UTF8.self)
        guard let s = text else {
            let name = sqlite3_column_name(stmt, column).map { String(cString: $0) } ?? "#\(column)"
            throw SQLiteError(code: SQLITE_MISMATCH, message: "a value of column \(name) is not UTF-8 text")
        }
        return s
    }

    /// Whether result column `c` is a table column declared with an integer
    /// type (INTEGER, INT, BIGINT, …; SQLite's rule for integer affinity:
    /// "INT" anywhere, ASCII letters of either case). Asked of every column
    /// of every query, so SQLite's own matcher reads the C string in place
    /// (a String upper-cased and searched was 4 % of a `version add`).
    static func isDeclaredInteger(_ stmt: OpaquePointer, _ c: Int32) -> Bool {
        guard let declared = sqlite3_column_decltype(stmt, c) else { return false }
        return sqlite3_strglob("*[Ii][Nn][Tt]*", declared) == 0
    }

    /// The error for a value of an integer column that is not a whole
    /// number: text or a real, which only a table without STRICT (a foreign
    /// writer, an old tool) can hold. Read as NULL or 0 it would bring a
    /// cancelled window back or drop a deadline; it names the column, its
    /// value and, when the row's first column is its id, the row.
    static func notAnInteger(_ stmt: OpaquePointer, _ c: Int32) -> SQLiteError {
        func name(_ p: UnsafePointer<CChar>?) -> String? { p.map { String(cString: $0) } }
        let table = name(sqlite3_column_table_name(stmt, c)).map { $0 + "." } ?? ""
        let column = name(sqlite3_column_origin_name(stmt, c)) ?? name(sqlite3_column_name(stmt, c)) ?? "#\(c)"
        let kind = sqlite3_column_type(stmt, c) == SQLITE_FLOAT ? "the number" : sqlite3_column_type(stmt, c) == SQLITE_BLOB ? "the blob" : "the text"
        var value = (try? text(stmt, c)) ?? "?"
        if value.count > 40 { value = String(value.prefix(40)) + "…" }
        let row = c != 0 && name(sqlite3_column_origin_name(stmt, 0)) == "id" && sqlite3_column_type(stmt, 0) == SQLITE_INTEGER
            ? " of row id \(sqlite3_column_int64(stmt, 0))" : ""
        return SQLiteError(code: SQLITE_MISMATCH, message: "\(table)\(column)\(row) holds \(kind) '\(value)' where a whole number belongs")
    }

    /// Steps through the rows without materialising them: for bulk reads.
    public func each(_ sql: String, _ args: [SQLValue] = [], _ body: (Cursor) throws -> Void) throws {
        let stmt = try statement(sql)
        defer { sqlite3_reset(stmt); sqlite3_clear_bindings(stmt) }
        for (i, arg) in args.enumerated() {
            let idx = Int32(i + 1)
            switch arg {
            case .null: sqlite3_bind_null(stmt, idx)
            case .int(let n): sqlite3_bind_int64(stmt, idx, n)
            case .text(let s): Connection.bind(stmt, idx, s)
            }
        }
        let integers = (0..<sqlite3_column_count(stmt)).map { Connection.isDeclaredInteger(stmt, $0) }
        while true {
            let rc = sqlite3_step(stmt)
            if rc == SQLITE_DONE { break }
            guard rc == SQLITE_ROW else { throw error(rc) }
            do { try body(Cursor(stmt: stmt, integers: integers)) } catch let e as SQLiteError { throw translate(e) }
        }
    }

    public func run(_ sql: String, _ args: [SQLValue] = []) throws {
        try query(sql, args)
    }

    /// What `relctl_row(base)` adds to its base (relctl_sqlite3_row_function), SQLite's to free.
    private let rowCount: UnsafeMutablePointer<Int64>

    /// Runs `sql`, in which `relctl_row(base)` is base + 1, base + 2, ...:
    /// one more each time SQLite calls it, which for rows that one scan
    /// gives, unsorted, is the order they come in.
    public func runNumbering(_ sql: String, _ args: [SQLValue] = []) throws {
        rowCount.pointee = 0
        try run(sql, args)
    }

    public func scalar(_ sql: String, _ args: [SQLValue] = []) throws -> SQLValue {
        try query(sql, args).first?[0] ?? .null
    }

    public var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }
    public var changes: Int { Int(sqlite3_changes(handle)) }
    /// Rows written since the connection opened, those its triggers wrote
    /// included (tests: that a statement's triggers wrote nothing).
    public var totalChanges: Int64 { sqlite3_total_changes64(handle) }

    /// Runs `body` with the database's triggers off on this connection
    /// (SQLITE_DBCONFIG_ENABLE_TRIGGER; TEMP triggers and RETURNING still
    /// run), for rows every trigger leaves alone, where merely firing them
    /// was most of the insert. Each switch has SQLite prepare every statement
    /// again at its next use, which is also what keeps a statement prepared
    /// with them off from running without them later. Afterwards they are as
    /// they were, however `body` ends; were SQLite to refuse to turn them
    /// off, `body` runs with them on. With `when` false, `body` runs with
    /// them as they are.
    public func withoutTriggers<T>(when off: Bool = true, _ body: () throws -> T) throws -> T {
        guard off else { return try body() }
        let was = relctl_sqlite3_triggers(handle, -1)
        guard was == 1, relctl_sqlite3_triggers(handle, 0) == 0 else { return try body() }
        // Turning them on cannot fail (a flag of the connection); were it to, every later write
        // would go unlogged, so it stops the process rather than go on.
        defer { precondition(relctl_sqlite3_triggers(handle, 1) == 1, "SQLite did not turn the triggers back on") }
        return try body()
    }

    /// Whether a transaction is held open (`hold`): writes and reads happen
    /// inside it, and it ends, rolled back, with the connection.
    public private(set) var holding = false

    /// Opens a write transaction that is never committed: every later write
    /// goes into it (as a savepoint) and every read sees them, and closing
    /// the connection, or the process ending, rolls it all back.
    public func hold() throws {
        guard !holding else { return }
        try execute("BEGIN IMMEDIATE")
        holding = true
    }

    /// Commits the held transaction: what a change held while it was
    /// checked against what its preview showed is made.
    public func commitHeld() throws {
        guard holding else { return }
        holding = false
        do { try execute("COMMIT") } catch {
            // A COMMIT that failed (a full disk, an I/O error) may leave the transaction open: end it, nothing made.
            _ = sqlite3_exec(handle, "ROLLBACK", nil, nil, nil)
            throw error
        }
    }

    /// Rolls the held transaction back and lets the write lock go.
    public func dropHeld() {
        guard holding else { return }
        _ = sqlite3_exec(handle, "ROLLBACK", nil, nil, nil)
        holding = false
    }

    /// A write transaction. IMMEDIATE takes the write lock up front, so the
    /// busy timeout applies and no reader-turned-writer deadlock can occur.
    public func write<T>(_ body: () throws -> T) throws -> T {
        // While a transaction is held, the write is a savepoint inside it.
        let (begin, commit, rollback) = holding ? ("SAVEPOINT held_write", "RELEASE held_write", "ROLLBACK TO held_write; RELEASE held_write")
                                                : ("BEGIN IMMEDIATE", "COMMIT", "ROLLBACK")
        // SQLite may have rolled a held transaction back on its own (an I/O error, a full
        // disk): a savepoint then would open a transaction of its own, and its release commit it.
        if holding, sqlite3_get_autocommit(handle) != 0 {
            holding = false
            throw translate(SQLiteError(code: SQLITE_ABORT, message: "the transaction held for a dry run was rolled back"))
        }
        try execute(begin)
        do {
            let result = try body()
            try execute(commit)
            return result
        } catch {
            // The first error is the one worth reporting; a failed rollback is not.
            _ = sqlite3_exec(handle, rollback, nil, nil, nil)
            throw error
        }
    }

    /// A consistent snapshot for everything read inside `body`.
    public func read<T>(_ body: () throws -> T) throws -> T {
        if holding { return try body() }
        try execute("BEGIN DEFERRED")
        defer { _ = sqlite3_exec(handle, "COMMIT", nil, nil, nil) }
        return try body()
    }
}
