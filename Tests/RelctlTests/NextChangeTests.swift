import Foundation
import XCTest
@testable import RelctlCLI
@testable import RelctlCore
@testable import RelctlModel

/// The next instant at which publish's output changes with no change to the
/// database, for each cause, in the summary, --json and index.json.
final class NextChangeTests: XCTestCase {
    func publish(_ h: Harness, at: String? = nil) -> (next: [String: Any]?, summary: String, index: [String: Any]?) {
        let out = h.dir + "/out"
        let r = h.run(["publish", out, "--json"] + (at.map { ["--at", $0] } ?? []))
        XCTAssertEqual(r.status, 0, r.err)
        let doc = r.json as? [String: Any]
        let index = (try? JSONSerialization.jsonObject(with: FileManager.default.contents(atPath: out + "/index.json") ?? Data())) as? [String: Any]
        XCTAssertEqual(doc?["nextChange"] as? NSDictionary, index?["nextChange"] as? NSDictionary, "--json and index.json agree")
        let text = h.run(["publish", out] + (at.map { ["--at", $0] } ?? []))
        return (doc?["nextChange"] as? [String: Any], text.err, index)
    }

    func expect(_ h: Harness, at: String? = nil, _ instant: String, _ cause: String, file: StaticString = #filePath, line: UInt = #line) {
        let (next, summary, _) = publish(h, at: at)
        XCTAssertEqual(next?["at"] as? String, instant, file: file, line: line)
        XCTAssertEqual(next?["causes"] as? [String], [cause], file: file, line: line)
        XCTAssertTrue(summary.contains("(\(cause)): publish again then"), summary, file: file, line: line)
    }

    func testNothingAheadSaysSo() {
        let h = Harness()
        h.sample()
        let (next, summary, index) = publish(h)
        XCTAssertNil(next)
        XCTAssertTrue(index?["nextChange"] is NSNull)
        XCTAssertTrue(summary.contains("no change ahead"), summary)
    }

    func testReleaseDelayEnding() {
        let h = Harness()
        h.sample()
        h.ok("version add 2.1 --platform ios --build 210 --released 2026-11-29T06:00:00Z")
        expect(h, "2026-11-30T06:00:00Z", "the release delay of ios 2.1 ends")
    }

    func testScheduledRelease() {
        let h = Harness()
        h.sample()
        h.ok("rules set --release-delay 0 --yes")
        h.ok("version add 2.2 --platform ios --build 220 --released 2026-12-03T09:00:00Z")
        expect(h, "2026-12-03T09:00:00Z", "ios 2.2 is released")
    }

    func testDeadline() {
        let h = Harness()
        h.sample()
        h.ok("force 2.0 --platform ios --deadline 2026-12-01T10:00:00Z --yes")
        expect(h, "2026-12-01T10:00:00Z", "the force floor 2.0 on ios becomes required")
        // At the deadline itself the change has happened: nothing further.
        XCTAssertNil(publish(h, at: "2026-12-01T10:00:00Z").next)
    }

    func testWindowStartsFasterPollingAndEnds() {
        let h = Harness()
        h.sample()
        h.ok("maintenance schedule --from 2026-12-02T02:00:00Z --until 2026-12-02T04:00:00Z --platform ios --yes")
        expect(h, "2026-12-02T01:00:00Z", "control.json asks for faster polling an hour before maintenance window #1 (ios)")
        expect(h, at: "2026-12-02T01:30:00Z", "2026-12-02T02:00:00Z", "maintenance window #1 (ios) starts")
        expect(h, at: "2026-12-02T03:00:00Z", "2026-12-02T04:00:00Z", "maintenance window #1 (ios) ends")
        XCTAssertNil(publish(h, at: "2026-12-02T04:00:00Z").next)
    }

    /// The causes are real: rendering just before and at the instant gives different files.
    func testTheFilesDoChangeAtTheInstant() {
        let h = Harness()
        h.sample()
        h.ok("force 2.0 --platform ios --deadline 2026-12-01T10:00:00Z --yes")
        let out = h.dir + "/out"
        h.ok("publish \(out) --at 2026-12-01T09:59:59Z")
        let r = h.ok("publish \(out) --at 2026-12-01T10:00:00Z --json").json as? [String: Any]
        XCTAssertGreaterThan((r?["changed"] as? [String])?.count ?? 0, 1, "control.json, Retired and more change at the deadline")
    }

    func testDistanceForPeople() {
        XCTAssertEqual(PeopleTime.distance(14 * 3600), "in 14 h")
        XCTAssertEqual(PeopleTime.distance(90 * 60), "in 1 h 30 min")
        XCTAssertEqual(PeopleTime.distance(3 * 86400 + 7200), "in 3 d 2 h")
        XCTAssertEqual(PeopleTime.distance(-120), "2 min ago")
        XCTAssertEqual(PeopleTime.distance(0), "now")
        XCTAssertEqual(PeopleTime.local(1_796_169_600, timeZone: "Europe/Istanbul"), "2026-12-02 03:00 +03")
        XCTAssertEqual(PeopleTime.local(1_796_169_600, timeZone: "UTC"), "2026-12-02 00:00 UTC")
    }
}
