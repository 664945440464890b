/// Migrations in order; index + 1 is the schema version they produce.
/// Never edit a shipped migration: append a new one, and set Store.schemaVersion to its number.
enum Schema {
    /// 'relc' — tells our databases apart from any other SQLite file.
    static let applicationID: Int64 = 0x7265_6C63

    static let migrations: [String] = [
        """
        CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL) STRICT;
        CREATE TABLE project(
            id INTEGER PRIMARY KEY,
            slug TEXT NOT NULL UNIQUE,
            name TEXT NOT NULL,
            default_locale TEXT NOT NULL DEFAULT 'en',
            locales TEXT NOT NULL DEFAULT '',
            rules TEXT NOT NULL DEFAULT '',
            release_delay_days INTEGER NOT NULL DEFAULT 1,
            remind_hours INTEGER NOT NULL DEFAULT 24,
            outdated TEXT NOT NULL DEFAULT 'recommend'
        ) STRICT;
        CREATE TABLE platform(
            id INTEGER PRIMARY KEY,
            project_id INTEGER NOT NULL REFERENCES project(id) ON DELETE CASCADE,
            name TEXT NOT NULL,
            bundle_id TEXT,
            app_store_id TEXT,
            store_url TEXT,
            min_os TEXT,
            force_version TEXT,
            force_build INTEGER,
            recommend_version TEXT,
            recommend_build INTEGER,
            UNIQUE(project_id, name)
        ) STRICT;
        CREATE TABLE version(
            id INTEGER PRIMARY KEY,
            platform_id INTEGER NOT NULL REFERENCES platform(id) ON DELETE CASCADE,
            version TEXT NOT NULL,
            build INTEGER,
            released_at INTEGER,
            min_os TEXT,
            policy TEXT,
            UNIQUE(platform_id, version)
        ) STRICT;
        CREATE UNIQUE INDEX version_build ON version(platform_id, build) WHERE build IS NOT NULL;
        CREATE TABLE note(
            version_id INTEGER NOT NULL REFERENCES version(id) ON DELETE CASCADE,
            locale TEXT NOT NULL,
            body TEXT NOT NULL,
            PRIMARY KEY(version_id, locale)
        ) STRICT;
        CREATE TABLE maintenance(
            id INTEGER PRIMARY KEY,
            project_id INTEGER NOT NULL REFERENCES project(id) ON DELETE CASCADE,
            platform_id INTEGER REFERENCES platform(id) ON DELETE CASCADE,
            starts_at INTEGER NOT NULL,
            ends_at INTEGER
        ) STRICT;
        CREATE TABLE maintenance_copy(
            window_id INTEGER NOT NULL REFERENCES maintenance(id) ON DELETE CASCADE,
            locale TEXT NOT NULL,
            title TEXT,
            message TEXT,
            PRIMARY KEY(window_id, locale)
        ) STRICT;
        CREATE TABLE message(
            project_id INTEGER NOT NULL REFERENCES project(id) ON DELETE CASCADE,
            kind TEXT NOT NULL,
            locale TEXT NOT NULL,
            field TEXT NOT NULL,
            value TEXT NOT NULL,
            PRIMARY KEY(project_id, kind, locale, field)
        ) STRICT;
        CREATE TABLE audit(
            id INTEGER PRIMARY KEY,
            at INTEGER NOT NULL,
            user TEXT NOT NULL,
            project TEXT,
            action TEXT NOT NULL
        ) STRICT;
        """,
        // 2: a cancelled window stays on record (ids are never reused, and
        // control.json readers may remember them); Java's old language codes
        // become today's (iw he, in id, ji yi), as input now stores them.
        """
        ALTER TABLE maintenance ADD COLUMN cancelled_at INTEGER;
        INSERT OR IGNORE INTO meta(key, value) SELECT 'maintenance_last_id', CAST(coalesce(max(id), 0) AS TEXT) FROM maintenance;
        UPDATE OR IGNORE note SET locale = 'he' || substr(locale, 3) WHERE locale = 'iw' OR locale LIKE 'iw-%';
        UPDATE OR IGNORE message SET locale = 'he' || substr(locale, 3) WHERE locale = 'iw' OR locale LIKE 'iw-%';
        UPDATE OR IGNORE maintenance_copy SET locale = 'he' || substr(locale, 3) WHERE locale = 'iw' OR locale LIKE 'iw-%';
        UPDATE project SET default_locale = 'he' || substr(default_locale, 3) WHERE default_locale = 'iw' OR default_locale LIKE 'iw-%';
        UPDATE project SET locales = substr(replace(replace(',' || locales || ',', ',iw,', ',he,'), ',iw-', ',he-'), 2, length(locales)) WHERE locales != '';
        UPDATE OR IGNORE note SET locale = 'id' || substr(locale, 3) WHERE locale = 'in' OR locale LIKE 'in-%';
        UPDATE OR IGNORE message SET locale = 'id' || substr(locale, 3) WHERE locale = 'in' OR locale LIKE 'in-%';
        UPDATE OR IGNORE maintenance_copy SET locale = 'id' || substr(locale, 3) WHERE locale = 'in' OR locale LIKE 'in-%';
        UPDATE project SET default_locale = 'id' || substr(default_locale, 3) WHERE default_locale = 'in' OR default_locale LIKE 'in-%';
        UPDATE project SET locales = substr(replace(replace(',' || locales || ',', ',in,', ',id,'), ',in-', ',id-'), 2, length(locales)) WHERE locales != '';
        UPDATE OR IGNORE note SET locale = 'yi' || substr(locale, 3) WHERE locale = 'ji' OR locale LIKE 'ji-%';
        UPDATE OR IGNORE message SET locale = 'yi' || substr(locale, 3) WHERE locale = 'ji' OR locale LIKE 'ji-%';
        UPDATE OR IGNORE maintenance_copy SET locale = 'yi' || substr(locale, 3) WHERE locale = 'ji' OR locale LIKE 'ji-%';
        UPDATE project SET default_locale = 'yi' || substr(default_locale, 3) WHERE default_locale = 'ji' OR default_locale LIKE 'ji-%';
        UPDATE project SET locales = substr(replace(replace(',' || locales || ',', ',ji,', ',yi,'), ',ji-', ',yi-'), 2, length(locales)) WHERE locales != '';
        """,
        // 3: a force floor's deadline (optional until then, required from it
        // on); the time zone a project's app messages show instants in.
        """
        ALTER TABLE platform ADD COLUMN force_deadline INTEGER;
        ALTER TABLE project ADD COLUMN time_zone TEXT NOT NULL DEFAULT 'UTC';
        """,
        // 4: how many released versions whatsnew/<locale>.json lists (0: all).
        """
        ALTER TABLE project ADD COLUMN whatsnew_limit INTEGER NOT NULL DEFAULT 10;
        """,
        // Notes are always read by version: kept in their key's order, a
        // version's notes are one run of the table, not a lookup each
        // (a publish reads every note; the benchmark fleet has 800,000).
        """
        CREATE TABLE note_by_version(
            version_id INTEGER NOT NULL REFERENCES version(id) ON DELETE CASCADE,
            locale TEXT NOT NULL,
            body TEXT NOT NULL,
            PRIMARY KEY(version_id, locale)
        ) STRICT, WITHOUT ROWID;
        INSERT INTO note_by_version(version_id, locale, body) SELECT version_id, locale, body FROM note;
        DROP TABLE note;
        ALTER TABLE note_by_version RENAME TO note;
        """,
        // 6: every change to a project's rows stamps the project, through
        // triggers, so relctl's own writes and one made with sqlite3 by hand
        // alike: a publish renders a project whose stamp moved since, where
        // the audit trail (written by relctl only) would miss a hand edit.
        """
        CREATE TABLE edit_count(id INTEGER PRIMARY KEY CHECK (id = 0), n INTEGER NOT NULL) STRICT;
        INSERT INTO edit_count(id, n) VALUES (0, 0);
        CREATE TABLE project_edit(project_id INTEGER PRIMARY KEY, edits INTEGER NOT NULL) STRICT;
        """ + Schema.stampTriggers(Schema.stamped, counting: true, marked: false),
        // 7: the audit trail as data (relctl undo and revert read it): each
        // row's kind of change (the command's words), the entries a revert
        // took back, and per change the rows it touched, whole, before and
        // after (ChangeCapture). Rows written before this have a kind and no changes.
        """
        ALTER TABLE audit ADD COLUMN kind TEXT NOT NULL DEFAULT '';
        CREATE TABLE audit_revert(
            audit_id INTEGER NOT NULL REFERENCES audit(id) ON DELETE CASCADE,
            reverted INTEGER NOT NULL,
            PRIMARY KEY(audit_id, reverted)
        ) STRICT, WITHOUT ROWID;
        UPDATE audit SET kind = CASE
            WHEN instr(action, ' ') = 0 THEN action
            WHEN action LIKE 'maintenance #%' THEN 'maintenance'
            WHEN substr(action, 1, instr(action, ' ') - 1) IN ('project', 'platform', 'version', 'notes', 'message', 'maintenance', 'rules', 'policy', 'import')
                THEN substr(action, 1, instr(action, ' ')) || CASE WHEN instr(substr(action, instr(action, ' ') + 1), ' ') = 0
                    THEN substr(action, instr(action, ' ') + 1)
                    ELSE substr(substr(action, instr(action, ' ') + 1), 1, instr(substr(action, instr(action, ' ') + 1), ' ') - 1) END
            ELSE substr(action, 1, instr(action, ' ') - 1) END;
        CREATE TABLE audit_change(
            audit_id INTEGER NOT NULL REFERENCES audit(id) ON DELETE CASCADE,
            seq INTEGER NOT NULL,
            tbl TEXT NOT NULL,
            row_key TEXT NOT NULL,
            before TEXT,
            after TEXT,
            PRIMARY KEY(audit_id, seq)
        ) STRICT, WITHOUT ROWID;
        CREATE INDEX audit_change_row ON audit_change(tbl, row_key, audit_id);
        """ + ChangeCapture.schema,
        // 8: the stamps are random, not counted: two databases built from the
        // same file (relctl apply), or copies of one that went apart, would
        // count the same stamps for different content, and a publish would
        // take one's tree for the other's.
        Schema.dropStampTriggers(Schema.stamped) + Schema.stampTriggers(Schema.stamped, counting: false, marked: false),
        // 9: which changes the database holds, for deploy (Lineage): a part's
        // revision is the change that last touched it; none before this.
        Lineage.schema,
        // 10: the platforms a change names, as data (`log --platform` queries
        // them): a JSON array of names, none for a change to a whole project.
        // NULL on rows written before, which `log` still matches by the words of their action.
        "ALTER TABLE audit ADD COLUMN platforms TEXT;",
        // 11: the formats a project serves ('' for all), and the project's
        // capture triggers made again so that its images hold the column.
        "ALTER TABLE project ADD COLUMN formats TEXT NOT NULL DEFAULT '';\n"
            + ["inserted", "updated", "deleted"].map { "DROP TRIGGER IF EXISTS capture_project_\($0);\n" }.joined()
            + ChangeCapture.triggers(ChangeCapture.tables.filter { $0.name == "project" }, marked: false),
        // 12: applies made with fewer approvals than required (break-glass),
        // which status and verify name until enough approvals are added.
        """
        CREATE TABLE break_glass(
            token TEXT PRIMARY KEY,
            at INTEGER NOT NULL,
            user TEXT NOT NULL,
            reason TEXT NOT NULL,
            required INTEGER NOT NULL,
            approvals TEXT NOT NULL,
            signers TEXT NOT NULL
        ) STRICT;
        """,
        // 13: the public keys a project's apps trust (base64, joined by commas),
        // and the project's capture triggers made again to hold the column.
        "ALTER TABLE project ADD COLUMN trusted_keys TEXT NOT NULL DEFAULT '';\n"
            + ["inserted", "updated", "deleted"].map { "DROP TRIGGER IF EXISTS capture_project_\($0);\n" }.joined()
            + ChangeCapture.triggers(ChangeCapture.tables.filter { $0.name == "project" }, marked: false),
        // 14: where each platform sells (storefronts, captured like every
        // configuration column), and what the stores were seen to serve there:
        // evidence, not configuration (never captured, exported or undone), but
        // the status page shows it, so writing it stamps the project.
        "ALTER TABLE platform ADD COLUMN storefronts TEXT NOT NULL DEFAULT '';\n"
            + ["inserted", "updated", "deleted"].map { "DROP TRIGGER IF EXISTS capture_platform_\($0);\n" }.joined()
            + ChangeCapture.triggers(ChangeCapture.tables.filter { $0.name == "platform" }, marked: false)
            + StoreEvidenceRows.schema
            + Schema.stampTriggers(StoreEvidenceRows.stamped, counting: false, marked: false),
        // 15: a staged recommend (Rollout), captured like the floors so undo
        // and revert take a step back; the platform's capture triggers made
        // again to hold the columns.
        """
        ALTER TABLE platform ADD COLUMN rollout_version TEXT;
        ALTER TABLE platform ADD COLUMN rollout_build INTEGER;
        ALTER TABLE platform ADD COLUMN rollout_salt TEXT;
        ALTER TABLE platform ADD COLUMN rollout_steps TEXT;
        ALTER TABLE platform ADD COLUMN rollout_every INTEGER;
        ALTER TABLE platform ADD COLUMN rollout_start INTEGER;
        ALTER TABLE platform ADD COLUMN rollout_halted_at INTEGER;
        ALTER TABLE platform ADD COLUMN rollout_unstaged TEXT;
        ALTER TABLE platform ADD COLUMN rollout_since INTEGER;

        """
            + ["inserted", "updated", "deleted"].map { "DROP TRIGGER IF EXISTS capture_platform_\($0);\n" }.joined()
            + ChangeCapture.triggers(ChangeCapture.tables.filter { $0.name == "platform" }, marked: false),
        // 16: the rows a change makes are read from their tables when it is
        // recorded, not noted one by one (ChangeCapture.begin's marks), and
        // the rows of a project it makes stamp nothing: the project's own row did.
        ChangeCapture.marking + Schema.dropStampTriggers(Schema.stamped) + Schema.stampTriggers(Schema.stamped, counting: false, marked: true),
        // 17: which projects a plan or apply found holding their section of a
        // configuration file, at which stamp (ConfigSeen): not configuration,
        // so neither captured nor stamped.
        ConfigSeen.schema,
        // 18: a platform's versions, every column a read of them takes (Store.versions), in one
        // index. Versions are added as each app releases, so one platform's rows lie a page
        // apart among the others': read through UNIQUE(platform_id, version), each was a page
        // of its own to fetch, 1–1.5 ms of every write's lockout check (`version add`) for 200.
        // (An index of that name made by hand is replaced: one on other columns would not serve.)
        "DROP INDEX IF EXISTS version_rows; CREATE INDEX version_rows ON version(platform_id, version, build, released_at, min_os, policy);",
        // 19: a note's and a window copy's stamp triggers ask whether the row's parent (its
        // version, its window) was made in the change, by that table's mark, instead of
        // looking its project up through two tables for every row: the parent's own insert
        // stamped the project already (Schema.stampTriggers). An apply into an empty
        // database writes 800,000 notes.
        Schema.dropStampTriggers(Schema.byParentMark) + Schema.stampTriggers(Schema.byParentMark, counting: false, marked: true),
    ]

    /// The stamped tables whose rows are told made by their parent's mark (ChangeCapture's
    /// `mark` is the parent's id), and whose project is a lookup through other tables.
    /// Only these get a `parentMark`: for the other tables the mark is the row's own id, and
    /// a row of theirs made in the change must stamp its project.
    static var byParentMark: [StampedTable] {
        ChangeCapture.tables.filter { ["note", "maintenance_copy"].contains($0.name) }.map {
            StampedTable(name: $0.name, parent: $0.parent, replaceable: $0.replaceable, project: $0.project, parentMark: $0.mark)
        }
    }

    /// The tables whose rows belong to a project, and how a row names it: the captured tables.
    static var stamped: [StampedTable] { stamped(ChangeCapture.tables) }

    static func stamped(_ tables: [CapturedTable]) -> [StampedTable] {
        tables.map { StampedTable(name: $0.name, parent: $0.parent, replaceable: $0.replaceable, project: $0.project) }
    }

    static func dropStampTriggers(_ tables: [StampedTable]) -> String {
        tables.map { t in
            (["inserted", "updated", "moved", "deleted"] + (t.replaceable ? ["replacing", "renumbered"] : []))
                .map { "DROP TRIGGER \(t.name)_\($0);\n" }.joined()
        }.joined()
    }

    /// A table whose rows belong to a project.
    struct StampedTable: Sendable {
        let name: String
        /// The column whose change moves a row to another project.
        let parent: String
        /// Whether an INSERT or UPDATE OR REPLACE may remove a row of another
        /// project: its id is its only key not under its parent.
        var replaceable = false
        /// An SQL expression of the project id of the row `row` names ("NEW", "OLD").
        let project: @Sendable (String) -> String
        /// The column of a row and the column of capture_on that tell whether the row's
        /// parent was made in the change being recorded (ChangeCapture's marks), for
        /// `stampTriggers`.
        var parentMark: (column: String, above: String)? = nil
    }

    /// Triggers on each table: after an insert, an update or a delete, the
    /// database's edit stamp takes a new value and the row's project takes
    /// it as its stamp (on an update that moves the row, its old project
    /// too). `counting`: schema 6's stamps, a count; since 8, random values,
    /// which only equality compares. A row
    /// REPLACE removes fires no delete trigger (recursive_triggers is off, in
    /// the sqlite3 shell too): where that row may be another project's, a
    /// trigger before the insert or the change of id stamps its project. A
    /// row deleted after its project (a cascade) stamps an id no project
    /// has: harmless, the stamps are read joined with the projects.
    /// `marked` (schema 16 on): a row of a project made in the change now
    /// recorded (above capture_on's mark) stamps nothing; the project's own
    /// row, made in the same change, stamped it. An apply into an empty
    /// database writes 850,000 such rows.
    /// A table with a `parentMark` (schema 19 on, those `byParentMark` names): a row
    /// whose parent was made in the change stamps nothing. Its parent's insert
    /// stamped the project (or, the project made too, the project's own row
    /// did), as a later move of that parent stamps the project it moves to; a
    /// stamp is only ever compared for equality, so one is as good as several.
    static func stampTriggers(_ tables: [StampedTable], counting: Bool, marked: Bool) -> String {
        func stamp(_ project: String) -> String {
            """
            INSERT INTO edit_count(id, n) VALUES (0, \(counting ? "1" : "random()")) ON CONFLICT(id) DO UPDATE SET n = \(counting ? "n + 1" : "excluded.n");
            INSERT INTO project_edit(project_id, edits) SELECT id, (SELECT n FROM edit_count WHERE id = 0) FROM (SELECT \(project) AS id)
                WHERE id IS NOT NULL ON CONFLICT(project_id) DO UPDATE SET edits = excluded.edits;
            """
        }
        return tables.map { t in
            /// The conditions on a trigger, with whether the row's project was there before the change now recorded.
            func when(_ row: String, _ conditions: String...) -> String {
                var old = marked && t.name != "project" ? ["NOT EXISTS (SELECT 1 FROM capture_on WHERE project_mark IS NOT NULL AND \(t.project(row)) > project_mark)"] : []
                if let m = t.parentMark {
                    old = ["NOT EXISTS (SELECT 1 FROM capture_on WHERE \(m.above) IS NOT NULL AND \(row).\(m.column) > \(m.above))"]
                }
                let all = conditions + old
                return all.isEmpty ? "" : " WHEN " + all.joined(separator: " AND ")
            }
            var sql = """
            CREATE TRIGGER \(t.name)_inserted AFTER INSERT ON \(t.name)\(when("NEW")) BEGIN \(stamp(t.project("NEW"))) END;
            CREATE TRIGGER \(t.name)_updated AFTER UPDATE ON \(t.name)\(when("NEW")) BEGIN \(stamp(t.project("NEW"))) END;
            CREATE TRIGGER \(t.name)_moved AFTER UPDATE OF \(t.parent) ON \(t.name)\(when("OLD", "OLD.\(t.parent) IS NOT NEW.\(t.parent)"))
                BEGIN \(stamp(t.project("OLD"))) END;
            CREATE TRIGGER \(t.name)_deleted AFTER DELETE ON \(t.name)\(when("OLD")) BEGIN \(stamp(t.project("OLD"))) END;

            """
            if t.replaceable {
                let holder = "(SELECT \(t.project("held")) FROM \(t.name) held WHERE held.id = NEW.id)"
                sql += """
                CREATE TRIGGER \(t.name)_replacing BEFORE INSERT ON \(t.name) WHEN EXISTS (SELECT 1 FROM \(t.name) WHERE id = NEW.id)
                    BEGIN \(stamp(holder)) END;
                CREATE TRIGGER \(t.name)_renumbered BEFORE UPDATE OF id ON \(t.name)
                    WHEN NEW.id IS NOT OLD.id AND EXISTS (SELECT 1 FROM \(t.name) WHERE id = NEW.id) BEGIN \(stamp(holder)) END;

                """
            }
            return sql
        }.joined()
    }
}
