import Foundation
import XCTest
@testable import RelctlCLI
@testable import RelctlPublish
@testable import RelctlStore
@testable import SQLite

/// The database is a file people edit by hand. A change made with the
/// sqlite3 shell writes no audit row, so no new revision; the database's own
/// triggers stamp the changed project instead, and a publish renders it.
final class HandEditTests: XCTestCase {
    /// Three projects, and a maintenance window of shop's.
    func fleet() -> Harness {
        let h = threeProjects()
        h.ok("maintenance schedule -p shop --from 2026-12-10T00:00:00Z --until 2026-12-10T02:00:00Z --message \"Back soon\" --yes")
        return h
    }

    func publish(_ h: Harness, _ dir: String) -> [String: Any] { publishJSON(h, dir) }

    /// Three projects, blog's export past a mebibyte (20,000 versions made
    /// by hand), so that an export to a file hands blog's bytes on before it
    /// reads cafe and shop.
    func largeFleet() throws -> Harness {
        let h = fleet()
        try sqlite3(h, """
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 20000)
            INSERT INTO version(platform_id, version, build, released_at)
            SELECT (SELECT p.id FROM platform p JOIN project j ON j.id = p.project_id WHERE j.slug = 'blog' AND p.name = 'ios'),
                   '5.' || i || '.0', 500000 + i, 1700000000 FROM n
            """)
        return h
    }

    /// export reads and writes a project at a time. A row edited by hand
    /// into one it refuses, in the last project it writes, after blog's
    /// bytes went to the temporary, leaves nothing at -o's path (the file
    /// there before is kept whole, and no temporary is left beside it) and
    /// nothing on standard output.
    func testAnExportThatMeetsABadRowHalfWayWritesNothing() throws {
        let h = try largeFleet()
        let path = h.dir + "/fleet.relctl.json"
        h.ok("export --all-projects -o \(path)")
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        XCTAssertEqual(String(decoding: before, as: UTF8.self), h.ok("export --all-projects").out)
        XCTAssertGreaterThan(h.ok("export -p blog").out.utf8.count, 1 << 20, "blog alone is handed on before shop is read")
        try sqlite3(h, "UPDATE version SET policy = 'maybe' WHERE id = (SELECT v.id FROM version v JOIN platform p ON p.id = v.platform_id JOIN project j ON j.id = p.project_id WHERE j.slug = 'shop' AND v.version = '1.0')")
        let r = h.run(["export", "--all-projects", "-o", path])
        XCTAssertEqual(r.status, 1, r.err)
        let refusal = h.run(["version", "list", "-p", "shop", "--platform", "ios"]).err
        XCTAssertTrue(refusal.contains("maybe"), refusal)
        XCTAssertEqual(r.err, refusal, "the export names the bad row as every command does")
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), before)
        let fresh = h.dir + "/new.relctl.json"
        XCTAssertEqual(h.run(["export", "--all-projects", "-o", fresh]).status, 1)
        XCTAssertFalse(FileManager.default.fileExists(atPath: fresh))
        let left = try FileManager.default.contentsOfDirectory(atPath: h.dir).filter { $0.hasPrefix(TreeFiles.tempMarker) }
        XCTAssertEqual(left, [], "no temporary left")
        let out = h.run(["export", "--all-projects"])
        XCTAssertEqual(out.status, 1)
        XCTAssertEqual(out.out, "", "standard output gets the document whole or nothing")
    }

    /// Ctrl-C to an export writing its file, a real SIGINT to the process
    /// while its temporary is there: it stops between two projects, says so,
    /// and leaves no file and no temporary.
    func testAnExportStoppedBySIGINTLeavesNothing() throws {
        let h = try largeFleet()
        // More projects after blog, so that the signal falls between two of them.
        for i in 0..<40 { h.ok("project add z\(i) --name Z\(i)") }
        let path = h.dir + "/fleet.relctl.json"
        let p = Process()
        p.executableURL = URL(fileURLWithPath: Package.binary)
        p.arguments = ["--db", h.db, "export", "--all-projects", "-o", path]
        p.environment = ["TZ": "UTC", "PATH": "/usr/bin:/bin"]
        let err = Pipe()
        p.standardError = err
        p.standardOutput = FileHandle.nullDevice
        try p.run()
        // The temporary is made before the first project is read, and blog's bytes go to it before the next is.
        var temporary: String?
        for _ in 0..<20_000 where temporary == nil {
            temporary = try FileManager.default.contentsOfDirectory(atPath: h.dir).first { $0.hasPrefix(TreeFiles.tempMarker) }
            if temporary == nil { usleep(500) }
        }
        XCTAssertNotNil(temporary, "the export made its temporary")
        kill(p.processIdentifier, SIGINT)
        let message = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 1, message)
        XCTAssertTrue(message.contains("stopped (SIGINT): nothing was written to \(path)"), message)
        XCTAssertFalse(FileManager.default.fileExists(atPath: path))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: h.dir).filter { $0.hasPrefix(TreeFiles.tempMarker) }, [])
    }

    /// A row of each table a publish reads, changed by hand (insert, update,
    /// delete): the next publish renders that project only and gives the
    /// tree a full publish gives; until then verify calls the tree stale.
    func testEachTableEditedByHandRendersItsProjectOnly() throws {
        let h = fleet()
        let out = h.dir + "/out"
        XCTAssertEqual(publish(h, out)["rendered"] as? [String], ["blog", "cafe", "shop"])
        func version(_ slug: String, _ v: String) -> String {
            "(SELECT v.id FROM version v JOIN platform p ON p.id = v.platform_id JOIN project j ON j.id = p.project_id WHERE j.slug = '\(slug)' AND p.name = 'ios' AND v.version = '\(v)')"
        }
        func platform(_ slug: String) -> String {
            "(SELECT p.id FROM platform p JOIN project j ON j.id = p.project_id WHERE j.slug = '\(slug)' AND p.name = 'ios')"
        }
        let edits: [(slug: String, sql: String)] = [
            ("cafe", "UPDATE version SET policy = 'force' WHERE id = \(version("cafe", "1.0"))"),
            ("blog", "INSERT INTO note(version_id, locale, body) VALUES (\(version("blog", "1.1")), 'en-GB', 'Colour')"),
            ("shop", "DELETE FROM note WHERE version_id = \(version("shop", "2.0"))"),
            ("blog", "INSERT INTO version(platform_id, version, build, released_at) SELECT platform_id, '1.2', 120, 1780000000 FROM version WHERE id = \(version("blog", "1.1"))"),
            ("cafe", "INSERT INTO message(project_id, kind, locale, field, value) SELECT id, 'required', 'en', 'title', 'Time to update' FROM project WHERE slug = 'cafe'"),
            ("cafe", "UPDATE message SET value = 'Please update' WHERE kind = 'required'"),
            ("shop", "UPDATE maintenance SET ends_at = ends_at + 3600"),
            ("shop", "UPDATE maintenance_copy SET message = 'Back in a bit'"),
            ("shop", "UPDATE platform SET recommend_version = '1.1' WHERE name = 'ios' AND project_id = (SELECT id FROM project WHERE slug = 'shop')"),
            ("blog", "UPDATE project SET name = 'The Blog' WHERE slug = 'blog'"),
            ("cafe", "DELETE FROM message WHERE project_id = (SELECT id FROM project WHERE slug = 'cafe')"),
            // REPLACE removes a row without its delete trigger: the project that loses it is stamped too.
            ("blog shop", "INSERT OR REPLACE INTO version(id, platform_id, version, build, released_at) VALUES (\(version("shop", "1.0")), \(platform("blog")), '1.5', 150, 1780000000)"),
            ("cafe shop", "UPDATE OR REPLACE version SET id = \(version("shop", "1.1")) WHERE id = \(version("cafe", "1.1"))"),
            ("blog shop", "INSERT OR REPLACE INTO maintenance(id, project_id, starts_at, ends_at) SELECT id, (SELECT id FROM project WHERE slug = 'blog'), starts_at, ends_at FROM maintenance"),
            ("blog cafe", "INSERT OR REPLACE INTO platform(id, project_id, name, bundle_id, app_store_id, min_os) VALUES (\(platform("cafe")), (SELECT id FROM project WHERE slug = 'blog'), 'macos', 'com.example.blog', '1088280263', '12.0')"),
        ]
        for (slugs, sql) in edits {
            let rendered = slugs.split(separator: " ").map(String.init)
            let before = fileTree(out)
            try sqlite3(h, sql)
            let stale = h.run(["verify", out])
            XCTAssertEqual(stale.status, 1, sql)
            XCTAssertTrue(stale.err.contains("stale"), "\(sql): \(stale.err)")
            let s = publish(h, out)
            XCTAssertEqual(s["rendered"] as? [String], rendered, sql)
            let after = fileTree(out)
            let changed = Set(after.keys.filter { after[$0] != before[$0] }).union(before.keys.filter { after[$0] == nil })
            for slug in rendered { XCTAssertTrue(changed.contains { $0.hasPrefix(slug + "/") }, "\(sql): no file of \(slug) changed") }
            XCTAssertTrue(changed.allSatisfy { path in rendered.contains { path.hasPrefix($0 + "/") } || path == "index.json" || path == "index.html" },
                          "\(sql): \(changed.sorted())")
            XCTAssertEqual(publish(h, out)["rendered"] as? [String], [], "\(sql): then nothing to do")
            XCTAssertEqual(h.run(["verify", out]).status, 0, sql)
            let full = h.dir + "/full"
            _ = publish(h, full)
            XCTAssertEqual(fileTree(full), fileTree(out), "\(sql): the tree a full publish gives")
            try FileManager.default.removeItem(atPath: full)
        }
    }

    /// verify goes by each project's record: a hand edit to a project a
    /// `publish -p` left alone is still named, though the tree's own numbers moved on.
    func testVerifyNamesAProjectChangedByHandAfterAPublishOfAnother() throws {
        let h = fleet()
        let out = h.dir + "/out"
        _ = publish(h, out)
        try sqlite3(h, "UPDATE project SET name = 'The Blog' WHERE slug = 'blog'")
        XCTAssertEqual(h.run(["publish", out, "-p", "cafe", "--json"]).status, 0)
        let v = h.run(["verify", out, "--json"])
        XCTAssertEqual(v.status, 1, v.err)
        let report = try XCTUnwrap(v.json as? [String: Any])
        XCTAssertEqual(report["changedProjects"] as? [String], ["blog"])
        XCTAssertEqual(report["stale"] as? Bool, true)
        XCTAssertTrue(h.run(["verify", out]).out.contains("project 'blog' was changed without relctl"))
        XCTAssertEqual(publish(h, out)["rendered"] as? [String], ["blog"])
        XCTAssertEqual(h.run(["verify", out]).status, 0)
    }

    /// A database from before the stamps (schema 5) is upgraded: its projects
    /// have none until they change, a publish records none, the next one has
    /// nothing to do, and a hand edit then stamps and renders its project.
    func testADatabaseUpgradedToStampsPublishesHandEditsFromThenOn() throws {
        let h = Harness()
        let old = try Connection(path: h.db, readOnly: false, create: true)
        try old.execute("PRAGMA journal_mode = WAL")
        for sql in Schema.migrations.prefix(5) { try old.execute(sql) }
        try old.execute("PRAGMA application_id = \(Schema.applicationID)")
        try old.execute("PRAGMA user_version = 5")
        try old.execute("""
            INSERT INTO audit(at, user, project, action) VALUES (1700000000, 'tester', NULL, 'init');
            INSERT INTO project(slug, name, locales) VALUES ('shop', 'Shop', 'en'), ('cafe', 'Cafe', 'en');
            INSERT INTO platform(project_id, name, bundle_id, app_store_id, min_os) VALUES (1, 'ios', 'com.example.shop', '1088280260', '15.0'), (2, 'ios', 'com.example.cafe', '1088280261', '15.0');
            INSERT INTO version(platform_id, version, build, released_at) VALUES (1, '1.0', 100, 1700000000), (1, '1.1', 110, 1750000000), (2, '1.0', 100, 1700000000);
            """)
        let out = h.dir + "/out"
        XCTAssertEqual(publish(h, out)["rendered"] as? [String], ["cafe", "shop"])
        XCTAssertEqual(try old.scalar("PRAGMA user_version"), .int(Store.schemaVersion))
        // The stamps are the tree state's record (index.json names no database); the migration left none yet.
        let last = try XCTUnwrap(TreeState.read(root: out)?.last.flatMap(LastPublish.init(bytes:)))
        XCTAssertNotNil(last.projects["shop"])
        XCTAssertNil(last.projects["shop"]?.edits, "no stamp yet")
        XCTAssertEqual(publish(h, out)["rendered"] as? [String], [])
        try sqlite3(h, "UPDATE version SET policy = 'force' WHERE version = '1.0' AND platform_id = 1")
        XCTAssertEqual(h.run(["verify", out]).status, 1)
        XCTAssertEqual(publish(h, out)["rendered"] as? [String], ["shop"])
        XCTAssertEqual(h.run(["verify", out]).status, 0)
    }

    /// The stamps themselves: every insert, update and delete of a project's
    /// rows gives it a new stamp and the database a new edit stamp, by relctl
    /// or by hand (random: two databases, or copies of one, never count their
    /// way to the same stamps); another project's stamp stays; the revision
    /// moves with relctl's writes only (the audit trail is relctl's).
    func testStampsMoveWithEveryChangeToAProjectsRows() throws {
        let h = fleet()
        let store = try Store(path: h.db, mode: .read, user: "tester")
        func read() throws -> (revision: Int64, edits: Int64, stamps: [String: Int64]) {
            try store.read { (try store.revision(), try store.edits(), try store.projectRevisions().edits) }
        }
        var last = try read()
        XCTAssertEqual(Set(last.stamps.keys), ["blog", "cafe", "shop"])
        for (slug, sql, byRelctl) in [
            ("cafe", "notes set 1.1 -p cafe --platform ios --locale de \"Zweite\"", true),
            ("cafe", "UPDATE note SET body = 'Zweite!' WHERE locale = 'de'", false),
            ("blog", "DELETE FROM version WHERE version = '1.0' AND platform_id IN (SELECT p.id FROM platform p JOIN project j ON j.id = p.project_id WHERE j.slug = 'blog')", false),
            ("shop", "INSERT INTO maintenance_copy(window_id, locale, title, message) SELECT id, 'de', 'Wartung', 'Bald zurück' FROM maintenance", false),
            ("shop", "force 1.1 -p shop --platform ios --yes", true),
        ] {
            if byRelctl { h.ok(sql) } else { try sqlite3(h, sql) }
            let now = try read()
            XCTAssertNotEqual(now.edits, last.edits, sql)
            XCTAssertNotEqual(now.stamps[slug], last.stamps[slug], sql)
            XCTAssertEqual(now.stamps[slug], now.edits, "\(sql): the project takes the database's new stamp")
            for other in ["blog", "cafe", "shop"] where other != slug {
                XCTAssertEqual(now.stamps[other], last.stamps[other], "\(sql) moved \(other)'s stamp")
            }
            if byRelctl { XCTAssertGreaterThan(now.revision, last.revision, sql) } else { XCTAssertEqual(now.revision, last.revision, sql) }
            last = now
        }
        // A project deleted by hand moves the count, so the next publish looks at every project.
        try sqlite3(h, "PRAGMA foreign_keys = ON; DELETE FROM project WHERE slug = 'blog'")
        let now = try read()
        XCTAssertNotEqual(now.edits, last.edits)
        XCTAssertNil(now.stamps["blog"])
    }

    /// `publish --watch` wakes on any commit; with the stamps it also renders
    /// what a hand edit changed, where it used to find nothing to do.
    func testWatchPublishesAHandEdit() throws {
        let h = Harness()
        h.sample()
        let out = h.dir + "/out"
        let w = try PublishWatchTests.Watcher(h, [])
        w.wait(for: "published (start)")
        try sqlite3(h, "UPDATE version SET policy = 'force' WHERE version = '1.1'")
        w.wait(for: "published (database changed)")
        XCTAssertEqual(w.stop(), 0)
        let line = w.log.split(separator: "\n").first { $0.contains("published (database changed)") }.map(String.init) ?? ""
        XCTAssertFalse(line.contains(" 0 changed"), line)
        let retired = try String(contentsOfFile: out + "/shop/ios/retired/en.json", encoding: .utf8)
        XCTAssertTrue(retired.contains(#"{"policy":"force","version":"1.1"}"#), retired)
    }
}
