import Foundation
import XCTest
@testable import RelctlCLI
@testable import RelctlCore
@testable import RelctlModel

/// Maintenance in an emergency: start over a planned window, stop one
/// platform out of a project-wide window, per-locale copy, moving windows.
final class MaintenanceEmergencyTests: XCTestCase {
    func verdict(_ h: Harness, _ line: String) -> [String: Any] { h.ok("--json check " + line).json as? [String: Any] ?? [:] }
    func text(_ v: [String: Any], _ field: String) -> String? { ((v["message"] as? [String: Any])?[field] as? [String: Any])?["text"] as? String }

    /// A planned window ahead never refuses an emergency: both stay, the
    /// union blocks, the newest window's copy is shown, and the output says so.
    func testEmergencyStartOverAPlannedWindow() {
        let h = Harness()  // now: 2026-11-29T12:00:00Z
        h.sample()
        h.ok("maintenance schedule --from 2026-11-29T13:00:00Z --until 2026-11-29T15:00:00Z --message \"Planned upgrade\" --yes")
        let r = h.ok("maintenance start --message \"Database emergency\" --yes")
        XCTAssertTrue(r.err.contains("maintenance window #2 for all platforms"), r.err)
        XCTAssertTrue(r.err.contains("it overlaps window #1 (all platforms, 2026-11-29 13:00 UTC (in 1 h) to 2026-11-29 15:00 UTC (in 3 h)), which stays as it is"), r.err)
        XCTAssertTrue(r.err.contains("see #2's copy while both are active"), r.err)
        XCTAssertEqual(text(verdict(h, "1.0 --platform ios"), "message"), "Database emergency")
        // While both are active the newest copy is shown.
        let both = verdict(h, "1.0 --platform ios --at 2026-11-29T14:00:00Z")
        XCTAssertEqual(both["verdict"] as? String, "maintenance")
        XCTAssertEqual(text(both, "message"), "Database emergency")
        // --json names the overlap too.
        let json = h.ok("--json maintenance start --platform android --for 90m --yes").json as? [String: Any]
        XCTAssertEqual(json?["overlaps"] as? [Int], [1, 2])
        XCTAssertTrue(h.ok("log").out.contains("maintenance start #2 all platforms"), "the log names the id at creation")
        // The emergency stopped, the planned window still comes.
        h.ok("maintenance stop --yes")
        XCTAssertEqual(verdict(h, "1.0 --platform ios")["verdict"] as? String, "optional")
        XCTAssertEqual(text(verdict(h, "1.0 --platform ios --at 2026-11-29T13:30:00Z"), "message"), "Planned upgrade")
        let out = h.dir + "/out"
        h.ok("publish \(out) --at 2026-11-29T14:00:00Z")
        XCTAssertEqual(h.run(["verify", out]).status, 0)
    }

    /// `stop --platform ios` inside a project-wide window: iOS is free,
    /// Android stays blocked by a continuation window with the same end and copy.
    func testStopOnePlatformOfAProjectWideWindow() {
        let h = Harness()
        h.sample()
        h.ok("maintenance start --for 2h --message \"Back soon\" --yes")
        let r = h.ok("maintenance stop --platform ios --yes")
        XCTAssertTrue(r.err.contains("stopped maintenance window #1 for ios; it continues for android as #2"), r.err)
        XCTAssertEqual(verdict(h, "1.0 --platform ios")["verdict"] as? String, "optional")
        let android = verdict(h, "1.9 --platform android")
        XCTAssertEqual(android["verdict"] as? String, "maintenance")
        XCTAssertEqual(text(android, "message"), "Back soon")
        XCTAssertEqual((android["window"] as? [String: Any])?["endsAt"] as? String, "2026-11-29T14:00:00Z")
        h.fails("maintenance stop --platform ios --yes", "no maintenance window is active for ios")
        let json = h.ok("--json maintenance stop --platform android --yes").json as? [String: Any]
        XCTAssertEqual(json?["stopped"] as? [Int], [2])
        XCTAssertTrue(h.ok("log").out.contains("maintenance stop ios #1 (continued as #2 android)"))
    }

    /// Per-locale copy of a window: Turkish users read Turkish, others the default.
    func testPerLocaleWindowCopy() {
        let h = Harness()
        h.sample()
        h.ok("maintenance schedule --from 2026-11-29T13:00:00Z --until 2026-11-29T15:00:00Z --message \"Back at {until}\" --yes")
        h.ok("maintenance message 1 --locale tr --title Bakımdayız --message \"{app} {until} itibarıyla dönecek\"")
        h.ok("maintenance message 1 --locale de --title Wartung")
        let tr = verdict(h, "1.0 --platform ios --locale tr --at 2026-11-29T14:00:00Z")
        XCTAssertEqual(text(tr, "title"), "Bakımdayız")
        XCTAssertEqual(text(tr, "message"), "Shop 29 Kasım 2026 15:00 (UTC) itibarıyla dönecek")
        let de = verdict(h, "1.0 --platform ios --locale de --at 2026-11-29T14:00:00Z")
        XCTAssertEqual(text(de, "title"), "Wartung")
        XCTAssertEqual(text(de, "message"), "Shop wird gerade gewartet. Bitte versuche es später erneut.")
        XCTAssertEqual(text(verdict(h, "1.0 --platform ios --locale en --at 2026-11-29T14:00:00Z"), "message"), "Back at November 29, 2026 at 3:00 PM (UTC)")
        // Setting the title again keeps the message.
        h.ok("maintenance message 1 --locale tr --title \"Bakım\"")
        XCTAssertEqual(text(verdict(h, "1.0 --platform ios --locale tr --at 2026-11-29T14:00:00Z"), "message"), "Shop 29 Kasım 2026 15:00 (UTC) itibarıyla dönecek")
        let out = h.dir + "/out"
        h.ok("project edit shop --locales en,tr,de")
        h.ok("publish \(out)")
        let control = (try? JSONSerialization.jsonObject(with: FileManager.default.contents(atPath: out + "/shop/control.json")!)) as? [String: Any]
        let upcoming = ((control?["maintenance"] as? [String: Any])?["upcoming"] as? [[String: Any]])?.first
        XCTAssertEqual(((upcoming?["messages"] as? [String: Any])?["tr"] as? [String: Any])?["title"] as? String, "Bakım")

        h.fails("maintenance message 1 --locale tr", status: 2, "nothing to set")
        h.fails("maintenance message 1 --locale tr --title \" \"", status: 2, "is empty")
        h.fails("maintenance message 1 --locale tr --message \"{version}\"", status: 2, "unknown placeholder {version}")
        h.fails("maintenance message 9 --locale tr --title x", "no maintenance window #9")
        h.fails("maintenance message x --title x", status: 2, "invalid window id 'x'")
        h.ok("maintenance start --yes")
        h.fails("maintenance message 2 --message \"until {until}\"", status: 2, "{until} needs an end time")
        h.ok("maintenance cancel 1 --yes")
        h.fails("maintenance message 1 --locale tr --title x", "window #1 is cancelled")
    }

    /// `maintenance edit` moves a planned window's start and end, an active one's end.
    func testEditMovesWindows() {
        let h = Harness()
        h.sample()
        h.ok("maintenance schedule --from 2026-11-29T13:00:00Z --until 2026-11-29T15:00:00Z --yes")
        h.ok("maintenance edit 1 --from 2026-11-29T14:00:00Z --until 2026-11-29T16:00:00Z --yes")
        XCTAssertEqual(verdict(h, "1.0 --platform ios --at 2026-11-29T13:30:00Z")["verdict"] as? String, "optional")
        XCTAssertEqual(verdict(h, "1.0 --platform ios --at 2026-11-29T15:30:00Z")["verdict"] as? String, "maintenance")
        h.fails("maintenance edit 1 --until 2026-11-29T13:00:00Z --yes", "not after its start")
        h.fails("maintenance edit 1 --yes", status: 2, "nothing to change")
        h.fails("maintenance edit 1 --until 2026-11-29T16:00:00Z --for 1h --yes", status: 2, "both give the end")
        h.ok("maintenance start --for 1h --yes")
        h.fails("maintenance edit 2 --from 2026-11-29T12:30:00Z --yes", "its start cannot move")
        h.fails("maintenance edit 2 --until 2026-11-29T11:00:00Z --yes", "not after its start")
        let moved = h.ok("--json maintenance edit 2 --for 3h --yes").json as? [String: Any]
        XCTAssertEqual(moved?["endsAt"] as? String, "2026-11-29T15:00:00Z")
        XCTAssertTrue(h.ok("log").out.contains("maintenance edit #2 2026-11-29 12:00 UTC (now) to 2026-11-29 15:00 UTC (in 3 h)"))
        h.ok("maintenance stop --yes")
        h.fails("maintenance edit 2 --for 1h --yes", "window #2 is over")
    }
}

/// Time forms on the command line, end to end.
final class TimeFormTests: XCTestCase {
    func testUntilHHMMThatHasPassedIsRefusedAndTomorrowIsSaid() {
        let h = Harness()  // 2026-11-29T12:00:00Z, TZ=UTC
        h.sample()
        h.fails("--json maintenance start --until 11:00 --yes", status: 2, "--until 11:00 has already passed today")
        let w = h.ok("--json maintenance start --until \"tomorrow 11:00\" --yes").json as? [String: Any]
        XCTAssertEqual(w?["endsAt"] as? String, "2026-11-30T11:00:00Z")
        h.ok("maintenance stop --yes")
        let s = h.ok("--json maintenance schedule --from \"tomorrow 02:00\" --for 2h --yes").json as? [String: Any]
        XCTAssertEqual(s?["startsAt"] as? String, "2026-11-30T02:00:00Z")
        XCTAssertEqual(s?["endsAt"] as? String, "2026-11-30T04:00:00Z")
        h.ok("force 2.0 --platform ios --deadline +36h --yes")
        XCTAssertTrue(h.ok("status").out.contains("optional until 2026-12-01 00:00 UTC (in 36 h)"))
        h.env["TZ"] = "Europe/Istanbul"
        XCTAssertTrue(h.ok("status").out.contains("optional until 2026-12-01 03:00 +03 (in 36 h)"))
        h.env["TZ"] = "UTC"
        h.fails("maintenance schedule --from +1h --until +3h --for 2h --yes", status: 2, "both give the end")
        h.fails("maintenance schedule --from \"tomorrow\" --for 2h --yes", status: 2, "give the time of day")
        h.env["TZ"] = "Nowhere/Atlantis"
        h.fails("maintenance schedule --from \"tomorrow 02:00\" --for 2h --yes", status: 2, "unknown time zone")
    }

    func testHelpListsTheForms() {
        let h = Harness()
        for line in ["maintenance start --help", "maintenance schedule --help", "maintenance edit --help", "force --help", "check --help", "publish --help"] {
            XCTAssertTrue(h.ok(line).out.contains("'tomorrow HH:MM'"), line)
        }
    }
}
