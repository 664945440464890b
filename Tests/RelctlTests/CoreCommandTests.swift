import Foundation
import XCTest
@testable import RelctlCLI
@testable import RelctlCore
@testable import RelctlModel
@testable import RelctlStore
@testable import SQLite

final class ProjectCommandTests: XCTestCase {
    func testProjectsAndTheirResolution() {
        let h = Harness()
        h.ok("init")
        h.fails("platform list", "no project yet")
        h.ok("project add shop --name Shop --default-locale EN-gb")
        h.fails("project add shop", "already exists")
        h.fails("project add Shop", status: 2, "invalid project slug")
        h.fails("project add x --default-locale english", status: 2, "invalid locale")
        h.ok("platform add ios --bundle-id com.example.shop")
        h.ok("project add blog --name Blog")
        h.fails("platform list", status: 2, "2 projects (blog, shop): which one?")
        XCTAssertTrue(h.ok("-p shop platform list").out.contains("ios"))
        h.env["RELCTL_PROJECT"] = "shop"
        XCTAssertTrue(h.ok("platform list").out.contains("ios"))
        h.env["RELCTL_PROJECT"] = nil
        h.ok("project use shop")
        XCTAssertTrue(h.ok("platform list").out.contains("ios"))
        h.fails("-p shp platform list", "did you mean 'shop'?")
        let list = h.ok("--json project list").json as! [String: Any]
        XCTAssertEqual(list["default"] as? String, "shop")
        let projects = list["projects"] as! [[String: Any]]
        XCTAssertEqual(projects.map { $0["slug"] as! String }, ["blog", "shop"])
        XCTAssertEqual(projects[1]["defaultLocale"] as? String, "en-GB")
        h.ok("project edit shop --name \"Shop 2\" --locales en,tr,pt-br")
        let shown = h.ok("--json project show shop").json as! [String: Any]
        XCTAssertEqual(shown["locales"] as? [String], ["en", "tr", "pt-BR"])
        h.fails("project edit shop", status: 2, "nothing to change")
    }

    func testRemovalNeedsConfirmation() {
        let h = Harness()
        h.sample()
        h.fails("project rm shop", status: 2, "needs confirmation")
        let refused = h.run(["project", "rm", "shop"], terminal: true, answer: "n")
        XCTAssertEqual(refused.status, 1)
        XCTAssertTrue(refused.err.contains("Remove project 'shop'"))
        XCTAssertEqual(h.run(["project", "rm", "shop"], terminal: true, answer: "y").status, 0)
        h.fails("project show shop", "no project 'shop'")
        h.ok("project add shop")
        h.ok("platform add ios --bundle-id a.b")
        h.ok("version add 1.0")
        h.ok("project rm shop --yes")
        h.ok("project add shop")
        h.ok("platform add ios --bundle-id a.b")
        // The cascade removed the old versions with the project.
        XCTAssertEqual(h.ok("version list").out.split(separator: "\n").count, 1)
    }
}

final class PlatformCommandTests: XCTestCase {
    func testPlatforms() {
        let h = Harness()
        h.ok("init")
        h.ok("project add shop")
        h.fails("platform add ios", status: 2, "--bundle-id is required")
        h.fails("platform add iso --bundle-id a.b", status: 2, "did you mean 'ios'?")
        h.fails("platform add ios --bundle-id a.b --app-store-id id123", status: 2, "drop the 'id' prefix")
        h.fails("platform add android --bundle-id a.b --app-store-id 123", status: 2, "for Apple platforms")
        h.fails("platform add ios --bundle-id nodots", status: 2, "invalid bundle id")
        let r = h.ok("platform add ios --bundle-id com.example.shop")
        XCTAssertTrue(r.err.contains("warning: no --app-store-id"))
        h.fails("platform add ios --bundle-id a.b", "already has platform ios")
        h.ok("platform edit ios --app-store-id 1088280260 --min-os 15.0")
        let shown = h.ok("--json platform show ios").json as! [String: Any]
        XCTAssertEqual(shown["appStoreId"] as? String, "1088280260")
        XCTAssertEqual(shown["updateUrl"] as? String, "https://apps.apple.com/app/id1088280260")
        h.ok("platform add android --bundle-id com.example.shop")
        h.fails("version list --platform windows", "no platform 'windows'")
        h.fails("version add 1.0", status: 2, "several platforms (android, ios)")
        h.ok("platform rm android --yes")
        h.ok("version add 1.0")
    }
}

final class VersionCommandTests: XCTestCase {
    func testVersionsAreStoredAsTypedAndOrdered() {
        let h = Harness()
        h.sample()
        h.fails("version add 2.0 --platform ios", "already has version 2.0")
        h.fails("version add 2.2 --platform ios --build 200", "build 200 is already version 2.0")
        h.fails("version add 2.2 --platform android", status: 2, "Android versions need --build")
        h.fails("version add 2.x --platform ios", status: 2, "component 'x' is not a number")
        h.fails("version add 2.2 --platform ios --released yesterday", status: 2, "invalid time")
        h.fails("version add 2.2 --platform ios --released now --unreleased", status: 2, "contradict")
        let warned = h.ok("version add 2.0.0 --platform ios --build 201")
        XCTAssertTrue(warned.err.contains("2.0.0 and 2.0 on ios differ only by trailing zeros"))
        XCTAssertTrue(warned.err.contains("Retired"))
        h.ok("version add 10.0 --platform ios --build 1000 --unreleased --min-os 17.0")
        let list = h.ok("--json version list --platform ios").json as! [String: Any]
        let versions = (list["versions"] as! [[String: Any]]).map { $0["version"] as! String }
        XCTAssertEqual(versions, ["10.0", "2.0.0", "2.0", "1.1", "1.0"])
        let ten = (list["versions"] as! [[String: Any]])[0]
        XCTAssertEqual(ten["released"] as? Bool, false)
        XCTAssertTrue(ten["releasedAt"] is NSNull)
        h.ok("version release 10.0 --platform ios --at 2026-11-30T00:00:00Z")
        let shown = h.ok("--json version show 10.0 --platform ios").json as! [String: Any]
        XCTAssertEqual(shown["releasedAt"] as? String, "2026-11-30T00:00:00Z")
        XCTAssertEqual(shown["minOs"] as? String, "17.0")
        h.fails("version show 10 --platform ios", "no version 10 on ios")
        h.fails("version show 2 --platform ios", "versions are matched exactly")
        h.ok("version edit 10.0 --platform ios --build 1001 --unreleased")
        XCTAssertEqual((h.ok("--json version show 10.0 --platform ios").json as! [String: Any])["build"] as? Int, 1001)
        h.fails("version rm 10.0 --platform ios", status: 2, "needs confirmation")
        h.ok("version rm 10.0 --platform ios --yes")
        h.fails("version show 10.0 --platform ios", "no version 10.0")
    }

    /// The user a change is logged under is looked up when a command first
    /// writes, never for one that only reads (a reader's /etc/passwd was a
    /// few percent of a completion callback).
    func testTheUserIsLookedUpOnlyToWrite() throws {
        let h = Harness()
        h.sample()
        var asked = 0
        func run(_ line: String) -> Int32 {
            let context = Context(env: h.env, clock: { [now = h.now] in now })
            context.knownUser = nil
            context.lookUpUser = { asked += 1; return "ada" }
            return Runner.run(["--db", h.db] + Harness.split(line), context: context, tree: Relctl.tree)
        }
        for line in ["version list --platform ios --json", "status", "__complete projects", "log"] {
            XCTAssertEqual(run(line), 0, line)
        }
        XCTAssertEqual(asked, 0, "a reading command looks nobody up")
        XCTAssertEqual(run("version add 9.0 --platform ios --build 900 -q"), 0)
        XCTAssertEqual(asked, 1)
        XCTAssertEqual(try Connection(path: h.db, readOnly: true, create: false).scalar("SELECT user FROM audit ORDER BY id DESC LIMIT 1"), .text("ada"))
    }

    /// `version list --json` off a terminal writes its bytes directly: they
    /// are what the listing's JSON value writes, for versions with and without
    /// each field, notes that need escaping, and locales that change between versions.
    func testVersionListBytesAreWhatItsJSONWrites() throws {
        let now: Int64 = 1_790_000_000
        let ios = PlatformRecord(id: 1, projectID: 1, name: "ios", bundleID: "b", appStoreID: "1", storeURL: nil, minOS: "15.0", force: nil, recommend: nil)
        let android = PlatformRecord(id: 2, projectID: 1, name: "android", bundleID: "b", appStoreID: nil, storeURL: nil, minOS: nil, force: nil, recommend: nil)
        let notes: [[String: String]] = [[:], ["en": "One"], ["en": "Two \"quoted\"\nline\\two", "tr": "Üç\u{2028}dört\u{7}"], ["tr": "x", "en": "y"], ["de": "z", "pt-BR": "w\n"]]
        var rows: [(PlatformRecord, VersionRecord)] = []
        for i in 0..<12 {
            let v = VersionRecord(id: Int64(i + 1), platformID: i % 3 == 0 ? 2 : 1, version: try Version("\(i / 4).\(i % 4)"), build: i % 2 == 0 ? Int64(100 + i) : nil,
                                  releasedAt: [nil, now - 86400, now + 86400][i % 3], minOS: i % 4 == 1 ? "16.\"4\"" : nil,
                                  policy: i % 5 == 2 ? .force : nil, notes: notes[i % notes.count])
            rows.append((i % 3 == 0 ? android : ios, v))
        }
        for n in [0, 1, rows.count] {
            let shown = Array(rows.prefix(n))
            var order: [String] = []
            let general = JSON.object(["versions": .array(shown.map { VersionCommands.json($0.1, platform: $0.0.name, now: now, order: &order) })]).compactBytes()
            XCTAssertEqual(String(decoding: VersionCommands.listBytes(shown, now: now), as: UTF8.self), String(decoding: general, as: UTF8.self), "\(n) versions")
        }
    }

    /// `version add` reads its platform's rows whole once, before the
    /// insert, and checks the spelling, the build and Android's build order
    /// on them: every refusal holds, every spelling of an equal version is
    /// named, and a row damaged by hand stops it, and every other version
    /// command, before anything is committed; for `version add`, before a
    /// refusal of the version itself (2.0 is there already).
    func testVersionWritesRefuseAsTheWholeReadDid() throws {
        let h = Harness()
        h.sample()
        h.fails("version edit 1.1 --platform ios --build 200", "build 200 is already version 2.0")
        h.ok("version edit 1.1 --platform ios --build 111")
        h.fails("version add 2.1 --platform android --build 150", "would rank 2.1 below 2.0.0")
        h.ok("version add 2.0.0 --platform ios --build 201")
        // Every other spelling named, in the platform's order (2.0 build 200 before 2.0.0 build 201).
        let both = h.ok("version add 2.0.0.0 --platform ios --build 202").err
        let first = try XCTUnwrap(both.range(of: "2.0.0.0 and 2.0 on ios differ only by trailing zeros"), both)
        let second = try XCTUnwrap(both.range(of: "2.0.0.0 and 2.0.0 on ios differ only by trailing zeros"), both)
        XCTAssertLessThan(first.lowerBound, second.lowerBound, both)
        let db = try Connection(path: h.db, readOnly: false, create: false)
        for (damage, named) in [("UPDATE version SET policy = 'maybe' WHERE version = '1.0'", "policy 'maybe'"),
                                ("UPDATE version SET version = '1.x' WHERE version = '1.1'", "component 'x'")] {
            try db.execute("BEGIN; \(damage); COMMIT")
            for line in ["version add 3.0 --platform ios --build 300", "version add 2.0 --platform ios", "version edit 2.0 --platform ios --build 299", "version edit 2.0 --platform ios --build 200",
                         "version show 2.0 --platform ios", "notes set 2.0 --platform ios --locale de Neu", "version release 2.0 --platform ios --at 2026-11-01T00:00:00Z"] {
                let r = h.fails(line, "has a bad row")
                XCTAssertTrue(r.err.contains(named), "\(damage) → \(line): \(r.err)")
            }
            XCTAssertEqual(try db.scalar("SELECT count(*) FROM version WHERE version = '3.0' OR build = 299"), .int(0), damage)
            XCTAssertEqual(try db.scalar("SELECT count(*) FROM note WHERE locale = 'de'"), .int(0), damage)
            try db.execute("UPDATE version SET policy = NULL WHERE version = '1.0'; UPDATE version SET version = '1.1' WHERE version = '1.x'")
        }
    }

    /// `version list --json` writes each version's notes in key order,
    /// whichever locales the version listed before it had.
    func testVersionListWritesEachVersionsNotesInKeyOrder() throws {
        let h = Harness()
        h.sample()
        for v in ["3.0", "3.1", "3.2", "3.3"] { h.ok("version add \(v) --platform ios") }
        // Listed newest first: 3.2 has 3.3's locales (the order is reused), 3.0 as many as 3.1 but others.
        for (v, locale, text) in [("3.0", "tr", "a"), ("3.0", "de", "b"), ("3.1", "fr", "c"), ("3.1", "de", "d"), ("3.2", "pt-BR", "e"), ("3.2", "de", "f"), ("3.2", "fr", "g"),
                                  ("3.3", "fr", "h"), ("3.3", "pt-BR", "i"), ("3.3", "de", "j")] {
            h.ok("notes set \(v) --platform ios --locale \(locale) \(text)")
        }
        let out = h.ok("--json version list --platform ios").out
        for notes in [#""notes":{"de":["j"],"fr":["h"],"pt-BR":["i"]}"#, #""notes":{"de":["f"],"fr":["g"],"pt-BR":["e"]}"#, #""notes":{"de":["d"],"fr":["c"]}"#, #""notes":{"de":["b"],"tr":["a"]}"#] {
            XCTAssertTrue(out.contains(notes), "\(notes) in \(out)")
        }
    }

    func testNotesFromArgumentsFilesAndStdin() throws {
        let h = Harness()
        h.sample()
        h.ok("notes set 2.0 --platform ios --locale tr \"Daha hızlı ödeme\" \"İkinci satır\"")
        let file = h.dir + "/notes.txt"
        try Data("\u{FEFF}Schneller\r\nZweite Zeile\r\n\r\n".utf8).write(to: URL(fileURLWithPath: file))
        h.ok("notes set 2.0 --platform ios --locale de --file \(file)")
        let stdin = h.run(["notes", "set", "2.0", "--platform", "ios", "--locale", "ar", "--file", "-"], stdin: Array("مرحبا بكم\n".utf8))
        XCTAssertEqual(stdin.status, 0, stdin.err)
        let notes = (h.ok("--json notes show 2.0 --platform ios").json as! [String: Any])["notes"] as! [String: [String]]
        XCTAssertEqual(notes["tr"], ["Daha hızlı ödeme", "İkinci satır"])
        XCTAssertEqual(notes["de"], ["Schneller", "Zweite Zeile"])
        XCTAssertEqual(notes["ar"], ["مرحبا بكم"])
        XCTAssertEqual(notes["en"], ["New look"])
        XCTAssertEqual(h.ok("notes show 2.0 --platform ios --locale de").out, "Schneller\nZweite Zeile\n")

        try Data([0x48, 0xff, 0xfe, 0x0a]).write(to: URL(fileURLWithPath: file))
        h.fails("notes set 2.0 --platform ios --locale de --file \(file)", "not valid UTF-8")
        h.fails("notes set 2.0 --platform ios --locale de --file \(h.dir)/missing.txt", "no such file")
        h.fails("notes set 2.0 --platform ios --locale de --file \(h.dir)", "is a directory")
        h.fails("notes set 2.0 --platform ios --locale de", status: 2, "no notes given")
        h.fails("notes set 2.0 --platform ios --locale de a --file \(file)", status: 2, "not both")
        h.fails("notes set 9.9 --platform ios --locale de a", "no version 9.9")
        h.ok("notes rm 2.0 --platform ios --locale tr --yes")
        h.fails("notes rm 2.0 --platform ios --locale tr --yes", "has no tr notes")
        h.fails("notes show 2.0 --platform ios --locale tr", "has no tr notes")
    }
}
