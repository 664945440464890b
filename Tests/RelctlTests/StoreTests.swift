import Foundation
import XCTest
@testable import RelctlCLI
@testable import RelctlCore
@testable import RelctlModel
@testable import RelctlStore
@testable import SQLite
import CSQLite

final class StoreTests: XCTestCase {
    func testOnlyInitCreatesADatabase() {
        let h = Harness()
        let r = h.run("project list")
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.err.contains("no relctl database at \(h.db)"))
        XCTAssertTrue(r.err.contains("relctl init") && r.err.contains("--db"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: h.db))
        // A publish without its database makes no DIR (it locks DIR early only when both are there).
        let publish = h.run(["publish", h.dir + "/out/tree"])
        XCTAssertEqual(publish.status, 1)
        XCTAssertTrue(publish.err.contains("no relctl database at \(h.db)"), publish.err)
        XCTAssertFalse(FileManager.default.fileExists(atPath: h.dir + "/out"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: h.db))
        h.ok("init")
        XCTAssertTrue(FileManager.default.fileExists(atPath: h.db))
        let again = h.ok("init")
        XCTAssertTrue(again.err.contains("already a relctl database"))
    }

    func testSchemaAndPragmas() throws {
        let h = Harness()
        h.ok("init")
        let db = try Connection(path: h.db, readOnly: true, create: false)
        XCTAssertEqual(try db.scalar("PRAGMA journal_mode"), .text("wal"))
        XCTAssertEqual(try db.scalar("PRAGMA user_version"), .int(Store.schemaVersion))
        XCTAssertEqual(try db.scalar("PRAGMA application_id"), .int(Schema.applicationID))
        let store = try Store(path: h.db, mode: .read, user: "t")
        XCTAssertEqual(try store.db.scalar("PRAGMA foreign_keys"), .int(1))
    }

    /// SQLite counts no allocation (its memory statistics take a global mutex
    /// per allocation: an eighth of a `version add`'s instructions).
    func testSQLiteKeepsNoMemoryStatistics() throws {
        let h = Harness()
        h.ok("init")
        let db = try Connection(path: h.db, readOnly: true, create: false)
        XCTAssertNotEqual(try db.scalar("SELECT count(*) FROM sqlite_schema WHERE type = 'trigger'"), .int(0))
        XCTAssertEqual(sqlite3_memory_used(), 0)
    }

    /// A column declared with "INT" anywhere in its type, either case (SQLite's
    /// rule for integer affinity), holding text is refused by name; any other is read.
    func testAColumnIsIntegerBySQLitesRule() throws {
        let h = Harness()
        let db = try Connection(path: h.dir + "/affinity.db", readOnly: false, create: true)
        let declared = ["BiGiNt": true, "POINT": true, "uint8": true, "PRINTER": true, "int": true,
                        "TEXT": false, "I": false, "IN_T": false, "tin": false, "numeric": false, "ınt": false]
        let columns = declared.keys.sorted()
        try db.run("CREATE TABLE t(" + columns.enumerated().map { "c\($0.offset) \($0.element)" }.joined(separator: ", ") + ")")
        try db.run("INSERT INTO t VALUES (" + columns.map { _ in "'x'" }.joined(separator: ", ") + ")")
        for (i, type) in columns.enumerated() {
            let read = Result { try db.query("SELECT c\(i) FROM t") }
            if declared[type]! {
                XCTAssertThrowsError(try read.get(), type) { XCTAssertTrue("\($0)".contains("t.c\(i) holds the text 'x' where a whole number belongs"), "\($0)") }
            } else {
                XCTAssertEqual(try read.get().first?[0], .text("x"), type)
            }
        }
    }

    /// `relctl_row(base)` numbers a statement's rows from base + 1, again from
    /// 1 in the next statement, and refuses a number past the largest integer
    /// rather than wrap; no trigger of a database can call it. The triggers
    /// are off only inside a `withoutTriggers` asked to turn them off (with
    /// `when` false they stay as they are), and as they were after it,
    /// nested in another or thrown out of.
    func testRowsAreNumberedAndTriggersTurnedOffOnlyWhereAsked() throws {
        let h = Harness()
        let db = try Connection(path: h.dir + "/rows.db", readOnly: false, create: true)
        try db.execute("CREATE TABLE t(k INTEGER PRIMARY KEY, n INTEGER); CREATE TABLE u(n INTEGER); CREATE TABLE fired(n INTEGER);"
                       + "CREATE TRIGGER t_fired AFTER INSERT ON u BEGIN INSERT INTO fired VALUES (NEW.n); END;")
        try db.run("INSERT INTO t(k) VALUES (30), (10), (20)")
        try db.runNumbering("UPDATE t SET n = relctl_row(?1) WHERE k IN (SELECT k FROM t ORDER BY k)", [.int(100)])
        XCTAssertEqual(try db.query("SELECT n FROM t ORDER BY k").map { $0[0] }, [.int(101), .int(102), .int(103)])
        try db.runNumbering("INSERT INTO u SELECT relctl_row(?1) FROM t ORDER BY k", [.int(0)])
        XCTAssertEqual(try db.query("SELECT n FROM u ORDER BY n").map { $0[0] }, [.int(1), .int(2), .int(3)], "counted again from 1")
        XCTAssertThrowsError(try db.runNumbering("INSERT INTO u SELECT relctl_row(?1) FROM t", [.int(Int64.max - 1)])) {
            XCTAssertTrue("\($0)".contains("past the largest integer"), "\($0)")
        }
        XCTAssertThrowsError(try db.execute("CREATE TRIGGER numbered AFTER INSERT ON t BEGIN UPDATE t SET n = relctl_row(0); END; INSERT INTO t(k) VALUES (40)")) {
            XCTAssertTrue("\($0)".contains("relctl_row"), "\($0)")
        }
        try db.execute("DROP TRIGGER IF EXISTS numbered; DELETE FROM fired")

        // One statement, prepared with the triggers off and run again with them on, fires them then.
        let insert = "INSERT INTO u VALUES (?)"
        try db.withoutTriggers {
            try db.run(insert, [.int(7)])
            try db.withoutTriggers { try db.run(insert, [.int(6)]) }
            try db.withoutTriggers(when: false) { try db.run(insert, [.int(4)]) }
            try db.run(insert, [.int(5)])
        }
        struct Stop: Error {}
        XCTAssertThrowsError(try db.withoutTriggers { try db.run(insert, [.int(8)]); throw Stop() })
        try db.run(insert, [.int(9)])
        try db.withoutTriggers(when: false) { try db.run(insert, [.int(10)]) }
        XCTAssertEqual(try db.query("SELECT n FROM fired").map { $0[0] }, [.int(9), .int(10)],
                       "fired only with the triggers on (or not asked off), after one threw; a nested call left them off")
    }

    /// A platform's versions, read by every write's lockout check, come from one index:
    /// rows added as releases come lie a page apart, one page read for each through the table.
    func testAPlatformsVersionsAreReadFromOneIndex() throws {
        let h = Harness()
        h.ok("init")
        let db = try Connection(path: h.db, readOnly: true, create: false)
        let plan = try db.query("EXPLAIN QUERY PLAN " + Store.platformVersions, [.int(1)]).map { $0.text(3) }
        XCTAssertEqual(plan.count, 1, "\(plan)")
        XCTAssertTrue(plan.first?.contains("COVERING INDEX version_rows") == true, "\(plan)")
    }

    /// A connection reads with SQLite's page cache, or the size plan and apply ask for.
    func testAConnectionsPageCacheIsSQLitesOrTheOneAskedFor() throws {
        let store = try Store.empty(user: "tester", now: 0)
        XCTAssertEqual(try store.db.scalar("PRAGMA cache_size"), .int(-2000))
        try store.cachePages(megabytes: ConfigCommands.fleetCache)
        XCTAssertEqual(try store.db.scalar("PRAGMA cache_size"), .int(-32 << 10))
    }

    /// What the file's header says of opening it (publish locks DIR first only then):
    /// this schema in WAL mode, and nothing else.
    func testOpeningWithoutWritingIsToldByTheHeader() throws {
        let h = Harness()
        XCTAssertFalse(Store.opensWithoutWriting(h.db), "missing")
        h.ok("init")
        XCTAssertTrue(Store.opensWithoutWriting(h.db))
        let db = try Connection(path: h.db, readOnly: false, create: false)
        // (The header in the file: what a checkpoint, which every upgrade ends with, wrote there.)
        try db.execute("PRAGMA user_version = \(Store.schemaVersion - 1)")
        _ = try db.scalar("PRAGMA wal_checkpoint(TRUNCATE)")
        XCTAssertFalse(Store.opensWithoutWriting(h.db), "an older schema, upgraded when opened")
        try db.execute("PRAGMA user_version = \(Store.schemaVersion)")
        _ = try db.scalar("PRAGMA wal_checkpoint(TRUNCATE)")
        XCTAssertTrue(Store.opensWithoutWriting(h.db))
        _ = try db.scalar("PRAGMA journal_mode = DELETE")
        XCTAssertFalse(Store.opensWithoutWriting(h.db), "a rollback journal, where a reader may wait behind a writer")
        XCTAssertFalse(Store.opensWithoutWriting(h.dir), "a folder")
        // A FIFO named as the database is not opened (it would wait for a writer).
        let fifo = h.dir + "/fifo.db"
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        XCTAssertFalse(Store.opensWithoutWriting(fifo))
    }

    /// publish locks DIR before the database opens only where that changes
    /// nothing but the time: DIR there, the database opening without writing
    /// or waiting, not --full, no signing key to read meanwhile.
    func testPublishLocksEarlyOnlyWhereNothingElseChanges() throws {
        let h = Harness()
        h.ok("init")
        let out = h.dir + "/out"
        XCTAssertFalse(PublishCommand.locksEarly(dir: out, database: h.db, full: false, signingKey: nil), "no DIR yet")
        XCTAssertEqual(mkdir(out, 0o755), 0)
        XCTAssertTrue(PublishCommand.locksEarly(dir: out, database: h.db, full: false, signingKey: nil))
        XCTAssertFalse(PublishCommand.locksEarly(dir: out, database: h.db, full: true, signingKey: nil))
        XCTAssertFalse(PublishCommand.locksEarly(dir: out, database: h.db, full: false, signingKey: h.dir + "/key.pem"))
        XCTAssertFalse(PublishCommand.locksEarly(dir: out, database: h.dir + "/none.db", full: false, signingKey: nil))
        let db = try Connection(path: h.db, readOnly: false, create: false)
        _ = try db.scalar("PRAGMA journal_mode = DELETE")
        XCTAssertFalse(PublishCommand.locksEarly(dir: out, database: h.db, full: false, signingKey: nil), "a rollback journal")
    }

    func testRefusesANewerSchema() throws {
        let h = Harness()
        h.ok("init")
        let db = try Connection(path: h.db, readOnly: false, create: false)
        try db.execute("PRAGMA user_version = \(Store.schemaVersion + 1)")
        h.fails("project list", "written by a newer relctl")
        h.fails("project add shop", "written by a newer relctl")
    }

    func testRefusesFilesThatAreNotRelctlDatabases() throws {
        let h = Harness()
        try Data("this is not a database, just some text that is long enough to look like a header".utf8).write(to: URL(fileURLWithPath: h.db))
        h.fails("project list", "is not an SQLite database")
        h.fails("project add shop", "is not an SQLite database")

        try FileManager.default.removeItem(atPath: h.db)
        let other = try Connection(path: h.db, readOnly: false, create: true)
        try other.execute("CREATE TABLE t(x)")
        h.fails("project list", "not a relctl one")
        h.fails("init", "not a relctl one")
    }

    func testDirectoryAndReadOnlyFile() throws {
        let h = Harness()
        try FileManager.default.createDirectory(atPath: h.db, withIntermediateDirectories: true)
        h.fails("project list", "is a directory")
        try FileManager.default.removeItem(atPath: h.db)
        h.ok("init")
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: h.db)
        h.fails("project add shop", "read-only")
        // Reading a read-only database still works.
        XCTAssertEqual(h.run("project list").status, 0)
    }

    func testNamesAreJustText() {
        let h = Harness()
        h.ok("init")
        h.ok("project add shop --name \"'; DROP TABLE project; --\"")
        let r = h.ok("--json project show shop")
        XCTAssertEqual((r.json as? [String: Any])?["name"] as? String, "'; DROP TABLE project; --")
    }

    func testAuditTrailRecordsEveryChange() {
        let h = Harness()
        h.sample()
        h.ok("notes set 2.0 --platform ios --locale tr Merhaba")
        let r = h.ok("--json log --limit 3")
        let entries = (r.json as! [String: Any])["entries"] as! [[String: Any]]
        XCTAssertEqual(entries.count, 3)
        XCTAssertEqual(entries[0]["action"] as? String, "notes set ios 2.0 tr")
        XCTAssertEqual(entries[0]["user"] as? String, "tester")
        XCTAssertEqual(entries[0]["at"] as? String, "2026-11-29T12:00:00Z")
        XCTAssertEqual(entries[0]["project"] as? String, "shop")
        let text = h.ok("log").out
        XCTAssertTrue(text.contains("version add android 1.9 build 190"))
        h.fails("log --limit 0", status: 2, "invalid --limit")
    }
}

final class MigrationTests: XCTestCase {
    /// A database written by relctl 0.1 (schema 1) is upgraded by the first
    /// command that opens it, a read included, and keeps its data.
    func testASchemaOneDatabaseIsUpgradedOnFirstUse() throws {
        let h = Harness()
        let old = try Connection(path: h.db, readOnly: false, create: true)
        try old.execute("PRAGMA journal_mode = WAL")
        try old.execute(Schema.migrations[0])
        try old.execute("PRAGMA application_id = \(Schema.applicationID)")
        try old.execute("PRAGMA user_version = 1")
        try old.execute("""
            INSERT INTO project(slug, name, rules, locales) VALUES ('shop', 'Shop', '', 'en,iw,in-ID');
            INSERT INTO platform(project_id, name, bundle_id) VALUES (1, 'ios', 'com.example.shop');
            INSERT INTO version(platform_id, version, released_at) VALUES (1, '1.0', 1700000000);
            INSERT INTO note(version_id, locale, body) VALUES (1, 'iw', 'שלום');
            INSERT INTO maintenance(id, project_id, starts_at, ends_at) VALUES (41, 1, 1700000000, 1700003600);
            """)
        let status = h.ok("--json maintenance list")
        XCTAssertEqual(((status.json as? [String: Any])?["windows"] as? [[String: Any]])?.first?["id"] as? Int, 41)
        XCTAssertEqual(try old.scalar("PRAGMA user_version"), .int(Store.schemaVersion))
        // Legacy language codes became today's.
        XCTAssertEqual(try old.scalar("SELECT locales FROM project"), .text("en,he,id-ID"))
        XCTAssertEqual(try old.scalar("SELECT locale FROM note"), .text("he"))
        let next = h.ok("--json maintenance schedule --from 2026-12-05T02:00:00Z --until 2026-12-05T03:00:00Z --yes").json as? [String: Any]
        XCTAssertEqual(next?["id"] as? Int, 42, "ids continue after the old ones")
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: h.db)
        try old.execute("PRAGMA user_version = 1")
        h.fails("status", "needs an upgrade")
    }
}

/// The schema every migration leads to, pinned: a change to a migration (or
/// a new one) shows in review as a change of Tests/RelctlTests/SchemaGolden.
/// RELCTL_UPDATE_GOLDEN=1 records it anew, and fails, as the other goldens do.
final class SchemaGoldenTests: XCTestCase {
    static let golden = Package.root + "/Tests/RelctlTests/SchemaGolden/schema.sql"

    func schema(_ c: Connection) throws -> String {
        let rows = try c.query("SELECT type, name, sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY type, name")
        guard case .int(let version) = try c.scalar("PRAGMA user_version") else { XCTFail("no user_version"); return "" }
        return "-- user_version \(version)\n" + rows.map { "-- \($0.text(0)) \($0.text(1))\n\($0.text(2));\n" }.joined()
    }

    /// The schema version is spelled out so that opening a database need not build every migration.
    func testTheSchemaVersionIsTheNumberOfMigrations() {
        XCTAssertEqual(Store.schemaVersion, Int64(Schema.migrations.count), "a migration was added: set Store.schemaVersion to its number")
    }

    func testInitMakesThePinnedSchema() throws {
        let h = Harness()
        h.ok("init")
        let made = try schema(try Connection(path: h.db, readOnly: true, create: false))
        if ProcessInfo.processInfo.environment["RELCTL_UPDATE_GOLDEN"] == "1" {
            try Data(made.utf8).write(to: URL(fileURLWithPath: SchemaGoldenTests.golden))
            XCTFail("\(SchemaGoldenTests.golden) rewritten; review 'git diff', and run again without RELCTL_UPDATE_GOLDEN")
        }
        XCTAssertEqual(made, Package.read("Tests/RelctlTests/SchemaGolden/schema.sql"), "the schema changed: review it, then RELCTL_UPDATE_GOLDEN=1")
    }

    /// A database left at any earlier schema is upgraded to the same one.
    func testEverySchemaUpgradesToThePinnedOne() throws {
        let pinned = Package.read("Tests/RelctlTests/SchemaGolden/schema.sql")
        for k in 1..<Schema.migrations.count {
            let h = Harness()
            let old = try Connection(path: h.db, readOnly: false, create: true)
            try old.execute("PRAGMA journal_mode = WAL")
            for sql in Schema.migrations.prefix(k) { try old.execute(sql) }
            try old.execute("PRAGMA application_id = \(Schema.applicationID)")
            try old.execute("PRAGMA user_version = \(k)")
            h.ok("project list")
            XCTAssertEqual(try schema(old), pinned, "from schema \(k)")
        }
    }
}
