import RelctlCore
import SQLite

/// Taking changes back (`relctl undo`, `relctl revert ID`): the rows an
/// audit entry changed (ChangeCapture) are put back as they were before
/// it, in one transaction that is itself an audit entry, so a revert can be
/// reverted. Refused, with the database unchanged, when a later change
/// touched the same rows (unless those are taken back too, `withLater`), a
/// row is not as the change left it (edited by hand since), or putting the
/// rows back would change others (a version added since to a platform
/// being removed again).
extension Store {
    /// What a revert took back.
    public struct Reverted: Sendable {
        /// The entries taken back, newest first.
        public var entries: [AuditEntry]
        /// The new audit entry's id (a --dry-run's is held, and not kept).
        public var id: Int64
        /// The rows it changed.
        public var changes: [RowChange]
    }

    /// One entry of the log, with its changes; an error naming the id when there is none.
    public func auditEntry(_ id: Int64) throws -> AuditEntry {
        guard let r = try db.query("SELECT id, at, user, project, action, kind, platforms FROM audit WHERE id = ?", [.int(id)]).first else {
            throw StoreError("no change #\(id) in the log", fix: .run(["log"], "see the changes and their ids with"))
        }
        var e = AuditEntry(id: id, at: try instant(r.int(1), "audit entry #\(id)", "at")!, user: r.text(2), project: r.string(3), action: r.text(4), kind: r.text(5),
                           platforms: try platforms(r.string(6), of: id))
        e.changes = try rowChanges(of: id)
        e.reverts = try db.query("SELECT reverted FROM audit_revert WHERE audit_id = ? ORDER BY reverted", [.int(id)]).compactMap { $0.int(0) }
        return e
    }

    /// The change `relctl undo` takes back: the newest of `project` (any
    /// project when nil) that changed rows and is not undone. Undo goes back
    /// one change at a time: a revert is not itself undone by the next undo
    /// (`relctl revert` of the revert's id puts its change back).
    public func lastUndoable(project: String?) throws -> AuditEntry? {
        let undone = try undoneEntries()
        let rows = try db.query("""
            SELECT a.id FROM audit a
            WHERE (?1 IS NULL OR a.project = ?1) AND a.project IS NOT NULL
              AND EXISTS (SELECT 1 FROM audit_change c WHERE c.audit_id = a.id)
              AND NOT EXISTS (SELECT 1 FROM audit_revert r WHERE r.audit_id = a.id)
            ORDER BY a.id DESC
            """, [SQLValue(project)])
        guard let id = rows.compactMap({ $0.int(0) }).first(where: { !undone.contains($0) }) else { return nil }
        return try auditEntry(id)
    }

    /// The row as change `id` left it.
    func leftAs(_ row: RowID, by id: Int64) throws -> [String: JSON]? {
        let m = row.match
        guard let text = try db.query("SELECT after FROM audit_change WHERE audit_id = ? AND \(m.sql)", [.int(id)] + m.args).first?.string(0),
              case .object(let o)? = try? JSONReader.parse(Array(text.utf8)) else { return nil }
        return o
    }

    /// The entries a revert in force took back: walking the reverts newest
    /// first, a revert itself taken back takes nothing back.
    func undoneEntries() throws -> Set<Int64> {
        var undone = Set<Int64>()
        for r in try db.query("SELECT audit_id, group_concat(reverted) FROM audit_revert GROUP BY audit_id ORDER BY audit_id DESC") {
            guard let id = r.int(0), !undone.contains(id), let list = r.string(1) else { continue }
            for part in list.split(separator: ",") { if let n = Int64(part) { undone.insert(n) } }
        }
        return undone
    }

    /// The refusal naming the later changes in the way.
    func laterChanges(_ later: [Int64: [RowID]], of id: Int64) throws -> StoreError {
        let named = try later.keys.sorted().prefix(5).map { l in "#\(l) (\(try auditEntry(l).action))" }
        let more = later.count > 5 ? " and \(later.count - 5) more" : ""
        return StoreError("change #\(id) cannot be reverted alone: later changes touched the same rows: \(named.joined(separator: ", "))\(more)",
                          fix: .either(.flag("--with-later", "to revert them too, newest first"), .run(["revert", String(later.keys.max()!)], "revert the newest of them first with")))
    }

    /// The row as it is now (nil: not there), in the shape ChangeCapture records.
    func image(_ row: RowID) throws -> [String: JSON]? {
        let table = try captureTable(row.table)
        guard row.key.count == table.key.count else {
            throw badRow("audit_change of \(row)", "its row_key does not fit the table's key")
        }
        let sql = "SELECT \(ChangeCapture.image(table, table.name)) FROM \(table.name) WHERE " + table.key.map { "\($0) IS ?" }.joined(separator: " AND ")
        guard let r = try db.query(sql, row.key.map(Store.sqlValue)).first, let text = r.string(0) else { return nil }
        guard case .object(let o)? = try? JSONReader.parse(Array(text.utf8)) else { return nil }
        return o
    }

    func captureTable(_ name: String) throws -> ChangeCapture.Table {
        guard let t = ChangeCapture.table(name) else {
            throw badRow("audit_change", "it names the table '\(name)', which relctl does not record")
        }
        return t
    }

    /// Whether a row as it is now is as a change recorded it: on the columns
    /// the record has (a column added since, like schema 11's formats, is in
    /// no image recorded before it).
    static func same(_ now: [String: JSON]?, as recorded: [String: JSON]?) -> Bool {
        guard let now, let recorded else { return now == nil && recorded == nil }
        return now.filter { recorded[$0.key] != nil } == recorded
    }

    static func sqlValue(_ v: JSON) -> SQLValue {
        switch v {
        case .int(let n): return .int(n)
        case .string(let s): return .text(s)
        default: return .null
        }
    }
}

extension Session {
    /// Takes back the change `id` (and with `withLater`, every later change
    /// to the rows it touched, or to rows that putting them back would change).
    public func revert(_ id: Int64, withLater: Bool, now: Int64) throws -> Store.Reverted {
        // A revert reads the log, this session's entries among them, which a preview's lacks the made rows of.
        guard !forPreview else { throw StoreError("a revert was made in a preview's session", hint: "this is a defect of relctl; please report it") }
        let target = try store.auditEntry(id)
        guard !target.changes.isEmpty else {
            throw StoreError("change #\(id) (\(target.action)) recorded no rows to put back: \(target.kind == "init" || target.project == nil ? "it is not a change to a project" : "it was made before relctl recorded changes as data, or changed no configuration")",
                             fix: .run(["log"], "see the changes that can be reverted with"))
        }
        if try store.undoneEntries().contains(id), let by = try db.query("SELECT max(audit_id) FROM audit_revert WHERE reverted = ?", [.int(id)]).first?.int(0) {
            throw StoreError("change #\(id) (\(target.action)) is already taken back, by #\(by)", fix: .run(["revert", String(by)], "to put it back, revert that one:"))
        }
        let before = entries.count
        var reverted = try change(now: now) {
            var set: [Int64: AuditEntry] = [id: target]
            while true {
                try db.execute("SAVEPOINT revert")
                if let more = try attempt(set, withLater: withLater) {
                    try db.execute("ROLLBACK TO revert; RELEASE revert")
                    for e in more { set[e] = try store.auditEntry(e) }
                    continue
                }
                try db.execute("RELEASE revert")
                break
            }
            let entries = set.values.sorted { $0.id > $1.id }
            let others = entries.dropLast().reversed().map { "#\($0.id)" }
            var change = Change(.revert, project: target.project, platforms: Set(entries.flatMap { $0.platforms ?? [] }).sorted(),
                                "revert #\(id)\(others.isEmpty ? "" : " with " + others.joined(separator: ", ")): \(target.action)")
            change.reverts = entries.map(\.id).reversed()
            return (Store.Reverted(entries: entries, id: 0, changes: []), change)
        }
        // The entry is held until the session commits, and reads back.
        if entries.count > before, let made = entries.last {
            reverted.id = made
            reverted.changes = try store.rowChanges(of: made)
        }
        return reverted
    }

    /// Puts back the rows of the entries in `set`, newest first, each only
    /// where its rows are as it left them (later changes that were since
    /// taken back net to nothing); the later changes to add to the set (with
    /// `withLater`), or nil when done.
    private func attempt(_ set: [Int64: AuditEntry], withLater: Bool) throws -> [Int64]? {
        let entries = set.values.sorted { $0.id > $1.id }
        let undone = try store.undoneEntries()
        /// The later changes outside the set that touched `row` after `id`.
        func later(_ row: RowID, after id: Int64) throws -> [Int64] {
            let m = row.match
            return try db.query("SELECT DISTINCT audit_id FROM audit_change WHERE \(m.sql) AND audit_id > ? ORDER BY audit_id", m.args + [.int(id)])
                .compactMap { $0.int(0) }.filter { set[$0] == nil }
        }
        /// Those still in force: what is in the way. (Taken back too, with
        /// `withLater`, are all of them, undone ones included: putting each
        /// back, newest first, walks the row's history back exactly.)
        func laterInForce(_ row: RowID, after id: Int64) throws -> [Int64] { try later(row, after: id).filter { !undone.contains($0) } }
        var expected = Set<RowID>()
        try db.execute("DELETE FROM row_change")
        for e in entries {
            var inWay: [Int64: [RowID]] = [:]
            for c in e.changes {
                let row = RowID(c)
                expected.insert(row)
                let now = try store.image(row)
                guard !Store.same(now, as: c.after) else { continue }
                let found = try laterInForce(row, after: e.id)
                // Not as the newest of them left it either: a hand edit since, which no option may overwrite.
                if try found.last.map({ !Store.same(now, as: try store.leftAs(row, by: $0)) }) ?? true {
                    throw StoreError("\(row.words(c)) is not as change #\(e.id) left it: it was changed by hand since, and reverting would overwrite that",
                                     hint: "put it back by hand, or make the change you want with a command")
                }
                for l in found { inWay[l, default: []].append(row) }
            }
            if !inWay.isEmpty {
                if withLater { return try Set(e.changes.flatMap { try later(RowID($0), after: e.id) }).sorted() }
                throw try store.laterChanges(inWay, of: e.id)
            }
            try putBack(e.changes)
        }
        // Rows the revert changed that none of the set did: a cascade
        // (children added since to a row it removes).
        var extra: [RowID] = []
        try db.each("SELECT DISTINCT tbl, row_key FROM row_change") { c in
            guard case .array(let key)? = try? JSONReader.parse(Array((try c.text(1) ?? "").utf8)) else { return }
            let row = RowID(table: try c.text(0) ?? "", key: key)
            if !expected.contains(row) { extra.append(row) }
        }
        guard !extra.isEmpty else { return nil }
        var owners: [Int64: [RowID]] = [:]
        for row in extra {
            for l in try laterInForce(row, after: entries.last!.id) { owners[l, default: []].append(row) }
        }
        if withLater && !owners.isEmpty { return try Set(extra.flatMap { try later($0, after: entries.last!.id) }).sorted() }
        if owners.isEmpty {
            throw StoreError("reverting would also change \(extra.count) row\(extra.count == 1 ? "" : "s") (\(extra.sorted { $0.order < $1.order }.prefix(3).map(\.description).joined(separator: ", "))) that no change in the log made",
                             hint: "those rows were made by hand or before relctl recorded changes; change them with commands instead")
        }
        throw try store.laterChanges(owners, of: entries.last!.id)
    }

    /// Applies the inverse of one entry's changes: rows it added go
    /// (children first), rows it changed take their old values, rows it
    /// removed come back (parents first), as the foreign keys require.
    private func putBack(_ changes: [RowChange]) throws {
        let rank = { (c: RowChange) in ChangeCapture.rank(c.table) ?? 0 }
        for c in changes.filter({ $0.before == nil }).sorted(by: { rank($0) > rank($1) }) {
            let t = try store.captureTable(c.table)
            try db.run("DELETE FROM \(t.name) WHERE " + t.key.map { "\($0) IS ?" }.joined(separator: " AND "), c.key.map(Store.sqlValue))
        }
        for c in changes where c.before != nil && c.after != nil {
            let t = try store.captureTable(c.table)
            let columns = c.changedColumns.filter(t.columns.contains)
            guard !columns.isEmpty else { continue }
            try db.run("UPDATE \(t.name) SET " + columns.map { "\($0) = ?" }.joined(separator: ", ") + " WHERE " + t.key.map { "\($0) IS ?" }.joined(separator: " AND "),
                       columns.map { Store.sqlValue(c.before![$0] ?? .null) } + c.key.map(Store.sqlValue))
        }
        for c in changes.filter({ $0.after == nil }).sorted(by: { rank($0) < rank($1) }) {
            let t = try store.captureTable(c.table)
            let columns = t.columns.filter { c.before![$0] != nil }
            do {
                try db.run("INSERT INTO \(t.name)(" + columns.joined(separator: ", ") + ") VALUES (" + columns.map { _ in "?" }.joined(separator: ", ") + ")",
                           columns.map { Store.sqlValue(c.before![$0]!) })
            } catch let e as StoreError {
                throw StoreError("cannot put back \(RowID(c).words(c)): \(e.message)", hint: "a row added since takes its place; revert or remove that one first")
            }
        }
    }
}

/// A row by its table and key values.
struct RowID: Hashable, CustomStringConvertible {
    let table: String
    let key: [JSON]
    /// The key as compact JSON: what the row is hashed and ordered by.
    private let spelled: String
    init(table: String, key: [JSON]) {
        self.table = table
        self.key = key
        spelled = String(decoding: JSON.array(key).compactBytes().filter { $0 != 10 }, as: UTF8.self)
    }
    init(_ c: RowChange) { self.init(table: c.table, key: c.key) }
    static func == (a: RowID, b: RowID) -> Bool { a.table == b.table && a.spelled == b.spelled }
    func hash(into h: inout Hasher) { h.combine(table); h.combine(spelled) }
    /// Parents first, then by key: messages name rows in a stable order.
    var order: String { "\(ChangeCapture.rank(table) ?? 9) \(spelled)" }
    var description: String { "\(table) \(spelled)" }
    /// What finds it in audit_change: `row_key = json_array(?, …)`, built as the triggers built it.
    var match: (sql: String, args: [SQLValue]) {
        ("tbl = ? AND row_key = json_array(" + key.map { _ in "?" }.joined(separator: ", ") + ")", [.text(table)] + key.map(Store.sqlValue))
    }
    /// The row in a few words, from what the change holds of it.
    func words(_ c: RowChange) -> String {
        let image = c.after ?? c.before ?? [:]
        func text(_ k: String) -> String? { if case .string(let s)? = image[k] { return s } else { return nil } }
        switch table {
        case "project": return "project \(text("slug") ?? spelled)"
        case "platform": return "platform \(text("name") ?? spelled)"
        case "version": return "version \(text("version") ?? spelled)"
        default: return description
        }
    }
}
