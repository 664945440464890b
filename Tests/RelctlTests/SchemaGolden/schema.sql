-- user_version 7
-- index audit_change_row
CREATE INDEX audit_change_row ON audit_change(tbl, row_key, audit_id);
-- index version_build
CREATE UNIQUE INDEX version_build ON version(platform_id, build) WHERE build IS NOT NULL;
-- table audit
CREATE TABLE audit(
    id INTEGER PRIMARY KEY,
    at INTEGER NOT NULL,
    user TEXT NOT NULL,
    project TEXT,
    action TEXT NOT NULL
, kind TEXT NOT NULL DEFAULT '') STRICT;
-- table audit_change
CREATE TABLE audit_change(
    audit_id INTEGER NOT NULL REFERENCES audit(id) ON DELETE CASCADE,
    seq INTEGER NOT NULL,
    tbl TEXT NOT NULL,
    row_key TEXT NOT NULL,
    before TEXT,
    after TEXT,
    PRIMARY KEY(audit_id, seq)
) STRICT, WITHOUT ROWID;
-- table audit_revert
CREATE TABLE audit_revert(
    audit_id INTEGER NOT NULL REFERENCES audit(id) ON DELETE CASCADE,
    reverted INTEGER NOT NULL,
    PRIMARY KEY(audit_id, reverted)
) STRICT, WITHOUT ROWID;
-- table edit_count
CREATE TABLE edit_count(id INTEGER PRIMARY KEY CHECK (id = 0), n INTEGER NOT NULL) STRICT;
-- table maintenance
CREATE TABLE maintenance(
    id INTEGER PRIMARY KEY,
    project_id INTEGER NOT NULL REFERENCES project(id) ON DELETE CASCADE,
    platform_id INTEGER REFERENCES platform(id) ON DELETE CASCADE,
    starts_at INTEGER NOT NULL,
    ends_at INTEGER
, cancelled_at INTEGER) STRICT;
-- table maintenance_copy
CREATE TABLE maintenance_copy(
    window_id INTEGER NOT NULL REFERENCES maintenance(id) ON DELETE CASCADE,
    locale TEXT NOT NULL,
    title TEXT,
    message TEXT,
    PRIMARY KEY(window_id, locale)
) STRICT;
-- table message
CREATE TABLE message(
    project_id INTEGER NOT NULL REFERENCES project(id) ON DELETE CASCADE,
    kind TEXT NOT NULL,
    locale TEXT NOT NULL,
    field TEXT NOT NULL,
    value TEXT NOT NULL,
    PRIMARY KEY(project_id, kind, locale, field)
) STRICT;
-- table meta
CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL) STRICT;
-- table note
CREATE TABLE "note"(
    version_id INTEGER NOT NULL REFERENCES version(id) ON DELETE CASCADE,
    locale TEXT NOT NULL,
    body TEXT NOT NULL,
    PRIMARY KEY(version_id, locale)
) STRICT, WITHOUT ROWID;
-- table platform
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
    recommend_build INTEGER, force_deadline INTEGER,
    UNIQUE(project_id, name)
) STRICT;
-- table project
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
, time_zone TEXT NOT NULL DEFAULT 'UTC', whatsnew_limit INTEGER NOT NULL DEFAULT 10) STRICT;
-- table project_edit
CREATE TABLE project_edit(project_id INTEGER PRIMARY KEY, edits INTEGER NOT NULL) STRICT;
-- table version
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
-- trigger maintenance_copy_deleted
CREATE TRIGGER maintenance_copy_deleted AFTER DELETE ON maintenance_copy BEGIN INSERT INTO edit_count(id, n) VALUES (0, 1) ON CONFLICT(id) DO UPDATE SET n = n + 1;
INSERT INTO project_edit(project_id, edits) SELECT id, (SELECT n FROM edit_count WHERE id = 0) FROM (SELECT (SELECT project_id FROM maintenance WHERE id = OLD.window_id) AS id)
    WHERE id IS NOT NULL ON CONFLICT(project_id) DO UPDATE SET edits = excluded.edits; END;
-- trigger maintenance_copy_inserted
CREATE TRIGGER maintenance_copy_inserted AFTER INSERT ON maintenance_copy BEGIN INSERT INTO edit_count(id, n) VALUES (0, 1) ON CONFLICT(id) DO UPDATE SET n = n + 1;
INSERT INTO project_edit(project_id, edits) SELECT id, (SELECT n FROM edit_count WHERE id = 0) FROM (SELECT (SELECT project_id FROM maintenance WHERE id = NEW.window_id) AS id)
    WHERE id IS NOT NULL ON CONFLICT(project_id) DO UPDATE SET edits = excluded.edits; END;
-- trigger maintenance_copy_moved
CREATE TRIGGER maintenance_copy_moved AFTER UPDATE OF window_id ON maintenance_copy WHEN OLD.window_id IS NOT NEW.window_id
    BEGIN INSERT INTO edit_count(id, n) VALUES (0, 1) ON CONFLICT(id) DO UPDATE SET n = n + 1;
INSERT INTO project_edit(project_id, edits) SELECT id, (SELECT n FROM edit_count WHERE id = 0) FROM (SELECT (SELECT project_id FROM maintenance WHERE id = OLD.window_id) AS id)
    WHERE id IS NOT NULL ON CONFLICT(project_id) DO UPDATE SET edits = excluded.edits; END;
-- trigger maintenance_copy_updated
CREATE TRIGGER maintenance_copy_updated AFTER UPDATE ON maintenance_copy BEGIN INSERT INTO edit_count(id, n) VALUES (0, 1) ON CONFLICT(id) DO UPDATE SET n = n + 1;
INSERT INTO project_edit(project_id, edits) SELECT id, (SELECT n FROM edit_count WHERE id = 0) FROM (SELECT (SELECT project_id FROM maintenance WHERE id = NEW.window_id) AS id)
    WHERE id IS NOT NULL ON CONFLICT(project_id) DO UPDATE SET edits = excluded.edits; END;
-- trigger maintenance_deleted
CREATE TRIGGER maintenance_deleted AFTER DELETE ON maintenance BEGIN INSERT INTO edit_count(id, n) VALUES (0, 1) ON CONFLICT(id) DO UPDATE SET n = n + 1;
INSERT INTO project_edit(project_id, edits) SELECT id, (SELECT n FROM edit_count WHERE id = 0) FROM (SELECT OLD.project_id AS id)
    WHERE id IS NOT NULL ON CONFLICT(project_id) DO UPDATE SET edits = excluded.edits; END;
-- trigger maintenance_inserted
CREATE TRIGGER maintenance_inserted AFTER INSERT ON maintenance BEGIN INSERT INTO edit_count(id, n) VALUES (0, 1) ON CONFLICT(id) DO UPDATE SET n = n + 1;
INSERT INTO project_edit(project_id, edits) SELECT id, (SELECT n FROM edit_count WHERE id = 0) FROM (SELECT NEW.project_id AS id)
    WHERE id IS NOT NULL ON CONFLICT(project_id) DO UPDATE SET edits = excluded.edits; END;
-- trigger maintenance_moved
CREATE TRIGGER maintenance_moved AFTER UPDATE OF project_id ON maintenance WHEN OLD.project_id IS NOT NEW.project_id
    BEGIN INSERT INTO edit_count(id, n) VALUES (0, 1) ON CONFLICT(id) DO UPDATE SET n = n + 1;
INSERT INTO project_edit(project_id, edits) SELECT id, (SELECT n FROM edit_count WHERE id = 0) FROM (SELECT OLD.project_id AS id)
    WHERE id IS NOT NULL ON CONFLICT(project_id) DO UPDATE SET edits = excluded.edits; END;
-- trigger maintenance_renumbered
CREATE TRIGGER maintenance_renumbered BEFORE UPDATE OF id ON maintenance
    WHEN NEW.id IS NOT OLD.id AND EXISTS (SELECT 1 FROM maintenance WHERE id = NEW.id) BEGIN INSERT INTO edit_count(id, n) VALUES (0, 1) ON CONFLICT(id) DO UPDATE SET n = n + 1;
INSERT INTO project_edit(project_id, edits) SELECT id, (SELECT n FROM edit_count WHERE id = 0) FROM (SELECT (SELECT held.project_id FROM maintenance held WHERE held.id = NEW.id) AS id)
    WHERE id IS NOT NULL ON CONFLICT(project_id) DO UPDATE SET edits = excluded.edits; END;
-- trigger maintenance_replacing
CREATE TRIGGER maintenance_replacing BEFORE INSERT ON maintenance WHEN EXISTS (SELECT 1 FROM maintenance WHERE id = NEW.id)
    BEGIN INSERT INTO edit_count(id, n) VALUES (0, 1) ON CONFLICT(id) DO UPDATE SET n = n + 1;
INSERT INTO project_edit(project_id, edits) SELECT id, (SELECT n FROM edit_count WHERE id = 0) FROM (SELECT (SELECT held.project_id FROM maintenance held WHERE held.id = NEW.id) AS id)
    WHERE id IS NOT NULL ON CONFLICT(project_id) DO UPDATE SET edits = excluded.edits; END;
-- trigger maintenance_updated
CREATE TRIGGER maintenance_updated AFTER UPDATE ON maintenance BEGIN INSERT INTO edit_count(id, n) VALUES (0, 1) ON CONFLICT(id) DO UPDATE SET n = n + 1;
INSERT INTO project_edit(project_id, edits) SELECT id, (SELECT n FROM edit_count WHERE id = 0) FROM (SELECT NEW.project_id AS id)
    WHERE id IS NOT NULL ON CONFLICT(project_id) DO UPDATE SET edits = excluded.edits; END;
-- trigger message_deleted
CREATE TRIGGER message_deleted AFTER DELETE ON message BEGIN INSERT INTO edit_count(id, n) VALUES (0, 1) ON CONFLICT(id) DO UPDATE SET n = n + 1;
INSERT INTO project_edit(project_id, edits) SELECT id, (SELECT n FROM edit_count WHERE id = 0) FROM (SELECT OLD.project_id AS id)
    WHERE id IS NOT NULL ON CONFLICT(project_id) DO UPDATE SET edits = excluded.edits; END;
-- trigger message_inserted
CREATE TRIGGER message_inserted AFTER INSERT ON message BEGIN INSERT INTO edit_count(id, n) VALUES (0, 1) ON CONFLICT(id) DO UPDATE SET n = n + 1;
INSERT INTO project_edit(project_id, edits) SELECT id, (SELECT n FROM edit_count WHERE id = 0) FROM (SELECT NEW.project_id AS id)
    WHERE id IS NOT NULL ON CONFLICT(project_id) DO UPDATE SET edits = excluded.edits; END;
-- trigger message_moved
CREATE TRIGGER message_moved AFTER UPDATE OF project_id ON message WHEN OLD.project_id IS NOT NEW.project_id
    BEGIN INSERT INTO edit_count(id, n) VALUES (0, 1) ON CONFLICT(id) DO UPDATE SET n = n + 1;
INSERT INTO project_edit(project_id, edits) SELECT id, (SELECT n FROM edit_count WHERE id = 0) FROM (SELECT OLD.project_id AS id)
    WHERE id IS NOT NULL ON CONFLICT(project_id) DO UPDATE SET edits = excluded.edits; END;
-- trigger message_updated
CREATE TRIGGER message_updated AFTER UPDATE ON message BEGIN INSERT INTO edit_count(id, n) VALUES (0, 1) ON CONFLICT(id) DO UPDATE SET n = n + 1;
INSERT INTO project_edit(project_id, edits) SELECT id, (SELECT n FROM edit_count WHERE id = 0) FROM (SELECT NEW.project_id AS id)
    WHERE id IS NOT NULL ON CONFLICT(project_id) DO UPDATE SET edits = excluded.edits; END;
-- trigger note_deleted
CREATE TRIGGER note_deleted AFTER DELETE ON note BEGIN INSERT INTO edit_count(id, n) VALUES (0, 1) ON CONFLICT(id) DO UPDATE SET n = n + 1;
INSERT INTO project_edit(project_id, edits) SELECT id, (SELECT n FROM edit_count WHERE id = 0) FROM (SELECT (SELECT p.project_id FROM version v JOIN platform p ON p.id = v.platform_id WHERE v.id = OLD.version_id) AS id)
    WHERE id IS NOT NULL ON CONFLICT(project_id) DO UPDATE SET edits = excluded.edits; END;
-- trigger note_inserted
CREATE TRIGGER note_inserted AFTER INSERT ON note BEGIN INSERT INTO edit_count(id, n) VALUES (0, 1) ON CONFLICT(id) DO UPDATE SET n = n + 1;
INSERT INTO project_edit(project_id, edits) SELECT id, (SELECT n FROM edit_count WHERE id = 0) FROM (SELECT (SELECT p.project_id FROM version v JOIN platform p ON p.id = v.platform_id WHERE v.id = NEW.version_id) AS id)
    WHERE id IS NOT NULL ON CONFLICT(project_id) DO UPDATE SET edits = excluded.edits; END;
-- trigger note_moved
CREATE TRIGGER note_moved AFTER UPDATE OF version_id ON note WHEN OLD.version_id IS NOT NEW.version_id
    BEGIN INSERT INTO edit_count(id, n) VALUES (0, 1) ON CONFLICT(id) DO UPDATE SET n = n + 1;
INSERT INTO project_edit(project_id, edits) SELECT id, (SELECT n FROM edit_count WHERE id = 0) FROM (SELECT (SELECT p.project_id FROM version v JOIN platform p ON p.id = v.platform_id WHERE v.id = OLD.version_id) AS id)
    WHERE id IS NOT NULL ON CONFLICT(project_id) DO UPDATE SET edits = excluded.edits; END;
-- trigger note_updated
CREATE TRIGGER note_updated AFTER UPDATE ON note BEGIN INSERT INTO edit_count(id, n) VALUES (0, 1) ON CONFLICT(id) DO UPDATE SET n = n + 1;
INSERT INTO project_edit(project_id, edits) SELECT id, (SELECT n FROM edit_count WHERE id = 0) FROM (SELECT (SELECT p.project_id FROM version v JOIN platform p ON p.id = v.platform_id WHERE v.id = NEW.version_id) AS id)
    WHERE id IS NOT NULL ON CONFLICT(project_id) DO UPDATE SET edits = excluded.edits; END;
-- trigger platform_deleted
CREATE TRIGGER platform_deleted AFTER DELETE ON platform BEGIN INSERT INTO edit_count(id, n) VALUES (0, 1) ON CONFLICT(id) DO UPDATE SET n = n + 1;
INSERT INTO project_edit(project_id, edits) SELECT id, (SELECT n FROM edit_count WHERE id = 0) FROM (SELECT OLD.project_id AS id)
    WHERE id IS NOT NULL ON CONFLICT(project_id) DO UPDATE SET edits = excluded.edits; END;
-- trigger platform_inserted
CREATE TRIGGER platform_inserted AFTER INSERT ON platform BEGIN INSERT INTO edit_count(id, n) VALUES (0, 1) ON CONFLICT(id) DO UPDATE SET n = n + 1;
INSERT INTO project_edit(project_id, edits) SELECT id, (SELECT n FROM edit_count WHERE id = 0) FROM (SELECT NEW.project_id AS id)
    WHERE id IS NOT NULL ON CONFLICT(project_id) DO UPDATE SET edits = excluded.edits; END;
-- trigger platform_moved
CREATE TRIGGER platform_moved AFTER UPDATE OF project_id ON platform WHEN OLD.project_id IS NOT NEW.project_id
    BEGIN INSERT INTO edit_count(id, n) VALUES (0, 1) ON CONFLICT(id) DO UPDATE SET n = n + 1;
INSERT INTO project_edit(project_id, edits) SELECT id, (SELECT n FROM edit_count WHERE id = 0) FROM (SELECT OLD.project_id AS id)
    WHERE id IS NOT NULL ON CONFLICT(project_id) DO UPDATE SET edits = excluded.edits; END;
-- trigger platform_renumbered
CREATE TRIGGER platform_renumbered BEFORE UPDATE OF id ON platform
    WHEN NEW.id IS NOT OLD.id AND EXISTS (SELECT 1 FROM platform WHERE id = NEW.id) BEGIN INSERT INTO edit_count(id, n) VALUES (0, 1) ON CONFLICT(id) DO UPDATE SET n = n + 1;
INSERT INTO project_edit(project_id, edits) SELECT id, (SELECT n FROM edit_count WHERE id = 0) FROM (SELECT (SELECT held.project_id FROM platform held WHERE held.id = NEW.id) AS id)
    WHERE id IS NOT NULL ON CONFLICT(project_id) DO UPDATE SET edits = excluded.edits; END;
-- trigger platform_replacing
CREATE TRIGGER platform_replacing BEFORE INSERT ON platform WHEN EXISTS (SELECT 1 FROM platform WHERE id = NEW.id)
    BEGIN INSERT INTO edit_count(id, n) VALUES (0, 1) ON CONFLICT(id) DO UPDATE SET n = n + 1;
INSERT INTO project_edit(project_id, edits) SELECT id, (SELECT n FROM edit_count WHERE id = 0) FROM (SELECT (SELECT held.project_id FROM platform held WHERE held.id = NEW.id) AS id)
    WHERE id IS NOT NULL ON CONFLICT(project_id) DO UPDATE SET edits = excluded.edits; END;
-- trigger platform_updated
CREATE TRIGGER platform_updated AFTER UPDATE ON platform BEGIN INSERT INTO edit_count(id, n) VALUES (0, 1) ON CONFLICT(id) DO UPDATE SET n = n + 1;
INSERT INTO project_edit(project_id, edits) SELECT id, (SELECT n FROM edit_count WHERE id = 0) FROM (SELECT NEW.project_id AS id)
    WHERE id IS NOT NULL ON CONFLICT(project_id) DO UPDATE SET edits = excluded.edits; END;
-- trigger project_deleted
CREATE TRIGGER project_deleted AFTER DELETE ON project BEGIN INSERT INTO edit_count(id, n) VALUES (0, 1) ON CONFLICT(id) DO UPDATE SET n = n + 1;
INSERT INTO project_edit(project_id, edits) SELECT id, (SELECT n FROM edit_count WHERE id = 0) FROM (SELECT OLD.id AS id)
    WHERE id IS NOT NULL ON CONFLICT(project_id) DO UPDATE SET edits = excluded.edits; END;
-- trigger project_inserted
CREATE TRIGGER project_inserted AFTER INSERT ON project BEGIN INSERT INTO edit_count(id, n) VALUES (0, 1) ON CONFLICT(id) DO UPDATE SET n = n + 1;
INSERT INTO project_edit(project_id, edits) SELECT id, (SELECT n FROM edit_count WHERE id = 0) FROM (SELECT NEW.id AS id)
    WHERE id IS NOT NULL ON CONFLICT(project_id) DO UPDATE SET edits = excluded.edits; END;
-- trigger project_moved
CREATE TRIGGER project_moved AFTER UPDATE OF id ON project WHEN OLD.id IS NOT NEW.id
    BEGIN INSERT INTO edit_count(id, n) VALUES (0, 1) ON CONFLICT(id) DO UPDATE SET n = n + 1;
INSERT INTO project_edit(project_id, edits) SELECT id, (SELECT n FROM edit_count WHERE id = 0) FROM (SELECT OLD.id AS id)
    WHERE id IS NOT NULL ON CONFLICT(project_id) DO UPDATE SET edits = excluded.edits; END;
-- trigger project_updated
CREATE TRIGGER project_updated AFTER UPDATE ON project BEGIN INSERT INTO edit_count(id, n) VALUES (0, 1) ON CONFLICT(id) DO UPDATE SET n = n + 1;
INSERT INTO project_edit(project_id, edits) SELECT id, (SELECT n FROM edit_count WHERE id = 0) FROM (SELECT NEW.id AS id)
    WHERE id IS NOT NULL ON CONFLICT(project_id) DO UPDATE SET edits = excluded.edits; END;
-- trigger version_deleted
CREATE TRIGGER version_deleted AFTER DELETE ON version BEGIN INSERT INTO edit_count(id, n) VALUES (0, 1) ON CONFLICT(id) DO UPDATE SET n = n + 1;
INSERT INTO project_edit(project_id, edits) SELECT id, (SELECT n FROM edit_count WHERE id = 0) FROM (SELECT (SELECT project_id FROM platform WHERE id = OLD.platform_id) AS id)
    WHERE id IS NOT NULL ON CONFLICT(project_id) DO UPDATE SET edits = excluded.edits; END;
-- trigger version_inserted
CREATE TRIGGER version_inserted AFTER INSERT ON version BEGIN INSERT INTO edit_count(id, n) VALUES (0, 1) ON CONFLICT(id) DO UPDATE SET n = n + 1;
INSERT INTO project_edit(project_id, edits) SELECT id, (SELECT n FROM edit_count WHERE id = 0) FROM (SELECT (SELECT project_id FROM platform WHERE id = NEW.platform_id) AS id)
    WHERE id IS NOT NULL ON CONFLICT(project_id) DO UPDATE SET edits = excluded.edits; END;
-- trigger version_moved
CREATE TRIGGER version_moved AFTER UPDATE OF platform_id ON version WHEN OLD.platform_id IS NOT NEW.platform_id
    BEGIN INSERT INTO edit_count(id, n) VALUES (0, 1) ON CONFLICT(id) DO UPDATE SET n = n + 1;
INSERT INTO project_edit(project_id, edits) SELECT id, (SELECT n FROM edit_count WHERE id = 0) FROM (SELECT (SELECT project_id FROM platform WHERE id = OLD.platform_id) AS id)
    WHERE id IS NOT NULL ON CONFLICT(project_id) DO UPDATE SET edits = excluded.edits; END;
-- trigger version_renumbered
CREATE TRIGGER version_renumbered BEFORE UPDATE OF id ON version
    WHEN NEW.id IS NOT OLD.id AND EXISTS (SELECT 1 FROM version WHERE id = NEW.id) BEGIN INSERT INTO edit_count(id, n) VALUES (0, 1) ON CONFLICT(id) DO UPDATE SET n = n + 1;
INSERT INTO project_edit(project_id, edits) SELECT id, (SELECT n FROM edit_count WHERE id = 0) FROM (SELECT (SELECT (SELECT project_id FROM platform WHERE id = held.platform_id) FROM version held WHERE held.id = NEW.id) AS id)
    WHERE id IS NOT NULL ON CONFLICT(project_id) DO UPDATE SET edits = excluded.edits; END;
-- trigger version_replacing
CREATE TRIGGER version_replacing BEFORE INSERT ON version WHEN EXISTS (SELECT 1 FROM version WHERE id = NEW.id)
    BEGIN INSERT INTO edit_count(id, n) VALUES (0, 1) ON CONFLICT(id) DO UPDATE SET n = n + 1;
INSERT INTO project_edit(project_id, edits) SELECT id, (SELECT n FROM edit_count WHERE id = 0) FROM (SELECT (SELECT (SELECT project_id FROM platform WHERE id = held.platform_id) FROM version held WHERE held.id = NEW.id) AS id)
    WHERE id IS NOT NULL ON CONFLICT(project_id) DO UPDATE SET edits = excluded.edits; END;
-- trigger version_updated
CREATE TRIGGER version_updated AFTER UPDATE ON version BEGIN INSERT INTO edit_count(id, n) VALUES (0, 1) ON CONFLICT(id) DO UPDATE SET n = n + 1;
INSERT INTO project_edit(project_id, edits) SELECT id, (SELECT n FROM edit_count WHERE id = 0) FROM (SELECT (SELECT project_id FROM platform WHERE id = NEW.platform_id) AS id)
    WHERE id IS NOT NULL ON CONFLICT(project_id) DO UPDATE SET edits = excluded.edits; END;
