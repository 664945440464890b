import Foundation
import XCTest
@testable import RelctlCLI
@testable import RelctlCore
@testable import RelctlModel

/// `relctl force VERSION --after/--deadline`: optional until the deadline,
/// required from it on, the same in check, status, every file and verify.
final class DeadlineTests: XCTestCase {
    // The harness clock is 2026-11-29T12:00:00Z; --after 7d ends here.
    static let deadline = "2026-12-06T12:00:00Z"

    func deadlineSample() -> Harness {
        let h = Harness()
        h.sample()
        h.ok("project edit shop --locales en,tr")
        let r = h.ok("force 2.0 --platform ios --after 7d --yes")
        XCTAssertTrue(r.err.contains("should update now and must from 2026-12-06 12:00 UTC (in 7 d)"), r.err)
        return h
    }

    func file(_ dir: String, _ path: String) -> [String: Any] {
        let data = FileManager.default.contents(atPath: dir + "/" + path) ?? Data()
        return (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
    }

    /// Before, at and after the deadline: check, status, control.json,
    /// Retired, the AndVersion manifest, Siren and verify agree.
    func testDeadlineBeforeAtAndAfterInEveryFile() {
        let h = deadlineSample()
        for (at, kind, decidedBy) in [("2026-12-06T11:59:59Z", "optional", "force-deadline"),
                                      (DeadlineTests.deadline, "required", "force-floor"),
                                      ("2026-12-20T00:00:00Z", "required", "force-floor")] {
            let check = h.ok("check 1.1 --platform ios --locale tr --at \(at) --json").json as? [String: Any]
            XCTAssertEqual(check?["verdict"] as? String, kind, at)
            XCTAssertEqual(check?["decidedBy"] as? String, decidedBy, at)
            let message = ((check?["message"] as? [String: Any])?["message"] as? [String: Any])?["text"] as? String ?? ""
            if kind == "optional" {
                XCTAssertEqual(check?["deadline"] as? String, DeadlineTests.deadline)
                XCTAssertEqual(message, "Shop uygulamasının 2.0 sürümü yayında. Lütfen 6 Aralık 2026 12:00 (UTC) tarihine kadar güncelleyin; sonrasında güncelleme zorunlu olacak.")
            } else {
                XCTAssertFalse(message.contains("Aralık"), message)
            }
            // 2.0 itself is at the floor: untouched at every instant.
            XCTAssertEqual((h.ok("check 2.0 --platform ios --at \(at) --json").json as? [String: Any])?["verdict"] as? String, "none")

            let status = h.ok("status --at \(at) --json").json as? [String: Any]
            let ios = (status?["platforms"] as? [[String: Any]])?.first { $0["platform"] as? String == "ios" }
            let v11 = (ios?["versions"] as? [[String: Any]])?.first { $0["version"] as? String == "1.1" }
            XCTAssertEqual(v11?["verdict"] as? String, kind, "status at \(at)")

            let out = h.dir + "/out-\(kind)-\(at.prefix(10))"
            h.ok("publish \(out) --at \(at)")
            let control = file(out, "shop/control.json")
            let iosControl = (control["platforms"] as? [String: Any])?["ios"] as? [String: Any]
            XCTAssertEqual((iosControl?["force"] as? [String: Any])?["deadline"] as? String, DeadlineTests.deadline, "control.json carries the deadline")
            let listed = (iosControl?["versions"] as? [[String: Any]])?.first { $0["version"] as? String == "1.1" }
            XCTAssertEqual(listed?["update"] as? String, kind, "control.json at \(at)")

            let retired = file(out, "shop/ios/retired/tr.json")
            let policy = (retired["versions"] as? [[String: Any]])?.first { $0["version"] as? String == "1.1" }?["policy"] as? String
            XCTAssertEqual(policy, kind == "optional" ? "recommend" : "force", "Retired at \(at)")
            let recommended = ((retired["messaging"] as? [String: Any])?["recommended"] as? [String: Any])?["message"] as? String ?? ""
            XCTAssertEqual(recommended.contains("6 Aralık 2026 12:00 (UTC)"), kind == "optional", "Retired's recommended message names the deadline only before it: \(recommended)")

            let siren = file(out, "shop/ios/siren.json")
            XCTAssertEqual(siren["forceFloor"] as? String, kind == "optional" ? nil : "2.0", "Siren has no floor during the grace period")

            let verify = h.run(["verify", out, "--json"])
            XCTAssertEqual(verify.status, 0, verify.err)
            XCTAssertEqual(((verify.json as? [String: Any])?["disagreements"] as? [Any])?.count, 0, "verify at \(at)")
        }
    }

    /// Moving, dropping and clearing the deadline are one command each.
    func testMoveDropAndClearTheDeadline() {
        let h = deadlineSample()
        h.ok("force --deadline 2026-12-01T09:00:00Z --platform ios --yes")
        XCTAssertEqual((h.ok("check 1.0 --platform ios --at 2026-12-01T08:59:59Z --json").json as? [String: Any])?["verdict"] as? String, "optional")
        XCTAssertEqual((h.ok("check 1.0 --platform ios --at 2026-12-01T09:00:00Z --json").json as? [String: Any])?["verdict"] as? String, "required")
        h.ok("force --after 30d --platform ios --yes")
        XCTAssertEqual((h.ok("check 1.0 --platform ios --at 2026-12-28T00:00:00Z --json").json as? [String: Any])?["verdict"] as? String, "optional")
        let dropped = h.ok("force --no-deadline --platform ios --yes")
        XCTAssertTrue(dropped.err.contains("must update (no deadline)"), dropped.err)
        XCTAssertEqual((h.ok("check 1.0 --platform ios --json").json as? [String: Any])?["verdict"] as? String, "required")
        h.ok("force 2.0 --platform ios --deadline \"2026-12-24 18:00\" --yes")
        XCTAssertTrue(h.ok("status").out.contains("force floor: 2.0 (optional until 2026-12-24 18:00 UTC (in 25 d 6 h))"))
        h.ok("force --clear --platform ios --yes")
        XCTAssertEqual((h.ok("check 1.0 --platform ios --json").json as? [String: Any])?["verdict"] as? String, "optional")
        XCTAssertTrue(h.ok("log").out.contains("force ios 2.0 deadline 2026-12-24 18:00 UTC"))
    }

    func testDeadlineRefusals() {
        let h = deadlineSample()
        h.fails("force 2.0 --platform ios --after 7d --deadline 2026-12-24T00:00:00Z --yes", status: 2, "both set the deadline")
        h.fails("force 2.0 --platform ios --deadline 2026-11-01T00:00:00Z --yes", status: 2, "is not in the future")
        h.fails("force 2.0 --platform ios --deadline now --yes", status: 2, "is not in the future")
        h.fails("force 2.0 --platform ios --after soon --yes", status: 2, "soon")
        h.fails("force 2.0 --platform ios --no-deadline --yes", status: 2, "--no-deadline takes no VERSION")
        h.fails("force --clear --after 7d --platform ios --yes", status: 2, "--clear removes the floor and its deadline")
        h.fails("force --after 7d --platform android --yes", status: 2, "android has no force floor")
        h.fails("force --after 7d --build 3 --platform ios --yes", status: 2, "moving a deadline keeps the floor")
        h.fails("recommend 2.0 --platform ios --after 7d --yes", status: 2, "--after")
        h.fails("force 2.0 --platform ios --deadline 10000-01-01T00:00:00Z --yes", status: 2, "time")
    }

    /// The evaluator alone, at the instant itself: the deadline is the first
    /// second of the required update.
    func testEvaluatorAtTheInstant() throws {
        let v = { (text: String, id: Int64, at: Int64) in
            VersionRecord(id: id, platformID: 1, version: try! Version(text), build: nil, releasedAt: at, minOS: nil, policy: nil, notes: [:])
        }
        let floor = Floor(version: try Version("2.0"), build: nil, deadline: 1000)
        let p = PlatformRecord(id: 1, projectID: 1, name: "ios", bundleID: nil, appStoreID: nil, storeURL: nil, minOS: nil, force: floor, recommend: nil)
        let project = ProjectRecord(id: 1, slug: "shop", name: "Shop", defaultLocale: "en", locales: [], rules: .standard,
                                    releaseDelayDays: 0, remindHours: 24, outdated: .recommend)
        let snapshot = ProjectSnapshot(project: project, platforms: [p], versions: [1: [v("1.0", 1, 0), v("2.0", 2, 0)]], windows: [],
                                       messages: MessageResolver(overrides: [:], defaultLocale: "en"))
        let e = Evaluator(snapshot)
        XCTAssertEqual(e.evaluate(p, Release(try Version("1.0"), build: nil), at: 999).kind, .optional)
        XCTAssertEqual(e.evaluate(p, Release(try Version("1.0"), build: nil), at: 999).deadline, 1000)
        XCTAssertEqual(e.evaluate(p, Release(try Version("1.0"), build: nil), at: 1000).kind, .required)
        XCTAssertNil(e.evaluate(p, Release(try Version("1.0"), build: nil), at: 1000).deadline)
        XCTAssertEqual(NextChange.after(snapshot, at: 999)?.at, 1000)
        XCTAssertNil(NextChange.after(snapshot, at: 1000))
    }
}
