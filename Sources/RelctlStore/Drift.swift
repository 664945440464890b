import RelctlCore
import SQLite

/// A row an apply would change that the database changed since the file
/// was exported or last applied: applying takes that change back. Told
/// apart by each part's history (Lineage): a part the file did not edit
/// holds what the database held at the revision the file names, so a row
/// of it the apply changes while the database's part is at a later
/// revision, or at that same one (a hand edit, which moves no revision),
/// was changed in the database since ("drift", in terraform's words
/// "changed outside"); a part edited on both sides is a conflict,
/// whichever side the apply keeps. A database behind the file, or without
/// the part, is not drift: the file brings what it lacks.
public struct Drift: Sendable {
    /// The row's place among the rows given.
    public var index: Int
    /// The last logged change of the row, or nil when it was changed by hand
    /// (the row is not as any logged change left it).
    public var entry: AuditEntry?
    /// The file edited the part too.
    public var alsoInFile: Bool
}

extension Session {
    /// The rows of `rows` (made by applying `desired`) that take back a
    /// change made in the database since the file. `histories`: the
    /// project's part histories before the apply; `logged`: the last audit
    /// entry before it. None for a file without histories (one written
    /// before relctl kept them): nothing tells its edits from the database's.
    /// `windows`: the file's window ids that are another's here (`ConfigApplied.renumbered`):
    /// the rows name a window by its id here, the file by its own.
    public func drift(_ rows: ArraySlice<RowChange>, of desired: ConfigProject, histories: [String: [Int64]], logged: Int64,
                      windows: [Int64: Int64] = [:]) throws -> [Drift] {
        guard !desired.lineage.isEmpty, !rows.isEmpty else { return [] }
        // Without a history here, only a row the database had can be drift (below): rows all made by
        // the change (a project new to the database) are none, and are not each resolved to a part.
        if histories.isEmpty, rows.allSatisfy({ $0.before == nil }) { return [] }
        let file = Lineage.Adopting(slug: desired.slug, chains: desired.lineage, edited: desired.edited).renumbering(windows)
        // Read right after the change that made them, in this session.
        var resolver = Lineage.Resolver(db: db, rows: rows, afterIsCurrent: true)
        var out: [Drift] = []
        // Rows the database lacks, which the file brings back: their causes are found by what they are, below.
        var brought: [(drift: Int, row: RowIdentity)] = []
        for (index, row) in zip(rows.indices, rows) {
            guard let (slug, part) = try resolver.part(row.table, row.after ?? row.before ?? [:]), slug == desired.slug else { continue }
            let inFile = file.edited.contains(part)
            let theirs = file.chains[part] ?? [], ours = histories[part]?.first
            // The database's part moved on since the file knew it (a change logged since, a part added since).
            // (A history is kept to its newest Lineage.chainLength revisions: a database older than the
            // oldest of a full one is behind it, not moved on.)
            let movedOn = ours.map { !theirs.contains($0) && !(theirs.count >= Lineage.chainLength && $0 < theirs.last!) } ?? false
            let drifted: Bool
            if inFile {
                // The file's own edit, unless the database's part moved on too: a conflict.
                drifted = movedOn
            } else if let ours {
                // The file holds the part as the database had it at its revision: a newer database
                // revision, or a different content at the same one (a hand edit), is drift; an older
                // one is the file being ahead.
                drifted = movedOn || ours == theirs.first
            } else {
                // No history here: a row the database has came by hand; one it lacks, the file brings.
                drifted = row.before != nil
            }
            guard drifted else { continue }
            if row.before == nil, let after = row.after {
                brought.append((out.count, RowIdentity(table: row.table, part: part, within: RowIdentity.within(row.table, after))))
                out.append(Drift(index: index, entry: nil, alsoInFile: inFile))
            } else {
                out.append(Drift(index: index, entry: try lastLogged(row, upTo: logged), alsoInFile: inFile))
            }
        }
        if !brought.isEmpty {
            let removals = try lastRemovals(Set(brought.map(\.row)), of: desired.slug, upTo: logged)
            for b in brought { out[b.drift].entry = removals[b.row] }
        }
        return out
    }

    /// A row by what it is rather than by its id: its part (Lineage) and its place in the part
    /// (a note's locale, a message's field). A row made again has an id of its own.
    struct RowIdentity: Hashable {
        var table: String
        var part: String
        var within: String

        static func within(_ table: String, _ image: [String: JSON]) -> String {
            let column = switch table { case "note", "maintenance_copy": "locale"; case "message": "field"; default: "" }
            if case .string(let s)? = image[column] { return s } else { return "" }
        }
    }

    /// The entry, up to `logged`, that last removed each of `rows` from project `slug`, when it
    /// is the project's last logged change of that row; none when the last one left the row there
    /// (it went by hand since) or none is logged. Only when a file brings back rows the database
    /// lacks: the project's entries that changed rows of those tables are read newest first, each
    /// only its rows of those tables and their parents', until every row is settled or the entry
    /// that made the project is passed (unless a project of that slug was removed before it: the
    /// rows of the one before count too, as its lineage does).
    private func lastRemovals(_ rows: Set<RowIdentity>, of slug: String, upTo logged: Int64) throws -> [RowIdentity: AuditEntry] {
        let tables = Set(rows.map(\.table))
        let read = Array(tables.union(Lineage.Resolver.parents)).sorted()
        let marks = tables.map { _ in "?" }.joined(separator: ", ")
        // (A change of no project, a publish or a deploy, changes no rows.)
        let ids = try db.query("""
            SELECT a.id FROM audit a WHERE a.id <= ? AND (a.project = ? OR a.project IS NULL)
                AND EXISTS (SELECT 1 FROM audit_change c WHERE c.audit_id = a.id AND c.tbl IN (\(marks)))
            ORDER BY a.id DESC
            """, [.int(logged), .text(slug)] + tables.sorted().map { .text($0) }).compactMap { $0.int(0) }
        // The entries that removed a project of this slug: one made again after them does not end the scan.
        let projectRemovals = try db.query("""
            SELECT audit_id FROM audit_change WHERE tbl = 'project' AND after IS NULL AND audit_id <= ? AND json_extract(before, '$.slug') = ?
            """, [.int(logged), .text(slug)]).compactMap { $0.int(0) }
        var found: [RowIdentity: Int64] = [:], settled = Set<RowIdentity>()
        for id in ids where settled.count < rows.count {
            let changes = try store.rowChanges(of: id, tables: read)
            // Parents are named as the entry found or left them (a version it removed with its
            // notes, or whose id it gave another): an image before by the entry's images before,
            // one after by those after; a parent it did not change, as the log last left it before
            // (a platform since removed with its project may have given its id to another), else
            // as it is now.
            var before = Lineage.Resolver(db: db, rows: [RowChange]()), after = before
            before.logged = { table, key in try self.loggedImage(table, key, before: id) }
            after.logged = before.logged
            var made = false
            for c in changes where Lineage.Resolver.parents.contains(c.table) {
                if let image = c.before, case .int(let key)? = image["id"] { before.current[c.table, default: [:]][key] = .some(image) }
                if let image = c.after, case .int(let key)? = image["id"] { after.current[c.table, default: [:]][key] = .some(image) }
                if c.table == "project", c.before == nil, case .string(slug)? = c.after?["slug"] { made = true }
            }
            func identity(_ c: RowChange, _ image: [String: JSON]?, _ resolver: inout Lineage.Resolver) throws -> RowIdentity? {
                guard let image, let (s, part) = try resolver.part(c.table, image), s == slug else { return nil }
                let r = RowIdentity(table: c.table, part: part, within: RowIdentity.within(c.table, image))
                return rows.contains(r) && !settled.contains(r) ? r : nil
            }
            var removed: [RowIdentity] = [], left = Set<RowIdentity>()
            for c in changes where tables.contains(c.table) {
                let was = try identity(c, c.before, &before), now = try identity(c, c.after, &after)
                if let now { left.insert(now) }
                if let was, was != now { removed.append(was) }
            }
            for r in removed where !left.contains(r) { found[r] = id }
            settled.formUnion(removed)
            settled.formUnion(left)
            // Before the entry that made the project, none of its rows was, unless one of its slug was removed before.
            if made, !projectRemovals.contains(where: { $0 < id }) { break }
        }
        var entries: [Int64: AuditEntry] = [:]
        for id in Set(found.values) { entries[id] = try store.auditEntry(id) }
        return found.mapValues { entries[$0]! }
    }

    /// Row `key` of `table` as the last logged change before entry `entry` left it; nil when none
    /// is logged, or it was removed.
    private func loggedImage(_ table: String, _ key: Int64, before entry: Int64) throws -> [String: JSON]? {
        try store.lastLogged(table, key, before: entry) ?? nil
    }

    /// The last logged change of the row up to entry `logged`, when the row is as it left it.
    private func lastLogged(_ row: RowChange, upTo logged: Int64) throws -> AuditEntry? {
        let m = RowID(row).match
        guard let r = try db.query("SELECT audit_id, after FROM audit_change WHERE \(m.sql) AND audit_id <= ? ORDER BY audit_id DESC LIMIT 1",
                                   m.args + [.int(logged)]).first, let id = r.int(0) else { return nil }
        let left: [String: JSON]? = r.string(1).flatMap { text in
            if case .object(let o)? = try? JSONReader.parse(Array(text.utf8)) { return o } else { return nil }
        }
        guard Store.same(row.before, as: left) else { return nil }
        return try store.auditEntry(id)
    }
}

extension Store {
    /// The id of the newest audit entry (0: none).
    public func lastAuditID() throws -> Int64 { try db.scalar("SELECT coalesce(max(id), 0) FROM audit").intValue ?? 0 }
}
