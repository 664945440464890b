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
-- table capture_on
CREATE TABLE capture_on(on_ INTEGER PRIMARY KEY CHECK (on_ = 1)) STRICT;
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
-- table row_change
CREATE TABLE row_change(seq INTEGER PRIMARY KEY, tbl TEXT NOT NULL, row_key TEXT NOT NULL, before TEXT, after TEXT) STRICT;
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
CREATE TRIGGER capture_maintenance_copy_deleted AFTER DELETE ON maintenance_copy WHEN EXISTS (SELECT 1 FROM capture_on) BEGIN
    INSERT INTO row_change(tbl, row_key, before, after) VALUES ('maintenance_copy', json_array(OLD.window_id, OLD.locale), json_object('window_id', CASE typeof(OLD.window_id) WHEN 'blob' THEN hex(OLD.window_id) ELSE OLD.window_id END, 'locale', CASE typeof(OLD.locale) WHEN 'blob' THEN hex(OLD.locale) ELSE OLD.locale END, 'title', CASE typeof(OLD.title) WHEN 'blob' THEN hex(OLD.title) ELSE OLD.title END, 'message', CASE typeof(OLD.message) WHEN 'blob' THEN hex(OLD.message) ELSE OLD.message END), NULL); END;
-- trigger capture_maintenance_copy_found
CREATE TRIGGER capture_maintenance_copy_found BEFORE INSERT ON maintenance_copy WHEN EXISTS (SELECT 1 FROM capture_on) BEGIN
    INSERT INTO row_change(tbl, row_key, before, after) SELECT 'maintenance_copy', json_array(maintenance_copy.window_id, maintenance_copy.locale), json_object('window_id', CASE typeof(maintenance_copy.window_id) WHEN 'blob' THEN hex(maintenance_copy.window_id) ELSE maintenance_copy.window_id END, 'locale', CASE typeof(maintenance_copy.locale) WHEN 'blob' THEN hex(maintenance_copy.locale) ELSE maintenance_copy.locale END, 'title', CASE typeof(maintenance_copy.title) WHEN 'blob' THEN hex(maintenance_copy.title) ELSE maintenance_copy.title END, 'message', CASE typeof(maintenance_copy.message) WHEN 'blob' THEN hex(maintenance_copy.message) ELSE maintenance_copy.message END), json_object('window_id', CASE typeof(maintenance_copy.window_id) WHEN 'blob' THEN hex(maintenance_copy.window_id) ELSE maintenance_copy.window_id END, 'locale', CASE typeof(maintenance_copy.locale) WHEN 'blob' THEN hex(maintenance_copy.locale) ELSE maintenance_copy.locale END, 'title', CASE typeof(maintenance_copy.title) WHEN 'blob' THEN hex(maintenance_copy.title) ELSE maintenance_copy.title END, 'message', CASE typeof(maintenance_copy.message) WHEN 'blob' THEN hex(maintenance_copy.message) ELSE maintenance_copy.message END) FROM maintenance_copy WHERE maintenance_copy.window_id IS NEW.window_id AND maintenance_copy.locale IS NEW.locale; END;
-- trigger capture_maintenance_copy_inserted
CREATE TRIGGER capture_maintenance_copy_inserted AFTER INSERT ON maintenance_copy WHEN EXISTS (SELECT 1 FROM capture_on) BEGIN
    INSERT INTO row_change(tbl, row_key, before, after) VALUES ('maintenance_copy', json_array(NEW.window_id, NEW.locale), NULL, json_object('window_id', CASE typeof(NEW.window_id) WHEN 'blob' THEN hex(NEW.window_id) ELSE NEW.window_id END, 'locale', CASE typeof(NEW.locale) WHEN 'blob' THEN hex(NEW.locale) ELSE NEW.locale END, 'title', CASE typeof(NEW.title) WHEN 'blob' THEN hex(NEW.title) ELSE NEW.title END, 'message', CASE typeof(NEW.message) WHEN 'blob' THEN hex(NEW.message) ELSE NEW.message END)); END;
-- trigger capture_maintenance_copy_updated
CREATE TRIGGER capture_maintenance_copy_updated AFTER UPDATE ON maintenance_copy WHEN EXISTS (SELECT 1 FROM capture_on) BEGIN
    INSERT INTO row_change(tbl, row_key, before, after) VALUES ('maintenance_copy', json_array(OLD.window_id, OLD.locale), json_object('window_id', CASE typeof(OLD.window_id) WHEN 'blob' THEN hex(OLD.window_id) ELSE OLD.window_id END, 'locale', CASE typeof(OLD.locale) WHEN 'blob' THEN hex(OLD.locale) ELSE OLD.locale END, 'title', CASE typeof(OLD.title) WHEN 'blob' THEN hex(OLD.title) ELSE OLD.title END, 'message', CASE typeof(OLD.message) WHEN 'blob' THEN hex(OLD.message) ELSE OLD.message END), CASE WHEN OLD.window_id IS NEW.window_id AND OLD.locale IS NEW.locale THEN json_object('window_id', CASE typeof(NEW.window_id) WHEN 'blob' THEN hex(NEW.window_id) ELSE NEW.window_id END, 'locale', CASE typeof(NEW.locale) WHEN 'blob' THEN hex(NEW.locale) ELSE NEW.locale END, 'title', CASE typeof(NEW.title) WHEN 'blob' THEN hex(NEW.title) ELSE NEW.title END, 'message', CASE typeof(NEW.message) WHEN 'blob' THEN hex(NEW.message) ELSE NEW.message END) END);
    INSERT INTO row_change(tbl, row_key, before, after) SELECT 'maintenance_copy', json_array(NEW.window_id, NEW.locale), NULL, json_object('window_id', CASE typeof(NEW.window_id) WHEN 'blob' THEN hex(NEW.window_id) ELSE NEW.window_id END, 'locale', CASE typeof(NEW.locale) WHEN 'blob' THEN hex(NEW.locale) ELSE NEW.locale END, 'title', CASE typeof(NEW.title) WHEN 'blob' THEN hex(NEW.title) ELSE NEW.title END, 'message', CASE typeof(NEW.message) WHEN 'blob' THEN hex(NEW.message) ELSE NEW.message END) WHERE NOT (OLD.window_id IS NEW.window_id AND OLD.locale IS NEW.locale); END;
-- trigger capture_maintenance_deleted
CREATE TRIGGER capture_maintenance_deleted AFTER DELETE ON maintenance WHEN EXISTS (SELECT 1 FROM capture_on) BEGIN
    INSERT INTO row_change(tbl, row_key, before, after) VALUES ('maintenance', json_array(OLD.id), json_object('id', CASE typeof(OLD.id) WHEN 'blob' THEN hex(OLD.id) ELSE OLD.id END, 'project_id', CASE typeof(OLD.project_id) WHEN 'blob' THEN hex(OLD.project_id) ELSE OLD.project_id END, 'platform_id', CASE typeof(OLD.platform_id) WHEN 'blob' THEN hex(OLD.platform_id) ELSE OLD.platform_id END, 'starts_at', CASE typeof(OLD.starts_at) WHEN 'blob' THEN hex(OLD.starts_at) ELSE OLD.starts_at END, 'ends_at', CASE typeof(OLD.ends_at) WHEN 'blob' THEN hex(OLD.ends_at) ELSE OLD.ends_at END, 'cancelled_at', CASE typeof(OLD.cancelled_at) WHEN 'blob' THEN hex(OLD.cancelled_at) ELSE OLD.cancelled_at END), NULL); END;
-- trigger capture_maintenance_found
CREATE TRIGGER capture_maintenance_found BEFORE INSERT ON maintenance WHEN EXISTS (SELECT 1 FROM capture_on) BEGIN
    INSERT INTO row_change(tbl, row_key, before, after) SELECT 'maintenance', json_array(maintenance.id), json_object('id', CASE typeof(maintenance.id) WHEN 'blob' THEN hex(maintenance.id) ELSE maintenance.id END, 'project_id', CASE typeof(maintenance.project_id) WHEN 'blob' THEN hex(maintenance.project_id) ELSE maintenance.project_id END, 'platform_id', CASE typeof(maintenance.platform_id) WHEN 'blob' THEN hex(maintenance.platform_id) ELSE maintenance.platform_id END, 'starts_at', CASE typeof(maintenance.starts_at) WHEN 'blob' THEN hex(maintenance.starts_at) ELSE maintenance.starts_at END, 'ends_at', CASE typeof(maintenance.ends_at) WHEN 'blob' THEN hex(maintenance.ends_at) ELSE maintenance.ends_at END, 'cancelled_at', CASE typeof(maintenance.cancelled_at) WHEN 'blob' THEN hex(maintenance.cancelled_at) ELSE maintenance.cancelled_at END), json_object('id', CASE typeof(maintenance.id) WHEN 'blob' THEN hex(maintenance.id) ELSE maintenance.id END, 'project_id', CASE typeof(maintenance.project_id) WHEN 'blob' THEN hex(maintenance.project_id) ELSE maintenance.project_id END, 'platform_id', CASE typeof(maintenance.platform_id) WHEN 'blob' THEN hex(maintenance.platform_id) ELSE maintenance.platform_id END, 'starts_at', CASE typeof(maintenance.starts_at) WHEN 'blob' THEN hex(maintenance.starts_at) ELSE maintenance.starts_at END, 'ends_at', CASE typeof(maintenance.ends_at) WHEN 'blob' THEN hex(maintenance.ends_at) ELSE maintenance.ends_at END, 'cancelled_at', CASE typeof(maintenance.cancelled_at) WHEN 'blob' THEN hex(maintenance.cancelled_at) ELSE maintenance.cancelled_at END) FROM maintenance WHERE maintenance.id IS NEW.id; END;
-- trigger capture_maintenance_inserted
CREATE TRIGGER capture_maintenance_inserted AFTER INSERT ON maintenance WHEN EXISTS (SELECT 1 FROM capture_on) BEGIN
    INSERT INTO row_change(tbl, row_key, before, after) VALUES ('maintenance', json_array(NEW.id), NULL, json_object('id', CASE typeof(NEW.id) WHEN 'blob' THEN hex(NEW.id) ELSE NEW.id END, 'project_id', CASE typeof(NEW.project_id) WHEN 'blob' THEN hex(NEW.project_id) ELSE NEW.project_id END, 'platform_id', CASE typeof(NEW.platform_id) WHEN 'blob' THEN hex(NEW.platform_id) ELSE NEW.platform_id END, 'starts_at', CASE typeof(NEW.starts_at) WHEN 'blob' THEN hex(NEW.starts_at) ELSE NEW.starts_at END, 'ends_at', CASE typeof(NEW.ends_at) WHEN 'blob' THEN hex(NEW.ends_at) ELSE NEW.ends_at END, 'cancelled_at', CASE typeof(NEW.cancelled_at) WHEN 'blob' THEN hex(NEW.cancelled_at) ELSE NEW.cancelled_at END)); END;
-- trigger capture_maintenance_updated
CREATE TRIGGER capture_maintenance_updated AFTER UPDATE ON maintenance WHEN EXISTS (SELECT 1 FROM capture_on) BEGIN
    INSERT INTO row_change(tbl, row_key, before, after) VALUES ('maintenance', json_array(OLD.id), json_object('id', CASE typeof(OLD.id) WHEN 'blob' THEN hex(OLD.id) ELSE OLD.id END, 'project_id', CASE typeof(OLD.project_id) WHEN 'blob' THEN hex(OLD.project_id) ELSE OLD.project_id END, 'platform_id', CASE typeof(OLD.platform_id) WHEN 'blob' THEN hex(OLD.platform_id) ELSE OLD.platform_id END, 'starts_at', CASE typeof(OLD.starts_at) WHEN 'blob' THEN hex(OLD.starts_at) ELSE OLD.starts_at END, 'ends_at', CASE typeof(OLD.ends_at) WHEN 'blob' THEN hex(OLD.ends_at) ELSE OLD.ends_at END, 'cancelled_at', CASE typeof(OLD.cancelled_at) WHEN 'blob' THEN hex(OLD.cancelled_at) ELSE OLD.cancelled_at END), CASE WHEN OLD.id IS NEW.id THEN json_object('id', CASE typeof(NEW.id) WHEN 'blob' THEN hex(NEW.id) ELSE NEW.id END, 'project_id', CASE typeof(NEW.project_id) WHEN 'blob' THEN hex(NEW.project_id) ELSE NEW.project_id END, 'platform_id', CASE typeof(NEW.platform_id) WHEN 'blob' THEN hex(NEW.platform_id) ELSE NEW.platform_id END, 'starts_at', CASE typeof(NEW.starts_at) WHEN 'blob' THEN hex(NEW.starts_at) ELSE NEW.starts_at END, 'ends_at', CASE typeof(NEW.ends_at) WHEN 'blob' THEN hex(NEW.ends_at) ELSE NEW.ends_at END, 'cancelled_at', CASE typeof(NEW.cancelled_at) WHEN 'blob' THEN hex(NEW.cancelled_at) ELSE NEW.cancelled_at END) END);
    INSERT INTO row_change(tbl, row_key, before, after) SELECT 'maintenance', json_array(NEW.id), NULL, json_object('id', CASE typeof(NEW.id) WHEN 'blob' THEN hex(NEW.id) ELSE NEW.id END, 'project_id', CASE typeof(NEW.project_id) WHEN 'blob' THEN hex(NEW.project_id) ELSE NEW.project_id END, 'platform_id', CASE typeof(NEW.platform_id) WHEN 'blob' THEN hex(NEW.platform_id) ELSE NEW.platform_id END, 'starts_at', CASE typeof(NEW.starts_at) WHEN 'blob' THEN hex(NEW.starts_at) ELSE NEW.starts_at END, 'ends_at', CASE typeof(NEW.ends_at) WHEN 'blob' THEN hex(NEW.ends_at) ELSE NEW.ends_at END, 'cancelled_at', CASE typeof(NEW.cancelled_at) WHEN 'blob' THEN hex(NEW.cancelled_at) ELSE NEW.cancelled_at END) WHERE NOT (OLD.id IS NEW.id); END;
-- trigger capture_message_deleted
CREATE TRIGGER capture_message_deleted AFTER DELETE ON message WHEN EXISTS (SELECT 1 FROM capture_on) BEGIN
    INSERT INTO row_change(tbl, row_key, before, after) VALUES ('message', json_array(OLD.project_id, OLD.kind, OLD.locale, OLD.field), json_object('project_id', CASE typeof(OLD.project_id) WHEN 'blob' THEN hex(OLD.project_id) ELSE OLD.project_id END, 'kind', CASE typeof(OLD.kind) WHEN 'blob' THEN hex(OLD.kind) ELSE OLD.kind END, 'locale', CASE typeof(OLD.locale) WHEN 'blob' THEN hex(OLD.locale) ELSE OLD.locale END, 'field', CASE typeof(OLD.field) WHEN 'blob' THEN hex(OLD.field) ELSE OLD.field END, 'value', CASE typeof(OLD.value) WHEN 'blob' THEN hex(OLD.value) ELSE OLD.value END), NULL); END;
-- trigger capture_message_found
CREATE TRIGGER capture_message_found BEFORE INSERT ON message WHEN EXISTS (SELECT 1 FROM capture_on) BEGIN
    INSERT INTO row_change(tbl, row_key, before, after) SELECT 'message', json_array(message.project_id, message.kind, message.locale, message.field), json_object('project_id', CASE typeof(message.project_id) WHEN 'blob' THEN hex(message.project_id) ELSE message.project_id END, 'kind', CASE typeof(message.kind) WHEN 'blob' THEN hex(message.kind) ELSE message.kind END, 'locale', CASE typeof(message.locale) WHEN 'blob' THEN hex(message.locale) ELSE message.locale END, 'field', CASE typeof(message.field) WHEN 'blob' THEN hex(message.field) ELSE message.field END, 'value', CASE typeof(message.value) WHEN 'blob' THEN hex(message.value) ELSE message.value END), json_object('project_id', CASE typeof(message.project_id) WHEN 'blob' THEN hex(message.project_id) ELSE message.project_id END, 'kind', CASE typeof(message.kind) WHEN 'blob' THEN hex(message.kind) ELSE message.kind END, 'locale', CASE typeof(message.locale) WHEN 'blob' THEN hex(message.locale) ELSE message.locale END, 'field', CASE typeof(message.field) WHEN 'blob' THEN hex(message.field) ELSE message.field END, 'value', CASE typeof(message.value) WHEN 'blob' THEN hex(message.value) ELSE message.value END) FROM message WHERE message.project_id IS NEW.project_id AND message.kind IS NEW.kind AND message.locale IS NEW.locale AND message.field IS NEW.field; END;
-- trigger capture_message_inserted
CREATE TRIGGER capture_message_inserted AFTER INSERT ON message WHEN EXISTS (SELECT 1 FROM capture_on) BEGIN
    INSERT INTO row_change(tbl, row_key, before, after) VALUES ('message', json_array(NEW.project_id, NEW.kind, NEW.locale, NEW.field), NULL, json_object('project_id', CASE typeof(NEW.project_id) WHEN 'blob' THEN hex(NEW.project_id) ELSE NEW.project_id END, 'kind', CASE typeof(NEW.kind) WHEN 'blob' THEN hex(NEW.kind) ELSE NEW.kind END, 'locale', CASE typeof(NEW.locale) WHEN 'blob' THEN hex(NEW.locale) ELSE NEW.locale END, 'field', CASE typeof(NEW.field) WHEN 'blob' THEN hex(NEW.field) ELSE NEW.field END, 'value', CASE typeof(NEW.value) WHEN 'blob' THEN hex(NEW.value) ELSE NEW.value END)); END;
-- trigger capture_message_updated
CREATE TRIGGER capture_message_updated AFTER UPDATE ON message WHEN EXISTS (SELECT 1 FROM capture_on) BEGIN
    INSERT INTO row_change(tbl, row_key, before, after) VALUES ('message', json_array(OLD.project_id, OLD.kind, OLD.locale, OLD.field), json_object('project_id', CASE typeof(OLD.project_id) WHEN 'blob' THEN hex(OLD.project_id) ELSE OLD.project_id END, 'kind', CASE typeof(OLD.kind) WHEN 'blob' THEN hex(OLD.kind) ELSE OLD.kind END, 'locale', CASE typeof(OLD.locale) WHEN 'blob' THEN hex(OLD.locale) ELSE OLD.locale END, 'field', CASE typeof(OLD.field) WHEN 'blob' THEN hex(OLD.field) ELSE OLD.field END, 'value', CASE typeof(OLD.value) WHEN 'blob' THEN hex(OLD.value) ELSE OLD.value END), CASE WHEN OLD.project_id IS NEW.project_id AND OLD.kind IS NEW.kind AND OLD.locale IS NEW.locale AND OLD.field IS NEW.field THEN json_object('project_id', CASE typeof(NEW.project_id) WHEN 'blob' THEN hex(NEW.project_id) ELSE NEW.project_id END, 'kind', CASE typeof(NEW.kind) WHEN 'blob' THEN hex(NEW.kind) ELSE NEW.kind END, 'locale', CASE typeof(NEW.locale) WHEN 'blob' THEN hex(NEW.locale) ELSE NEW.locale END, 'field', CASE typeof(NEW.field) WHEN 'blob' THEN hex(NEW.field) ELSE NEW.field END, 'value', CASE typeof(NEW.value) WHEN 'blob' THEN hex(NEW.value) ELSE NEW.value END) END);
    INSERT INTO row_change(tbl, row_key, before, after) SELECT 'message', json_array(NEW.project_id, NEW.kind, NEW.locale, NEW.field), NULL, json_object('project_id', CASE typeof(NEW.project_id) WHEN 'blob' THEN hex(NEW.project_id) ELSE NEW.project_id END, 'kind', CASE typeof(NEW.kind) WHEN 'blob' THEN hex(NEW.kind) ELSE NEW.kind END, 'locale', CASE typeof(NEW.locale) WHEN 'blob' THEN hex(NEW.locale) ELSE NEW.locale END, 'field', CASE typeof(NEW.field) WHEN 'blob' THEN hex(NEW.field) ELSE NEW.field END, 'value', CASE typeof(NEW.value) WHEN 'blob' THEN hex(NEW.value) ELSE NEW.value END) WHERE NOT (OLD.project_id IS NEW.project_id AND OLD.kind IS NEW.kind AND OLD.locale IS NEW.locale AND OLD.field IS NEW.field); END;
-- trigger capture_note_deleted
CREATE TRIGGER capture_note_deleted AFTER DELETE ON note WHEN EXISTS (SELECT 1 FROM capture_on) BEGIN
    INSERT INTO row_change(tbl, row_key, before, after) VALUES ('note', json_array(OLD.version_id, OLD.locale), json_object('version_id', CASE typeof(OLD.version_id) WHEN 'blob' THEN hex(OLD.version_id) ELSE OLD.version_id END, 'locale', CASE typeof(OLD.locale) WHEN 'blob' THEN hex(OLD.locale) ELSE OLD.locale END, 'body', CASE typeof(OLD.body) WHEN 'blob' THEN hex(OLD.body) ELSE OLD.body END), NULL); END;
-- trigger capture_note_found
CREATE TRIGGER capture_note_found BEFORE INSERT ON note WHEN EXISTS (SELECT 1 FROM capture_on) BEGIN
    INSERT INTO row_change(tbl, row_key, before, after) SELECT 'note', json_array(note.version_id, note.locale), json_object('version_id', CASE typeof(note.version_id) WHEN 'blob' THEN hex(note.version_id) ELSE note.version_id END, 'locale', CASE typeof(note.locale) WHEN 'blob' THEN hex(note.locale) ELSE note.locale END, 'body', CASE typeof(note.body) WHEN 'blob' THEN hex(note.body) ELSE note.body END), json_object('version_id', CASE typeof(note.version_id) WHEN 'blob' THEN hex(note.version_id) ELSE note.version_id END, 'locale', CASE typeof(note.locale) WHEN 'blob' THEN hex(note.locale) ELSE note.locale END, 'body', CASE typeof(note.body) WHEN 'blob' THEN hex(note.body) ELSE note.body END) FROM note WHERE note.version_id IS NEW.version_id AND note.locale IS NEW.locale; END;
-- trigger capture_note_inserted
CREATE TRIGGER capture_note_inserted AFTER INSERT ON note WHEN EXISTS (SELECT 1 FROM capture_on) BEGIN
    INSERT INTO row_change(tbl, row_key, before, after) VALUES ('note', json_array(NEW.version_id, NEW.locale), NULL, json_object('version_id', CASE typeof(NEW.version_id) WHEN 'blob' THEN hex(NEW.version_id) ELSE NEW.version_id END, 'locale', CASE typeof(NEW.locale) WHEN 'blob' THEN hex(NEW.locale) ELSE NEW.locale END, 'body', CASE typeof(NEW.body) WHEN 'blob' THEN hex(NEW.body) ELSE NEW.body END)); END;
-- trigger capture_note_updated
CREATE TRIGGER capture_note_updated AFTER UPDATE ON note WHEN EXISTS (SELECT 1 FROM capture_on) BEGIN
    INSERT INTO row_change(tbl, row_key, before, after) VALUES ('note', json_array(OLD.version_id, OLD.locale), json_object('version_id', CASE typeof(OLD.version_id) WHEN 'blob' THEN hex(OLD.version_id) ELSE OLD.version_id END, 'locale', CASE typeof(OLD.locale) WHEN 'blob' THEN hex(OLD.locale) ELSE OLD.locale END, 'body', CASE typeof(OLD.body) WHEN 'blob' THEN hex(OLD.body) ELSE OLD.body END), CASE WHEN OLD.version_id IS NEW.version_id AND OLD.locale IS NEW.locale THEN json_object('version_id', CASE typeof(NEW.version_id) WHEN 'blob' THEN hex(NEW.version_id) ELSE NEW.version_id END, 'locale', CASE typeof(NEW.locale) WHEN 'blob' THEN hex(NEW.locale) ELSE NEW.locale END, 'body', CASE typeof(NEW.body) WHEN 'blob' THEN hex(NEW.body) ELSE NEW.body END) END);
    INSERT INTO row_change(tbl, row_key, before, after) SELECT 'note', json_array(NEW.version_id, NEW.locale), NULL, json_object('version_id', CASE typeof(NEW.version_id) WHEN 'blob' THEN hex(NEW.version_id) ELSE NEW.version_id END, 'locale', CASE typeof(NEW.locale) WHEN 'blob' THEN hex(NEW.locale) ELSE NEW.locale END, 'body', CASE typeof(NEW.body) WHEN 'blob' THEN hex(NEW.body) ELSE NEW.body END) WHERE NOT (OLD.version_id IS NEW.version_id AND OLD.locale IS NEW.locale); END;
-- trigger capture_platform_deleted
CREATE TRIGGER capture_platform_deleted AFTER DELETE ON platform WHEN EXISTS (SELECT 1 FROM capture_on) BEGIN
    INSERT INTO row_change(tbl, row_key, before, after) VALUES ('platform', json_array(OLD.id), json_object('id', CASE typeof(OLD.id) WHEN 'blob' THEN hex(OLD.id) ELSE OLD.id END, 'project_id', CASE typeof(OLD.project_id) WHEN 'blob' THEN hex(OLD.project_id) ELSE OLD.project_id END, 'name', CASE typeof(OLD.name) WHEN 'blob' THEN hex(OLD.name) ELSE OLD.name END, 'bundle_id', CASE typeof(OLD.bundle_id) WHEN 'blob' THEN hex(OLD.bundle_id) ELSE OLD.bundle_id END, 'app_store_id', CASE typeof(OLD.app_store_id) WHEN 'blob' THEN hex(OLD.app_store_id) ELSE OLD.app_store_id END, 'store_url', CASE typeof(OLD.store_url) WHEN 'blob' THEN hex(OLD.store_url) ELSE OLD.store_url END, 'min_os', CASE typeof(OLD.min_os) WHEN 'blob' THEN hex(OLD.min_os) ELSE OLD.min_os END, 'force_version', CASE typeof(OLD.force_version) WHEN 'blob' THEN hex(OLD.force_version) ELSE OLD.force_version END, 'force_build', CASE typeof(OLD.force_build) WHEN 'blob' THEN hex(OLD.force_build) ELSE OLD.force_build END, 'recommend_version', CASE typeof(OLD.recommend_version) WHEN 'blob' THEN hex(OLD.recommend_version) ELSE OLD.recommend_version END, 'recommend_build', CASE typeof(OLD.recommend_build) WHEN 'blob' THEN hex(OLD.recommend_build) ELSE OLD.recommend_build END, 'force_deadline', CASE typeof(OLD.force_deadline) WHEN 'blob' THEN hex(OLD.force_deadline) ELSE OLD.force_deadline END), NULL); END;
-- trigger capture_platform_found
CREATE TRIGGER capture_platform_found BEFORE INSERT ON platform WHEN EXISTS (SELECT 1 FROM capture_on) BEGIN
    INSERT INTO row_change(tbl, row_key, before, after) SELECT 'platform', json_array(platform.id), json_object('id', CASE typeof(platform.id) WHEN 'blob' THEN hex(platform.id) ELSE platform.id END, 'project_id', CASE typeof(platform.project_id) WHEN 'blob' THEN hex(platform.project_id) ELSE platform.project_id END, 'name', CASE typeof(platform.name) WHEN 'blob' THEN hex(platform.name) ELSE platform.name END, 'bundle_id', CASE typeof(platform.bundle_id) WHEN 'blob' THEN hex(platform.bundle_id) ELSE platform.bundle_id END, 'app_store_id', CASE typeof(platform.app_store_id) WHEN 'blob' THEN hex(platform.app_store_id) ELSE platform.app_store_id END, 'store_url', CASE typeof(platform.store_url) WHEN 'blob' THEN hex(platform.store_url) ELSE platform.store_url END, 'min_os', CASE typeof(platform.min_os) WHEN 'blob' THEN hex(platform.min_os) ELSE platform.min_os END, 'force_version', CASE typeof(platform.force_version) WHEN 'blob' THEN hex(platform.force_version) ELSE platform.force_version END, 'force_build', CASE typeof(platform.force_build) WHEN 'blob' THEN hex(platform.force_build) ELSE platform.force_build END, 'recommend_version', CASE typeof(platform.recommend_version) WHEN 'blob' THEN hex(platform.recommend_version) ELSE platform.recommend_version END, 'recommend_build', CASE typeof(platform.recommend_build) WHEN 'blob' THEN hex(platform.recommend_build) ELSE platform.recommend_build END, 'force_deadline', CASE typeof(platform.force_deadline) WHEN 'blob' THEN hex(platform.force_deadline) ELSE platform.force_deadline END), json_object('id', CASE typeof(platform.id) WHEN 'blob' THEN hex(platform.id) ELSE platform.id END, 'project_id', CASE typeof(platform.project_id) WHEN 'blob' THEN hex(platform.project_id) ELSE platform.project_id END, 'name', CASE typeof(platform.name) WHEN 'blob' THEN hex(platform.name) ELSE platform.name END, 'bundle_id', CASE typeof(platform.bundle_id) WHEN 'blob' THEN hex(platform.bundle_id) ELSE platform.bundle_id END, 'app_store_id', CASE typeof(platform.app_store_id) WHEN 'blob' THEN hex(platform.app_store_id) ELSE platform.app_store_id END, 'store_url', CASE typeof(platform.store_url) WHEN 'blob' THEN hex(platform.store_url) ELSE platform.store_url END, 'min_os', CASE typeof(platform.min_os) WHEN 'blob' THEN hex(platform.min_os) ELSE platform.min_os END, 'force_version', CASE typeof(platform.force_version) WHEN 'blob' THEN hex(platform.force_version) ELSE platform.force_version END, 'force_build', CASE typeof(platform.force_build) WHEN 'blob' THEN hex(platform.force_build) ELSE platform.force_build END, 'recommend_version', CASE typeof(platform.recommend_version) WHEN 'blob' THEN hex(platform.recommend_version) ELSE platform.recommend_version END, 'recommend_build', CASE typeof(platform.recommend_build) WHEN 'blob' THEN hex(platform.recommend_build) ELSE platform.recommend_build END, 'force_deadline', CASE typeof(platform.force_deadline) WHEN 'blob' THEN hex(platform.force_deadline) ELSE platform.force_deadline END) FROM platform WHERE platform.id IS NEW.id; END;
-- trigger capture_platform_inserted
CREATE TRIGGER capture_platform_inserted AFTER INSERT ON platform WHEN EXISTS (SELECT 1 FROM capture_on) BEGIN
    INSERT INTO row_change(tbl, row_key, before, after) VALUES ('platform', json_array(NEW.id), NULL, json_object('id', CASE typeof(NEW.id) WHEN 'blob' THEN hex(NEW.id) ELSE NEW.id END, 'project_id', CASE typeof(NEW.project_id) WHEN 'blob' THEN hex(NEW.project_id) ELSE NEW.project_id END, 'name', CASE typeof(NEW.name) WHEN 'blob' THEN hex(NEW.name) ELSE NEW.name END, 'bundle_id', CASE typeof(NEW.bundle_id) WHEN 'blob' THEN hex(NEW.bundle_id) ELSE NEW.bundle_id END, 'app_store_id', CASE typeof(NEW.app_store_id) WHEN 'blob' THEN hex(NEW.app_store_id) ELSE NEW.app_store_id END, 'store_url', CASE typeof(NEW.store_url) WHEN 'blob' THEN hex(NEW.store_url) ELSE NEW.store_url END, 'min_os', CASE typeof(NEW.min_os) WHEN 'blob' THEN hex(NEW.min_os) ELSE NEW.min_os END, 'force_version', CASE typeof(NEW.force_version) WHEN 'blob' THEN hex(NEW.force_version) ELSE NEW.force_version END, 'force_build', CASE typeof(NEW.force_build) WHEN 'blob' THEN hex(NEW.force_build) ELSE NEW.force_build END, 'recommend_version', CASE typeof(NEW.recommend_version) WHEN 'blob' THEN hex(NEW.recommend_version) ELSE NEW.recommend_version END, 'recommend_build', CASE typeof(NEW.recommend_build) WHEN 'blob' THEN hex(NEW.recommend_build) ELSE NEW.recommend_build END, 'force_deadline', CASE typeof(NEW.force_deadline) WHEN 'blob' THEN hex(NEW.force_deadline) ELSE NEW.force_deadline END)); END;
-- trigger capture_platform_updated
CREATE TRIGGER capture_platform_updated AFTER UPDATE ON platform WHEN EXISTS (SELECT 1 FROM capture_on) BEGIN
    INSERT INTO row_change(tbl, row_key, before, after) VALUES ('platform', json_array(OLD.id), json_object('id', CASE typeof(OLD.id) WHEN 'blob' THEN hex(OLD.id) ELSE OLD.id END, 'project_id', CASE typeof(OLD.project_id) WHEN 'blob' THEN hex(OLD.project_id) ELSE OLD.project_id END, 'name', CASE typeof(OLD.name) WHEN 'blob' THEN hex(OLD.name) ELSE OLD.name END, 'bundle_id', CASE typeof(OLD.bundle_id) WHEN 'blob' THEN hex(OLD.bundle_id) ELSE OLD.bundle_id END, 'app_store_id', CASE typeof(OLD.app_store_id) WHEN 'blob' THEN hex(OLD.app_store_id) ELSE OLD.app_store_id END, 'store_url', CASE typeof(OLD.store_url) WHEN 'blob' THEN hex(OLD.store_url) ELSE OLD.store_url END, 'min_os', CASE typeof(OLD.min_os) WHEN 'blob' THEN hex(OLD.min_os) ELSE OLD.min_os END, 'force_version', CASE typeof(OLD.force_version) WHEN 'blob' THEN hex(OLD.force_version) ELSE OLD.force_version END, 'force_build', CASE typeof(OLD.force_build) WHEN 'blob' THEN hex(OLD.force_build) ELSE OLD.force_build END, 'recommend_version', CASE typeof(OLD.recommend_version) WHEN 'blob' THEN hex(OLD.recommend_version) ELSE OLD.recommend_version END, 'recommend_build', CASE typeof(OLD.recommend_build) WHEN 'blob' THEN hex(OLD.recommend_build) ELSE OLD.recommend_build END, 'force_deadline', CASE typeof(OLD.force_deadline) WHEN 'blob' THEN hex(OLD.force_deadline) ELSE OLD.force_deadline END), CASE WHEN OLD.id IS NEW.id THEN json_object('id', CASE typeof(NEW.id) WHEN 'blob' THEN hex(NEW.id) ELSE NEW.id END, 'project_id', CASE typeof(NEW.project_id) WHEN 'blob' THEN hex(NEW.project_id) ELSE NEW.project_id END, 'name', CASE typeof(NEW.name) WHEN 'blob' THEN hex(NEW.name) ELSE NEW.name END, 'bundle_id', CASE typeof(NEW.bundle_id) WHEN 'blob' THEN hex(NEW.bundle_id) ELSE NEW.bundle_id END, 'app_store_id', CASE typeof(NEW.app_store_id) WHEN 'blob' THEN hex(NEW.app_store_id) ELSE NEW.app_store_id END, 'store_url', CASE typeof(NEW.store_url) WHEN 'blob' THEN hex(NEW.store_url) ELSE NEW.store_url END, 'min_os', CASE typeof(NEW.min_os) WHEN 'blob' THEN hex(NEW.min_os) ELSE NEW.min_os END, 'force_version', CASE typeof(NEW.force_version) WHEN 'blob' THEN hex(NEW.force_version) ELSE NEW.force_version END, 'force_build', CASE typeof(NEW.force_build) WHEN 'blob' THEN hex(NEW.force_build) ELSE NEW.force_build END, 'recommend_version', CASE typeof(NEW.recommend_version) WHEN 'blob' THEN hex(NEW.recommend_version) ELSE NEW.recommend_version END, 'recommend_build', CASE typeof(NEW.recommend_build) WHEN 'blob' THEN hex(NEW.recommend_build) ELSE NEW.recommend_build END, 'force_deadline', CASE typeof(NEW.force_deadline) WHEN 'blob' THEN hex(NEW.force_deadline) ELSE NEW.force_deadline END) END);
    INSERT INTO row_change(tbl, row_key, before, after) SELECT 'platform', json_array(NEW.id), NULL, json_object('id', CASE typeof(NEW.id) WHEN 'blob' THEN hex(NEW.id) ELSE NEW.id END, 'project_id', CASE typeof(NEW.project_id) WHEN 'blob' THEN hex(NEW.project_id) ELSE NEW.project_id END, 'name', CASE typeof(NEW.name) WHEN 'blob' THEN hex(NEW.name) ELSE NEW.name END, 'bundle_id', CASE typeof(NEW.bundle_id) WHEN 'blob' THEN hex(NEW.bundle_id) ELSE NEW.bundle_id END, 'app_store_id', CASE typeof(NEW.app_store_id) WHEN 'blob' THEN hex(NEW.app_store_id) ELSE NEW.app_store_id END, 'store_url', CASE typeof(NEW.store_url) WHEN 'blob' THEN hex(NEW.store_url) ELSE NEW.store_url END, 'min_os', CASE typeof(NEW.min_os) WHEN 'blob' THEN hex(NEW.min_os) ELSE NEW.min_os END, 'force_version', CASE typeof(NEW.force_version) WHEN 'blob' THEN hex(NEW.force_version) ELSE NEW.force_version END, 'force_build', CASE typeof(NEW.force_build) WHEN 'blob' THEN hex(NEW.force_build) ELSE NEW.force_build END, 'recommend_version', CASE typeof(NEW.recommend_version) WHEN 'blob' THEN hex(NEW.recommend_version) ELSE NEW.recommend_version END, 'recommend_build', CASE typeof(NEW.recommend_build) WHEN 'blob' THEN hex(NEW.recommend_build) ELSE NEW.recommend_build END, 'force_deadline', CASE typeof(NEW.force_deadline) WHEN 'blob' THEN hex(NEW.force_deadline) ELSE NEW.force_deadline END) WHERE NOT (OLD.id IS NEW.id); END;
-- trigger capture_project_deleted
CREATE TRIGGER capture_project_deleted AFTER DELETE ON project WHEN EXISTS (SELECT 1 FROM capture_on) BEGIN
    INSERT INTO row_change(tbl, row_key, before, after) VALUES ('project', json_array(OLD.id), json_object('id', CASE typeof(OLD.id) WHEN 'blob' THEN hex(OLD.id) ELSE OLD.id END, 'slug', CASE typeof(OLD.slug) WHEN 'blob' THEN hex(OLD.slug) ELSE OLD.slug END, 'name', CASE typeof(OLD.name) WHEN 'blob' THEN hex(OLD.name) ELSE OLD.name END, 'default_locale', CASE typeof(OLD.default_locale) WHEN 'blob' THEN hex(OLD.default_locale) ELSE OLD.default_locale END, 'locales', CASE typeof(OLD.locales) WHEN 'blob' THEN hex(OLD.locales) ELSE OLD.locales END, 'rules', CASE typeof(OLD.rules) WHEN 'blob' THEN hex(OLD.rules) ELSE OLD.rules END, 'release_delay_days', CASE typeof(OLD.release_delay_days) WHEN 'blob' THEN hex(OLD.release_delay_days) ELSE OLD.release_delay_days END, 'remind_hours', CASE typeof(OLD.remind_hours) WHEN 'blob' THEN hex(OLD.remind_hours) ELSE OLD.remind_hours END, 'outdated', CASE typeof(OLD.outdated) WHEN 'blob' THEN hex(OLD.outdated) ELSE OLD.outdated END, 'time_zone', CASE typeof(OLD.time_zone) WHEN 'blob' THEN hex(OLD.time_zone) ELSE OLD.time_zone END, 'whatsnew_limit', CASE typeof(OLD.whatsnew_limit) WHEN 'blob' THEN hex(OLD.whatsnew_limit) ELSE OLD.whatsnew_limit END), NULL); END;
-- trigger capture_project_found
CREATE TRIGGER capture_project_found BEFORE INSERT ON project WHEN EXISTS (SELECT 1 FROM capture_on) BEGIN
    INSERT INTO row_change(tbl, row_key, before, after) SELECT 'project', json_array(project.id), json_object('id', CASE typeof(project.id) WHEN 'blob' THEN hex(project.id) ELSE project.id END, 'slug', CASE typeof(project.slug) WHEN 'blob' THEN hex(project.slug) ELSE project.slug END, 'name', CASE typeof(project.name) WHEN 'blob' THEN hex(project.name) ELSE project.name END, 'default_locale', CASE typeof(project.default_locale) WHEN 'blob' THEN hex(project.default_locale) ELSE project.default_locale END, 'locales', CASE typeof(project.locales) WHEN 'blob' THEN hex(project.locales) ELSE project.locales END, 'rules', CASE typeof(project.rules) WHEN 'blob' THEN hex(project.rules) ELSE project.rules END, 'release_delay_days', CASE typeof(project.release_delay_days) WHEN 'blob' THEN hex(project.release_delay_days) ELSE project.release_delay_days END, 'remind_hours', CASE typeof(project.remind_hours) WHEN 'blob' THEN hex(project.remind_hours) ELSE project.remind_hours END, 'outdated', CASE typeof(project.outdated) WHEN 'blob' THEN hex(project.outdated) ELSE project.outdated END, 'time_zone', CASE typeof(project.time_zone) WHEN 'blob' THEN hex(project.time_zone) ELSE project.time_zone END, 'whatsnew_limit', CASE typeof(project.whatsnew_limit) WHEN 'blob' THEN hex(project.whatsnew_limit) ELSE project.whatsnew_limit END), json_object('id', CASE typeof(project.id) WHEN 'blob' THEN hex(project.id) ELSE project.id END, 'slug', CASE typeof(project.slug) WHEN 'blob' THEN hex(project.slug) ELSE project.slug END, 'name', CASE typeof(project.name) WHEN 'blob' THEN hex(project.name) ELSE project.name END, 'default_locale', CASE typeof(project.default_locale) WHEN 'blob' THEN hex(project.default_locale) ELSE project.default_locale END, 'locales', CASE typeof(project.locales) WHEN 'blob' THEN hex(project.locales) ELSE project.locales END, 'rules', CASE typeof(project.rules) WHEN 'blob' THEN hex(project.rules) ELSE project.rules END, 'release_delay_days', CASE typeof(project.release_delay_days) WHEN 'blob' THEN hex(project.release_delay_days) ELSE project.release_delay_days END, 'remind_hours', CASE typeof(project.remind_hours) WHEN 'blob' THEN hex(project.remind_hours) ELSE project.remind_hours END, 'outdated', CASE typeof(project.outdated) WHEN 'blob' THEN hex(project.outdated) ELSE project.outdated END, 'time_zone', CASE typeof(project.time_zone) WHEN 'blob' THEN hex(project.time_zone) ELSE project.time_zone END, 'whatsnew_limit', CASE typeof(project.whatsnew_limit) WHEN 'blob' THEN hex(project.whatsnew_limit) ELSE project.whatsnew_limit END) FROM project WHERE project.id IS NEW.id; END;
-- trigger capture_project_inserted
CREATE TRIGGER capture_project_inserted AFTER INSERT ON project WHEN EXISTS (SELECT 1 FROM capture_on) BEGIN
    INSERT INTO row_change(tbl, row_key, before, after) VALUES ('project', json_array(NEW.id), NULL, json_object('id', CASE typeof(NEW.id) WHEN 'blob' THEN hex(NEW.id) ELSE NEW.id END, 'slug', CASE typeof(NEW.slug) WHEN 'blob' THEN hex(NEW.slug) ELSE NEW.slug END, 'name', CASE typeof(NEW.name) WHEN 'blob' THEN hex(NEW.name) ELSE NEW.name END, 'default_locale', CASE typeof(NEW.default_locale) WHEN 'blob' THEN hex(NEW.default_locale) ELSE NEW.default_locale END, 'locales', CASE typeof(NEW.locales) WHEN 'blob' THEN hex(NEW.locales) ELSE NEW.locales END, 'rules', CASE typeof(NEW.rules) WHEN 'blob' THEN hex(NEW.rules) ELSE NEW.rules END, 'release_delay_days', CASE typeof(NEW.release_delay_days) WHEN 'blob' THEN hex(NEW.release_delay_days) ELSE NEW.release_delay_days END, 'remind_hours', CASE typeof(NEW.remind_hours) WHEN 'blob' THEN hex(NEW.remind_hours) ELSE NEW.remind_hours END, 'outdated', CASE typeof(NEW.outdated) WHEN 'blob' THEN hex(NEW.outdated) ELSE NEW.outdated END, 'time_zone', CASE typeof(NEW.time_zone) WHEN 'blob' THEN hex(NEW.time_zone) ELSE NEW.time_zone END, 'whatsnew_limit', CASE typeof(NEW.whatsnew_limit) WHEN 'blob' THEN hex(NEW.whatsnew_limit) ELSE NEW.whatsnew_limit END)); END;
-- trigger capture_project_updated
CREATE TRIGGER capture_project_updated AFTER UPDATE ON project WHEN EXISTS (SELECT 1 FROM capture_on) BEGIN
    INSERT INTO row_change(tbl, row_key, before, after) VALUES ('project', json_array(OLD.id), json_object('id', CASE typeof(OLD.id) WHEN 'blob' THEN hex(OLD.id) ELSE OLD.id END, 'slug', CASE typeof(OLD.slug) WHEN 'blob' THEN hex(OLD.slug) ELSE OLD.slug END, 'name', CASE typeof(OLD.name) WHEN 'blob' THEN hex(OLD.name) ELSE OLD.name END, 'default_locale', CASE typeof(OLD.default_locale) WHEN 'blob' THEN hex(OLD.default_locale) ELSE OLD.default_locale END, 'locales', CASE typeof(OLD.locales) WHEN 'blob' THEN hex(OLD.locales) ELSE OLD.locales END, 'rules', CASE typeof(OLD.rules) WHEN 'blob' THEN hex(OLD.rules) ELSE OLD.rules END, 'release_delay_days', CASE typeof(OLD.release_delay_days) WHEN 'blob' THEN hex(OLD.release_delay_days) ELSE OLD.release_delay_days END, 'remind_hours', CASE typeof(OLD.remind_hours) WHEN 'blob' THEN hex(OLD.remind_hours) ELSE OLD.remind_hours END, 'outdated', CASE typeof(OLD.outdated) WHEN 'blob' THEN hex(OLD.outdated) ELSE OLD.outdated END, 'time_zone', CASE typeof(OLD.time_zone) WHEN 'blob' THEN hex(OLD.time_zone) ELSE OLD.time_zone END, 'whatsnew_limit', CASE typeof(OLD.whatsnew_limit) WHEN 'blob' THEN hex(OLD.whatsnew_limit) ELSE OLD.whatsnew_limit END), CASE WHEN OLD.id IS NEW.id THEN json_object('id', CASE typeof(NEW.id) WHEN 'blob' THEN hex(NEW.id) ELSE NEW.id END, 'slug', CASE typeof(NEW.slug) WHEN 'blob' THEN hex(NEW.slug) ELSE NEW.slug END, 'name', CASE typeof(NEW.name) WHEN 'blob' THEN hex(NEW.name) ELSE NEW.name END, 'default_locale', CASE typeof(NEW.default_locale) WHEN 'blob' THEN hex(NEW.default_locale) ELSE NEW.default_locale END, 'locales', CASE typeof(NEW.locales) WHEN 'blob' THEN hex(NEW.locales) ELSE NEW.locales END, 'rules', CASE typeof(NEW.rules) WHEN 'blob' THEN hex(NEW.rules) ELSE NEW.rules END, 'release_delay_days', CASE typeof(NEW.release_delay_days) WHEN 'blob' THEN hex(NEW.release_delay_days) ELSE NEW.release_delay_days END, 'remind_hours', CASE typeof(NEW.remind_hours) WHEN 'blob' THEN hex(NEW.remind_hours) ELSE NEW.remind_hours END, 'outdated', CASE typeof(NEW.outdated) WHEN 'blob' THEN hex(NEW.outdated) ELSE NEW.outdated END, 'time_zone', CASE typeof(NEW.time_zone) WHEN 'blob' THEN hex(NEW.time_zone) ELSE NEW.time_zone END, 'whatsnew_limit', CASE typeof(NEW.whatsnew_limit) WHEN 'blob' THEN hex(NEW.whatsnew_limit) ELSE NEW.whatsnew_limit END) END);
    INSERT INTO row_change(tbl, row_key, before, after) SELECT 'project', json_array(NEW.id), NULL, json_object('id', CASE typeof(NEW.id) WHEN 'blob' THEN hex(NEW.id) ELSE NEW.id END, 'slug', CASE typeof(NEW.slug) WHEN 'blob' THEN hex(NEW.slug) ELSE NEW.slug END, 'name', CASE typeof(NEW.name) WHEN 'blob' THEN hex(NEW.name) ELSE NEW.name END, 'default_locale', CASE typeof(NEW.default_locale) WHEN 'blob' THEN hex(NEW.default_locale) ELSE NEW.default_locale END, 'locales', CASE typeof(NEW.locales) WHEN 'blob' THEN hex(NEW.locales) ELSE NEW.locales END, 'rules', CASE typeof(NEW.rules) WHEN 'blob' THEN hex(NEW.rules) ELSE NEW.rules END, 'release_delay_days', CASE typeof(NEW.release_delay_days) WHEN 'blob' THEN hex(NEW.release_delay_days) ELSE NEW.release_delay_days END, 'remind_hours', CASE typeof(NEW.remind_hours) WHEN 'blob' THEN hex(NEW.remind_hours) ELSE NEW.remind_hours END, 'outdated', CASE typeof(NEW.outdated) WHEN 'blob' THEN hex(NEW.outdated) ELSE NEW.outdated END, 'time_zone', CASE typeof(NEW.time_zone) WHEN 'blob' THEN hex(NEW.time_zone) ELSE NEW.time_zone END, 'whatsnew_limit', CASE typeof(NEW.whatsnew_limit) WHEN 'blob' THEN hex(NEW.whatsnew_limit) ELSE NEW.whatsnew_limit END) WHERE NOT (OLD.id IS NEW.id); END;
-- trigger capture_version_deleted
CREATE TRIGGER capture_version_deleted AFTER DELETE ON version WHEN EXISTS (SELECT 1 FROM capture_on) BEGIN
    INSERT INTO row_change(tbl, row_key, before, after) VALUES ('version', json_array(OLD.id), json_object('id', CASE typeof(OLD.id) WHEN 'blob' THEN hex(OLD.id) ELSE OLD.id END, 'platform_id', CASE typeof(OLD.platform_id) WHEN 'blob' THEN hex(OLD.platform_id) ELSE OLD.platform_id END, 'version', CASE typeof(OLD.version) WHEN 'blob' THEN hex(OLD.version) ELSE OLD.version END, 'build', CASE typeof(OLD.build) WHEN 'blob' THEN hex(OLD.build) ELSE OLD.build END, 'released_at', CASE typeof(OLD.released_at) WHEN 'blob' THEN hex(OLD.released_at) ELSE OLD.released_at END, 'min_os', CASE typeof(OLD.min_os) WHEN 'blob' THEN hex(OLD.min_os) ELSE OLD.min_os END, 'policy', CASE typeof(OLD.policy) WHEN 'blob' THEN hex(OLD.policy) ELSE OLD.policy END), NULL); END;
-- trigger capture_version_found
CREATE TRIGGER capture_version_found BEFORE INSERT ON version WHEN EXISTS (SELECT 1 FROM capture_on) BEGIN
    INSERT INTO row_change(tbl, row_key, before, after) SELECT 'version', json_array(version.id), json_object('id', CASE typeof(version.id) WHEN 'blob' THEN hex(version.id) ELSE version.id END, 'platform_id', CASE typeof(version.platform_id) WHEN 'blob' THEN hex(version.platform_id) ELSE version.platform_id END, 'version', CASE typeof(version.version) WHEN 'blob' THEN hex(version.version) ELSE version.version END, 'build', CASE typeof(version.build) WHEN 'blob' THEN hex(version.build) ELSE version.build END, 'released_at', CASE typeof(version.released_at) WHEN 'blob' THEN hex(version.released_at) ELSE version.released_at END, 'min_os', CASE typeof(version.min_os) WHEN 'blob' THEN hex(version.min_os) ELSE version.min_os END, 'policy', CASE typeof(version.policy) WHEN 'blob' THEN hex(version.policy) ELSE version.policy END), json_object('id', CASE typeof(version.id) WHEN 'blob' THEN hex(version.id) ELSE version.id END, 'platform_id', CASE typeof(version.platform_id) WHEN 'blob' THEN hex(version.platform_id) ELSE version.platform_id END, 'version', CASE typeof(version.version) WHEN 'blob' THEN hex(version.version) ELSE version.version END, 'build', CASE typeof(version.build) WHEN 'blob' THEN hex(version.build) ELSE version.build END, 'released_at', CASE typeof(version.released_at) WHEN 'blob' THEN hex(version.released_at) ELSE version.released_at END, 'min_os', CASE typeof(version.min_os) WHEN 'blob' THEN hex(version.min_os) ELSE version.min_os END, 'policy', CASE typeof(version.policy) WHEN 'blob' THEN hex(version.policy) ELSE version.policy END) FROM version WHERE version.id IS NEW.id; END;
-- trigger capture_version_inserted
CREATE TRIGGER capture_version_inserted AFTER INSERT ON version WHEN EXISTS (SELECT 1 FROM capture_on) BEGIN
    INSERT INTO row_change(tbl, row_key, before, after) VALUES ('version', json_array(NEW.id), NULL, json_object('id', CASE typeof(NEW.id) WHEN 'blob' THEN hex(NEW.id) ELSE NEW.id END, 'platform_id', CASE typeof(NEW.platform_id) WHEN 'blob' THEN hex(NEW.platform_id) ELSE NEW.platform_id END, 'version', CASE typeof(NEW.version) WHEN 'blob' THEN hex(NEW.version) ELSE NEW.version END, 'build', CASE typeof(NEW.build) WHEN 'blob' THEN hex(NEW.build) ELSE NEW.build END, 'released_at', CASE typeof(NEW.released_at) WHEN 'blob' THEN hex(NEW.released_at) ELSE NEW.released_at END, 'min_os', CASE typeof(NEW.min_os) WHEN 'blob' THEN hex(NEW.min_os) ELSE NEW.min_os END, 'policy', CASE typeof(NEW.policy) WHEN 'blob' THEN hex(NEW.policy) ELSE NEW.policy END)); END;
-- trigger capture_version_updated
CREATE TRIGGER capture_version_updated AFTER UPDATE ON version WHEN EXISTS (SELECT 1 FROM capture_on) BEGIN
    INSERT INTO row_change(tbl, row_key, before, after) VALUES ('version', json_array(OLD.id), json_object('id', CASE typeof(OLD.id) WHEN 'blob' THEN hex(OLD.id) ELSE OLD.id END, 'platform_id', CASE typeof(OLD.platform_id) WHEN 'blob' THEN hex(OLD.platform_id) ELSE OLD.platform_id END, 'version', CASE typeof(OLD.version) WHEN 'blob' THEN hex(OLD.version) ELSE OLD.version END, 'build', CASE typeof(OLD.build) WHEN 'blob' THEN hex(OLD.build) ELSE OLD.build END, 'released_at', CASE typeof(OLD.released_at) WHEN 'blob' THEN hex(OLD.released_at) ELSE OLD.released_at END, 'min_os', CASE typeof(OLD.min_os) WHEN 'blob' THEN hex(OLD.min_os) ELSE OLD.min_os END, 'policy', CASE typeof(OLD.policy) WHEN 'blob' THEN hex(OLD.policy) ELSE OLD.policy END), CASE WHEN OLD.id IS NEW.id THEN json_object('id', CASE typeof(NEW.id) WHEN 'blob' THEN hex(NEW.id) ELSE NEW.id END, 'platform_id', CASE typeof(NEW.platform_id) WHEN 'blob' THEN hex(NEW.platform_id) ELSE NEW.platform_id END, 'version', CASE typeof(NEW.version) WHEN 'blob' THEN hex(NEW.version) ELSE NEW.version END, 'build', CASE typeof(NEW.build) WHEN 'blob' THEN hex(NEW.build) ELSE NEW.build END, 'released_at', CASE typeof(NEW.released_at) WHEN 'blob' THEN hex(NEW.released_at) ELSE NEW.released_at END, 'min_os', CASE typeof(NEW.min_os) WHEN 'blob' THEN hex(NEW.min_os) ELSE NEW.min_os END, 'policy', CASE typeof(NEW.policy) WHEN 'blob' THEN hex(NEW.policy) ELSE NEW.policy END) END);
    INSERT INTO row_change(tbl, row_key, before, after) SELECT 'version', json_array(NEW.id), NULL, json_object('id', CASE typeof(NEW.id) WHEN 'blob' THEN hex(NEW.id) ELSE NEW.id END, 'platform_id', CASE typeof(NEW.platform_id) WHEN 'blob' THEN hex(NEW.platform_id) ELSE NEW.platform_id END, 'version', CASE typeof(NEW.version) WHEN 'blob' THEN hex(NEW.version) ELSE NEW.version END, 'build', CASE typeof(NEW.build) WHEN 'blob' THEN hex(NEW.build) ELSE NEW.build END, 'released_at', CASE typeof(NEW.released_at) WHEN 'blob' THEN hex(NEW.released_at) ELSE NEW.released_at END, 'min_os', CASE typeof(NEW.min_os) WHEN 'blob' THEN hex(NEW.min_os) ELSE NEW.min_os END, 'policy', CASE typeof(NEW.policy) WHEN 'blob' THEN hex(NEW.policy) ELSE NEW.policy END) WHERE NOT (OLD.id IS NEW.id); END;
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
