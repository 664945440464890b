-- Fills an initialised relctl database with a fleet of apps, directly in SQL
-- (not through hundreds of thousands of processes). {{PROJECTS}}, {{VERSIONS}}
-- and {{LOCALES}} are replaced by the caller (bench/run, the tests).
BEGIN IMMEDIATE;
CREATE TEMP TABLE n(i INTEGER PRIMARY KEY);
WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < max({{PROJECTS}}, {{VERSIONS}}))
INSERT INTO n SELECT i FROM c;
CREATE TEMP TABLE tags(pos INTEGER PRIMARY KEY, tag TEXT);
INSERT INTO tags(tag) VALUES ('en'), ('tr'), ('de'), ('fr'), ('es'), ('it'), ('ja'), ('ko'), ('zh-Hans'), ('zh-Hant'),
    ('pt-BR'), ('pt-PT'), ('ru'), ('ar'), ('he'), ('nl'), ('sv'), ('pl'), ('th'), ('vi'), ('da'), ('fi'), ('nb'), ('id'), ('ms');
DELETE FROM tags WHERE pos > {{LOCALES}};
INSERT INTO project(slug, name, default_locale, locales, rules)
    SELECT printf('app-%03d', i), printf('App %d', i), 'en', (SELECT group_concat(tag, ',') FROM (SELECT tag FROM tags ORDER BY pos)),
           'skip/daily,skip/daily,skip/daily,skip/daily'
    FROM n WHERE i <= {{PROJECTS}};
INSERT INTO platform(project_id, name, bundle_id, app_store_id, min_os)
    SELECT id, 'ios', 'com.example.app' || id, CAST(1000000000 + id AS TEXT), '15.0' FROM project;
INSERT INTO platform(project_id, name, bundle_id)
    SELECT id, 'android', 'com.example.app' || id FROM project;
INSERT INTO version(platform_id, version, build, released_at)
    SELECT p.id, (n.i / 100 + 1) || '.' || (n.i / 10 % 10) || '.' || (n.i % 10), n.i, 1700000000 + n.i * 86400
    FROM platform p, n WHERE n.i <= {{VERSIONS}};
-- A tenth of the apps has a release scheduled days after the benchmark's
-- publish instant (2026-11-29T12:00:00Z), on iOS or Android: the proof
-- sweeps the coming instants of those.
INSERT INTO version(platform_id, version, build, released_at)
    SELECT p.id, '99.0.0', 1000000, 1795953600 + CASE p.name WHEN 'ios' THEN 3 ELSE 10 END * 86400
    FROM platform p WHERE (p.project_id % 10 = 0 AND p.name = 'ios') OR (p.project_id % 10 = 5 AND p.name = 'android');
INSERT INTO note(version_id, locale, body)
    SELECT v.id, t.tag, 'Release ' || v.version || ' for ' || t.tag || ': faster sync' || char(10) || 'Bug fixes and improvements'
    FROM version v, tags t;
UPDATE platform SET force_version = '1.5.0' WHERE name = 'ios';
UPDATE platform SET recommend_version = '2.0.0' WHERE name = 'android';
-- Each part a history (Lineage), as relctl's own changes give every part: revision 1, what
-- the lineage's migration gives the parts a database held. Without one, a part the file
-- has no history for either is given one by the first apply, and by every plan before it
-- in its trial: a plan of a database made in SQL alone measured that, not a drift check.
INSERT INTO lineage(project, part, head, chain) SELECT slug, '', 1, '1' FROM project;
INSERT INTO lineage(project, part, head, chain) SELECT p.slug, f.name, 1, '1' FROM platform f JOIN project p ON p.id = f.project_id;
INSERT INTO lineage(project, part, head, chain) SELECT p.slug, f.name || '/' || v.version, 1, '1'
    FROM version v JOIN platform f ON f.id = v.platform_id JOIN project p ON p.id = f.project_id;
INSERT INTO audit(at, user, project, action) VALUES (1700000000, 'bench', NULL, 'fleet generated');
COMMIT;
