import Foundation
@testable import RelctlCLI
import RelctlCore
import XCTest

/// Store-aware floors (StoreGuard): storefronts, the iTunes lookup fetched
/// from a local server serving recorded answers (scripts/itunes-test-server.py),
/// Play's tracks imported, and every write that raises a floor or sets a pin
/// refused while the evidence does not show its target served.
final class StoreEvidenceTests: XCTestCase {
    /// The local lookup: answers per storefront in `answers`, each request logged.
    final class LookupServer {
        let server: LocalServer
        let dir: String
        let answers: String
        let log: String

        init(dir: String) throws {
            self.dir = dir
            answers = dir + "/answers"
            log = dir + "/lookup.log"
            try FileManager.default.createDirectory(atPath: answers, withIntermediateDirectories: true)
            do {
                server = try LocalServer(script: "itunes-test-server.py", [answers, log], what: "the lookup test server (python3)")
            } catch {
                try? FileManager.default.removeItem(atPath: dir)
                throw error
            }
        }

        // Its answers and log go with it (the server itself is stopped as `server` goes).
        deinit { try? FileManager.default.removeItem(atPath: dir) }

        var url: String { "http://127.0.0.1:\(server.port)/lookup" }

        /// The lookup's answer in `country`: one app at `version`, released at `released`.
        func serve(_ country: String, version: String, released: String, minOS: String = "15.0", trackID: Int = 1088280260) {
            let body = """
            {"resultCount":1,"results":[{"trackId":\(trackID),"bundleId":"com.example.shop","version":"\(version)","currentVersionReleaseDate":"\(released)","minimumOsVersion":"\(minOS)","price":0.00,"averageUserRating":4.5,"fileSizeBytes":"123"}]}
            """
            try! body.write(toFile: answers + "/\(country).json", atomically: true, encoding: .utf8)
        }

        func raw(_ country: String, _ suffix: String, _ text: String) {
            try! text.write(toFile: answers + "/\(country).\(suffix)", atomically: true, encoding: .utf8)
        }

        func clear(_ country: String) {
            for s in ["json", "status", "endless"] { try? FileManager.default.removeItem(atPath: answers + "/\(country).\(s)") }
        }

        func queries() -> [[String: String]] {
            ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n").compactMap {
                (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["query"] as? [String: String]
            }
        }
    }

    /// The sample (now 2026-11-29 12:00 UTC) with iOS 2.1 released, sold in us, de and tr, the lookup pointed at `server`.
    func storeHarness(_ server: LookupServer) -> Harness {
        let h = Harness()
        h.sample()
        h.env["RELCTL_ITUNES_URL"] = server.url
        h.ok("version add 2.1 --platform ios --build 210 --released 2026-11-20T10:00:00Z")
        h.ok("platform edit ios --storefronts US,de,tr")
        return h
    }

    func server() throws -> LookupServer { try LookupServer(dir: NSTemporaryDirectory() + "relctl-lookup-" + UUID().uuidString.prefix(8)) }

    func testFetchAsksEveryStorefrontAndTheGuardNamesWhatIsNotServed() throws {
        let server = try server()
        let h = storeHarness(server)
        // Never fetched: every storefront lacks evidence.
        h.fails("force 2.1 --platform ios --yes", "us: no lookup of the store")
        server.serve("us", version: "2.1", released: "2026-11-20T10:00:00Z")
        server.serve("de", version: "2.0", released: "2026-11-01T00:00:00Z")
        // tr: no file, the lookup's answer for an app not sold there.
        h.ok("store fetch --platform ios")
        let queries = server.queries()
        XCTAssertEqual(queries.map { $0["country"] ?? "" }.sorted(), ["de", "tr", "us"], "country always given, lower case")
        XCTAssertTrue(queries.allSatisfy { $0["id"] == "1088280260" }, "looked up by App Store id: \(queries)")
        let refused = h.fails("force 2.1 --platform ios --yes", "de: the lookup shows 2.0, fetched")
        XCTAssertTrue(refused.err.contains("tr: the lookup has no result"), refused.err)
        XCTAssertFalse(refused.err.contains("us:"), "us serves 2.1: \(refused.err)")
        XCTAssertTrue(refused.err.contains("--allow-store-risk"), refused.err)
        // The same for a recommend, and for a pin that sends 1.1 to 2.1... once 2.0 is a pin target, 2.0 is served in de but not tr.
        h.fails("recommend 2.1 --platform ios --yes", "de: the lookup shows 2.0")
        h.fails("policy set 2.0 force --platform ios --yes", "tr: the lookup has no result")
        // Sold where it is served: the floor goes in.
        h.ok("platform edit ios --storefronts us,de")
        h.ok("force 2.0 --platform ios --yes")
        h.fails("force 2.1 --platform ios --yes", "de: the lookup shows 2.0")
        // Allowed, and the log says so.
        let allowed = h.ok("force 2.1 --platform ios --yes --allow-store-risk")
        XCTAssertTrue(allowed.err.contains("store risk allowed"), allowed.err)
        let log = h.ok("log --json").json as! [String: Any]
        let action = ((log["entries"] as! [[String: Any]]).first!["action"] as! String)
        XCTAssertTrue(action.contains("store risk allowed: ios de"), action)
        // Lowering a floor raises nothing, and is never refused.
        h.ok("force 2.0 --platform ios --yes")
        // Undo takes the lowering back: the floor rises to 2.1 again, which the store guard refuses too.
        h.fails("undo --yes", "de: the lookup shows 2.0")
        h.ok("undo --yes --allow-store-risk")
    }

    func testEvidenceOlderThanADayAndTheReleaseDelay() throws {
        let server = try server()
        let h = storeHarness(server)
        h.ok("platform edit ios --storefronts us")
        // The lookup shows 2.1, released an hour ago: the store and its caches may not serve it yet.
        server.serve("us", version: "2.1", released: "2026-11-29T11:00:00Z")
        h.ok("store fetch")
        let r = h.fails("force 2.1 --platform ios --yes", "within the 1-day release delay")
        XCTAssertTrue(r.err.contains("it becomes safe at 2026-11-30 11:00"), r.err)
        // Over the delay, by this evidence: check --at asks about later instants.
        h.ok("force 2.1 --platform ios --yes --allow-store-risk")
        XCTAssertTrue(h.ok("check 2.0 --platform ios --country us").out.contains("within the 1-day release delay"))
        XCTAssertTrue(h.ok("check 2.0 --platform ios --country us --at 2026-11-30T11:00:00Z").out.contains("us: the store offers an update to 2.1 or later"))
        h.ok("force --clear --platform ios --yes")
        // A floor that an older recorded release reaches was served before: 2.0 came first, long enough ago.
        h.ok("force 2.0 --platform ios --yes")
        // One recorded a minute ago proves nothing of the store.
        h.ok("version add 2.0.5 --platform ios --released 2026-11-29T11:59:00Z")
        h.fails("recommend 2.0.5 --platform ios --yes", "within the 1-day release delay")
        let risk = h.ok("recommend 2.0.5 --platform ios --yes --allow-store-risk")
        XCTAssertTrue(risk.err.contains("from 2026-11-30 11:00"), "the instant the risk ends, in the preview: \(risk.err)")
        h.ok("recommend --clear --platform ios --yes")
        // Past the delay, with evidence fetched then.
        h.now += 86_400
        h.ok("store fetch")
        h.ok("force 2.1 --platform ios --yes")
        // A day and more later, the evidence counts as none.
        h.now += 86_401
        h.fails("recommend 2.1 --platform ios --yes", "evidence older than a day counts as none")
    }

    func testPlayTracksStagedHaltedCountryTargetedAndCompleted() throws {
        let h = Harness()
        h.sample()
        h.ok("version add 2.1.0 --platform android --build 210 --released 2026-11-20T10:00:00Z")
        h.ok("platform edit android --storefronts us,de,tr")
        func tracks(_ releases: String) -> String {
            let path = h.dir + "/tracks.json"
            try! "{\"kind\":\"androidpublisher#tracksListResponse\",\"tracks\":[{\"track\":\"production\",\"releases\":[\(releases)]},{\"track\":\"beta\",\"releases\":[{\"versionCodes\":[\"220\"],\"status\":\"completed\"}]}]}"
                .write(toFile: path, atomically: true, encoding: .utf8)
            return path
        }
        h.fails("force 2.1.0 --platform android --yes", "no Play tracks imported")
        // 20 % staged rollout of 2.1.0; 2.0.0 completed.
        h.ok("store import play \(tracks("{\"versionCodes\":[\"210\"],\"status\":\"inProgress\",\"userFraction\":0.2},{\"versionCodes\":[\"200\"],\"status\":\"completed\"}"))")
        let staged = h.fails("recommend 2.1.0 --platform android --yes", "is in a staged rollout at 20 % on Play")
        XCTAssertTrue(staged.err.contains("de, tr, us:"), "one reason, said once for every storefront: \(staged.err)")
        h.ok("force 2.0.0 --platform android --yes")
        // Halted.
        h.ok("store import play \(tracks("{\"versionCodes\":[\"210\"],\"status\":\"halted\",\"userFraction\":0.2},{\"versionCodes\":[\"200\"],\"status\":\"completed\"}"))")
        h.fails("force 2.1.0 --platform android --yes", "release of 2.1.0 (versionCode 210) is halted")
        // Country-targeted: half of de and us, none of tr.
        h.ok("store import play \(tracks("{\"versionCodes\":[\"210\"],\"status\":\"inProgress\",\"userFraction\":0.5,\"countryTargeting\":{\"countries\":[\"DE\",\"US\"],\"includeRestOfWorld\":false}},{\"versionCodes\":[\"200\"],\"status\":\"completed\"}"))")
        let targeted = h.fails("force 2.1.0 --platform android --yes", "tr: Play's staged rollout of 2.1.0 (versionCode 210) is not offered there")
        XCTAssertTrue(targeted.err.contains("de, us: 2.1.0 (versionCode 210) is in a staged rollout at 50 % on Play"), targeted.err)
        // Targeted to everyone in de and us (no fraction): served there, still not in tr.
        h.ok("store import play \(tracks("{\"versionCodes\":[\"210\"],\"status\":\"inProgress\",\"countryTargeting\":{\"countries\":[\"DE\",\"US\"]}},{\"versionCodes\":[\"200\"],\"status\":\"completed\"}"))")
        let everyone = h.fails("force 2.1.0 --platform android --yes", "tr: Play's staged rollout of 2.1.0 (versionCode 210) is not offered there")
        XCTAssertFalse(everyone.err.contains("de:") || everyone.err.contains("de,") || everyone.err.contains("us:"), everyone.err)
        // An inProgress release without its fraction is not known to reach everyone.
        h.ok("store import play \(tracks("{\"versionCodes\":[\"210\"],\"status\":\"inProgress\"},{\"versionCodes\":[\"200\"],\"status\":\"completed\"}"))")
        h.fails("force 2.1.0 --platform android --yes", "staged rollout at an unknown fraction")
        // A completed release kept from a country.
        h.ok("store import play \(tracks("{\"versionCodes\":[\"210\"],\"status\":\"completed\",\"countryTargeting\":{\"countries\":[\"us\"]}}"))")
        h.fails("force 2.1.0 --platform android --yes", "de, tr: Play's release of 2.1.0 (versionCode 210) is not offered there")
        // The release nearest to serving it says why: done but kept from tr, not the halted one above it.
        h.ok("store import play \(tracks("{\"versionCodes\":[\"210\"],\"status\":\"completed\",\"countryTargeting\":{\"countries\":[\"US\",\"DE\"]}},{\"versionCodes\":[\"220\"],\"status\":\"halted\",\"userFraction\":0.1}"))")
        h.fails("force 2.1.0 --platform android --yes", "tr: Play's release of 2.1.0 (versionCode 210) is not offered there")
        // The beta track is not the public's.
        h.ok("store import play \(tracks("{\"versionCodes\":[\"200\"],\"status\":\"completed\"}"))")
        h.fails("force 2.1.0 --platform android --yes", "Play's production track serves 2.0.0 (versionCode 200)")
        // A dry run records nothing.
        let dry = h.ok("store import play \(tracks("{\"versionCodes\":[\"210\"],\"status\":\"completed\"}")) --dry-run")
        XCTAssertTrue(dry.err.contains("nothing changed"), dry.err)
        h.fails("force 2.1.0 --platform android --yes", "Play's production track serves 2.0.0 (versionCode 200)")
        // A file as old as its last write: a download two days old is no evidence today.
        let old = tracks("{\"versionCodes\":[\"210\"],\"status\":\"completed\"}")
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: TimeInterval(h.now - 2 * 86_400))], ofItemAtPath: old)
        h.fails("store import play \(old)", "before the tracks already recorded")
        // Tracks a day old count as none.
        h.now += 86_401
        h.fails("force 2.1.0 --platform android --yes", "evidence older than a day counts as none")
        h.now -= 86_401
        // Completed: served everywhere.
        h.ok("store import play \(tracks("{\"versionCodes\":[\"210\"],\"status\":\"completed\"}"))")
        h.ok("force 2.1.0 --platform android --yes")
        // What the status says, and the JSON of store show.
        let shown = h.ok("store show --platform android --json").json as! [String: Any]
        let platform = (shown["platforms"] as! [[String: Any]])[0]
        let targets = platform["targets"] as! [[String: Any]]
        XCTAssertEqual(targets.first?["served"] as? Bool, true, "\(targets)")
        let staging = h.ok("store import play \(tracks("{\"versionCodes\":[\"210\"],\"status\":\"completed\"},{\"versionCodes\":[\"220\"],\"status\":\"inProgress\",\"userFraction\":0.05,\"countryTargeting\":{\"countries\":[\"us\"],\"includeRestOfWorld\":true}}")) --json")
        XCTAssertEqual(try SchemaValidator(path: Package.root + "/schema/json/store.schema.json").validate(try JSONReader.parseForeign(Array(staging.out.utf8))), [])
        XCTAssertTrue(h.ok("store show --platform android").out.contains("production: versionCode 220 inProgress at 5 % in us and the rest of the world"))
        // Hostile files: refused whole, with what is wrong, and the database unchanged.
        try "{\"tracks\":[{\"track\":\"production\",\"releases\":[{\"versionCodes\":[\"210\"],\"status\":\"rolledOut\"}]}]}".write(toFile: h.dir + "/bad.json", atomically: true, encoding: .utf8)
        h.fails("store import play \(h.dir)/bad.json", "status must be one of completed, inProgress, halted, draft")
        try "{\"tracks\":[{\"track\":\"production\",\"releases\":[{\"versionCodes\":[\"210\"],\"status\":\"inProgress\",\"userFraction\":1.5}]}]}".write(toFile: h.dir + "/bad.json", atomically: true, encoding: .utf8)
        h.fails("store import play \(h.dir)/bad.json", "userFraction must be a number from 0.000001 to 1")
        // Below a part per million it would read back as none: refused, and the database stays readable.
        try "{\"tracks\":[{\"track\":\"production\",\"releases\":[{\"versionCodes\":[\"210\"],\"status\":\"inProgress\",\"userFraction\":1e-9}]}]}".write(toFile: h.dir + "/bad.json", atomically: true, encoding: .utf8)
        h.fails("store import play \(h.dir)/bad.json", "userFraction must be a number from 0.000001 to 1")
        h.ok("store show")
        try String(repeating: "[", count: 10_000).write(toFile: h.dir + "/bad.json", atomically: true, encoding: .utf8)
        h.fails("store import play \(h.dir)/bad.json", "it is not a JSON object")
        h.fails("store import play \(h.dir)/tracks.json --platform ios", status: 2, "Google Play's tracks are for android")
    }

    func testHostileLookupsAreRefusedWithTheirURLAndRecordNothing() throws {
        let server = try server()
        let h = storeHarness(server)
        server.serve("us", version: "2.1", released: "2026-11-20T10:00:00Z")
        server.serve("de", version: "2.1", released: "2026-11-20T10:00:00Z")
        server.raw("tr", "json", "{\"resultCount\":1,\"results\":[{\"version\":")
        h.fails("store fetch", "cannot read the lookup \(server.url)?id=1088280260&country=tr: the answer is not a JSON object; nothing was recorded")
        server.clear("tr")
        server.raw("tr", "json", String(repeating: "[", count: 1_000_000))
        h.fails("store fetch", "cannot read the lookup \(server.url)?id=1088280260&country=tr: the answer is not a JSON object")
        server.clear("tr")
        server.raw("tr", "status", "503")
        h.fails("store fetch", "cannot fetch \(server.url)?id=1088280260&country=tr")
        server.clear("tr")
        server.raw("tr", "endless", "")
        h.fails("store fetch", "sent more than 1 MiB")
        server.clear("tr")
        server.serve("tr", version: "2.1", released: "2026-11-20T10:00:00Z", trackID: 42)
        h.fails("store fetch", "the answer is for App Store id 42, not 1088280260")
        server.clear("tr")
        h.ok("store fetch")
        let out = h.ok("store show --platform ios").out
        XCTAssertTrue(out.contains("tr          no result"), out)
        server.serve("tr", version: "7.0", released: "2026-11-20T10:00:00Z")
        let unknown = h.ok("store fetch")
        XCTAssertTrue(unknown.err.contains("the App Store serves 7.0, which this database does not record"), unknown.err)
        // Not a country, not an Apple platform, no storefronts: usage errors.
        h.fails("platform edit ios --storefronts us,uk", status: 2, "the United Kingdom's code is gb")
        h.fails("store fetch --platform android", status: 2, "the iTunes lookup knows Apple platforms")
        let off = h.ok("platform edit ios --storefronts \"\"")
        XCTAssertTrue(off.err.contains("no longer checked against the stores"), off.err)
        h.fails("store fetch", "names its storefronts")
        // A platform without storefronts keeps today's behaviour, with one line saying so.
        let unchecked = h.ok("force 2.1 --platform ios --yes")
        XCTAssertTrue(unchecked.err.contains("unchecked against the stores"), unchecked.err)
    }

    func testApplyPlanExportAndCheckCountry() throws {
        let server = try server()
        let h = storeHarness(server)
        server.serve("us", version: "2.1", released: "2026-11-20T10:00:00Z")
        server.serve("de", version: "2.0", released: "2026-11-01T00:00:00Z")
        h.ok("store fetch")
        // Storefronts travel with the configuration.
        let file = h.dir + "/shop.relctl.json"
        h.ok("export --output \(file)")
        let exported = try String(contentsOfFile: file, encoding: .utf8)
        XCTAssertTrue(exported.contains("\"storefronts\": [\"de\",\"tr\",\"us\"]"), exported)
        // A file that raises the floor: plan says apply refuses it; apply refuses; allowed, it goes in.
        // iOS is the platform with storefronts: its force floor (none) becomes 2.1.
        let ios = exported.range(of: "\"ios\": {")!
        let raised = exported.replacingOccurrences(of: "\"force\": null", with: "\"force\": {\"build\":null,\"deadline\":null,\"version\":\"2.1\"}",
                                                   range: ios.upperBound..<exported.endIndex)
        XCTAssertNotEqual(raised, exported)
        try raised.write(toFile: file, atomically: true, encoding: .utf8)
        let plan = h.ok("plan \(file)")
        XCTAssertTrue(plan.out.contains("apply refuses this without --allow-store-risk"), plan.out)
        h.fails("apply \(file) --yes", "de: the lookup shows 2.0")
        h.ok("apply \(file) --yes --allow-store-risk")
        // check --country: whether that store offers the update the user is sent to.
        let de = h.ok("check 1.1 --platform ios --country DE --json").json as! [String: Any]
        let store = de["store"] as! [String: Any]
        XCTAssertEqual(store["served"] as? Bool, false)
        XCTAssertEqual(store["sentTo"] as? String, "2.1")
        let us = h.ok("check 1.1 --platform ios --country us").out
        XCTAssertTrue(us.contains("us: the store offers an update to 2.1 or later"), us)
        // Sent to a newer release than the store has, a user below the floor still updates out of it there.
        h.ok("version add 2.2 --platform ios --released 2026-11-25T00:00:00Z")
        let newer = h.ok("check 1.1 --platform ios --country us").out
        XCTAssertTrue(newer.contains("target:        2.2") && newer.contains("us: the store offers an update to 2.1 or later"), newer)
        h.fails("check 1.1 --platform ios --country xx", status: 2, "'xx' is not a country code")
        // status and the status page show each storefront and its evidence.
        let status = h.ok("status").out
        XCTAssertTrue(status.contains("store: de 2.0 (fetched now), tr no result (fetched now), us 2.1 (fetched now)"), status)
        XCTAssertTrue(status.contains("not served: the force floor 2.1 on ios"), status)
        // verify says which live floors the stores do not serve.
        h.ok("publish \(h.dir)/out")
        let verified = h.ok("verify \(h.dir)/out --json").json as! [String: Any]
        let unserved = (verified["store"] as! [[String: Any]]).first { ($0["what"] as? String)?.hasPrefix("the force floor 2.1") == true }
        XCTAssertEqual(unserved?["platform"] as? String, "ios", "\(verified["store"] ?? "")")
        let page = h.ok("status --html -").out
        XCTAssertTrue(page.contains("<dt>Store de</dt><dd>serves 2.0"), page)
    }

    /// Every write that can raise a floor is guarded, imports too: the guard sits in the session, not in the commands.
    func testImportsAreGuardedToo() throws {
        let h = Harness()
        h.sample()
        h.ok("platform edit ios --storefronts us")
        h.ok("force 2.0 --platform ios --yes --allow-store-risk")
        h.ok("publish \(h.dir)/out")
        h.ok("force --clear --platform ios --yes")
        h.fails("import control \(h.dir)/out/shop/control.json --replace --yes", "the force floor 2.0 on ios is not served everywhere the app sells: us: no lookup of the store")
        let allowed = h.ok("import control \(h.dir)/out/shop/control.json --replace --yes --allow-store-risk")
        XCTAssertTrue(allowed.err.contains("store risk allowed"), allowed.err)
    }

    /// The ways around the guard the review found: a pin strengthened, storefronts dropped in the same
    /// change, a platform the change itself makes (said, never silent).
    func testNoWayAroundTheGuard() throws {
        let h = Harness()
        h.sample()
        h.ok("platform edit ios --storefronts us")
        h.ok("policy set 1.0 recommend --platform ios --yes --allow-store-risk")
        h.fails("policy set 1.0 force --platform ios --yes", "the force pin of 1.0 (its users are sent to 2.0; a store serving 1.1 or later lets them update) on ios")
        // Weakened: never refused.
        h.ok("policy set 1.0 force --platform ios --yes --allow-store-risk")
        h.ok("policy set 1.0 recommend --platform ios --yes")
        // A file that drops the storefronts and raises the floor in one apply.
        let file = h.dir + "/shop.relctl.json"
        h.ok("export --output \(file)")
        var text = try String(contentsOfFile: file, encoding: .utf8)
        text = text.replacingOccurrences(of: "\"storefronts\": [\"us\"],\n", with: "")
        let ios = text.range(of: "\"ios\": {")!
        text = text.replacingOccurrences(of: "\"force\": null", with: "\"force\": {\"build\":null,\"deadline\":null,\"version\":\"2.0\"}", range: ios.upperBound..<text.endIndex)
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        h.fails("apply \(file) --yes", "us: no lookup of the store")
        // Undoing a removal brings floors back on a platform with no evidence: said.
        h.ok("force 2.0 --platform ios --yes --allow-store-risk")
        h.ok("platform rm ios --yes")
        let undone = h.ok("undo --yes")
        XCTAssertTrue(undone.err.contains("is unchecked against the stores: the platform is new to this database"), undone.err)
    }

    /// A floor or pin whose target moves (a version removed, given another build, released later) needs
    /// the stores again; a pin left with nothing released above it asks users for what no store serves.
    func testTargetsThatMoveAreCheckedAgain() throws {
        let server = try server()
        let h = storeHarness(server)
        h.ok("platform edit ios --storefronts de")
        server.serve("de", version: "2.0", released: "2026-11-01T00:00:00Z")
        h.ok("store fetch")
        // 1.1 pinned to force: users update to 2.0 or later, which de serves.
        h.ok("policy set 1.1 force --platform ios --yes")
        // Without 2.0, they would need 2.1, which de does not serve.
        h.fails("version rm 2.0 --platform ios --yes", "the force pin of 1.1 (its users are sent to 2.1; a store serving 2.1 or later lets them update) on ios is not served everywhere the app sells: de: the lookup shows 2.0")
        h.fails("version edit 2.0 --platform ios --unreleased --yes", "de: the lookup shows 2.0")
        h.ok("version rm 2.0 --platform ios --yes --allow-store-risk")
        // Android: a floor without a build needs the lowest recorded build at or above it, which an edit moves.
        h.ok("platform edit android --storefronts us")
        let tracks = h.dir + "/tracks.json"
        try "{\"tracks\":[{\"track\":\"production\",\"releases\":[{\"versionCodes\":[\"200\"],\"status\":\"completed\"}]}]}".write(toFile: tracks, atomically: true, encoding: .utf8)
        h.ok("store import play \(tracks)")
        h.ok("force 2.0.0 --platform android --yes")
        h.fails("version edit 2.0.0 --platform android --build 205 --yes", "versionCode 205")
        // Play completed it just now: the release delay applies as to a lookup.
        h.ok("version add 2.1.0 --platform android --build 210 --released 2026-11-29T11:00:00Z")
        try "{\"tracks\":[{\"track\":\"production\",\"releases\":[{\"versionCodes\":[\"210\"],\"status\":\"completed\"}]}]}".write(toFile: tracks, atomically: true, encoding: .utf8)
        h.ok("store import play \(tracks)")
        let delayed = h.fails("force 2.1.0 --platform android --yes", "within the 1-day release delay")
        XCTAssertTrue(delayed.err.contains("it becomes safe at 2026-11-30 11:00"), delayed.err)
        // A pin with nothing released above it, brought in by a file.
        let file = h.dir + "/shop.relctl.json"
        h.ok("export --output \(file)")
        var text = try String(contentsOfFile: file, encoding: .utf8)
        let ios = text.range(of: "\"2.1\": {")!
        let pin = try XCTUnwrap(text.range(of: "\"pin\":null", range: ios.upperBound..<text.endIndex))
        text.replaceSubrange(pin, with: "\"pin\":\"force\"")
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        h.fails("apply \(file) --yes", "no version above 2.1 is released")
    }

    /// The bundle id path of the lookup, and the evidence's age when another instant is asked about.
    func testBundleIDLookupsAndStatusAt() throws {
        let server = try server()
        let h = storeHarness(server)
        h.ok("platform add tvos --bundle-id com.example.shop --storefronts us")
        h.ok("version add 2.1 --platform tvos --released 2026-11-01T00:00:00Z")
        try "{\"resultCount\":1,\"results\":[{\"version\":\"9.9\",\"currentVersionReleaseDate\":\"2026-11-01T00:00:00Z\"}]}".write(toFile: server.answers + "/us.json", atomically: true, encoding: .utf8)
        h.fails("store fetch --platform tvos", "the result has no \"bundleId\" to tell which app it is")
        XCTAssertEqual(server.queries().last?["bundleId"], "com.example.shop")
        try "{\"resultCount\":1,\"results\":[{\"bundleId\":\"com.other.app\",\"version\":\"9.9\"}]}".write(toFile: server.answers + "/us.json", atomically: true, encoding: .utf8)
        h.fails("store fetch --platform tvos", "the answer is for com.other.app, not com.example.shop")
        try "{\"resultCount\":1,\"results\":[{\"bundleId\":\"com.example.shop\",\"version\":\"2.1\",\"currentVersionReleaseDate\":\"2026-11-01T00:00:00Z\"}]}".write(toFile: server.answers + "/us.json", atomically: true, encoding: .utf8)
        h.ok("store fetch --platform tvos")
        h.ok("force 2.1 --platform tvos --yes")
        // Asked about two days on, the evidence is as old as it is now: still fresh, still serving 2.1.
        let later = h.ok("status --at 2026-12-01T12:00:00Z").out
        XCTAssertTrue(later.contains("store: us 2.1 (fetched now)"), later)
        XCTAssertFalse(later.contains("not served: the force floor 2.1 on tvos"), later)
    }

    /// What another party sends is read through a pipe, at most `limit` bytes: past it the program is killed.
    func testCaptureStopsAtItsLimit() throws {
        let endless = try XCTUnwrap(Spawn.capture("/bin/sh", ["-c", "yes"], env: ["PATH": "/usr/bin:/bin"], limit: 1000))
        XCTAssertEqual(endless.stdout.count, 1001, "one byte past the limit, for the caller to refuse")
        XCTAssertLessThan(endless.status, 0, "killed")
        let exact = try XCTUnwrap(Spawn.capture("/bin/sh", ["-c", "head -c 1000 /dev/zero"], env: ["PATH": "/usr/bin:/bin"], limit: 1000))
        XCTAssertEqual(exact.stdout.count, 1000)
        XCTAssertEqual(exact.status, 0)
    }

    func testGuardRulesWithoutADatabase() throws {
        let ios = PlatformRecord(id: 1, projectID: 1, name: "ios", bundleID: "b", appStoreID: nil, storeURL: nil, minOS: nil, force: nil, recommend: nil, storefronts: ["de", "us"])
        let v = { (text: String, released: Int64) in VersionRecord(id: released, platformID: 1, version: try! Version(text), build: nil, releasedAt: released, minOS: nil, policy: nil, notes: [:]) }
        let versions = [v("2.0", 1_000), v("2.1", 2_000), v("2.2", 3_000)]
        let now: Int64 = 200_000
        func lookup(_ s: String, _ version: String?, released: Int64? = 100_000, fetched: Int64 = 199_000) -> StoreLookup {
            StoreLookup(storefront: s, fetchedAt: fetched, version: version.map { try! Version($0) }, releasedAt: released, minOS: nil)
        }
        let target = StoreGuard.Target(version: try Version("2.1"), build: nil, what: "the force floor 2.1")
        func findings(_ lookups: [StoreLookup], delay: Int64 = 86_400) -> [String] {
            StoreGuard.unserved(target, on: ios, versions: versions, evidence: StoreEvidence(lookups: lookups), delay: delay, now: now).map(\.text)
        }
        XCTAssertEqual(findings([lookup("de", "2.1"), lookup("us", "2.2")]), [])
        XCTAssertEqual(findings([lookup("de", "2.0.9"), lookup("us", "2.2")]), ["de: the lookup shows 2.0.9, fetched 1970-01-03T07:16:40Z"])
        XCTAssertEqual(findings([lookup("us", "2.2")]), ["de: no lookup of the store"])
        // A clock set wrong proves nothing, nor does an answer a day old.
        XCTAssertEqual(findings([lookup("de", "2.1", fetched: now + 1), lookup("us", "2.1", fetched: now - 86_401)]),
                       ["de: the lookup is dated 1970-01-03T07:33:21Z, after now: evidence from a clock set wrong proves nothing",
                        "us: the lookup was fetched 1970-01-02T07:33:19Z, and evidence older than a day counts as none"])
        // A lookup without a release date: the delay cannot be told, unless an older recorded release reaches the target.
        XCTAssertEqual(StoreGuard.unserved(StoreGuard.Target(version: try Version("2.0"), build: nil, what: "x"), on: ios, versions: [v("2.0", now - 60), v("2.1", now - 30)],
                                           evidence: StoreEvidence(lookups: [lookup("de", "2.1", released: nil), lookup("us", "2.1", released: nil)]), delay: 86_400, now: now).map(\.text),
                       ["de: the lookup shows 2.1 without a release date, so the release delay cannot be told", "us: the lookup shows 2.1 without a release date, so the release delay cannot be told"])
        // The delay: 2.2 released just now, but 2.1 (recorded, released before it) reaches the target.
        XCTAssertEqual(findings([lookup("de", "2.2", released: now - 60), lookup("us", "2.2", released: now - 60)]), [])
        let only = StoreGuard.Target(version: try Version("2.2"), build: nil, what: "the force floor 2.2")
        let waiting = StoreGuard.unserved(only, on: ios, versions: versions, evidence: StoreEvidence(lookups: [lookup("de", "2.2", released: now - 60), lookup("us", "2.2", released: now - 7200)]), delay: 86_400, now: now)
        XCTAssertEqual(StoreGuard.safeAt(waiting), now - 60 + 86_400)
        // Lookup answers: floats read, several results or none.
        let body = Array("{\"resultCount\":1,\"results\":[{\"version\":\"2.1\",\"price\":0.99,\"averageUserRating\":4.5e0,\"currentVersionReleaseDate\":\"2026-11-20T10:00:00Z\"}]}".utf8)
        XCTAssertEqual(try StoreAnswers.lookup(body, storefront: "us", fetchedAt: 5, bundleID: nil, appStoreID: nil).version?.text, "2.1")
        XCTAssertNil(try StoreAnswers.lookup(Array("{\"resultCount\":0,\"results\":[]}".utf8), storefront: "us", fetchedAt: 5, bundleID: nil, appStoreID: nil).version)
        XCTAssertThrowsError(try StoreAnswers.lookup(Array("{\"results\":[{\"version\":\"1\"},{\"version\":\"2\"}]}".utf8), storefront: "us", fetchedAt: 5, bundleID: nil, appStoreID: nil))
        XCTAssertThrowsError(try StoreAnswers.lookup(Array("{\"results\":[{\"version\":\"1\",\"price\":01.5}]}".utf8), storefront: "us", fetchedAt: 5, bundleID: nil, appStoreID: nil))
        // relctl's own files stay integer-only.
        XCTAssertThrowsError(try JSONReader.parse(Array("{\"a\":0.5}".utf8)))
    }
}
