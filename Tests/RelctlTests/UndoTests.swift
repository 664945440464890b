import Foundation
import XCTest
@testable import RelctlCLI
@testable import RelctlStore
@testable import SQLite

/// A history that is data: every change records its rows before and after,
/// `undo` and `revert` put them back in one logged transaction, and refuse
/// (the database unchanged) when later changes or hand edits are in the way.
final class UndoTests: XCTestCase {
    /// Every row of every table that holds configuration, in key order:
    /// what "the database is as it was" means (the log, edit stamps and the
    /// never-reused window counter move on by design).
    func configuration(_ h: Harness) throws -> [String] { try UndoTests.rows(h) }

    /// Every row of the captured tables, and of `others`, in key order.
    static func rows(_ h: Harness, also others: [String] = []) throws -> [String] {
        let c = try Connection(path: h.db, readOnly: true, create: false)
        var out: [String] = []
        for (table, order) in ChangeCapture.tables.map({ ($0.name, "1, 2, 3") }) + others.map({ ($0, "1, 2") }) {
            for row in try c.query("SELECT * FROM \(table) ORDER BY \(order)") {
                out.append(table + ": " + row.values.map { "\($0)" }.joined(separator: "|"))
            }
        }
        return out
    }

    func lastID(_ h: Harness) -> Int {
        let entries = (h.ok("--json log --limit 1").json as? [String: Any])?["entries"] as? [[String: Any]]
        return entries?.first?["id"] as? Int ?? 0
    }

    func fixture() -> Harness {
        let h = Harness()
        h.sample()
        h.ok("notes set 2.0 --platform ios --locale tr \"Yeni görünüm\"")
        h.ok("maintenance schedule --from 2026-12-01T02:00:00Z --until 2026-12-01T04:00:00Z --message \"Planned\" --yes")
        h.ok("message set optional --locale de --title \"Neu\"")
        h.ok("policy set 1.0 force --platform ios --yes")
        h.ok("recommend 2.0.0 --platform android --rollout 5,100 --every 7d --yes")
        return h
    }

    /// The table test: each kind of change the log has, made, undone (the
    /// configuration exactly as before), then redone by reverting the undo
    /// (exactly as after the change).
    func testUndoTakesBackEveryKindOfChange() throws {
        let retired = #"{"messaging":{"forced":{"title":"Update","message":"Please update","continueButtonText":"Update"},"recommended":{"title":"New","message":"A new version","continueButtonText":"Update"}},"versions":[{"version":"1.1","policy":"recommend"}]}"#
        let lines = [
            "project add blog --name Blog",
            "project edit shop --name \"Shop Two\" --time-zone Europe/Istanbul",
            "project rm shop --yes",
            "platform add macos --bundle-id com.example.mac",
            "platform edit ios --min-os 16.0 --app-store-id 42",
            "platform edit ios --storefronts us,de",
            "platform rm android --yes",
            "version add 2.1 --platform ios --build 210 --notes \"Faster\"",
            "version edit 1.1 --platform ios --build 111 --min-os 15.0",
            "version add 2.2 --platform ios --build 220 --unreleased",
            "version add 3.0 --platform all --build 300 --notes \"Both\"",
            "version rm 1.1 --platform ios --yes",
            "notes set 1.1 --platform ios --locale fr \"Mieux\"",
            "notes rm 2.0 --platform ios --locale tr --yes",
            "force 2.0 --platform all --after 7d --yes",
            "recommend 2.0 --platform ios --yes",
            "recommend 2.0 --platform ios --rollout 1,5,100 --every 12h --yes",
            "recommend 2.0.0 --platform android --rollout 10,50,100 --yes",
            "rollout halt --platform android --yes",
            "rollout finish --platform android --yes",
            "rollout cancel --yes",
            "policy set 1.1 recommend --platform ios --yes",
            "policy clear 1.0 --platform ios --yes",
            "rules set --major critical --release-delay 3 --yes",
            "keys trust ebVWLo/mVPlAeLES6KmLp5AfhTrmlb7X4OORC60ElmQ= --yes",
            "maintenance start --for 2h --message \"Back soon\" --yes",
            "maintenance edit 1 --until 2026-12-01T05:00:00Z --yes",
            "maintenance message 1 --locale tr --title \"Bakım\" --message \"Yakında\"",
            "maintenance cancel 1 --yes",
            "message set required --locale tr --title \"Güncelle\"",
            "message rm optional --locale de --yes",
            "import retired RETIRED --platform ios --locale en --yes",
            "apply CONFIG --yes",
            "apply NEWPROJECT --yes",
        ]
        for line in lines {
            let h = fixture()
            let path = h.dir + "/retired.json"
            try Data(retired.utf8).write(to: URL(fileURLWithPath: path))
            // The fixture's configuration file, edited as a reviewer would; and one project of it under a new slug.
            let exported = h.ok("export -p shop").out
            var edited = exported
            for (from, to) in [(#""name": "Shop""#, #""name": "Shop Two""#), (#""releaseDelayDays": 1"#, #""releaseDelayDays": 3"#)] {
                XCTAssertTrue(edited.contains(from), from)
                edited = edited.replacingOccurrences(of: from, with: to)
            }
            let config = h.dir + "/shop.relctl.json", newProject = h.dir + "/blog.relctl.json"
            try Data(edited.utf8).write(to: URL(fileURLWithPath: config))
            try Data(exported.replacingOccurrences(of: "\"shop\": {", with: "\"blog\": {").utf8).write(to: URL(fileURLWithPath: newProject))
            let before = try configuration(h)
            h.ok(line.replacingOccurrences(of: "RETIRED", with: path).replacingOccurrences(of: "NEWPROJECT", with: newProject)
                .replacingOccurrences(of: "CONFIG", with: config))
            let after = try configuration(h)
            XCTAssertNotEqual(before, after, "\(line) changed nothing: the case tests no undo")
            let undo = h.run(["undo", "--yes", "-p", line.hasPrefix("project add blog") || line.contains("NEWPROJECT") ? "blog" : "shop"])
            XCTAssertEqual(undo.status, 0, "\(line): \(undo.err)")
            let undone = try configuration(h)
            XCTAssertEqual(undone, before, "undo of '\(line)' left the configuration other than before it: "
                           + "missing \(Set(before).subtracting(undone).sorted()), extra \(Set(undone).subtracting(before).sorted())")
            XCTAssertTrue(undo.err.contains("reverted #"), undo.err)
            h.ok("revert \(lastID(h)) --yes")
            XCTAssertEqual(try configuration(h), after, "reverting the undo of '\(line)' did not make the change again")
        }
    }

    /// Each undo goes one change further back; a revert is logged with what it took back.
    func testUndoGoesBackOneChangeAtATimeAndIsLogged() throws {
        let h = fixture()
        let s0 = try configuration(h)
        h.ok("force 2.0 --platform ios --yes")
        let s1 = try configuration(h)
        h.ok("version edit 1.1 --platform ios --build 111")
        h.ok("undo --yes")
        XCTAssertEqual(try configuration(h), s1)
        h.ok("undo --yes")
        XCTAssertEqual(try configuration(h), s0)
        let entries = (h.ok("--json log --limit 2").json as? [String: Any])?["entries"] as? [[String: Any]] ?? []
        XCTAssertEqual(entries.first?["kind"] as? String, "revert")
        XCTAssertEqual((entries.first?["action"] as? String)?.hasPrefix("revert #"), true)
        XCTAssertEqual((entries.first?["reverts"] as? [Int])?.count, 1)
        let change = (entries.first?["changes"] as? [[String: Any]])?.first
        XCTAssertEqual(change?["table"] as? String, "platform")
        XCTAssertEqual(change?["changed"] as? [String], ["forceVersion"])
        XCTAssertEqual((change?["before"] as? [String: Any])?["forceVersion"] as? String, "2.0")
        XCTAssertTrue((change?["after"] as? [String: Any])?["forceVersion"] is NSNull)
        // The text log shows before → after under the entry.
        XCTAssertTrue(h.ok("log --limit 1").out.contains("~ platform ios: force floor '2.0' → none"), h.ok("log --limit 1").out)
        // Reverting a change already taken back names the revert.
        let forced = (entries.first?["reverts"] as? [Int])![0]
        h.fails("revert \(forced) --yes", "is already taken back, by #\(entries.first!["id"] as! Int)")
    }

    /// An old entry names a version it does not hold (a note's) as the log
    /// had it then, not as the database has that id now: SQLite gave the
    /// removed version's id to the next one made.
    func testAnOldEntryNamesItsRowsAsTheyWereThen() throws {
        let h = Harness()
        h.sample()
        h.ok("notes set 1.9 --platform android --locale en \"Nine\"")
        let noted = lastID(h)
        // A publish between the changes: an entry without rows.
        h.ok("publish \(h.dir)/out -q")
        h.ok("version rm 1.9 --platform android --yes")
        h.ok("version add 3.0.0 --platform android --build 300")
        let entries = (h.ok("--json log --limit 4").json as? [String: Any])?["entries"] as? [[String: Any]] ?? []
        func ids(_ entry: [String: Any]?, _ table: String, _ column: String) -> [Int] {
            ((entry?["changes"] as? [[String: Any]]) ?? []).filter { $0["table"] as? String == table }
                .compactMap { (($0["after"] as? [String: Any]) ?? ($0["before"] as? [String: Any]))?[column] as? Int }
        }
        let note = entries.first { $0["id"] as? Int == noted }
        XCTAssertEqual(ids(note, "note", "versionId").count, 1, "\(entries)")
        XCTAssertEqual(ids(entries.first, "version", "id"), ids(note, "note", "versionId"), "3.0.0 was given 1.9's id")
        let log = h.ok("log --limit 4").out
        XCTAssertTrue(log.contains("+ note en of android 1.9"), log)
        XCTAssertFalse(log.contains("note en of android 3.0.0"), log)
        // Once the version is edited after the note, its name as the log had it then is still 1.9.
        h.ok("version edit 3.0.0 --platform android --build 301")
        XCTAssertTrue(h.ok("log --limit 5").out.contains("+ note en of android 1.9"))
        // A version made by hand, which the log never saw made, is named as the first change after found it.
        let c = try Connection(path: h.db, readOnly: false, create: false)
        try c.run("INSERT INTO version(platform_id, version, build, released_at) SELECT platform_id, '3.1.0', 310, released_at FROM version WHERE version = '3.0.0'")
        h.ok("notes set 3.1.0 --platform android --locale en \"By hand\"")
        h.ok("version rm 3.1.0 --platform android --yes")
        h.ok("version add 3.2.0 --platform android --build 320")
        let handLog = h.ok("log --limit 3").out
        XCTAssertTrue(handLog.contains("+ note en of android 3.1.0"), handLog)
        XCTAssertFalse(handLog.contains("note en of android 3.2.0"), handLog)
        // Made and removed by hand: the first change after found no row there, so the log cannot name it,
        // and the version that took its id is not named in its place.
        try c.run("INSERT INTO version(platform_id, version, build, released_at) SELECT platform_id, '3.3.0', 330, released_at FROM version WHERE version = '3.2.0'")
        h.ok("notes set 3.3.0 --platform android --locale en \"Gone by hand\"")
        let gone = try XCTUnwrap(c.query("SELECT max(id) FROM version").first?.int(0))
        try c.run("DELETE FROM version WHERE id = ?", [.int(gone)])
        h.ok("version add 3.4.0 --platform android --build 340")
        XCTAssertEqual(try c.query("SELECT id FROM version WHERE version = '3.4.0'").first?.int(0), gone, "3.4.0 was given 3.3.0's id")
        let goneLog = h.ok("log --limit 2").out
        XCTAssertTrue(goneLog.contains("+ note en of version #\(gone)"), goneLog)
        XCTAssertFalse(goneLog.contains("note en of android 3.4.0"), goneLog)
        // An entry's id at the top of its range (a database edited by hand) is looked up to, never added to:
        // every change is then before it, the last the edit that made 1.9's id 3.0.0 build 301.
        try c.run("UPDATE audit_change SET audit_id = ? WHERE audit_id = ?", [.int(.max), .int(Int64(noted))])
        try c.run("UPDATE audit SET id = ? WHERE id = ?", [.int(.max), .int(Int64(noted))])
        let topLog = h.ok("log --limit 1").out
        XCTAssertTrue(topLog.contains("+ note en of android 3.0.0"), topLog)
    }

    /// A later change to the same rows refuses, naming it, the database
    /// unchanged; --with-later takes both back, newest first, in one entry.
    func testALaterChangeToTheSameRowsIsNamedOrTakenBackToo() throws {
        let h = fixture()
        let s0 = try configuration(h)
        h.ok("version edit 1.1 --platform ios --build 111")
        let first = lastID(h)
        h.ok("version edit 1.1 --platform ios --min-os 15.0")
        let second = lastID(h)
        let r = h.fails("revert \(first) --yes", "later changes touched the same rows: #\(second) (version edit ios 1.1)")
        XCTAssertTrue(r.err.contains("--with-later"), r.err)
        h.ok("revert \(first) --with-later --yes")
        XCTAssertEqual(try configuration(h), s0)
        let entry = ((h.ok("--json log --limit 1").json as? [String: Any])?["entries"] as? [[String: Any]])?.first
        XCTAssertEqual(entry?["reverts"] as? [Int], [first, second])
    }

    /// An undo put back (a revert of the revert) sits between later changes:
    /// --with-later takes them all back, newest first, walking the row's history back.
    func testWithLaterWalksBackThroughAnUndoneUndo() throws {
        let h = fixture()
        let s0 = try configuration(h)
        h.ok("force 1.1 --platform ios --yes")
        let first = lastID(h)
        h.ok("force 2.0 --platform ios --yes")
        let second = lastID(h)
        h.ok("undo --yes")
        let undo = lastID(h)
        h.ok("revert \(undo) --yes")
        let redo = lastID(h)
        h.fails("revert \(first) --yes", "later changes touched the same rows: #\(second) (force ios 2.0), #\(redo) (revert #\(undo)")
        h.ok("revert \(first) --with-later --yes")
        XCTAssertEqual(try configuration(h), s0)
        let entry = ((h.ok("--json log --limit 1").json as? [String: Any])?["entries"] as? [[String: Any]])?.first
        XCTAssertEqual(entry?["reverts"] as? [Int], [first, second, undo, redo])
    }

    /// Rows that putting a change back would also change (a version added
    /// since to a platform being removed again) are named, never cascaded silently.
    func testACascadeIsRefusedNamingTheChangeThatMadeItsRows() throws {
        let h = fixture()
        let s0 = try configuration(h)
        h.ok("platform add macos --bundle-id com.example.mac")
        let added = lastID(h)
        h.ok("version add 1.0 --platform macos --build 1")
        let version = lastID(h)
        h.fails("revert \(added) --yes", "later changes touched the same rows: #\(version) (version add macos 1.0")
        h.ok("revert \(added) --with-later --yes")
        XCTAssertEqual(try configuration(h), s0)
    }

    /// A row changed by hand since is never overwritten, with or without --with-later.
    func testAHandEditIsNeverOverwritten() throws {
        let h = fixture()
        h.ok("version edit 1.1 --platform ios --build 111")
        try sqlite3(h, "UPDATE version SET build = 999 WHERE version = '1.1'")
        h.fails("undo --yes", "version 1.1 is not as change #")
        h.fails("undo --yes --with-later", "changed by hand since")
    }

    /// The preview shows the rows and the impact; off a terminal --yes is
    /// required; a dry run changes nothing and says so in --json.
    func testPreviewConfirmationAndDryRun() throws {
        let h = fixture()
        h.ok("force 2.0 --platform ios --yes")
        let s1 = try configuration(h)
        h.fails("undo", status: 2, "needs confirmation")
        let shown = h.run(["undo"], terminal: true, answer: "n")
        XCTAssertTrue(shown.err.contains("~ platform ios: force floor '2.0' → none"), shown.err)
        XCTAssertTrue(shown.err.contains("impact:\n  ios: 1.1 (110): required → optional"), shown.err)
        let declined = h.run(["undo"], terminal: true, answer: "n")
        XCTAssertEqual(declined.status, 1, declined.err)
        XCTAssertEqual(try configuration(h), s1)
        let dry = h.ok("--json undo --dry-run")
        let doc = dry.json as? [String: Any]
        XCTAssertEqual(doc?["dryRun"] as? Bool, true)
        XCTAssertTrue(doc?["id"] is NSNull)
        XCTAssertEqual((doc?["changes"] as? [[String: Any]])?.count, 1)
        XCTAssertEqual((doc?["impact"] as? [String])?.first, "ios: 1.1 (110): required → optional")
        XCTAssertEqual(try configuration(h), s1, "a dry run changed the database")
        let accepted = h.run(["undo"], terminal: true, answer: "y")
        XCTAssertEqual(accepted.status, 0, accepted.err)
        XCTAssertNotEqual(try configuration(h), s1)
    }

    /// Dropping the deadlines of several platforms' floors is one change: one undo takes it back.
    func testOneUndoTakesBackADeadlineDroppedOnEveryPlatform() throws {
        let h = fixture()
        h.ok("force 2.0 --platform all --after 7d --yes")
        let s1 = try configuration(h)
        h.ok("force --no-deadline --platform all --yes")
        XCTAssertNotEqual(try configuration(h), s1)
        h.ok("undo --yes")
        XCTAssertEqual(try configuration(h), s1)
    }

    /// undo takes the project as every command does: with several and no default, it asks which.
    func testUndoNeedsToKnowTheProject() {
        let h = Harness()
        h.sample()
        h.ok("project add blog --name Blog")
        h.ok("-p blog platform add ios --bundle-id com.example.blog")
        XCTAssertTrue(h.ok("--json project list").out.contains("blog"))
        let r = h.run(["undo", "--yes"])
        XCTAssertNotEqual(r.status, 0, "undo guessed a project: \(r.err)")
        let blog = h.ok("-p blog undo --yes")
        XCTAssertTrue(blog.err.contains("(blog: platform add ios"), blog.err)
    }

    func testBadIDs() {
        let h = fixture()
        h.fails("revert abc --yes", status: 2, "invalid change id 'abc'")
        h.fails("revert 0 --yes", status: 2, "invalid change id '0'")
        h.fails("revert 9999 --yes", "no change #9999 in the log")
        h.fails("revert 1 --yes", "recorded no rows to put back")
        let empty = Harness()
        empty.ok("init")
        empty.ok("project add shop --name Shop")
        empty.ok("undo --yes")
        empty.fails("undo --yes", "nothing to undo")
    }

    /// A change notes no row it makes (above its table's mark, the highest
    /// id as it began): it reads them from their tables when it is recorded.
    /// The log is the same as when every row is noted one by one, which a
    /// database with an orphan row (left by a hand edit with foreign keys
    /// off) still does: creations, two projects removed and undone (blog's
    /// versions and notes put back above the marks, its platforms below
    /// shop's newer one), a revert of an undo and of that revert.
    func testRowsAChangeMakesAreLoggedAsWhenEveryRowIsNoted() throws {
        func log(orphan: Bool) throws -> [String] {
            let h = fixture()
            // A connection of its own has no foreign keys on (only a Store turns them on), as a hand edit may.
            if orphan { try Connection(path: h.db, readOnly: false, create: false).execute("INSERT INTO message(project_id, kind, locale, field, value) VALUES (1000000, 'optional', 'en', 'title', 'x')") }
            let newProject = h.dir + "/blog.relctl.json"
            try Data(h.ok("export -p shop").out.replacingOccurrences(of: "\"shop\": {", with: "\"blog\": {").utf8).write(to: URL(fileURLWithPath: newProject))
            for line in ["apply \(newProject) --yes", "-p blog version add 3.0 --platform all --build 300 --notes \"Both\"",
                         "-p blog maintenance schedule --from 2027-01-01T02:00:00Z --until 2027-01-01T04:00:00Z --message \"Later\" --yes",
                         "-p blog maintenance message 3 --locale tr --title \"Bakım\" --message \"Sonra\"",
                         "-p shop platform add macos --bundle-id com.example.mac", "-p blog version rm 1.1 --platform ios --yes",
                         "project rm blog --yes", "undo -p blog --yes", "project rm shop --yes", "undo -p shop --yes"] {
                h.ok(line)
            }
            h.ok("revert \(lastID(h)) --yes")
            h.ok("revert \(lastID(h)) --yes")
            let c = try Connection(path: h.db, readOnly: false, create: false)
            let marks = try c.write {
                try ChangeCapture.begin(c)
                defer { try? ChangeCapture.end(c) }
                return try c.scalar("SELECT project_mark FROM capture_on")
            }
            XCTAssertEqual(marks, orphan ? .null : .int(2), "shop and blog; the orphaned database is noted row by row")
            // A rollout's salt is drawn at random in each database.
            let salt = try NSRegularExpression(pattern: #""rollout_salt":"[^"]*""#)
            return try c.query("SELECT audit_id, tbl, row_key, before, after FROM audit_change ORDER BY audit_id, tbl, row_key").map { r in
                let line = (0..<5).map { r.string($0) ?? "NULL" }.joined(separator: " | ")
                return salt.stringByReplacingMatches(in: line, range: NSRange(line.startIndex..., in: line), withTemplate: "salt")
            }
        }
        let marked = try log(orphan: false), noted = try log(orphan: true)
        XCTAssertGreaterThan(marked.count, 100)
        XCTAssertEqual(marked.count, noted.count)
        for (a, b) in zip(marked, noted) where a != b { XCTFail("marked: \(a)\nnoted: \(b)"); break }
    }

    /// The rows of a project a change makes stamp nothing but the project's
    /// own row; a change to a project that was there stamps it, the project
    /// at the mark too (the highest id), and leaves the others' stamps alone.
    func testAProjectMadeInAChangeIsStampedAndTheOthersOnlyWhenTheyChange() throws {
        let h = fixture()
        let c = try Connection(path: h.db, readOnly: true, create: false)
        func stamps() throws -> [String: Int64] {
            var out: [String: Int64] = [:]
            for r in try c.query("SELECT p.slug, e.edits FROM project_edit e JOIN project p ON p.id = e.project_id") { out[r.text(0)] = r.int(1) }
            return out
        }
        let newProject = h.dir + "/blog.relctl.json"
        try Data(h.ok("export -p shop").out.replacingOccurrences(of: "\"shop\": {", with: "\"blog\": {").utf8).write(to: URL(fileURLWithPath: newProject))
        let before = try stamps()
        h.ok("apply \(newProject) --yes")
        let made = try stamps()
        XCTAssertNotNil(made["blog"], "the project made is stamped")
        XCTAssertEqual(made["shop"], before["shop"], "a project the change did not touch keeps its stamp")
        h.ok("-p blog notes set 2.0 --platform ios --locale fr \"Nouveau\"")
        let edited = try stamps()
        XCTAssertNotEqual(edited["blog"], made["blog"], "a note of the project at the mark stamps it")
        XCTAssertEqual(edited["shop"], made["shop"])
        h.ok("-p shop version add 4.0 --platform ios --build 400 --notes \"Four\"")
        XCTAssertNotEqual(try stamps()["shop"], edited["shop"], "a version made in a project that was there stamps it")
    }

    /// Every write of a note or a window copy gives its project a new stamp,
    /// whether the row's parent (version, window) was there before the change
    /// or made in it (schema 19 tells the latter by the parent's mark and leaves
    /// the stamp to the parent's insert, Schema.stampTriggers): each of these
    /// changes moves shop's stamp and no other project's.
    func testNotesAndWindowCopiesStampTheirProjectWhetherOrNotTheirParentIsNew() throws {
        let h = fixture()
        h.ok("project add blog --name Blog")
        let c = try Connection(path: h.db, readOnly: true, create: false)
        func stamps() throws -> [String: Int64] {
            var out: [String: Int64] = [:]
            for r in try c.query("SELECT p.slug, e.edits FROM project_edit e JOIN project p ON p.id = e.project_id") { out[r.text(0)] = r.int(1) }
            return out
        }
        for line in [
            "-p shop notes set 1.1 --platform ios --locale fr \"Meilleur\"",       // a note of a version that was there
            "-p shop notes set 1.1 --platform ios --locale en \"Better!\"",        // one edited
            "-p shop notes rm 1.1 --platform ios --locale fr --yes",                 // and its removal
            "-p shop notes set 1.9 --platform android --locale fr \"Neuf\"",       // of the newest version, the one at the mark
            "-p shop maintenance message 1 --locale fr --title \"Maintenance\"",    // a copy of a window that was there
            "-p shop maintenance message 1 --locale en --title \"Planned work\"",   // one edited
            "-p shop version add 5.0 --platform ios --build 500 --notes \"Five\"",  // a version made with its note
            "-p shop maintenance schedule --from 2026-12-20T02:00:00Z --for 1h --message \"Soon\" --yes",  // a window made with its copy
        ] {
            let before = try stamps()
            h.ok(line)
            let after = try stamps()
            XCTAssertNotEqual(after["shop"], before["shop"], line)
            XCTAssertEqual(after["blog"], before["blog"], line)
        }
    }

    /// The marks are each table's highest id, or none with an orphan row below a parent above one.
    func testAChangeBeginsWithEachTablesHighestIdAsItsMark() throws {
        let h = fixture()
        let c = try Connection(path: h.db, readOnly: false, create: false)
        func marks() throws -> [String] {
            try c.write {
                try ChangeCapture.begin(c)
                defer { try? ChangeCapture.end(c) }
                return try c.query("SELECT project_mark, platform_mark, version_mark, window_mark FROM capture_on").first.map { r in (0..<4).map { r.string($0) ?? "NULL" } } ?? []
            }
        }
        let highest = try c.query("SELECT (SELECT max(id) FROM project), (SELECT max(id) FROM platform), (SELECT max(id) FROM version), (SELECT max(id) FROM maintenance)")
        XCTAssertEqual(try marks(), highest.first.map { r in (0..<4).map { r.string($0) ?? "NULL" } })
        XCTAssertEqual(try marks(), ["1", "2", "5", "1"])
        for orphan in ["INSERT INTO note(version_id, locale, body) VALUES (99, 'en', 'x')",
                       "INSERT INTO maintenance_copy(window_id, locale, title, message) VALUES (99, 'en', 'x', 'y')",
                       "INSERT INTO message(project_id, kind, locale, field, value) VALUES (99, 'optional', 'en', 'title', 'x')"] {
            try c.execute(orphan)
            XCTAssertEqual(try marks(), ["NULL", "NULL", "NULL", "NULL"], orphan)
            try c.execute("DELETE FROM note WHERE version_id = 99; DELETE FROM maintenance_copy WHERE window_id = 99; DELETE FROM message WHERE project_id = 99")
            XCTAssertEqual(try marks(), ["1", "2", "5", "1"])
        }
    }
}

/// The capture's triggers are in the schema: they note relctl's changes only.
final class ChangeCaptureTests: XCTestCase {
    /// Every column of every captured table is in the images: a migration
    /// that adds one must make the triggers again.
    func testTheCapturedColumnsAreTheSchemas() throws {
        let h = Harness()
        h.ok("init")
        let c = try Connection(path: h.db, readOnly: true, create: false)
        for table in ChangeCapture.tables {
            let rows = try c.query("SELECT name, pk FROM pragma_table_info(?) ORDER BY cid", [.text(table.name)])
            XCTAssertEqual(rows.map { $0.text(0) }, table.columns, table.name)
            XCTAssertEqual(rows.filter { ($0.int(1) ?? 0) > 0 }.sorted { $0.int(1)! < $1.int(1)! }.map { $0.text(0) }, table.key, table.name)
        }
    }

    /// What a change records is each row's net effect: its image before the
    /// first note and as it ends, in the order first noted; a row that ends
    /// as it began (edited and put back, added and removed) is left out.
    func testAChangeRecordsEachRowsNetEffectInTheOrderFirstNoted() throws {
        let h = Harness()
        h.sample()
        let c = try Connection(path: h.db, readOnly: false, create: false)
        let audit: Int64 = try c.write {
            try c.run("INSERT INTO audit(at, user, project, action, kind, platforms) VALUES (0, 't', 'shop', 'test', 'apply', '[]')")
            let audit = c.lastInsertRowID
            try ChangeCapture.begin(c)
            try c.execute("""
                UPDATE version SET build = 901 WHERE version = '1.1';
                UPDATE version SET min_os = '15.0' WHERE version = '1.0';
                UPDATE version SET build = 902 WHERE version = '1.1';
                UPDATE version SET min_os = NULL WHERE version = '1.0';
                INSERT INTO note(version_id, locale, body) SELECT id, 'fr', 'x' FROM version WHERE version = '1.1';
                DELETE FROM note WHERE locale = 'fr';
                INSERT INTO note(version_id, locale, body) SELECT id, 'de', 'neu' FROM version WHERE version = '1.0';
                """)
            let recorded = try ChangeCapture.record(c, audit: audit)
            XCTAssertEqual(recorded.noted + recorded.made.count, 2)
            return audit
        }
        let rows = try c.query("SELECT tbl, before, after FROM audit_change WHERE audit_id = ? ORDER BY seq", [.int(audit)])
        XCTAssertEqual(rows.map { $0.text(0) }, ["version", "note"], "1.1 first, then the German note; 1.0 and the French note end as they began")
        XCTAssertTrue(rows[0].text(1).contains("\"build\":110"), "before its first note: \(rows[0].text(1))")
        XCTAssertTrue(rows[0].text(2).contains("\"build\":902"), "as it ends: \(rows[0].text(2))")
        XCTAssertNil(rows[1].string(1), "the note was not there before")
        XCTAssertEqual(rows[1].string(2), #"{"version_id":1,"locale":"de","body":"neu"}"#)
        XCTAssertEqual(try c.scalar("SELECT count(*) FROM row_change"), .int(0), "noting stops")
    }

    /// A change by hand (sqlite3) is noted nowhere, and relctl leaves no note behind.
    func testAHandEditIsNotCapturedAndNothingIsLeftNoted() throws {
        let h = Harness()
        h.sample()
        try sqlite3(h, "UPDATE version SET build = 999 WHERE version = '1.1'; INSERT INTO note(version_id, locale, body) SELECT id, 'fr', 'x' FROM version WHERE version = '1.0'")
        let c = try Connection(path: h.db, readOnly: true, create: false)
        XCTAssertEqual(try c.scalar("SELECT count(*) FROM row_change"), .int(0))
        XCTAssertEqual(try c.scalar("SELECT count(*) FROM capture_on"), .int(0))
        h.ok("version edit 1.1 --platform ios --build 111")
        XCTAssertEqual(try c.scalar("SELECT count(*) FROM row_change"), .int(0), "a change leaves its notes behind")
        XCTAssertEqual(try c.scalar("SELECT count(*) FROM capture_on"), .int(0))
        let changes = try c.query("SELECT count(*) FROM audit_change WHERE audit_id = (SELECT max(id) FROM audit)")
        XCTAssertEqual(changes.first?.int(0), 1, "the edit is captured, the hand edits before it are not")
    }
}
