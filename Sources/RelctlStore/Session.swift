import RelctlCore
import SQLite

/// One command's writes: the only way relctl changes a database. A session
/// holds one transaction (BEGIN IMMEDIATE) from when it opens until it is
/// committed or dropped, so everything it makes reads back, and nothing
/// reaches the file until `commit`. Each change in it is a savepoint with
/// its audit row and the rows it made (ChangeCapture; a preview's session,
/// never committed, logs only the rows it changed, not those it made); a
/// change that leaves every row as it was is rolled back and logs nothing:
/// unchanged is "no rows". A session dropped, or never committed, leaves
/// the database as it was (closing the connection rolls it back too).
///
/// The same session type serves every protocol a command follows: a trial
/// (made and read, then committed itself when nothing was asked, or
/// dropped), a dry run (made, reported, dropped) and a change made again
/// after a question, committed only when its rows are the ones the trial
/// showed.
public final class Session {
    public let store: Store
    let db: Connection
    /// Every row the session's changes made, before → after: per change, the rows it
    /// noted in the order first noted, then those above the marks, table by table
    /// (ChangeCapture.record). Every write of a version row is among them, which the
    /// lockout check counts on (`versionsWithoutMinOS`).
    public private(set) var rows: [RowChange] = []
    /// The audit entries it wrote, in order.
    public private(set) var entries: [Int64] = []
    /// Where each entry's rows begin among `rows` (an id one change removed, the next may make again).
    public private(set) var changeStarts: [Int] = []
    /// The projects its changes name; nil once a change names none.
    public private(set) var projectsChanged: Set<String>? = []
    public private(set) var isOpen = true
    /// Whether a floor or pin the stores do not serve is made anyway (--allow-store-risk; StoreCheck).
    public var allowStoreRisk = false
    /// What the store guard said of the changes made (StoreCheck).
    public internal(set) var storeNotes: [StoreNote] = []
    /// Platforms whose every version was read whole inside this session's
    /// transaction (a row damaged by hand would have stopped it then), none
    /// of them naming a minimum OS: with the session's own rows, what the
    /// lockout check needs to know nobody is locked out (`lockoutsTouched`).
    var versionsWithoutMinOS: Set<Int64> = []

    /// A preview's session (`plan`): only read, then dropped, never committed. The rows its
    /// changes make are read from their tables but not logged (ChangeCapture.record).
    public let forPreview: Bool

    init(_ store: Store, forPreview: Bool = false) throws {
        self.store = store
        self.forPreview = forPreview
        db = store.db
        // One session per connection: a second would share (and end) the first's transaction.
        guard !db.holding else { throw StoreError("a second write session was opened on the database \(store.path) while one was open", hint: "this is a defect of relctl; please report it") }
        try db.hold()
    }

    deinit { drop() }

    /// Whether no change of the session wrote anything.
    public var isEmpty: Bool { entries.isEmpty }

    /// Commits what the session made. With `shown`, only when its rows are
    /// exactly those: another writer may have changed the data while a
    /// question waited, and then nothing is committed.
    public func commit(expecting shown: [RowChange]? = nil) throws {
        guard isOpen else { return }
        // Its log lacks the rows its changes made: committed, nothing could undo them.
        if forPreview {
            drop()
            throw StoreError("a preview's changes were about to be committed; nothing was changed", hint: "this is a defect of relctl; please report it")
        }
        if let shown, shown != rows {
            drop()
            throw StoreError("the database changed while the change was shown; nothing was changed", hint: "run the command again to see its effect now")
        }
        isOpen = false
        try db.commitHeld()
    }

    /// Rolls everything back and lets the write lock go.
    public func drop() {
        guard isOpen else { return }
        isOpen = false
        db.dropHeld()
    }

    /// Thrown to roll back a change that made no rows.
    private struct NothingChanged: Error {}

    /// Makes one change of a project's rows: `body` writes them; they are
    /// recorded under the change's audit row, with the parts they touched
    /// stamped (Lineage). `adopting`: apply's file histories, taken once the body has run.
    @discardableResult
    func change<T>(_ change: Change, now: Int64, adopting: @autoclosure () -> Lineage.Adopting? = nil, _ body: () throws -> T) throws -> T {
        try self.change(now: now, adopting: adopting()) { (try body(), change) }
    }

    /// The same, when the change's words need what the body made (a new id, the entries a revert took back).
    func change<T>(now: Int64, adopting: @autoclosure () -> Lineage.Adopting? = nil, _ body: () throws -> (T, Change)) throws -> T {
        guard isOpen else { throw StoreError("this session is already committed or dropped") }
        var result: T? = nil
        let id: Int64
        var named: String?
        var made: [RowChange] = []
        do {
            id = try db.write {
                try ChangeCapture.begin(db)
                let (r, change) = try body()
                result = r
                named = change.project
                let id = try log(change, now: now)
                let recorded = try ChangeCapture.record(db, audit: id, loggingMade: !forPreview)
                guard recorded.noted + recorded.made.count > 0 else { throw NothingChanged() }
                // Not copied when nothing was noted: an apply into an empty database makes 850,000 rows.
                made = recorded.noted > 0 ? try store.rowChanges(of: id, upTo: recorded.lastNote) + recorded.made : recorded.made
                try guardStores(made, audit: id, now: now)
                try Lineage.stamp(store, rows: made, adopting: adopting())
                for reverted in change.reverts { try db.run("INSERT INTO audit_revert(audit_id, reverted) VALUES (?, ?)", [.int(id), .int(reverted)]) }
                return id
            }
        } catch is NothingChanged {
            return result!
        }
        // Counted once its savepoint is released: a change rolled back is none of the session's.
        entries.append(id)
        if let named { projectsChanged?.insert(named) } else { projectsChanged = nil }
        changeStarts.append(rows.count)
        if rows.isEmpty { rows = made } else { rows += made }
        return result!
    }

    /// Logs a change that is not a project's rows (a publish, a deploy, the
    /// default project): its audit row only.
    func record(_ change: Change, now: Int64) throws {
        guard isOpen else { throw StoreError("this session is already committed or dropped") }
        let id = try db.write { try log(change, now: now) }
        entries.append(id)
    }

    /// Writes what the stores were seen to serve (StoreEvidenceRows): rows
    /// that are not configuration, so none is captured and nothing undoes
    /// them, under an audit row of their own.
    func evidence(_ change: Change, now: Int64, _ body: () throws -> Void) throws {
        guard isOpen else { throw StoreError("this session is already committed or dropped") }
        let id = try db.write { try body(); return try log(change, now: now) }
        entries.append(id)
    }

    private func log(_ change: Change, now: Int64) throws -> Int64 {
        var platforms: [UInt8] = []
        JSON.array(change.platforms.map(JSON.string)).writeCompact(to: &platforms)
        try db.run("INSERT INTO audit(at, user, project, action, kind, platforms) VALUES (?, ?, ?, ?, ?, ?)",
                   [.int(now), .text(store.user), SQLValue(change.project), .text(change.action), .text(change.kind.rawValue),
                    .text(String(decoding: platforms, as: UTF8.self))])
        return db.lastInsertRowID
    }
}

extension Store {
    /// Opens a session: the command's writes go through it.
    /// `forPreview`: a session that is only read and dropped (Session.forPreview).
    public func session(forPreview: Bool = false) throws -> Session { try Session(self, forPreview: forPreview) }

    /// Writes through a session of its own, committed when `body` returns and dropped when it throws.
    public func write<T>(_ body: (Session) throws -> T) throws -> T {
        let session = try session()
        defer { session.drop() }
        let result = try body(session)
        try session.commit()
        return result
    }
}
