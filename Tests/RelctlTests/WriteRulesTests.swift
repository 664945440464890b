import XCTest
@testable import RelctlCLI
@testable import RelctlCore
@testable import RelctlModel
@testable import RelctlStore

/// The rules a change must keep, tried as pure functions, without a
/// database; the command-line tests try them through the store.
final class WriteRulesTests: XCTestCase {
    let now: Int64 = 1_790_000_000
    let ios = PlatformRecord(id: 1, projectID: 1, name: "ios", bundleID: nil, appStoreID: nil, storeURL: nil, minOS: nil, force: nil, recommend: nil)
    let android = PlatformRecord(id: 2, projectID: 1, name: "android", bundleID: nil, appStoreID: nil, storeURL: nil, minOS: nil, force: nil, recommend: nil)

    func v(_ text: String, build: Int64? = nil, released: Bool = true, id: Int64 = 0) -> VersionRecord {
        VersionRecord(id: id, platformID: 1, version: try! Version(text), build: build, releasedAt: released ? now - 86400 : nil, minOS: nil, policy: nil, notes: [:])
    }

    func testAFloorMustBeReachedByARelease() throws {
        let versions = [v("1.0"), v("2.0", released: false)]
        let floor = Floor(version: try Version("2.0"), build: nil)
        XCTAssertNil(WriteRules.floorReached(Floor(version: try Version("1.0"), build: nil), kind: .force, on: ios, versions: versions, now: now))
        let refused = try XCTUnwrap(WriteRules.floorReached(floor, kind: .force, on: ios, versions: versions, now: now))
        XCTAssertTrue(refused.message.contains("no released version of ios is at or above 2.0"), refused.message)
        XCTAssertEqual(refused.fix, .either(.run(["version", "release", "2.0", "--platform", "ios"], "release one first with"), .flag("--allow-unreleased")))
        XCTAssertEqual(refused.fix.spelled, "release one first with 'relctl version release 2.0 --platform ios', or add --allow-unreleased")
        XCTAssertNil(WriteRules.floorReached(floor, kind: .force, on: ios, versions: versions, now: now, allowUnreleased: true))
        // A recommend floor cannot be set ahead; a version not recorded is recorded first.
        let recommend = try XCTUnwrap(WriteRules.floorReached(Floor(version: try Version("3.0"), build: nil), kind: .recommend, on: android, versions: versions, now: now, allowUnreleased: true))
        XCTAssertEqual(recommend.fix, .run(["version", "add", "3.0", "--platform", "android", "--build", "N"], "release one first with"))
    }

    func testAndroidBuildsGrowWithVersions() throws {
        let existing = [v("1.0", build: 10, id: 1), v("2.0", build: 20, id: 2)]
        XCTAssertNil(WriteRules.androidBuildOrder(try Version("1.5"), build: 15, on: android, among: existing))
        XCTAssertNil(WriteRules.androidBuildOrder(try Version("1.5"), build: 5, on: ios, among: existing), "iOS builds are not compared across versions")
        let below = try XCTUnwrap(WriteRules.androidBuildOrder(try Version("1.5"), build: 9, on: android, among: existing))
        XCTAssertTrue(below.message.contains("would rank 1.5 below 1.0 (build 10)"), below.message)
        XCTAssertEqual(below.fix, .advice("give 1.5 a build above 10 and below 20"))
        XCTAssertNotNil(WriteRules.androidBuildOrder(try Version("1.5"), build: 25, on: android, among: existing))
        XCTAssertNil(WriteRules.androidBuildOrder(try Version("2.0"), build: 30, on: android, among: existing, except: 2), "the record itself does not count")
    }

    /// The one-pass check of a whole platform (apply) finds exactly the
    /// records the rule of a single write refuses, spellings of one version
    /// and records without a build included.
    func testTheWholePlatformCheckAgreesWithTheSingleRule() throws {
        var random = SystemRandomNumberGenerator()
        for _ in 0..<300 {
            let count = Int.random(in: 0...12, using: &random)
            let texts = ["1.0", "1.0.0", "1.1", "2.0", "2.0.0", "2.1", "3.0", "3.0.0.1", "4.0", "10.0", "1.2", "2.2"]
            let versions = (0..<count).map { i in
                v(texts.randomElement(using: &random)!, build: Bool.random(using: &random) && i > 0 ? nil : Int64.random(in: 1...20, using: &random), id: Int64(i + 1))
            }
            let checked = Set(versions.map(\.id).filter { _ in Bool.random(using: &random) })
            let single = versions.filter { checked.contains($0.id) }
                .compactMap { WriteRules.androidBuildOrder($0.version, build: $0.build, on: android, among: versions, except: $0.id)?.message }
            let batch = WriteRules.androidBuildOrder(of: checked, on: android, among: versions, limit: 100)
            XCTAssertEqual(batch.refusals.map(\.message), single, "\(versions.map { "\($0.id):\($0.version.text)/\($0.build.map(String.init) ?? "-")" }) checking \(checked.sorted())")
            XCTAssertEqual(batch.count, single.count)
            XCTAssertEqual(WriteRules.androidBuildOrder(of: checked, on: android, among: versions, limit: 1).refusals.count, min(1, single.count))
            XCTAssertEqual(WriteRules.androidBuildOrder(of: checked, on: ios, among: versions).count, 0, "iOS builds are not compared across versions")
        }
    }

    func testAPinThatSendsUsersOnNeedsANewerRelease() {
        let versions = [v("1.0"), v("2.0"), v("3.0", released: false)]
        XCTAssertNil(WriteRules.pinReachesARelease(versions[0], .force, on: ios, versions: versions, now: now))
        XCTAssertNotNil(WriteRules.pinReachesARelease(versions[1], .recommend, on: ios, versions: versions, now: now), "3.0 is not released")
        XCTAssertNil(WriteRules.pinReachesARelease(versions[1], VersionRecord.Pin.none, on: ios, versions: versions, now: now), "none sends nobody anywhere")
    }

    func testAWindowForEveryPlatformStoppedForOneGoesOnForTheOthers() {
        let everywhere = MaintenanceWindow(id: 1, projectID: 1, platformID: nil, platformName: nil, startsAt: now - 60, endsAt: now + 3600, copy: [:])
        let onIOS = MaintenanceWindow(id: 2, projectID: 1, platformID: 1, platformName: "ios", startsAt: now - 60, endsAt: nil, copy: [:])
        XCTAssertEqual(WriteRules.continuing(everywhere, stoppedFor: ios, platforms: [ios, android]).map(\.name), ["android"])
        XCTAssertEqual(WriteRules.continuing(everywhere, stoppedFor: nil, platforms: [ios, android]).map(\.name), [])
        XCTAssertEqual(WriteRules.continuing(onIOS, stoppedFor: ios, platforms: [ios, android]).map(\.name), [])
    }

    /// How the command line spells each kind of fix; a path with a space is quoted, so the hint pastes.
    func testFixesAreSpelledAsTheUserTypesThem() {
        XCTAssertEqual(Fix.run(["maintenance", "list"], "see").spelled, "see 'relctl maintenance list'")
        XCTAssertEqual(Fix.run(["init", "--db", "/tmp/my db.db"], "run", then: "to set it up").spelled, "run 'relctl init --db \"/tmp/my db.db\"' to set it up")
        XCTAssertEqual(Fix.flag("--replace", "to take the file's values").spelled, "add --replace to take the file's values")
        XCTAssertEqual(Fix.also(.run(["import", "retired", "f.json", "--dry-run"], "see them all with"), .flag("--replace")).spelled,
                       "see them all with 'relctl import retired f.json --dry-run'; add --replace")
        XCTAssertEqual(Fix.either(.advice("give a future time"), .run(["maintenance", "stop"], "stop the window with")).spelled,
                       "give a future time, or stop the window with 'relctl maintenance stop'")
        XCTAssertEqual(RelctlError.from(StoreError("m", fix: .run(["log"], "see"))).hint, "see 'relctl log'")
    }
}
