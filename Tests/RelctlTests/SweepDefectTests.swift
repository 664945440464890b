import Foundation
import XCTest
@testable import RelctlCLI
@testable import RelctlCore
@testable import RelctlModel
@testable import RelctlPublish
@testable import RelctlStore

/// Issue 30: the defects the real client libraries showed, each tried
/// against the file relctl publishes, read by the client's simulation, on
/// installs nobody recorded as well as recorded ones.
final class SweepDefectTests: XCTestCase {
    let at = "2026-11-29T12:00:00Z"

    func published(_ h: Harness, file: StaticString = #filePath, line: UInt = #line) -> (String) -> [UInt8] {
        let r = h.run(["publish", h.dir + "/out", "--at", at])
        XCTAssertEqual(r.status, 0, r.err, file: file, line: line)
        return { Array(FileManager.default.contents(atPath: h.dir + "/out/" + $0) ?? Data()) }
    }

    func verdict(_ h: Harness, _ version: String, _ platform: String, build: Int? = nil) -> ClientDecision {
        let r = h.run(["check", version, "--platform", platform, "--at", at, "--json"] + (build.map { ["--build", String($0)] } ?? []))
        let word = (r.json as? [String: Any])?["verdict"] as? String ?? "?"
        return PlatformCheck.decision(Verdict.Kind(rawValue: word) ?? .maintenance)
    }

    func verifies(_ h: Harness, file: StaticString = #filePath, line: UInt = #line) {
        let r = h.run(["verify", h.dir + "/out"])
        XCTAssertEqual(r.status, 0, r.out + r.err, file: file, line: line)
    }

    /// 1. The oldest record pinned to none below the force floor dropped the
    /// floor for every older install (MinVersion 0): it is the threshold now.
    func testASparedOldestVersionKeepsOlderInstallsForced() throws {
        let h = Harness()
        h.sample()
        h.ok("version add 0.9 --platform android --build 90 --released 2025-06-01T00:00:00Z")
        h.ok("force 1.1 --platform ios --yes")
        h.ok("force 2.0.0 --platform android --yes")
        h.ok("policy set 1.0 none --platform ios --yes")
        h.ok("policy set 0.9 recommend --platform android --yes")
        let file = published(h)
        XCTAssertEqual(verdict(h, "0.8", "ios"), .required, "check: below the floor, and no pin")
        let ios = try AndVersionIOSClient(file("shop/ios/andversion.json"))
        XCTAssertEqual(ios.decide("0.8"), .required, "AndVersion iOS forces what is below the spared 1.0")
        XCTAssertNotEqual(ios.decide("1.0"), .required, "and spares 1.0 itself (offered, a limit: no per-version policy)")
        let pov = try PrinceOfVersionsClient(file("shop/prince-of-versions.json"), platform: "ios")
        XCTAssertEqual(pov.decide("0.8", build: nil), .required)
        let feed = try UpgraderClient(file("shop/ios/appcast.xml"), platform: "ios")
        XCTAssertEqual(feed.decide("0.8"), .required)
        let android = try AndVersionAndroidClient(file("shop/android/andversion.json"))
        XCTAssertEqual(verdict(h, "0.8", "android", build: 80), .required)
        XCTAssertEqual(android.decide(80), .required, "below the spared 0.9 (90), still forced")
        XCTAssertEqual(android.decide(90), .none)
        verifies(h)
    }

    /// 2. "outdated: none" and no floor: nobody is to be prompted, and the
    /// Prince of Versions file and the appcast offered the newest to everyone.
    func testNothingToOfferPromptsNobody() throws {
        let h = Harness()
        h.sample()
        h.ok("rules set --outdated none --yes")
        let file = published(h)
        for v in ["0.1", "1.0", "1.1", "1.9.9"] { XCTAssertEqual(verdict(h, v, "ios"), ClientDecision.none, v) }
        let pov = try PrinceOfVersionsClient(file("shop/prince-of-versions.json"), platform: "ios")
        let povAndroid = try PrinceOfVersionsClient(file("shop/prince-of-versions.json"), platform: "android")
        let feed = try UpgraderClient(file("shop/ios/appcast.xml"), platform: "ios")
        for v in ["0.1", "1.0", "1.1", "1.9.9"] {
            XCTAssertEqual(pov.decide(v, build: nil), ClientDecision.none, v)
            XCTAssertEqual(feed.decide(v), ClientDecision.none, v)
        }
        for code in [1, 100, 199] { XCTAssertEqual(povAndroid.decide(versionCode: Int64(code)), ClientDecision.none) }
        verifies(h)
        // A recommend floor makes something optional again: the newest is offered.
        h.ok("recommend 2.0 --platform ios --yes")
        let again = published(h)
        XCTAssertEqual(try UpgraderClient(again("shop/ios/appcast.xml"), platform: "ios").decide("1.1"), .optional)
        XCTAssertEqual(try PrinceOfVersionsClient(again("shop/prince-of-versions.json"), platform: "ios").decide("1.1", build: nil), .optional)
        verifies(h)
    }

    /// 3. A force floor sending users to a release still in its delay: check
    /// says required at once, and siren.json made Siren wait for the delay.
    func testAFloorToAReleaseInItsDelayActsAtOnceInSiren() throws {
        let h = Harness()
        h.sample()
        h.ok("version add 2.1 --platform ios --build 210 --released 2026-11-29T06:00:00Z")
        h.ok("force 2.1 --platform ios --yes")
        let file = published(h)
        XCTAssertEqual(verdict(h, "2.0", "ios"), .required)
        let siren = try SirenClient(config: file("shop/ios/siren.json"), lookup: file("shop/ios/lookup/en.json"))
        let now = try TimeInput.parse(at, now: 0, timeZone: "UTC")
        XCTAssertEqual(siren.decide("2.0", at: now), .required, "Siren's delay gate lets the floor act at once")
        XCTAssertEqual(siren.decide("1.9", at: now), .required)
        verifies(h)
        // Once 2.1 is past its delay, the gate is the project's again.
        h.ok("force --clear --platform ios --yes")
        _ = published(h)
        let config = try JSONSerialization.jsonObject(with: Data(file("shop/ios/siren.json"))) as? [String: Any]
        XCTAssertEqual(config?["showAlertAfterCurrentVersionHasBeenReleasedForDays"] as? Int, 1)
    }

    /// 5. A force floor at a four-part version (1.2.3.4, recorded with build 2,
    /// beside 1.2.3 build 1): Prince of Versions on iOS read "1.2.3.4" as 1.2.3
    /// build 0 and forced nobody, and publish refused the whole tree.
    func testAFourPartFloorIsWrittenAsTheClientReadsIt() throws {
        let h = Harness()
        h.ok("init")
        h.ok("project add shop --name Shop")
        h.ok("platform add ios --bundle-id com.example.shop --app-store-id 1088280260 --min-os 15.0")
        h.ok("version add 1.2.3 --platform ios --build 1 --released 2026-01-01T00:00:00Z")
        h.ok("version add 1.2.3.4 --platform ios --build 2 --released 2026-02-01T00:00:00Z")
        h.ok("version add 1.3 --platform ios --build 3 --released 2026-03-01T00:00:00Z")
        h.ok("force 1.2.3.4 --platform ios --yes")
        let file = published(h)
        let pov = try PrinceOfVersionsClient(file("shop/prince-of-versions.json"), platform: "ios")
        XCTAssertEqual(verdict(h, "1.2.3", "ios", build: 1), .required)
        XCTAssertEqual(pov.decide("1.2.3", build: 1), .required, "1.2.3 (1) is below 1.2.3.4-2, read as 1.2.3 build 2")
        XCTAssertEqual(pov.decide("1.2.3.4", build: 2), .optional, "the floor's own release is not forced")
        XCTAssertTrue(String(decoding: file("shop/prince-of-versions.json"), as: UTF8.self).contains("\"required_version\":\"1.2.3.4-2\""))
        verifies(h)
    }

    /// Why verify said "0 disagreements" where phones disagreed: it asked only
    /// about recorded versions. A manifest edited so that every recorded
    /// version is decided as before, but an install between two is not, is
    /// now a disagreement naming that install.
    func testVerifyAsksAboutInstallsNobodyRecorded() throws {
        let h = Harness()
        h.sample()
        h.ok("force 1.1 --platform ios --yes")
        _ = published(h)
        XCTAssertEqual(h.run(["verify", h.dir + "/out"]).status, 0)
        let path = h.dir + "/out/shop/ios/andversion.json"
        let text = try String(contentsOfFile: path, encoding: .utf8)
        XCTAssertTrue(text.contains("\"MinVersion\":\"1.1\""), text)
        try text.replacingOccurrences(of: "\"MinVersion\":\"1.1\"", with: "\"MinVersion\":\"1.0.5\"").write(toFile: path, atomically: true, encoding: .utf8)
        let client = try AndVersionIOSClient(Array(FileManager.default.contents(atPath: path)!))
        for v in ["1.0", "1.1", "2.0"] { XCTAssertEqual(client.decide(v), verdict(h, v, "ios"), "recorded \(v) is decided as before") }
        let r = h.run(["verify", h.dir + "/out", "--json"])
        XCTAssertEqual(r.status, 1, r.out)
        let disagreements = (r.json as? [String: Any])?["disagreements"] as? [[String: Any]] ?? []
        XCTAssertTrue(disagreements.contains { $0["client"] as? String == "AndVersion iOS" && $0["version"] as? String == "1.0.999999"
            && $0["unrecorded"] as? String == "just below the floor 1.1" && $0["check"] as? String == "required (force-floor)" }, "\(disagreements)")
        let shown = h.run(["verify", h.dir + "/out"])
        XCTAssertTrue(shown.out.contains("AndVersion iOS 1.0.999999 (unrecorded: just below the floor 1.1): check says required (force-floor), the client does optional"), shown.out)
    }

    /// The proof looks past now: at each coming change (a deadline here) it
    /// renders what a publish then writes and reads it back; what comes into
    /// force then is said with its instant.
    func testVerifySweepsTheComingInstants() throws {
        let h = Harness()
        h.sample()
        h.ok("force 1.1 --platform ios --after 7d --yes")
        h.ok("policy set 1.0 recommend --platform ios --yes")
        _ = published(h)
        let r = h.run(["verify", h.dir + "/out", "--json"])
        XCTAssertEqual(r.status, 0, r.out + r.err)
        let limits = (r.json as? [String: Any])?["limits"] as? [[String: Any]] ?? []
        XCTAssertTrue(limits.contains { $0["client"] as? String == "Siren" && $0["intent"] as? String == "from 2026-12-06T12:00:00Z: pin 1.0 recommend" }, "\(limits)")
        XCTAssertFalse(limits.contains { ($0["intent"] as? String) == "pin 1.0 recommend" && $0["client"] as? String == "Siren" }, "not in force now")
        // The same tree past the deadline, published then, has it in force.
        h.now += 8 * 86400
        XCTAssertEqual(h.run(["publish", h.dir + "/later"]).status, 0)
        let later = h.run(["verify", h.dir + "/later", "--json"])
        XCTAssertTrue(((later.json as? [String: Any])?["limits"] as? [[String: Any]] ?? []).contains { $0["client"] as? String == "Siren" && $0["intent"] as? String == "pin 1.0 recommend" })
    }

    /// Limits are said once per cause and tree revision: a publish says the
    /// new and changed ones; --json, verify and status carry them all.
    func testLimitsAreSaidOncePerCause() throws {
        let h = Harness()
        h.sample()
        h.ok("policy set 1.1 force --platform ios --yes")
        let out = h.dir + "/out"
        let first = h.run(["publish", out, "--at", at])
        XCTAssertTrue(first.err.contains("not carried: shop/ios: pin 1.1 force"), first.err)
        h.ok("notes set 2.0 --platform ios --locale en \"Other words\"")
        let second = h.run(["publish", out, "--at", at, "--json"])
        XCTAssertEqual(second.status, 0, second.err)
        XCTAssertFalse(second.err.contains("not carried:"), "said already: \(second.err)")
        XCTAssertTrue((((second.json as? [String: Any])?["limits"] as? [[String: Any]]) ?? []).contains { $0["intent"] as? String == "pin 1.1 force" })
        h.ok("policy set 1.0 none --platform ios --yes")
        let third = h.run(["publish", out, "--at", at])
        XCTAssertTrue(third.err.contains("pin 1.0 none"), third.err)
        XCTAssertFalse(third.err.contains("pin 1.1 force"), "only the new one: \(third.err)")
        XCTAssertTrue(h.run(["verify", out]).out.contains("pin 1.1 force"), "verify lists them all")
        XCTAssertTrue(h.run(["status", "--at", at]).out.contains("pin 1.1 force"), "and so does status")
    }

    /// A difference with two reasons was named by the first tested: a
    /// four-part newest version hid "outdated: none" in Prince of Versions
    /// (Apple platforms) and upgrader. The intent comes first now.
    func testAnIntentIsNamedBeforeAVersionsShape() throws {
        let h = Harness()
        h.sample()
        h.ok("version add 2.0.0.1 --platform ios --build 201 --released 2026-11-02T00:00:00Z")
        h.ok("force 1.1 --platform ios --yes")
        h.ok("rules set --outdated none --yes")
        let r = h.run(["publish", h.dir + "/out", "--at", at, "--json"])
        XCTAssertEqual(r.status, 0, r.err)
        let limits = ((r.json as? [String: Any])?["limits"] as? [[String: Any]] ?? []).filter { $0["platform"] as? String == "ios" }
        for client in ["Prince of Versions", "upgrader"] {
            XCTAssertTrue(limits.contains { $0["client"] as? String == client && $0["intent"] as? String == "outdated: none" }, "\(client): \(limits)")
        }
    }
}

/// The time sweep in publish, and what it may skip.
final class TimeSweepTests: XCTestCase {
    let at = "2026-11-29T12:00:00Z"

    /// publish sweeps the coming instants as verify does: a limit that comes
    /// into force at a deadline is said now, with the instant it starts from.
    func testPublishNamesALimitFromTheInstantItStarts() throws {
        let h = Harness()
        h.sample()
        h.ok("force 1.1 --platform ios --after 7d --yes")
        h.ok("policy set 1.0 recommend --platform ios --yes")
        let r = h.run(["publish", h.dir + "/out", "--json"])
        XCTAssertEqual(r.status, 0, r.err)
        let limits = (r.json as? [String: Any])?["limits"] as? [[String: Any]] ?? []
        XCTAssertTrue(limits.contains { $0["client"] as? String == "Siren" && $0["intent"] as? String == "from 2026-12-06T12:00:00Z: pin 1.0 recommend" }, "\(limits)")
        XCTAssertTrue(r.err.contains("from 2026-12-06 12:00 UTC (in 7 d): pin 1.0 recommend"), r.err)
        // And status, which lists what a publish would not carry, says it too.
        XCTAssertTrue(h.run(["status"]).out.contains("from 2026-12-06 12:00 UTC (in 7 d): pin 1.0 recommend"))
    }

    /// The sweep renders and checks only the platforms an instant touches:
    /// over generated situations, it finds what a sweep of every platform at
    /// every instant finds.
    func testTheScopedSweepFindsWhatAFullSweepFinds() {
        let now = FidelityScenarioTests.now
        var compared = 0, skipped = 0
        for seed in 0..<80 {
            let s = FidelityScenarioTests.scenario(UInt64(seed))
            let coming = Fidelity.coming(s, after: now)
            guard !coming.isEmpty else { continue }
            if coming.contains(where: { $0.platforms.map { $0.count < s.platforms.count } ?? false }) { skipped += 1 }
            var warnings: [String] = []
            let files = Dictionary(ProjectFiles.render(s, at: now, warnings: &warnings).map { ($0.path, $0.bytes) }, uniquingKeysWith: { a, _ in a })
            let present = Fidelity.check(s, at: now) { files[$0] }
            // Limits with the instant they start from, and disagreements by install and instant.
            func said(_ coming: [Finding]) -> Set<String> {
                let all = Fidelity.merged(now: present, coming: coming)
                return Set(Finding.distinctLimits(all).map { "\($0.limit)" } + all.filter(\.isDisagreement).map { "\($0.from ?? 0) \(FindingsReport.disagreementLine($0))" })
            }
            let scoped = Fidelity.sweep(s, after: now), full = Fidelity.sweep(s, after: now, scoped: false)
            XCTAssertEqual(said(scoped.findings), said(full.findings), "seed \(seed)")
            XCTAssertLessThanOrEqual(scoped.decisions, full.decisions)
            compared += 1
        }
        XCTAssertGreaterThan(compared, 20)
        XCTAssertGreaterThan(skipped, 10, "most situations must have instants that touch one platform, or this proves nothing")
    }

    /// Every cause that applies is named, the intent before the version's
    /// shape: a four-part newest version and "outdated: none" together.
    func testEveryCauseIsNamedTheIntentFirst() throws {
        let h = Harness()
        h.sample()
        h.ok("version add 2.0.0.1 --platform ios --build 201 --released 2026-11-02T00:00:00Z")
        h.ok("force 1.1 --platform ios --yes")
        h.ok("rules set --outdated none --yes")
        XCTAssertEqual(h.run(["publish", h.dir + "/out", "--at", at]).status, 0)
        let store = try Store(path: h.db, mode: .read, user: "tester")
        let t = try TimeInput.parse(at, now: 0, timeZone: nil)
        let snapshot = try store.read { try store.snapshot(try store.requireProject("shop")) }
        let findings = Fidelity.check(snapshot, at: t) { FileManager.default.contents(atPath: h.dir + "/out/" + $0).map { Array($0) } }
        let pov = findings.filter { $0.client == .princeOfVersions && $0.platform == "ios" && $0.limits.contains { $0.intent == "outdated: none" } }
        XCTAssertFalse(pov.isEmpty, "\(findings.map(\.limits))")
        for f in pov {
            let intents = f.limits.map(\.intent)
            XCTAssertEqual(intents.first, "outdated: none", "the intent first: \(intents)")
            XCTAssertTrue(intents.contains("four-part versions"), "and the shape too: \(intents)")
        }
    }
}

/// The look ahead is anchored at the next change, not at the publish instant:
/// every instant of the span the files hold for sweeps the same instants, so
/// two publishes of the same state write the same bytes.
final class SweepWindowTests: XCTestCase {
    func testEveryInstantOfASpanSaysTheSame() throws {
        let h = Harness()
        h.sample()
        // The next change in 5 days; a release 93 days out: past 90 days from now, within 90 of the next change.
        h.ok("force 1.1 --platform ios --deadline 2026-12-04T12:00:00Z --yes")
        h.ok("version add 3.0 --platform ios --build 300 --released 2027-03-02T12:00:00Z")
        XCTAssertEqual(h.run(["publish", h.dir + "/early", "--at", "2026-11-29T12:00:00Z"]).status, 0)
        XCTAssertEqual(h.run(["publish", h.dir + "/late", "--at", "2026-12-04T11:59:59Z"]).status, 0)
        let early = fileTree(h.dir + "/early"), late = fileTree(h.dir + "/late")
        XCTAssertEqual(Set(early.keys), Set(late.keys))
        for (path, bytes) in early where !path.hasPrefix(".relctl") { XCTAssertEqual(bytes, late[path], path) }
        let index = String(decoding: early["index.json"] ?? Data(), as: UTF8.self)
        XCTAssertTrue(index.contains("from 2027-03-02T12:00:00Z: "), "the release 93 days out is looked at from the first instant of the span")
    }
}
