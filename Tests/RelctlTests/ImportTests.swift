import Foundation
import XCTest
@testable import RelctlCLI
@testable import RelctlCore

/// `relctl import`: files relctl published come back byte for byte, bad
/// files are refused with the path and the reason, conflicts are listed
/// and refused unless --replace.
final class ImportTests: XCTestCase {
    /// The source harness is kept for the whole test: its folder goes with it.
    var source: Harness?

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
            h.ok("import retired \(out)/\(path) --platform ios --locale \(locale)")
            XCTAssertEqual(String(decoding: republish(h, path), as: UTF8.self), String(decoding: bytes(out + "/" + path), as: UTF8.self), locale)
        }
    }

    func testAndVersionRoundTrip() {
        let (_, out) = published()
        let ios = fresh()
        ios.ok("platform edit ios --app-store-id 1")
        ios.ok("import andversion \(out)/shop/ios/andversion.json --platform ios --replace")
        XCTAssertEqual(republish(ios, "shop/ios/andversion.json"), bytes(out + "/shop/ios/andversion.json"))
        let android = fresh()
        android.ok("version add 1.9 --platform android --build 190 --released 2026-09-01T00:00:00Z")
        android.ok("version add 2.0.0 --platform android --build 200 --released 2026-11-01T00:00:00Z")
        android.ok("import andversion \(out)/shop/android/andversion.json --platform android")
        XCTAssertEqual(String(decoding: republish(android, "shop/android/andversion.json"), as: UTF8.self),
                       String(decoding: bytes(out + "/shop/android/andversion.json"), as: UTF8.self))
    }

    func testAndroidCodesMustBeRecorded() {
        let (_, out) = published()
        let h = fresh()
        h.fails("import andversion \(out)/shop/android/andversion.json --platform android", "CurrentVersion 200 is a versionCode no recorded android version has")
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
        ]
        for (i, (text, reason)) in cases.enumerated() {
            let path = h.dir + "/bad\(i).json"
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            h.fails("import retired \(path) --platform ios", "cannot import \(path): \(reason)")
        }
        let path = h.dir + "/bad-andversion.json"
        try #"{"AndVersion":{"CurrentVersion":2,"MinVersion":"1","AppStoreId":"1","WhatsNew":{"en":["x"]}}}"#.write(toFile: path, atomically: true, encoding: .utf8)
        h.fails("import andversion \(path) --platform ios", "CurrentVersion is not a string (AndVersion crashes on this file)")
        try #"{"AndVersion":{"CurrentVersion":"2","MinVersion":"1","AppStoreId":"1","WhatsNew":{}}}"#.write(toFile: path, atomically: true, encoding: .utf8)
        h.fails("import andversion \(path) --platform ios", "WhatsNew is missing or empty (AndVersion ignores this file)")
        h.fails("import retired \(h.dir)/missing.json --platform ios", "no such file")
    }

    func testConflictsAreListedAndRefusedUnlessReplace() throws {
        let (_, out) = published()
        let h = fresh()
        h.ok("version add 1.1 --platform ios --released 2026-06-01T00:00:00Z")
        h.ok("version add 2.1 --platform ios --released 2026-11-01T00:00:00Z")
        h.ok("policy set 1.1 force --platform ios")
        let file = "\(out)/shop/ios/retired/en.json"
        let dry = h.ok("import retired \(file) --platform ios --locale en --dry-run")
        XCTAssertTrue(dry.out.contains("would add version 1.0 on ios, released"), dry.out)
        XCTAssertTrue(dry.out.contains("would pin ios 1.1 to recommend"), dry.out)
        XCTAssertTrue(dry.out.contains("conflict: ios 1.1 is pinned to force in the database, recommend in the file"), dry.out)
        h.fails("import retired \(file) --platform ios --locale en", "conflicts with the database in 1 place, first: ios 1.1 is pinned to force in the database, recommend in the file")
        h.ok("import retired \(file) --platform ios --locale en --replace")
        let pins = h.ok("--json policy list --platform ios").out
        XCTAssertTrue(pins.contains("recommend"), pins)
        // A second import of the same file changes nothing.
        XCTAssertTrue(h.ok("import retired \(file) --platform ios --locale en --dry-run").out.contains("nothing to change"))
    }
}
