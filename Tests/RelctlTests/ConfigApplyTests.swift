import Foundation
import XCTest
@testable import SQLite
@testable import RelctlCLI
@testable import RelctlCore
@testable import RelctlModel
@testable import RelctlPublish
@testable import RelctlStore
@testable import SQLite

/// `relctl plan` and `relctl apply`: the exported file as the configuration a team keeps in git.
final class ConfigApplyTests: XCTestCase {
    func write(_ h: Harness, _ name: String, _ text: String) -> String {
        let path = h.dir + "/" + name
        _ = FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
        return path
    }

    func logCount(_ h: Harness, database: String? = nil) -> Int {
        ((h.run(["log", "--json"], database: database).json as? [String: Any])?["entries"] as? [Any])?.count ?? -1
    }

    /// A version's notes are written in slices of 200 (NoteRows): 450 of them, across
    /// three slices, all land, and a second apply finds each one as the file says.
    func testAVersionWithMoreNotesThanASliceAppliesEveryOne() throws {
        let h = Harness()
        h.ok("init")
        h.ok("project add shop --name Shop")
        h.ok("platform add ios --bundle-id com.example.shop --app-store-id 1")
        h.ok("version add 1.0 --platform ios --build 1 --released 2026-01-01T00:00:00Z")
        let letters = "abcdefghij".map(String.init)
        let tags = letters.flatMap { a in letters.flatMap { b in letters.map { c in a + b + c } } }.prefix(450)
        var notes: [String: String] = [:]
        for t in tags { notes[t] = "notes in \(t)" }
        let path = try shopFile(h, "notes.json") { versions in
            var one = try XCTUnwrap(versions["1.0"] as? [String: Any])
            one["notes"] = notes
            versions["1.0"] = one
        }

        h.ok("apply \(path) --yes -q")
        XCTAssertEqual(h.ok("notes show 1.0 --platform ios --locale eej").out, "notes in eej\n", "the last of the third slice")
        XCTAssertTrue(h.ok("plan \(path)").out.hasPrefix("no changes"), "every note was written as the file says")
        h.ok("export -o \(h.dir)/again.json")
        let again = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: "\(h.dir)/again.json"))) as? [String: Any])
        let stored = ((((again["projects"] as? [String: Any])?["shop"] as? [String: Any])?["platforms"] as? [String: Any])?["ios"] as? [String: Any]).flatMap { (($0["versions"] as? [String: Any])?["1.0"] as? [String: Any])?["notes"] as? [String: String] }
        XCTAssertEqual(stored, notes)
    }

    /// shop's file as exported, with its iOS versions as `edit` makes them, written to DIR/NAME.
    func shopFile(_ h: Harness, _ name: String, _ edit: (inout [String: Any]) throws -> Void) throws -> String {
        h.ok("export -o \(h.dir)/shop.json")
        var file = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: "\(h.dir)/shop.json"))) as? [String: Any])
        var projects = try XCTUnwrap(file["projects"] as? [String: Any])
        var shop = try XCTUnwrap(projects["shop"] as? [String: Any])
        var platforms = try XCTUnwrap(shop["platforms"] as? [String: Any])
        var ios = try XCTUnwrap(platforms["ios"] as? [String: Any])
        var versions = try XCTUnwrap(ios["versions"] as? [String: Any])
        try edit(&versions)
        ios["versions"] = versions; platforms["ios"] = ios; shop["platforms"] = platforms; projects["shop"] = shop
        file["projects"] = projects
        let path = "\(h.dir)/\(name)"
        try JSONSerialization.data(withJSONObject: file).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// A version as a file writes it, with notes in English and German.
    static func fileVersion(build: Int, _ en: String, _ de: String) -> [String: Any] {
        ["build": build, "released": "2026-03-01T00:00:00Z", "minOs": NSNull(), "pin": NSNull(), "notes": ["en": en, "de": de]]
    }

    /// Versions a platform does not have are made a slice at a time (NoteRows), and
    /// their notes many versions at a time, between versions it has: runs of 120 and
    /// 130 across the slices of 100 versions and 200 notes, beside an existing
    /// version whose notes change. Each version gets its own notes and build, the new
    /// ones their ids in the file's order, and each its history (Lineage, stamped many
    /// parts at a time) at the apply's revision.
    func testRunsOfNewVersionsAreMadeInSlicesWithTheirOwnNotes() throws {
        let h = Harness()
        h.ok("init")
        h.ok("project add shop --name Shop --locales en,de")
        h.ok("platform add ios --bundle-id com.example.shop --app-store-id 1")
        h.ok("version add 1.0 --platform ios --build 10 --released 2026-01-01T00:00:00Z --notes First")
        h.ok("version add 1.2 --platform ios --build 20 --released 2026-02-01T00:00:00Z --notes Third")
        let made = (0..<120).map { (text: "1.1.\($0)", build: 1_100 + $0) } + (0..<130).map { (text: "1.3.\($0)", build: 1_300 + $0) }
        let more = try shopFile(h, "more.json") { versions in
            var third = try XCTUnwrap(versions["1.2"] as? [String: Any])
            third["notes"] = ["en": "Third, again", "de": "Dritte"]
            versions["1.2"] = third
            for v in made { versions[v.text] = Self.fileVersion(build: v.build, "notes of \(v.text)", "Notizen zu \(v.text)") }
        }

        h.ok("apply \(more) --yes -q")
        for v in made + [(text: "1.2", build: 20)] {
            let shown = try XCTUnwrap(h.ok("version show \(v.text) --platform ios --json").json as? [String: Any], v.text)
            XCTAssertEqual(shown["build"] as? Int, v.build, v.text)
            let notes = shown["notes"] as? [String: [String]]
            XCTAssertEqual(notes, v.text == "1.2" ? ["en": ["Third, again"], "de": ["Dritte"]] : ["en": ["notes of \(v.text)"], "de": ["Notizen zu \(v.text)"]], v.text)
        }
        XCTAssertTrue(h.ok("plan \(more)").out.hasPrefix("no changes"), "every version and note was written as the file says")
        let shell = try XCTUnwrap(Proc.which("sqlite3"), "the sqlite3 shell is needed (scripts/deps.sh test installs it)")
        let byID = try Proc.run(shell, [h.db, "SELECT version FROM version ORDER BY id"]).out.split(separator: "\n").map(String.init)
        XCTAssertEqual(byID, ["1.0", "1.2"] + made.map(\.text), "the versions made are numbered in the file's order")
        let stamped = try Proc.run(shell, [h.db, "SELECT count(*) FROM lineage WHERE project = 'shop' AND part LIKE 'ios/1.%' AND head >> 24 = (SELECT max(head) >> 24 FROM lineage)"]).out
        XCTAssertEqual(stamped, "\(made.count + 1)\n", "each version made, and 1.2, has the apply's revision in its history")
    }

    /// A file's own edits (a version added by hand, with no history; a note
    /// changed under the history it was exported with) count as a change once,
    /// when applied: applying the same file again, or planning it, moves no
    /// part's history, in the database edited and in one built from the file.
    func testTheSameFileAppliedAgainMovesNoHistory() throws {
        let h = Harness()
        h.ok("init")
        h.ok("project add shop --name Shop --locales en,de")
        h.ok("platform add ios --bundle-id com.example.shop --app-store-id 1")
        h.ok("version add 1.0 --platform ios --build 10 --released 2026-01-01T00:00:00Z --notes First")
        h.ok("notes set 1.0 --platform ios --locale en Again -q")
        let path = try shopFile(h, "edited.json") { versions in
            var first = try XCTUnwrap(versions["1.0"] as? [String: Any])
            first["notes"] = ["en": "First, by hand"]
            versions["1.0"] = first
            versions["1.1"] = Self.fileVersion(build: 11, "Added by hand", "Von Hand")
        }
        let shell = try XCTUnwrap(Proc.which("sqlite3"), "the sqlite3 shell is needed (scripts/deps.sh test installs it)")
        func histories(_ db: String) throws -> [String] {
            try Proc.run(shell, [db, "SELECT part || '=' || chain FROM lineage ORDER BY project, part"]).out.split(separator: "\n").map(String.init)
        }
        func ok(_ line: String, _ db: String) -> Harness.Result {
            let r = h.run(Harness.split(line), database: db)
            XCTAssertEqual(r.status, 0, "\(db): \(line): \(r.err)")
            return r
        }
        let fresh = h.dir + "/fresh.db"
        _ = ok("init -q", fresh)
        for db in [h.db, fresh] {
            let before = try histories(db)
            _ = ok("apply \(path) --yes -q", db)
            let applied = try histories(db)
            // Each edit of the file is a change of its own: ios 1.0 (and 1.1, made) have a revision newer than any before.
            let newest = before.compactMap { $0.split(separator: "=").last?.split(separator: " ").first.flatMap { Int64($0) } }.max() ?? 0
            for part in ["ios/1.0", "ios/1.1"] {
                let head = applied.first { $0.hasPrefix(part + "=") }?.split(separator: "=").last?.split(separator: " ").first.flatMap { Int64($0) }
                XCTAssertGreaterThan(try XCTUnwrap(head, "\(db): \(part) has a history"), newest, "\(db): \(part)")
            }
            // A change since, elsewhere, moves the database's clock past the apply's revision.
            _ = ok("project add blog --name Blog -q", db)
            let since = try histories(db)
            XCTAssertEqual(since.filter { !$0.hasPrefix("=") && !applied.contains($0) }, [], "\(db): only blog's settings are new")
            // Applied again, read (no note yet), then left unread after a plan notes it (ConfigSeen).
            for step in ["read", "unread"] {
                if step == "unread" {
                    XCTAssertTrue(ok("plan \(path)", db).out.hasPrefix("no changes"), db)
                    XCTAssertEqual(try Proc.run(shell, [db, "SELECT count(*) FROM config_seen"]).out, "1\n", "\(db): shop is noted, so left unread")
                }
                let again = ok("apply \(path) --yes", db)
                XCTAssertTrue(again.err.contains("unchanged (nothing written or logged)"), again.err)
                XCTAssertEqual(try histories(db), since, "\(db), \(step): applied again, every history is as it was")
            }
        }
        // A part set back to the file's content by hand (sqlite3 moves no history) at the
        // file's own revision: the file's edit is not counted yet, and this apply counts it.
        let hand = h.dir + "/hand.db"
        _ = ok("init -q", hand)
        _ = ok("apply \(h.dir)/shop.json --yes -q", hand)  // the export the edited file was made from (shopFile)
        _ = try Proc.run(shell, [hand, "UPDATE note SET body = 'First, by hand' WHERE locale = 'en'"])
        let plain = try histories(hand).first { $0.hasPrefix("ios/1.0=") }
        _ = ok("apply \(path) --yes -q", hand)
        let counted = try histories(hand).first { $0.hasPrefix("ios/1.0=") }
        XCTAssertNotEqual(counted, plain, "the file's edit is a revision of its own here")
        XCTAssertTrue(counted?.hasSuffix(" " + (plain?.split(separator: "=").last.map(String.init) ?? "?")) == true, "\(counted ?? "none") goes on from \(plain ?? "none")")
    }

    /// A window a file adds (no id) has a history once the database numbers
    /// it, never as "window/0": such a history (an earlier relctl wrote it)
    /// made an export that apply refused, and a remote's record naming it
    /// refused every deploy that lacked it; both are passed over now.
    func testAWindowTheFileAddsHasAHistoryOnlyUnderItsNumber() throws {
        let h = Harness()
        h.ok("init")
        h.ok("project add shop --name Shop")
        h.ok("platform add ios --bundle-id com.example.shop")
        h.ok("version add 1.0 --platform ios --build 10")
        let text = h.ok("export").out
        XCTAssertTrue(text.contains(#""maintenance": []"#))
        let added = write(h, "window.relctl.json", text.replacingOccurrences(of: #""maintenance": []"#, with:
            #""maintenance": [{"id": null, "platform": null, "from": "2027-01-10T00:00:00Z", "until": "2027-01-10T02:00:00Z", "copy": {}}]"#))
        h.ok("apply \(added) --yes -q")
        let shell = try XCTUnwrap(Proc.which("sqlite3"), "the sqlite3 shell is needed (scripts/deps.sh test installs it)")
        XCTAssertEqual(try Proc.run(shell, [h.db, "SELECT part FROM lineage WHERE part LIKE 'window/%'"]).out, "window/1\n")
        // As an earlier relctl left it: a history for "window/0" besides.
        _ = try Proc.run(shell, [h.db, "INSERT INTO lineage(project, part, head, chain) VALUES ('shop', 'window/0', 9, '9 5')"])
        let exported = h.ok("export").out
        XCTAssertFalse(exported.contains("window/0"), exported)
        let fresh = h.dir + "/fresh.db"
        XCTAssertEqual(h.run(["init"], database: fresh).status, 0)
        let applied = h.run(["apply", write(h, "again.relctl.json", exported), "--yes"], database: fresh)
        XCTAssertEqual(applied.status, 0, applied.err)
        // A file such a relctl exported, with "window/0" in a history, still applies.
        let lineage = try XCTUnwrap(exported.range(of: "\"lineage\": {\n"))
        var old = exported
        old.insert(contentsOf: "        \"window/0\": [[9,5],\"-\"],\n", at: lineage.upperBound)
        let older = h.dir + "/older.db"
        XCTAssertEqual(h.run(["init"], database: older).status, 0)
        let taken = h.run(["apply", write(h, "older.relctl.json", old), "--yes"], database: older)
        XCTAssertEqual(taken.status, 0, taken.err)
        let missing = DeployCommand.missing(from: ["shop": ["ios": [3]]], in: ["shop": ["window/0": 9, "ios": 3, "window/1": 4]])
        XCTAssertEqual(missing.map(\.part), ["window/1"], "a remote's record of window/0 names no part to hold")
        // A window's revision held by another window here is the same window numbered anew, once revisions carry
        // their content; a count alone (before the digests), or another kind of part, is not.
        let digested: Int64 = 3 << Lineage.digestBits | 0x5a5a
        XCTAssertEqual(DeployCommand.missing(from: ["shop": ["window/1": [digested, 4]]], in: ["shop": ["window/2": digested]]).map(\.part), [])
        XCTAssertEqual(DeployCommand.missing(from: ["shop": ["window/1": [digested, 4]]], in: ["shop": ["window/2": 4]]).map(\.part), ["window/2"])
        XCTAssertEqual(DeployCommand.missing(from: ["shop": ["ios": [digested]]], in: ["shop": ["window/2": digested]]).map(\.part), ["window/2"])
        XCTAssertEqual(DeployCommand.missing(from: ["blog": ["window/1": [digested]]], in: ["shop": ["window/2": digested]]).map(\.part), ["window/2"])
        // Two windows cancelled or removed at one count have one revision: another's removal here is not this one's.
        let removed = try XCTUnwrap(Lineage.next(after: digested, content: ConfigFormat.absent))
        XCTAssertEqual(DeployCommand.missing(from: ["shop": ["window/4": [removed, digested]]], in: ["shop": ["window/5": removed]]).map(\.part), ["window/5"])
    }

    /// A file's window whose id is another's in this database is made (or
    /// matched) under another id: the file's history of it goes on under
    /// that id, and stays under the file's id, which a remote's record made
    /// from the file's database names: a deploy from here is not refused.
    func testAWindowNumberedAnewKeepsTheFilesHistory() throws {
        let h = Harness()
        h.ok("init")
        h.ok("project add shop --name Shop")
        h.ok("platform add ios --bundle-id com.example.shop")
        h.ok("version add 1.0 --platform ios --build 10")
        h.ok("maintenance schedule --from 2027-01-10T00:00:00Z --for 2h --yes")
        h.ok("maintenance edit 1 --until 2027-01-10T03:00:00Z --yes")
        let shell = try XCTUnwrap(Proc.which("sqlite3"), "the sqlite3 shell is needed (scripts/deps.sh test installs it)")
        func windows(_ db: String, _ slug: String) throws -> [String] {
            try Proc.run(shell, [db, "SELECT part || '=' || chain FROM lineage WHERE project = '\(slug)' AND part LIKE 'window/%' ORDER BY part"])
                .out.split(separator: "\n").map(String.init)
        }
        let theirs = try windows(h.db, "shop")
        XCTAssertEqual(theirs.count, 1, "\(theirs)")
        let revisions = try XCTUnwrap(theirs.first?.split(separator: "=").last).split(separator: " ").map(String.init)
        XCTAssertEqual(revisions.count, 2, "scheduled and edited: \(theirs)")
        let file = write(h, "shop.relctl.json", h.ok("export").out)
        // Another database, whose window #1 is another project's.
        let other = h.dir + "/other.db"
        for line in ["init", "project add blog --name Blog", "-p blog platform add ios --bundle-id com.example.blog",
                     "-p blog maintenance schedule --from 2027-02-01T00:00:00Z --for 1h --yes"] {
            let r = h.run(Harness.split(line), database: other)
            XCTAssertEqual(r.status, 0, "\(line): \(r.err)")
        }
        let applied = h.run(["apply", file, "--yes", "-q"], database: other)
        XCTAssertEqual(applied.status, 0, applied.err)
        let ours = try windows(other, "shop")
        XCTAssertEqual(ours.map { $0.split(separator: "=")[0] }, ["window/1", "window/2"], "\(ours)")
        XCTAssertEqual(ours.first, theirs.first, "the file's history, as the file names it")
        let chain = try XCTUnwrap(ours.last?.split(separator: "=").last).split(separator: " ").map(String.init)
        XCTAssertEqual(Array(chain.suffix(revisions.count)), revisions, "the file's revisions go on under the id here: \(ours) after \(theirs)")
        XCTAssertEqual(try windows(other, "blog").count, 1, "blog's window #1 keeps its own")
        // A release the first database deployed is replaced from this one: it holds every change of it.
        let first = try Store(path: h.db, mode: .read, user: "t").lineage()
        let record = first.mapValues { $0.compactMapValues(\.first) }
        XCTAssertEqual(DeployCommand.missing(from: try Store(path: other, mode: .read, user: "t").lineage(), in: record).map(\.part), [])
        // And the other way: a release this database deployed names the window #2; the first holds it as its #1.
        let shopHere = try XCTUnwrap(try Store(path: other, mode: .read, user: "t").lineage()["shop"])
        XCTAssertEqual(DeployCommand.missing(from: first, in: ["shop": shopHere.compactMapValues(\.first)]).map(\.part), [])
        // Its export names the window by its id here, with that history; applied again, nothing moves.
        let again = h.run(["export", "-p", "shop"], database: other).out
        XCTAssertTrue(again.contains("\"window/2\""), again)
        let back = h.run(["apply", write(h, "again.relctl.json", again), "--yes", "-q"], database: other)
        XCTAssertEqual(back.status, 0, back.err)
        XCTAssertEqual(try windows(other, "shop"), ours)
        // The file's own edit of the window is no drift here (the rows name it #2, the file #1); an edit made here is.
        let later = write(h, "later.relctl.json", try String(contentsOfFile: file, encoding: .utf8)
            .replacingOccurrences(of: "\"until\":\"2027-01-10T03:00:00Z\"", with: "\"until\":\"2027-01-10T04:00:00Z\""))
        let fileEdit = h.run(["plan", later], database: other)
        XCTAssertTrue(fileEdit.out.contains("maintenance #2"), fileEdit.out + fileEdit.err)
        XCTAssertFalse(fileEdit.out.contains("changed in the database since"), fileEdit.out)
        XCTAssertEqual(h.run(["-p", "shop", "maintenance", "edit", "2", "--until", "2027-01-10T05:00:00Z", "--yes", "-q"], database: other).status, 0)
        XCTAssertTrue(h.run(["plan", file], database: other).out.contains("changed in the database since"), "an edit here is drift")
    }

    /// Windows renumbered all at once (one may take the id another file
    /// window had): each history also under the id here; the file's history
    /// or edit of another window under an id a window here has is not its.
    func testWindowHistoriesAreRenamedAllAtOnce() {
        let file = Lineage.Adopting(slug: "shop", chains: ["window/4": [9], "window/7": [8], "window/5": [3], "ios": [2], "window/8": [1]],
                                    edited: ["window/4", "window/8", "ios"])
        let here = file.renumbering([4: 7, 7: 9, 5: 8])
        XCTAssertEqual(here.chains, ["window/4": [9], "window/7": [9], "window/5": [3], "ios": [2], "window/8": [3], "window/9": [8]])
        XCTAssertEqual(here.edited, ["window/7", "ios"], "the file's window 8 is not the window 8 here")
        XCTAssertEqual(file.renumbering([:]).chains, file.chains)
    }

    /// Shop's 1.0 and 1.1 (builds 10 and 11), each with the history [8, 6] here, after an apply
    /// that brings `chains` and counts both as the file's own edits: the harness (which keeps the
    /// database's folder while it is held), the store and the histories.
    static func adopted(_ chains: [String: [Int64]]) throws -> (Harness, Store, [String: [Int64]]) {
        let h = Harness()
        for line in ["init", "project add shop --name Shop", "platform add ios --bundle-id com.example.shop",
                     "version add 1.0 --platform ios --build 10", "version add 1.1 --platform ios --build 11"] { h.ok(line) }
        let store = try Store(path: h.db, mode: .write, user: "tester")
        for part in ["ios/1.0", "ios/1.1"] { try Lineage.set(store.db, "shop", part, [8, 6]) }
        let session = try store.session()
        try session.adoptLineage("shop", chains: chains, edited: ["ios/1.0", "ios/1.1"])
        try session.commit()
        return (h, store, try XCTUnwrap(store.lineage(project: "shop")["shop"]))
    }

    /// When a history has counted a file's edit (`Lineage.counted`), and what
    /// an apply then does with the file's history: takes only the older
    /// revisions it lacks; else the edit is a new revision on top of both.
    func testAHistoryCountsAFilesEditOncePastIt() throws {
        XCTAssertFalse(Lineage.counted([], after: []), "no history here")
        XCTAssertTrue(Lineage.counted([3], after: []), "the file gives the part none: any here")
        XCTAssertFalse(Lineage.counted([5, 4], after: [5, 4]), "at the file's own revision")
        XCTAssertTrue(Lineage.counted([7, 5, 4], after: [5, 4]))
        XCTAssertFalse(Lineage.counted([7, 4], after: [5, 4]), "lacks the file's newest")
        XCTAssertFalse(Lineage.counted([4], after: [5]), "behind the file")
        let full = (20...35).reversed().map(Int64.init)
        XCTAssertTrue(Lineage.counted(full, after: [9]), "older than a full history keeps")
        XCTAssertFalse(Lineage.counted(Array(full.prefix(15)), after: [9]))

        let (h, store, now) = try Self.adopted(["ios/1.0": [6, 4], "ios/1.1": [9, 6]])
        XCTAssertEqual(now["ios/1.0"], [8, 6, 4], "counted: the file's older revision taken, no new one")
        let counted = try XCTUnwrap(now["ios/1.1"])
        XCTAssertEqual(Array(counted.dropFirst()), [9, 8, 6], "not counted: a revision after the file's and this database's")
        XCTAssertEqual(counted.first, try Lineage.clock(store.db), "a change of this database's, counted past every revision it holds")
        withExtendedLifetime(h) {}
    }

    /// On a database whose change capture notes every row (an orphan row left
    /// by hand: no marks, ChangeCapture.begin), the log lists the rows made in
    /// the order made: each new version, then its notes, as one by one.
    func testWithoutMarksNewVersionsAreLoggedInTheOrderMade() throws {
        let h = Harness()
        h.ok("init")
        h.ok("project add shop --name Shop --locales en,de")
        h.ok("platform add ios --bundle-id com.example.shop --app-store-id 1")
        try sqlite3(h, "INSERT INTO note(version_id, locale, body) VALUES (999, 'en', 'orphan')")
        let three = try shopFile(h, "three.json") { versions in
            for k in 1...3 { versions["1.\(k)"] = Self.fileVersion(build: k, "en \(k)", "de \(k)") }
        }
        h.ok("apply \(three) --yes -q")
        let entry = try XCTUnwrap(((h.ok("log --limit 1 --json").json as? [String: Any])?["entries"] as? [[String: Any]])?.first)
        let tables = try XCTUnwrap(entry["changes"] as? [[String: Any]]).compactMap { $0["table"] as? String }
        XCTAssertEqual(tables, Array(repeating: ["version", "note", "note"], count: 3).flatMap { $0 })
    }

    /// The notes of versions an apply makes are written with the triggers off
    /// (ChangeCapture.leftAlone), which holds only while every trigger on
    /// `note` leaves such a note alone: with them on, inserting the notes, and
    /// upserting them again, writes nothing but the notes themselves (SQLite's
    /// count of changes includes every row a trigger writes). A trigger that
    /// writes nothing (a check that raises) would not show there, so the
    /// triggers on `note` are held to those this was worked out for. A
    /// version the database had is under the mark, and its notes are noted.
    func testTheTriggersOnNoteLeaveTheNotesOfAVersionMadeInTheChangeAlone() throws {
        let h = Harness()
        h.ok("init")
        h.ok("project add shop --name Shop --locales en,de")
        h.ok("platform add ios --bundle-id com.example.shop --app-store-id 1")
        h.ok("version add 1.0 --platform ios --build 1 --released 2026-01-01T00:00:00Z --notes Old")
        let db = try Store(path: h.db, mode: .write, user: "tester").db
        let triggers = try db.query("SELECT name FROM sqlite_schema WHERE type = 'trigger' AND tbl_name = 'note' ORDER BY name").map { $0.text(0) }
        XCTAssertEqual(triggers, ["capture_note_deleted", "capture_note_found", "capture_note_inserted", "capture_note_updated",
                                  "note_deleted", "note_inserted", "note_moved", "note_updated"],
                       "a trigger on note changed: work out again whether ChangeCapture.leftAlone still holds, then update this list")
        let platform = try XCTUnwrap(try db.scalar("SELECT id FROM platform").intValue)
        let had = try XCTUnwrap(try db.scalar("SELECT id FROM version").intValue)
        let version = VersionRecord(id: 0, platformID: platform, version: try Version("2.0"), build: 2, releasedAt: 1_767_225_600,
                                    minOS: nil, policy: nil, notes: [:])
        /// Thrown to roll the change back once it is looked at.
        struct Looked: Error {}
        XCTAssertThrowsError(try db.write {
            try ChangeCapture.begin(db)
            let made = try NoteRows.insert(db, platform: platform, [version])
            XCTAssertTrue(try ChangeCapture.leftAlone(db, notesOf: made))
            XCTAssertFalse(try ChangeCapture.leftAlone(db, notesOf: made + [had]), "a version the database had")
            for (pass, bodies) in [["New", "Neu", "Nouveau"], ["Newer", "Neuer", "Nouvelle"]].enumerated() {
                let before = db.totalChanges
                try NoteRows.upsert(db, made.flatMap { id in zip(["en", "de", "fr"], bodies).map { (id, $0, $1) } })
                XCTAssertEqual(db.totalChanges - before, 3, "the notes, and nothing a trigger wrote (\(pass == 0 ? "inserted" : "upserted again"))")
            }
            XCTAssertEqual(try db.scalar("SELECT count(*) FROM row_change"), .int(0))
            let noted = db.totalChanges
            try NoteRows.upsert(db, version: had, [(locale: "de", body: "Alt")])
            XCTAssertGreaterThan(db.totalChanges - noted, 1, "a note of a version the database had is noted by its triggers")
            throw Looked()
        }) { XCTAssertTrue($0 is Looked, "\($0)") }
        XCTAssertFalse(try ChangeCapture.leftAlone(db, notesOf: [had + 1]), "outside a change: no marks")
    }

    /// Once a version's id is at the top of SQLite's range, new ids are picked
    /// at random, at or below the change's mark: their notes are written with
    /// the triggers on, and every row the apply made is in its log. One below
    /// the top, the first new version takes the top id, above the mark, and
    /// the others random ones below it: the notes of all are logged.
    func testVersionsGivenIdsBelowTheMarkAreLoggedWhole() throws {
        for top in [Int64.max, Int64.max - 1] {
            let h = Harness()
            h.ok("init")
            h.ok("project add shop --name Shop --locales en,de")
            h.ok("platform add ios --bundle-id com.example.shop --app-store-id 1")
            h.ok("version add 1.0 --platform ios --build 1 --released 2026-01-01T00:00:00Z --notes Old")
            try sqlite3(h, "UPDATE note SET version_id = \(top); UPDATE version SET id = \(top)")
            let path = try shopFile(h, "more.json") { versions in
                for k in 0..<3 { versions["2.\(k)"] = Self.fileVersion(build: 20 + k, "en \(k)", "de \(k)") }
            }
            h.ok("apply \(path) --yes -q")
            let rows = try loggedRows(h.db)
            XCTAssertEqual(rows.filter { $0.table == "version" }.count, 3, "\(top)")
            XCTAssertEqual(rows.filter { $0.table == "note" }.count, 6, "every note of the three versions, below \(top)")
            XCTAssertTrue(rows.allSatisfy(\.made))
            let c = try Connection(path: h.db, readOnly: true, create: false)
            XCTAssertEqual(try c.scalar("SELECT count(*) FROM version WHERE id > \(top)"), .int(top == Int64.max ? 0 : 1), "\(top)")
        }
    }

    /// The rows a change made are numbered as the scan of each table's key
    /// gives them (ChangeCapture.recordingMade's relctl_row): SQLite sorts
    /// none of them, which would number them in another order.
    func testTheRowsAChangeMadeAreReadInKeyOrderWithoutASort() throws {
        let h = Harness()
        h.ok("init")
        let db = try Store(path: h.db, mode: .read, user: "tester").db
        for t in ChangeCapture.tables {
            let plan = try db.query("EXPLAIN QUERY PLAN " + ChangeCapture.recordingMade(t), [.int(1), .int(0)]).map { $0.text(3) }
            XCTAssertTrue(plan.contains { $0.hasPrefix("SEARCH \(t.name) USING") }, "\(t.name): \(plan)")
            XCTAssertFalse(plan.contains { $0.contains("TEMP B-TREE") }, "\(t.name): \(plan)")
        }
    }

    /// Where earlier removals freed ids and the change removes the highest,
    /// the versions it makes still take ids above every one the database had:
    /// it removes last. Taken again, a freed id would show a version made as
    /// the removed one edited. The log lists the rows removed, then those
    /// made, table by table.
    func testVersionsAnApplyMakesTakeNoFreedId() throws {
        let h = Harness()
        h.ok("init")
        h.ok("project add shop --name Shop --locales en")
        h.ok("platform add ios --bundle-id com.example.shop --app-store-id 1")
        for (k, text) in ["1.0", "1.1", "1.2", "1.3", "1.4"].enumerated() {
            h.ok("version add \(text) --platform ios --build \(10 + k) --released 2026-01-01T00:00:00Z --notes Old\(k)")
        }
        for text in ["1.1", "1.2", "1.3"] { h.ok("version rm \(text) --platform ios --yes -q") }
        let path = try shopFile(h, "renewed.json") { versions in
            versions["1.4"] = nil
            for (k, text) in ["2.0", "2.1", "2.2"].enumerated() { versions[text] = Self.fileVersion(build: 20 + k, "New\(k)", "Neu\(k)") }
        }
        h.ok("apply \(path) --yes -q")
        let entry = try XCTUnwrap(((h.ok("log --limit 1 --json").json as? [String: Any])?["entries"] as? [[String: Any]])?.first)
        let rows = try XCTUnwrap(entry["changes"] as? [[String: Any]]).map { row -> String in
            let image = (row["after"] as? [String: Any]) ?? (row["before"] as? [String: Any]) ?? [:]
            return "\(row["table"] as? String ?? "?") \(image["version"] as? String ?? image["body"] as? String ?? "?")"
        }
        XCTAssertEqual(rows, ["note Old4", "version 1.4", "version 2.0", "version 2.1", "version 2.2", "note Neu0", "note New0", "note Neu1", "note New1",
                              "note Neu2", "note New2"])
        let c = try Connection(path: h.db, readOnly: true, create: false)
        let ids = try c.query("SELECT id FROM version WHERE version IN ('2.0', '2.1', '2.2') ORDER BY id", []).compactMap { $0.int(0) }
        XCTAssertEqual(ids, [6, 7, 8], "above the five versions the database had")
    }

    /// A change of thousands of rows is read back on every core (Store.rowChanges):
    /// the same rows as the log shows them, and of two damaged rows the first is named.
    func testALargeChangeIsReadBackWholeAndItsFirstBadRowNamed() throws {
        let h = Harness()
        h.ok("init")
        h.ok("project add shop --name Shop --locales en,de")
        h.ok("platform add ios --bundle-id com.example.shop --app-store-id 1")
        let many = try shopFile(h, "many.json") { versions in
            for k in 0..<1_400 { versions["2.\(k)"] = Self.fileVersion(build: 2_000 + k, "en \(k)", "de \(k)") }
        }
        h.ok("apply \(many) --yes -q")

        let entry = try XCTUnwrap(((h.ok("log --limit 1 --json").json as? [String: Any])?["entries"] as? [[String: Any]])?.first)
        let changes = try XCTUnwrap(entry["changes"] as? [[String: Any]])
        XCTAssertEqual(changes.count, 1_400 * 3, "every version and both notes of each")
        XCTAssertEqual(changes.filter { ($0["table"] as? String) == "note" }.compactMap { ($0["after"] as? [String: Any])?["body"] as? String }.sorted(),
                       (0..<1_400).flatMap { ["en \($0)", "de \($0)"] }.sorted())
        // In order: the versions made, table by table, in key order (ChangeCapture.record).
        let versionKeys = changes.filter { ($0["table"] as? String) == "version" }.compactMap { ($0["key"] as? [Int])?.first }
        XCTAssertEqual(versionKeys.count, 1_400)
        XCTAssertEqual(versionKeys, versionKeys.sorted())
        let id = try XCTUnwrap(entry["id"] as? Int)
        try sqlite3(h, "UPDATE audit_change SET after = 'x' WHERE audit_id = \(id) AND seq IN (3000, 4000)")
        h.fails("log --limit 1", "bad row: audit_change row 3000 of audit entry #\(id): its after is not a JSON object")
    }

    /// The rows of the last change logged in `db`, in `seq` order: its number, table,
    /// key, and whether it was made (no image before).
    func loggedRows(_ db: String) throws -> [(seq: Int64, table: String, key: [JSON], made: Bool)] {
        let c = try Connection(path: db, readOnly: true, create: false)
        return try c.query("""
            SELECT seq, tbl, row_key, before IS NULL FROM audit_change
            WHERE audit_id = (SELECT max(audit_id) FROM audit_change) ORDER BY seq
            """).map { r in
            guard case .array(let key) = try JSONReader.parse(Array(r.text(2).utf8)) else { throw StoreError("row_key \(r.text(2))") }
            return (r.int(0)!, r.text(1), key, r.int(3) == 1)
        }
    }

    /// Where `a` sorts before `b` as the tables' keys sort in SQLite: table by table
    /// (parents first), then column by column, ids as numbers and text by its bytes.
    static func keyOrder(_ a: (table: String, key: [JSON]), _ b: (table: String, key: [JSON])) -> Bool {
        let ra = ChangeCapture.rank(a.table)!, rb = ChangeCapture.rank(b.table)!
        if ra != rb { return ra < rb }
        for (x, y) in zip(a.key, b.key) where x != y {
            switch (x, y) {
            case (.int(let m), .int(let n)): return m < n
            case (.string(let s), .string(let t)): return s.utf8.lexicographicallyPrecedes(t.utf8)
            default: XCTFail("a key of mixed kinds: \(x), \(y)"); return false
            }
        }
        return false
    }

    /// The rows a change makes are logged after those it notes, table by table
    /// (parents first), each table in the order SQLite sorts its key (ids as
    /// numbers, text by its bytes), numbered without a gap: the order `log`, a
    /// trial and a plan's token read them in (ChangeCapture.record, a statement
    /// per table).
    func testTheRowsAChangeMakesAreNumberedTableByTableInKeyOrder() throws {
        let h = Harness()
        ExportTests.configured(h)
        // Ids past 9 (whose text sorts before 9's), and locales, kinds and fields whose bytes sort otherwise than they were written.
        for k in 0..<12 { h.ok("version add 3.\(k) --platform android --build \(300 + k) --released 2026-02-01T00:00:00Z --notes \"n\(k)\"") }
        h.ok("notes set 3.1 --platform android --locale de \"d\"")
        h.ok("message set required --locale de --title \"Muss\"")
        h.ok("message set required --locale en --message \"Update now\"")
        h.ok("maintenance schedule --from 2026-12-09T02:00:00Z --for 1h --message \"Zurück\" --yes")
        h.ok("maintenance message 2 --locale de --title \"Wartung\"")

        // Every row made in one change: the project applied into an empty database.
        let path = try shopFile(h, "all.json") { _ in }
        let empty = h.dir + "/empty.db"
        XCTAssertEqual(h.run(["init", "-q"], database: empty).status, 0)
        let applied = h.run(["apply", path, "--yes", "-q"], database: empty)
        XCTAssertEqual(applied.status, 0, applied.err)
        let all = try loggedRows(empty)
        XCTAssertEqual(Set(all.map(\.table)), Set(ChangeCapture.tables.map(\.name)), "a row of every table")
        XCTAssertTrue(all.allSatisfy(\.made))
        XCTAssertEqual(all.map(\.seq), Array(1...Int64(all.count)))
        XCTAssertEqual(all.map { "\($0.table) \($0.key)" }, all.sorted { Self.keyOrder(($0.table, $0.key), ($1.table, $1.key)) }.map { "\($0.table) \($0.key)" })

        // Noted and made in one change: a floor moved, and versions with their notes added.
        let edited = try shopFile(h, "edited.json") { versions in
            for k in 0..<11 { versions["4.\(k)"] = Self.fileVersion(build: 400 + k, "en \(k)", "de \(k)") }
        }
        var text = try String(contentsOfFile: edited, encoding: .utf8)
        XCTAssertNotNil(text.range(of: #""version":"1.1""#), "the force floor as exported")
        text = text.replacingOccurrences(of: #""version":"1.1""#, with: #""version":"2.0""#)
        try text.write(toFile: edited, atomically: true, encoding: .utf8)
        h.ok("apply \(edited) --yes -q")
        let rows = try loggedRows(h.db)
        let noted = rows.filter { !$0.made }, made = rows.filter(\.made)
        XCTAssertEqual(noted.map(\.table), ["platform"], "the floor")
        XCTAssertEqual(made.count, 11 * 3, "each version and its two notes")
        XCTAssertGreaterThan(made.first!.seq, noted.map(\.seq).max()!)
        XCTAssertEqual(made.map(\.seq), Array(made.first!.seq..<(made.first!.seq + Int64(made.count))))
        XCTAssertEqual(made.map { "\($0.table) \($0.key)" }, made.sorted { Self.keyOrder(($0.table, $0.key), ($1.table, $1.key)) }.map { "\($0.table) \($0.key)" })
    }

    /// The rows a change makes are read from their tables (ChangeCapture.readMade), not
    /// parsed back from the log, and a plan does not log them at all (Session.forPreview):
    /// each must read as the log's image of it. A plan's rows, those an apply's --json
    /// says it would change, and those `log --json` parses from what the apply logged are
    /// one list, in one order: integers, NULLs, and text with quotes, backslashes, line
    /// breaks and characters beyond ASCII, in every table.
    func testTheRowsAChangeMakesReadAsTheLogHasThem() throws {
        let h = Harness()
        ExportTests.configured(h)
        let odd = "a \"quoted\" \\ back/slash é ß 漢 🚀 \u{2028}"
        h.ok("version add 3.0 --platform ios --build 300 --unreleased")
        for args in [["notes", "set", "3.0", "--platform", "ios", "--locale", "de", odd + "\nline two"], ["message", "set", "required", "--locale", "de", "--title", odd],
                     ["maintenance", "message", "1", "--locale", "de", "--title", odd, "--message", "x"]] {
            let r = h.run(args)
            XCTAssertEqual(r.status, 0, r.err)
        }
        let path = try shopFile(h, "all.json") { _ in }
        let empty = h.dir + "/empty.db"
        XCTAssertEqual(h.run(["init", "-q"], database: empty).status, 0)

        func rows(_ r: Harness.Result, _ list: ([String: Any]) -> Any?) throws -> [NSDictionary] {
            XCTAssertEqual(r.status, 0, r.err)
            let doc = try XCTUnwrap(r.json as? [String: Any], r.out)
            return try XCTUnwrap(list(doc) as? [NSDictionary], r.out)
        }
        let planned = try rows(h.run(["plan", path, "--json"], database: empty)) { (($0["projects"] as? [[String: Any]])?.first)?["rows"] }
        let tried = try rows(h.run(["apply", path, "--dry-run", "--json"], database: empty)) { $0["changes"] }
        XCTAssertEqual(h.run(["apply", path, "--yes", "-q"], database: empty).status, 0)
        let logged = try rows(h.run(["log", "--json", "--limit", "1"], database: empty)) { (($0["entries"] as? [[String: Any]])?.first)?["changes"] }

        XCTAssertGreaterThan(logged.count, 20)
        XCTAssertEqual(Set(logged.compactMap { $0["table"] as? String }).count, ChangeCapture.tables.count, "a row of every table")
        XCTAssertTrue(logged.description.contains("🚀"), "the odd text is among them")
        XCTAssertEqual(planned, logged, "plan")
        XCTAssertEqual(tried, logged, "apply --dry-run")

        // Rows noted and made in one plan of two projects: a new project (made), then shop's
        // force floor moved (noted) with a version added (made) in one change, over a
        // colleague's floor the file takes back (drift, read from the log of entries up to
        // shop's change, the new project's among them in a plan).
        h.ok("project add blog --name Blog")
        h.ok("-p blog platform add android --bundle-id com.example.blog")
        h.ok("-p blog version add 1.0 --build 10 --released 2026-01-01T00:00:00Z --notes \"First\"")
        h.ok("project use shop")
        h.ok("version add 4.0 --platform ios --build 400 --released 2026-02-01T00:00:00Z --notes \"Four\"")
        let both = h.ok("export --all-projects").out
        XCTAssertNotNil(both.range(of: #""version":"1.1""#), "shop's force floor as exported")
        let two = write(h, "two.relctl.json", both.replacingOccurrences(of: #""version":"1.1""#, with: #""version":"2.0""#))
        XCTAssertEqual(h.run(["-p", "shop", "force", "1.2", "--platform", "ios", "--yes", "-q"], database: empty).status, 0)
        let plan2 = h.run(["plan", two, "--json"], database: empty)
        let projects = try XCTUnwrap((plan2.json as? [String: Any])?["projects"] as? [[String: Any]], plan2.out)
        XCTAssertEqual(projects.map { $0["project"] as? String }, ["blog", "shop"])
        XCTAssertFalse((projects[1]["drift"] as? [Any] ?? []).isEmpty, "the colleague's floor: \(plan2.out)")
        let planned2 = projects.flatMap { $0["rows"] as? [NSDictionary] ?? [] }
        let tried2 = try rows(h.run(["apply", two, "--dry-run", "--json"], database: empty)) { $0["changes"] }
        let token = try XCTUnwrap((plan2.json as? [String: Any])?["expect"] as? String)
        let applied2 = h.run(["apply", two, "--expect", token, "--yes", "-q"], database: empty)
        XCTAssertEqual(applied2.status, 0, "the plan's token is the apply's: \(applied2.err)")
        let entries = try XCTUnwrap((h.run(["log", "--json", "--limit", "2"], database: empty).json as? [String: Any])?["entries"] as? [[String: Any]])
        let logged2 = entries.reversed().flatMap { $0["changes"] as? [NSDictionary] ?? [] }
        let shopRows = entries[0]["changes"] as? [NSDictionary] ?? []
        XCTAssertTrue(shopRows.contains { $0["before"] is NSNull } && shopRows.contains { !($0["before"] is NSNull) && !($0["after"] is NSNull) },
                      "shop's change made rows and changed one: \(shopRows)")
        XCTAssertEqual(planned2, logged2, "plan of two projects")
        XCTAssertEqual(tried2, logged2, "apply --dry-run of two projects")
    }

    /// A plan's token hashes the file, then each row as `[table,key,before]`
    /// written compact: the bytes approvals are signed over, the same as when
    /// each row was made into an array to be written.
    func testAPlansTokenHashesTheRowsAsTheyWereWritten() {
        let file = Array(#"{"format":1}"#.utf8)
        let rows = [
            RowChange(table: "version", key: [.int(7)], before: nil, after: ["id": .int(7)]),
            RowChange(table: "note", key: [.int(7), .string("de")],
                      before: ["body": .string("a \"q\" \\ \u{2028} é\n"), "locale": .string("de"), "version_id": .int(7)], after: nil),
            RowChange(table: "message", key: [.int(1), .string("required"), .string("en"), .string("title")], before: ["value": .null], after: [:]),
        ]
        var written: [UInt8] = []
        for row in rows {
            written.append(10)
            JSON.array([.string(row.table), .array(row.key), row.before.map { .object($0) } ?? .null]).writeCompact(to: &written)
        }
        XCTAssertEqual(ConfigCommands.expectToken(SHA256.Pending(file), rows), String(SHA256.hex(file + written).prefix(16)))
        // Begun on another core, and with rows enough to be hashed in many pieces: the same bytes;
        // the same again with the rows handed to the queue after the file, as a plan hands them.
        let many = (0..<3_000).map { RowChange(table: "note", key: [.int(Int64($0)), .string("de")], before: rows[1].before, after: nil) }
        var manyWritten: [UInt8] = []
        for row in many {
            manyWritten.append(10)
            JSON.array([.string(row.table), .array(row.key), row.before.map { .object($0) } ?? .null]).writeCompact(to: &manyWritten)
        }
        XCTAssertGreaterThan(manyWritten.count, 3 << 16)
        let pending = SHA256.Pending(file)
        pending.then { [manyWritten] in $0.update(manyWritten) }
        XCTAssertEqual(pending.state().finish(), SHA256.hex(file + manyWritten))
        XCTAssertEqual(ConfigCommands.expectToken(SHA256.Pending(file), many), String(SHA256.hex(file + manyWritten).prefix(16)))
        XCTAssertNotEqual(ConfigCommands.expectToken(SHA256.Pending(file), rows), ConfigCommands.expectToken(SHA256.Pending(file), Array(rows.reversed())))
    }

    /// export → apply on an empty database → export gives the same bytes; applying again changes and logs nothing.
    func testRoundTripThroughAnEmptyDatabase() throws {
        let h = Harness()
        ExportTests.configured(h)
        h.ok("maintenance start --for 1h --platform android --message \"Short\" --yes")
        h.ok("version add 2.1 --platform ios --build 210 --unreleased --min-os 17.0")
        // Another project, whose window took an id between shop's: a fresh database gives each window its id
        // again (apps see them), though the projects are applied one after the other.
        h.ok("project add blog --name Blog")
        h.ok("-p blog platform add android --bundle-id com.example.blog")
        h.ok("-p blog version add 1.0 --build 10 --released 2026-01-01T00:00:00Z")
        h.ok("-p blog maintenance schedule --from 2026-12-02T02:00:00Z --for 1h --yes")
        h.ok("-p shop maintenance schedule --from 2026-12-03T02:00:00Z --for 1h --yes")
        h.ok("project use shop")
        let file = h.ok("export --all-projects").out
        XCTAssertTrue(file.contains(#""id":3"#) && file.contains(#""id":4"#), file)
        let path = write(h, "shop.relctl.json", file)
        let fresh = h.dir + "/fresh.db"
        XCTAssertEqual(h.run(["init"], database: fresh).status, 0)
        let plan = h.run(["plan", path], database: fresh)
        XCTAssertEqual(plan.status, 0, plan.err)
        XCTAssertTrue(plan.out.contains("shop: created") && plan.out.contains("blog: created") && plan.out.contains("+ version ios 2.1"), plan.out)
        let applied = h.run(["apply", path, "--yes"], database: fresh)
        XCTAssertEqual(applied.status, 0, applied.err)
        XCTAssertEqual(h.run(["export", "--all-projects"], database: fresh).out, file)
        // What users see is the same in both.
        for line in ["-p shop check 1.0 --platform ios", "-p shop check 1.9 --platform android", "-p shop status", "-p blog status"] {
            XCTAssertEqual(h.run(Harness.split(line)).out, h.run(Harness.split(line), database: fresh).out, line)
        }
        let entries = logCount(h, database: fresh)
        let again = h.run(["apply", path, "--yes"], database: fresh)
        XCTAssertEqual(again.status, 0, again.err)
        XCTAssertTrue(again.err.contains("already holds"), again.err)
        XCTAssertEqual(logCount(h, database: fresh), entries, "an unchanged apply logs nothing")
        let unchanged = h.run(["plan", path, "--exit-code"], database: fresh)
        XCTAssertEqual(unchanged.status, 0, unchanged.out + unchanged.err)
        XCTAssertTrue(unchanged.out.hasPrefix("no changes"), unchanged.out)
        // Both databases publish byte-identical trees: nothing in them names a database.
        XCTAssertEqual(h.run(["publish", h.dir + "/a"]).status, 0)
        XCTAssertEqual(h.run(["publish", h.dir + "/b"], database: fresh).status, 0)
        XCTAssertEqual(fileTree(h.dir + "/a"), fileTree(h.dir + "/b"))
        XCTAssertFalse(fileTree(h.dir + "/a").isEmpty)
    }

    /// CI builds its database afresh from the file on every run, into a folder it keeps: a run whose
    /// file changed a floor is published (its stamps are not the last run's, though it counted the
    /// same changes), one whose file did not is found current; deploy takes the fresh database's
    /// release over the one it was exported from, and refuses a database that missed the change.
    func testFreshDatabasesPublishAndDeployLikeTheOneTheFileCameFrom() throws {
        let h = Harness()
        ExportTests.configured(h)
        h.env["PATH"] = "/usr/local/bin:/usr/bin:/bin"
        h.env["HOME"] = h.dir
        h.env["RCLONE_CONFIG"] = "/dev/null"
        guard Proc.which("rclone") != nil else { throw XCTSkip("rclone is not installed (scripts/deps.sh test)") }
        let file = h.ok("export").out
        let out = h.dir + "/out", remote = h.dir + "/remote"
        try FileManager.default.createDirectory(atPath: remote, withIntermediateDirectories: true)
        h.ok("publish \(out)")
        h.ok("deploy \(out) \(remote)")
        let stale = h.dir + "/stale.db"
        try FileManager.default.copyItem(atPath: h.db, toPath: stale)
        func run(_ file: String, _ n: Int) -> (db: String, publish: [String: Any]) {
            let db = h.dir + "/ci\(n).db"
            XCTAssertEqual(h.run(["init"], database: db).status, 0)
            let applied = h.run(["apply", write(h, "ci\(n).relctl.json", file), "--yes"], database: db)
            XCTAssertEqual(applied.status, 0, applied.err)
            let r = h.run(["publish", out, "--json"], database: db)
            XCTAssertEqual(r.status, 0, r.err)
            return (db, r.json as? [String: Any] ?? [:])
        }
        // The same file: the same tree, nothing written, nothing to upload.
        h.now += 60
        let same = run(file, 1)
        XCTAssertEqual(same.publish["changed"] as? [String], [])
        XCTAssertEqual(h.run(["deploy", out, remote, "--json"], database: same.db).json.map { ($0 as? [String: Any])?["uploaded"] as? [String] }, [])
        // A floor moved in the file: the same number of row changes as the last run, other stamps, rendered.
        let moved = file.replacingOccurrences(of: #""deadline":"2026-12-06T12:00:00Z""#, with: #""deadline":"2026-12-04T12:00:00Z""#)
        XCTAssertNotEqual(moved, file)
        h.now += 60
        let next = run(moved, 2)
        XCTAssertFalse((next.publish["changed"] as? [String] ?? []).isEmpty, "\(next.publish)")
        let deployed = h.run(["deploy", out, remote], database: next.db)
        XCTAssertEqual(deployed.status, 0, deployed.err)
        XCTAssertEqual(fileTree(remote), fileTree(out))
        // A database that missed that change (the one the file came from, as it was) does not take the remote back.
        let behind = h.dir + "/behind"
        XCTAssertEqual(h.run(["publish", behind], database: stale).status, 0)
        let refused = h.run(["deploy", behind, remote], database: stale)
        XCTAssertEqual(refused.status, 1)
        XCTAssertTrue(refused.err.contains("holds a release made from changes this database does not hold: shop: ios"), refused.err)
        XCTAssertEqual(fileTree(remote), fileTree(out))
    }

    /// A reviewer's edits: a floor, a deadline, a window, a note in one locale. Plan says each
    /// row and the impact; --exit-code says there are changes; apply makes them, one log entry.
    func testAReviewersEditsArePlannedThenApplied() throws {
        let h = Harness()
        ExportTests.configured(h)
        let original = h.ok("export").out
        var edited = original
        for (from, to) in [(#""deadline":"2026-12-06T12:00:00Z""#, #""deadline":"2026-12-03T12:00:00Z""#),
                           (#""recommend": null,"#, #""recommend": {"build":null,"deadline":null,"version":"2.0"},"#),
                           (#""until":"2026-12-01T04:00:00Z""#, #""until":"2026-12-01T05:00:00Z""#),
                           (#""tr":"Yeni görünüm""#, #""tr":"Yepyeni görünüm""#)] {
            XCTAssertTrue(edited.contains(from), from)
            edited = edited.replacingOccurrences(of: from, with: to)
        }
        let path = write(h, "shop.relctl.json", edited)
        let before = logCount(h)
        let plan = h.run(["plan", path, "--exit-code"])
        XCTAssertEqual(plan.status, ExitStatus.changes, "changes: an exit status no error has: \(plan.err)")
        for expected in ["~ platform ios: force deadline 2026-12-06 12:00 UTC", "→ 2026-12-03 12:00 UTC",
                         "~ platform android: recommend floor none → '2.0'", "~ maintenance #1 (every platform): end",
                         "~ note tr of ios 2.0: body 'Yeni görünüm' → 'Yepyeni görünüm'", "impact:",
                         "from 2026-12-03 12:00 UTC", "apply exactly this plan with: relctl apply"] {
            XCTAssertTrue(plan.out.contains(expected), "'\(expected)' not in:\n\(plan.out)")
        }
        XCTAssertEqual(logCount(h), before, "plan changes nothing")
        XCTAssertEqual(h.ok("export").out, original)
        // Off a terminal, apply needs --yes, and changes nothing without it.
        h.fails("apply \(path)", status: 2, "needs confirmation")
        let applied = h.ok("apply \(path) --yes")
        XCTAssertTrue(applied.err.contains("applied") && applied.err.contains("shop changed"), applied.err)
        XCTAssertEqual(withoutLineage(h.ok("export").out), withoutLineage(edited))
        XCTAssertEqual(logCount(h), before + 1, "one log entry per project")
        let log = (h.ok("log --json").json as? [String: Any])?["entries"] as? [[String: Any]]
        XCTAssertEqual(log?.first?["action"] as? String, "apply shop")
        XCTAssertEqual((log?.first?["changes"] as? [Any])?.count, 4)
        // And it is taken back as one change (a change of its own: the lineage moves on).
        h.ok("undo --yes")
        XCTAssertEqual(withoutLineage(h.ok("export").out), withoutLineage(original))
    }

    /// The ETag: a plan's token no longer matches once the database changed; nothing is applied.
    func testExpectRefusesWhenTheDatabaseMovedSinceThePlan() throws {
        let h = Harness()
        ExportTests.configured(h)
        let path = write(h, "shop.relctl.json", h.ok("export").out.replacingOccurrences(of: #""tr":"Yeni görünüm""#, with: #""tr":"Yepyeni""#))
        guard let token = (h.ok("plan \(path) --json").json as? [String: Any])?["expect"] as? String else { return XCTFail("no token") }
        XCTAssertEqual(token.count, 16)
        // Someone else changes a row the file also governs.
        h.ok("notes set 2.0 --platform ios --locale tr \"Başka\"")
        h.fails("apply \(path) --expect \(token) --yes", "the change is no longer the plan \(token)")
        // With the plan made again, its token applies.
        guard let fresh = (h.ok("plan \(path) --json").json as? [String: Any])?["expect"] as? String else { return XCTFail("no token") }
        XCTAssertNotEqual(fresh, token)
        h.ok("apply \(path) --expect \(fresh) --yes")
        XCTAssertTrue(h.ok("notes show 2.0 --platform ios --locale tr").out.contains("Yepyeni"))
    }

    /// Bad files get the import treatment: the path of the bad value, what is expected, the database unchanged.
    func testBadFilesNameThePathAndChangeNothing() throws {
        let h = Harness()
        ExportTests.configured(h)
        let good = h.ok("export").out
        let cases: [(String, String, String)] = [
            (#""force": {"build""#, #""forse": {"build""#, "projects.shop.platforms.ios.forse: no such key; did you mean 'force'?"),
            (#""build":200,"minOs":null,"notes":{"en":"New look","tr""#, #""build":"200","minOs":null,"notes":{"en":"New look","tr""#,
             "projects.shop.platforms.ios.versions.2.0.build must be a whole number or null"),
            (#""format": 1"#, #""format": 2"#, "format must be 1"),
            (#""pin":"recommend""#, #""pin":"forced""#, "projects.shop.platforms.ios.versions.1.0.pin: 'forced' is not one of force, recommend, none"),
            (#""major":"force/immediately""#, #""major":"force/hourly""#, "projects.shop.rules.major: 'force/hourly' is not ALERT/FREQUENCY"),
            (#""from":"2026-12-01T02:00:00Z""#, #""from":"2026-12-01T09:00:00Z""#, "the window ends at 2026-12-01 04:00 UTC (in 40 h), not after its start"),
            (#""timeZone": "Europe/Istanbul""#, #""timeZone": "Europe/Istanbull""#, "projects.shop.timeZone"),
            (#""platforms": {"#, #""platforms": {"windows": {}, "#, "'windows' is not a platform relctl knows"),
            ("\"versions\": {\n            \"1.0\"", "\"versions\": {\n            \"1.1\": {\"build\":111,\"minOs\":null,\"notes\":{},\"pin\":null,\"released\":null},\n            \"1.0\"",
             "holds \"1.1\" twice (a merge that kept both sides?)"),
            (#""name": "Shop","#, #""name": "Shop""#, "not valid JSON"),
        ]
        for (from, to, expected) in cases {
            XCTAssertTrue(good.contains(from), from)
            let path = write(h, "bad.relctl.json", good.replacingOccurrences(of: from, with: to))
            h.fails("plan \(path)", expected)
            h.fails("apply \(path) --yes", expected)
        }
        h.fails("apply \(h.dir)/missing.json --yes", "missing.json")
        let path = write(h, "shop.relctl.json", good)
        h.fails("apply \(path) -p nosuch --yes", status: 2, "has no project 'nosuch'")
    }

    /// Windows the file no longer lists: an upcoming one is cancelled, the active one ends now when
    /// asked (--end-active-windows; TeamPlanTests holds that it stays on otherwise); past ones stay.
    func testWindowsTheFileDropsAreCancelledOrEnded() throws {
        let h = Harness()
        h.sample()
        h.ok("maintenance start --for 2h --message \"Now\" --yes")
        h.ok("maintenance schedule --from 2026-12-05T02:00:00Z --for 1h --yes")
        let file = h.ok("export").out
        let lines = file.components(separatedBy: "\n")
        XCTAssertEqual(lines.filter { $0.contains("\"from\":") }.count, 2, file)
        let path = write(h, "shop.relctl.json", lines.filter { !$0.contains("\"from\":") }.joined(separator: "\n")
            .replacingOccurrences(of: "\"maintenance\": [\n    ]", with: "\"maintenance\": []")
            .replacingOccurrences(of: "\"maintenance\": [\n      ]", with: "\"maintenance\": []"))
        let plan = h.ok("plan \(path) --end-active-windows")
        XCTAssertTrue(plan.out.contains("~ maintenance #1") && plan.out.contains("~ maintenance #2"), plan.out)
        h.ok("apply \(path) --yes --end-active-windows")
        let windows = (h.ok("maintenance list --json").json as? [String: Any])?["windows"] as? [[String: Any]] ?? []
        XCTAssertEqual(windows.count, 2, "both stay on record: \(windows)")
        XCTAssertEqual(windows.first { $0["id"] as? Int == 1 }?["endsAt"] as? String, "2026-11-29T12:00:00Z", "the active one ended now")
        XCTAssertNotNil(windows.first { $0["id"] as? Int == 2 }?["cancelledAt"] as? String, "the upcoming one is cancelled")
        XCTAssertFalse(h.ok("check 1.0 --platform ios").out.contains("maintenance"))
        // A window of the file that ended before the apply is history: it is not made again.
        h.now += 3 * 86400
        XCTAssertEqual(h.run(["apply", write(h, "old.relctl.json", file), "--yes"]).status, 0)
        XCTAssertFalse(h.ok("export").out.contains("\"from\":\"2026-11-29"), "a window already over is not applied")
    }

    /// Only the projects the file names are touched; -p takes one of them; a file section copied
    /// under another slug promotes staging to production.
    func testOnlyTheProjectsNamedAndPromotionUnderAnotherSlug() throws {
        let h = Harness()
        h.sample()
        h.ok("project add blog --name Blog")
        let shop = h.ok("export -p shop").out
        let blogBefore = h.ok("export -p blog").out
        // Staging's section, under production's slug: a copy, as a reviewer makes it.
        let staging = shop.replacingOccurrences(of: "\"shop\": {", with: "\"shop-staging\": {")
        let path = write(h, "staging.relctl.json", staging)
        // RELCTL_PROJECT, set for everyday commands, does not narrow the file; a -p typed does.
        h.env["RELCTL_PROJECT"] = "blog"
        h.ok("apply \(path) --yes")
        h.env["RELCTL_PROJECT"] = nil
        XCTAssertEqual(h.ok("export -p shop-staging").out, staging)
        XCTAssertEqual(h.ok("export -p blog").out, blogBefore, "a project the file does not name is left alone")
        // Promotion: staging's file under production's slug applies the same configuration there.
        h.ok("-p shop-staging force 2.0 --platform ios --yes")
        let promoted = h.ok("export -p shop-staging").out.replacingOccurrences(of: "\"shop-staging\": {", with: "\"shop\": {")
        let both = write(h, "both.relctl.json", promoted)
        let plan = h.ok("plan \(both)")
        XCTAssertTrue(plan.out.contains("~ platform ios: force floor none → '2.0'"), plan.out)
        h.ok("apply \(both) -p shop --yes")
        XCTAssertEqual(h.ok("export -p shop").out, promoted)
    }

    /// The README's recipe for a team, run verbatim by bash with the real binary, git and rclone (`s3:`
    /// is a local folder here): the file in git, a pull request planned against main's configuration,
    /// a fresh database from the merged file published and deployed, a project copied under another slug.
    func testTheReadmesTeamRecipeRunsVerbatim() throws {
        let readme = Package.read("README.md")
        let start = try XCTUnwrap(readme.range(of: "### A team's recipe\n"))
        let rest = readme[start.upperBound...]
        let block = rest[..<(rest.range(of: "\n## ")?.lowerBound ?? rest.endIndex)]
        let lines = block.split(separator: "\n").filter { $0.hasPrefix("    ") }.map { String($0.dropFirst(4)) }
        XCTAssertGreaterThanOrEqual(lines.count, 20)
        for tool in ["git", "rclone"] where Proc.which(tool) == nil { throw XCTSkip("\(tool) is not installed (scripts/deps.sh test)") }
        let h = Harness()
        // The bucket exists, as one does before a first deploy.
        try FileManager.default.createDirectory(atPath: h.dir + "/updates-bucket", withIntermediateDirectories: true)
        let bin = URL(fileURLWithPath: Package.binary).deletingLastPathComponent().path
        try ("set -e\n" + lines.joined(separator: "\n") + "\n").write(toFile: h.dir + "/recipe.sh", atomically: true, encoding: .utf8)
        let env = ["PATH": bin + ":/usr/local/bin:/usr/bin:/bin", "HOME": h.dir, "TZ": "UTC", "RCLONE_CONFIG": "/dev/null", "RCLONE_CONFIG_S3_TYPE": "local",
                   "GIT_AUTHOR_NAME": "Release", "GIT_AUTHOR_EMAIL": "release@example.com", "GIT_COMMITTER_NAME": "Release",
                   "GIT_COMMITTER_EMAIL": "release@example.com", "GIT_CONFIG_NOSYSTEM": "1"]
        let r = try Proc.run("/bin/bash", [h.dir + "/recipe.sh"], env: env, cwd: h.dir)
        XCTAssertEqual(r.status, 0, r.out + r.err)
        // The recipe ran on the real clock: the checks here too, after it.
        h.now = Int64(Date().timeIntervalSince1970)
        // The review saw the change as users will: the rows and the force coming in a week.
        let plan = try String(contentsOfFile: h.dir + "/plan.txt", encoding: .utf8)
        XCTAssertTrue(plan.contains("force floor none → '1.1'") && plan.contains("+ version ios 1.1"), plan)
        XCTAssertTrue(plan.contains("becomes required") && plan.contains("apply exactly this plan with"), plan)
        // What was deployed is what the merged file says, from a database that never saw the history.
        XCTAssertEqual(fileTree(h.dir + "/updates-bucket/prod"), fileTree(h.dir + "/out"))
        XCTAssertTrue(FileManager.default.fileExists(atPath: h.dir + "/updates-bucket/prod/relctl-releases.json"))
        let live = h.run(["export", "--all-projects"], database: h.dir + "/live.db").out
        XCTAssertEqual(try String(contentsOfFile: h.dir + "/config/relctl.json", encoding: .utf8), live)
        XCTAssertEqual(h.run(["export", "-p", "shop"], database: h.dir + "/ci.db").out, h.run(["export", "-p", "shop"], database: h.dir + "/live.db").out)
        XCTAssertEqual(h.run(["export", "-p", "shop-staging", "--as", "shop"], database: h.dir + "/ci.db").out,
                       h.run(["export", "-p", "shop"], database: h.dir + "/ci.db").out, "the copy under another slug holds the same")
        // The two databases publish the same tree.
        XCTAssertEqual(h.run(["publish", h.dir + "/from-live", "-p", "shop"], database: h.dir + "/live.db").status, 0)
        XCTAssertEqual(fileTree(h.dir + "/from-live").filter { $0.key.hasPrefix("shop/") }, fileTree(h.dir + "/out").filter { $0.key.hasPrefix("shop/") })
    }

    /// The question waits for a person while the clock runs: the window apply ends or cancels is
    /// ended or cancelled at one instant, so the rows made are the rows shown, and --expect holds later.
    func testApplyTakesOneInstantForWhatItShowsAndMakes() throws {
        let h = Harness()
        h.sample()
        h.ok("maintenance start --for 2h --yes")
        h.ok("maintenance schedule --from 2026-12-05T02:00:00Z --for 1h --yes")
        let path = write(h, "shop.relctl.json", h.ok("export").out.components(separatedBy: "\n").filter { !$0.contains("\"from\":") }.joined(separator: "\n")
            .replacingOccurrences(of: "\"maintenance\": [\n      ]", with: "\"maintenance\": []"))
        var clock = h.now
        func run(_ args: [String]) -> (Int32, String) {
            let context = Context(env: h.env, clock: { clock += 2; return clock }, user: "tester", stdin: [])
            context.stdinIsTerminal = true
            context.readLine = { "y" }
            let status = Runner.run(["--db", h.db] + args, context: context, tree: Relctl.tree)
            return (status, context.stderr.text + context.stdout.text)
        }
        let token = try XCTUnwrap((h.ok("plan \(path) --json --end-active-windows").json as? [String: Any])?["expect"] as? String)
        // The plan's token is no instant's: a plan made later, the database the same, is the same plan.
        h.now += 30
        XCTAssertEqual((h.ok("plan \(path) --json --end-active-windows").json as? [String: Any])?["expect"] as? String, token)
        h.now -= 30
        let (status, output) = run(["apply", path, "--end-active-windows"])
        XCTAssertEqual(status, 0, output)
        XCTAssertTrue(output.contains("Apply this change?") && output.contains("applied"), output)
        h.now = clock
        XCTAssertFalse(h.ok("export").out.contains("\"from\":"), "both windows ended or cancelled")
    }
}
