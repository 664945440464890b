import Foundation
import XCTest
@testable import RelctlCLI
@testable import RelctlCore
@testable import RelctlModel
@testable import RelctlStore
@testable import SQLite

/// The ten defects found by running the real client libraries against
/// relctl's files (issue 9), each checked against the file or the command
/// that had it, and `relctl verify` on trees that were tampered with.
final class FidelityDefectTests: XCTestCase {
    let at = "2026-11-29T12:00:00Z"

    func publish(_ h: Harness, _ extra: [String] = []) -> [String: Any] {
        let r = h.run(["publish", h.dir + "/out", "--at", at, "--json"] + extra)
        XCTAssertEqual(r.status, 0, r.err)
        return (r.json as? [String: Any]) ?? [:]
    }

    func file(_ h: Harness, _ path: String) -> [String: Any] {
        let data = FileManager.default.contents(atPath: h.dir + "/out/" + path) ?? Data()
        return (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
    }

    func manifest(_ h: Harness, _ platform: String) -> [String: Any] { file(h, "shop/\(platform)/andversion.json")["AndVersion"] as? [String: Any] ?? [:] }

    func verify(_ h: Harness) -> Harness.Result { h.run(["verify", h.dir + "/out", "--json"]) }

    /// A published file edited by hand, as someone tampering with the tree would.
    func tamper(_ h: Harness, _ path: String, replacing old: String, with new: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let full = h.dir + "/out/" + path
        let text = String(decoding: FileManager.default.contents(atPath: full) ?? Data(), as: UTF8.self)
        XCTAssertTrue(text.contains(old), "\(path) has no \(old): \(text)", file: file, line: line)
        try Data(text.replacingOccurrences(of: old, with: new).utf8).write(to: URL(fileURLWithPath: full))
    }

    /// 1. "outdated: none" reaches siren.json: nothing is announced.
    func testOutdatedNoneSaysNoneInSiren() {
        let h = Harness(); h.sample()
        h.ok("rules set --all annoying --outdated none --yes")
        _ = publish(h)
        let siren = file(h, "shop/ios/siren.json")
        for type in Rules.types { XCTAssertEqual((siren["\(type)UpdateRules"] as? [String: Any])?["alertType"] as? String, "none", type) }
        XCTAssertEqual(verify(h).status, 0)
    }

    /// 2. A floor whose target is inside its release delay acts at once in every file.
    func testFloorsActAtOnceInTheLookupAndManifest() {
        let h = Harness(); h.sample()
        h.ok("version add 2.1 --platform ios --build 210 --released 2026-11-29T06:00:00Z")
        h.ok("recommend 2.1 --platform ios --yes")
        _ = publish(h)
        let lookup = (file(h, "shop/ios/lookup/en.json")["results"] as? [[String: Any]])?.first
        XCTAssertEqual(lookup?["version"] as? String, "2.1", "Siren-driven apps see the version the floor sends users to")
        XCTAssertEqual(manifest(h, "ios")["CurrentVersion"] as? String, "2.1", "the recommend floor reaches AndVersion's CurrentVersion")
        XCTAssertEqual((h.ok("--json check 2.0 --platform ios").json as? [String: Any])?["verdict"] as? String, "optional")
        XCTAssertEqual(verify(h).status, 0)
    }

    /// 3. Versions forced by rules are expressed in both manifests; what cannot be is said.
    func testRuleForcedVersionsReachAndVersion() {
        let h = Harness(); h.sample()
        h.ok("version add 2.1 --platform ios --build 210 --released 2026-11-01T00:00:00Z")
        h.ok("rules set --all default --major critical --yes")
        _ = publish(h)
        XCTAssertEqual(manifest(h, "ios")["MinVersion"] as? String, "2", "everything below the newest major")
        XCTAssertEqual(manifest(h, "android")["MinVersion"] as? Int, 200, "the first versionCode of the newest major")
        XCTAssertEqual(verify(h).status, 0)
        // A minor-only rule forces 2.0 but spares 1.x: AndVersion cannot say that, and publish says so.
        let m = Harness(); m.sample()
        m.ok("version add 2.1 --platform ios --build 210 --released 2026-11-01T00:00:00Z")
        m.ok("rules set --all default --minor critical --yes")
        let r = m.run(["publish", m.dir + "/out", "--at", at])
        XCTAssertEqual(r.status, 0, r.err)
        XCTAssertTrue(r.err.contains("not carried: shop/ios: minor updates of outdated versions (critical)") && r.err.contains("forces only the versions below one MinVersion"), r.err)
        let limits = (m.run(["publish", m.dir + "/out", "--at", at, "--json"]).json as? [String: Any])?["limits"] as? [[String: Any]] ?? []
        XCTAssertTrue(limits.contains { $0["client"] as? String == "AndVersion iOS" && ($0["intent"] as? String)?.contains("minor") == true }, "\(limits)")
    }

    /// 4. Android versionCodes must grow with the version.
    func testAndroidBuildsThatBreakTheOrderAreRefused() {
        let h = Harness(); h.sample()
        h.ok("version add 2.1 --platform android --build 2100")
        let r = h.fails("version add 2.2 --platform android --build 50", "build 50 would rank 2.2 below 2.1 (build 2100)")
        XCTAssertTrue(r.err.contains("above 2100"), r.err)
        h.fails("version add 1.5 --platform android --build 2500", "would rank 1.5 above")
        h.fails("version edit 2.1 --platform android --build 150", "would rank 2.1 below")
        h.ok("version add 2.2 --platform android --build 2200")
        h.ok("version add 2.2 --platform ios --build 5")  // iOS orders by marketing version: any build
    }

    /// 5. WhatsNew always has "en", from the default locale's notes when English is missing.
    func testWhatsNewAlwaysHasEnglish() {
        let h = Harness()
        h.ok("init"); h.ok("project add shop --name Shop --default-locale tr")
        h.ok("platform add ios --bundle-id com.example.shop --app-store-id 1088280260")
        h.ok("version add 1.0 --released 2026-01-01T00:00:00Z --locale tr --notes \"Yeni\"")
        h.ok("notes set 1.0 --locale de Neu")
        let r = h.run(["publish", h.dir + "/out", "--at", at])
        XCTAssertEqual(r.status, 0, r.err)
        XCTAssertTrue(r.err.contains("no English notes"), r.err)
        let whatsNew = manifest(h, "ios")["WhatsNew"] as? [String: [String]]
        XCTAssertEqual(whatsNew?["en"], ["Yeni"], "the default locale's notes stand in for English")
        XCTAssertEqual(whatsNew?["de"], ["Neu"])
    }

    /// 6. Legacy language codes are stored under today's codes.
    func testLegacyLanguageCodesAreCanonical() throws {
        XCTAssertEqual(try LocaleTag.normalize("iw"), "he")
        XCTAssertEqual(try LocaleTag.normalize("in-ID"), "id-ID")
        XCTAssertEqual(try LocaleTag.normalize("ji"), "yi")
        let h = Harness(); h.sample()
        h.ok("notes set 2.0 --platform ios --locale iw שלום")
        let notes = (h.ok("--json notes show 2.0 --platform ios").json as? [String: Any])?["notes"] as? [String: Any]
        XCTAssertNotNil(notes?["he"]); XCTAssertNil(notes?["iw"])
        _ = publish(h)
        XCTAssertNotNil(file(h, "shop/ios/whatsnew/he.json")["versions"], "published for he")
    }

    /// 7. With nothing released, no message reads "update to version  to keep using".
    func testNoEmptyVersionInMessages() {
        let h = Harness()
        h.ok("init"); h.ok("project add shop --name Shop")
        h.ok("platform add ios --bundle-id com.example.shop --app-store-id 1088280260")
        h.ok("version add 1.0 --unreleased")
        _ = publish(h)
        let text = String(decoding: FileManager.default.contents(atPath: h.dir + "/out/shop/ios/retired/en.json") ?? Data(), as: UTF8.self)
        XCTAssertFalse(text.isEmpty)
        XCTAssertFalse(text.contains("version  ") || text.contains("version to") || text.contains("{version}"), text)
    }

    /// 8. An app name cannot smuggle a placeholder into messages.
    func testBracesInAppNamesAreRefused() throws {
        let h = Harness(); h.ok("init")
        h.fails("project add shop --name \"{version} Shop\"", status: 2, "contains a brace")
        h.ok("project add shop --name Shop")
        h.fails("project edit shop --name \"Shop {app}\"", status: 2, "contains a brace")
        try Connection(path: h.db, readOnly: false, create: false).execute("UPDATE project SET name = 'x {version}'")
        h.fails("publish \(h.dir)/out", "has a bad row")
    }

    /// 9. check --json never contradicts its verdict.
    func testCheckJSONAgreesWithTheVerdict() {
        let h = Harness(); h.sample()
        h.ok("rules set --all default --yes")
        h.ok("force 2.0 --platform ios --yes")
        let required = h.ok("--json check 1.1 --platform ios").json as? [String: Any]
        XCTAssertEqual(required?["verdict"] as? String, "required")
        XCTAssertEqual(required?["alert"] as? String, "force")
        XCTAssertEqual(required?["frequency"] as? String, "immediately")
        XCTAssertEqual(required?["skipAllowed"] as? Bool, false)
        h.ok("rules set --all critical --yes")
        h.ok("force --clear --platform ios --yes")
        h.ok("recommend 2.0 --platform ios --yes")
        let optional = h.ok("--json check 1.1 --platform ios").json as? [String: Any]
        XCTAssertEqual(optional?["verdict"] as? String, "optional")
        XCTAssertNotEqual(optional?["alert"] as? String, "force", "an optional update is not a forced alert")
    }

    /// 10. Window ids are never reused, and cancelled windows stay visible.
    func testWindowIdsAreNeverReused() {
        let h = Harness(); h.sample()
        let first = h.ok("--json maintenance schedule --from 2026-12-05T02:00:00Z --until 2026-12-05T03:00:00Z --yes").json as? [String: Any]
        h.ok("maintenance cancel \(first?["id"] as? Int ?? 0) --yes")
        let second = h.ok("--json maintenance schedule --from 2026-12-06T02:00:00Z --until 2026-12-06T03:00:00Z --yes").json as? [String: Any]
        XCTAssertNotEqual(first?["id"] as? Int, second?["id"] as? Int)
        let list = (h.ok("--json maintenance list").json as? [String: Any])?["windows"] as? [[String: Any]] ?? []
        XCTAssertEqual(list.map { $0["state"] as? String }, ["cancelled", "upcoming"])
        h.fails("maintenance cancel \(first?["id"] as? Int ?? 0) --yes", "already cancelled")
        _ = publish(h)
        let upcoming = (file(h, "shop/control.json")["maintenance"] as? [String: Any])?["upcoming"] as? [[String: Any]]
        XCTAssertEqual(upcoming?.map { $0["id"] as? Int }, [second?["id"] as? Int], "a cancelled window is not published")
    }

    // MARK: verify

    func testVerifyReportsAHandEditedPolicy() throws {
        let h = Harness(); h.sample()
        h.ok("force 1.1 --platform ios --yes")
        _ = publish(h)
        XCTAssertEqual(verify(h).status, 0, verify(h).err)
        try tamper(h, "shop/ios/retired/en.json", replacing: #"{"policy":"force","version":"1.0"}"#, with: #"{"policy":"none","version":"1.0"}"#)
        let r = verify(h)
        XCTAssertEqual(r.status, 1)
        let doc = r.json as? [String: Any]
        XCTAssertEqual((doc?["changedFiles"] as? [[String: Any]])?.first?["path"] as? String, "shop/ios/retired/en.json")
        let disagreements = doc?["disagreements"] as? [[String: Any]] ?? []
        XCTAssertTrue(disagreements.contains { $0["client"] as? String == "Retired" && $0["version"] as? String == "1.0" && ($0["check"] as? String)?.hasPrefix("required") == true }, "\(disagreements)")
    }

    /// verify reads each project's files beside its proof, and the files no
    /// project of the database proves (the root's, a removed project's, an
    /// unsafe path's) on their own: every file not as index.json says is
    /// named, in path order, whichever of them it is; an edited file is still
    /// proven as it is, and a project listed only under unsafe paths is still
    /// proven (its files missing).
    func testVerifyNamesEveryFileNotAsTheIndexSays() throws {
        let h = Harness(); h.sample()
        for slug in ["cafe", "deli"] {
            h.ok("project add \(slug) --name \(slug)")
            h.ok("platform add ios -p \(slug) --bundle-id com.example.\(slug)")
            h.ok("version add 1.0 -p \(slug) --platform ios --build 1")
        }
        h.ok("force 1.1 -p shop --platform ios --yes")
        _ = publish(h)
        let clean = verify(h)
        XCTAssertEqual(clean.status, 0, clean.err)
        let out = h.dir + "/out/"
        var index = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out + "index.json"))) as? [String: Any])
        var listed = try XCTUnwrap(index["files"] as? [String: Any])
        let size = { (path: String) in (listed[path] as? [String: Any])?["size"] as? Int ?? -1 }
        let (retired, page) = (size("shop/ios/retired/en.json"), size("index.html"))
        try tamper(h, "shop/ios/retired/en.json", replacing: #"{"policy":"force","version":"1.0"}"#, with: #"{"policy":"none","version":"1.0"}"#)
        XCTAssertEqual(unlink(out + "cafe/control.json"), 0)
        try Data("edited".utf8).write(to: URL(fileURLWithPath: out + "index.html"))
        XCTAssertNotNil(listed["shop/android/andversion.json"])
        listed["shop/android/andversion.json"] = "not an entry"
        listed["gone/ios/retired/en.json"] = ["size": 2, "sha256": String(repeating: "0", count: 64)]
        let deli = listed.keys.filter { $0.hasPrefix("deli/") }
        XCTAssertFalse(deli.isEmpty)
        for path in deli { listed["/" + path] = listed.removeValue(forKey: path) }
        index["files"] = listed
        try JSONSerialization.data(withJSONObject: index).write(to: URL(fileURLWithPath: out + "index.json"))

        let r = verify(h)
        XCTAssertEqual(r.status, 1)
        let doc = r.json as? [String: Any]
        let changed = (doc?["changedFiles"] as? [[String: Any]] ?? []).map { "\($0["path"] as? String ?? "?"): \($0["problem"] as? String ?? "?")" }
        XCTAssertEqual(changed, deli.sorted().map { "/\($0): its index entry is not one relctl writes" } + [
            "cafe/control.json: it is missing",
            "gone/ios/retired/en.json: it is missing",
            "index.html: it is 6 bytes, index.json says \(page): truncated or edited",
            "shop/android/andversion.json: its index entry is not one relctl writes",
            // "none" is a byte shorter than "force".
            "shop/ios/retired/en.json: it is \(retired - 1) bytes, index.json says \(retired): truncated or edited",
        ])
        XCTAssertEqual(doc?["removedProjects"] as? [String], ["gone"])
        let disagreements = doc?["disagreements"] as? [[String: Any]] ?? []
        XCTAssertTrue(disagreements.contains { $0["project"] as? String == "shop" && $0["client"] as? String == "Retired" && $0["version"] as? String == "1.0" }, "\(disagreements)")
        XCTAssertTrue(disagreements.contains { $0["project"] as? String == "deli" && $0["file"] as? String == "deli/control.json" }, "\(disagreements)")
    }

    /// Siren carries no recommend floor, so below one it follows its rules:
    /// doing less is a limit, and so is forcing when the rule for that update
    /// type forces. A siren.json that forces what the floor only offers is a
    /// disagreement, named by the client that reads it.
    func testVerifyReportsASirenFileThatForcesWhatARecommendFloorOffers() throws {
        let h = Harness(); h.sample()
        h.ok("recommend 2.0 --platform ios --yes")
        _ = publish(h)
        XCTAssertEqual(verify(h).status, 0, verify(h).out)
        try tamper(h, "shop/ios/siren.json", replacing: #""forceFloor":null"#, with: #""forceFloor":"2.0""#)
        let r = verify(h)
        XCTAssertEqual(r.status, 1, r.out)
        let disagreements = (r.json as? [String: Any])?["disagreements"] as? [[String: Any]] ?? []
        XCTAssertTrue(disagreements.contains { $0["client"] as? String == "Siren" && $0["version"] as? String == "1.1" && $0["clientDoes"] as? String == "required"
                                               && ($0["check"] as? String)?.hasPrefix("optional (recommend-floor)") == true }, "\(disagreements)")
        // Forced by the project's own rule for major updates: the floor's limit, not a defect.
        let m = Harness(); m.sample()
        m.ok("recommend 2.0 --platform ios --yes")
        m.ok("rules set --all default --major critical --yes")
        XCTAssertEqual((m.ok("--json check 1.1 --platform ios").json as? [String: Any])?["verdict"] as? String, "optional")
        _ = publish(m)
        let ok = verify(m)
        XCTAssertEqual(ok.status, 0, ok.out)
        let limits = (ok.json as? [String: Any])?["limits"] as? [[String: Any]] ?? []
        XCTAssertTrue(limits.contains { $0["client"] as? String == "Siren" && $0["intent"] as? String == "recommend floor 2.0" }, "\(limits)")
    }

    func testVerifyReportsAMinVersionTurnedIntoANumber() throws {
        let h = Harness(); h.sample()
        h.ok("force 2.0 --platform ios --yes")
        _ = publish(h)
        try tamper(h, "shop/ios/andversion.json", replacing: #""MinVersion":"2""#, with: #""MinVersion":2"#)
        let r = h.run(["verify", h.dir + "/out"])
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.out.contains("AndVersion iOS") && r.out.contains("crash (MinVersion is not a string)"), r.out)
    }

    func testVerifyReportsAStaleTreeAndALimit() {
        let h = Harness(); h.sample()
        h.ok("policy set 1.0 force --platform ios --yes")
        h.ok("version add 1.1.5 --platform ios --build 115 --released 2026-07-01T00:00:00Z")
        h.ok("policy set 1.1.5 force --platform ios --yes")
        _ = publish(h)
        let ok = verify(h)
        XCTAssertEqual(ok.status, 0, ok.out)
        let limits = (ok.json as? [String: Any])?["limits"] as? [[String: Any]] ?? []
        XCTAssertTrue(limits.contains { $0["intent"] as? String == "pin 1.1.5 force" && $0["client"] as? String == "AndVersion iOS" }, "\(limits)")
        h.ok("force 2.0 --platform ios --yes")
        let stale = verify(h)
        XCTAssertEqual(stale.status, 1)
        XCTAssertEqual((stale.json as? [String: Any])?["stale"] as? Bool, true)
        h.fails("verify \(h.dir)/nowhere", "has no index.json")
    }

    func testStatusListsWhatFormatsCannotCarry() {
        let h = Harness(); h.sample()
        h.ok("maintenance schedule --from 2026-12-05T02:00:00Z --until 2026-12-05T03:00:00Z --yes")
        let text = h.ok("status").out
        XCTAssertTrue(text.contains("not carried by every published format:") && text.contains("maintenance window #1"), text)
        let limits = (h.ok("--json status").json as? [String: Any])?["limits"] as? [[String: Any]] ?? []
        XCTAssertTrue(limits.contains { $0["client"] as? String == "Retired" })
        // Nothing in force, nothing said.
        let quiet = Harness(); quiet.sample()
        XCTAssertFalse(quiet.ok("status").out.contains("maintenance window"))
    }
}
