import CSQLite
import RelctlCore
import SQLite
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The relctl database: opening with every check a user deserves a clear
/// message for, migrations, and the audit trail.
public final class Store {
    public enum Mode { case create, write, read }

    public let path: String
    let db: Connection
    let user: String

    public static let schemaVersion = Int64(Schema.migrations.count)

    public init(path: String, mode: Mode, user: String) throws {
        self.path = path
        self.user = user
        let fileState = DatabaseFile.kind(of: path)
        switch fileState {
        case .directory:
            throw StoreError("\(path) is a directory, not a database file",
                             hint: "pass a file path with --db PATH")
        case .missing where mode != .create:
            throw StoreError("no relctl database at \(path)",
                             hint: "create one with 'relctl init', or point --db (or RELCTL_DB) at an existing one")
        case .other:
            throw StoreError("\(path) is not a regular file", hint: "point --db at a relctl database file")
        case .file where mode == .write && !DatabaseFile.isWritable(path):
            throw StoreError("the database \(path) is read-only",
                             hint: "make it writable (chmod u+w \(path)) or copy it somewhere writable")
        default: break
        }
        do {
            db = try Connection(path: path, readOnly: mode == .read, create: mode == .create)
            db.translate = { [path] in Store.explain($0, path: path) }
            try db.execute("PRAGMA foreign_keys = ON")
            // Read pages through a mapping rather than a pread each: a
            // publish reads the whole database, many pages more than once.
            try db.execute("PRAGMA mmap_size = 268435456")
            try prepare(mode: mode, isNew: fileState == .missing)
        } catch let e as SQLiteError {
            throw Store.explain(e, path: path)
        }
    }

    static func explain(_ e: SQLiteError, path: String) -> StoreError {
        switch e.primary {
        case SQLITE_NOTADB:
            return StoreError("\(path) is not an SQLite database", hint: "point --db at a relctl database, or create one with 'relctl init --db NEWPATH'")
        case SQLITE_CORRUPT:
            return StoreError("the database \(path) is corrupt", hint: "restore it from a backup")
        case SQLITE_READONLY, SQLITE_CANTOPEN, SQLITE_PERM, SQLITE_AUTH:
            return StoreError("cannot write the database \(path): \(e.message)", hint: "check the permissions of the file and of its folder")
        case SQLITE_BUSY, SQLITE_LOCKED:
            return StoreError("the database \(path) stayed locked by another process for 15 s", hint: "try again when the other relctl has finished")
        case SQLITE_FULL:
            return StoreError("the disk holding \(path) is full", hint: "free some space and try again")
        default:
            return StoreError("database error on \(path): \(e.message)")
        }
    }

    private func prepare(mode: Mode, isNew: Bool) throws {
        let appID = try db.scalar("PRAGMA application_id")
        let version = try db.scalar("PRAGMA user_version")
        let tables = try db.scalar("SELECT count(*) FROM sqlite_schema")
        let isEmpty = tables == .int(0) && appID == .int(0)
        if isEmpty && mode != .create {
            throw StoreError("\(path) is not a relctl database (it is empty)",
                             hint: "run 'relctl init --db \(path)' to set it up")
        }
        if !isEmpty && appID != .int(Schema.applicationID) {
            throw StoreError("\(path) is an SQLite database but not a relctl one",
                             hint: "point --db at a relctl database, or create one with 'relctl init --db NEWPATH'")
        }
        guard case .int(let current) = version else { return }
        if current > Store.schemaVersion {
            throw StoreError("\(path) was written by a newer relctl (schema \(current), this relctl knows up to \(Store.schemaVersion))",
                             hint: "upgrade relctl to use this database")
        }
        guard current < Store.schemaVersion else { return }
        if mode != .read {
            if isEmpty { try db.execute("PRAGMA journal_mode = WAL") }
            try Store.migrate(db)
            return
        }
        // A reader of an older database upgrades it first, through a
        // connection of its own, when it may write; else it cannot read it.
        guard DatabaseFile.isWritable(path) else {
            throw StoreError("\(path) was written by an older relctl (schema \(current)) and needs an upgrade, which needs write access",
                             hint: "run 'relctl init --db \(path)' once as a user who may write it")
        }
        let upgrader = try Connection(path: path, readOnly: false, create: false)
        upgrader.translate = db.translate
        try Store.migrate(upgrader)
    }

    /// Applies the migrations the database lacks, in one write transaction.
    private static func migrate(_ db: Connection) throws {
        try db.write {
            // Re-read inside the lock: another process may have migrated meanwhile.
            guard case .int(let now) = try db.scalar("PRAGMA user_version") else { return }
            for (i, sql) in Schema.migrations.enumerated() where Int64(i) >= now {
                try db.execute(sql)
            }
            try db.execute("PRAGMA application_id = \(Schema.applicationID)")
            try db.execute("PRAGMA user_version = \(Store.schemaVersion)")
        }
    }

    /// One mutation: BEGIN IMMEDIATE, the change, its audit line, COMMIT.
    /// Every write method of the store goes through here.
    func change<T>(project: String?, _ action: String, now: Int64, _ body: () throws -> T) throws -> T {
        try db.write {
            let result = try body()
            try db.run("INSERT INTO audit(at, user, project, action) VALUES (?, ?, ?, ?)",
                       [.int(now), .text(user), SQLValue(project), .text(action)])
            return result
        }
    }

    /// Everything read inside `body` comes from one consistent state.
    public func read<T>(_ body: () throws -> T) throws -> T {
        try db.read(body)
    }

    /// The number of the last change: names the state a published tree came from.
    public func revision() throws -> Int64 {
        try db.scalar("SELECT coalesce(max(id), 0) FROM audit").intValue ?? 0
    }

    /// A row that does not decode: an error naming it, never a silent skip.
    func badRow(_ what: String, _ problem: String) -> StoreError {
        StoreError("the database \(path) has a bad row: \(what): \(problem)",
                   hint: "correct that row (sqlite3 \(path)) or restore the database from a backup")
    }
}
