import RelctlCore
import SQLite

/// Every change relctl makes to a project's rows, as data: which row (its
/// table and key) and the whole row before and after. Temporary triggers,
/// on relctl's own connection only, note each row an INSERT, UPDATE or
/// DELETE touches (a cascade too) in `temp.row_change`; the change's audit
/// row then takes the net effect per row (`audit_change`). A row changed by
/// hand with sqlite3 is noted nowhere, as it is not logged either.
///
/// The images are JSON objects of every column (json_object), so a column
/// a later migration adds is captured with no change here: the triggers
/// are made from the tables as the connection finds them. Not captured:
/// `meta` (the default project of `project use`, the counter that keeps
/// window ids from being reused), which are preferences and bookkeeping.
/// Project, platform and version ids may be reused after the highest is
/// removed (SQLite's max + 1): a key then names two rows in the log, and a
/// revert sees the later one as a change to the same row, so it refuses
/// rather than overwrite.
struct ChangeCapture {
    /// The tables that hold a project's configuration, parents before
    /// children: a revert removes rows children first and puts them back
    /// parents first, as the foreign keys require.
    static let tables = ["project", "platform", "version", "note", "maintenance", "maintenance_copy", "message"]

    struct Table {
        let name: String
        let columns: [String]
        /// The primary key's columns, in order.
        let key: [String]
    }

    let tables: [Table]
    /// What `begin` runs: the table and triggers made if this connection has
    /// none yet (a rolled-back dry run takes them with it), and the table emptied.
    let setUp: String

    init(_ db: Connection) throws {
        var tables: [Table] = []
        for name in ChangeCapture.tables {
            var columns: [String] = [], key: [(Int64, String)] = []
            for row in try db.query("SELECT name, pk FROM pragma_table_info(?)", [.text(name)]) {
                let column = row.text(0)
                columns.append(column)
                if let pk = row.int(1), pk > 0 { key.append((pk, column)) }
            }
            tables.append(Table(name: name, columns: columns, key: key.sorted { $0.0 < $1.0 }.map(\.1)))
        }
        self.tables = tables
        setUp = "CREATE TEMP TABLE IF NOT EXISTS row_change(seq INTEGER PRIMARY KEY, tbl TEXT NOT NULL, row_key TEXT NOT NULL, before TEXT, after TEXT);\n"
            + tables.map(ChangeCapture.triggers).joined() + "DELETE FROM temp.row_change;"
    }

    /// The row's key as JSON (`json_array` of the key's columns of `row`, "NEW" or "OLD").
    static func key(_ t: Table, _ row: String) -> String {
        "json_array(" + t.key.map { "\(row).\($0)" }.joined(separator: ", ") + ")"
    }

    /// A BLOB (in a table that lost STRICT by hand) goes in as hex: json_object refuses BLOBs.
    static func image(_ t: Table, _ row: String) -> String {
        "json_object(" + t.columns.map { "'\($0)', CASE typeof(\(row).\($0)) WHEN 'blob' THEN hex(\(row).\($0)) ELSE \(row).\($0) END" }.joined(separator: ", ") + ")"
    }

    /// An insert notes (nothing → row); a delete (row → nothing); an update
    /// (old → new), or, when it changed the key, a delete and an insert. A
    /// row an upsert (or REPLACE) finds in the way on its primary key is noted
    /// as it was (row → row) before the insert: the net effect is then
    /// (old → new), and an INSERT that ends in no change nets to nothing.
    /// (A REPLACE on another unique key would remove a row unnoted, since
    /// recursive_triggers is off; relctl writes none.)
    static func triggers(_ t: Table) -> String {
        let n = t.name
        let sameKey = t.key.map { "OLD.\($0) IS NEW.\($0)" }.joined(separator: " AND ")
        let existing = t.key.map { "\(n).\($0) IS NEW.\($0)" }.joined(separator: " AND ")
        return """
        CREATE TEMP TRIGGER IF NOT EXISTS capture_\(n)_inserted AFTER INSERT ON main.\(n) BEGIN
            INSERT INTO row_change(tbl, row_key, before, after) VALUES ('\(n)', \(key(t, "NEW")), NULL, \(image(t, "NEW"))); END;
        CREATE TEMP TRIGGER IF NOT EXISTS capture_\(n)_found BEFORE INSERT ON main.\(n) BEGIN
            INSERT INTO row_change(tbl, row_key, before, after) SELECT '\(n)', \(key(t, n)), \(image(t, n)), \(image(t, n)) FROM main.\(n) WHERE \(existing); END;
        CREATE TEMP TRIGGER IF NOT EXISTS capture_\(n)_updated AFTER UPDATE ON main.\(n) BEGIN
            INSERT INTO row_change(tbl, row_key, before, after) VALUES ('\(n)', \(key(t, "OLD")), \(image(t, "OLD")), CASE WHEN \(sameKey) THEN \(image(t, "NEW")) END);
            INSERT INTO row_change(tbl, row_key, before, after) SELECT '\(n)', \(key(t, "NEW")), NULL, \(image(t, "NEW")) WHERE NOT (\(sameKey)); END;
        CREATE TEMP TRIGGER IF NOT EXISTS capture_\(n)_deleted AFTER DELETE ON main.\(n) BEGIN
            INSERT INTO row_change(tbl, row_key, before, after) VALUES ('\(n)', \(key(t, "OLD")), \(image(t, "OLD")), NULL); END;

        """
    }

    /// Stores the net effect of what the triggers noted as the changes of audit row `audit`:
    /// per row, as it was before its first note and after its last, in the order first noted;
    /// a row that ends as it began is left out.
    static func record(_ db: Connection, audit: Int64) throws {
        var order: [String] = []
        var net: [String: (tbl: String, key: String, before: String?, after: String?)] = [:]
        try db.each("SELECT tbl, row_key, before, after FROM temp.row_change ORDER BY seq") { c in
            let tbl = try c.text(0) ?? "", key = try c.text(1) ?? ""
            let id = tbl + "\u{0}" + key
            let after = try c.text(3)
            if net[id] != nil {
                net[id]!.after = after
            } else {
                order.append(id)
                net[id] = (tbl, key, try c.text(2), after)
            }
        }
        var seq: Int64 = 0
        for id in order {
            let change = net[id]!
            if change.before == change.after { continue }
            seq += 1
            try db.run("INSERT INTO audit_change(audit_id, seq, tbl, row_key, before, after) VALUES (?, ?, ?, ?, ?, ?)",
                       [.int(audit), .int(seq), .text(change.tbl), .text(change.key), SQLValue(change.before), SQLValue(change.after)])
        }
        try db.execute("DELETE FROM temp.row_change")
    }
}
