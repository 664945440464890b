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
        CREATE TABLE row_change(seq INTEGER PRIMARY KEY, tbl TEXT NOT NULL, row_key TEXT NOT NULL, before TEXT) STRICT;
        CREATE TABLE capture_on(on_ INTEGER PRIMARY KEY CHECK (on_ = 1)) STRICT;

        """ + tables.map(triggers).joined()
    }

    /// The row's key as JSON (`json_array` of the key's columns of `row`, "NEW" or "OLD").
    static func key(_ t: Table, _ row: String) -> String {
        "json_array(" + t.key.map { "\(row).\($0)" }.joined(separator: ", ") + ")"
    }

    /// The row `row` ("OLD", or the table's name in a SELECT) as a JSON object of every column.
    static func image(_ t: Table, _ row: String) -> String {
        "json_object(" + t.columns.map { "'\($0)', \(row).\($0)" }.joined(separator: ", ") + ")"
    }

    /// The tables relctl upserts into: a row found in the way of an insert is noted as it was.
    static let upserted: Set<String> = ["note", "maintenance_copy", "message"]

    /// Each note is a row's key and, when the row was there, its image
    /// before the statement: an insert notes no image (the row was not
    /// there); an update and a delete note the old row (an update that
    /// changed the key, the new key as an insert too); a row an upsert finds
    /// in the way on its primary key is noted as it was before the insert.
    /// What each row is after the change is read once, when the change is
    /// recorded: the triggers stay small, and every connection parses the
    /// schema (the images in every trigger doubled the time to open one).
    /// (A REPLACE on another unique key would remove a row unnoted, since
    /// recursive_triggers is off; relctl writes none.)
    static func triggers(_ t: Table) -> String {
        let n = t.name
        let on = "WHEN EXISTS (SELECT 1 FROM capture_on)"
        let sameKey = t.key.map { "OLD.\($0) IS NEW.\($0)" }.joined(separator: " AND ")
        let existing = t.key.map { "\(n).\($0) IS NEW.\($0)" }.joined(separator: " AND ")
        var sql = """
        CREATE TRIGGER capture_\(n)_inserted AFTER INSERT ON \(n) \(on) BEGIN
            INSERT INTO row_change(tbl, row_key, before) VALUES ('\(n)', \(key(t, "NEW")), NULL); END;
        CREATE TRIGGER capture_\(n)_updated AFTER UPDATE ON \(n) \(on) BEGIN
            INSERT INTO row_change(tbl, row_key, before) VALUES ('\(n)', \(key(t, "OLD")), \(image(t, "OLD")));
            INSERT INTO row_change(tbl, row_key, before) SELECT '\(n)', \(key(t, "NEW")), NULL WHERE NOT (\(sameKey)); END;
        CREATE TRIGGER capture_\(n)_deleted AFTER DELETE ON \(n) \(on) BEGIN
            INSERT INTO row_change(tbl, row_key, before) VALUES ('\(n)', \(key(t, "OLD")), \(image(t, "OLD"))); END;

        """
        if upserted.contains(n) {
            sql += """
            CREATE TRIGGER capture_\(n)_found BEFORE INSERT ON \(n) \(on) BEGIN
                INSERT INTO row_change(tbl, row_key, before) SELECT '\(n)', \(key(t, n)), \(image(t, n)) FROM \(n) WHERE \(existing); END;

            """
        }
        return sql
    }

    /// Starts noting, inside the change's transaction.
    static func begin(_ db: Connection) throws {
        try db.execute("DELETE FROM row_change; INSERT OR IGNORE INTO capture_on(on_) VALUES (1)")
    }

    /// Stores the net effect of what the triggers noted as the changes of audit row `audit`:
    /// per row, as it was before its first note and as it is now, in the order first noted;
    /// a row that ends as it began is left out. Noting stops.
    static func record(_ db: Connection, audit: Int64) throws {
        var order: [(tbl: String, key: String, before: String?)] = []
        var seen = Set<String>()
        try db.each("SELECT tbl, row_key, before FROM row_change ORDER BY seq") { c in
            let tbl = try c.text(0) ?? "", key = try c.text(1) ?? ""
            guard seen.insert(tbl + "\u{0}" + key).inserted else { return }
            order.append((tbl, key, try c.text(2)))
        }
        var seq: Int64 = 0
        for row in order {
            guard let t = table(row.tbl) else { continue }
            let after = try db.query("SELECT \(image(t, t.name)) FROM \(t.name) WHERE "
                                     + t.key.enumerated().map { "\($1) IS json_extract(?1, '$[\($0)]')" }.joined(separator: " AND "),
                                     [.text(row.key)]).first?.string(0)
            if row.before == after { continue }
            seq += 1
            try db.run("INSERT INTO audit_change(audit_id, seq, tbl, row_key, before, after) VALUES (?, ?, ?, ?, ?, ?)",
                       [.int(audit), .int(seq), .text(row.tbl), .text(row.key), SQLValue(row.before), SQLValue(after)])
        }
        try end(db)
    }

    /// Stops noting and forgets what was noted.
    static func end(_ db: Connection) throws {
        try db.execute("DELETE FROM row_change; DELETE FROM capture_on")
    }
}
