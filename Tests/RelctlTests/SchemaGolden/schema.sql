-- user_version 19
-- index audit_change_row
CREATE INDEX audit_change_row ON audit_change(tbl, row_key, audit_id);
-- index lineage_head
CREATE INDEX lineage_head ON lineage(head);
-- index version_build
CREATE UNIQUE INDEX version_build ON version(platform_id, build) WHERE build IS NOT NULL;
-- index version_rows
CREATE INDEX version_rows ON version(platform_id, version, build, released_at, min_os, policy);
-- table audit
CREATE TABLE audit(
    id INTEGER PRIMARY KEY,
    at INTEGER NOT NULL,
    user TEXT NOT NULL,
    project TEXT,
    action TEXT NOT NULL
, kind TEXT NOT NULL DEFAULT '', platforms TEXT) STRICT;
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
-- table break_glass
CREATE TABLE break_glass(
    token TEXT PRIMARY KEY,
    at INTEGER NOT NULL,
    user TEXT NOT NULL,
    reason TEXT NOT NULL,
    required INTEGER NOT NULL,
    approvals TEXT NOT NULL,
    signers TEXT NOT NULL
) STRICT;
-- table capture_on
CREATE TABLE capture_on(on_ INTEGER PRIMARY KEY CHECK (on_ = 1),
    project_mark INTEGER, platform_mark INTEGER, version_mark INTEGER, window_mark INTEGER) STRICT;
-- table config_seen
CREATE TABLE config_seen(
    project_id INTEGER PRIMARY KEY REFERENCES project(id) ON DELETE CASCADE,
    stamp INTEGER,
    digest TEXT NOT NULL,
    lineage TEXT NOT NULL,
    reader TEXT NOT NULL,
    seen_at INTEGER NOT NULL,
    until INTEGER
) STRICT;
-- table edit_count
CREATE TABLE edit_count(id INTEGER PRIMARY KEY CHECK (id = 0), n INTEGER NOT NULL) STRICT;
-- table lineage
CREATE TABLE lineage(project TEXT NOT NULL, part TEXT NOT NULL, head INTEGER NOT NULL, chain TEXT NOT NULL, PRIMARY KEY(project, part)) STRICT, WITHOUT ROWID;
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
    recommend_build INTEGER, force_deadline INTEGER, storefronts TEXT NOT NULL DEFAULT '', rollout_version TEXT, rollout_build INTEGER, rollout_salt TEXT, rollout_steps TEXT, rollout_every INTEGER, rollout_start INTEGER, rollout_halted_at INTEGER, rollout_unstaged TEXT, rollout_since INTEGER,
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
, time_zone TEXT NOT NULL DEFAULT 'UTC', whatsnew_limit INTEGER NOT NULL DEFAULT 10, formats TEXT NOT NULL DEFAULT '', trusted_keys TEXT NOT NULL DEFAULT '') STRICT;
-- table project_edit
CREATE TABLE project_edit(project_id INTEGER PRIMARY KEY, edits INTEGER NOT NULL) STRICT;
-- table row_change
CREATE TABLE row_change(seq INTEGER PRIMARY KEY, tbl TEXT NOT NULL, row_key TEXT NOT NULL, before TEXT) STRICT;
-- table store_lookup
CREATE TABLE store_lookup(
    platform_id INTEGER NOT NULL REFERENCES platform(id) ON DELETE CASCADE,
    storefront TEXT NOT NULL,
    fetched_at INTEGER NOT NULL,
    version TEXT,
    released_at INTEGER,
    min_os TEXT,
    PRIMARY KEY(platform_id, storefront)
) STRICT, WITHOUT ROWID;
-- table store_play_import
CREATE TABLE store_play_import(
    platform_id INTEGER PRIMARY KEY REFERENCES platform(id) ON DELETE CASCADE,
    imported_at INTEGER NOT NULL
) STRICT;
-- table store_play_release
CREATE TABLE store_play_release(
    platform_id INTEGER NOT NULL REFERENCES store_play_import(platform_id) ON DELETE CASCADE,
    seq INTEGER NOT NULL,
    track TEXT NOT NULL,
    name TEXT,
    status TEXT NOT NULL,
    user_fraction_ppm INTEGER,
    version_codes TEXT NOT NULL,
    countries TEXT,
    rest_of_world INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY(platform_id, seq)
) STRICT, WITHOUT ROWID;
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
-- trigger capture_maintenance_copy_deleted
CREATE TRIGGER capture_maintenance_copy_deleted AFTER DELETE ON maintenance_copy WHEN EXISTS (SELECT 1 FROM capture_on WHERE window_mark IS NULL OR OLD.window_id <= window_mark) BEGIN
    INSERT INTO row_change(tbl, row_key, before) VALUES ('maintenance_copy', json_array(OLD.window_id, OLD.locale), json_object('window_id', OLD.window_id, 'locale', OLD.locale, 'title', OLD.title, 'message', OLD.message)); END;
-- trigger capture_maintenance_copy_found
CREATE TRIGGER capture_maintenance_copy_found BEFORE INSERT ON maintenance_copy WHEN EXISTS (SELECT 1 FROM capture_on WHERE window_mark IS NULL OR NEW.window_id <= window_mark) BEGIN
    INSERT INTO row_change(tbl, row_key, before) SELECT 'maintenance_copy', json_array(maintenance_copy.window_id, maintenance_copy.locale), json_object('window_id', maintenance_copy.window_id, 'locale', maintenance_copy.locale, 'title', maintenance_copy.title, 'message', maintenance_copy.message) FROM maintenance_copy WHERE maintenance_copy.window_id IS NEW.window_id AND maintenance_copy.locale IS NEW.locale; END;
-- trigger capture_maintenance_copy_inserted
CREATE TRIGGER capture_maintenance_copy_inserted AFTER INSERT ON maintenance_copy WHEN EXISTS (SELECT 1 FROM capture_on WHERE window_mark IS NULL OR NEW.window_id <= window_mark) BEGIN
    INSERT INTO row_change(tbl, row_key, before) VALUES ('maintenance_copy', json_array(NEW.window_id, NEW.locale), NULL); END;
-- trigger capture_maintenance_copy_updated
CREATE TRIGGER capture_maintenance_copy_updated AFTER UPDATE ON maintenance_copy WHEN EXISTS (SELECT 1 FROM capture_on) BEGIN
    INSERT INTO row_change(tbl, row_key, before) SELECT 'maintenance_copy', json_array(OLD.window_id, OLD.locale), json_object('window_id', OLD.window_id, 'locale', OLD.locale, 'title', OLD.title, 'message', OLD.message) WHERE EXISTS (SELECT 1 FROM capture_on WHERE window_mark IS NULL OR OLD.window_id <= window_mark);
    INSERT INTO row_change(tbl, row_key, before) SELECT 'maintenance_copy', json_array(NEW.window_id, NEW.locale), NULL WHERE NOT (OLD.window_id IS NEW.window_id AND OLD.locale IS NEW.locale) AND EXISTS (SELECT 1 FROM capture_on WHERE window_mark IS NULL OR NEW.window_id <= window_mark); END;
-- trigger capture_maintenance_deleted
CREATE TRIGGER capture_maintenance_deleted AFTER DELETE ON maintenance WHEN EXISTS (SELECT 1 FROM capture_on WHERE window_mark IS NULL OR OLD.id <= window_mark) BEGIN
    INSERT INTO row_change(tbl, row_key, before) VALUES ('maintenance', json_array(OLD.id), json_object('id', OLD.id, 'project_id', OLD.project_id, 'platform_id', OLD.platform_id, 'starts_at', OLD.starts_at, 'ends_at', OLD.ends_at, 'cancelled_at', OLD.cancelled_at)); END;
-- trigger capture_maintenance_inserted
CREATE TRIGGER capture_maintenance_inserted AFTER INSERT ON maintenance WHEN EXISTS (SELECT 1 FROM capture_on WHERE window_mark IS NULL OR NEW.id <= window_mark) BEGIN
    INSERT INTO row_change(tbl, row_key, before) VALUES ('maintenance', json_array(NEW.id), NULL); END;
-- trigger capture_maintenance_updated
CREATE TRIGGER capture_maintenance_updated AFTER UPDATE ON maintenance WHEN EXISTS (SELECT 1 FROM capture_on) BEGIN
    INSERT INTO row_change(tbl, row_key, before) SELECT 'maintenance', json_array(OLD.id), json_object('id', OLD.id, 'project_id', OLD.project_id, 'platform_id', OLD.platform_id, 'starts_at', OLD.starts_at, 'ends_at', OLD.ends_at, 'cancelled_at', OLD.cancelled_at) WHERE EXISTS (SELECT 1 FROM capture_on WHERE window_mark IS NULL OR OLD.id <= window_mark);
    INSERT INTO row_change(tbl, row_key, before) SELECT 'maintenance', json_array(NEW.id), NULL WHERE NOT (OLD.id IS NEW.id) AND EXISTS (SELECT 1 FROM capture_on WHERE window_mark IS NULL OR NEW.id <= window_mark); END;
-- trigger capture_message_deleted
CREATE TRIGGER capture_message_deleted AFTER DELETE ON message WHEN EXISTS (SELECT 1 FROM capture_on WHERE project_mark IS NULL OR OLD.project_id <= project_mark) BEGIN
    INSERT INTO row_change(tbl, row_key, before) VALUES ('message', json_array(OLD.project_id, OLD.kind, OLD.locale, OLD.field), json_object('project_id', OLD.project_id, 'kind', OLD.kind, 'locale', OLD.locale, 'field', OLD.field, 'value', OLD.value)); END;
-- trigger capture_message_found
CREATE TRIGGER capture_message_found BEFORE INSERT ON message WHEN EXISTS (SELECT 1 FROM capture_on WHERE project_mark IS NULL OR NEW.project_id <= project_mark) BEGIN
    INSERT INTO row_change(tbl, row_key, before) SELECT 'message', json_array(message.project_id, message.kind, message.locale, message.field), json_object('project_id', message.project_id, 'kind', message.kind, 'locale', message.locale, 'field', message.field, 'value', message.value) FROM message WHERE message.project_id IS NEW.project_id AND message.kind IS NEW.kind AND message.locale IS NEW.locale AND message.field IS NEW.field; END;
-- trigger capture_message_inserted
CREATE TRIGGER capture_message_inserted AFTER INSERT ON message WHEN EXISTS (SELECT 1 FROM capture_on WHERE project_mark IS NULL OR NEW.project_id <= project_mark) BEGIN
    INSERT INTO row_change(tbl, row_key, before) VALUES ('message', json_array(NEW.project_id, NEW.kind, NEW.locale, NEW.field), NULL); END;
-- trigger capture_message_updated
CREATE TRIGGER capture_message_updated AFTER UPDATE ON message WHEN EXISTS (SELECT 1 FROM capture_on) BEGIN
    INSERT INTO row_change(tbl, row_key, before) SELECT 'message', json_array(OLD.project_id, OLD.kind, OLD.locale, OLD.field), json_object('project_id', OLD.project_id, 'kind', OLD.kind, 'locale', OLD.locale, 'field', OLD.field, 'value', OLD.value) WHERE EXISTS (SELECT 1 FROM capture_on WHERE project_mark IS NULL OR OLD.project_id <= project_mark);
    INSERT INTO row_change(tbl, row_key, before) SELECT 'message', json_array(NEW.project_id, NEW.kind, NEW.locale, NEW.field), NULL WHERE NOT (OLD.project_id IS NEW.project_id AND OLD.kind IS NEW.kind AND OLD.locale IS NEW.locale AND OLD.field IS NEW.field) AND EXISTS (SELECT 1 FROM capture_on WHERE project_mark IS NULL OR NEW.project_id <= project_mark); END;
-- trigger capture_note_deleted
CREATE TRIGGER capture_note_deleted AFTER DELETE ON note WHEN EXISTS (SELECT 1 FROM capture_on WHERE version_mark IS NULL OR OLD.version_id <= version_mark) BEGIN
    INSERT INTO row_change(tbl, row_key, before) VALUES ('note', json_array(OLD.version_id, OLD.locale), json_object('version_id', OLD.version_id, 'locale', OLD.locale, 'body', OLD.body)); END;
-- trigger capture_note_found
CREATE TRIGGER capture_note_found BEFORE INSERT ON note WHEN EXISTS (SELECT 1 FROM capture_on WHERE version_mark IS NULL OR NEW.version_id <= version_mark) BEGIN
    INSERT INTO row_change(tbl, row_key, before) SELECT 'note', json_array(note.version_id, note.locale), json_object('version_id', note.version_id, 'locale', note.locale, 'body', note.body) FROM note WHERE note.version_id IS NEW.version_id AND note.locale IS NEW.locale; END;
-- trigger capture_note_inserted
CREATE TRIGGER capture_note_inserted AFTER INSERT ON note WHEN EXISTS (SELECT 1 FROM capture_on WHERE version_mark IS NULL OR NEW.version_id <= version_mark) BEGIN
    INSERT INTO row_change(tbl, row_key, before) VALUES ('note', json_array(NEW.version_id, NEW.locale), NULL); END;
-- trigger capture_note_updated
CREATE TRIGGER capture_note_updated AFTER UPDATE ON note WHEN EXISTS (SELECT 1 FROM capture_on) BEGIN
    INSERT INTO row_change(tbl, row_key, before) SELECT 'note', json_array(OLD.version_id, OLD.locale), json_object('version_id', OLD.version_id, 'locale', OLD.locale, 'body', OLD.body) WHERE EXISTS (SELECT 1 FROM capture_on WHERE version_mark IS NULL OR OLD.version_id <= version_mark);
    INSERT INTO row_change(tbl, row_key, before) SELECT 'note', json_array(NEW.version_id, NEW.locale), NULL WHERE NOT (OLD.version_id IS NEW.version_id AND OLD.locale IS NEW.locale) AND EXISTS (SELECT 1 FROM capture_on WHERE version_mark IS NULL OR NEW.version_id <= version_mark); END;
-- trigger capture_platform_deleted
CREATE TRIGGER capture_platform_deleted AFTER DELETE ON platform WHEN EXISTS (SELECT 1 FROM capture_on WHERE platform_mark IS NULL OR OLD.id <= platform_mark) BEGIN
    INSERT INTO row_change(tbl, row_key, before) VALUES ('platform', json_array(OLD.id), json_object('id', OLD.id, 'project_id', OLD.project_id, 'name', OLD.name, 'bundle_id', OLD.bundle_id, 'app_store_id', OLD.app_store_id, 'store_url', OLD.store_url, 'min_os', OLD.min_os, 'force_version', OLD.force_version, 'force_build', OLD.force_build, 'recommend_version', OLD.recommend_version, 'recommend_build', OLD.recommend_build, 'force_deadline', OLD.force_deadline, 'storefronts', OLD.storefronts, 'rollout_version', OLD.rollout_version, 'rollout_build', OLD.rollout_build, 'rollout_salt', OLD.rollout_salt, 'rollout_steps', OLD.rollout_steps, 'rollout_every', OLD.rollout_every, 'rollout_start', OLD.rollout_start, 'rollout_halted_at', OLD.rollout_halted_at, 'rollout_unstaged', OLD.rollout_unstaged, 'rollout_since', OLD.rollout_since)); END;
-- trigger capture_platform_inserted
CREATE TRIGGER capture_platform_inserted AFTER INSERT ON platform WHEN EXISTS (SELECT 1 FROM capture_on WHERE platform_mark IS NULL OR NEW.id <= platform_mark) BEGIN
    INSERT INTO row_change(tbl, row_key, before) VALUES ('platform', json_array(NEW.id), NULL); END;
-- trigger capture_platform_updated
CREATE TRIGGER capture_platform_updated AFTER UPDATE ON platform WHEN EXISTS (SELECT 1 FROM capture_on) BEGIN
    INSERT INTO row_change(tbl, row_key, before) SELECT 'platform', json_array(OLD.id), json_object('id', OLD.id, 'project_id', OLD.project_id, 'name', OLD.name, 'bundle_id', OLD.bundle_id, 'app_store_id', OLD.app_store_id, 'store_url', OLD.store_url, 'min_os', OLD.min_os, 'force_version', OLD.force_version, 'force_build', OLD.force_build, 'recommend_version', OLD.recommend_version, 'recommend_build', OLD.recommend_build, 'force_deadline', OLD.force_deadline, 'storefronts', OLD.storefronts, 'rollout_version', OLD.rollout_version, 'rollout_build', OLD.rollout_build, 'rollout_salt', OLD.rollout_salt, 'rollout_steps', OLD.rollout_steps, 'rollout_every', OLD.rollout_every, 'rollout_start', OLD.rollout_start, 'rollout_halted_at', OLD.rollout_halted_at, 'rollout_unstaged', OLD.rollout_unstaged, 'rollout_since', OLD.rollout_since) WHERE EXISTS (SELECT 1 FROM capture_on WHERE platform_mark IS NULL OR OLD.id <= platform_mark);
    INSERT INTO row_change(tbl, row_key, before) SELECT 'platform', json_array(NEW.id), NULL WHERE NOT (OLD.id IS NEW.id) AND EXISTS (SELECT 1 FROM capture_on WHERE platform_mark IS NULL OR NEW.id <= platform_mark); END;
-- trigger capture_project_deleted
CREATE TRIGGER capture_project_deleted AFTER DELETE ON project WHEN EXISTS (SELECT 1 FROM capture_on WHERE project_mark IS NULL OR OLD.id <= project_mark) BEGIN
    INSERT INTO row_change(tbl, row_key, before) VALUES ('project', json_array(OLD.id), json_object('id', OLD.id, 'slug', OLD.slug, 'name', OLD.name, 'default_locale', OLD.default_locale, 'locales', OLD.locales, 'rules', OLD.rules, 'release_delay_days', OLD.release_delay_days, 'remind_hours', OLD.remind_hours, 'outdated', OLD.outdated, 'time_zone', OLD.time_zone, 'whatsnew_limit', OLD.whatsnew_limit, 'formats', OLD.formats, 'trusted_keys', OLD.trusted_keys)); END;
-- trigger capture_project_inserted
CREATE TRIGGER capture_project_inserted AFTER INSERT ON project WHEN EXISTS (SELECT 1 FROM capture_on WHERE project_mark IS NULL OR NEW.id <= project_mark) BEGIN
    INSERT INTO row_change(tbl, row_key, before) VALUES ('project', json_array(NEW.id), NULL); END;
-- trigger capture_project_updated
CREATE TRIGGER capture_project_updated AFTER UPDATE ON project WHEN EXISTS (SELECT 1 FROM capture_on) BEGIN
    INSERT INTO row_change(tbl, row_key, before) SELECT 'project', json_array(OLD.id), json_object('id', OLD.id, 'slug', OLD.slug, 'name', OLD.name, 'default_locale', OLD.default_locale, 'locales', OLD.locales, 'rules', OLD.rules, 'release_delay_days', OLD.release_delay_days, 'remind_hours', OLD.remind_hours, 'outdated', OLD.outdated, 'time_zone', OLD.time_zone, 'whatsnew_limit', OLD.whatsnew_limit, 'formats', OLD.formats, 'trusted_keys', OLD.trusted_keys) WHERE EXISTS (SELECT 1 FROM capture_on WHERE project_mark IS NULL OR OLD.id <= project_mark);
    INSERT INTO row_change(tbl, row_key, before) SELECT 'project', json_array(NEW.id), NULL WHERE NOT (OLD.id IS NEW.id) AND EXISTS (SELECT 1 FROM capture_on WHERE project_mark IS NULL OR NEW.id <= project_mark); END;
-- trigger capture_version_deleted
CREATE TRIGGER capture_version_deleted AFTER DELETE ON version WHEN EXISTS (SELECT 1 FROM capture_on WHERE version_mark IS NULL OR OLD.id <= version_mark) BEGIN
    INSERT INTO row_change(tbl, row_key, before) VALUES ('version', json_array(OLD.id), json_object('id', OLD.id, 'platform_id', OLD.platform_id, 'version', OLD.version, 'build', OLD.build, 'released_at', OLD.released_at, 'min_os', OLD.min_os, 'policy', OLD.policy)); END;
-- trigger capture_version_inserted
CREATE TRIGGER capture_version_inserted AFTER INSERT ON version WHEN EXISTS (SELECT 1 FROM capture_on WHERE version_mark IS NULL OR NEW.id <= version_mark) BEGIN
    INSERT INTO row_change(tbl, row_key, before) VALUES ('version', json_array(NEW.id), NULL); END;
-- trigger capture_version_updated
CREATE TRIGGER capture_version_updated AFTER UPDATE ON version WHEN EXISTS (SELECT 1 FROM capture_on) BEGIN
    INSERT INTO row_change(tbl, row_key, before) SELECT 'version', json_array(OLD.id), json_object('id', OLD.id, 'platform_id', OLD.platform_id, 'version', OLD.version, 'build', OLD.build, 'released_at', OLD.released_at, 'min_os', OLD.min_os, 'policy', OLD.policy) WHERE EXISTS (SELECT 1 FROM capture_on WHERE version_mark IS NULL OR OLD.id <= version_mark);
    INSERT INTO row_change(tbl, row_key, before) SELECT 'version', json_array(NEW.id), NULL WHERE NOT (OLD.id IS NEW.id) AND EXISTS (SELECT 1 FROM capture_on WHERE version_mark IS NULL OR NEW.id <= version_mark); END;
-- trigger maintenance_copy_deleted
CREATE TRIGGER maintenance_copy_deleted AFTER DELETE ON maintenance_copy WHEN NOT EXISTS (SELECT 1 FROM capture_on WHERE window_mark IS NOT NULL AND OLD.window_id > window_mark) BEGIN INSERT INTO edit_count(id, n) VALUES (0, random()) ON CONFLICT(id) DO UPDATE SET n = excluded.n;
INSERT INTO project_edit(project_id, edits) SELECT id, (SELECT n FROM edit_count WHERE id = 0) FROM (SELECT (SELECT project_id FROM maintenance WHERE id = OLD.window_id) AS id)
    WHERE id IS NOT NULL ON CONFLICT(project_id) DO UPDATE SET edits = excluded.edits; END;
-- trigger maintenance_copy_inserted
CREATE TRIGGER maintenance_copy_inserted AFTER INSERT ON maintenance_copy WHEN NOT EXISTS (SELECT 1 FROM capture_on WHERE window_mark IS NOT NULL AND NEW.window_id > window_mark) BEGIN INSERT INTO edit_count(id, n) VALUES (0, random()) ON CONFLICT(id) DO UPDATE SET n = excluded.n;
INSERT INTO project_edit(project_id, edits) SELECT id, (SELECT n FROM edit_count WHERE id = 0) FROM (SELECT (SELECT project_id FROM maintenance WHERE id = NEW.window_id) AS id)
    WHERE id IS NOT NULL ON CONFLICT(project_id) DO UPDATE SET edits = excluded.edits; END;
-- trigger maintenance_copy_moved
CREATE TRIGGER maintenance_copy_moved AFTER UPDATE OF window_id ON maintenance_copy WHEN OLD.window_id IS NOT NEW.window_id AND NOT EXISTS (SELECT 1 FROM capture_on WHERE window_mark IS NOT NULL AND OLD.window_id > window_mark)
    BEGIN INSERT INTO edit_count(id, n) VALUES (0, random()) ON CONFLICT(id) DO UPDATE SET n = excluded.n;
INSERT INTO project_edit(project_id, edits) SELECT id, (SELECT n FROM edit_count WHERE id = 0) FROM (SELECT (SELECT project_id FROM maintenance WHERE id = OLD.window_id) AS id)
    WHERE id IS NOT NULL ON CONFLICT(project_id) DO UPDATE SET edits = excluded.edits; END;
-- trigger maintenance_copy_updated
CREATE TRIGGER maintenance_copy_updated AFTER UPDATE ON maintenance_copy WHEN NOT EXISTS (SELECT 1 FROM capture_on WHERE window_mark IS NOT NULL AND NEW.window_id > window_mark) BEGIN INSERT INTO edit_count(id, n) VALUES (0, random()) ON CONFLICT(id) DO UPDATE SET n = excluded.n;
INSERT INTO project_edit(project_id, edits) SELECT id, (SELECT n FROM edit_count WHERE id = 0) FROM (SELECT (SELECT project_id FROM maintenance WHERE id = NEW.window_id) AS id)
    WHERE id IS NOT NULL ON CONFLICT(project_id) DO UPDATE SET edits = excluded.edits; END;
-- trigger maintenance_deleted
CREATE TRIGGER maintenance_deleted AFTER DELETE ON maintenance WHEN NOT EXISTS (SELECT 1 FROM capture_on WHERE project_mark IS NOT NULL AND OLD.project_id > project_mark) BEGIN INSERT INTO edit_count(id, n) VALUES (0, random()) ON CONFLICT(id) DO UPDATE SET n = excluded.n;
INSERT INTO project_edit(project_id, edits) SELECT id, (SELECT n FROM edit_count WHERE id = 0) FROM (SELECT OLD.project_id AS id)
    WHERE id IS NOT NULL ON CONFLICT(project_id) DO UPDATE SET edits = excluded.edits; END;
-- trigger maintenance_inserted
CREATE TRIGGER maintenance_inserted AFTER INSERT ON maintenance WHEN NOT EXISTS (SELECT 1 FROM capture_on WHERE project_mark IS NOT NULL AND NEW.project_id > project_mark) BEGIN INSERT INTO edit_count(id, n) VALUES (0, random()) ON CONFLICT(id) DO UPDATE SET n = excluded.n;
INSERT INTO project_edit(project_id, edits) SELECT id, (SELECT n FROM edit_count WHERE id = 0) FROM (SELECT NEW.project_id AS id)
    WHERE id IS NOT NULL ON CONFLICT(project_id) DO UPDATE SET edits = excluded.edits; END;
-- trigger maintenance_moved
CREATE TRIGGER maintenance_moved AFTER UPDATE OF project_id ON maintenance WHEN OLD.project_id IS NOT NEW.project_id AND NOT EXISTS (SELECT 1 FROM capture_on WHERE project_mark IS NOT NULL AND OLD.project_id > project_mark)
    BEGIN INSERT INTO edit_count(id, n) VALUES (0, random()) ON CONFLICT(id) DO UPDATE SET n = excluded.n;
INSERT INTO project_edit(project_id, edits) SELECT id, (SELECT n FROM edit_count WHERE id = 0) FROM (SELECT OLD.project_id AS id)
    WHERE id IS NOT NULL ON CONFLICT(project_id) DO UPDATE SET edits = excluded.edits; END;
-- trigger maintenance_renumbered
CREATE TRIGGER maintenance_renumbered BEFORE UPDATE OF id ON maintenance
    WHEN NEW.id IS NOT OLD.id AND EXISTS (SELECT 1 FROM maintenance WHERE id = NEW.id) BEGIN INSERT INTO edit_count(id, n) VALUES (0, random()) ON CONFLICT(id) DO UPDATE SET n = excluded.n;
INSERT INTO project_edit(project_id, edits) SELECT id, (SELECT n FROM edit_count WHERE id = 0) FROM (SELECT (SELECT held.project_id FROM maintenance held WHERE held.id = NEW.id) AS id)
    WHERE id IS NOT NULL ON CONFLICT(project_id) DO UPDATE SET edits = excluded.edits; END;
-- trigger maintenance_replacing
CREATE TRIGGER maintenance_replacing BEFORE INSERT ON maintenance WHEN EXISTS (SELECT 1 FROM maintenance WHERE id = NEW.id)
    BEGIN INSERT INTO edit_count(id, n) VALUES (0, random()) ON CONFLICT(id) DO UPDATE SET n = excluded.n;
INSERT INTO project_edit(project_id, edits) SELECT id, (SELECT n FROM edit_count WHERE id = 0) FROM (SELECT (SELECT held.project_id FROM maintenance held WHERE held.id = NEW.id) AS id)
    WHERE id IS NOT NULL ON CONFLICT(project_id) DO UPDATE SET edits = excluded.edits; END;
-- trigger maintenance_updated
CREATE TRIGGER maintenance_updated AFTER UPDATE ON maintenance WHEN NOT EXISTS (SELECT 1 FROM capture_on WHERE project_mark IS NOT NULL AND NEW.project_id > project_mark) BEGIN INSERT INTO edit_count(id, n) VALUES (0, random()) ON CONFLICT(id) DO UPDATE SET n = excluded.n;
INSERT INTO project_edit(project_id, edits) SELECT id, (SELECT n FROM edit_count WHERE id = 0) FROM (SELECT NEW.project_id AS id)
    WHERE id IS NOT NULL ON CONFLICT(project_id) DO UPDATE SET edits = excluded.edits; END;
-- trigger message_deleted
CREATE TRIGGER message_deleted AFTER DELETE ON message WHEN NOT EXISTS (SELECT 1 FROM capture_on WHERE project_mark IS NOT NULL AND OLD.project_id > project_mark) BEGIN INSERT INTO edit_count(id, n) VALUES (0, random()) ON CONFLICT(id) DO UPDATE SET n = excluded.n;
INSERT INTO project_edit(project_id, edits) SELECT id, (SELECT n FROM edit_count WHERE id = 0) FROM (SELECT OLD.project_id AS id)
    WHERE id IS NOT NULL ON CONFLICT(project_id) DO UPDATE SET edits = excluded.edits; END;
-- trigger message_inserted
CREATE TRIGGER message_inserted AFTER INSERT ON message WHEN NOT EXISTS (SELECT 1 FROM capture_on WHERE project_mark IS NOT NULL AND NEW.project_id > project_mark) BEGIN INSERT INTO edit_count(id, n) VALUES (0, random()) ON CONFLICT(id) DO UPDATE SET n = excluded.n;
INSERT INTO project_edit(project_id, edits) SELECT id, (SELECT n FROM edit_count WHERE id = 0) FROM (SELECT NEW.project_id AS id)
    WHERE id IS NOT NULL ON CONFLICT(project_id) DO UPDATE SET edits = excluded.edits; END;
-- trigger message_moved
CREATE TRIGGER message_moved AFTER UPDATE OF project_id ON message WHEN OLD.project_id IS NOT NEW.project_id AND NOT EXISTS (SELECT 1 FROM capture_on WHERE project_mark IS NOT NULL AND OLD.project_id > project_mark)
    BEGIN INSERT INTO edit_count(id, n) VALUES (0, random()) ON CONFLICT(id) DO UPDATE SET n = excluded.n;
INSERT INTO project_edit(project_id, edits) SELECT id, (SELECT n FROM edit_count WHERE id = 0) FROM (SELECT OLD.project_id AS id)
    WHERE id IS NOT NULL ON CONFLICT(project_id) DO UPDATE SET edits = excluded.edits; END;
-- trigger message_updated
CREATE TRIGGER message_updated AFTER UPDATE ON message WHEN NOT EXISTS (SELECT 1 FROM capture_on WHERE project_mark IS NOT NULL AND NEW.project_id > project_mark) BEGIN INSERT INTO edit_count(id, n) VALUES (0, random()) ON CONFLICT(id) DO UPDATE SET n = excluded.n;
INSERT INTO project_edit(project_id, edits) SELECT id, (SELECT n FROM edit_count WHERE id = 0) FROM (SELECT NEW.project_id AS id)
    WHERE id IS NOT NULL ON CONFLICT(project_id) DO UPDATE SET edits = excluded.edits; END;
-- trigger note_deleted
CREATE TRIGGER note_deleted AFTER DELETE ON note WHEN NOT EXISTS (SELECT 1 FROM capture_on WHERE version_mark IS NOT NULL AND OLD.version_id > version_mark) BEGIN INSERT INTO edit_count(id, n) VALUES (0, random()) ON CONFLICT(id) DO UPDATE SET n = excluded.n;
INSERT INTO project_edit(project_id, edits) SELECT id, (SELECT n FROM edit_count WHERE id = 0) FROM (SELECT (SELECT p.project_id FROM version v JOIN platform p ON p.id = v.platform_id WHERE v.id = OLD.version_id) AS id)
    WHERE id IS NOT NULL ON CONFLICT(project_id) DO UPDATE SET edits = excluded.edits; END;
-- trigger note_inserted
CREATE TRIGGER note_inserted AFTER INSERT ON note WHEN NOT EXISTS (SELECT 1 FROM capture_on WHERE version_mark IS NOT NULL AND NEW.version_id > version_mark) BEGIN INSERT INTO edit_count(id, n) VALUES (0, random()) ON CONFLICT(id) DO UPDATE SET n = excluded.n;
INSERT INTO project_edit(project_id, edits) SELECT id, (SELECT n FROM edit_count WHERE id = 0) FROM (SELECT (SELECT p.project_id FROM version v JOIN platform p ON p.id = v.platform_id WHERE v.id = NEW.version_id) AS id)
    WHERE id IS NOT NULL ON CONFLICT(project_id) DO UPDATE SET edits = excluded.edits; END;
-- trigger note_moved
CREATE TRIGGER note_moved AFTER UPDATE OF version_id ON note WHEN OLD.version_id IS NOT NEW.version_id AND NOT EXISTS (SELECT 1 FROM capture_on WHERE version_mark IS NOT NULL AND OLD.version_id > version_mark)
    BEGIN INSERT INTO edit_count(id, n) VALUES (0, random()) ON CONFLICT(id) DO UPDATE SET n = excluded.n;
INSERT INTO project_edit(project_id, edits) SELECT id, (SELECT n FROM edit_count WHERE id = 0) FROM (SELECT (SELECT p.project_id FROM version v JOIN platform p ON p.id = v.platform_id WHERE v.id = OLD.version_id) AS id)
    WHERE id IS NOT NULL ON CONFLICT(project_id) DO UPDATE SET edits = excluded.edits; END;
-- trigger note_updated
CREATE TRIGGER note_updated AFTER UPDATE ON note WHEN NOT EXISTS (SELECT 1 FROM capture_on WHERE version_mark IS NOT NULL AND NEW.version_id > version_mark) BEGIN INSERT INTO edit_count(id, n) VALUES (0, random()) ON CONFLICT(id) DO UPDATE SET n = excluded.n;
INSERT INTO project_edit(project_id, edits) SELECT id, (SELECT n FROM edit_count WHERE id = 0) FROM (SELECT (SELECT p.project_id FROM version v JOIN platform p ON p.id = v.platform_id WHERE v.id = NEW.version_id) AS id)
    WHERE id IS NOT NULL ON CONFLICT(project_id) DO UPDATE SET edits = excluded.edits; END;
-- trigger platform_deleted
CREATE TRIGGER platform_deleted AFTER DELETE ON platform WHEN NOT EXISTS (SELECT 1 FROM capture_on WHERE project_mark IS NOT NULL AND OLD.project_id > project_mark) BEGIN INSERT INTO edit_count(id, n) VALUES (0, random()) ON CONFLICT(id) DO UPDATE SET n = excluded.n;
INSERT INTO project_edit(project_id, edits) SELECT id, (SELECT n FROM edit_count WHERE id = 0) FROM (SELECT OLD.project_id AS id)
    WHERE id IS NOT NULL ON CONFLICT(project_id) DO UPDATE SET edits = excluded.edits; END;
-- trigger platform_inserted
CREATE TRIGGER platform_inserted AFTER INSERT ON platform WHEN NOT EXISTS (SELECT 1 FROM capture_on WHERE project_mark IS NOT NULL AND NEW.project_id > project_mark) BEGIN INSERT INTO edit_count(id, n) VALUES (0, random()) ON CONFLICT(id) DO UPDATE SET n = excluded.n;
INSERT INTO project_edit(project_id, edits) SELECT id, (SELECT n FROM edit_count WHERE id = 0) FROM (SELECT NEW.project_id AS id)
    WHERE id IS NOT NULL ON CONFLICT(project_id) DO UPDATE SET edits = excluded.edits; END;
-- trigger platform_moved
CREATE TRIGGER platform_moved AFTER UPDATE OF project_id ON platform WHEN OLD.project_id IS NOT NEW.project_id AND NOT EXISTS (SELECT 1 FROM capture_on WHERE project_mark IS NOT NULL AND OLD.project_id > project_mark)
    BEGIN INSERT INTO edit_count(id, n) VALUES (0, random()) ON CONFLICT(id) DO UPDATE SET n = excluded.n;
INSERT INTO project_edit(project_id, edits) SELECT id, (SELECT n FROM edit_count WHERE id = 0) FROM (SELECT OLD.project_id AS id)
    WHERE id IS NOT NULL ON CONFLICT(project_id) DO UPDATE SET edits = excluded.edits; END;
-- trigger platform_renumbered
CREATE TRIGGER platform_renumbered BEFORE UPDATE OF id ON platform
    WHEN NEW.id IS NOT OLD.id AND EXISTS (SELECT 1 FROM platform WHERE id = NEW.id) BEGIN INSERT INTO edit_count(id, n) VALUES (0, random()) ON CONFLICT(id) DO UPDATE SET n = excluded.n;
INSERT INTO project_edit(project_id, edits) SELECT id, (SELECT n FROM edit_count WHERE id = 0) FROM (SELECT (SELECT held.project_id FROM platform held WHERE held.id = NEW.id) AS id)
    WHERE id IS NOT NULL ON CONFLICT(project_id) DO UPDATE SET edits = excluded.edits; END;
-- trigger platform_replacing
CREATE TRIGGER platform_replacing BEFORE INSERT ON platform WHEN EXISTS (SELECT 1 FROM platform WHERE id = NEW.id)
    BEGIN INSERT INTO edit_count(id, n) VALUES (0, random()) ON CONFLICT(id) DO UPDATE SET n = excluded.n;
INSERT INTO project_edit(project_id, edits) SELECT id, (SELECT n FROM edit_count WHERE id = 0) FROM (SELECT (SELECT held.project_id FROM platform held WHERE held.id = NEW.id) AS id)
    WHERE id IS NOT NULL ON CONFLICT(project_id) DO UPDATE SET edits = excluded.edits; END;
-- trigger platform_updated
CREATE TRIGGER platform_updated AFTER UPDATE ON platform WHEN NOT EXISTS (SELECT 1 FROM capture_on WHERE project_mark IS NOT NULL AND NEW.project_id > project_mark) BEGIN INSERT INTO edit_count(id, n) VALUES (0, random()) ON CONFLICT(id) DO UPDATE SET n = excluded.n;
INSERT INTO project_edit(project_id, edits) SELECT id, (SELECT n FROM edit_count WHERE id = 0) FROM (SELECT NEW.project_id AS id)
    WHERE id IS NOT NULL ON CONFLICT(project_id) DO UPDATE SET edits = excluded.edits; END;
-- trigger project_deleted
CREATE TRIGGER project_deleted AFTER DELETE ON project BEGIN INSERT INTO edit_count(id, n) VALUES (0, random()) ON CONFLICT(id) DO UPDATE SET n = excluded.n;
INSERT INTO project_edit(project_id, edits) SELECT id, (SELECT n FROM edit_count WHERE id = 0) FROM (SELECT OLD.id AS id)
    WHERE id IS NOT NULL ON CONFLICT(project_id) DO UPDATE SET edits = excluded.edits; END;
-- trigger project_inserted
CREATE TRIGGER project_inserted AFTER INSERT ON project BEGIN INSERT INTO edit_count(id, n) VALUES (0, random()) ON CONFLICT(id) DO UPDATE SET n = excluded.n;
INSERT INTO project_edit(project_id, edits) SELECT id, (SELECT n FROM edit_count WHERE id = 0) FROM (SELECT NEW.id AS id)
    WHERE id IS NOT NULL ON CONFLICT(project_id) DO UPDATE SET edits = excluded.edits; END;
-- trigger project_moved
CREATE TRIGGER project_moved AFTER UPDATE OF id ON project WHEN OLD.id IS NOT NEW.id
    BEGIN INSERT INTO edit_count(id, n) VALUES (0, random()) ON CONFLICT(id) DO UPDATE SET n = excluded.n;
INSERT INTO project_edit(project_id, edits) SELECT id, (SELECT n FROM edit_count WHERE id = 0) FROM (SELECT OLD.id AS id)
    WHERE id IS NOT NULL ON CONFLICT(project_id) DO UPDATE SET edits = excluded.edits; END;
-- trigger project_updated
CREATE TRIGGER project_updated AFTER UPDATE ON project BEGIN INSERT INTO edit_count(id, n) VALUES (0, random()) ON CONFLICT(id) DO UPDATE SET n = excluded.n;
INSERT INTO project_edit(project_id, edits) SELECT id, (SELECT n FROM edit_count WHERE id = 0) FROM (SELECT NEW.id AS id)
    WHERE id IS NOT NULL ON CONFLICT(project_id) DO UPDATE SET edits = excluded.edits; END;
-- trigger store_lookup_deleted
CREATE TRIGGER store_lookup_deleted AFTER DELETE ON store_lookup BEGIN INSERT INTO edit_count(id, n) VALUES (0, random()) ON CONFLICT(id) DO UPDATE SET n = excluded.n;
INSERT INTO project_edit(project_id, edits) SELECT id, (SELECT n FROM edit_count WHERE id = 0) FROM (SELECT (SELECT project_id FROM platform WHERE id = OLD.platform_id) AS id)
    WHERE id IS NOT NULL ON CONFLICT(project_id) DO UPDATE SET edits = excluded.edits; END;
-- trigger store_lookup_inserted
CREATE TRIGGER store_lookup_inserted AFTER INSERT ON store_lookup BEGIN INSERT INTO edit_count(id, n) VALUES (0, random()) ON CONFLICT(id) DO UPDATE SET n = excluded.n;
INSERT INTO project_edit(project_id, edits) SELECT id, (SELECT n FROM edit_count WHERE id = 0) FROM (SELECT (SELECT project_id FROM platform WHERE id = NEW.platform_id) AS id)
    WHERE id IS NOT NULL ON CONFLICT(project_id) DO UPDATE SET edits = excluded.edits; END;
-- trigger store_lookup_moved
CREATE TRIGGER store_lookup_moved AFTER UPDATE OF platform_id ON store_lookup WHEN OLD.platform_id IS NOT NEW.platform_id
    BEGIN INSERT INTO edit_count(id, n) VALUES (0, random()) ON CONFLICT(id) DO UPDATE SET n = excluded.n;
INSERT INTO project_edit(project_id, edits) SELECT id, (SELECT n FROM edit_count WHERE id = 0) FROM (SELECT (SELECT project_id FROM platform WHERE id = OLD.platform_id) AS id)
    WHERE id IS NOT NULL ON CONFLICT(project_id) DO UPDATE SET edits = excluded.edits; END;
-- trigger store_lookup_updated
CREATE TRIGGER store_lookup_updated AFTER UPDATE ON store_lookup BEGIN INSERT INTO edit_count(id, n) VALUES (0, random()) ON CONFLICT(id) DO UPDATE SET n = excluded.n;
INSERT INTO project_edit(project_id, edits) SELECT id, (SELECT n FROM edit_count WHERE id = 0) FROM (SELECT (SELECT project_id FROM platform WHERE id = NEW.platform_id) AS id)
    WHERE id IS NOT NULL ON CONFLICT(project_id) DO UPDATE SET edits = excluded.edits; END;
-- trigger store_play_import_deleted
CREATE TRIGGER store_play_import_deleted AFTER DELETE ON store_play_import BEGIN INSERT INTO edit_count(id, n) VALUES (0, random()) ON CONFLICT(id) DO UPDATE SET n = excluded.n;
INSERT INTO project_edit(project_id, edits) SELECT id, (SELECT n FROM edit_count WHERE id = 0) FROM (SELECT (SELECT project_id FROM platform WHERE id = OLD.platform_id) AS id)
    WHERE id IS NOT NULL ON CONFLICT(project_id) DO UPDATE SET edits = excluded.edits; END;
-- trigger store_play_import_inserted
CREATE TRIGGER store_play_import_inserted AFTER INSERT ON store_play_import BEGIN INSERT INTO edit_count(id, n) VALUES (0, random()) ON CONFLICT(id) DO UPDATE SET n = excluded.n;
INSERT INTO project_edit(project_id, edits) SELECT id, (SELECT n FROM edit_count WHERE id = 0) FROM (SELECT (SELECT project_id FROM platform WHERE id = NEW.platform_id) AS id)
    WHERE id IS NOT NULL ON CONFLICT(project_id) DO UPDATE SET edits = excluded.edits; END;
-- trigger store_play_import_moved
CREATE TRIGGER store_play_import_moved AFTER UPDATE OF platform_id ON store_play_import WHEN OLD.platform_id IS NOT NEW.platform_id
    BEGIN INSERT INTO edit_count(id, n) VALUES (0, random()) ON CONFLICT(id) DO UPDATE SET n = excluded.n;
INSERT INTO project_edit(project_id, edits) SELECT id, (SELECT n FROM edit_count WHERE id = 0) FROM (SELECT (SELECT project_id FROM platform WHERE id = OLD.platform_id) AS id)
    WHERE id IS NOT NULL ON CONFLICT(project_id) DO UPDATE SET edits = excluded.edits; END;
-- trigger store_play_import_updated
CREATE TRIGGER store_play_import_updated AFTER UPDATE ON store_play_import BEGIN INSERT INTO edit_count(id, n) VALUES (0, random()) ON CONFLICT(id) DO UPDATE SET n = excluded.n;
INSERT INTO project_edit(project_id, edits) SELECT id, (SELECT n FROM edit_count WHERE id = 0) FROM (SELECT (SELECT project_id FROM platform WHERE id = NEW.platform_id) AS id)
    WHERE id IS NOT NULL ON CONFLICT(project_id) DO UPDATE SET edits = excluded.edits; END;
-- trigger store_play_release_deleted
CREATE TRIGGER store_play_release_deleted AFTER DELETE ON store_play_release BEGIN INSERT INTO edit_count(id, n) VALUES (0, random()) ON CONFLICT(id) DO UPDATE SET n = excluded.n;
INSERT INTO project_edit(project_id, edits) SELECT id, (SELECT n FROM edit_count WHERE id = 0) FROM (SELECT (SELECT project_id FROM platform WHERE id = OLD.platform_id) AS id)
    WHERE id IS NOT NULL ON CONFLICT(project_id) DO UPDATE SET edits = excluded.edits; END;
-- trigger store_play_release_inserted
CREATE TRIGGER store_play_release_inserted AFTER INSERT ON store_play_release BEGIN INSERT INTO edit_count(id, n) VALUES (0, random()) ON CONFLICT(id) DO UPDATE SET n = excluded.n;
INSERT INTO project_edit(project_id, edits) SELECT id, (SELECT n FROM edit_count WHERE id = 0) FROM (SELECT (SELECT project_id FROM platform WHERE id = NEW.platform_id) AS id)
    WHERE id IS NOT NULL ON CONFLICT(project_id) DO UPDATE SET edits = excluded.edits; END;
-- trigger store_play_release_moved
CREATE TRIGGER store_play_release_moved AFTER UPDATE OF platform_id ON store_play_release WHEN OLD.platform_id IS NOT NEW.platform_id
    BEGIN INSERT INTO edit_count(id, n) VALUES (0, random()) ON CONFLICT(id) DO UPDATE SET n = excluded.n;
INSERT INTO project_edit(project_id, edits) SELECT id, (SELECT n FROM edit_count WHERE id = 0) FROM (SELECT (SELECT project_id FROM platform WHERE id = OLD.platform_id) AS id)
    WHERE id IS NOT NULL ON CONFLICT(project_id) DO UPDATE SET edits = excluded.edits; END;
-- trigger store_play_release_updated
CREATE TRIGGER store_play_release_updated AFTER UPDATE ON store_play_release BEGIN INSERT INTO edit_count(id, n) VALUES (0, random()) ON CONFLICT(id) DO UPDATE SET n = excluded.n;
INSERT INTO project_edit(project_id, edits) SELECT id, (SELECT n FROM edit_count WHERE id = 0) FROM (SELECT (SELECT project_id FROM platform WHERE id = NEW.platform_id) AS id)
    WHERE id IS NOT NULL ON CONFLICT(project_id) DO UPDATE SET edits = excluded.edits; END;
-- trigger version_deleted
CREATE TRIGGER version_deleted AFTER DELETE ON version WHEN NOT EXISTS (SELECT 1 FROM capture_on WHERE project_mark IS NOT NULL AND (SELECT project_id FROM platform WHERE id = OLD.platform_id) > project_mark) BEGIN INSERT INTO edit_count(id, n) VALUES (0, random()) ON CONFLICT(id) DO UPDATE SET n = excluded.n;
INSERT INTO project_edit(project_id, edits) SELECT id, (SELECT n FROM edit_count WHERE id = 0) FROM (SELECT (SELECT project_id FROM platform WHERE id = OLD.platform_id) AS id)
    WHERE id IS NOT NULL ON CONFLICT(project_id) DO UPDATE SET edits = excluded.edits; END;
-- trigger version_inserted
CREATE TRIGGER version_inserted AFTER INSERT ON version WHEN NOT EXISTS (SELECT 1 FROM capture_on WHERE project_mark IS NOT NULL AND (SELECT project_id FROM platform WHERE id = NEW.platform_id) > project_mark) BEGIN INSERT INTO edit_count(id, n) VALUES (0, random()) ON CONFLICT(id) DO UPDATE SET n = excluded.n;
INSERT INTO project_edit(project_id, edits) SELECT id, (SELECT n FROM edit_count WHERE id = 0) FROM (SELECT (SELECT project_id FROM platform WHERE id = NEW.platform_id) AS id)
    WHERE id IS NOT NULL ON CONFLICT(project_id) DO UPDATE SET edits = excluded.edits; END;
-- trigger version_moved
CREATE TRIGGER version_moved AFTER UPDATE OF platform_id ON version WHEN OLD.platform_id IS NOT NEW.platform_id AND NOT EXISTS (SELECT 1 FROM capture_on WHERE project_mark IS NOT NULL AND (SELECT project_id FROM platform WHERE id = OLD.platform_id) > project_mark)
    BEGIN INSERT INTO edit_count(id, n) VALUES (0, random()) ON CONFLICT(id) DO UPDATE SET n = excluded.n;
INSERT INTO project_edit(project_id, edits) SELECT id, (SELECT n FROM edit_count WHERE id = 0) FROM (SELECT (SELECT project_id FROM platform WHERE id = OLD.platform_id) AS id)
    WHERE id IS NOT NULL ON CONFLICT(project_id) DO UPDATE SET edits = excluded.edits; END;
-- trigger version_renumbered
CREATE TRIGGER version_renumbered BEFORE UPDATE OF id ON version
    WHEN NEW.id IS NOT OLD.id AND EXISTS (SELECT 1 FROM version WHERE id = NEW.id) BEGIN INSERT INTO edit_count(id, n) VALUES (0, random()) ON CONFLICT(id) DO UPDATE SET n = excluded.n;
INSERT INTO project_edit(project_id, edits) SELECT id, (SELECT n FROM edit_count WHERE id = 0) FROM (SELECT (SELECT (SELECT project_id FROM platform WHERE id = held.platform_id) FROM version held WHERE held.id = NEW.id) AS id)
    WHERE id IS NOT NULL ON CONFLICT(project_id) DO UPDATE SET edits = excluded.edits; END;
-- trigger version_replacing
CREATE TRIGGER version_replacing BEFORE INSERT ON version WHEN EXISTS (SELECT 1 FROM version WHERE id = NEW.id)
    BEGIN INSERT INTO edit_count(id, n) VALUES (0, random()) ON CONFLICT(id) DO UPDATE SET n = excluded.n;
INSERT INTO project_edit(project_id, edits) SELECT id, (SELECT n FROM edit_count WHERE id = 0) FROM (SELECT (SELECT (SELECT project_id FROM platform WHERE id = held.platform_id) FROM version held WHERE held.id = NEW.id) AS id)
    WHERE id IS NOT NULL ON CONFLICT(project_id) DO UPDATE SET edits = excluded.edits; END;
-- trigger version_updated
CREATE TRIGGER version_updated AFTER UPDATE ON version WHEN NOT EXISTS (SELECT 1 FROM capture_on WHERE project_mark IS NOT NULL AND (SELECT project_id FROM platform WHERE id = NEW.platform_id) > project_mark) BEGIN INSERT INTO edit_count(id, n) VALUES (0, random()) ON CONFLICT(id) DO UPDATE SET n = excluded.n;
INSERT INTO project_edit(project_id, edits) SELECT id, (SELECT n FROM edit_count WHERE id = 0) FROM (SELECT (SELECT project_id FROM platform WHERE id = NEW.platform_id) AS id)
    WHERE id IS NOT NULL ON CONFLICT(project_id) DO UPDATE SET edits = excluded.edits; END;
