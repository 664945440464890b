import Foundation
import XCTest
@testable import RelctlCLI
@testable import RelctlCore
@testable import RelctlStore
@testable import SQLite

/// Every write goes through one Session: undo, revert and apply included,
/// each commits only the rows it showed.
final class WriteSessionTests: XCTestCase {
    /// Every row of the configuration, the log and the histories: what "the database is unchanged" means.
    func state(_ h: Harness) throws -> [String] { try UndoTests.rows(h, also: ["audit", "audit_change", "audit_revert", "lineage", "meta"]) }

    /// Runs `args` on a terminal, answering yes; at its question another
    /// relctl runs `other` with --yes. The state right after the other writer is kept.
    func raced(_ h: Harness, _ args: [String], other: [String]) -> (status: Int32, err: String, afterOther: [String]) {
        let context = Context(env: h.env, clock: { [now = h.now] in now }, user: "tester")
        context.stdinIsTerminal = true
        var afterOther: [String] = []
        let db = h.db
        context.readLine = {
            let o = Context(env: h.env, clock: { [now = h.now] in now }, user: "other")
            let status = Runner.run(["--db", db] + other + ["--yes", "-q"], context: o, tree: Relctl.tree)
            XCTAssertEqual(status, 0, o.stderr.text)
            afterOther = (try? self.state(h)) ?? ["unreadable"]
            return "y"
        }
        let status = Runner.run(["--db", db] + args, context: context, tree: Relctl.tree)
        return (status, context.stderr.text, afterOther)
    }

    func assertRefused(_ r: (status: Int32, err: String, afterOther: [String]), _ h: Harness, _ what: String, line: UInt = #line) throws {
        XCTAssertEqual(r.status, 1, "\(what): \(r.err)", line: line)
        XCTAssertTrue(r.err.contains("the database changed while the change was shown; nothing was changed"), "\(what): \(r.err)", line: line)
        XCTAssertFalse(r.afterOther.isEmpty, line: line)
        XCTAssertEqual(try state(h), r.afterOther, "\(what) changed the database after refusing", line: line)
    }

    func lastID(_ h: Harness) -> Int {
        ((h.ok("--json log --limit 1").json as? [String: Any])?["entries"] as? [[String: Any]])?.first?["id"] as? Int ?? 0
    }

    /// With --with-later, another writer's change made while the question
    /// waits would be taken back unseen: undo and revert refuse instead.
    func testUndoAndRevertRefuseAChangeMadeWhileTheyAsk() throws {
        let h = Harness()
        h.sample()
        h.ok("force 1.1 --platform ios --yes")
        let floor = lastID(h)
        try assertRefused(raced(h, ["undo", "--with-later"], other: ["force", "2.0", "--platform", "ios"]), h, "undo")
        try assertRefused(raced(h, ["revert", String(floor), "--with-later"], other: ["force", "1.0", "--platform", "ios"]), h, "revert")
        // Asked again with nothing moving, it shows the rows now and makes them.
        XCTAssertEqual(h.run(["revert", String(floor), "--with-later"], terminal: true, answer: "y").status, 0)
        let last = ((h.ok("--json log --limit 1").json as? [String: Any])?["entries"] as? [[String: Any]])?.first
        XCTAssertEqual((last?["reverts"] as? [Int])?.count, 3, "the floor and both later floors, taken back: \(String(describing: last))")
    }

    /// A write's rows, and a plan's, are left for the process's end to free
    /// (Context.leaveToExit) only in relctl's own process: a test that runs
    /// command after command in one process frees each one's as it ends.
    func testOnlyTheProcessLeavesItsRowsForItsEnd() throws {
        final class Probe: Sendable {}
        weak var inTests: Probe?, inProcess: Probe?
        do {
            let a = Probe(), b = Probe()
            inTests = a
            inProcess = b
            Context(env: [:], clock: { 0 }, user: "tester").leaveToExit(a)
            Context.process().leaveToExit(b)
        }
        XCTAssertNil(inTests, "freed once the command is done with it")
        XCTAssertNotNil(inProcess, "kept to the process's end")
    }

    /// A preview's session (a plan's) reads the rows its changes make but logs none of
    /// them: such a session reverts nothing (a revert reads the log), is never
    /// committed, however asked, and leaves the database as it was. The same change
    /// in an ordinary session logs them, and both hold the same rows.
    func testAPreviewsSessionLogsNoRowItMakesAndIsNeverCommitted() throws {
        let h = Harness()
        h.sample()
        let before = try state(h)
        let store = try Store(path: h.db, mode: .write, user: "tester")
        let shop = try store.requireProject("shop")
        let ios = try store.platforms(project: shop.id).filter { $0.name == "ios" }
        func add(_ session: Session) throws -> (rows: [RowChange], logged: Int64) {
            _ = try session.addVersion(try Version("9.0"), build: 900, releasedAt: nil, minOS: nil, notes: (locale: "en", text: "Nine"), on: ios, of: shop, now: h.now)
            return (session.rows, try store.db.scalar("SELECT count(*) FROM audit_change WHERE after IS NOT NULL AND before IS NULL").intValue ?? -1)
        }
        let madeBefore = try store.db.scalar("SELECT count(*) FROM audit_change WHERE after IS NOT NULL AND before IS NULL").intValue ?? -1

        let preview = try store.session(forPreview: true)
        let seen = try add(preview)
        XCTAssertEqual(seen.rows.map(\.table), ["version", "note"], "the version and its note, read")
        XCTAssertEqual(seen.logged, madeBefore, "neither logged")
        XCTAssertFalse(preview.isEmpty, "the change has its audit entry")
        XCTAssertThrowsError(try preview.commit()) { XCTAssertTrue("\($0)".contains("preview"), "\($0)") }
        XCTAssertEqual(try state(h), before, "nothing committed")
        let again = try store.session(forPreview: true)
        XCTAssertEqual(try add(again).rows, seen.rows)
        let last = try XCTUnwrap(again.entries.last)
        XCTAssertThrowsError(try again.revert(last, withLater: false, now: h.now), "a revert reads the log, which lacks the rows") {
            XCTAssertTrue("\($0)".contains("preview"), "\($0)")
        }
        XCTAssertThrowsError(try again.commit(expecting: seen.rows), "nor when its rows are the ones shown")
        XCTAssertEqual(try state(h), before)

        let logged = try store.write { session in try add(session) }
        XCTAssertEqual(logged.rows, seen.rows)
        XCTAssertEqual(logged.logged, madeBefore + 2, "both logged")
        XCTAssertNotEqual(try state(h), before)
    }

    func testApplyRefusesAChangeMadeWhileItAsks() throws {
        let h = Harness()
        h.sample()
        let path = h.dir + "/shop.relctl.json"
        h.ok("export -o \(path)")
        h.ok("force 1.1 --platform ios --yes")
        // The file clears the floor 1.1; meanwhile another writer sets 2.0, which the apply would clear unseen.
        try assertRefused(raced(h, ["apply", path], other: ["force", "2.0", "--platform", "ios"]), h, "apply")
        XCTAssertEqual(h.run(["apply", path], terminal: true, answer: "y").status, 0)
    }

    /// A change logged before a column was added (schema 11's formats) has
    /// images without it: undo still finds its rows as the change left them.
    func testAChangeLoggedBeforeAColumnWasAddedIsUndone() throws {
        let h = Harness()
        h.sample()
        h.ok("rules set --release-delay 3 --yes")
        let c = try Connection(path: h.db, readOnly: false, create: false)
        try c.execute("UPDATE audit_change SET before = json_remove(before, '$.formats'), after = json_remove(after, '$.formats') WHERE tbl = 'project'")
        XCTAssertEqual(try c.scalar("SELECT count(*) FROM audit_change WHERE after LIKE '%formats%'"), .int(0))
        let r = h.run(["undo", "--yes"])
        XCTAssertEqual(r.status, 0, r.err)
        XCTAssertTrue(((h.ok("--json rules show").json as? [String: Any])?["releaseDelayDays"] as? Int) == 1, h.ok("--json rules show").out)
    }

    /// A revert whose rows already hold what they held before (a later change put them back) writes and logs nothing, and says so.
    func testARevertThatChangesNothingSaysSo() throws {
        let h = Harness()
        h.sample()
        h.ok("rules set --release-delay 3 --yes")
        let first = lastID(h)
        h.ok("rules set --release-delay 1 --yes")
        let r = h.run(["--json", "revert", String(first), "--with-later", "--yes"])
        XCTAssertEqual(r.status, 0, r.err)
        XCTAssertTrue(r.err.contains("nothing to revert: the rows of"), r.err)
        XCTAssertTrue((r.json as? [String: Any])?["id"] is NSNull, r.out)
        XCTAssertEqual(lastID(h), first + 1, "nothing logged")
    }

    /// A change's kind and platforms are columns of its log row, set from
    /// the Change value, not read back from its sentence.
    func testKindsAndPlatformsAreStoredAndQueried() throws {
        let h = Harness()
        h.sample()
        h.ok("force 1.1 --platform ios,android --yes")
        h.ok("maintenance start --for 2h --yes")
        h.ok("rules set --release-delay 3 --yes")
        let c = try Connection(path: h.db, readOnly: false, create: false)
        let rows = try c.query("SELECT kind, platforms FROM audit ORDER BY id DESC LIMIT 3").map { r in
            (r.text(0), Set(((try? JSONReader.parse(Array(r.text(1).utf8)))?.array ?? []).compactMap(\.string)))
        }
        XCTAssertEqual(rows.map(\.0), ["rules set", "maintenance start", "force"])
        XCTAssertEqual(rows.map(\.1), [[], ["ios", "android"], ["ios", "android"]], "a window for every platform names each one")

        func actions(_ args: String) -> [String] {
            ((h.ok("--json log \(args)").json as? [String: Any])?["entries"] as? [[String: Any]])?.compactMap { $0["action"] as? String } ?? []
        }
        let android = actions("--platform android --limit 3")
        XCTAssertEqual(android.count, 3, "\(android)")
        XCTAssertTrue(android[0].hasPrefix("maintenance start") && android[1].hasPrefix("force"), "\(android)")
        XCTAssertEqual(actions("--action maintenance").count, 1, "a kind's first word matches its kinds")
        XCTAssertEqual(actions("--action \"maintenance start\"").count, 1)
        XCTAssertEqual(actions("--action start"), [], "a word inside a kind is not a kind")

        // The kind is data: an action edited by hand keeps it.
        try c.execute("UPDATE audit SET action = 'edited' WHERE kind = 'force'")
        XCTAssertEqual(actions("--action force"), ["edited"])
        // A row from before platforms were recorded (schema 10) is matched by the words of its action.
        try c.execute("UPDATE audit SET platforms = NULL, action = 'force ios,android 1.1' WHERE kind = 'force'")
        XCTAssertEqual(actions("--platform android --action force"), ["force ios,android 1.1"])
        XCTAssertEqual(actions("--platform macos --action force"), [])
        let json = (h.ok("--json log --action force").json as? [String: Any])?["entries"] as? [[String: Any]]
        XCTAssertTrue(json?.first?["platforms"] is NSNull, "\(String(describing: json))")
        // A value that is no list of names is a bad row, named.
        try c.execute("UPDATE audit SET platforms = '{' WHERE kind = 'force'")
        h.fails("log --action force", "has a bad row: audit entry #")
    }

    /// One declaration per column: a column added to a fixture's version
    /// table reaches the capture's triggers and images, the edit stamps,
    /// the words of a change and its --json name.
    func testAColumnDeclaredOnceReachesEveryDerivedList() throws {
        let added = CapturedColumn("rollout_at", json: "rolloutAt", words: "rollout", time: true)
        var tables = ChangeCapture.tables
        let i = try XCTUnwrap(tables.firstIndex { $0.name == "version" })
        let v = tables[i]
        tables[i] = CapturedTable(v.name, json: v.json, key: v.key, parent: v.parent, replaceable: v.replaceable, mark: v.mark, project: v.project, v.declared + [added])
        XCTAssertEqual(tables[i].columns.last, "rollout_at")

        // A real database with the column, its triggers made again from the fixture, as a migration would.
        let h = Harness()
        h.sample()
        let c = try Connection(path: h.db, readOnly: false, create: false)
        try c.execute("ALTER TABLE version ADD COLUMN rollout_at INTEGER")
        for t in ["inserted", "updated", "deleted"] { try c.execute("DROP TRIGGER capture_version_\(t)") }
        try c.execute(Schema.dropStampTriggers(Schema.stamped([v])))
        try c.execute(ChangeCapture.triggers([tables[i]], marked: true) + Schema.stampTriggers(Schema.stamped([tables[i]]), counting: false, marked: true))
        let stamp = try c.scalar("SELECT n FROM edit_count")
        try c.execute("INSERT INTO capture_on(on_) VALUES (1)")
        try c.execute("UPDATE version SET rollout_at = 1796212800 WHERE version = '2.0.0'")
        let noted = try XCTUnwrap(try c.query("SELECT before FROM row_change").first?.string(0))
        XCTAssertTrue(noted.contains(#""rollout_at":null"#), noted)
        let now = try XCTUnwrap(try c.query("SELECT \(ChangeCapture.image(tables[i], "version")) FROM version WHERE version = '2.0.0'").first?.string(0))
        XCTAssertTrue(now.contains(#""rollout_at":1796212800"#), now)
        XCTAssertNotEqual(try c.scalar("SELECT n FROM edit_count"), stamp, "the edit stamp moved")
        try ChangeCapture.end(c)

        // How it reads for people and in --json.
        let store = try Store(path: h.db, mode: .read, user: "tester")
        let row = RowChange(table: "version", key: [.int(1)], before: ["id": .int(1), "platform_id": .int(1), "version": .string("1.0"), "rollout_at": .null],
                            after: ["id": .int(1), "platform_id": .int(1), "version": .string("1.0"), "rollout_at": .int(1_796_212_800)])
        let words = try ChangeWords([row], store: store, time: { "at \($0)" }, tables: tables)
        XCTAssertEqual(words.line(0), "~ version ios 1.0: rollout none → at 1796212800")
        guard case .object(let json) = LogCommand.json(row, tables: tables) else { return XCTFail("not an object") }
        XCTAssertEqual(json["changed"], .array([.string("rolloutAt")]))
        guard case .object(let after)? = json["after"] else { return XCTFail("no after") }
        XCTAssertEqual(after["rolloutAt"], .time(1_796_212_800))
        // The schema's own tables say nothing of it.
        XCTAssertEqual(CapturedTable.column("version", "rollout_at").words, "rollout_at")
    }
}
