import RelctlCore
import SQLite

/// Every change relctl makes to a project's rows, as data: which row (its
/// table and key) and the whole row before and after. Triggers in the
/// schema (7 on) note each row an INSERT, UPDATE or DELETE touches (a
/// cascade too) in `row_change`, but only while `capture_on` holds a row,
/// which only relctl's own change transaction puts there and takes out
/// again: a row changed by hand with sqlite3 is noted nowhere, as it is not
/// logged either. The change's audit row then takes the net effect per row
/// (`audit_change`). A row above its mark (schema 16 on: its own id, or a
/// note's, copy's or message's parent's, above that table's highest id as
/// the change began) was made in the change: it is noted nowhere and read
/// from its table instead (`begin`, `record`). Triggers in the schema cost a
/// relctl command nothing to set up (temporary ones, made per connection,
/// were a third of `version add`).
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
    typealias Table = CapturedTable

    /// The tables that hold a project's configuration, parents before
    /// children: a revert removes rows children first and puts them back
    /// parents first, as the foreign keys require. Each column is declared
    /// here once, and everything else follows from it: the capture's
    /// triggers and images, a revert's statements, the edit stamps'
    /// triggers, how `log` and previews word a change, and its names in --json.
    static let tables: [Table] = [
        Table("project", key: ["id"], parent: "id", mark: ("id", "project_mark"), project: { "\($0).id" }, [
            .init("id", json: "id", words: "id"),
            .init("slug", json: "slug", words: "slug"),
            .init("name", json: "name", words: "name"),
            .init("default_locale", json: "defaultLocale", words: "default locale"),
            .init("locales", json: "locales", words: "locales"),
            .init("rules", json: "rules", words: "rules"),
            .init("release_delay_days", json: "releaseDelayDays", words: "release delay days"),
            .init("remind_hours", json: "remindHours", words: "remind hours"),
            .init("outdated", json: "outdated", words: "outdated"),
            .init("time_zone", json: "timeZone", words: "time zone"),
            .init("whatsnew_limit", json: "whatsnewLimit", words: "whatsnew limit"),
            .init("formats", json: "formats", words: "formats"),
            .init("trusted_keys", json: "trustedKeys", words: "trusted keys"),
        ]),
        Table("platform", key: ["id"], parent: "project_id", replaceable: true, mark: ("id", "platform_mark"), project: { "\($0).project_id" }, [
            .init("id", json: "id", words: "id"),
            .init("project_id", json: "projectId", words: "project id"),
            .init("name", json: "name", words: "name"),
            .init("bundle_id", json: "bundleId", words: "bundle id"),
            .init("app_store_id", json: "appStoreId", words: "app store id"),
            .init("store_url", json: "storeUrl", words: "store url"),
            .init("min_os", json: "minOs", words: "min os"),
            .init("force_version", json: "forceVersion", words: "force floor"),
            .init("force_build", json: "forceBuild", words: "force build"),
            .init("recommend_version", json: "recommendVersion", words: "recommend floor"),
            .init("recommend_build", json: "recommendBuild", words: "recommend build"),
            .init("force_deadline", json: "forceDeadline", words: "force deadline", time: true),
            .init("storefronts", json: "storefronts", words: "storefronts"),
            .init("rollout_version", json: "rolloutVersion", words: "staged recommend"),
            .init("rollout_build", json: "rolloutBuild", words: "staged recommend build"),
            .init("rollout_salt", json: "rolloutSalt", words: "rollout salt"),
            .init("rollout_steps", json: "rolloutSteps", words: "rollout steps"),
            .init("rollout_every", json: "rolloutEvery", words: "rollout step length"),
            .init("rollout_start", json: "rolloutStart", words: "rollout start", time: true),
            .init("rollout_halted_at", json: "rolloutHaltedAt", words: "rollout halt", time: true),
            .init("rollout_unstaged", json: "rolloutUnstaged", words: "rollout in unstaged files"),
            .init("rollout_since", json: "rolloutSince", words: "rollout first staged", time: true),
        ]),
        Table("version", key: ["id"], parent: "platform_id", replaceable: true, mark: ("id", "version_mark"),
              project: { "(SELECT project_id FROM platform WHERE id = \($0).platform_id)" }, [
            .init("id", json: "id", words: "id"),
            .init("platform_id", json: "platformId", words: "platform id"),
            .init("version", json: "version", words: "version"),
            .init("build", json: "build", words: "build"),
            .init("released_at", json: "releasedAt", words: "release", time: true),
            .init("min_os", json: "minOs", words: "min os"),
            .init("policy", json: "policy", words: "pin"),
        ]),
        Table("note", key: ["version_id", "locale"], parent: "version_id", mark: ("version_id", "version_mark"),
              project: { "(SELECT p.project_id FROM version v JOIN platform p ON p.id = v.platform_id WHERE v.id = \($0).version_id)" }, [
            .init("version_id", json: "versionId", words: "version id"),
            .init("locale", json: "locale", words: "locale"),
            .init("body", json: "body", words: "body"),
        ]),
        Table("maintenance", key: ["id"], parent: "project_id", replaceable: true, mark: ("id", "window_mark"), project: { "\($0).project_id" }, [
            .init("id", json: "id", words: "id"),
            .init("project_id", json: "projectId", words: "project id"),
            .init("platform_id", json: "platformId", words: "platform id"),
            .init("starts_at", json: "startsAt", words: "start", time: true),
            .init("ends_at", json: "endsAt", words: "end", time: true),
            .init("cancelled_at", json: "cancelledAt", words: "cancelled", time: true),
        ]),
        Table("maintenance_copy", json: "maintenanceCopy", key: ["window_id", "locale"], parent: "window_id", mark: ("window_id", "window_mark"),
              project: { "(SELECT project_id FROM maintenance WHERE id = \($0).window_id)" }, [
            .init("window_id", json: "windowId", words: "window id"),
            .init("locale", json: "locale", words: "locale"),
            .init("title", json: "title", words: "title"),
            .init("message", json: "message", words: "message"),
        ]),
        Table("message", key: ["project_id", "kind", "locale", "field"], parent: "project_id", mark: ("project_id", "project_mark"), project: { "\($0).project_id" }, [
            .init("project_id", json: "projectId", words: "project id"),
            .init("kind", json: "kind", words: "kind"),
            .init("locale", json: "locale", words: "locale"),
            .init("field", json: "field", words: "field"),
            .init("value", json: "value", words: "value"),
        ]),
    ]

    static func table(_ name: String) -> Table? { tables.first { $0.name == name } }
    /// Parents first: the table's place in `tables`.
    static func rank(_ name: String) -> Int? { tables.firstIndex { $0.name == name } }

    /// The capture's tables and every table's triggers (schema 7).
    static var schema: String {
        """
        CREATE TABLE row_change(seq INTEGER PRIMARY KEY, tbl TEXT NOT NULL, row_key TEXT NOT NULL, before TEXT) STRICT;
        CREATE TABLE capture_on(on_ INTEGER PRIMARY KEY CHECK (on_ = 1)) STRICT;

        """ + triggers(tables, marked: false)
    }

    /// Every table's triggers. `marked`: heeding capture_on's marks (schema
    /// 16 on); the migrations before it make them as they were.
    static func triggers(_ tables: [Table], marked: Bool) -> String { tables.map { triggers($0, marked: marked) }.joined() }

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
    /// With marks (schema 16 on), a row above its table's mark (`begin`)
    /// was made in this change, so it is noted nowhere: `record` reads every
    /// such row from its table.
    /// (A REPLACE on another unique key would remove a row unnoted, since
    /// recursive_triggers is off; relctl writes none.)
    static func triggers(_ t: Table, marked: Bool) -> String {
        let n = t.name
        let on = "EXISTS (SELECT 1 FROM capture_on)"
        /// Whether the row `row` names is noted: with marks, only at or below its mark (or with no marks).
        func noted(_ row: String) -> String? {
            marked ? "EXISTS (SELECT 1 FROM capture_on WHERE \(t.mark.above) IS NULL OR \(row).\(t.mark.column) <= \(t.mark.above))" : nil
        }
        /// One note, under the conditions given.
        func note(_ values: String, _ conditions: String?...) -> String {
            let all = conditions.compactMap { $0 }
            return "INSERT INTO row_change(tbl, row_key, before) " + (all.isEmpty ? "VALUES (\(values))" : "SELECT \(values) WHERE " + all.joined(separator: " AND "))
        }
        let sameKey = t.key.map { "OLD.\($0) IS NEW.\($0)" }.joined(separator: " AND ")
        let existing = t.key.map { "\(n).\($0) IS NEW.\($0)" }.joined(separator: " AND ")
        var sql = """
        CREATE TRIGGER capture_\(n)_inserted AFTER INSERT ON \(n) WHEN \(noted("NEW") ?? on) BEGIN
            \(note("'\(n)', \(key(t, "NEW")), NULL")); END;
        CREATE TRIGGER capture_\(n)_updated AFTER UPDATE ON \(n) WHEN \(on) BEGIN
            \(note("'\(n)', \(key(t, "OLD")), \(image(t, "OLD"))", noted("OLD")));
            \(note("'\(n)', \(key(t, "NEW")), NULL", "NOT (\(sameKey))", noted("NEW"))); END;
        CREATE TRIGGER capture_\(n)_deleted AFTER DELETE ON \(n) WHEN \(noted("OLD") ?? on) BEGIN
            \(note("'\(n)', \(key(t, "OLD")), \(image(t, "OLD"))")); END;

        """
        if upserted.contains(n) {
            sql += """
            CREATE TRIGGER capture_\(n)_found BEFORE INSERT ON \(n) WHEN \(noted("NEW") ?? on) BEGIN
                INSERT INTO row_change(tbl, row_key, before) SELECT '\(n)', \(key(t, n)), \(image(t, n)) FROM \(n) WHERE \(existing); END;

            """
        }
        return sql
    }

    /// Schema 16: capture_on holds the marks, and every capture trigger is made again to heed them.
    static var marking: String {
        tables.map { t in
            (["inserted", "updated", "deleted"] + (upserted.contains(t.name) ? ["found"] : [])).map { "DROP TRIGGER IF EXISTS capture_\(t.name)_\($0);\n" }.joined()
        }.joined() + """
        DROP TABLE capture_on;
        CREATE TABLE capture_on(on_ INTEGER PRIMARY KEY CHECK (on_ = 1),
            project_mark INTEGER, platform_mark INTEGER, version_mark INTEGER, window_mark INTEGER) STRICT;

        """ + triggers(tables, marked: true)
    }

    /// Starts noting, inside the change's transaction. Each table's highest
    /// id is its mark: a row above it is new, and a change that creates a
    /// project (an apply into an empty database: 850,000 rows) notes none of
    /// its rows one by one. No marks (every row noted, as before schema 16)
    /// when a child row already names a parent above one (an orphan left by
    /// a hand edit with foreign keys off): that row was there before.
    static func begin(_ db: Connection) throws {
        // Nothing is left noted by a change (`end`, or its rollback); a row there anyway is taken
        // out, by a WHERE that keeps the empty table's page as it is (see `end`).
        try db.execute("""
            DELETE FROM row_change WHERE seq IS NOT NULL;
            INSERT OR REPLACE INTO capture_on(on_, project_mark, platform_mark, version_mark, window_mark)
                SELECT 1, iif(o, NULL, p), iif(o, NULL, f), iif(o, NULL, v), iif(o, NULL, w) FROM (
                    SELECT p, f, v, w, EXISTS (SELECT 1 FROM note WHERE version_id > v) OR EXISTS (SELECT 1 FROM maintenance_copy WHERE window_id > w)
                                       OR EXISTS (SELECT 1 FROM message WHERE project_id > p) AS o
                    FROM (SELECT (SELECT coalesce(max(id), 0) FROM project) AS p, (SELECT coalesce(max(id), 0) FROM platform) AS f,
                                 (SELECT coalesce(max(id), 0) FROM version) AS v, (SELECT coalesce(max(id), 0) FROM maintenance) AS w))
            """)
    }

    /// Whether every one of versions `ids` is above the change's version mark,
    /// where each of the schema's triggers on `note` leaves their notes alone:
    /// no capture trigger notes them (`record` reads them from their table)
    /// and no edit stamp counts them (the version's own insert did). Their
    /// notes may then be written with the triggers off
    /// (`Connection.withoutTriggers`): firing three triggers that do nothing
    /// was two thirds of inserting a note. A test holds the triggers on
    /// `note` to those this was worked out for. False without marks, and for
    /// an id at or below the mark (SQLite picks ids at random once one is at
    /// the top of the range).
    static func leftAlone(_ db: Connection, notesOf ids: [Int64]) throws -> Bool {
        guard let mark = try db.scalar("SELECT version_mark FROM capture_on").intValue else { return false }
        return ids.allSatisfy { $0 > mark }
    }

    /// What `record` stored and read: how many rows were noted (each stored), the number of
    /// the last note, and the rows the change made, read from their tables.
    struct Recorded {
        var noted: Int
        var lastNote: Int64
        var made: [RowChange]
    }

    /// Stores the net effect of what the triggers noted as the changes of audit row `audit`:
    /// per row, as it was before its first note and as it is now, in the order first noted;
    /// a row that ends as it began is left out. Then the rows made in the change (above the
    /// marks), table by table, parents first, each as it is now, which it also returns as
    /// read from their tables. Noting stops.
    /// A statement for the noted rows and one for each table with made rows (and one that
    /// asks which are needed): a row at a time from Swift was a third of applying a fleet's file.
    /// `loggingMade` false (a preview's session, never committed: Session.forPreview): the
    /// made rows are read but not stored, which was a quarter of a plan into an empty database.
    static func record(_ db: Connection, audit: Int64, loggingMade: Bool = true) throws -> Recorded {
        // Each statement is prepared anew by every relctl command, and the one that records
        // names every table: only what the change left is asked for (`version add` notes
        // nothing and makes rows in one or two tables).
        let row = try db.query(leaving)[0]  // (a SELECT without FROM: one row)
        let left = (0...tables.count).map { row.int($0) != 0 }
        var noted = 0
        if left[0] {
            try db.run(recording, [.int(audit)])
            noted = db.changes
        }
        // The made rows are numbered after every note, table by table (parents first), each
        // table in key order: a statement per table scans it in that order and sorts nothing,
        // where one over all the tables sorted every image (a sixth of recording an apply into
        // an empty database). The last note's number is read before `recording` runs, which
        // writes only audit_change (no trigger is on it), so it is the number `recording` saw.
        let lastNote = row.int(tables.count + 1) ?? 0
        var last = lastNote
        var made: [RowChange] = []
        for rank in tables.indices where left[rank + 1] {
            if loggingMade {
                try db.runNumbering(recordingMade(tables[rank]), [.int(audit), .int(last)])
                last += Int64(db.changes)
            }
            try readMade(db, tables[rank], into: &made)
        }
        try end(db, noted: left[0])
        return Recorded(noted: noted, lastNote: lastNote, made: made)
    }

    /// The rows of `t` made in the change, in key order (the order `recordingMade` logs
    /// them in), each as the log's image of it reads back: every column, an integer as a
    /// JSON integer, text as a JSON string, NULL as null (a test holds the two to one
    /// answer). Read from the table, not parsed back from the log's JSON: that parse was
    /// a sixth of a plan into an empty database.
    static func readMade(_ db: Connection, _ t: Table, into out: inout [RowChange]) throws {
        let columns = t.columns, keys = t.key.map { columns.firstIndex(of: $0)! }
        // Each row's image is a copy of one that has every column, its values set at their
        // places in it: building each row's own dictionary hashed every column's name of every
        // row, a third of this. A copy keeps its original's places (the same buckets).
        var blank = [String: JSON](minimumCapacity: columns.count)
        for name in columns { blank[name] = .null }
        let places = columns.map { blank.index(forKey: $0)! }
        try db.each("SELECT \(columns.joined(separator: ", ")) FROM \(t.name) WHERE \(isMade(t)) ORDER BY \(t.key.joined(separator: ", "))") { c in
            var after = blank
            for i in columns.indices {
                switch try c.value(Int32(i)) {
                case .null: break
                case .int(let n): after.values[places[i]] = .int(n)
                case .text(let s): after.values[places[i]] = .string(s)
                }
            }
            out.append(RowChange(table: t.name, key: keys.map { after.values[places[$0]] }, before: nil, after: after))
        }
    }

    /// Whether any row was noted, then for each table whether it holds a row above its mark,
    /// then the last note's number.
    private static let leaving: String = "SELECT EXISTS (SELECT 1 FROM row_change), "
        + tables.map { "EXISTS (SELECT 1 FROM \($0.name) WHERE \(isMade($0)))" }.joined(separator: ", ")
        + ", (SELECT coalesce(max(seq), 0) FROM row_change)"

    /// A row of `t` made in the change: above its mark (no mark: none is).
    private static func isMade(_ t: Table) -> String { "\(t.mark.column) > (SELECT \(t.mark.above) FROM capture_on)" }

    /// The first note of each row (SQLite takes a bare column from the row
    /// `min` chose) and the row as it is now, looked up by its key. A row
    /// keeps its first note's number as its `seq`: the order it was first
    /// noted in, with gaps where rows ended as they began (numbering them
    /// 1, 2, 3 again was a quarter of the statement).
    private static let recording: String = {
        let now = tables.map { t in
            let found = t.key.enumerated().map { "\($1) IS json_extract(row_key, '$[\($0)]')" }.joined(separator: " AND ")
            return "WHEN '\(t.name)' THEN (SELECT \(image(t, t.name)) FROM \(t.name) WHERE \(found))"
        }.joined(separator: "\n                ")
        return """
        INSERT INTO audit_change(audit_id, seq, tbl, row_key, before, after)
            SELECT ?1, seq, tbl, row_key, before, after FROM (
                SELECT min(seq) AS seq, tbl, row_key, before, CASE tbl
                    \(now)
                END AS after FROM row_change WHERE tbl IN (\(tables.map { "'\($0.name)'" }.joined(separator: ", "))) GROUP BY tbl, row_key)
            WHERE before IS NOT after
        """
    }()

    /// The rows of `t` made in the change, in key order, numbered after ?2. Made for the
    /// tables a change made rows in, not for all seven at once: building every statement was
    /// 2 % of a `version add` (callgrind), which makes rows in one table.
    /// Numbered by `relctl_row` (`Connection.runNumbering`) as the scan of the table's
    /// primary key gives them, which is the order asked for: `row_number()` buffered every
    /// row, a third of the statement. Were SQLite ever to sort instead, each row would still
    /// carry a number of its own, in the scan's order (a test holds the order to the key's).
    static func recordingMade(_ t: Table) -> String {
        """
        INSERT INTO audit_change(audit_id, seq, tbl, row_key, before, after)
            SELECT ?1, relctl_row(?2), '\(t.name)', \(key(t, t.name)), NULL, \(image(t, t.name))
            FROM \(t.name) WHERE \(isMade(t)) ORDER BY \(t.key.joined(separator: ", "))
        """
    }

    /// Stops noting and forgets what was noted (`noted`: whether anything was). A DELETE of
    /// every row empties the table's root page even when it holds none, one more page for the
    /// commit to write: only a table that holds rows is emptied.
    static func end(_ db: Connection, noted: Bool = true) throws {
        try db.execute(noted ? "DELETE FROM row_change; DELETE FROM capture_on" : "DELETE FROM capture_on")
    }
}

/// One column of a captured table, declared once (ChangeCapture.tables).
public struct CapturedColumn: Sendable {
    /// Its name in SQL, and in the images the log records.
    public let name: String
    /// Its name in --json documents (camelCase, as every document has them).
    public let json: String
    /// How the log and previews name it.
    public let words: String
    /// An instant in seconds: shown in the reader's zone, in --json as RFC 3339.
    public let isTime: Bool

    public init(_ name: String, json: String, words: String, time: Bool = false) {
        self.name = name; self.json = json; self.words = words; self.isTime = time
    }
}

/// A table that holds a project's configuration: its columns, its key, and
/// how a row names its project (for the edit stamps' triggers).
public struct CapturedTable: Sendable {
    public let name: String
    /// Its name in --json documents.
    public let json: String
    public let declared: [CapturedColumn]
    /// The primary key's columns, in order.
    public let key: [String]
    /// The column whose change moves a row to another project.
    let parent: String
    /// The id column that tells a row made in the change (above the mark,
    /// the table's highest id as the change began) and the capture_on column
    /// holding that mark: the row's own id, or its parent's.
    let mark: (column: String, above: String)
    /// Whether an INSERT or UPDATE OR REPLACE may remove a row of another project: its id is its only key not under its parent.
    let replaceable: Bool
    /// An SQL expression of the project id of the row `row` names ("NEW", "OLD").
    let project: @Sendable (String) -> String

    public init(_ name: String, json: String? = nil, key: [String], parent: String, replaceable: Bool = false,
                mark: (column: String, above: String), project: @escaping @Sendable (String) -> String, _ columns: [CapturedColumn]) {
        self.name = name; self.json = json ?? name; self.key = key; self.parent = parent; self.mark = mark
        self.replaceable = replaceable; self.project = project; self.declared = columns
    }

    /// The columns' names, in the schema's order.
    public var columns: [String] { declared.map(\.name) }

    public func column(_ name: String) -> CapturedColumn? { declared.first { $0.name == name } }

    /// The captured tables, parents first.
    public static var all: [CapturedTable] { ChangeCapture.tables }

    /// The declared column, or for a name no table declares (an image
    /// recorded before a column was renamed), one named as it is.
    public static func column(_ table: String, _ name: String, in tables: [CapturedTable] = all) -> CapturedColumn {
        tables.first { $0.name == table }?.column(name) ?? CapturedColumn(name, json: name, words: name)
    }

    /// A table's name in --json.
    public static func json(_ table: String, in tables: [CapturedTable] = all) -> String { tables.first { $0.name == table }?.json ?? table }
}
