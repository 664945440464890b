import XCTest
import SQLite
@testable import RelctlCLI
@testable import RelctlCore
@testable import RelctlModel
@testable import RelctlPublish

/// relctl on a database of many projects speaks like a tool people read:
/// the fleet at a glance, limits by kind, never a message of every slug.
final class FleetTests: XCTestCase {
    /// Six projects, each with an iOS app at 1.0 and 2.0; app-0 is the one
    /// that needs attention in each test that sets it up.
    func fleet(_ count: Int = 6) -> Harness {
        let h = Harness()
        h.ok("init")
        for i in 0..<count {
            h.ok("project add app-\(i) --name App\(i)")
            h.ok("-p app-\(i) platform add ios --bundle-id com.example.app\(i) --app-store-id \(1000 + i)")
            h.ok("-p app-\(i) version add 1.0 --platform ios --build 100 --released 2026-01-01T00:00:00Z")
            h.ok("-p app-\(i) version add 2.0 --platform ios --build 200 --released 2026-06-01T00:00:00Z")
        }
        return h
    }

    func testStatusWithoutAProjectShowsTheFleetAtAGlance() throws {
        let h = fleet()
        h.ok("-p app-0 maintenance start --for 2h --yes")
        h.ok("-p app-1 force 2.0 --deadline 2026-12-01T00:00:00Z --yes")
        h.ok("-p app-2 recommend 2.0 --yes")
        h.ok("-p app-3 maintenance schedule --from 2027-01-10T00:00:00Z --until 2027-01-10T02:00:00Z --yes")
        let text = h.ok("status").out
        XCTAssertTrue(text.hasPrefix("6 projects at "), text)
        XCTAssertTrue(text.contains(": 2 need attention\n"), text)
        XCTAssertTrue(text.contains("  app-0: maintenance on for all platforms until "), text)
        XCTAssertTrue(text.contains("  app-1: ios: force floor 2.0 required from "), text)
        XCTAssertFalse(text.contains("app-2") || text.contains("app-3") || text.contains("app-4"), "the rest are counted, not listed: \(text)")
        XCTAssertTrue(text.contains("4 others: nothing needs attention (of all: 1 with a force floor, 1 with a recommend floor, 1 with maintenance scheduled beyond 7 days)"), text)
        XCTAssertTrue(text.contains("relctl status -p SLUG"), text)

        let doc = try XCTUnwrap(h.ok("status --json").json as? [String: Any])
        let projects = try XCTUnwrap(doc["projects"] as? [[String: Any]])
        XCTAssertEqual(projects.map { $0["project"] as? String }, (0..<6).map { "app-\($0)" }, "scripts get every project")
        XCTAssertEqual(projects.map { ($0["attention"] as? [[String: Any]])?.count }, [1, 1, 0, 0, 0, 0])
        let deadline = try XCTUnwrap((projects[1]["attention"] as? [[String: Any]])?.first)
        XCTAssertEqual(deadline["kind"] as? String, "forceDeadline")
        XCTAssertEqual(deadline["platform"] as? String, "ios")
        XCTAssertEqual(deadline["at"] as? String, "2026-12-01T00:00:00Z")
        XCTAssertEqual(deadline["text"] as? String, "ios: force floor 2.0 required from 2026-12-01T00:00:00Z", "scripts get UTC, never 'in 2 d'")
        // Seen from another instant (--at), a deadline 7 days off is no attention yet.
        XCTAssertFalse(h.ok("status --at 2026-11-20T00:00:00Z").out.contains("app-1:"))
        let counts = try XCTUnwrap(doc["counts"] as? [String: Int])
        XCTAssertEqual(counts, ["projects": 6, "attention": 2, "force": 1, "recommend": 1, "maintenanceScheduled": 1])
        let validator = try SchemaValidator(path: Package.root + "/schema/json/status-fleet.schema.json")
        XCTAssertEqual(validator.validate(try JSONReader.parse(Array(h.ok("status --json").out.utf8))), [])

        // A floor no release reaches (set ahead of its release) is named.
        h.ok("-p app-5 version add 3.0 --platform ios --build 300 --unreleased")
        h.ok("-p app-5 force 3.0 --allow-unreleased --yes")
        XCTAssertTrue(h.ok("status").out.contains("  app-5: ios: no release reaches the force floor 3.0"))
        // One project, chosen or the default, is shown in full as before.
        XCTAssertTrue(h.ok("-p app-4 status").out.hasPrefix("project: app-4"))
        h.ok("project use app-4")
        XCTAssertTrue(h.ok("status").out.hasPrefix("project: app-4"))
    }

    /// export, apply and plan of a fleet's file name a few projects and count the rest.
    func testAFleetFileIsSaidInCounts() {
        let h = fleet()
        let exported = h.ok("export --all-projects -o \(h.dir)/fleet.json")
        XCTAssertTrue(exported.err.contains("exported app-0, app-1, app-2 and 3 more to"), exported.err)
        let applied = h.run(["apply", "\(h.dir)/fleet.json", "--yes"], database: h.dir + "/copy.db")
        XCTAssertEqual(applied.status, 0, applied.err)
        XCTAssertTrue(applied.err.contains("applied \(h.dir)/fleet.json: 6 created (app-0, app-1, app-2 and 3 more)"), applied.err)
        let same = h.run(["plan", "\(h.dir)/fleet.json"], database: h.dir + "/copy.db")
        XCTAssertTrue(same.out.contains("already holds what \(h.dir)/fleet.json says (app-0, app-1, app-2 and 3 more)"), same.out)
    }

    /// A reviewer's edit of one project in a fleet's file: the plan says the
    /// others in one line and the impact of that one only, read as it was
    /// before (from the database as committed), then applies it exactly.
    func testAnEditOfOneProjectIsPlannedAloneAmongTheFleet() throws {
        let h = fleet()
        h.ok("-p app-4 force 1.0 --yes")
        h.ok("export --all-projects -o \(h.dir)/fleet.json")
        let text = try String(contentsOfFile: "\(h.dir)/fleet.json", encoding: .utf8)
        let project = try XCTUnwrap(text.range(of: "\"app-4\": {"))
        let floor = try XCTUnwrap(text.range(of: "\"version\":\"1.0\"", range: project.upperBound..<text.endIndex))
        try text.replacingCharacters(in: floor, with: "\"version\":\"2.0\"").write(toFile: "\(h.dir)/edited.json", atomically: true, encoding: .utf8)

        let plan = h.ok("plan \(h.dir)/edited.json")
        XCTAssertTrue(plan.out.hasPrefix("unchanged: app-0, app-1, app-2 and 2 more\napp-4: changed (1 row: 0 added, 1 changed, 0 removed)\n"), plan.out)
        let impact = try XCTUnwrap(plan.out.components(separatedBy: "impact:\n").last)
        XCTAssertTrue(impact.hasPrefix("  app-4:\n    ios: 1.0 (100): optional → required\n"), "the impact against the floor as it was: \(impact)")
        for other in ["app-0", "app-1", "app-2", "app-3", "app-5"] { XCTAssertFalse(impact.contains(other), "\(other) changes nothing: \(impact)") }

        let token = try XCTUnwrap(plan.out.components(separatedBy: "--expect ").last?.trimmingCharacters(in: .whitespacesAndNewlines))
        h.ok("apply \(h.dir)/edited.json --expect \(token) --yes -q")
        XCTAssertTrue(h.ok("-p app-4 check --platform ios 1.0 --build 100").out.contains("required"), "applied as planned")
        XCTAssertTrue(h.ok("plan \(h.dir)/edited.json").out.hasPrefix("no changes"))
    }

    /// A database switched to a rollback journal by hand: there, a change too
    /// large for the cache takes the lock every reader needs, so a fleet's
    /// plan reads the projects before the change, not after, from the
    /// database as committed (which waited 15 s, then failed "locked").
    func testAFleetsFileIsPlannedAndAppliedInARollbackJournal() throws {
        let h = fleet(2)
        try Connection(path: h.db, readOnly: false, create: false).execute("PRAGMA journal_mode = DELETE")
        h.ok("export --all-projects -o \(h.dir)/fleet.json")
        var file = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: "\(h.dir)/fleet.json"))) as? [String: Any])
        var projects = try XCTUnwrap(file["projects"] as? [String: Any])
        var big = try XCTUnwrap(projects["app-1"] as? [String: Any])
        big["lineage"] = nil
        big["name"] = "Big"
        // 400 versions with a 10 kB note each: 4 MB of pages, twice SQLite's default cache.
        let note = String(repeating: "x", count: 10_000)
        var versions: [String: Any] = [:]
        for i in 1...400 { versions["1.\(i)"] = ["build": i, "minOs": NSNull(), "pin": NSNull(), "notes": ["en": note], "released": "2026-01-01T00:00:00Z"] }
        big["platforms"] = ["ios": ["appStoreId": "2000", "bundleId": "com.example.big", "force": NSNull(), "minOs": NSNull(), "recommend": NSNull(), "storeUrl": NSNull(), "versions": versions]]
        projects["big"] = big
        file["projects"] = projects
        try JSONSerialization.data(withJSONObject: file).write(to: URL(fileURLWithPath: "\(h.dir)/big.json"))

        let plan = h.ok("plan \(h.dir)/big.json")
        XCTAssertTrue(plan.out.contains("unchanged: app-0, app-1\n"), plan.out)
        let impact = try XCTUnwrap(plan.out.components(separatedBy: "impact:\n").last)
        XCTAssertTrue(impact.hasPrefix("  big:\n    a new project: 1 platform, 400 versions;"), impact)
        XCTAssertFalse(impact.contains("app-0") || impact.contains("app-1"), "the unchanged are left out here too: \(impact)")
        // Shown first (not -q): the trial's impact is made, as the plan's was.
        let applied = h.ok("apply \(h.dir)/big.json --yes")
        XCTAssertTrue(applied.err.contains("  big:\n    a new project: 1 platform, 400 versions;"), applied.err)
        XCTAssertFalse(applied.err.contains("app-0:") || applied.err.contains("app-1:"), applied.err)
        XCTAssertTrue(h.ok("plan \(h.dir)/big.json").out.hasPrefix("no changes"))
        XCTAssertEqual(try Connection(path: h.db, readOnly: true, create: false).scalar("PRAGMA journal_mode"), .text("delete"), "the journal is left as the engineer chose it")
    }

    /// An apply that writes many Android builds out of order spells out the first ten and counts the rest.
    func testBuildsOutOfOrderAreSpelledOutTenAtATime() throws {
        let h = Harness()
        h.ok("init")
        h.ok("project add shop --name Shop")
        h.ok("platform add android --bundle-id com.example.shop")
        for i in 1...14 { h.ok("version add 1.\(i) --platform android --build \(100 + i) --released 2026-01-01T00:00:00Z") }
        h.ok("export -o \(h.dir)/shop.json")
        var text = try String(contentsOfFile: h.dir + "/shop.json", encoding: .utf8)
        // Builds falling as the versions grow: each of the 14 ranks below an older one.
        for i in 1...14 { text = text.replacingOccurrences(of: "\"build\":\(100 + i),", with: "\"build\":\(900 - i),") }
        XCTAssertTrue(text.contains("\"build\":899,") && !text.contains("\"build\":101,"), "the file holds the builds as this test writes them")
        try text.write(toFile: h.dir + "/shop.json", atomically: true, encoding: .utf8)
        let r = h.ok("apply \(h.dir)/shop.json --yes")
        XCTAssertEqual(r.err.components(separatedBy: "would rank").count - 1, 10, r.err)
        XCTAssertTrue(r.err.contains("and 4 more android versions of shop with builds out of order"), r.err)
    }

    func testStatusOfTheFleetRefusesTheOnePageItCannotWrite() {
        let h = fleet(2)
        h.fails("status --html page.html", status: 2, "--html writes the page of one project")
    }

    /// No message lists more than a handful of slugs.
    func testMessagesNameAFewProjectsAndCountTheRest() {
        let h = fleet(8)
        let r = h.fails("platform list", status: 2, "8 projects (app-0, app-1, app-2 and 5 more): which one?")
        XCTAssertFalse(r.err.contains("app-7"), r.err)
        let unknown = h.fails("-p nope platform list", "no project 'nope'")
        XCTAssertTrue(unknown.err.contains("known projects: app-0, app-1, app-2 and 5 more"), unknown.err)
        XCTAssertEqual(Suggest.few(["a", "b", "c", "d"]), "a, b, c, d", "four are said, not 'three and 1 more'")
        XCTAssertEqual(Suggest.few(["a", "b", "c", "d", "e"]), "a, b, c and 2 more")
    }

    /// A release day across the fleet: publish, --watch and deploy name the
    /// first few projects whose files change next and count the rest.
    func testTheNextChangeOfAFleetNamesAFewProjects() {
        let h = fleet(6)
        for i in 0..<6 { h.ok("-p app-\(i) version add 3.0 --platform ios --build 300 --released 2027-01-01T00:00:00Z") }
        let r = h.ok("publish \(h.dir)/out --at 2026-12-01T00:00:00Z")
        XCTAssertTrue(r.err.contains("(app-0: ios 3.0 is released; app-1: ios 3.0 is released; app-2: ios 3.0 is released; and 3 more): publish again then"), r.err)
        XCTAssertFalse(r.err.contains("app-5: ios 3.0"), r.err)
        let json = h.ok("publish \(h.dir)/out2 --at 2026-12-01T00:00:00Z --json")
        XCTAssertTrue(json.out.contains("app-5: ios 3.0 is released"), "--json keeps every cause: \(json.out)")
    }

    /// A fleet's first publish says each kind of limit once, with how many
    /// projects have it; one project's limits are said as before.
    func testAFirstPublishSaysLimitsByKind() throws {
        let h = fleet()
        let r = h.ok("publish \(h.dir)/out")
        let lines = r.err.split(separator: "\n").filter { $0.hasPrefix("warning: not carried: ") }
        let unrecorded = lines.filter { $0.contains("ios: versions relctl has no record of") }
        XCTAssertEqual(unrecorded.count, 1, r.err)
        XCTAssertTrue(unrecorded.first?.hasSuffix("— in 6 projects (app-0, app-1, app-2 and 3 more)") ?? false, r.err)
        // A reason whose fix names the project (-p app-0) is one kind in all six.
        let siren = lines.filter { $0.contains("Siren: no lookup file without a minimum OS") }
        XCTAssertEqual(siren.count, 1, r.err)
        XCTAssertTrue(siren.first?.contains("(relctl platform edit ios --min-os VERSION -p SLUG) — in 6 projects") ?? false, r.err)
        XCTAssertFalse(lines.contains { $0.contains("app-0/ios") }, "no line per project: \(r.err)")
        XCTAssertTrue(lines.last?.contains("by kind; each project's: relctl status -p SLUG; every one: relctl verify \(h.dir)/out --json") ?? false, r.err)
        // verify --json keeps every project's limit.
        let verify = try XCTUnwrap(h.ok("verify \(h.dir)/out --json").json as? [String: Any])
        let limits = try XCTUnwrap(verify["limits"] as? [[String: Any]])
        XCTAssertEqual(Set(limits.filter { ($0["intent"] as? String)?.contains("versions relctl has no record of") ?? false }.compactMap { $0["project"] as? String }),
                       Set((0..<6).map { "app-\($0)" }))
        // One project changed: its own lines.
        h.ok("-p app-0 version add 2.0.0.1 --platform ios --build 201 --released 2026-07-01T00:00:00Z")
        let one = h.ok("publish \(h.dir)/out")
        XCTAssertTrue(one.err.contains("not carried: app-0/ios: four-part versions"), one.err)
        XCTAssertFalse(one.err.contains("by kind"), one.err)
    }

    func testKindsBeyondTheFirstFewAreCounted() {
        let limits = (0..<30).flatMap { kind in (0..<5).map { p in
            (project: "app-\(p)", limit: Limit(client: .retired, platform: "ios", intent: "intent \(kind)", reason: "reason")) } }
        let lines = FindingsReport.limitLines(limits, kindsShown: 20, seeAll: "see all")
        XCTAssertEqual(lines.count, 21, lines.joined(separator: "\n"))
        XCTAssertEqual(lines.last, "150 limits of 5 projects, by kind; and 10 more kinds; see all")
        XCTAssertEqual(lines.first, "ios: intent 0 — Retired: reason — in 5 projects (app-0, app-1, app-2 and 2 more)")
        XCTAssertEqual(FindingsReport.limitLines(Array(limits.prefix(3))).count, 3, "three projects: a line each")
        XCTAssertEqual(FindingsReport.generalised("fix with 'relctl x -p app-1' (relctl y -p app-1) or -p app-10 -p app-1", "app-1"),
                       "fix with 'relctl x -p SLUG' (relctl y -p SLUG) or -p app-10 -p SLUG")
    }
}
