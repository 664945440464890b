import Foundation
import XCTest
@testable import RelctlCLI
@testable import RelctlCore
@testable import RelctlModel
@testable import SQLite

/// whatsnew/<locale>.json lists the project's limit of the newest released
/// versions (default 10; `rules set --whats-new N`, 0 for all).
final class WhatsNewLimitTests: XCTestCase {
    func listed(_ h: Harness, _ out: String) throws -> [String] {
        XCTAssertEqual(h.run(["publish", out]).status, 0)
        let doc = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out + "/shop/ios/whatsnew/en.json"))) as! [String: Any]
        return (doc["versions"] as! [[String: Any]]).map { $0["version"] as! String }
    }

    func testTheNewestTenByDefaultThenTheProjectsLimit() throws {
        let h = Harness()
        h.sample()
        for i in 1...12 { h.ok("version add 3.\(i) --platform ios --build \(300 + i) --released 2026-11-0\(1 + i % 9)T0\(i % 10):00:00Z") }
        h.ok("version add 9.0 --platform ios --build 900 --unreleased")
        let out = h.dir + "/out"
        let byDefault = try listed(h, out)
        XCTAssertEqual(byDefault.count, 10)
        XCTAssertEqual(byDefault.first, "3.12", "newest first; never an unreleased version")
        XCTAssertEqual(h.ok("rules show --json").json.flatMap { ($0 as? [String: Any])?["whatsNewVersions"] as? Int }, 10)
        h.ok("rules set --whats-new 3 --yes")
        XCTAssertEqual(try listed(h, out), ["3.12", "3.11", "3.10"])
        h.ok("rules set --whats-new 0 --yes")
        XCTAssertEqual(try listed(h, out).count, 15, "0: every released version (12 here and the sample's 3)")
        XCTAssertEqual(h.run(["verify", out]).status, 0)
        h.fails("rules set --whats-new -1 --yes", status: 2, "invalid --whats-new")
        h.fails("rules set --whats-new 1001 --yes", status: 2, "from 0 to 1000")
    }

    func testAnOutOfRangeLimitInTheDatabaseIsABadRow() throws {
        let h = Harness()
        h.sample()
        let db = try Connection(path: h.db, readOnly: false, create: false)
        try db.execute("UPDATE project SET whatsnew_limit = -2")
        h.fails("publish \(h.dir)/out", "whatsnew_limit")
    }
}
