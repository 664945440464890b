/// Migrations in order; index + 1 is the schema version they produce.
/// Never edit a shipped migration: append a new one.
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
        CREATE TABLE edit_count(n INTEGER NOT NULL) STRICT;
        INSERT INTO edit_count(n) VALUES (0);
        CREATE TABLE project_edit(project_id INTEGER PRIMARY KEY, edits INTEGER NOT NULL) STRICT;
        """ + Schema.stampTriggers([
            ("project", { "\($0).id" }),
            ("platform", { "\($0).project_id" }),
            ("version", { "(SELECT project_id FROM platform WHERE id = \($0).platform_id)" }),
            ("note", { "(SELECT p.project_id FROM version v JOIN platform p ON p.id = v.platform_id WHERE v.id = \($0).version_id)" }),
            ("maintenance", { "\($0).project_id" }),
            ("maintenance_copy", { "(SELECT project_id FROM maintenance WHERE id = \($0).window_id)" }),
            ("message", { "\($0).project_id" }),
        ]),
    ]

    /// Triggers after every insert, update and delete on each table: the
    /// edit count goes up by one and the row's project (`project("NEW")`,
    /// an SQL expression of its id) takes it as its stamp. A row whose
    /// project is gone (deleted along with it) stamps none; the count still moves.
    static func stampTriggers(_ tables: [(name: String, project: (String) -> String)]) -> String {
        tables.map { table in
            func stamp(_ row: String) -> String {
                """
                UPDATE edit_count SET n = n + 1;
                INSERT INTO project_edit(project_id, edits) SELECT id, (SELECT n FROM edit_count) FROM (SELECT \(table.project(row)) AS id)
                    WHERE id IS NOT NULL ON CONFLICT(project_id) DO UPDATE SET edits = excluded.edits;
                """
            }
            return """
            CREATE TRIGGER \(table.name)_inserted AFTER INSERT ON \(table.name) BEGIN \(stamp("NEW")) END;
            CREATE TRIGGER \(table.name)_updated AFTER UPDATE ON \(table.name) BEGIN \(stamp("OLD")) \(stamp("NEW")) END;
            CREATE TRIGGER \(table.name)_deleted AFTER DELETE ON \(table.name) BEGIN \(stamp("OLD")) END;

            """
        }.joined()
    }
}
