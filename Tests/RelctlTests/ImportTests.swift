import Foundation
import XCTest
@testable import RelctlCLI
@testable import RelctlCore
@testable import RelctlModel

/// `relctl import`: files relctl published come back byte for byte, bad
/// files are refused with the path and the reason, conflicts are listed
/// and refused unless --replace.
final class ImportTests: XCTestCase {
    /// The source harness is kept for the whole test: its folder goes with it.
    var source: Harness?

    // XCTest keeps every test case until the run ends: let go of the harness, and its folder with it.
    override func tearDown() { source = nil }

    func published() -> (Harness, String) {
        let h = PublishTests.scenario()
        source = h
        let out = h.dir + "/out"
        XCTAssertEqual(h.run(["publish", out, "--at", PublishTests.at]).status, 0)
        return (h, out)
    }

    /// A database with the same project and platforms but no versions.
    func fresh() -> Harness {
        let h = Harness()
        h.ok("init")
        h.ok("project add shop --name Shop --locales en,tr,he")
        h.ok("platform add ios --bundle-id com.example.shop --app-store-id 1088280260 --min-os 15.0")
        h.ok("platform add android --bundle-id com.example.shop")
        return h
    }

    func bytes(_ path: String) -> [UInt8] { Array(FileManager.default.contents(atPath: path) ?? Data()) }

    func republish(_ h: Harness, _ relative: String, file: StaticString = #filePath, line: UInt = #line) -> [UInt8] {
        let r = h.run(["publish", h.dir + "/again", "--at", PublishTests.at])
        XCTAssertEqual(r.status, 0, r.err, file: file, line: line)
        return bytes(h.dir + "/again/" + relative)
    }

    func testRetiredRoundTrip() {
        let (_, out) = published()
        for locale in ["en", "tr", "he"] {
            let h = fresh()
            let path = "shop/ios/retired/\(locale).json"
            h.ok("import retired \(out)/\(path) --platform ios --locale \(locale) --yes")
            XCTAssertEqual(String(decoding: republish(h, path), as: UTF8.self), String(decoding: bytes(out + "/" + path), as: UTF8.self), locale)
        }
    }

    func testAndVersionRoundTrip() {
        let (_, out) = published()
        let ios = fresh()
        ios.ok("platform edit ios --app-store-id 1")
        ios.ok("import andversion \(out)/shop/ios/andversion.json --platform ios --replace --yes")
        XCTAssertEqual(republish(ios, "shop/ios/andversion.json"), bytes(out + "/shop/ios/andversion.json"))
        let android = fresh()
        android.ok("version add 1.9 --platform android --build 190 --released 2026-09-01T00:00:00Z")
        android.ok("version add 2.0.0 --platform android --build 200 --released 2026-11-01T00:00:00Z")
        android.ok("import andversion \(out)/shop/android/andversion.json --platform android --yes")
        XCTAssertEqual(String(decoding: republish(android, "shop/android/andversion.json"), as: UTF8.self),
                       String(decoding: bytes(out + "/shop/android/andversion.json"), as: UTF8.self))
    }

    /// Two keys of one language in WhatsNew: the notes of the one spelled as relctl spells the
    /// language are imported, whichever name sorts later, and it is said.
    func testAndVersionKeysOfOneLanguageImportTheOneInRelctlsSpellingAndSaySo() throws {
        let h = fresh()
        h.ok("version add 1.0 --platform ios --build 1 --released 2026-01-01T00:00:00Z")
        let path = h.dir + "/andversion.json"
        try #"{"AndVersion":{"CurrentVersion":"1.0","MinVersion":"0","AppStoreId":"1088280260","WhatsNew":{"en-US":["first"],"en_US":["second"]}}}"#.write(toFile: path, atomically: true, encoding: .utf8)
        let r = h.ok("import andversion \(path) --platform ios --yes")
        XCTAssertTrue(r.err.contains("WhatsNew has more than one key for en-US: the notes of 'en-US' are imported"), r.err)
        XCTAssertTrue(r.err.contains("1 change"), r.err)
        XCTAssertEqual(h.ok("notes show 1.0 --platform ios --locale en-US").out, "first\n", "en-US, though en_US sorts after it")
        // Java's legacy key beside the modern one: the modern one's notes, whatever the order of their names.
        try #"{"AndVersion":{"CurrentVersion":"1.0","MinVersion":"0","AppStoreId":"1088280260","WhatsNew":{"he":["new"],"iw":["old"]}}}"#.write(toFile: path, atomically: true, encoding: .utf8)
        let twins = h.ok("import andversion \(path) --platform ios --yes")
        XCTAssertTrue(twins.err.contains("WhatsNew has more than one key for he: the notes of 'he' are imported"), twins.err)
        XCTAssertEqual(h.ok("notes show 1.0 --platform ios --locale he").out, "new\n")
    }

    func testAndroidCodesMustBeRecorded() {
        let (_, out) = published()
        let h = fresh()
        h.fails("import andversion \(out)/shop/android/andversion.json --platform android --yes", "CurrentVersion 200 is a versionCode no recorded android version has")
    }

    func testBadFilesAreRefusedWithPathAndReason() throws {
        let h = fresh()
        let cases: [(String, String)] = [
            ("{", "invalid JSON"),
            (#"{"versions":[]}"#, "messaging is missing (Retired crashes on this file)"),
            (#"{"messaging":{"forced":{"title":"T","message":"M","continueButtonText":"U"},"recommended":{"title":"T","message":"M","continueButtonText":"U"}},"versions":[{"version":1,"policy":"force"}]}"#,
             "versions[0].version is not a string (Retired crashes on this file)"),
            (#"{"messaging":{"forced":{"title":"T","message":"M","continueButtonText":"U"},"recommended":{"title":"T","message":"M","continueButtonText":"U"}},"versions":[{"version":"v1","policy":"force"}]}"#,
             "versions[0].version 'v1' is not a version relctl can store"),
            // Text `message set` refuses is refused here too; a NUL is not cut off and stored.
            (#"{"messaging":{"forced":{"title":"a\u0000x","message":"M","continueButtonText":"U"},"recommended":{"title":"T","message":"M","continueButtonText":"U"}},"versions":[{"version":"1.0","policy":"force"}]}"#,
             "messaging.forced.title: it contains control characters"),
            (#"{"messaging":{"forced":{"title":"T","message":"{bogus}","continueButtonText":"U"},"recommended":{"title":"T","message":"M","continueButtonText":"U"}},"versions":[{"version":"1.0","policy":"force"}]}"#,
             "messaging.forced.message: unknown placeholder {bogus}"),
            (#"{"messaging":{"forced":{"title":"T","message":"M","continueButtonText":"\uD800\u0041"},"recommended":{"title":"T","message":"M","continueButtonText":"U"}},"versions":[{"version":"1.0","policy":"force"}],"x":"\uD800"}"#,
             "messaging.forced.continueButtonText: holds a \\u escape of half a character"),
        ]
        for (i, (text, reason)) in cases.enumerated() {
            let path = h.dir + "/bad\(i).json"
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            if reason.isEmpty { h.ok("import retired \(path) --platform ios --locale en --dry-run"); continue }
            h.fails("import retired \(path) --platform ios --yes", "cannot import \(path): \(reason)")
        }
        let path = h.dir + "/bad-andversion.json"
        try #"{"AndVersion":{"CurrentVersion":2,"MinVersion":"1","AppStoreId":"1","WhatsNew":{"en":["x"]}}}"#.write(toFile: path, atomically: true, encoding: .utf8)
        h.fails("import andversion \(path) --platform ios --yes", "CurrentVersion is not a string (AndVersion crashes on this file)")
        try #"{"AndVersion":{"CurrentVersion":"2","MinVersion":"1","AppStoreId":"1","WhatsNew":{}}}"#.write(toFile: path, atomically: true, encoding: .utf8)
        h.fails("import andversion \(path) --platform ios --yes", "WhatsNew is missing or empty (AndVersion ignores this file)")
        h.fails("import retired \(h.dir)/missing.json --platform ios --yes", "no such file")
    }

    func testConflictsAreListedAndRefusedUnlessReplace() throws {
        let (_, out) = published()
        let h = fresh()
        h.ok("version add 1.1 --platform ios --released 2026-06-01T00:00:00Z")
        h.ok("version add 2.1 --platform ios --released 2026-11-01T00:00:00Z")
        h.ok("policy set 1.1 force --platform ios --yes")
        let file = "\(out)/shop/ios/retired/en.json"
        let dry = h.ok("import retired \(file) --platform ios --locale en --dry-run")
        XCTAssertTrue(dry.out.contains("would add version 1.0 on ios, released"), dry.out)
        XCTAssertTrue(dry.out.contains("would pin ios 1.1 to recommend"), dry.out)
        XCTAssertTrue(dry.out.contains("conflict: the pin of ios 1.1 is force in the database, recommend in the file"), dry.out)
        h.fails("import retired \(file) --platform ios --locale en --yes", "conflicts with the database in 1 place, first: the pin of ios 1.1 is force in the database, recommend in the file")
        h.ok("import retired \(file) --platform ios --locale en --replace --yes")
        let pins = h.ok("--json policy list --platform ios").out
        XCTAssertTrue(pins.contains("recommend"), pins)
        // A second import of the same file changes nothing.
        XCTAssertTrue(h.ok("import retired \(file) --platform ios --locale en --dry-run").out.contains("nothing to change"))
    }

    /// A project with everything control.json carries: a time zone, a store
    /// URL, a minimum OS per version, an unreleased version, both floors (the
    /// force floor with a deadline), pins, project text, and an active and an
    /// upcoming window, one with copy.
    func controlScenario() -> (Harness, String) {
        let h = PublishTests.scenario()
        source = h
        h.ok("project edit shop --time-zone Europe/Istanbul")
        h.ok("platform edit android --store-url https://example.com/shop.apk")
        h.ok("version add 2.2 --platform ios --build 220 --min-os 16.0")
        h.ok("version add 3.0 --platform ios --build 300 --unreleased")
        h.ok("recommend 2.0 --platform ios --yes")
        h.ok("force 2.0.0 --platform android --deadline 2026-12-20T00:00:00Z --yes")
        h.ok("rules set --release-delay 2 --remind-after 48 --whats-new 3 --yes")
        h.ok("maintenance start --platform android --until 2026-11-29T18:00:00Z --title \"Bakımdayız\" --locale tr --yes")
        let out = h.dir + "/out"
        XCTAssertEqual(h.run(["publish", out, "--at", PublishTests.at]).status, 0)
        return (h, out)
    }

    func testControlRoundTripIntoAnEmptyDatabase() {
        let (_, out) = controlScenario()
        let h = Harness()
        h.ok("init")
        let r = h.ok("import control \(out)/shop/control.json --yes")
        XCTAssertTrue(r.err.contains("not in control.json, so not imported: release notes"), r.err)
        XCTAssertEqual(String(decoding: republish(h, "shop/control.json"), as: UTF8.self), String(decoding: bytes(out + "/shop/control.json"), as: UTF8.self))
        // The move is faithful beyond control.json: every file that does not carry release notes is the same.
        for path in ["shop/ios/siren.json", "shop/prince-of-versions.json", "shop/ios/retired/en.json", "shop/ios/retired/tr.json",
                     "shop/android/retired/he.json"] {
            XCTAssertEqual(String(decoding: bytes(h.dir + "/again/" + path), as: UTF8.self), String(decoding: bytes(out + "/" + path), as: UTF8.self), path)
        }
        // Importing the same file again changes nothing; the windows are not doubled.
        XCTAssertTrue(h.ok("import control \(out)/shop/control.json --dry-run").out.contains("nothing to change"))
        h.ok("import control \(out)/shop/control.json --yes")
        XCTAssertEqual(h.ok("--json maintenance list").out.components(separatedBy: "\"id\"").count - 1, 2)
    }

    func testControlIntoAnotherSlugAndConflicts() {
        let (_, out) = controlScenario()
        let h = Harness()
        h.ok("init")
        let dry = h.ok("import control \(out)/shop/control.json -p staging --dry-run")
        XCTAssertTrue(dry.out.contains("would add project staging (Shop) with 2 platforms"), dry.out)
        XCTAssertTrue(dry.out.contains("would add version 2.2 (build 220) on ios, released 2026-11-29T12:00:00Z"), dry.out)
        XCTAssertTrue(dry.out.contains("would add version 3.0 (build 300) on ios, not released"), dry.out)
        XCTAssertTrue(dry.out.contains("would add maintenance window #"), dry.out)
        h.ok("import control \(out)/shop/control.json -p staging --yes")
        h.ok("-p staging rules set --release-delay 5 --whats-new 4 --yes")
        h.ok("-p staging policy set 1.1 force --platform ios --yes")
        let conflicts = h.ok("import control \(out)/shop/control.json -p staging --dry-run").out
        XCTAssertTrue(conflicts.contains("conflict: the release delay of staging is 5 days in the database, 2 days in the file"), conflicts)
        XCTAssertTrue(conflicts.contains("conflict: the pin of ios 1.1 is force in the database, recommend in the file"), conflicts)
        XCTAssertTrue(conflicts.contains("conflict: the what's-new limit of staging is 4 versions in the database, 3 versions in the file"), conflicts)
        h.fails("import control \(out)/shop/control.json -p staging --yes", "conflicts with the database in 3 places, first: the release delay of staging is 5 days")
        h.ok("import control \(out)/shop/control.json -p staging --replace --yes")
        XCTAssertTrue(h.ok("import control \(out)/shop/control.json -p staging --dry-run").out.contains("nothing to change"))
    }

    func testBadControlFilesAreRefusedWithPathAndReason() throws {
        let (_, out) = controlScenario()
        let good = String(decoding: bytes(out + "/shop/control.json"), as: UTF8.self)
        let h = Harness()
        h.ok("init")
        h.ok("project add other --name Other")
        let cases: [(String, String)] = [
            ("{", "not valid JSON"),
            ("[]", "schemaVersion is missing"),
            (good.replacingOccurrences(of: "\"schemaVersion\":1", with: "\"schemaVersion\":2"), "schemaVersion 2 is not 1"),
            (good.replacingOccurrences(of: "\"version\":\"2.2\"", with: "\"version\":\"v2\""), "platforms.ios.versions[4].version: "),
            (good.replacingOccurrences(of: "\"build\":220", with: "\"build\":-1"), "platforms.ios.versions[4].build: invalid build number '-1'"),
            (good.replacingOccurrences(of: "\"build\":220", with: "\"build\":\"220\""), "platforms.ios.versions[4].build must be a whole number or null"),
            (good.replacingOccurrences(of: "\"defaultLocale\":\"en\"", with: "\"defaultLocale\":\"EN\""), "project.defaultLocale: 'EN' is not a locale tag in its normal spelling"),
            (good.replacingOccurrences(of: "\"releaseDelayDays\":2", with: "\"releaseDelayDays\":99999"), "platforms.android.releaseDelayDays must be a whole number from 0 to 365"),
            (good.replacingOccurrences(of: "\"timeZone\":\"Europe/Istanbul\"", with: "\"timeZone\":\"Mars/Base\""), "project.timeZone: unknown time zone 'Mars/Base'"),
            (good.replacingOccurrences(of: "\"updateButton\":\"", with: "\"updateButton\":\"{price} "), "messages.en.required.updateButton: unknown placeholder {price}"),
            (good.replacingOccurrences(of: "\"updateButton\":\"", with: "\"updateButton\":\"\\u0000"), "messages.en.required.updateButton: it contains control characters"),
            (good.replacingOccurrences(of: "\"startsAt\":\"2026", with: "\"startsAt\":\"0000"), "maintenance.active[0].startsAt must be a UTC time between the years 0001 and 9999"),
            (good.replacingOccurrences(of: "\"platforms\":{", with: "\"platforms\":{\"windows\":{},"), "platforms.windows: 'windows' is not a platform relctl knows"),
        ]
        for (i, (text, reason)) in cases.enumerated() {
            XCTAssertNotEqual(text, good, "case \(i) did not change the file")
            let path = h.dir + "/bad\(i).json"
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            h.fails("import control \(path) --yes", "cannot import \(path): \(reason)")
        }
    }
}
