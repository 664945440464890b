import Foundation
import XCTest
@testable import RelctlCLI
@testable import RelctlCore
@testable import RelctlModel

/// Issue 48: the proof asks about builds nobody recorded (below and above
/// the recorded build of each version, on both platforms), the two files
/// that were wrong for them, and limits said once per cause.
final class BuildProbeTests: XCTestCase {
    let at = "2026-11-29T12:00:00Z"

    func publishAndVerify(_ h: Harness) -> [String: Any] {
        h.ok("publish \(h.dir)/out --at \(at) -q")
        let r = h.run(["verify", h.dir + "/out", "--json"])
        XCTAssertEqual(r.status, 0, r.err)
        return (r.json as? [String: Any]) ?? [:]
    }

    static func limits(_ verify: [String: Any]) -> [[String: Any]] { verify["limits"] as? [[String: Any]] ?? [] }

    /// 2.1.0 build 209 when 210 is recorded: check offers 2.1.0, and every
    /// client comparing marketing versions says nothing; each is a limit with
    /// its cause, and a pin on one build holds for that build only in check
    /// while Retired pins every build of the version.
    func testBuildsNobodyRecordedAreProbedOnBothPlatforms() throws {
        let h = Harness(); h.sample()
        h.ok("version add 2.1.0 --platform ios --build 210 --released 2026-11-20T00:00:00Z")
        h.ok("policy set 1.0 force --platform ios --yes")
        let check = h.ok("--json check 2.1.0 --build 209 --platform ios").json as? [String: Any]
        XCTAssertEqual(check?["verdict"] as? String, "optional", "a lower build of the newest release is offered it")
        let pinned = h.ok("--json check 1.0 --build 99 --platform ios").json as? [String: Any]
        XCTAssertNotEqual(pinned?["decidedBy"] as? String, "pin", "the pin is on build 100 alone")
        let limits = Self.limits(publishAndVerify(h))
        func clients(_ platform: String, _ intent: String) -> Set<String> {
            Set(limits.filter { $0["platform"] as? String == platform && $0["intent"] as? String == intent }.compactMap { $0["client"] as? String })
        }
        XCTAssertEqual(clients("ios", "builds relctl has no record of"), ["Retired", "AndVersion iOS", "Siren", "upgrader"])
        XCTAssertEqual(clients("android", "builds relctl has no record of"), ["Retired", "upgrader"])
        let retired = try XCTUnwrap(limits.first { $0["client"] as? String == "Retired" && $0["intent"] as? String == "builds relctl has no record of" && $0["platform"] as? String == "ios" })
        XCTAssertEqual(retired["reason"] as? String, "reads no builds: every build of a listed version is told what the listed one is")
        XCTAssertTrue((retired["example"] as? String)?.contains(" build ") == true, "\(retired)")
    }

    /// Prince of Versions on iOS compares builds: a release in its delay that a
    /// pin sends users to is named without its build, so the lower builds of
    /// it, which check tells nothing until the delay ends, are not offered it.
    func testPrinceOfVersionsKeepsLowerBuildsOfAReleaseInItsDelayQuiet() throws {
        let h = Harness(); h.sample()
        h.ok("rules set --release-delay 3 --yes")
        h.ok("version add 2.1 --platform ios --build 210 --released 2026-11-29T00:00:00Z")
        h.ok("policy set 1.0 force --platform ios --yes")
        let check = h.ok("--json check 2.1 --build 209 --platform ios").json as? [String: Any]
        XCTAssertEqual(check?["verdict"] as? String, "none")
        _ = publishAndVerify(h)
        let bytes = Array(try XCTUnwrap(FileManager.default.contents(atPath: h.dir + "/out/shop/prince-of-versions.json")))
        let pov = try PrinceOfVersionsClient(bytes, platform: "ios")
        XCTAssertEqual(pov.decide("2.1", build: 209, os: "17.0"), .none, String(decoding: bytes, as: UTF8.self))
        XCTAssertEqual(pov.decide("1.0", build: 100, os: "17.0"), .required, "the pinned version is still sent to 2.1")
        // A floor at that very build sends its lower builds at once: the build stays.
        h.ok("force 2.1 --build 210 --platform ios --yes")
        h.ok("publish \(h.dir)/out --at \(at) -q")
        let floored = try PrinceOfVersionsClient(Array(try XCTUnwrap(FileManager.default.contents(atPath: h.dir + "/out/shop/prince-of-versions.json"))), platform: "ios")
        XCTAssertEqual(floored.decide("2.1", build: 209, os: "17.0"), .required)
        XCTAssertEqual(h.run(["verify", h.dir + "/out"]).status, 0)
    }

    /// A recommend floor below the release's build, or a pin on another build of
    /// its version, sends some lower builds to it at once: the file keeps the
    /// build, so they are offered it, and the builds above the floor are offered
    /// it early (a limit, said as the release delay's).
    func testPrinceOfVersionsKeepsTheBuildWhenAFloorOrPinSendsLowerBuilds() throws {
        let h = Harness(); h.sample()
        h.ok("rules set --release-delay 3 --yes")
        h.ok("version add 2.1 --platform ios --build 210 --released 2026-11-29T00:00:00Z")
        h.ok("recommend 2.1 --build 208 --platform ios --yes")
        XCTAssertEqual((h.ok("--json check 2.1 --build 207 --platform ios").json as? [String: Any])?["verdict"] as? String, "optional")
        let limits = Self.limits(publishAndVerify(h))
        XCTAssertTrue(limits.contains { $0["client"] as? String == "Prince of Versions" && ($0["intent"] as? String)?.hasPrefix("release delay of 2.1") == true }, "\(limits)")
        var pov = try PrinceOfVersionsClient(Array(try XCTUnwrap(FileManager.default.contents(atPath: h.dir + "/out/shop/prince-of-versions.json"))), platform: "ios")
        XCTAssertEqual(pov.decide("2.1", build: 207, os: "17.0"), .optional, "below the floor's build: offered at once")
        // A pin on another build of the version (2.1.0 build 205) sends it to 2.1 build 210.
        h.ok("recommend --clear --platform ios --yes")
        h.ok("version add 2.1.0 --platform ios --build 205 --released 2026-11-10T00:00:00Z")
        h.ok("policy set 2.1.0 recommend --platform ios --yes")
        XCTAssertEqual((h.ok("--json check 2.1.0 --build 205 --platform ios").json as? [String: Any])?["verdict"] as? String, "optional")
        _ = publishAndVerify(h)
        pov = try PrinceOfVersionsClient(Array(try XCTUnwrap(FileManager.default.contents(atPath: h.dir + "/out/shop/prince-of-versions.json"))), platform: "ios")
        XCTAssertEqual(pov.decide("2.1.0", build: 205, os: "17.0"), .optional, "the pinned build is sent to 2.1 build 210")
    }

    /// A force floor below every Android release: the appcast's critical item
    /// stands at the floor, so upgrader forces nothing check does not.
    func testTheAndroidAppcastIsCriticalAtAFloorBelowEveryRelease() throws {
        let h = Harness(); h.sample()
        h.ok("force 1.5 --platform android --yes")
        let limits = Self.limits(publishAndVerify(h))
        let feed = try UpgraderClient(Array(try XCTUnwrap(FileManager.default.contents(atPath: h.dir + "/out/shop/android/appcast.xml"))), platform: "android")
        XCTAssertEqual(feed.decide("1.4"), .required)
        XCTAssertEqual(feed.decide("1.6"), .optional, "above the floor: offered, not required")
        XCTAssertFalse(limits.contains { ($0["intent"] as? String)?.contains("unreleased") == true && $0["platform"] as? String == "android" }, "\(limits)")
    }

    /// Each (project, platform, client, cause) once, with one example; a pin
    /// is named by its record, never by the spelling an install reports; and
    /// "four-part versions" only where a record has four.
    func testLimitsAreSaidOncePerCause() throws {
        let h = Harness(); h.sample()
        h.ok("version add 2.1.0 --platform ios --build 210 --released 2026-11-20T00:00:00Z")
        h.ok("policy set 1.0 none --platform ios --yes")
        h.ok("force 2.0 --platform ios --yes")
        let limits = Self.limits(publishAndVerify(h))
        for l in limits {
            let intent = l["intent"] as? String ?? ""
            XCTAssertFalse(intent.hasSuffix(" "), "an intent with an empty policy: '\(intent)'")
            XCTAssertFalse(intent.contains("such as"), "the example is apart from the cause: \(intent)")
            XCTAssertFalse(intent == "four-part versions", "no record has four parts: \(l)")
        }
        XCTAssertTrue(limits.contains { $0["intent"] as? String == "pin 1.0 none" })
        XCTAssertFalse(limits.contains { ($0["intent"] as? String)?.hasPrefix("pin 1.0.0") == true || $0["intent"] as? String == "pin 1 none" })
        // One line for the cause, whatever spellings show it (1 for 1.0, 2.0.0 for 2.0, …).
        let text = h.run(["verify", h.dir + "/out"]).out
        XCTAssertEqual(text.components(separatedBy: "shop/ios: other spellings of recorded versions (such as ").count - 1, 1, text)
    }

    /// A device language the project does not publish reads the default
    /// locale's notes in check; AndVersion falls back to en: a limit, asked
    /// of a language outside the project's locales.
    func testNotesForALanguageTheProjectDoesNotPublishAreProbed() throws {
        let h = Harness(); h.sample()
        h.ok("project edit shop --locales de,en --default-locale de")
        h.ok("version add 2.1 --platform ios --build 210 --released 2026-11-20T00:00:00Z")
        h.ok("notes set 2.1 Neu --platform ios --locale de")
        h.ok("notes set 2.1 New --platform ios --locale en")
        let limits = Self.limits(publishAndVerify(h))
        let notes = try XCTUnwrap(limits.first { $0["intent"] as? String == "de notes for users of languages the project does not publish" }, "\(limits)")
        XCTAssertEqual(notes["client"] as? String, "AndVersion iOS")
        XCTAssertEqual(notes["example"] as? String, "fr")
    }
}
