import Foundation
import XCTest
@testable import RelctlCLI
@testable import RelctlCore
@testable import RelctlModel
@testable import RelctlPublish
@testable import RelctlStore
@testable import RelctlClient
@testable import SQLite

/// Issue 51: a staged recommend, decided by one frozen bucketing function.
final class RolloutTests: XCTestCase {
    /// The bucket as a stranger computes it from the spec with OpenSSL's SHA-256, not relctl's.
    static func independentBucket(salt: String, id: String) -> Int {
        let hex = Array(RelctlPublish.SHA256.hex(Array((salt + "." + id).utf8)).prefix(8))
        return Int(UInt32(String(hex), radix: 16)! % 10_000)
    }

    func testTheDigestIsSHA256AtEveryLengthAroundABlock() {
        var g = SystemRandomNumberGenerator()
        for length in Array(0...200) + [447, 448, 511, 512, 1000] {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &g) }
            let ours = SHA256Digest.hash(bytes).map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
            XCTAssertEqual(ours, RelctlPublish.SHA256.hex(bytes), "length \(length)")
        }
        XCTAssertEqual(SHA256Digest.hash([]).prefix(4), [0xe3, 0xb0, 0xc4, 0x42], "SHA-256 of nothing")
    }

    func testBucketsAgreeWithAnIndependentReadingOfTheSpec() {
        for n in 0..<500 {
            let salt = n % 2 == 0 ? "0123456789abcdef" : Rollout.newSalt()
            let id = n % 3 == 0 ? UUID().uuidString : "install-\(n)-ü"
            XCTAssertEqual(Rollout.bucket(salt: salt, installID: id), Self.independentBucket(salt: salt, id: id), "\(salt) \(id)")
        }
    }

    func testTheScheduleStepsHaltsAndNeverDropsAnInstall() throws {
        let floor = Floor(version: try Version("2.1"), build: nil)
        var r = try Rollout(floor: floor, salt: "saltsalt", steps: [100, 500, 2000, 10_000], every: 86_400, start: 1_000_000)
        XCTAssertEqual(r.basisPoints(at: 999_999), 0, "before the first step nobody is in")
        XCTAssertEqual(r.basisPoints(at: 1_000_000), 100)
        XCTAssertEqual(r.basisPoints(at: 1_086_399), 100)
        XCTAssertEqual(r.basisPoints(at: 1_086_400), 500)
        XCTAssertEqual(r.basisPoints(at: 1_259_200), 10_000)
        XCTAssertEqual(r.basisPoints(at: Time.latest), 10_000)
        XCTAssertEqual(r.completesAt, 1_259_200)
        let ids = (0..<2000).map { "id-\($0)" }
        var inBefore = Set<String>()
        for t in stride(from: Int64(1_000_000), through: 1_300_000, by: 3600) {
            let inNow = Set(ids.filter { r.includes($0, at: t) })
            XCTAssertTrue(inBefore.isSubset(of: inNow), "raising the share never removes an install (at \(t))")
            inBefore = inNow
        }
        XCTAssertEqual(inBefore.count, ids.count)
        r.haltedAt = 1_090_000
        XCTAssertEqual(r.basisPoints(at: 2_000_000), 500, "a halt freezes the share")
        XCTAssertNil(r.completesAt)
        XCTAssertEqual(r.widenings(after: 1_000_000).map(\.basisPoints), [500], "only the steps before the halt still come")
    }

    func testStepsAreReadAsPercentages() throws {
        XCTAssertEqual(try Rollout.parseSteps("1,5,20,100"), [100, 500, 2000, 10_000])
        XCTAssertEqual(try Rollout.parseSteps("0.5, 12.25,100"), [50, 1225, 10_000])
        for bad in ["0", "101", "1.234", "", "abc", "1,,5", "-1", "1e2"] {
            XCTAssertThrowsError(try Rollout.parseSteps(bad), bad)
        }
        let floor = Floor(version: try Version("2.1"), build: nil)
        XCTAssertThrowsError(try Rollout(floor: floor, salt: "saltsalt", steps: [500, 200], every: 86_400, start: 0), "steps must rise")
        XCTAssertThrowsError(try Rollout(floor: floor, salt: "saltsalt", steps: [100], every: 10, start: 0), "a step lasts a minute at least")
        XCTAssertThrowsError(try Rollout(floor: floor, salt: "short", steps: [100], every: 86_400, start: 0), "a salt of 8 characters at least")
        XCTAssertThrowsError(try Rollout(floor: floor, salt: "saltsalt", steps: [100, 10_000], every: 86_400, start: Time.latest), "the schedule past 9999")
    }

    /// A staged recommend from the command line to every file: check answers
    /// each install as its bucket says, at every step, the halt freezes it, a
    /// second rollout reshuffles, undo takes a step back.
    func testARolloutFromRecommendToCheckAndBack() throws {
        let h = Harness()
        h.sample()
        h.ok("version add 2.1.0 --platform ios --build 210 --released 2026-11-20T00:00:00Z")
        h.ok("rules set --outdated none --yes")
        let staged = h.ok("recommend 2.1.0 --platform ios --rollout 1,10,50,100 --every 1d --yes")
        XCTAssertTrue(staged.err.contains("installs below 2.1.0 should update: 1 % now, 10 % from"), staged.err)
        let shown = try XCTUnwrap(h.ok("rollout show --platform ios --json").json as? [String: Any])
        let rollout = try XCTUnwrap(((shown["platforms"] as? [[String: Any]])?.first?["rollout"]) as? [String: Any])
        let salt = try XCTUnwrap(rollout["salt"] as? String)
        XCTAssertEqual(rollout["basisPoints"] as? Int, 100)
        XCTAssertEqual((rollout["schedule"] as? [[String: Any]])?.count, 4)
        let ids = (0..<200).map { "7F1C2A90-\($0)" }
        for (day, bp) in [(0, 100), (1, 1000), (2, 5000), (3, 10_000)] {
            let at = Time.format(h.now + Int64(day) * 86_400 + 60)
            var inside = 0
            for id in ids {
                let doc = try XCTUnwrap(h.ok("check 1.0 --platform ios --install-id \(id) --at \(at) --json").json as? [String: Any])
                let bucket = Self.independentBucket(salt: salt, id: id)
                let r = try XCTUnwrap(doc["rollout"] as? [String: Any])
                XCTAssertEqual(r["bucket"] as? Int, bucket, id)
                XCTAssertEqual(r["basisPoints"] as? Int, bp)
                XCTAssertEqual(doc["verdict"] as? String, bucket < bp ? "optional" : "none", "\(id) at \(at), bucket \(bucket)")
                if bucket < bp { inside += 1 }
            }
            if bp == 10_000 { XCTAssertEqual(inside, ids.count) }
        }
        // Without an id, check answers for installs outside and says what those inside see.
        let outside = h.ok("check 1.0 --platform ios")
        XCTAssertTrue(outside.out.contains("installs in it see optional"), outside.out)
        // Halted: the share stays where it was, days later.
        h.ok("rollout halt --platform ios --yes")
        let halted = try XCTUnwrap(h.ok("check 1.0 --platform ios --install-id x --at 2026-12-20T00:00:00Z --json").json as? [String: Any])
        XCTAssertEqual((halted["rollout"] as? [String: Any])?["basisPoints"] as? Int, 100)
        XCTAssertTrue(h.ok("rollout halt --platform ios --yes").err.contains("halted already"), "a halt asked twice is unchanged")
        // undo takes the halt back: the schedule runs again.
        h.ok("undo --yes")
        let resumed = try XCTUnwrap(h.ok("check 1.0 --platform ios --install-id x --at 2026-12-20T00:00:00Z --json").json as? [String: Any])
        XCTAssertEqual((resumed["rollout"] as? [String: Any])?["basisPoints"] as? Int, 10_000)
        // A second rollout of the same version has a new salt: other installs go first.
        h.ok("recommend --clear --platform ios --yes")
        h.ok("recommend 2.1.0 --platform ios --rollout 10 --yes")
        let again = try XCTUnwrap(((h.ok("rollout show --platform ios --json").json as? [String: Any])?["platforms"] as? [[String: Any]])?.first?["rollout"] as? [String: Any])
        let salt2 = try XCTUnwrap(again["salt"] as? String)
        XCTAssertNotEqual(salt, salt2)
        let first = Set(ids.filter { Self.independentBucket(salt: salt, id: $0) < 1000 })
        let second = Set(ids.filter { Self.independentBucket(salt: salt2, id: $0) < 1000 })
        XCTAssertNotEqual(first, second, "a new rollout reshuffles who is first")
        // Finished: the staged version is every install's recommend floor.
        h.ok("rollout finish --platform ios --yes")
        let policy = h.ok("policy list --json").out
        XCTAssertTrue(policy.contains("\"recommend\":{\"build\":null,\"deadline\":null,\"version\":\"2.1.0\"}") || policy.contains("2.1.0"), policy)
        XCTAssertEqual((h.ok("check 1.0 --platform ios --json").json as? [String: Any])?["verdict"] as? String, "optional")
        XCTAssertTrue(h.ok("log").out.contains("rollout finish"))
    }

    /// The preview shows the rollout over time; status and the page show its progress and its halt.
    func testPreviewStatusAndPageShowTheRolloutOverTime() throws {
        let h = Harness()
        h.sample()
        h.ok("version add 2.1.0 --platform ios --build 210 --released 2026-11-20T00:00:00Z")
        h.ok("rules set --outdated none --yes")
        let dry = h.ok("recommend 2.1.0 --platform ios --rollout 1,10,100 --dry-run")
        XCTAssertTrue(dry.err.contains("ios in the rollout (1 % of installs): 1.0 (100), 1.1 (110), 2.0 (200): none → optional"), dry.err)
        XCTAssertTrue(dry.err.contains("when the rollout of ios 2.1.0 widens to 10 % of installs:\n    ios in the rollout (10 % of installs)"), dry.err)
        XCTAssertTrue(dry.err.contains("when the rollout of ios 2.1.0 reaches every install:\n    ios: 1.0 (100), 1.1 (110), 2.0 (200): none → optional"), dry.err)
        h.ok("recommend 2.1.0 --platform ios --rollout 1,10,100 --yes")
        let status = h.ok("status").out
        XCTAssertTrue(status.contains("rollout: 2.1.0 to 1 % of installs; 10 % from"), status)
        h.ok("status --html \(h.dir)/page.html")
        let page = String(decoding: try Data(contentsOf: URL(fileURLWithPath: h.dir + "/page.html")), as: UTF8.self)
        XCTAssertTrue(page.contains("<dt>Rollout</dt><dd>2.1.0 to <strong>1 %</strong> of installs; 10 % from"), page)
        h.ok("rollout halt --platform ios --yes")
        h.ok("status --html \(h.dir)/page.html")
        let halted = String(decoding: try Data(contentsOf: URL(fileURLWithPath: h.dir + "/page.html")), as: UTF8.self)
        XCTAssertTrue(halted.contains("halted</span> since"), halted)
        XCTAssertFalse(halted.contains("10 % from"), "a halted rollout widens no more")
        XCTAssertTrue(h.ok("status").out.contains("halted since"))
    }

    /// Asked again, a rollout is unchanged; a new schedule keeps who is in; another
    /// version is not staged over one still staging; cancel sends its installs back.
    func testRestagingKeepsWhoIsInAndCancelSendsThemBack() throws {
        let h = Harness()
        h.sample()
        h.ok("version add 2.1.0 --platform ios --build 210 --released 2026-11-28T00:00:00Z")
        h.ok("version add 2.2.0 --platform ios --build 220 --released 2026-11-29T00:00:00Z")
        h.ok("recommend 2.0 --platform ios --yes")
        h.ok("recommend 2.1.0 --platform ios --rollout 10,50,100 --yes")
        func rollout() throws -> [String: Any] {
            try XCTUnwrap(((h.ok("rollout show --platform ios --json").json as? [String: Any])?["platforms"] as? [[String: Any]])?.first?["rollout"] as? [String: Any])
        }
        let salt = try rollout()["salt"] as? String
        let entries = (h.ok("log --json").json as? [String: Any])?["entries"] as? [Any]
        let again = h.ok("recommend 2.1.0 --platform ios --rollout 10,50,100 --yes")
        XCTAssertTrue(again.err.contains("unchanged"), again.err)
        XCTAssertEqual(((h.ok("log --json").json as? [String: Any])?["entries"] as? [Any])?.count, entries?.count, "nothing logged")
        h.now += 86_400 + 60
        h.fails("recommend 2.1.0 --platform ios --rollout 10,100 --yes", "would drop some of them")
        h.ok("recommend 2.1.0 --platform ios --rollout 50,75,100 --yes")
        XCTAssertEqual(try rollout()["salt"] as? String, salt, "a new schedule keeps who is in")
        h.fails("recommend 2.2.0 --platform ios --rollout 1,100 --yes", "would send them back")
        let cancel = h.ok("rollout cancel --yes")
        XCTAssertTrue(cancel.err.contains("every install has the recommend floor 2.0 again"), cancel.err)
        XCTAssertEqual((((h.ok("rollout show --platform ios --json").json as? [String: Any])?["platforms"] as? [[String: Any]])?.first?["rollout"]) as? NSNull, NSNull())
        h.fails("rollout halt --yes", "no platform of shop has a staged recommend")
        // Once complete, a new version is staged on top: the old one becomes every install's floor.
        h.ok("recommend 2.1.0 --platform ios --rollout 50,100 --every 1h --yes")
        h.now += 3600
        h.ok("recommend 2.2.0 --platform ios --rollout 1,100 --yes")
        let platforms = (h.ok("policy list --platform ios --json").json as? [String: Any])?["platforms"] as? [[String: Any]]
        XCTAssertEqual((platforms?.first?["recommend"] as? [String: Any])?["version"] as? String, "2.1.0", "the finished rollout is the floor of all")
        XCTAssertEqual((platforms?.first?["rollout"] as? [String: Any])?["version"] as? String, "2.2.0")
    }

    /// Outside a rollout, only installs below the staged version lose the outdated
    /// rules' offer of it, and only of what was not announced before it started.
    func testOutsideInstallsKeepWhatWasOfferedBefore() throws {
        let h = Harness()
        h.sample()
        h.ok("version add 2.1.0 --platform ios --build 210 --released 2026-11-01T00:00:00Z")
        // 2.1.0 is announced to every older install already: staging it warns and takes nothing back.
        XCTAssertEqual((h.ok("check 2.0 --platform ios --json").json as? [String: Any])?["verdict"] as? String, "optional")
        let staged = h.ok("recommend 2.1.0 --platform ios --rollout 5,100 --every 7d --yes")
        XCTAssertTrue(staged.err.contains("already offered to every older install"), staged.err)
        XCTAssertEqual((h.ok("check 2.0 --platform ios --install-id out --json").json as? [String: Any])?["verdict"] as? String, "optional")
        // A fix released while 2.1.0 stages: offered to installs at 2.1.0, held back from those below it outside the rollout.
        h.ok("version add 2.1.1 --platform ios --build 211 --released 2026-11-29T12:00:00Z")
        h.now += 2 * 86_400
        h.ok("rollout halt --yes")
        let at211 = try XCTUnwrap(h.ok("check 2.1.0 --platform ios --json").json as? [String: Any])
        XCTAssertEqual(at211["verdict"] as? String, "optional", "installs at the staged version are offered the fix")
        let outsideBelow = try XCTUnwrap(h.ok("check 2.0 --platform ios --json").json as? [String: Any])
        XCTAssertEqual(outsideBelow["verdict"] as? String, "optional")
        XCTAssertEqual((outsideBelow["target"] as? [String: Any])?["version"] as? String, "2.1.0", "offered what was announced before, not the fix")
    }

    /// A halt and a resume days later, or a new schedule, keep the staged version
    /// withheld from installs outside: when it was first staged is kept.
    func testResumingKeepsTheStagedVersionWithheld() throws {
        let h = Harness()
        h.sample()
        h.ok("version add 2.1.0 --platform ios --build 210 --released 2026-11-29T08:00:00Z")
        h.ok("version add 2.1.0 --platform android --build 210 --released 2026-11-20T00:00:00Z")
        h.ok("recommend 2.1.0 --platform ios --rollout 1,5,100 --every 7d --yes")
        h.ok("recommend 2.1.0 --platform android --rollout 50,100 --every 1h --yes")
        // An install far outside: a bucket of 9,000 or more under the rollout's salt.
        func outside() throws -> String? {
            let shown = try XCTUnwrap(((h.ok("rollout show --platform ios --json").json as? [String: Any])?["platforms"] as? [[String: Any]])?.first?["rollout"] as? [String: Any])
            let salt = try XCTUnwrap(shown["salt"] as? String)
            let id = (0...).lazy.map { "far-\($0)" }.first { Self.independentBucket(salt: salt, id: $0) >= 9000 }!
            return (try XCTUnwrap(h.ok("check 2.0 --platform ios --install-id \(id) --json").json as? [String: Any]))["verdict"] as? String
        }
        XCTAssertEqual(try outside(), "none")
        h.now += 7200
        // Android's rollout is complete: a bare halt passes over it and halts iOS's.
        let halt = h.ok("rollout halt --yes")
        XCTAssertTrue(halt.err.contains("android: the rollout of 2.1.0 has nothing to halt (every install is in)"), halt.err)
        h.now += 2 * 86_400
        h.ok("rollout resume --yes")
        XCTAssertEqual(try outside(), "none", "still withheld after the resume")
        h.ok("recommend 2.1.0 --platform ios --rollout 5,50,100 --yes")
        XCTAssertEqual(try outside(), "none", "still withheld after a new schedule")
    }

    func testARolloutIsRefusedWhereItCannotBe() {
        let h = Harness()
        h.sample()
        h.fails("force 2.0 --platform ios --rollout 1,100 --yes", status: 2, "a force is never staged")
        h.fails("maintenance start --for 1h --rollout 5 --yes", status: 2, "a maintenance window is never staged")
        h.fails("maintenance schedule --from 2026-12-01T02:00:00Z --for 1h --rollout 5 --yes", status: 2, "never staged")
        h.fails("recommend 2.0 --platform ios --rollout 0 --yes", status: 2, "not a percentage")
        h.fails("recommend 2.0 --platform ios --rollout 5,2 --yes", status: 2, "must rise")
        h.fails("recommend 2.0 --platform ios --rollout 5 --every 10s --yes", status: 2, "1 minute to 366 days")
        h.fails("recommend 2.0 --platform ios --every 1d --yes", status: 2, "add --rollout")
        h.fails("recommend --clear --platform ios --rollout 5 --yes", status: 2, "--clear")
        h.fails("rollout halt --platform ios --yes", "no staged recommend")
        h.fails("rollout finish --platform ios --yes", "no staged recommend")
        h.ok("recommend 2.0 --platform ios --yes")
        h.fails("recommend 2.0 --platform ios --rollout 5 --yes", "must be above it")
        h.fails("rollout resume --platform ios --yes", "no staged recommend")
        h.fails("check 1.0 --platform ios --install-id \"a b\"", status: 2, "not an install id")
        h.fails("recommend 2.0 --platform ios --rollout 100 --yes", status: 2, "starts at 100 %")
        h.fails("recommend 2.0 --platform ios --rollout 1% --yes", status: 2, "without '%'")
        h.fails("recommend 2.0 --platform ios --rollout 0.015 --yes", status: 2, "at most two decimals")
    }

    func testAHandEditedRolloutIsNamedNotTrusted() throws {
        let h = Harness()
        h.sample()
        h.ok("recommend 2.0 --platform ios --rollout 5,100 --yes")
        for (sql, words) in [("UPDATE platform SET rollout_steps = 'abc' WHERE name = 'ios'", "rollout_steps"),
                             ("UPDATE platform SET rollout_steps = '500,100' WHERE name = 'ios'", "must rise"),
                             ("UPDATE platform SET rollout_salt = NULL WHERE name = 'ios'", "no rollout_salt"),
                             ("UPDATE platform SET rollout_every = 0 WHERE name = 'ios'", "1 minute to 366 days"),
                             ("UPDATE platform SET rollout_start = 999999999999999 WHERE name = 'ios'", "past the year 9999"),
                             ("UPDATE platform SET rollout_unstaged = 'some' WHERE name = 'ios'", "withhold or everyone")] {
            let copy = h.dir + "/edited.db"
            try? FileManager.default.removeItem(atPath: copy)
            try FileManager.default.copyItem(atPath: h.db, toPath: copy)
            try Connection(path: copy, readOnly: false, create: false).execute(sql)
            let r = h.run(["check", "1.0", "--platform", "ios"], database: copy)
            XCTAssertEqual(r.status, 1, sql)
            XCTAssertTrue(r.err.contains("platform ios") && r.err.contains(words), "\(sql): \(r.err)")
        }
        let copy = h.dir + "/orphan.db"
        try FileManager.default.copyItem(atPath: h.db, toPath: copy)
        try Connection(path: copy, readOnly: false, create: false).execute("UPDATE platform SET rollout_salt = 'abcdefgh' WHERE name = 'android'")
        XCTAssertTrue(h.run(["status"], database: copy).err.contains("but no rollout_version"))
    }

    /// Published: control.json carries the rollout and both sides' answers,
    /// the formats that cannot stage withhold it (and say so) until it is
    /// complete, and verify proves every client's reading.
    func testPublishedFilesWithholdOrOfferAndVerifyHolds() throws {
        let h = Harness()
        h.sample()
        h.ok("version add 2.1.0 --platform ios --build 210 --released 2026-11-20T00:00:00Z")
        h.ok("rules set --outdated none --yes")
        h.ok("recommend 2.1.0 --platform ios --rollout 5,100 --every 2d --yes")
        let out = h.dir + "/out"
        let published = h.ok("publish \(out)")
        XCTAssertTrue(published.err.contains("the staged recommend 2.1.0") && published.err.contains("withheld until it reaches every install"), published.err)
        let control = try JSONReader.parseForeign(Array(try Data(contentsOf: URL(fileURLWithPath: out + "/shop/control.json"))))
        XCTAssertEqual(try SchemaValidator(path: Package.root + "/schema/control.schema.json").validate(control), [])
        let ios = control["platforms"]?["ios"]
        XCTAssertEqual(ios?["rollout"]?["hash"]?.string, "sha256")
        XCTAssertEqual(ios?["recommend"], .null, "a reader that knows nothing of rollouts withholds it")
        guard case .array(let versions)? = ios?["versions"] else { return XCTFail("no versions") }
        let one = versions.first { $0["version"]?.string == "1.0" }
        XCTAssertEqual(one?["update"]?.string, "none")
        XCTAssertEqual(one?["rollout"]?["update"]?.string, "optional")
        let retired = String(decoding: try Data(contentsOf: URL(fileURLWithPath: out + "/shop/ios/retired/en.json")), as: UTF8.self)
        XCTAssertTrue(retired.contains("{\"policy\":\"none\",\"version\":\"1.0\"}"), "Retired withholds the staged recommend: \(retired)")
        let verified = h.ok("verify \(out)")
        XCTAssertTrue(verified.err.contains(" 0 disagreements"), verified.err)
        // At the last step every install is in: every file asks below 2.1.0.
        h.now += 2 * 86_400
        h.ok("publish \(out)")
        let complete = String(decoding: try Data(contentsOf: URL(fileURLWithPath: out + "/shop/ios/retired/en.json")), as: UTF8.self)
        XCTAssertFalse(complete.contains("{\"policy\":\"none\",\"version\":\"1.0\"}"), complete)
        XCTAssertTrue(h.ok("verify \(out)").err.contains(" 0 disagreements"))
        // Offered to everyone at once, the appcast phases it the Sparkle way.
        h.now -= 2 * 86_400
        h.ok("recommend --clear --platform ios --yes")
        h.ok("recommend 2.1.0 --platform ios --rollout 5,100 --every 2d --unstaged everyone --yes")
        let everyone = h.ok("publish \(out)")
        XCTAssertTrue(everyone.err.contains("asked at once"), everyone.err)
        let everyoneRetired = String(decoding: try Data(contentsOf: URL(fileURLWithPath: out + "/shop/ios/retired/en.json")), as: UTF8.self)
        XCTAssertFalse(everyoneRetired.contains("{\"policy\":\"none\",\"version\":\"1.0\"}"), everyoneRetired)
        let appcast = String(decoding: try Data(contentsOf: URL(fileURLWithPath: out + "/shop/ios/appcast.xml")), as: UTF8.self)
        XCTAssertTrue(appcast.contains("<sparkle:phasedRolloutInterval>172800</sparkle:phasedRolloutInterval>"), appcast)
        XCTAssertTrue(h.ok("verify \(out)").err.contains(" 0 disagreements"))
    }

    /// The app keeps one install id across launches and decides by it.
    func testTheClientKeepsItsInstallIDAndDecidesByIt() throws {
        let h = Harness()
        h.sample()
        h.ok("version add 2.1.0 --platform ios --build 210 --released 2026-11-20T00:00:00Z")
        h.ok("rules set --outdated none --yes")
        h.ok("recommend 2.1.0 --platform ios --rollout 50 --yes")
        h.ok("publish \(h.dir)/out")
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: h.dir + "/out/shop/control.json")))
        let storage = URL(fileURLWithPath: h.dir + "/app")
        let device = ReleaseControl.Device(platform: "ios", version: "1.0", build: 100, languages: ["en"])
        let first = try ReleaseControl(device: device, storage: storage, clock: { [now = h.now] in now })
        let second = try ReleaseControl(device: device, storage: storage, clock: { [now = h.now] in now })
        XCTAssertNotNil(first.installID)
        XCTAssertEqual(first.installID, second.installID, "made once, kept")
        XCTAssertNil(try ReleaseControl(device: device, clock: { 0 }).installID, "an id that cannot be kept would move the install in and out")
        try Data("hand-made-id\n".utf8).write(to: storage.appendingPathComponent("install-id"))
        XCTAssertEqual(try ReleaseControl(device: device, storage: storage, clock: { 0 }).installID, "hand-made-id")
        XCTAssertEqual(try ReleaseControl(device: device, installID: "mine-1", clock: { 0 }).installID, "mine-1")
        XCTAssertThrowsError(try ReleaseControl(device: device, installID: "has space"))
        let salt = try XCTUnwrap(ControlImport.read(bytes, texts: false).bare.platforms.first { $0.name == "ios" }?.rollout?.salt)
        for n in 0..<40 {
            let id = "app-\(n)"
            let control = try ReleaseControl(device: device, installID: id, clock: { [now = h.now] in now })
            let state = try control.load(bytes)
            XCTAssertEqual(state.kind, Self.independentBucket(salt: salt, id: id) < 5000 ? .optional : ReleaseState.Kind.none, id)
        }
    }

    /// control.json read back into another database keeps the rollout, salt and all.
    func testImportOfControlKeepsTheRollout() throws {
        let h = Harness()
        h.sample()
        h.ok("recommend 2.0 --platform ios --rollout 5,100 --yes")
        h.ok("publish \(h.dir)/out")
        let other = h.dir + "/other.db"
        XCTAssertEqual(h.run(["init"], database: other).status, 0)
        let imported = h.run(["import", "control", h.dir + "/out/shop/control.json", "--yes"], database: other)
        XCTAssertEqual(imported.status, 0, imported.err)
        let ours = h.ok("rollout show --platform ios --json").out
        let theirs = h.run(["rollout", "show", "-p", "shop", "--platform", "ios", "--json"], database: other).out
        XCTAssertEqual(ours, theirs, "the same rollout, the same salt")
    }

    func testConfigCarriesTheRolloutAndPlanSeesNoDrift() throws {
        let h = Harness()
        h.sample()
        h.ok("recommend 2.0 --platform ios --rollout 5,100 --yes")
        h.ok("rollout halt --platform ios --yes")
        h.ok("export -o \(h.dir)/shop.json")
        let file = String(decoding: try Data(contentsOf: URL(fileURLWithPath: h.dir + "/shop.json")), as: UTF8.self)
        XCTAssertTrue(file.contains("\"rollout\"") && file.contains("\"haltedAt\""), file)
        XCTAssertEqual(try SchemaValidator(path: Package.root + "/schema/config.schema.json").validate(try JSONReader.parse(Array(file.utf8))), [])
        XCTAssertEqual(h.run(["plan", h.dir + "/shop.json"]).status, 0, "the database is as the file says")
        // Into an empty database: the same rollout, the same salt.
        let other = h.dir + "/other.db"
        XCTAssertEqual(h.run(["init"], database: other).status, 0)
        XCTAssertEqual(h.run(["apply", h.dir + "/shop.json", "--yes"], database: other).status, 0)
        let shown = h.run(["rollout", "show", "-p", "shop", "--platform", "ios", "--json"], database: other).out
        let salt = (((try JSONSerialization.jsonObject(with: Data(h.ok("rollout show --platform ios --json").out.utf8)) as? [String: Any])?["platforms"] as? [[String: Any]])?.first?["rollout"] as? [String: Any])?["salt"] as? String
        XCTAssertNotNil(salt)
        XCTAssertTrue(shown.contains(salt ?? "-") && shown.contains("halted"), shown)
    }
}
