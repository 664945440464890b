import Foundation
import XCTest
@testable import RelctlCLI
@testable import RelctlStore
@testable import SQLite
@testable import RelctlPublish

/// What a team relies on when it keeps the configuration in git and CI
/// applies it: drift shown apart, an emergency window never ended by an
/// older file, and exit codes CI can read without parsing.
final class TeamPlanTests: XCTestCase {
    func exported(_ h: Harness) -> String {
        let path = h.dir + "/shop.relctl.json"
        h.ok("export -o \(path)")
        return path
    }

    func plan(_ h: Harness, _ path: String) -> [String: Any] {
        let r = h.run(["plan", path, "--json"])
        XCTAssertEqual(r.status, 0, r.err)
        return (r.json as? [String: Any])?["projects"].flatMap { ($0 as? [[String: Any]])?.first } ?? [:]
    }

    /// A colleague's command and a hand edit made after the export are
    /// listed apart, naming the change (or "by hand"); the file's own edit is not.
    func testDriftIsListedApartWithWhoAndWhen() throws {
        let h = Harness()
        h.sample()
        let path = exported(h)
        // The file's own edit: a recommend floor for android.
        var text = try String(contentsOfFile: path, encoding: .utf8)
        let android = try XCTUnwrap(text.range(of: #""android": {"#))
        let recommend = try XCTUnwrap(text.range(of: #""recommend": null"#, range: android.upperBound..<text.endIndex))
        text.replaceSubrange(recommend, with: #""recommend": {"build":null,"deadline":null,"version":"1.9"}"#)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        // A colleague's change, logged, and a hand edit.
        h.ok("force 1.1 --platform ios --yes")
        let c = try Connection(path: h.db, readOnly: false, create: false)
        try c.execute("UPDATE version SET min_os = '14.0' WHERE version = '1.0'")

        let r = h.run(["plan", path])
        XCTAssertEqual(r.status, 0, r.err)
        let lines = r.out.split(separator: "\n").map(String.init)
        let heading = try XCTUnwrap(lines.firstIndex { $0.contains("changed in the database since the file was exported or applied; applying takes them back:") }, r.out)
        let apart = lines[(heading + 1)...].prefix { $0.hasPrefix("    ") }
        XCTAssertEqual(apart.count, 2, r.out)
        XCTAssertTrue(apart.contains { $0.contains("~ platform ios: force floor '1.1' → none") && $0.contains("force ios 1.1, by tester") }, r.out)
        XCTAssertTrue(apart.contains { $0.contains("~ version ios 1.0: min os '14.0' → none") && $0.hasSuffix("(by hand)") }, r.out)
        XCTAssertTrue(lines[..<heading].contains { $0.contains("~ platform android: recommend floor none → '1.9'") }, "the file's edit is an ordinary row: \(r.out)")
        XCTAssertFalse(lines[..<heading].contains { $0.contains("force floor") }, "a drift row is not listed twice: \(r.out)")

        let drift = plan(h, path)["drift"] as? [[String: Any]] ?? []
        XCTAssertEqual(drift.count, 2)
        XCTAssertEqual(drift.filter { $0["entry"] is NSNull }.count, 1, "the hand edit names no entry")
        XCTAssertEqual((drift.compactMap { $0["entry"] as? [String: Any] }.first?["user"] as? String), "tester")

        // apply's preview says the same before it asks.
        let asked = h.run(["apply", path], terminal: true, answer: "n")
        XCTAssertTrue(asked.err.contains("applying takes them back:"), asked.err)
        XCTAssertTrue(asked.err.contains("(by hand)"), asked.err)
        XCTAssertEqual(asked.err.components(separatedBy: "force floor '1.1' → none").count, 2, "a drift row is said once, apart: \(asked.err)")
    }

    /// A part edited in the file and in the database since is a conflict, said as such.
    func testAPartEditedOnBothSidesIsSaidToBe() throws {
        let h = Harness()
        h.sample()
        let path = exported(h)
        var text = try String(contentsOfFile: path, encoding: .utf8)
        let ios = try XCTUnwrap(text.range(of: #""ios": {"#))
        let force = try XCTUnwrap(text.range(of: #""force": null"#, range: ios.upperBound..<text.endIndex))
        text.replaceSubrange(force, with: #""force": {"build":null,"deadline":null,"version":"2.0"}"#)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        h.ok("force 1.1 --platform ios --yes")
        let r = h.ok("plan \(path)")
        XCTAssertTrue(r.out.contains("~ platform ios: force floor '1.1' → '2.0' (edited in the file too; #"), r.out)
        // A file written before relctl kept histories tells nothing apart.
        let bare = h.dir + "/bare.relctl.json"
        try withoutLineage(text).write(toFile: bare, atomically: true, encoding: .utf8)
        XCTAssertFalse(h.ok("plan \(bare)").out.contains("applying takes"), "no history, no drift claimed")
    }

    /// A database behind the file, or one without the project, is brought
    /// up to it: nothing of it is drift.
    func testNoDriftWhereTheDatabaseIsBehindOrEmpty() throws {
        let h = Harness()
        h.sample()
        let first = exported(h)
        let behind = h.dir + "/behind.db"
        XCTAssertEqual(h.run(["apply", first, "--yes"], database: behind).status, 0)
        h.ok("force 1.1 --platform ios --yes")
        let second = h.dir + "/second.relctl.json"
        h.ok("export -o \(second)")
        let ahead = h.run(["plan", second], database: behind)
        XCTAssertEqual(ahead.status, 0, ahead.err)
        XCTAssertTrue(ahead.out.contains("~ platform ios: force floor none → '1.1'"), ahead.out)
        XCTAssertFalse(ahead.out.contains("applying takes"), "the file is ahead, not the database: \(ahead.out)")
        let empty = h.run(["plan", second], database: h.dir + "/none.db")
        XCTAssertTrue(empty.out.contains("shop: created") && !empty.out.contains("applying takes"), empty.out)
    }

    /// A project the database holds without any history (its rows made by
    /// hand, with sqlite3): a row the file changes is drift, one it adds is not.
    func testARowMadeByHandWithoutHistoryIsDrift() throws {
        let h = Harness()
        h.sample()
        let path = exported(h)
        let c = try Connection(path: h.db, readOnly: false, create: false)
        try c.execute("DELETE FROM lineage")
        try c.execute("UPDATE version SET min_os = '14.0' WHERE version = '1.0'")
        let r = h.run(["plan", path])
        XCTAssertEqual(r.status, 0, r.err)
        XCTAssertTrue(r.out.contains("applying takes it back:"), r.out)
        XCTAssertTrue(r.out.contains("~ version ios 1.0: min os '14.0' → none") && r.out.contains("(by hand)"), r.out)
        // Only the rows it adds: nothing here to take back.
        try c.execute("PRAGMA foreign_keys = ON")
        try c.execute("DELETE FROM version WHERE version = '1.0'")
        let added = h.run(["plan", path])
        XCTAssertTrue(added.out.contains("+ version ios 1.0"), added.out)
        XCTAssertFalse(added.out.contains("applying takes"), added.out)
    }

    /// Rows all added can still be drift where the database has a history:
    /// a version removed since the export keeps its part's, the removal first.
    func testAVersionRemovedSinceTheFileIsDriftWhenTheFileBringsItBack() throws {
        let h = Harness()
        h.sample()
        let path = exported(h)
        h.ok("version rm 1.0 --platform ios --yes")
        let r = h.run(["plan", path])
        XCTAssertEqual(r.status, 0, r.err)
        let lines = r.out.split(separator: "\n").map(String.init)
        let heading = try XCTUnwrap(lines.firstIndex { $0.contains("applying takes them back:") }, r.out)
        let drift = lines[(heading + 1)...].prefix { $0.hasPrefix("    ") }
        // Made again, the row has an id of its own: its cause is found by what it is, the removal.
        let removal = "version rm ios 1.0, by "
        XCTAssertTrue(drift.contains { $0.contains("+ version ios 1.0") && $0.contains(removal) }, r.out)
        XCTAssertTrue(drift.contains { $0.contains("+ note en of ios 1.0") && $0.contains(removal) }, r.out)
        XCTAssertFalse(r.out.contains("by hand"), r.out)
    }

    /// A row the database lacks is "by hand" when the last logged change of
    /// it left it there: removed with sqlite3, or after a logged removal
    /// made again and then removed by hand.
    func testARowRemovedByHandIsSaidToBe() throws {
        let h = Harness()
        h.sample()
        let path = exported(h)
        h.ok("version rm 1.0 --platform ios --yes")
        h.ok("version add 1.0 --platform ios --build 100 --released 2026-01-01T00:00:00Z --notes First")
        let c = try Connection(path: h.db, readOnly: false, create: false)
        try c.execute("PRAGMA foreign_keys = ON")
        try c.execute("DELETE FROM version WHERE version = '1.1'")
        try c.execute("DELETE FROM version WHERE version = '1.0'")
        let r = h.run(["plan", path])
        XCTAssertEqual(r.status, 0, r.err)
        for row in ["+ version ios 1.0", "+ note en of ios 1.0", "+ version ios 1.1", "+ note en of ios 1.1"] {
            XCTAssertTrue(r.out.split(separator: "\n").contains { $0.contains(row) && $0.hasSuffix("(by hand)") }, "\(row): \(r.out)")
        }
        XCTAssertFalse(r.out.contains("version rm"), r.out)
    }

    /// A version or a platform the file brings back while the database's
    /// newest (added since) goes: the change makes the one and removes the
    /// other, and never gives the removed one's id to the one it makes,
    /// which the plan, the log and undo would show as one row renamed.
    func testARowTheApplyRemovesIsNotShownAsTheOneItMakes() throws {
        let h = Harness()
        h.sample()
        let path = exported(h)
        // Android 1.9 has the newest id; 1.8 takes it again, and its build.
        h.ok("version rm 1.9 --platform android --yes")
        h.ok("version add 1.8 --platform android --build 190 --notes Fixes")
        h.ok("notes rm 1.8 --platform android --locale en --yes")
        // The log names each change's rows by its own images, though the two versions had one id.
        let three = h.ok("log --limit 3").out
        XCTAssertTrue(three.contains("- note en of android 1.8") && three.contains("+ note en of android 1.8") && three.contains("- version android 1.9"), three)
        h.ok("notes set 1.8 --platform android --locale en Fixes")
        let r = h.run(["plan", path])
        XCTAssertEqual(r.status, 0, r.err)
        XCTAssertFalse(r.out.contains("~ version"), r.out)
        XCTAssertTrue(r.out.split(separator: "\n").contains { $0.contains("- version android 1.8 (#") && $0.contains(" version add android 1.8 build 190, by ") }, r.out)
        XCTAssertTrue(r.out.split(separator: "\n").contains { $0.contains("+ version android 1.9 (#") && $0.contains(" version rm android 1.9, by ") }, r.out)
        h.ok("apply \(path) --yes")
        let log = h.ok("log --limit 1").out
        XCTAssertTrue(log.contains("- version android 1.8") && log.contains("- note en of android 1.8") && log.contains("+ version android 1.9")
                      && !log.contains("~ "), log)
        XCTAssertTrue(h.ok("plan \(path)").out.contains("no changes"))
        h.ok("undo --yes")
        let versions = h.ok("version list --platform android --json").out
        XCTAssertTrue(versions.contains("\"1.8\"") && !versions.contains("\"1.9\""), versions)

        // A platform: android removed, ipados added since (it takes android's id).
        h.ok("apply \(path) --yes")
        h.ok("platform rm android --yes")
        h.ok("platform add ipados --bundle-id com.example.shop")
        let p = h.run(["plan", path])
        XCTAssertEqual(p.status, 0, p.err)
        XCTAssertFalse(p.out.contains("~ platform"), p.out)
        XCTAssertTrue(p.out.contains("- platform ipados (#") && p.out.contains("+ platform android (#"), p.out)
        XCTAssertTrue(p.out.contains("+ version android 1.9 (#") && !p.out.contains("by hand"), p.out)
    }

    /// A project removed and made again under its slug keeps its parts'
    /// histories: the removal of a row it had before is found past the
    /// entry that made it again.
    func testARemovalIsFoundPastAProjectMadeAgain() throws {
        let h = Harness()
        h.sample()
        let path = exported(h)
        h.ok("version rm 2.0 --platform ios --yes")
        let older = h.dir + "/older.json"
        h.ok("export -o \(older)")
        h.ok("project rm shop --yes")
        h.ok("apply \(older) --yes")
        let r = h.run(["plan", path])
        XCTAssertEqual(r.status, 0, r.err)
        let lines = r.out.split(separator: "\n")
        XCTAssertTrue(lines.contains { $0.contains("+ version ios 2.0 (#") && $0.contains(" version rm ios 2.0, by ") }, r.out)
    }

    /// The versions the file drops go once every platform's are made: a
    /// platform taken later never takes the id another platform freed.
    func testAVersionRemovedOnOnePlatformLeavesItsIdToNoneMadeOnAnother() throws {
        let h = Harness()
        h.sample()
        let path = exported(h)
        // Android (taken first) gets the newest id; the file drops it and brings back iOS 2.0.
        h.ok("version rm 2.0 --platform ios --yes")
        h.ok("version add 2.1 --platform android --build 210")
        let r = h.run(["plan", path])
        XCTAssertEqual(r.status, 0, r.err)
        XCTAssertFalse(r.out.contains("~ version"), r.out)
        let lines = r.out.split(separator: "\n")
        XCTAssertTrue(lines.contains { $0.contains("- version android 2.1 (#") && $0.contains(" version add android 2.1 build 210, by ") }, r.out)
        XCTAssertTrue(lines.contains { $0.contains("+ version ios 2.0 (#") && $0.contains(" version rm ios 2.0, by ") }, r.out)
    }

    /// Several projects' changes in one plan: each change's rows are named by
    /// its own, though one project's removed version and another's made one
    /// had one id.
    func testEachProjectsRowsAreNamedByItsOwnChange() throws {
        let h = Harness()
        h.ok("init")
        for slug in ["a", "b"] {
            h.ok("project add \(slug) --name \(slug.uppercased())")
            h.ok("platform add ios -p \(slug) --bundle-id com.example.\(slug)")
            h.ok("version add 1.0 -p \(slug) --platform ios --build 100 --notes First")
        }
        let path = h.dir + "/fleet.json"
        h.ok("export --all-projects -o \(path)")
        // b's 1.0 goes; a's 3.0 takes its id. The plan removes a's 3.0, then makes b's 1.0 again on that id.
        h.ok("version rm 1.0 -p b --platform ios --yes")
        h.ok("version add 3.0 -p a --platform ios --build 300 --notes Third")
        let r = h.run(["plan", path])
        XCTAssertEqual(r.status, 0, r.err)
        XCTAssertTrue(r.out.contains("- note en of ios 3.0 (#"), r.out)
        XCTAssertTrue(r.out.contains("+ note en of ios 1.0 (#"), r.out)
        XCTAssertFalse(r.out.contains("- note en of ios 1.0"), r.out)
    }

    /// A log written before apply removed last may hold, in one entry, a
    /// version removed and another made on its id, with their notes: each
    /// image is named by the entry's images on its side, in the log and
    /// when a file brings the removed one back.
    func testAnEntryThatGaveARemovedIdAgainIsReadSideBySide() throws {
        let h = Harness()
        h.sample()
        h.ok("notes set 1.0 --platform ios --locale de Erste")
        let path = exported(h)
        h.ok("version rm 1.0 --platform ios --yes")
        h.ok("version add 2.1 --platform ios --build 210 --notes Fixes")
        // As an apply before that change logged it: one entry, 2.1 made on 1.0's id.
        let c = try Connection(path: h.db, readOnly: false, create: false)
        let removal = try XCTUnwrap(try c.query("SELECT max(audit_id) - 1 FROM audit_change", []).first?.int(0))
        let made = removal + 1
        let old = try XCTUnwrap(try c.query("SELECT json_extract(before, '$.id') FROM audit_change WHERE audit_id = ? AND tbl = 'version'", [.int(removal)]).first?.int(0))
        let new = try XCTUnwrap(try c.query("SELECT id FROM version WHERE version = '2.1'", []).first?.int(0))
        try sqlite3(h, """
            UPDATE version SET id = \(old) WHERE id = \(new);
            UPDATE note SET version_id = \(old) WHERE version_id = \(new);
            UPDATE audit_change SET before = (SELECT before FROM audit_change r WHERE r.audit_id = \(removal) AND r.tbl = audit_change.tbl
                                              AND r.row_key = replace(audit_change.row_key, '\(new)', '\(old)')),
                row_key = replace(row_key, '\(new)', '\(old)'),
                after = replace(replace(after, '"id":\(new)', '"id":\(old)'), '"version_id":\(new)', '"version_id":\(old)'),
                audit_id = \(removal), seq = seq + 100
                WHERE audit_id = \(made);
            DELETE FROM audit_change WHERE audit_id = \(removal) AND seq < 100 AND tbl || row_key IN
                (SELECT tbl || row_key FROM audit_change WHERE audit_id = \(removal) AND seq >= 100);
            DELETE FROM audit WHERE id = \(made);
            """)
        let log = h.ok("log --limit 1").out
        XCTAssertTrue(log.contains("- note de of ios 1.0"), log)
        XCTAssertTrue(log.contains("~ version ios 2.1: build 100 → 210"), log)
        let r = h.run(["plan", path])
        XCTAssertEqual(r.status, 0, r.err)
        let lines = r.out.split(separator: "\n")
        for row in ["+ version ios 1.0 (#", "+ note en of ios 1.0 (#", "+ note de of ios 1.0 (#"] {
            XCTAssertTrue(lines.contains { $0.contains(row) && $0.contains(" version rm ios 1.0, by ") }, "\(row): \(r.out)")
        }
    }

    /// An active window the file does not list (an on-call's emergency window,
    /// started after the export) stays on: plan and apply say so, and only
    /// --end-active-windows ends it.
    func testApplyNeverEndsAnActiveWindowUnasked() throws {
        let h = Harness()
        h.sample()
        let path = exported(h)
        h.ok("maintenance start --for 2h --yes")
        let planned = h.ok("plan \(path)")
        XCTAssertTrue(planned.out.contains("no changes"), planned.out)
        XCTAssertTrue(planned.out.contains("maintenance window #1 is on and the file does not list it: it stays on"), planned.out)
        let applied = h.ok("apply \(path) --yes")
        XCTAssertTrue(applied.err.contains("warning: shop: maintenance window #1 is on"), applied.err)
        XCTAssertTrue(h.ok("check 2.0 --platform ios").out.contains("maintenance"), "the window is still on")
        let ended = h.ok("apply \(path) --yes --end-active-windows")
        XCTAssertTrue(ended.err.contains("applied"), ended.err)
        XCTAssertFalse(h.ok("check 2.0 --platform ios").out.contains("maintenance"), "asked for, the window ends")
        // An upcoming window the file does not list is still cancelled, as before.
        h.ok("maintenance schedule --from 2026-12-20T02:00:00Z --for 2h --yes")
        XCTAssertTrue(h.ok("plan \(path)").out.contains("cancelled"), "an upcoming window is cancelled")
    }

    /// CI reads exit codes: changes are 3, which no error uses; a broken
    /// file is 1, a misuse 2, no change 0. A missing database is an empty one.
    func testPlanExitCodesAndAMissingDatabase() throws {
        let h = Harness()
        h.sample()
        let path = exported(h)
        XCTAssertEqual(h.run(["plan", path, "--exit-code"]).status, 0)
        h.ok("force 1.1 --platform ios --yes")
        XCTAssertEqual(h.run(["plan", path, "--exit-code"]).status, ExitStatus.changes)
        XCTAssertEqual(ExitStatus.changes, 3)
        XCTAssertFalse(ExitStatus.codes.dropLast().contains { $0.code == ExitStatus.changes }, "no error shares it")
        let broken = h.dir + "/broken.json"
        try "{".write(toFile: broken, atomically: true, encoding: .utf8)
        XCTAssertEqual(h.run(["plan", broken, "--exit-code"]).status, 1)
        XCTAssertEqual(h.run(["plan", h.dir + "/none.json", "--exit-code"]).status, 1)
        XCTAssertEqual(h.run(["plan", path, "--exit-code", "--bogus"]).status, 2)

        // No database yet: planned from empty, and apply creates it.
        let fresh = h.dir + "/new/relctl.db"
        try FileManager.default.createDirectory(atPath: h.dir + "/new", withIntermediateDirectories: true)
        let planned = h.run(["plan", path, "--exit-code"], database: fresh)
        XCTAssertEqual(planned.status, ExitStatus.changes, planned.err)
        XCTAssertTrue(planned.err.contains("planned against an empty one"), planned.err)
        XCTAssertTrue(planned.out.contains("shop: created"), planned.out)
        XCTAssertFalse(FileManager.default.fileExists(atPath: fresh), "plan made no database")
        // Refused (no --yes off a terminal): no database is left behind.
        XCTAssertEqual(h.run(["apply", path], database: fresh).status, 2)
        XCTAssertFalse(FileManager.default.fileExists(atPath: fresh), "a refused apply left a database")
        XCTAssertEqual(h.run(["apply", path, "--dry-run"], database: fresh).status, 0)
        XCTAssertFalse(FileManager.default.fileExists(atPath: fresh), "a dry run left a database")
        let applied = h.run(["apply", path, "--yes"], database: fresh)
        XCTAssertEqual(applied.status, 0, applied.err)
        XCTAssertTrue(applied.err.contains("created \(fresh)"), applied.err)
        // Only a database this process made, and nothing else wrote to, is removed again.
        let other = h.dir + "/other.db"
        XCTAssertEqual(h.run(["init"], database: other).status, 0)
        XCTAssertEqual(h.run(["project", "add", "blog"], database: other).status, 0)
        Store.removeIfUnused(other, user: "tester")
        XCTAssertTrue(FileManager.default.fileExists(atPath: other), "a database written to is kept")
        let unused = h.dir + "/unused.db"
        XCTAssertEqual(h.run(["init"], database: unused).status, 0)
        Store.removeIfUnused(unused, user: "tester")
        XCTAssertFalse(FileManager.default.fileExists(atPath: unused))
        XCTAssertEqual(h.run(["plan", path, "--exit-code"], database: fresh).status, 0, "the new database holds the file")
    }
}

/// Smaller things a team met: who the log names, and examples it can type.
final class TeamSmallerTests: XCTestCase {
    /// Without $USER (a CI job, a container), the log names the password file's user, not "uid 0".
    func testTheLogNamesTheUserFromThePasswordFile() throws {
        let dir = NSTemporaryDirectory() + "relctl-passwd-\(getpid())"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let passwd = dir + "/passwd"
        try "root:x:999999:0::/:/bin/sh\nci-runner:x:\(geteuid()):\(getegid())::/home/ci:/bin/sh\n".write(toFile: passwd, atomically: true, encoding: .utf8)
        XCTAssertEqual(FileSystem.currentUser(env: [:], passwd: passwd), "ci-runner")
        XCTAssertEqual(FileSystem.currentUser(env: ["USER": "alice"], passwd: passwd), "alice", "$USER first, as git does")
        try "other:x:999999:0::/:/bin/sh\n".write(toFile: passwd, atomically: true, encoding: .utf8)
        XCTAssertEqual(FileSystem.currentUser(env: [:], passwd: passwd), "uid \(geteuid())")
        XCTAssertEqual(FileSystem.currentUser(env: [:], passwd: dir + "/none"), "uid \(geteuid())")
    }

    /// One rule for a duration: a sign says its way; without one it goes the
    /// only way the option means, and --released, which may go either, asks for the sign.
    func testADurationSaysItsWayAndAReleaseAheadIsSaid() throws {
        let h = Harness()
        h.sample()
        let bare = h.fails("version add 3.0 --platform ios --build 300 --released 2d", status: 2, "--released 2d does not say which way")
        XCTAssertTrue(bare.err.contains("--released -2d for 2d ago, or --released +2d for 2d from now"), bare.err)
        let ahead = h.ok("version add 3.0 --platform ios --build 300 --released +2d")
        XCTAssertTrue(ahead.err.contains("note: 3.0 is recorded as released 2026-12-01 12:00 UTC (in 2 d): until then no app is offered it"), ahead.err)
        let past = h.ok("version add 3.1 --platform ios --build 310 --released -2d")
        XCTAssertFalse(past.err.contains("recorded as released"), past.err)
        XCTAssertTrue(h.ok("version show 3.1 --platform ios").out.contains("2026-11-27 12:00 UTC"), "two days back")
        h.fails("version edit 3.1 --platform ios --released 2d", status: 2, "does not say which way")
        // log --since goes back, with or without the sign.
        let since = { (w: String) in ((h.ok("--json log --since \(w)").json as? [String: Any])?["entries"] as? [Any])?.count ?? -1 }
        XCTAssertEqual(since("1h"), since("-1h"))
        XCTAssertGreaterThan(since("1h"), 0)
    }

    /// The message users read counts: a deadline moved shows in the preview,
    /// and a grace period dropped is a warning -q keeps.
    func testAMessageChangeIsImpactAndADroppedGracePeriodIsWarned() throws {
        let h = Harness()
        h.sample()
        h.ok("force 2.0 --platform ios --after 7d --yes")
        let moved = h.run(["force", "--after", "14d", "--platform", "ios"], terminal: true, answer: "n")
        XCTAssertTrue(moved.err.contains("ios: 1.0 (100), 1.1 (110): stays optional, told it is required from 2026-12-13 12:00 UTC (in 14 d), not 2026-12-06 12:00 UTC (in 7 d)"), moved.err)
        XCTAssertFalse(moved.err.contains("no install changes what it sees now"), moved.err)
        let quiet = h.ok("force --no-deadline --platform ios --yes -q")
        XCTAssertTrue(quiet.err.contains("warning: ios: this drops the deadline of 2.0"), quiet.err)
    }

    /// A time the configuration file refuses is explained with an example the file takes.
    func testAFileTimeErrorShowsATimeTheFileTakes() throws {
        let h = Harness()
        h.sample()
        let path = h.dir + "/shop.relctl.json"
        h.ok("export -o \(path)")
        let text = try String(contentsOfFile: path, encoding: .utf8).replacingOccurrences(of: #""released":"2026-01-01T00:00:00Z""#, with: #""released":"yesterday""#)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let r = h.fails("plan \(path)", "must be a UTC time")
        XCTAssertTrue(r.err.contains(#"like "2026-12-01T02:00:00Z""#), r.err)
        XCTAssertFalse(r.err.contains("export -o"), "the hint does not overwrite the edited file: \(r.err)")
    }
}

/// A project declares the formats its apps read; publish writes, proves and warns about only those.
final class ServedFormatsTests: XCTestCase {
    func testOnlyTheServedFormatsArePublishedProvenAndWarnedAbout() throws {
        let h = Harness()
        h.sample()
        let all = h.run(["publish", h.dir + "/all"])
        XCTAssertEqual(all.status, 0, all.err)
        XCTAssertTrue(all.err.contains("not carried"), "every format: the usual limits are said: \(all.err)")
        h.ok("project edit shop --formats control,siren")
        XCTAssertTrue(h.ok("project show").out.contains("formats:        control, siren"))
        let r = h.run(["publish", h.dir + "/out"])
        XCTAssertEqual(r.status, 0, r.err)
        let files = try FileManager.default.subpathsOfDirectory(atPath: h.dir + "/out").filter { $0.hasSuffix(".json") || $0.hasSuffix(".xml") }.sorted()
        XCTAssertEqual(files.filter { $0.hasPrefix("shop/") }, ["shop/control.json", "shop/ios/lookup/en.json", "shop/ios/siren.json"], "\(files)")
        for client in ["Retired", "AndVersion", "Prince of Versions", "upgrader"] {
            XCTAssertFalse(r.err.contains(client), "\(client) is not served, so not warned about: \(r.err)")
        }
        XCTAssertEqual(h.run(["verify", h.dir + "/out"]).status, 0, "what is published is proven")
        // The file carries it, and a database built from the file serves the same.
        let path = h.dir + "/shop.relctl.json"
        h.ok("export -o \(path)")
        XCTAssertTrue(try String(contentsOfFile: path, encoding: .utf8).contains(#""formats": ["control","siren"]"#))
        let fresh = h.dir + "/fresh.db"
        XCTAssertEqual(h.run(["apply", path, "--yes"], database: fresh).status, 0)
        XCTAssertEqual(h.run(["export"], database: fresh).out, h.ok("export").out)
        // Back to every format: the key leaves the file, as before formats were chosen.
        h.ok("project edit shop --formats all")
        XCTAssertFalse(h.ok("export").out.contains("\"formats\""))
    }

    func testAFormatListIsCheckedAndABadRowIsNamed() throws {
        let h = Harness()
        h.sample()
        h.fails("project edit shop --formats control,sirne", status: 2, "unknown format 'sirne' in --formats")
        h.fails("project edit shop --formats all,siren", status: 2, "names a format twice, or 'all' beside others")
        h.fails("project edit shop --formats siren,siren", status: 2, "names a format twice")
        let c = try Connection(path: h.db, readOnly: false, create: false)
        try c.execute("UPDATE project SET formats = 'control,telegram' WHERE slug = 'shop'")
        h.fails("publish \(h.dir)/out", "has a bad row: project 'shop': its formats 'control,telegram'")
    }
}
