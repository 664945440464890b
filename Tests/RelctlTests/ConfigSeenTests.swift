import Foundation
import Synchronization
import XCTest
@testable import RelctlCLI
@testable import RelctlCore
@testable import RelctlStore
@testable import SQLite

/// A plan or apply reads only the projects whose part of the file, or of
/// the database, moved since one found them matching (ConfigSeen), and
/// answers exactly as a full read does.
final class ConfigSeenTests: XCTestCase {
    /// A file read as plan reads it: the projects whose section `known` holds (by digest) are left unread.
    static func read(_ bytes: [UInt8], known: [String: String]) throws(ImportProblem) -> (projects: [ConfigProject], unread: [String]) {
        let cut = ConfigSections(bytes)
        let unread = cut.map { ConfigFormat.unread(bytes, $0, known: known, forEach: Parallel.serial) } ?? []
        var projects: [ConfigProject] = []
        _ = try ConfigFormat.eager { () throws in try ConfigFormat.readFile(bytes, cut: cut, forEach: Parallel.serial, skipping: Set(unread)) { projects.append($0) } }
        return (projects, unread)
    }

    /// The sample's shop and a second project, exported whole.
    static func fleet(_ h: Harness) -> String {
        h.sample()
        h.ok("project add blog --name Blog")
        h.ok("platform add ios -p blog --bundle-id com.example.blog")
        h.ok("version add 3.0 -p blog --platform ios --build 300 --released 2026-10-01T00:00:00Z --notes \"Posts\"")
        let path = h.dir + "/fleet.relctl.json"
        h.ok("export --all-projects -o \(path)")
        return path
    }

    func fleet(_ h: Harness) -> String { ConfigSeenTests.fleet(h) }

    func notes(_ h: Harness) throws -> Int64? {
        try Connection(path: h.db, readOnly: true, create: false).scalar("SELECT count(*) FROM config_seen").intValue
    }

    /// The file with `old` replaced by `new` once, written beside it; and the digest of shop's section in it.
    func edited(_ path: String, _ old: String, _ new: String) throws -> (String, String) {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let range = try XCTUnwrap(text.range(of: old))
        let out = path.replacingOccurrences(of: ".relctl.json", with: "-edited.relctl.json")
        try text.replacingCharacters(in: range, with: new).write(toFile: out, atomically: true, encoding: .utf8)
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: out)))
        let shop = try XCTUnwrap(ConfigSections(bytes)?.projects.first { $0.slug == "shop" })
        return (out, ConfigSections.digest(bytes, shop.range))
    }

    /// An unread project (its note holds) in a time zone this machine does
    /// not know is said after the file's problems and before the database's
    /// refusal of a project read, even one whose slug comes first.
    func testAnUnreadProjectsUnknownZoneIsSaidBeforeTheDatabasesRefusal() throws {
        let h = Harness()
        let path = fleet(h)
        h.ok("plan \(path)")
        // shop's zone set by hand, its note made to hold still.
        let db = try Connection(path: h.db, readOnly: false, create: false)
        try db.execute("UPDATE project SET time_zone = 'Mars/Olympus_Mons' WHERE slug = 'shop'")
        try db.execute("UPDATE config_seen SET stamp = (SELECT edits FROM project_edit e WHERE e.project_id = config_seen.project_id)")
        // blog edited in the file, so read; shop left unread.
        let (edited, _) = try self.edited(path, "\"name\": \"Blog\"", "\"name\": \"Blog!\"")
        h.fails("plan \(edited)", "cannot apply \(edited): projects.shop.timeZone")
        // And when the database refuses blog's write.
        try db.execute("CREATE TRIGGER refuse BEFORE UPDATE OF name ON project WHEN NEW.name = 'Blog!' BEGIN SELECT RAISE(ABORT, 'refused by the test'); END")
        h.fails("plan \(edited)", "cannot apply \(edited): projects.shop.timeZone")
        try db.execute("UPDATE project SET time_zone = 'UTC' WHERE slug = 'shop'")
        h.fails("plan \(edited)", "refused by the test")
    }

    /// A note is trusted while the project's stamp holds: a note forged for
    /// an edited section leaves that section unread (the plan says nothing
    /// changes), and any change of the project's rows ends it.
    func testAPlanLeavesUnreadOnlyWhatANoteStillHolds() throws {
        let h = Harness()
        let path = fleet(h)
        let cold = h.run(["plan", path, "--json"])
        XCTAssertEqual(cold.status, 0, cold.err)
        XCTAssertEqual(try notes(h), 2, "a plan notes the projects it found holding the file")
        let warm = h.run(["plan", path, "--json"])
        XCTAssertEqual(warm.out, cold.out, "unread, the plan says what the full read said")

        let (forged, digest) = try edited(path, "\"First\"", "\"Forged\"")
        XCTAssertEqual(h.run(["plan", forged, "--exit-code"]).status, ExitStatus.changes, "an edited section is read")
        try Connection(path: h.db, readOnly: false, create: false).run("UPDATE config_seen SET digest = ? WHERE project_id = (SELECT id FROM project WHERE slug = 'shop')", [.text(digest)])
        XCTAssertEqual(h.run(["plan", forged, "--exit-code"]).status, 0, "the note names the section: left unread")
        // A note another build of relctl took is no hint: its reading may differ.
        let reader = try Connection(path: h.db, readOnly: true, create: false).scalar("SELECT reader FROM config_seen LIMIT 1")
        #if os(Linux)
        XCTAssertNotEqual(reader, .text("schema \(Store.schemaVersion), reader \(ConfigSeen.revision)"), "a note names the build that took it")
        #endif
        try Connection(path: h.db, readOnly: false, create: false).run("UPDATE config_seen SET reader = ?", [.text("schema \(Store.schemaVersion), reader \(ConfigSeen.revision + 1)")])
        XCTAssertEqual(h.run(["plan", forged, "--exit-code"]).status, ExitStatus.changes, "a note of another build")
        try Connection(path: h.db, readOnly: false, create: false).run("UPDATE config_seen SET reader = ?, digest = ? WHERE project_id = (SELECT id FROM project WHERE slug = 'shop')", [reader, .text(digest)])
        XCTAssertEqual(h.run(["plan", forged, "--exit-code"]).status, 0)
        // A change of the project's rows (by relctl or by hand) moves its stamp: the note no longer holds.
        h.ok("version add 2.1 -p shop --platform ios --build 210 --released 2026-11-15T00:00:00Z")
        let read = h.run(["plan", forged, "--exit-code"])
        XCTAssertEqual(read.status, ExitStatus.changes)
        XCTAssertTrue(read.out.contains("Forged"), read.out)
        let again = h.dir + "/again.relctl.json"
        h.ok("export --all-projects -o \(again)")
        h.ok("plan \(again)")
        let (forgedAgain, digestAgain) = try edited(again, "\"First\"", "\"Forged\"")
        try Connection(path: h.db, readOnly: false, create: false).run("UPDATE config_seen SET digest = ? WHERE project_id = (SELECT id FROM project WHERE slug = 'shop')", [.text(digestAgain)])
        XCTAssertEqual(h.run(["plan", forgedAgain, "--exit-code"]).status, 0)
        try Connection(path: h.db, readOnly: false, create: false).run("UPDATE note SET body = 'by hand' WHERE body = 'Posts'")
        let blog = h.run(["plan", forgedAgain])
        XCTAssertTrue(blog.out.contains("blog: changed") && !blog.out.contains("shop: changed"), "blog's hand edit leaves shop's note: " + blog.out)
        try Connection(path: h.db, readOnly: false, create: false).run("UPDATE note SET body = 'by hand' WHERE body = 'Better'")
        XCTAssertTrue(h.run(["plan", forgedAgain]).out.contains("shop: changed"), "shop's hand edit ends its note")
    }

    /// A window is the one part of a project whose plan moves with the
    /// clock, and is matched by rules that read other projects' ids: a
    /// project whose file lists one still to end is read in full each time.
    func testAProjectWithAWindowStillToEndIsNotNoted() throws {
        let h = Harness()
        _ = fleet(h)
        h.ok("maintenance schedule -p shop --platform ios --from 2026-12-10T00:00:00Z --until 2026-12-10T02:00:00Z --message \"Upgrade\" --yes")
        let path = h.dir + "/window.relctl.json"
        h.ok("export --all-projects -o \(path)")
        h.ok("plan \(path)")
        let noted = { try Connection(path: h.db, readOnly: true, create: false).query("SELECT p.slug FROM config_seen s JOIN project p ON p.id = s.project_id ORDER BY 1").map { $0.text(0) } }
        XCTAssertEqual(try noted(), ["blog"])
        let (forged, digest) = try edited(path, "\"Upgrade\"", "\"Forged\"")
        XCTAssertEqual(h.run(["plan", forged, "--exit-code"]).status, ExitStatus.changes)
        // Once it is over, the project is noted; a note is no hint before the instant it was taken
        // (while the window was on, the forged copy differs).
        h.now = try XCTUnwrap(Time.parseUTC("2026-12-10T02:00:00Z"))
        h.ok("plan \(path)")
        XCTAssertEqual(try noted(), ["blog", "shop"])
        try Connection(path: h.db, readOnly: false, create: false).run("UPDATE config_seen SET digest = ? WHERE project_id = (SELECT id FROM project WHERE slug = 'shop')", [.text(digest)])
        h.now -= 3600
        XCTAssertEqual(h.run(["plan", forged, "--exit-code"]).status, ExitStatus.changes, "not before the plan that took the note")
    }

    /// An apply that leaves projects unread changes, logs and writes the
    /// same histories as one that reads them all: a project whose section
    /// brings a history the database lacks, or a part the section edited,
    /// has it written either way.
    /// A revision past every one these tests make (a change counted far ahead elsewhere).
    static let later: Int64 = 1 << 40

    func testAnApplyWithNotesWritesWhatOneWithoutWrites() throws {
        let h = Harness()
        let path = fleet(h)
        // blog's 3.0 with a later revision in the file (a change made elsewhere), and its ios
        // platform without a history (so edited in the file): applying it writes both.
        var text = try String(contentsOfFile: path, encoding: .utf8)
        let blog = try XCTUnwrap(text.range(of: "\"blog\": {"))
        let lineage = try XCTUnwrap(text.range(of: "\"lineage\": {", range: blog.upperBound..<text.endIndex))
        let chain = try XCTUnwrap(text.range(of: "\"ios/3.0\": [[", range: lineage.upperBound..<text.endIndex))
        text.replaceSubrange(chain, with: "\"ios/3.0\": [[\(Self.later),")
        let histories = try XCTUnwrap(text.range(of: "\"lineage\": {", range: try XCTUnwrap(text.range(of: "\"blog\": {")).upperBound..<text.endIndex))
        let platform = try XCTUnwrap(text.range(of: #"\n *"ios": \[\[[0-9,]+\],"[0-9a-f]+"\],"#, options: .regularExpression, range: histories.upperBound..<text.endIndex))
        text.removeSubrange(platform)
        let bare = h.dir + "/bare.relctl.json"
        try text.write(toFile: bare, atomically: true, encoding: .utf8)
        h.ok("apply \(bare) --yes")
        let copy = h.dir + "/copy.db"
        try Connection(path: h.db, readOnly: false, create: false).run("VACUUM INTO ?", [.text(copy)])
        try Connection(path: copy, readOnly: false, create: false).run("DELETE FROM config_seen")
        // blog's 3.0 and ios histories lost by hand in both (no stamp moves): the apply brings them back, read or not.
        for db in [h.db, copy] { try Connection(path: db, readOnly: false, create: false).run("DELETE FROM lineage WHERE project = 'blog' AND part IN ('ios/3.0', 'ios')") }
        let (edited, _) = try self.edited(bare, "\"Better\"", "\"Much better\"")
        // With the notes, blog is left unread; its histories come from its note.
        let known = try Store(path: h.db, mode: .read, user: "tester").configSeen(now: h.now)
        let cut = try Self.read(Array(try Data(contentsOf: URL(fileURLWithPath: edited))), known: known.mapValues(\.digest))
        XCTAssertEqual(cut.unread, ["blog"])
        XCTAssertEqual(try XCTUnwrap(known["blog"]).lineage["ios/3.0"]?.first, Self.later, "the note keeps the section's histories")
        XCTAssertTrue(try XCTUnwrap(known["blog"]).edited.contains("ios"), "and the parts it counts as edited")
        for db in [h.db, copy] {
            let r = h.run(["apply", edited, "--yes"], database: db)
            XCTAssertEqual(r.status, 0, r.err)
        }
        func dump(_ db: String) throws -> [String] {
            let c = try Connection(path: db, readOnly: true, create: false)
            return try ["SELECT project, part, head, chain FROM lineage ORDER BY 1, 2",
                        "SELECT id, project, action FROM audit ORDER BY id",
                        "SELECT audit_id, seq, tbl, row_key, before, after FROM audit_change ORDER BY 1, 2"].flatMap { sql in
                try c.query(sql, []).map { row in (0..<row.values.count).map { row.string($0) ?? "null" }.joined(separator: "|") }
            }
        }
        let (warm, cold) = (try dump(h.db), try dump(copy))
        XCTAssertEqual(warm, cold)
        XCTAssertTrue(warm.contains { $0.hasPrefix("blog|ios/3.0|\(Self.later)|") }, "blog's 3.0 took the file's later history")
        XCTAssertTrue(warm.contains { $0.hasPrefix("blog|ios|") }, "blog's ios, edited in the file, has a revision of its own")
    }

    /// A plan where some projects are unread and others change prints,
    /// with --json or without, narrowed with -p or not, what a full read prints.
    func testAPlanWithSomeProjectsUnreadSaysWhatAFullReadSays() throws {
        let h = Harness()
        let path = fleet(h)
        h.ok("plan \(path)")
        let copy = h.dir + "/copy.db"
        try Connection(path: h.db, readOnly: false, create: false).run("VACUUM INTO ?", [.text(copy)])
        try Connection(path: copy, readOnly: false, create: false).run("DELETE FROM config_seen")
        let (edited, _) = try self.edited(path, "\"Better\"", "\"Much better\"")
        for args in [["plan", edited], ["plan", edited, "--json"], ["plan", edited, "-p", "blog"], ["plan", edited, "-p", "shop", "--json"],
                     ["plan", path, "--exit-code"], ["apply", edited, "--dry-run"]] {
            try Connection(path: copy, readOnly: false, create: false).run("DELETE FROM config_seen")
            let warm = h.run(args), cold = h.run(args, database: copy)
            XCTAssertEqual(warm.status, cold.status, args.joined(separator: " "))
            XCTAssertEqual(warm.out, cold.out.replacingOccurrences(of: copy, with: h.db), args.joined(separator: " "))
            XCTAssertEqual(warm.err, cold.err.replacingOccurrences(of: copy, with: h.db), args.joined(separator: " "))
        }
        XCTAssertEqual(try notes(h), 2)
    }

    /// Only the grammar between members is taken on trust of the digest;
    /// a document the full read refuses is refused with its words.
    func testSectionsAreCutStrictlyAndAnythingElseIsReadInFull() throws {
        let doc = Array(#"{"format": 1, "projects": {"a": {"x": ["}", "\"]"]}, "b" : {}}}"#.utf8)
        let sections = try XCTUnwrap(ConfigSections(doc))
        XCTAssertEqual(sections.projects.map(\.slug), ["a", "b"])
        XCTAssertEqual(String(decoding: doc[sections.projects[0].range], as: UTF8.self), #"{"x": ["}", "\"]"]}"#)
        XCTAssertEqual(String(decoding: doc[sections.projects[1].range], as: UTF8.self), "{}")
        // A quote ends a string unless an odd number of backslashes comes right before it.
        let escapes = Array(#"{"projects": {"a": {"x": "q\\", "y": "r\\\"}\\", "z": "\\\\\""}, "b": {}}}"#.utf8)
        let cutEscapes = try XCTUnwrap(ConfigSections(escapes))
        XCTAssertEqual(String(decoding: escapes[cutEscapes.projects[0].range], as: UTF8.self), #"{"x": "q\\", "y": "r\\\"}\\", "z": "\\\\\""}"#)
        XCTAssertEqual(cutEscapes.projects.map(\.slug), ["a", "b"])
        // Strings of every length around the eight-byte steps, with bytes that differ from a quote by one bit (¢ is C2 A2).
        for n in 0..<40 {
            for filler in ["a", "¢", "\\\"", "é\\\\"] {
                let value = "{\"x\": \"" + String(repeating: filler, count: n) + "\", \"y\": [\"}\"]}"
                let doc = Array(("{\"projects\": {\"a\": " + value + ", \"b\": {}}}").utf8)
                let cut = try XCTUnwrap(ConfigSections(doc), "\(n) \(filler)")
                XCTAssertEqual(String(decoding: doc[cut.projects[0].range], as: UTF8.self), value, "\(n) \(filler)")
            }
        }
        for bad in [#"{"projects": {"a": {} "b": {}}}"#, #"{"projects": {"a": {}, "a": {}}}"#, #"{"projects": {}} x"#,
                    #"{"projects": []}"#, #"[]"#, #"{"projects": {"a": }}"#, #"{"projects": {"a": {"#] {
            XCTAssertNil(ConfigSections(Array(bad.utf8)), bad)
        }
        // A file whose unread section is fine but whose rest is not: the full read's words.
        let h = Harness()
        let path = fleet(h)
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        let cut = try XCTUnwrap(ConfigSections(bytes))
        let known = Dictionary(uniqueKeysWithValues: cut.projects.map { ($0.slug, ConfigSections.digest(bytes, $0.range)) })
        let all = try Self.read(bytes, known: known)
        XCTAssertEqual(all.unread, ["blog", "shop"])
        XCTAssertTrue(all.projects.isEmpty)
        let some = try Self.read(bytes, known: ["shop": known["shop"]!, "blog": String(repeating: "0", count: 64)])
        XCTAssertEqual(some.unread, ["shop"])
        XCTAssertEqual(some.projects.map(\.slug), ["blog"])
        let text = String(decoding: bytes, as: UTF8.self)
        // The text's own checks too (a lone surrogate, a fraction), in a section read and in the rest, the
        // unread ones not walked; bytes that are not UTF-8 between and after unread sections; and a quote
        // in a bare word, which would turn a walk of the whole text inside out.
        for (old, new) in [("\"Posts\"", "\"Posts\" \"x\""), ("\"format\": 1", "\"format\": 2"), ("\"blog\": {", "\"shop\": {}, \"blog\": {"),
                           ("\"Posts\"", "\"Po\\ud800sts\""), ("\"format\": 1", "\"format\": 1.5"), ("\"build\":300", "\"build\":3e2"),
                           ("\"format\": 1", "\"$schema\": \"\\udc00\", \"format\": 1"), ("\"shop\": {", "\"x\u{1}\": {}, \"shop\": {"),
                           ("10\n    }\n  }\n}", "10\n    }\n  },\n  \"z\u{1}\": 1\n}"), ("\"format\": 1", "\"format\": 1\"")] {
            XCTAssertTrue(text.contains(old), old)
            var broken = Array(text.replacingOccurrences(of: old, with: new).utf8)
            if let at = broken.firstIndex(of: 1) { broken[at] = 0xFF }
            var full = "", fast = ""
            // The whole read, every byte of the text checked.
            do throws(ImportProblem) {
                try ImportProblem.checkText(broken)
                _ = try ConfigFormat.whole(broken, forEach: Parallel.serial)
            } catch { full = error.message }
            do { _ = try Self.read(broken, known: known) } catch { fast = error.message }
            XCTAssertFalse(full.isEmpty, new)
            XCTAssertEqual(fast, full, new)
        }
    }
}

/// Notes are read under the write lock: a project is left unread only
/// while the database holds its part of the file, whatever was written
/// since the file was opened.
final class ConfigSeenRaceTests: XCTestCase {
    func testAProjectIsLeftUnreadOnlyWhileItsNoteHolds() throws {
        let h = Harness()
        h.sample()
        let path = h.dir + "/shop.relctl.json"
        h.ok("export -o \(path)")
        h.ok("plan \(path)")
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        let file = ConfigCommands.Source(path: path, bytes: bytes, sections: try XCTUnwrap(ConfigSections(bytes)), only: nil)
        let store = try Store(path: h.db, mode: .write, user: "tester")
        // Noted: left unread. The note gone: read, found holding what the file says, to be noted
        // again (held). Noted again, then a write (after the file was read): read, and changed.
        for (step, status, held) in [("noted", "unchanged", false), ("note gone", "unchanged", true), ("moved", "changed", false)] {
            if step == "note gone" { try store.db.run("DELETE FROM config_seen") }
            if step == "moved" {
                h.ok("plan \(path)")
                XCTAssertFalse(try store.configSeen(now: h.now).isEmpty)
                try store.db.run("UPDATE project SET name = 'Shop!' WHERE slug = 'shop'")
            }
            let session = try store.session()
            let applied = try ConfigCommands.write(file, session, now: h.now)
            session.drop()
            XCTAssertEqual(applied.map(\.status), [status], step)
            XCTAssertEqual(applied.map { $0.held != nil }, [held], step)
        }
    }
}

/// Whatever a file becomes, reading it with notes of the original's
/// sections gives what reading it whole gives: the same projects, or the
/// same error.
final class ConfigSectionsPropertyTests: XCTestCase {
    /// Where a file's members begin and end.
    static func edges(_ b: [UInt8]) -> [Int] {
        guard let cut = ConfigSections(b) else { return [0] }
        return (cut.top.map(\.range) + cut.projects.map(\.range)).flatMap { [$0.lowerBound, $0.upperBound] }
    }

    /// `original` with one to `most` random edits, a third of them near `edges`: the grammar between members.
    static func edited(_ original: [UInt8], _ rng: inout SplitMix, edges: [Int], most: UInt64) -> [UInt8] {
        let alphabet = Array("{}[]\",:\\ \n0123456789abcnulltrue-".utf8)
        var b = original
        for _ in 0..<(1 + Int(rng.next() % most)) {
            var i = Int(rng.next() % UInt64(b.count))
            if rng.next() % 3 == 0 { i = min(b.count - 1, max(0, rng.pick(edges) + Int(rng.next() % 7) - 3)) }
            switch rng.next() % 4 {
            case 0: b.remove(at: i)
            case 1: b.insert(alphabet[Int(rng.next() % UInt64(alphabet.count))], at: i)
            case 2: b[i] = alphabet[Int(rng.next() % UInt64(alphabet.count))]
            default:
                let n = min(b.count - i, 1 + Int(rng.next() % 40))
                b.insert(contentsOf: b[i..<(i + n)], at: i)
            }
        }
        return b
    }

    func fingerprint(_ p: ConfigProject) -> String {
        let digests = ConfigFormat.digests(p.snapshot, overrides: p.messages, windows: p.snapshot.windows)
        return "\(p.slug) \(digests.sorted { $0.key < $1.key }) \(p.lineage.sorted { $0.key < $1.key }) \(p.edited.sorted())"
    }

    func testAnyEditOfAFileReadsWithNotesAsWhole() throws {
        let h = Harness()
        let path = ConfigSeenTests.fleet(h)
        let original = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        let cut = try XCTUnwrap(ConfigSections(original))
        let known = Dictionary(uniqueKeysWithValues: cut.projects.map { ($0.slug, ConfigSections.digest(original, $0.range)) })
        let whole = Dictionary(uniqueKeysWithValues: try ConfigFormat.whole(original, forEach: Parallel.serial).projects.map { ($0.slug, fingerprint($0)) })
        var rng = SplitMix(seed: 49)
        let edges = Self.edges(original)
        var unreadSeen = 0
        for _ in 0..<1500 {
            let b = Self.edited(original, &rng, edges: edges, most: 3)
            var full: String, fast: String
            // The whole read: readFile reads a project at a time, held to it by the test below.
            do throws(ImportProblem) {
                try ImportProblem.checkText(b)
                full = try ConfigFormat.whole(b, forEach: Parallel.serial).projects.map(fingerprint).joined(separator: "\n")
            } catch { full = "error: " + error.message }
            do {
                let read = try ConfigSeenTests.read(b, known: known)
                unreadSeen += read.unread.count
                fast = (read.projects.map { ($0.slug, fingerprint($0)) } + read.unread.map { ($0, whole[$0]!) })
                    .sorted { $0.0 < $1.0 }.map(\.1).joined(separator: "\n")
            } catch { fast = "error: " + error.message }
            XCTAssertEqual(fast, full, String(decoding: b, as: UTF8.self))
        }
        XCTAssertGreaterThan(unreadSeen, 20, "edits that keep the file readable leave a project unread")
    }

    /// A file read a project at a time (`readFile`) gives what the whole
    /// document read at once gives: the same projects and removed histories,
    /// or the same error, whatever the edit.
    func testAnyEditOfAFileReadsByProjectAsWhole() throws {
        let h = Harness()
        _ = ConfigSeenTests.fleet(h)
        // A removed project's history, so the document's own members are more than the projects.
        h.ok("project add gone --name Gone")
        h.ok("project rm gone --yes")
        let path = h.dir + "/all.relctl.json"
        h.ok("export --all-projects -o \(path)")
        let original = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        XCTAssertTrue(String(decoding: original, as: UTF8.self).contains("\"removed\""))
        /// The file read whole, or a project at a time, one to a chunk (the next read on
        /// other threads meanwhile), by a reader that refuses (`refusing`) the second project it is given.
        func read(_ b: [UInt8], whole: Bool, refusing: Bool = false) -> String {
            struct Refused: Error {}
            do {
                var projects: [ConfigProject] = []
                var removed: [String: [String: [Int64]]]
                if whole {
                    try ImportProblem.checkText(b)
                    (projects, removed) = try ConfigFormat.whole(b, forEach: Parallel.serial)
                } else {
                    removed = try ConfigFormat.readFile(b, cut: ConfigSections(b), forEach: Parallel.serial, ahead: Parallel.ahead, chunk: 1) { p in
                        if refusing && projects.count == 1 { throw Refused() }
                        projects.append(p)
                    }
                }
                return (projects.map(fingerprint) + [removed.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value.sorted { $0.key < $1.key })" }.joined(separator: ",")])
                    .joined(separator: "\n")
            } catch let problem as ImportProblem { return "error: " + problem.message } catch { return "refused" }
        }
        /// Both reads agree; a problem of the file is said before one of its reader, found before or after.
        func same(_ b: [UInt8], _ message: @autoclosure () -> String) {
            let whole = read(b, whole: true)
            XCTAssertEqual(read(b, whole: false), whole, message())
            let projects = (try? ConfigFormat.whole(b, forEach: Parallel.serial).projects.count) ?? 0
            XCTAssertEqual(read(b, whole: false, refusing: true), whole.hasPrefix("error") || projects < 2 ? whole : "refused", message())
            // A file that cannot be cut at its projects is one the whole read refuses (plan and apply rely on it).
            if ConfigSections(b) == nil { XCTAssertTrue(whole.hasPrefix("error"), message()) }
        }
        // And with its projects in another order than their names' (edited by hand).
        let cut = try XCTUnwrap(ConfigSections(original))
        var reordered = Array("{".utf8)
        for (n, member) in cut.top.enumerated() {
            reordered += Array("\(n > 0 ? "," : "")\"\(member.name)\":".utf8)
            guard member.name == "projects" else { reordered += original[member.range]; continue }
            reordered += Array("{".utf8)
            for (k, p) in cut.projects.reversed().enumerated() { reordered += Array("\(k > 0 ? "," : "")\"\(p.slug)\":".utf8) + original[p.range] }
            reordered += Array("}".utf8)
        }
        reordered += Array("}".utf8)
        XCTAssertNotEqual(ConfigSections(reordered)?.projects.map(\.slug), cut.projects.map(\.slug))
        for base in [original, reordered] {
            XCTAssertFalse(read(base, whole: false).hasPrefix("error"), read(base, whole: false))
            same(base, "")
        }
        // Cases the random edits seldom make: each read the same both ways, and refused.
        let text = String(decoding: original, as: UTF8.self)
        let cases: [(String, String)] = [
            ("\"blog\": {", "\"blog\": {}, \"blog\": {"),                        // a project twice
            ("\"name\": \"Blog\"", "\"name\": \"Blog\", \"name\": \"Blog\""),        // a key twice in a project
            ("\"removed\": {", "\"removed\": {\"x\": {}, \"x\": {}, "),              // and in removed
            ("\"removed\": {", "\"removed\": {\"blog\": {}, "),                       // a removed project that is one of the file
            ("\"blog\": {", "\"bl\\u006fg\": {\"x\": 1}, \"blog\": {"),                // a slug spelled with an escape, twice
            ("\"name\": \"Blog\"", "\"name\": 7"),                                 // a project refused
            ("\"format\": 1", "\"format\": 2"),                                   // the document refused
        ]
        for (old, new) in cases {
            XCTAssertTrue(text.contains(old), old)
            let b = Array(text.replacingOccurrences(of: old, with: new).utf8)
            XCTAssertTrue(read(b, whole: false).hasPrefix("error"), new)
            same(b, new)
        }
        for b in [[0xEF, 0xBB, 0xBF] + original, original + Array(" x".utf8), original + Array("{}".utf8)] {
            XCTAssertTrue(read(b, whole: false).hasPrefix("error"))
            same(b, "")
        }
        var rng = SplitMix(seed: 50)
        let bases = [(original, Self.edges(original)), (reordered, Self.edges(reordered))]
        var bySection = 0
        for round in 0..<1500 {
            let b = Self.edited(bases[round % 2].0, &rng, edges: bases[round % 2].1, most: 2)
            var given = false
            if let cut = ConfigSections(b), (try? ConfigFormat.bySection(b, cut, ahead: Parallel.ahead, given: &given) { _ in }) != nil { bySection += 1 }
            same(b, String(decoding: b, as: UTF8.self))
        }
        XCTAssertGreaterThan(bySection, 50, "edits that keep the file readable are read a project at a time")
    }

    /// A file is read no more than a chunk ahead of the projects given, so
    /// that each can be let go before the file's end is read (a fleet's
    /// file had every project held at once, 1.45 GB).
    func testAFileIsReadAChunkAheadOfItsWrite() throws {
        let h = Harness()
        _ = ConfigSeenTests.fleet(h)
        for slug in ["cafe", "deli"] { h.ok("project add \(slug) --name \(slug)") }
        let path = h.dir + "/four.relctl.json"
        h.ok("export --all-projects -o \(path)")
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        let started = Mutex(0)
        // Each chunk's reads counted as they start, then made at once.
        let counted: StartEach = { count, body in
            started.withLock { $0 += 1 }
            for i in 0..<count { body(i) }
            return {}
        }
        var seen: [(String, Int)] = []
        _ = try ConfigFormat.readFile(bytes, cut: ConfigSections(bytes), forEach: Parallel.serial, ahead: counted, chunk: 1) { p in
            seen.append((p.slug, started.withLock { $0 }))
        }
        XCTAssertEqual(seen.map(\.0), ["blog", "cafe", "deli", "shop"])
        // The project given, and the next one read meanwhile.
        XCTAssertEqual(seen.map(\.1), [2, 3, 4, 4])
    }

    /// A problem of the file comes before the caller's checks of its projects
    /// (a time zone this machine must know), and those before what the write
    /// of a project refused, whichever project comes first; plan and apply
    /// say them so.
    func testTheFilesProblemsComeBeforeItsChecksAndThoseBeforeTheWrite() throws {
        let h = Harness()
        let path = ConfigSeenTests.fleet(h)
        let text = String(decoding: try Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self)
        struct Refused: Error {}
        func read(_ text: String, check: String?) -> String {
            let b = Array(text.utf8)
            let read = Result {
                try ConfigFormat.readFile(b, cut: ConfigSections(b), forEach: Parallel.serial, ahead: Parallel.ahead, chunk: 1,
                                          check: { p in if p.slug == check { throw Refused() } }, each: { p in if p.slug == "blog" { throw CancellationError() } })
            }
            guard case .failure(let error) = read else { return "read" }
            return (error as? ImportProblem)?.message ?? (error is Refused ? "check" : "write")
        }
        XCTAssertEqual(read(text, check: nil), "write")
        XCTAssertEqual(read(text, check: "shop"), "check", "shop's check, after blog's write was refused")
        let broken = text.replacingOccurrences(of: "\"name\": \"Shop\"", with: "\"name\": 7")
        XCTAssertNotEqual(broken, text)
        XCTAssertTrue(read(broken, check: "blog").hasPrefix("projects.shop.name"), read(broken, check: "blog"))
        // As plan says it: a zone this machine does not know, named with the file's path and the project's.
        let unknown = text.replacingOccurrences(of: "\"timeZone\": \"UTC\"", with: "\"timeZone\": \"Mars/Olympus_Mons\"")
        XCTAssertNotEqual(unknown, text)
        try unknown.write(toFile: path, atomically: true, encoding: .utf8)
        h.fails("plan \(path)", "cannot apply \(path): projects.blog.timeZone")
    }

    /// A project's value is read as deep as it lies in the document: nesting
    /// the whole read refuses is not read a project at a time either.
    func testAProjectIsReadAsDeepAsItLies() throws {
        let h = Harness()
        let path = ConfigSeenTests.fleet(h)
        let text = String(decoding: try Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self)
        // "projects" and the project are two levels: a value 62 deep inside it is 64 deep in the document.
        for (depth, readable) in [(61, true), (62, false)] {
            let deep = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
            let b = Array(text.replacingOccurrences(of: "\"blog\": {", with: "\"blog\": {\"x\": \(deep), ").utf8)
            let cut = try XCTUnwrap(ConfigSections(b))
            let blog = try XCTUnwrap(cut.projects.first { $0.slug == "blog" })
            var twice = false
            XCTAssertEqual((try? JSONReader.parse(b, blog.range, depth: 2, repeated: &twice)) != nil, readable, "\(depth)")
            XCTAssertEqual((try? JSONReader.parse(b)) != nil, readable, "\(depth)")
        }
    }
}
