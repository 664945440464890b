import Foundation
import XCTest
@testable import RelctlCLI
@testable import RelctlCore
@testable import RelctlModel
@testable import RelctlStore
@testable import SQLite

final class PolicyCommandTests: XCTestCase {
    func testForceAndRecommendRefuseFloorsNobodyCanReach() {
        let h = Harness()
        h.sample()
        h.fails("force 3.0 --platform ios --yes", "no released version of ios is at or above 3.0")
        h.ok("version add 3.0 --platform ios --build 300 --unreleased")
        h.fails("force 3.0 --platform ios --yes", "cannot install")
        let r = h.ok("force 3.0 --platform ios --allow-unreleased --yes")
        XCTAssertTrue(r.err.contains("warning:"))
        h.fails("recommend 3.0 --platform ios --yes", "no released version of ios is at or above 3.0")
        h.fails("force 2.0 --platform ios --build 201 --yes", "2.0 (build 201)")
        h.ok("force 2.0 --platform ios --build 200 --yes")
        h.fails("force --yes", status: 2, "missing VERSION")
        h.fails("force 2.0 --clear --platform ios --yes", status: 2, "--clear takes no version")
        h.fails("force 2.0 --yes", status: 2, "several platforms")
        h.ok("recommend 2.0 --platform ios --yes")
        let list = h.ok("--json policy list --platform ios").json as! [String: Any]
        let ios = (list["platforms"] as! [[String: Any]])[0]
        XCTAssertEqual((ios["force"] as! [String: Any])["build"] as? Int, 200)
        XCTAssertEqual((ios["recommend"] as! [String: Any])["version"] as? String, "2.0")
        h.ok("force --clear --platform ios --yes")
        let cleared = ((h.ok("--json policy list --platform ios").json as! [String: Any])["platforms"] as! [[String: Any]])[0]
        XCTAssertTrue(cleared["force"] is NSNull)
    }

    func testPins() {
        let h = Harness()
        h.sample()
        h.ok("policy set 1.1 force --platform ios --yes")
        h.fails("policy set 2.0 force --platform ios --yes", "no released version of ios is newer than 2.0")
        h.ok("policy set 2.0 none --platform ios --yes")
        h.fails("policy set 1.1 forse --platform ios --yes", status: 2, "did you mean 'force'?")
        h.fails("policy set 7.0 force --platform ios --yes", "no version 7.0")
        let check = h.ok("--json check 1.1 --platform ios").json as! [String: Any]
        XCTAssertEqual(check["verdict"] as? String, "required")
        XCTAssertEqual(check["decidedBy"] as? String, "pin")
        h.ok("policy clear 1.1 --platform ios --yes")
        h.fails("policy clear 1.1 --platform ios --yes", "has no pin")
    }

    func testRules() {
        let h = Harness()
        h.sample()
        let shown = h.ok("--json rules show").json as! [String: Any]
        XCTAssertEqual(shown["releaseDelayDays"] as? Int, 1)
        XCTAssertEqual(shown["remindAfterHours"] as? Int, 24)
        XCTAssertEqual(shown["outdated"] as? String, "recommend")
        h.ok("rules set --all relaxed --major critical --patch skip/daily --release-delay 3 --remind-after 48 --outdated none --yes")
        let rules = (h.ok("--json rules show").json as! [String: Any])
        let r = rules["rules"] as! [String: [String: Any]]
        XCTAssertEqual(r["major"]?["preset"] as? String, "critical")
        XCTAssertEqual(r["minor"]?["alert"] as? String, "skip")
        XCTAssertEqual(r["minor"]?["frequency"] as? String, "weekly")
        XCTAssertEqual(r["patch"]?["preset"] as? String, "default")
        XCTAssertEqual(r["revision"]?["skipAllowed"] as? Bool, true)
        XCTAssertEqual(rules["releaseDelayDays"] as? Int, 3)
        XCTAssertEqual(rules["outdated"] as? String, "none")
        h.fails("rules set --major anoying --yes", status: 2, "did you mean 'annoying'?")
        h.fails("rules set --minor force/hourly --yes", status: 2, "invalid rule")
        h.fails("rules set --release-delay -1 --yes", status: 2, "invalid --release-delay")
        h.fails("rules set --yes", status: 2, "nothing to change")
        h.fails("rules set --outdated sometimes --yes", status: 2, "invalid value 'sometimes'")
    }

    func testMaintenanceWindows() {
        let h = Harness()
        h.sample()
        h.fails("maintenance start --for 0m --yes", status: 2, "is zero")
        h.fails("maintenance start --for -5m --yes", status: 2, "invalid duration")
        h.fails("maintenance start --until 2026-11-29T11:00:00Z --yes", status: 2, "in the past")
        h.fails("maintenance schedule --from 2026-12-01T02:00:00Z --until 2026-12-01T01:00:00Z --yes", status: 2, "not after its start")
        h.fails("maintenance schedule --from 2026-12-01T02:00:00Z --yes", status: 2, "needs --from and --until")
        h.fails("maintenance start --until 2026-12-01T00:00:00Z --for 1h --yes", status: 2, "both give the end")
        h.fails("maintenance start --message \"Back at {until}\" --yes", status: 2, "{until} needs an end time")
        h.fails("maintenance start --for 1h --message \"{when}\" --yes", status: 2, "unknown placeholder {when}")
        h.ok("maintenance schedule --from \"2026-12-01 02:00\" --until \"2026-12-01 04:00\" --message \"Back at {until}\" --yes")
        h.ok("maintenance schedule --from 2026-12-01T04:00:00Z --until 2026-12-01T05:00:00Z --yes")  // overlaps are allowed: MaintenanceEmergencyTests
        h.ok("maintenance start --for 90m --platform android --title Wartung --locale de --yes")
        let status = h.ok("--json maintenance status").json as! [String: Any]
        XCTAssertEqual((status["active"] as! [[String: Any]]).map { $0["id"] as! Int }, [3])
        XCTAssertEqual((status["upcoming"] as! [[String: Any]]).map { $0["id"] as! Int }, [1, 2])
        let active = (status["active"] as! [[String: Any]])[0]
        XCTAssertEqual(active["endsAt"] as? String, "2026-11-29T13:30:00Z")
        XCTAssertEqual(active["platform"] as? String, "android")
        h.fails("maintenance cancel 3 --yes", "already begun")
        h.fails("maintenance cancel 99 --yes", "no maintenance window #99")
        h.fails("maintenance cancel 1", status: 2, "needs confirmation")
        h.ok("maintenance cancel 1 --yes")
        let check = h.ok("--json check 2.0.0 --platform android --locale de").json as! [String: Any]
        XCTAssertEqual(check["verdict"] as? String, "maintenance")
        XCTAssertEqual(((check["message"] as! [String: Any])["title"] as! [String: Any])["text"] as? String, "Wartung")
        XCTAssertEqual(((check["message"] as! [String: Any])["message"] as! [String: Any])["source"] as? String, "built-in de")
        XCTAssertEqual((h.ok("--json check 2.0 --platform ios").json as! [String: Any])["verdict"] as? String, "none")
        h.ok("maintenance stop --yes")
        h.fails("maintenance stop --yes", "no maintenance window is active")
        XCTAssertEqual((h.ok("--json check 2.0.0 --platform android").json as! [String: Any])["verdict"] as? String, "none")
        // A scheduled window is seen --at its time.
        let later = h.ok("--json check 1.0 --platform ios --at 2026-12-01T04:30:00Z").json as! [String: Any]
        XCTAssertEqual(later["verdict"] as? String, "maintenance")
        XCTAssertEqual((h.ok("--json maintenance list").json as! [String: Any]).description.contains("over"), true)
        let log = h.ok("log").out
        XCTAssertTrue(log.contains("maintenance cancel #1") && log.contains("maintenance stop"))
    }

    func testMessages() {
        let h = Harness()
        h.sample()
        h.ok("message set required --locale tr --title \"{app} güncellemesi\"")
        h.fails("message set required --title x", status: 2, "--locale is required")
        h.fails("message set required --locale tr --retry-button x", status: 2, "does not apply to required")
        h.fails("message set optional --locale tr --message \"{until}\"", status: 2, "unknown placeholder {until}")
        h.fails("message set optional --locale tr", status: 2, "no text given")
        h.fails("message set optional --locale tr --title \" \"", status: 2, "is empty")
        h.fails("message set warning --locale tr --title x", status: 2, "invalid KIND")
        let shown = h.ok("--json message show --locale tr").json as! [String: Any]
        let required = (shown["messages"] as! [String: [String: [String: String]]])["required"]!
        XCTAssertEqual(required["title"]?["source"], "project tr")
        XCTAssertEqual(required["message"]?["source"], "built-in tr")
        let check = h.ok("--json check 1.0 --platform ios --locale tr-TR").json as! [String: Any]
        XCTAssertEqual(check["verdict"] as? String, "optional")
        h.ok("force 2.0 --platform ios --yes")
        let forced = h.ok("--json check 1.0 --platform ios --locale tr-TR").json as! [String: Any]
        XCTAssertEqual(((forced["message"] as! [String: Any])["title"] as! [String: Any])["text"] as? String, "Shop güncellemesi")
        XCTAssertEqual(forced["why"] as? String, "1.0 is below the force floor 2.0 on ios")
        h.ok("message set maintenance --locale de --message \"Zurück um {until}\"")
        let open = h.ok("maintenance start --yes")
        XCTAssertTrue(open.err.contains("warning: the project's maintenance text for de uses {until}"), open.err)
        h.ok("message rm required --locale tr --yes")
        h.fails("message rm required --locale tr --yes", "no required overrides for tr")
    }

    func testCheckAndStatus() {
        let h = Harness()
        h.sample()
        h.ok("notes set 2.0 --platform ios --locale tr \"Yeni görünüm\"")
        let text = h.ok("check 1.0 --platform ios --locale tr").out
        XCTAssertTrue(text.contains("verdict:       optional"))
        XCTAssertTrue(text.contains("target:        2.0 (200)"))
        XCTAssertTrue(text.contains("[built-in tr]"))
        XCTAssertTrue(text.contains("Yeni görünüm"))
        let json = h.ok("--json check 1.0 --platform ios --locale tr --build 100").json as! [String: Any]
        XCTAssertEqual(json["updateType"] as? String, "major")
        XCTAssertEqual(json["skipAllowed"] as? Bool, true)
        XCTAssertEqual(json["remindAfterHours"] as? Int, 24)
        XCTAssertEqual((json["notes"] as! [String: Any])["lines"] as? [String], ["Yeni görünüm"])
        XCTAssertEqual(json["updateUrl"] as? String, "https://apps.apple.com/app/id1088280260")
        h.fails("check 1.x --platform ios", status: 2, "not a number")
        h.fails("check 1.0 --platform ios --locale 123", status: 2, "invalid locale")
        let status = h.ok("--json status").json as! [String: Any]
        let platforms = status["platforms"] as! [[String: Any]]
        XCTAssertEqual(platforms.map { $0["platform"] as! String }, ["android", "ios"])
        let ios = platforms[1]
        XCTAssertEqual(ios["newestReleased"] as? String, "2.0")
        let versions = ios["versions"] as! [[String: Any]]
        XCTAssertEqual(versions.map { $0["verdict"] as! String }, ["none", "optional", "optional"])
        XCTAssertTrue(h.ok("status").out.contains("ios: newest released 2.0 (200)"))
    }
}
