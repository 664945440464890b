import Foundation
import XCTest
@testable import RelctlCLI
@testable import RelctlCore
@testable import RelctlModel
@testable import RelctlPublish
@testable import RelctlStore

/// `relctl export`: the whole configuration, deterministic, one item a line.
final class ExportTests: XCTestCase {
    static func configured(_ h: Harness) {
        h.sample()
        h.ok("notes set 2.0 --platform ios --locale tr \"Yeni görünüm\"")
        h.ok("force 1.1 --platform ios --after 7d --yes")
        h.ok("policy set 1.0 recommend --platform ios --yes")
        h.ok("message set optional --locale de --title \"Neu\"")
        h.ok("maintenance schedule --from 2026-12-01T02:00:00Z --for 2h --message \"Back soon\" --yes")
        h.ok("maintenance message 1 --locale tr --title \"Bakım\" --message \"Yakında\"")
        h.ok("rules set --major critical --release-delay 2 --yes")
        h.ok("project edit shop --time-zone Europe/Istanbul")
    }

    /// Everything configured is in the file, which follows its schema.
    func testTheFileIsCompleteAndFollowsItsSchema() throws {
        let h = Harness()
        ExportTests.configured(h)
        let out = h.ok("export").out
        let doc = try JSONReader.parse(Array(out.utf8))
        let validator = try SchemaValidator(path: Package.root + "/schema/config.schema.json")
        XCTAssertEqual(validator.validate(doc), [], out)
        // No $schema of an address no editor can fetch: only the one the team gives.
        XCTAssertFalse(out.contains("$schema"), out)
        let pointed = h.ok("export --schema relctl.schema.json").out
        XCTAssertTrue(pointed.contains(#""$schema": "relctl.schema.json""#), pointed)
        XCTAssertEqual(validator.validate(try JSONReader.parse(Array(pointed.utf8))), [])
        for expected in [#""timeZone": "Europe/Istanbul""#,
                         #""force": {"build":null,"deadline":"2026-12-06T12:00:00Z","version":"1.1"}"#,
                         #""2.0": {"build":200,"minOs":null,"notes":{"en":"New look","tr":"Yeni görünüm"},"pin":null,"released":"2026-11-01T00:00:00Z"}"#,
                         #""1.0": {"build":100,"minOs":null,"notes":{"en":"First"},"pin":"recommend","released":"2026-01-01T00:00:00Z"}"#,
                         #"{"copy":{"en":{"message":"Back soon","title":null},"tr":{"message":"Yakında","title":"Bakım"}},"from":"2026-12-01T02:00:00Z","id":1,"platform":null,"until":"2026-12-01T04:00:00Z"}"#,
                         #""de": {"title":"Neu"}"#, #""major":"force/immediately""#, #""releaseDelayDays": 2"#] {
            XCTAssertTrue(out.contains(expected), "\(expected) is not in:\n\(out)")
        }
        // Nothing a fresh database would number differently: no row ids, no revision (a window's id is
        // configuration: apps see it, and apply gives it again).
        XCTAssertFalse(out.replacingOccurrences(of: "\"id\":1,", with: "").contains("\"id\"") || out.contains("\"revision\": "), out)
        // Versions oldest first, one a line.
        let versions = out.components(separatedBy: "\n").filter { $0.hasPrefix("            \"") && $0.contains("\"build\":") }
        XCTAssertEqual(versions.map { String($0.split(separator: "\"")[1]) }, ["1.9", "2.0.0", "1.0", "1.1", "2.0"], "android, then ios, each oldest first: \(out)")
    }

    /// The same configuration gives the same bytes, however the database got there.
    func testTheSameConfigurationGivesTheSameBytes() throws {
        let a = Harness(), b = Harness()
        ExportTests.configured(a)
        // b: the same configuration reached another way (other ids, other order, a detour).
        b.ok("init")
        b.ok("project add other --name Other")
        b.ok("project add shop --name Shop")
        b.ok("-p shop platform add android --bundle-id com.example.shop")
        b.ok("-p shop platform add ios --bundle-id com.example.shop --app-store-id 1088280260 --min-os 15.0")
        b.ok("project rm other --yes")
        b.ok("version add 1.9 --platform android --build 190 --released 2026-09-01T00:00:00Z")
        b.ok("version add 2.0.0 --platform android --build 200 --released 2026-11-01T00:00:00Z --notes \"New look\"")
        b.ok("version add 2.0 --platform ios --build 200 --released 2026-11-01T00:00:00Z --notes \"New look\"")
        b.ok("version add 1.1 --platform ios --build 110 --released 2026-06-01T00:00:00Z --notes \"Better\"")
        b.ok("version add 1.0 --platform ios --build 100 --released 2026-01-01T00:00:00Z --notes \"First\"")
        b.ok("project edit shop --time-zone Europe/Istanbul")
        b.ok("rules set --major critical --release-delay 2 --yes")
        b.ok("message set optional --locale de --title \"Neu\"")
        b.ok("maintenance schedule --from 2026-12-01T02:00:00Z --for 2h --message \"Back soon\" --yes")
        b.ok("maintenance message 1 --locale tr --title \"Bakım\" --message \"Yakında\"")
        b.ok("policy set 1.0 recommend --platform ios --yes")
        b.ok("force 1.1 --platform ios --after 7d --yes")
        b.ok("notes set 2.0 --platform ios --locale tr \"Yeni görünüm\"")
        // The configuration alike; the lineage says which changes each database made.
        XCTAssertEqual(withoutLineage(b.ok("export --all-projects").out), withoutLineage(a.ok("export --all-projects").out))
        XCTAssertEqual(a.ok("export").out, a.ok("export -p shop").out)
        // A window that is over or cancelled is history, not configuration.
        a.now += 3 * 86400
        XCTAssertFalse(a.ok("export").out.contains("Back soon"))
    }

    /// The document made a project at a time is the same in pieces of any
    /// size; each project is read only when it is written; and a file
    /// whose writer fails half-way is not there, nor its temporary, and the
    /// file it would have replaced is kept whole.
    func testTheDocumentIsWrittenAProjectAtATime() throws {
        let h = threeProjects()
        let store = try Store(path: h.db, mode: .read, user: "tester")
        let records = try store.projectSlugs().map { try store.requireProject($0) }
        XCTAssertEqual(records.count, 3)
        let lineage = try store.lineage()
        XCTAssertFalse(lineage.isEmpty, "the pieces carry each project's lineage")
        var read: [String] = []
        // The pieces, and how many projects had been read when each was handed on.
        func render(piece: Int) throws -> (pieces: [[UInt8]], readBefore: [Int]) {
            var pieces: [[UInt8]] = [], readBefore: [Int] = []
            read = []
            try ConfigFormat.render(records.map(\.slug).reversed(), project: { slug in
                read.append(slug)
                let record = try XCTUnwrap(records.first { $0.slug == slug })
                return (try store.snapshot(record), try store.messageOverrides(project: record.id), lineage[slug] ?? [:])
            }, removed: ["gone": ["settings": [3, 5]]], schema: "config.schema.json", at: 0, piece: piece) { bytes in
                pieces.append(bytes)
                readBefore.append(read.count)
            }
            return (pieces, readBefore)
        }
        let (whole, _) = try render(piece: .max)
        XCTAssertEqual(whole.count, 1)
        XCTAssertEqual(read, ["blog", "cafe", "shop"])
        let (small, readBefore) = try render(piece: 1)
        XCTAssertEqual(readBefore, [1, 2, 3, 3], "a project is read when it is written: one piece a project, and the end")
        XCTAssertEqual(small.flatMap { $0 }, whole[0])
        let text = String(decoding: whole[0], as: UTF8.self)
        for part in ["\"$schema\": \"config.schema.json\"", "\"removed\": {", "\"gone\": {", "\"lineage\": {"] { XCTAssertTrue(text.contains(part), part) }

        struct Stop: Error {}
        let path = h.dir + "/fleet.relctl.json"
        try FileSystem.writeFile(path, Array("before".utf8))
        XCTAssertThrowsError(try FileSystem.writeFile(path) { put in try put(small[0][...]); throw Stop() }) { XCTAssertTrue($0 is Stop, "\($0)") }
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), "before")
        XCTAssertThrowsError(try FileSystem.writeFile(h.dir + "/new.json") { put in try put(small[0][...]); throw Stop() }) { XCTAssertTrue($0 is Stop, "\($0)") }
        XCTAssertFalse(FileManager.default.fileExists(atPath: h.dir + "/new.json"))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: h.dir).filter { $0.hasPrefix(TreeFiles.tempMarker) }, [])
        try FileSystem.writeFile(path) { put in for p in small { try put(p[...]) } }
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), Data(whole[0]))
    }

    func testOutputFileAndBadInput() throws {
        let h = Harness()
        ExportTests.configured(h)
        let path = h.dir + "/shop.relctl.json"
        h.ok("export -o \(path)")
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), h.ok("export").out)
        XCTAssertEqual(h.ok("export -o -").out, h.ok("export").out, "- is standard output")
        h.fails("export --all-projects -p shop", status: 2, "--all-projects and -p both say which projects")
        h.fails("export -p nosuch", "no project 'nosuch'")
        h.fails("export -o \(h.dir)", "cannot write")
    }

    /// A publish into a folder another relctl command is writing into (an
    /// export, a --changed-list) sweeps the temporaries killed writes left,
    /// never the one being written.
    func testAPublishSparesAWriteInProgressInItsFolder() throws {
        let h = PublishTests.scenario()
        let fm = FileManager.default
        let out = h.dir + "/out", path = out + "/shop.relctl.json", killed = out + "/.relctl-tmp.blog.relctl.json.00000000000000cc"
        XCTAssertEqual(h.run(["publish", out, "--at", PublishTests.at]).status, 0)
        var publish: Harness.Result?
        try FileSystem.writeFile(path) { put in
            try put(Array("{\"first\": ".utf8)[...])
            XCTAssertTrue(fm.createFile(atPath: killed, contents: Data("x".utf8)))
            publish = h.run(["publish", out, "--at", PublishTests.at])
            try put(Array("true}".utf8)[...])
        }
        XCTAssertEqual(publish?.status, 0, publish?.err ?? "")
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), "{\"first\": true}")
        XCTAssertFalse(fm.fileExists(atPath: killed), "what a killed write left is swept")
        XCTAssertEqual(try fm.contentsOfDirectory(atPath: out).filter { $0.hasPrefix(".relctl-tmp.") }, [])
    }

    /// An export killed before its rename (a kill, the machine's OOM killer)
    /// leaves its temporary: the next export of that path removes it once
    /// no writer holds it and it has been still for a minute.
    func testAKilledExportsTemporaryIsRemovedByTheNext() throws {
        let h = Harness()
        ExportTests.configured(h)
        let fm = FileManager.default
        let out = h.dir + "/out", path = out + "/shop.relctl.json"
        try fm.createDirectory(atPath: out, withIntermediateDirectories: true)
        func temporaries() -> [String] { ((try? fm.contentsOfDirectory(atPath: out)) ?? []).filter { $0.hasPrefix(".relctl-tmp.") }.sorted() }
        // Killed halfway through the first piece (a crash point: the process ends at once, as by SIGKILL).
        let killed = try Proc.run(Package.binary, ["--db", h.db, "export", "-o", path], env: h.env.merging(["RELCTL_CRASH_AT": "2"]) { $1 })
        XCTAssertEqual(killed.status, 86, killed.err)
        let left = temporaries()
        XCTAssertEqual(left.count, 1, "\(left)")
        XCTAssertFalse(fm.fileExists(atPath: path))
        // Beside it: one still being written (locked), one of another file, one of a name not relctl's pattern.
        let writing = out + "/.relctl-tmp.shop.relctl.json.00000000000000aa", other = out + "/.relctl-tmp.blog.relctl.json.00000000000000bb"
        let odd = out + "/.relctl-tmp.shop.relctl.json.keep"
        for f in [writing, other, odd] { XCTAssertTrue(fm.createFile(atPath: f, contents: Data("x".utf8))) }
        let held = open(writing, O_RDONLY)
        defer { close(held) }
        XCTAssertEqual(flock(held, LOCK_EX | LOCK_NB), 0)
        // Just killed: left for now, as one another export has only just closed would be.
        h.ok("export -o \(path)")
        XCTAssertEqual(temporaries(), ([left[0]] + [writing, other, odd].map { ($0 as NSString).lastPathComponent }).sorted())
        // A minute later: the abandoned one goes, the rest stay.
        let minuteAgo = Date().addingTimeInterval(-61)
        for f in temporaries() { try fm.setAttributes([.modificationDate: minuteAgo], ofItemAtPath: out + "/" + f) }
        h.ok("export -o \(path)")
        XCTAssertEqual(temporaries(), [writing, other, odd].map { ($0 as NSString).lastPathComponent }.sorted())
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), h.ok("export").out)
    }
}
