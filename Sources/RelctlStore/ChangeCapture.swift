import RelctlCore
import SQLite

/// Every change relctl makes to a project's rows, as data: which row (its
/// table and key) and the whole row before and after. Triggers in the
/// schema (7 on) note each row an INSERT, UPDATE or DELETE touches (a
/// cascade too) in `row_change`, but only while `capture_on` holds a row,
/// which only relctl's own change transaction puts there and takes out
/// again: a row changed by hand with sqlite3 is noted nowhere, as it is not
/// logged either. The change's audit row then takes the net effect per row
/// (`audit_change`). Triggers in the schema cost a relctl command nothing to
/// set up (temporary ones, made per connection, were a third of `version add`).
///
/// The images are JSON objects of every column. `tables` lists the columns
/// as the schema has them; a migration that adds a column must make the
/// triggers again (`triggers`), which a test holds to the schema.
/// Not captured: `meta` (the default project of `project use`, the counter
/// that keeps window ids from being reused), preferences and bookkeeping.
/// Project, platform and version ids may be reused after the highest is
/// removed (SQLite's max + 1): a key then names two rows in the log, and a
/// revert sees the later one as a change to the same row, so it refuses
/// rather than overwrite.
enum ChangeCapture {
    struct Table {
        let name: String
        let columns: [String]
        /// The primary key's columns, in order.
        let key: [String]
    }

    /// The tables that hold a project's configuration, parents before
    /// children: a revert removes rows children first and puts them back
    /// parents first, as the foreign keys require.
    static let tables: [Table] = [
        Table(name: "project", columns: ["id", "slug", "name", "default_locale", "locales", "rules", "release_delay_days", "remind_hours",
                                         "outdated", "time_zone", "whatsnew_limit"], key: ["id"]),
        Table(name: "platform", columns: ["id", "project_id", "name", "bundle_id", "app_store_id", "store_url", "min_os", "force_version",
                                          "force_build", "recommend_version", "recommend_build", "force_deadline"], key: ["id"]),
        Table(name: "version", columns: ["id", "platform_id", "version", "build", "released_at", "min_os", "policy"], key: ["id"]),
        Table(name: "note", columns: ["version_id", "locale", "body"], key: ["version_id", "locale"]),
        Table(name: "maintenance", columns: ["id", "project_id", "platform_id", "starts_at", "ends_at", "cancelled_at"], key: ["id"]),
        Table(name: "maintenance_copy", columns: ["window_id", "locale", "title", "message"], key: ["window_id", "locale"]),
        Table(name: "message", columns: ["project_id", "kind", "locale", "field", "value"], key: ["project_id", "kind", "locale", "field"]),
    ]

    static func table(_ name: String) -> Table? { tables.first { $0.name == name } }
    /// Parents first: the table's place in `tables`.
    static func rank(_ name: String) -> Int? { tables.firstIndex { $0.name == name } }

    /// The capture's tables and every table's triggers (schema 7).
    static var schema: String {
        """
        CREATE TABLE row_change(seq INTEGER PRIMARY KEY, tbl TEXT NOT NULL, row_key TEXT NOT NULL, before TEXT, after TEXT) STRICT;
        CREATE TABLE capture_on(on_ INTEGER PRIMARY KEY CHECK (on_ = 1)) STRICT;

        """ + tables.map(triggers).joined()
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
        let on = "WHEN EXISTS (SELECT 1 FROM capture_on)"
        let sameKey = t.key.map { "OLD.\($0) IS NEW.\($0)" }.joined(separator: " AND ")
        let existing = t.key.map { "\(n).\($0) IS NEW.\($0)" }.joined(separator: " AND ")
        return """
        CREATE TRIGGER capture_\(n)_inserted AFTER INSERT ON \(n) \(on) BEGIN
            INSERT INTO row_change(tbl, row_key, before, after) VALUES ('\(n)', \(key(t, "NEW")), NULL, \(image(t, "NEW"))); END;
        CREATE TRIGGER capture_\(n)_found BEFORE INSERT ON \(n) \(on) BEGIN
            INSERT INTO row_change(tbl, row_key, before, after) SELECT '\(n)', \(key(t, n)), \(image(t, n)), \(image(t, n)) FROM \(n) WHERE \(existing); END;
        CREATE TRIGGER capture_\(n)_updated AFTER UPDATE ON \(n) \(on) BEGIN
            INSERT INTO row_change(tbl, row_key, before, after) VALUES ('\(n)', \(key(t, "OLD")), \(image(t, "OLD")), CASE WHEN \(sameKey) THEN \(image(t, "NEW")) END);
            INSERT INTO row_change(tbl, row_key, before, after) SELECT '\(n)', \(key(t, "NEW")), NULL, \(image(t, "NEW")) WHERE NOT (\(sameKey)); END;
        CREATE TRIGGER capture_\(n)_deleted AFTER DELETE ON \(n) \(on) BEGIN
            INSERT INTO row_change(tbl, row_key, before, after) VALUES ('\(n)', \(key(t, "OLD")), \(image(t, "OLD")), NULL); END;

        """
    }

    /// Starts noting, inside the change's transaction.
    static func begin(_ db: Connection) throws {
        try db.execute("DELETE FROM row_change; INSERT OR IGNORE INTO capture_on(on_) VALUES (1)")
    }

    /// Stores the net effect of what the triggers noted as the changes of audit row `audit`:
    /// per row, as it was before its first note and after its last, in the order first noted;
    /// a row that ends as it began is left out. Noting stops.
    static func record(_ db: Connection, audit: Int64) throws {
        var order: [String] = []
        var net: [String: (tbl: String, key: String, before: String?, after: String?)] = [:]
        try db.each("SELECT tbl, row_key, before, after FROM row_change ORDER BY seq") { c in
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
        try end(db)
    }

    /// Stops noting and forgets what was noted.
    static func end(_ db: Connection) throws {
        try db.execute("DELETE FROM row_change; DELETE FROM capture_on")
    }
}
