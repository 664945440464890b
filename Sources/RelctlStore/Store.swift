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
    /// Locale tags read and found in their normal spelling (Reads.locale).
    var validLocales: Set<String> = []
    /// Schema.migrations.count, spelled out (a test holds them equal): every
    /// command checks it on opening, and counting built every migration's
    /// SQL, a quarter of relctl's own time in a completion callback.
    public static let schemaVersion: Int64 = 19

    public init(path: String, mode: Mode, user: String) throws {
        self.path = path
        self.user = user
        // SQLite takes "" for a private temporary database: never what a user meant.
        guard !path.isEmpty else {
            throw StoreError("the database path is empty", hint: "give a file path with --db PATH")
        }
        let fileState = DatabaseFile.kind(of: path)
        switch fileState {
        case .directory:
            throw StoreError("\(path) is a directory, not a database file",
                             hint: "pass a file path with --db PATH")
        case .missing where mode != .create:
            throw StoreError("no relctl database at \(path)",
                             fix: .either(.run(["init"], "create one with"), .advice("point --db (or RELCTL_DB) at an existing one")))
        case .other:
            throw StoreError("\(path) is not a regular file", hint: "point --db at a relctl database file")
        case .missing:
            // SQLite says only "unable to open database file"; name the folder that is missing.
            let folder = DatabaseFile.folder(of: path)
            switch DatabaseFile.kind(of: folder) {
            case .missing: throw StoreError("the folder \(folder) does not exist", hint: "create it first (mkdir -p \(folder)) or choose another --db path")
            case .file, .other: throw StoreError("\(folder) is not a folder", hint: "choose another --db path")
            default: break
            }
        case .file where mode == .write && !DatabaseFile.isWritable(path):
            throw StoreError("the database \(path) is read-only",
                             hint: "make it writable (chmod u+w \(path)) or copy it somewhere writable")
        default: break
        }
        do {
            db = try Store.open(path, mode: mode)
            try prepare(mode: mode)
        } catch let e as SQLiteError {
            throw Store.explain(e, path: path)
        }
    }

    /// The database file as last committed, through a connection of its
    /// own: while this store's session holds the write lock, the state
    /// before it. Read it only when `readsCommittedBesideWrites()` (never
    /// for a database in memory: this would open another, empty one).
    public func committed() throws -> Store {
        try Store(path: path, mode: .read, user: user)
    }

    /// Whether `committed()` can be read while this store's session writes.
    /// Only in WAL mode: in a rollback journal (a database switched to it by
    /// hand) a change too large for the cache takes the lock every reader
    /// needs, and the read would fail "database is locked". Never for a
    /// database in memory, which no other connection sees.
    public func readsCommittedBesideWrites() throws -> Bool {
        if path == ":memory:" { return false }
        return try db.scalar("PRAGMA journal_mode") == .text("wal")
    }

    /// A page cache of `megabytes` for this connection, for a command that
    /// reads most of a large database through its indexes (plan and apply of
    /// a fleet's file, a project after another): with SQLite's default (2,000 KiB), the
    /// indexes' inner pages were read again and again, 1.17 million
    /// `pread`s for a 170,000-page database (with 32 MiB, 170,000: each page once).
    /// Not for publish, whose peak memory is held low.
    public func cachePages(megabytes: Int) throws {
        try db.execute("PRAGMA cache_size = -\(megabytes << 10)")
    }

    /// Whether no file is at `path`: `plan` and `apply` take it for an empty database.
    public static func isMissing(_ path: String) -> Bool { DatabaseFile.kind(of: path) == .missing }

    /// Whether opening the database at `path` to read it only reads, as far
    /// as its file header tells: a relctl database of this relctl's schema
    /// in WAL mode (nothing to upgrade, and no writer to wait behind). By
    /// SQLite's file format: bytes 18 and 19 are 2 in WAL mode, 60 to 63
    /// hold the schema version and 68 to 71 the application id. False for
    /// anything else, a file that cannot be read included.
    public static func opensWithoutWriting(_ path: String) -> Bool {
        guard DatabaseFile.kind(of: path) == .file, let header = DatabaseFile.header(path), header.starts(with: Array("SQLite format 3\0".utf8)), header[18] == 2, header[19] == 2 else { return false }
        func number(at i: Int) -> Int64 { header[i..<(i + 4)].reduce(0) { $0 << 8 | Int64($1) } }
        return number(at: 60) == schemaVersion && number(at: 68) == Schema.applicationID
    }

    /// Removes a database file this process made and then did not use (an
    /// apply that applied nothing), with its write-ahead log and shared
    /// memory: only while it holds its first log line alone, so a database
    /// another process wrote to meanwhile is kept.
    public static func removeIfUnused(_ path: String, user: String) {
        guard let store = try? Store(path: path, mode: .write, user: user),
              (try? store.db.write { try store.db.scalar("SELECT count(*) FROM audit") == .int(1) && store.db.scalar("SELECT count(*) FROM project") == .int(0) }) == true
        else { return }
        for suffix in ["", "-wal", "-shm", "-journal"] { unlink(path + suffix) }
    }

    /// An empty relctl database in memory, gone with the store: what a plan
    /// against a database not made yet is made against.
    public static func empty(user: String, now: Int64) throws -> Store {
        let store = try Store(path: ":memory:", mode: .create, user: user)
        _ = try store.initialise(now: now)
        return store
    }

    /// Opens the connection. A reader that may not write the database's
    /// folder (or whose file system is read-only) cannot create the -shm
    /// file WAL reading needs: it reads the file as immutable instead, which
    /// is exact as long as no write-ahead log holds changes.
    private static func open(_ path: String, mode: Mode) throws -> Connection {
        func configured(_ c: Connection) throws -> Connection {
            c.translate = { [path] in Store.explain($0, path: path) }
            try c.execute("PRAGMA foreign_keys = ON")
            // No mapping of the file (SQLite's default): a publish reads the
            // whole database, and mapped pages it touched stay in its memory,
            // so its peak grew with the database; SQLite's own cache of read
            // pages stays at its 2 MiB.
            return c
        }
        let c = try Connection(path: path, readOnly: mode == .read, create: mode == .create)
        c.translate = { $0 }
        do {
            _ = try c.scalar("SELECT count(*) FROM sqlite_schema")
            return try configured(c)
        } catch let e as SQLiteError where mode == .read && [SQLITE_READONLY, SQLITE_CANTOPEN].contains(e.primary) {
            if (DatabaseFile.size(path + "-wal") ?? 0) > 0 {
                throw StoreError("the database \(path) has changes in \(path)-wal that only a process allowed to write its folder can merge",
                                 fix: .either(.run(["status", "--db", path], "run", then: "once as a user who can write that folder"), .advice("copy the database and its -wal file somewhere writable")))
            }
            return try configured(try Connection(path: path, readOnly: true, create: false, immutable: true))
        }
    }

    static func explain(_ e: SQLiteError, path: String) -> StoreError {
        if e.systemErrno == ENOSPC || e.primary == SQLITE_FULL {
            return StoreError("the disk holding \(path) is full", hint: "free some space and try again")
        }
        switch e.primary {
        case SQLITE_NOTADB:
            return StoreError("\(path) is not an SQLite database", fix: .either(.advice("point --db at a relctl database"), .run(["init", "--db", "NEWPATH"], "create one with")))
        case SQLITE_CORRUPT:
            return StoreError("the database \(path) is corrupt", hint: "restore it from a backup")
        case SQLITE_READONLY, SQLITE_CANTOPEN, SQLITE_PERM, SQLITE_AUTH:
            return StoreError("cannot write the database \(path): \(e.message)", hint: "check the permissions of the file and of its folder")
        case SQLITE_MISMATCH:
            return StoreError("the database \(path) has a bad row: \(e.message)",
                              hint: "correct that row (sqlite3 \(path)) or restore the database from a backup")
        case SQLITE_BUSY, SQLITE_LOCKED:
            return StoreError("the database \(path) stayed locked by another process for 15 s", hint: "try again when the other relctl has finished")
        default:
            return StoreError("database error on \(path): \(e.message)")
        }
    }

    private func prepare(mode: Mode) throws {
        // One statement, so one snapshot: a racing `relctl init` cannot be
        // seen half-way (tables made, application id not yet read).
        let state = try db.query("""
            SELECT (SELECT application_id FROM pragma_application_id), (SELECT user_version FROM pragma_user_version),
                   (SELECT count(*) FROM sqlite_schema)
            """)[0]
        let appID = state[0], version = state[1], tables = state[2]
        let isEmpty = tables == .int(0) && appID == .int(0)
        if isEmpty && mode != .create {
            throw StoreError("\(path) is not a relctl database (it is empty)",
                             fix: .run(["init", "--db", path], "run", then: "to set it up"))
        }
        if !isEmpty && appID != .int(Schema.applicationID) {
            throw StoreError("\(path) is an SQLite database but not a relctl one",
                             fix: .either(.advice("point --db at a relctl database"), .run(["init", "--db", "NEWPATH"], "create one with")))
        }
        guard case .int(let current) = version else { return }
        if current > Store.schemaVersion {
            throw StoreError("\(path) was written by a newer relctl (schema \(current), this relctl knows up to \(Store.schemaVersion))",
                             hint: "upgrade relctl to use this database")
        }
        // relctl sets the schema version in the transaction that makes the
        // tables: tables without one are damage, not a database to set up again.
        if !isEmpty && current == 0 {
            throw StoreError("the database \(path) has tables but no schema version (user_version 0)",
                             hint: "restore it from a backup")
        }
        guard current < Store.schemaVersion && current > 0 else { return }
        if mode == .write { try Store.migrate(db); return }
        // A reader of an older database upgrades it first, through a
        // connection of its own, when it may write; else it cannot read it.
        guard mode == .read else { return }
        guard DatabaseFile.isWritable(path) else {
            throw StoreError("\(path) was written by an older relctl (schema \(current)) and needs an upgrade, which needs write access",
                             fix: .run(["init", "--db", path], "run", then: "once as a user who may write it"))
        }
        try Store.migrate(try Store.open(path, mode: .write))
    }

    /// Runs the migrations the database lacks; true when it ran any.
    @discardableResult
    private static func migrate(_ db: Connection, audit: (() throws -> Void)? = nil) throws -> Bool {
        let migrated = try db.write {
            // Re-read inside the lock: another process may have migrated meanwhile.
            guard case .int(let now) = try db.scalar("PRAGMA user_version"), now < Store.schemaVersion else { return false }
            for (i, sql) in Schema.migrations.enumerated() where Int64(i) >= now {
                try db.execute(sql)
            }
            try db.execute("PRAGMA application_id = \(Schema.applicationID)")
            try db.execute("PRAGMA user_version = \(Store.schemaVersion)")
            try audit?()
            return true
        }
        // A migration may rewrite a whole table (5 rebuilds the notes): fold the
        // write-ahead log back into the file now rather than leave it that size.
        if migrated { _ = try? db.scalar("PRAGMA wal_checkpoint(TRUNCATE)") }
        return migrated
    }

    /// Sets up a new database: its tables and its first audit row in one
    /// transaction, so that of several `relctl init` racing on one path
    /// exactly one creates it and the others find it made. False when the
    /// database was already set up.
    public func initialise(now: Int64) throws -> Bool {
        if case .int(let v) = try db.scalar("PRAGMA user_version"), v >= Store.schemaVersion { return false }
        let created = try Store.migrate(db) {
            try self.db.run("INSERT INTO audit(at, user, project, action, kind, platforms) VALUES (?, ?, NULL, 'init', ?, '[]')",
                            [.int(now), .text(self.user), .text(ChangeKind.initialise.rawValue)])
        }
        // WAL after the tables, and a second init finds it already on.
        if created { try switchToWAL() }
        return created
    }

    /// Switching to WAL needs the only lock, and SQLite answers "busy" at
    /// once, without its busy timeout, while another process reads the file
    /// (a racing `relctl init` checking what it found): 1 init in 400 failed so.
    private func switchToWAL() throws {
        try db.execute("PRAGMA journal_mode = WAL", retryingBusyFor: 15_000)
    }

    /// Everything read inside `body` comes from one consistent state.
    public func read<T>(_ body: () throws -> T) throws -> T {
        try db.read(body)
    }

    /// SQLite's data version: changes whenever another connection (any
    /// process) commits to the database. `publish --watch` polls it.
    public func dataVersion() throws -> Int64 {
        try db.scalar("PRAGMA data_version").intValue ?? 0
    }

    /// The audit kinds that log what was done with the data, not a change to it.
    static let notChanges = "('publish', 'deploy', 'push', 'push failed')"

    /// The number of the last change: names the state a published tree came from.
    public func revision() throws -> Int64 {
        // Publishes, deploys and pushes are logged too, but they do not change what is published.
        // Newest first, so the scan stops at the first row that is none of them.
        try db.scalar("SELECT coalesce((SELECT id FROM audit WHERE kind NOT IN \(Store.notChanges) ORDER BY id DESC LIMIT 1), 0)").intValue ?? 0
    }

    /// The database's edit stamp: a new random value at every row change
    /// (schema 8; a count in 6 and 7), by relctl or by hand; in a change
    /// that makes a project, at its row and not at each of its rows (schema 16). With the
    /// revision, names the state a published tree came from; compared for
    /// equality only.
    public func edits() throws -> Int64 {
        try db.scalar("SELECT coalesce((SELECT n FROM edit_count WHERE id = 0), 0)").intValue ?? 0
    }

    /// Each project's revision and edit stamp.
    public func projectRevisions() throws -> Revisions {
        let global = try db.scalar("SELECT coalesce(max(id), 0) FROM audit WHERE project IS NULL AND kind NOT IN \(Store.notChanges)").intValue ?? 0
        var revisions = Revisions(everyProject: global)
        for row in try db.query("SELECT project, max(id) FROM audit WHERE project IS NOT NULL AND kind NOT IN \(Store.notChanges) GROUP BY project", []) {
            guard let slug = row.string(0), let id = row.int(1) else { continue }
            revisions.bySlug[slug] = max(id, global)
        }
        for row in try db.query("SELECT p.slug, e.edits FROM project_edit e JOIN project p ON p.id = e.project_id", []) {
            guard let slug = row.string(0), let stamp = row.int(1) else { continue }
            revisions.edits[slug] = stamp
        }
        return revisions
    }

    /// A row that does not decode: an error naming it, never a silent skip.
    func badRow(_ what: String, _ problem: String) -> StoreError {
        StoreError("the database \(path) has a bad row: \(what): \(problem)",
                   hint: "correct that row (sqlite3 \(path)) or restore the database from a backup")
    }
}
