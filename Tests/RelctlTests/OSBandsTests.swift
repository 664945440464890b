import Foundation
import XCTest
@testable import RelctlCLI
@testable import RelctlCore
@testable import RelctlModel
@testable import RelctlPublish
@testable import RelctlStore

/// No lockouts: a device is never required to install a version its OS
/// cannot run; the floors that would lock some OS out are refused or
/// warned of; the files that know the device's OS tell each band what
/// `check --os` says, and the rest declare that they cannot.
final class OSBandsTests: XCTestCase {
    /// iOS 15 or newer for 1.0 and 1.5, iOS 17 for 2.0 (and Android by API level).
    func lockable() -> Harness {
        let h = Harness()
        h.ok("init")
        h.ok("project add shop --name Shop")
        h.ok("platform add ios --bundle-id com.example.shop --app-store-id 1088280260 --min-os 15.0")
        h.ok("platform add android --bundle-id com.example.shop --min-os 24")
        h.ok("version add 1.0 --platform ios --build 100 --released 2026-01-01T00:00:00Z")
        h.ok("version add 1.5 --platform ios --build 150 --released 2026-06-01T00:00:00Z")
        h.ok("version add 2.0 --platform ios --build 200 --released 2026-11-01T00:00:00Z --min-os 17.0")
        h.ok("version add 1.0 --platform android --build 100 --released 2026-01-01T00:00:00Z")
        h.ok("version add 1.5 --platform android --build 150 --released 2026-06-01T00:00:00Z")
        h.ok("version add 2.0 --platform android --build 200 --released 2026-11-01T00:00:00Z --min-os 26")
        return h
    }

    /// `lockable()` with the iOS floor at 2.0, which needs iOS 17: users on
    /// iOS 15 and 16 are locked out. The harness comes back too: the
    /// database lives as long as it does.
    func lockedOut() throws -> (Harness, Store, ProjectRecord, PlatformRecord) {
        let h = lockable()
        h.ok("force 2.0 --platform ios --allow-lockout --yes")
        let store = try Store(path: h.db, mode: .write, user: "tester")
        let project = try XCTUnwrap(store.project(slug: "shop"))
        return (h, store, project, try XCTUnwrap(store.platforms(project: project.id).first { $0.name == "ios" }))
    }

    func testBandsAreNamedAsPeopleSayThem() throws {
        func bands(_ minima: [String?], _ platform: String = "ios") -> [String] {
            let p = PlatformRecord(id: 1, projectID: 1, name: platform, bundleID: nil, appStoreID: nil, storeURL: nil, minOS: nil, force: nil, recommend: nil)
            let versions = minima.enumerated().map { i, m in
                VersionRecord(id: Int64(i + 1), platformID: 1, version: try! Version("\(i + 1).0"), build: nil, releasedAt: 0, minOS: m, policy: nil, notes: [:])
            }
            return OSBands.of(p, versions).map { $0.label(platform) }
        }
        XCTAssertEqual(bands([nil, nil]), ["every iOS"])
        XCTAssertEqual(bands(["15.0", "17.0"]), ["iOS 17.0 or newer", "iOS 15.0 to 16.x", "iOS below 15.0"])
        XCTAssertEqual(bands(["15.0", "16.0", "16.4"]), ["iOS 16.4 or newer", "iOS 16.0 to below 16.4", "iOS 15.x", "iOS below 15.0"])
        XCTAssertEqual(bands(["15", "15.0.0"]), ["iOS 15 or newer", "iOS below 15"], "15 and 15.0.0 are one minimum")
        XCTAssertEqual(bands(["24", "26", "30"], "android"), ["Android API 30 or newer", "Android API 26 to 29", "Android API 24 to 25", "Android API below 24"])
        XCTAssertEqual(bands(["24", "25"], "android"), ["Android API 25 or newer", "Android API 24", "Android API below 24"])
        XCTAssertEqual(OSBands.below("24", android: true), "23")
        XCTAssertEqual(OSBands.below("15.0", android: false), "14.999999")
        XCTAssertEqual(OSBands.below("17", android: false), "16.999999", "iOS 16.5 is below 17")
        XCTAssertNil(OSBands.below("0", android: false))
        XCTAssertEqual(bands(["15", "17"]), ["iOS 17 or newer", "iOS 15 to 16.x", "iOS below 15"])
    }

    func testCheckTakesTheDeviceOS() throws {
        let h = lockable()
        h.ok("force 1.5 --platform ios --yes")
        // Reachable on iOS 15 and 16: required there as on the newest.
        XCTAssertTrue(h.ok("check 1.0 --platform ios --os 15.4").out.contains("verdict:       required"))
        var j = try XCTUnwrap(h.ok("check 1.0 --platform ios --os 15.4 --json").json as? [String: Any])
        XCTAssertEqual(j["os"] as? String, "15.4")
        XCTAssertEqual((j["target"] as? [String: Any])?["version"] as? String, "1.5", "sent to the newest it can install")
        // 1.5 on iOS 16 can install nothing newer: a distinct verdict, not an update.
        j = try XCTUnwrap(h.ok("check 1.5 --platform ios --os 16.7 --json").json as? [String: Any])
        XCTAssertEqual(j["verdict"] as? String, "none")
        XCTAssertEqual(j["decidedBy"] as? String, "os-too-old")
        XCTAssertTrue((j["why"] as? String ?? "").contains("2.0 needs iOS 17.0"), "\(j)")
        // The same on the newest OS is an outdated version offered 2.0.
        XCTAssertEqual((h.ok("check 1.5 --platform ios --os 17.1 --json").json as? [String: Any])?["verdict"] as? String, "optional")
        // Without --os: the answer for the newest OS, then the bands that differ.
        let text = h.ok("check 1.5 --platform ios").out
        XCTAssertTrue(text.contains("on older OS:   iOS 15.0 to 16.x: none [os-too-old] (--os 15.0)"), text)
        j = try XCTUnwrap(h.ok("check 1.5 --platform ios --json").json as? [String: Any])
        let other = try XCTUnwrap(j["otherOs"] as? [[String: Any]])
        XCTAssertEqual(other.map { $0["label"] as? String }, ["iOS 15.0 to 16.x"])
        XCTAssertEqual(other.first?["verdict"] as? String, "none")
        // 2.0 cannot run below iOS 17: no band to list.
        XCTAssertTrue(((h.ok("check 2.0 --platform ios --json").json as? [String: Any])?["otherOs"] as? [Any])?.isEmpty ?? false)
        h.fails("check 1.0 --platform ios --os fifteen", status: 2, "invalid OS version 'fifteen'")
    }

    func testAFloorSomeOSCannotReachIsRefusedWithTheOneEveryOSReaches() throws {
        let h = lockable()
        let r = h.fails("force 2.0 --platform ios --yes", "users on iOS 15.0 to 16.x (newest they can install: 1.5) cannot install 2.0 or newer (it needs iOS 17.0): apps that cannot tell the OS (Retired, AndVersion) would block them with nothing to install (the force floor 2.0)")
        XCTAssertTrue(r.err.contains("'relctl force 1.5 --platform ios") && r.err.contains("--allow-lockout"), r.err)
        h.fails("recommend 2.0 --platform android --yes", "users on Android API 24 to 25 (newest they can install: 1.5) cannot install 2.0 or newer (it needs Android API 26)")
        // Every platform at once: refused for the first that locks out, nothing written.
        h.fails("force 2.0 --platform all --yes", "cannot install 2.0 or newer")
        // Asked for: set, with the lockout in the preview and the answer per band honest.
        let set = h.ok("force 2.0 --platform ios --allow-lockout --yes")
        XCTAssertTrue(set.err.contains("lockout: ios: users on iOS 15.0 to 16.x cannot install 2.0 or newer"), set.err)
        XCTAssertTrue(set.err.contains("ios on iOS 15.0 to 16.x: 1.0 (100): stays optional"), "the preview says what older OS see where it differs: \(set.err)")
        let j = try XCTUnwrap(h.ok("check 1.0 --platform ios --os 16.0 --json").json as? [String: Any])
        XCTAssertEqual(j["verdict"] as? String, "optional", "never required to a version it cannot install")
        XCTAssertEqual(j["decidedBy"] as? String, "os-too-old")
        // Quiet and confirmed: the preview is not shown, the lockout still is.
        h.ok("force --clear --platform ios --yes")
        let quiet = h.ok("force 2.0 --platform ios --allow-lockout --yes -q")
        XCTAssertTrue(quiet.err.hasPrefix("warning: ios: users on iOS 15.0 to 16.x cannot install 2.0"), quiet.err)
        // status says so, and shows the bands.
        let status = h.ok("status").out
        XCTAssertTrue(status.contains("OS bands: iOS 17.0 or newer gets up to 2.0 (200); iOS 15.0 to 16.x gets up to 1.5 (150)"), status)
        XCTAssertTrue(status.contains("LOCKOUT: ios: users on iOS 15.0 to 16.x"), status)
        XCTAssertTrue(status.contains("iOS 15.0 to 16.x: optional → 1.5"), status)
        let doc = try XCTUnwrap(h.ok("status --json").json as? [String: Any])
        let ios = try XCTUnwrap((doc["platforms"] as? [[String: Any]])?.first { $0["platform"] as? String == "ios" })
        XCTAssertEqual((ios["osBands"] as? [[String: Any]])?.map { $0["newestReleased"] as? String }, ["2.0", "1.5"])
        XCTAssertEqual((ios["lockouts"] as? [String])?.count, 1)
        // And the status page, per version.
        let page = h.ok("status --html -").out
        XCTAssertTrue(page.contains("<dt>OS bands</dt><dd>iOS 17.0 or newer: up to 2.0 (200); iOS 15.0 to 16.x: up to 1.5 (150)</dd>"), page)
        XCTAssertTrue(page.contains("<dt>Lockout</dt><dd class=\"lockout\">ios: users on iOS 15.0 to 16.x cannot install 2.0"), page)
        XCTAssertTrue(page.contains(#"<span class="mut os">on iOS 15.0 to 16.x: </span><span class="v v-optional">optional</span> <span class="mut">→ 1.5</span>"#), page)
        // What users read: those on the older OS are offered 1.5, not told 2.0 is required.
        let read = page.components(separatedBy: "<section class=\"platform\" data-platform=\"ios\">")[1].components(separatedBy: "<h3>What the published")[0]
        XCTAssertTrue(read.contains("1.0 (100) on iOS 15.0 to 16.x:</span> <bdi>Update available — A new version of Shop is available. Version 1.5 is ready to install."), read)
        XCTAssertFalse(read.contains("1.5 (150) on iOS"), "a version that reads the same on an older OS is not listed again: \(read)")
    }

    /// A minimum of one number on iOS ("17") is 17.0: iOS 16.5 is below it,
    /// and the appcast's older items reach 16.5 (not a maximum of "16").
    func testAnIOSMinimumOfOneNumber() throws {
        let h = lockable()
        h.ok("version edit 2.0 --platform ios --min-os 17")
        h.ok("force 1.5 --platform ios --yes")
        let out = h.dir + "/out"
        h.ok("publish \(out)")
        let feed = try UpgraderClient(Array(try Data(contentsOf: URL(fileURLWithPath: out + "/shop/ios/appcast.xml"))), platform: "ios")
        let pov = try PrinceOfVersionsClient(Array(try Data(contentsOf: URL(fileURLWithPath: out + "/shop/prince-of-versions.json"))), platform: "ios")
        for (os, version, expected) in [("16.5", "1.0", "required"), ("16.5", "1.5", "none"), ("17", "1.5", "optional"), ("15.0", "1.0", "required")] {
            let checked = (h.ok("check \(version) --platform ios --os \(os) --json").json as? [String: Any])?["verdict"] as? String
            XCTAssertEqual(checked, expected, "check \(version) on iOS \(os)")
            XCTAssertEqual(feed.decide(version, os: os).word, expected, "upgrader \(version) on iOS \(os)")
            XCTAssertEqual(pov.decide(version, build: version == "1.0" ? 100 : 150, os: os).word, expected, "Prince of Versions \(version) on iOS \(os)")
        }
        XCTAssertTrue(h.ok("status").out.contains("iOS 15.0 to 16.x gets up to 1.5"))
    }

    func testDeadlinesUnreleasedFloorsAndMinimumsThatDoNotRise() throws {
        let h = lockable()
        // Before a deadline an unreachable floor does not promise "required from": it never will be.
        h.ok("force 2.0 --platform ios --after 7d --allow-lockout --yes")
        var j = try XCTUnwrap(h.ok("check 1.0 --platform ios --os 16.0 --json").json as? [String: Any])
        XCTAssertEqual(j["decidedBy"] as? String, "os-too-old")
        XCTAssertTrue(j["deadline"] is NSNull, "\(j)")
        XCTAssertEqual((h.ok("check 1.0 --platform ios --os 17.0 --json").json as? [String: Any])?["decidedBy"] as? String, "force-deadline")
        // A floor no release reaches yet sends the newest OS to 2.0, which iOS 15 and 16 cannot install.
        h.ok("force --clear --platform ios --yes")
        h.fails("force 3.0 --platform ios --allow-unreleased --yes", "users on iOS 15.0 to 16.x (newest they can install: 1.5) cannot install 2.0 or newer")
        h.ok("force 3.0 --platform ios --allow-unreleased --allow-lockout --yes")
        h.ok("force --clear --platform ios --yes")
        // 2.1 needs only iOS 15 but is in its release delay; 2.0, announced, needs 17: iOS 15 is never sent to 2.0.
        h.ok("version add 2.1 --platform ios --build 210 --released \(Time.format(h.now - 7200)) --min-os 15.0")
        j = try XCTUnwrap(h.ok("check 1.5 --platform ios --os 15.4 --json").json as? [String: Any])
        XCTAssertNotEqual((j["target"] as? [String: Any])?["version"] as? String, "2.0", "\(j)")
        XCTAssertEqual(j["decidedBy"] as? String, "release-delay")
    }

    func testAForcePinOnAVersionWhoseOSCanGoNoFurtherIsRefused() throws {
        let h = lockable()
        // 1.5 runs on iOS 15 and 16, where nothing newer installs.
        h.fails("policy set 1.5 force --platform ios --yes",
                "users on iOS 15.0 to 16.x (newest they can install: 1.5) cannot install 2.0 or newer (it needs iOS 17.0): apps that cannot tell the OS (Retired, AndVersion) would block them with nothing to install (the force pin of 1.5)")
        // 1.0 can go to 1.5 on every OS it runs on.
        h.ok("policy set 1.0 force --platform ios --yes")
        h.ok("policy set 1.5 recommend --platform ios --allow-lockout --yes")
        let old = try XCTUnwrap(h.ok("check 1.5 --platform ios --os 16.0 --json").json as? [String: Any])
        XCTAssertEqual(old["verdict"] as? String, "none")
        XCTAssertEqual(old["decidedBy"] as? String, "os-too-old")
        XCTAssertEqual((h.ok("check 1.5 --platform ios --os 17.0 --json").json as? [String: Any])?["verdict"] as? String, "optional")
        XCTAssertTrue(h.ok("status").out.contains("LOCKOUT: ios: users on iOS 15.0 to 16.x cannot install 2.0 or newer (it needs iOS 17.0; the newest they can install is 1.5): apps that cannot tell the OS (Retired, AndVersion) would ask them for an update they cannot install (the recommend pin of 1.5)"))
    }

    func testEveryOtherCommandThatCreatesALockoutWarns() throws {
        // Each makes the floor 1.5 unreachable below iOS 17, one way or another.
        let cases: [(String, String)] = [
            ("platform edit ios --min-os 17.0", "the platform's minimum rises over 1.5"),
            ("version edit 1.5 --platform ios --min-os 17.0", "1.5 now needs iOS 17"),
            ("version rm 1.5 --platform ios --yes", "the release that reached the floor on iOS 15 is gone"),
            ("version edit 1.5 --platform ios --unreleased --yes", "1.5 is withdrawn"),
        ]
        for (line, why) in cases {
            let h = lockable()
            h.ok("force 1.5 --platform ios --yes")
            // 1.0 keeps iOS 15 as its own minimum, so devices there still run it.
            if line.hasPrefix("platform edit") { h.ok("version edit 1.0 --platform ios --min-os 15.0") }
            let r = h.ok(line)
            // A warning, or a line of the preview for a change that shows one.
            XCTAssertTrue(r.err.contains("warning: ios: users on iOS 15.0 to 16.x cannot install") || r.err.contains("  lockout: ios: users on iOS 15.0 to 16.x cannot install"),
                          "\(line) (\(why)): \(r.err)")
            XCTAssertEqual((h.ok("check 1.0 --platform ios --os 15.0 --json").json as? [String: Any])?["decidedBy"] as? String, "os-too-old", line)
        }
        // A version for an older OS than any release at the floor: its users are locked out.
        let older = lockable()
        older.ok("force 1.5 --platform ios --yes")
        let added = older.ok("version add 0.5 --platform ios --build 50 --released 2025-01-01T00:00:00Z --min-os 12.0")
        XCTAssertTrue(added.err.contains("warning: ios: users on iOS 12.0 to 14.x cannot install 1.5 or newer"), added.err)
        // A change that creates none says nothing of it.
        let h = lockable()
        h.ok("force 1.5 --platform ios --yes")
        XCTAssertFalse(h.ok("version edit 2.0 --platform ios --min-os 18.0").err.contains("cannot install"))
    }

    /// A write's lockout check works lockouts out only on a platform where
    /// a version names a minimum OS of its own, now or before the change:
    /// with none, every version needs the platform's minimum (or none), and
    /// nobody is locked out. What it returns stays exact: as working the
    /// lockouts out from every version finds them, and as they were before
    /// a change that took the last such minimum away or moved the
    /// platform's own. (That the work is skipped shows in callgrind only.)
    func testTheLockoutCheckIsExactWhereNoVersionNamesAMinimum() throws {
        let (h, store, project, ios) = try lockedOut()
        defer { withExtendedLifetime(h) {} }
        let now: Int64 = 1_796_000_000
        func full() throws -> [Lockout] {
            Lockouts.of(try XCTUnwrap(store.platform(id: ios.id)), try store.versions(platform: ios.id, withNotes: false), at: now)
        }
        let locked = try full()
        XCTAssertFalse(locked.isEmpty, "2.0 needs iOS 17: users on iOS 15 and 16 are locked out by the floor")
        // A version added beside 2.0: the lockout is there before and after.
        var session = try store.session()
        _ = try session.addVersion(try Version("2.1"), build: 210, releasedAt: now - 10, minOS: nil, notes: nil, on: [ios], of: project, now: now)
        var (before, after) = try session.lockoutsTouched(at: now)
        XCTAssertEqual(after, try full())
        XCTAssertEqual(before, locked)
        session.drop()
        // 2.0 removed: no version names a minimum of its own now; before the change 2.0 did,
        // and what it locked out is still known from its row as it was.
        session = try store.session()
        try session.removeVersion("2.0", on: [ios], of: project, now: now)
        XCTAssertFalse(try store.versions(platform: ios.id, withNotes: false).contains { $0.minOS != nil })
        (before, after) = try session.lockoutsTouched(at: now)
        XCTAssertEqual(after, [])
        XCTAssertEqual(after, try full(), "one minimum, one band: nothing to lock out")
        XCTAssertEqual(before, locked)
        try session.commit()
        // Then the platform's own minimum raised, no version naming one on either side.
        let was = try full()
        session = try store.session()
        try session.editPlatform(ios, of: project, bundleID: nil, appStoreID: nil, minOS: "16.0", storeURL: nil, now: now)
        (before, after) = try session.lockoutsTouched(at: now)
        XCTAssertEqual(before, was)
        XCTAssertEqual(after, try full())
        session.drop()
    }

    /// `version add` reads its platform's versions whole, and where none names
    /// a minimum OS the lockout check takes that read rather than reading them
    /// again: unless a row of the session named one since, here a version
    /// edited in the same session to need iOS 17 while the floor sends
    /// everyone to it.
    func testTheLockoutCheckReadsAgainWhenTheSessionNamedAMinimumSinceItsRead() throws {
        let h = Harness()
        h.ok("init")
        h.ok("project add shop --name Shop")
        h.ok("platform add ios --bundle-id com.example.shop --app-store-id 1088280260 --min-os 15.0")
        h.ok("version add 1.0 --platform ios --build 100 --released 2026-01-01T00:00:00Z")
        h.ok("version add 2.0 --platform ios --build 200 --released 2026-11-01T00:00:00Z")
        h.ok("force 2.0 --platform ios --yes")
        let store = try Store(path: h.db, mode: .write, user: "tester")
        let project = try XCTUnwrap(store.project(slug: "shop"))
        let ios = try XCTUnwrap(store.platforms(project: project.id).first { $0.name == "ios" })
        let now: Int64 = 1_796_000_000
        let session = try store.session()
        defer { session.drop() }
        _ = try session.addVersion(try Version("1.5"), build: 150, releasedAt: now - 10, minOS: nil, notes: nil, on: [ios], of: project, now: now)
        XCTAssertEqual(session.versionsWithoutMinOS, [ios.id], "the add's read is the one the check takes")
        XCTAssertEqual(try session.lockoutsTouched(at: now).after, [], "no version names a minimum: one band, nobody locked out")
        try session.editVersion("2.0", build: nil, minOS: "17.0", release: .keep, on: ios, of: project, now: now)
        let after = try session.lockoutsTouched(at: now).after
        XCTAssertFalse(after.isEmpty, "the floor 2.0 needs iOS 17 now: users on iOS 15 and 16 are locked out")
        XCTAssertEqual(after, Lockouts.of(try XCTUnwrap(store.platform(id: ios.id)), try store.versions(platform: ios.id, withNotes: false), at: now))
    }

    /// The same read, after a change of the session took away the last
    /// version that named a minimum: what that version locked out before is
    /// known from its row as it was, so the check does not take the read.
    func testTheLockoutCheckKeepsWhatARemovedMinimumLockedOutBeforeTheRead() throws {
        let (h, store, project, ios) = try lockedOut()
        defer { withExtendedLifetime(h) {} }
        let now: Int64 = 1_796_000_000
        let locked = Lockouts.of(try XCTUnwrap(store.platform(id: ios.id)), try store.versions(platform: ios.id, withNotes: false), at: now)
        XCTAssertFalse(locked.isEmpty, "2.0 needs iOS 17: users on iOS 15 and 16 are locked out by the floor")
        let session = try store.session()
        defer { session.drop() }
        try session.removeVersion("2.0", on: [ios], of: project, now: now)
        _ = try session.addVersion(try Version("2.1"), build: 210, releasedAt: now - 10, minOS: nil, notes: nil, on: [ios], of: project, now: now)
        XCTAssertEqual(session.versionsWithoutMinOS, [ios.id])
        let (before, after) = try session.lockoutsTouched(at: now)
        XCTAssertEqual(before, locked)
        XCTAssertEqual(after, [])
    }

    /// The real clients' logic, at device OS versions on both sides of every
    /// recorded minimum, against what `check --os` says: Prince of Versions
    /// (iOS and Android), upgrader's appcast and control.json agree; Retired,
    /// AndVersion and Siren declare what they cannot tell.
    func testTheFilesTellEachBandWhatCheckSays() throws {
        let h = lockable()
        h.ok("force 2.0 --platform all --allow-lockout --yes")
        h.ok("version add 0.9 --platform ios --build 90 --released 2025-06-01T00:00:00Z --min-os 13.0")
        let out = h.dir + "/out"
        let published = h.ok("publish \(out)")
        XCTAssertTrue(published.err.contains("what devices on iOS 15.0 to 16.x are sent to — Retired, AndVersion iOS: knows nothing of the device's OS"), published.err)
        let store = try Store(path: h.db, mode: .read, user: "tester")
        let snapshot = try store.read { try store.snapshot(try store.project(slug: "shop")!) }
        func file(_ path: String) throws -> [UInt8] { Array(try Data(contentsOf: URL(fileURLWithPath: out + "/" + path))) }
        let pov = try file("shop/prince-of-versions.json")
        let control = try ControlClient(try file("shop/control.json"))
        var compared = 0
        for p in snapshot.platforms {
            let pClient = try PrinceOfVersionsClient(pov, platform: p.name)
            let feed = try UpgraderClient(try file("shop/\(p.name)/appcast.xml"), platform: p.name)
            // Both sides of every minimum, and inside the bands.
            let oses = OSBands.probes(p, snapshot.versions(of: p)).compactMap { $0 } + (p.isAndroid ? ["30"] : ["18.1", "16.5", "14.2"])
            XCTAssertEqual(oses.count, p.isAndroid ? 5 : 9, "\(p.name): \(oses)")
            for os in oses {
                for v in snapshot.versions(of: p) where OSBands.installable(v, on: os, p) {
                    // What `check --os` prints, through the command line.
                    let checked = try XCTUnwrap(h.ok("check \(v.version.text) --platform \(p.name) --build \(v.build!) --os \(os) --json").json as? [String: Any])
                    let expected = checked["verdict"] as! String
                    // The floor 2.0 is beyond every band but the newest: required nowhere else.
                    if expected == "required" { XCTAssertFalse(OSVersion.isBelow(os, p.isAndroid ? "26" : "17.0"), "\(p.name) \(v.version.text) on \(os)") }
                    let pDecision = p.isAndroid ? pClient.decide(versionCode: v.build!, sdk: Int64(os)!) : pClient.decide(v.version.text, build: v.build, os: os)
                    XCTAssertEqual(pDecision.word, expected, "Prince of Versions, \(p.name) \(v.version.text) on \(os)")
                    XCTAssertEqual(feed.decide(v.version.text, os: os).word, expected, "upgrader, \(p.name) \(v.version.text) on \(os)")
                    XCTAssertEqual(control.decide(platform: p.name, version: v.version.text, build: v.build, os: os).word, expected, "control.json, \(p.name) \(v.version.text) on \(os)")
                    compared += 1
                }
            }
        }
        XCTAssertGreaterThan(compared, 15)
        // verify asks the same of every client, recorded versions or not.
        let verified = h.ok("verify \(out)")
        XCTAssertTrue((verified.out + verified.err).contains(" 0 disagreements"), verified.out + verified.err)
    }
}
