import Foundation
import XCTest
@testable import RelctlCore
@testable import RelctlModel

/// Prince of Versions: the client simulation on hand-made files (each fact
/// of docs/clients.md), and what relctl publishes for it.
final class PrinceOfVersionsTests: XCTestCase {
    func bytes(_ s: String) -> [UInt8] { Array(s.utf8) }

    func ignored(_ s: String, platform: String = "ios", _ line: UInt = #line) {
        do { _ = try PrinceOfVersionsClient(bytes(s), platform: platform); XCTFail("expected an error", line: line) } catch {
            guard case .ignored = error else { return XCTFail("expected ignored, got \(error)", line: line) }
        }
    }

    /// Versions in the common spelling are read from their bytes: exactly
    /// as splitting them reads them, and every other spelling is left to it.
    func testVersionsReadFromTheirBytesAsSplittingReadsThem() {
        var rng = SplitMix(seed: 2027)
        let pieces = ["0", "1", "2", "10", "007", ".", "-", "+1", "x", "", "999999999999999999", "9999999999999999999", "٣"]
        var plain = 0
        for _ in 0..<20_000 {
            let s = (0..<Int.random(in: 1...7, using: &rng)).map { _ in pieces.randomElement(using: &rng)! }.joined()
            guard let fast = PrinceOfVersionsClient.parsePlain(s) else { continue }
            plain += 1
            XCTAssertEqual(fast, PrinceOfVersionsClient.parseSplitting(s), s)
        }
        XCTAssertGreaterThan(plain, 500)
        for s in ["1", "2.1.0-150", "3.1.0.1", "10.20"] { XCTAssertNotNil(PrinceOfVersionsClient.parsePlain(s), s) }
        XCTAssertEqual(PrinceOfVersionsClient.parse("2.1-150"), .apple([2, 1, 0], build: 150))
        XCTAssertEqual(PrinceOfVersionsClient.parse("1.2.3.4"), .apple([1, 2, 3], build: 0))
        XCTAssertEqual(PrinceOfVersionsClient.parse("+1.2"), .apple([1, 2, 0], build: 0), "left to splitting, which reads a plus sign")
        for bad in ["", "1.", ".1", "1..2", "1-", "1-2-3", "a", "1.-2"] { XCTAssertNil(PrinceOfVersionsClient.parse(bad), bad) }
        // Minimum OS versions, compared the same way.
        var compared = 0
        for _ in 0..<20_000 {
            let a = (0..<Int.random(in: 1...5, using: &rng)).map { _ in pieces.randomElement(using: &rng)! }.joined()
            let b = (0..<Int.random(in: 1...5, using: &rng)).map { _ in pieces.randomElement(using: &rng)! }.joined()
            guard let fast = OSVersion.plainIsBelow(a, b) else { continue }
            compared += 1
            XCTAssertEqual(fast, OSVersion.splittingIsBelow(a, b), "\(a) < \(b)")
        }
        XCTAssertGreaterThan(compared, 500)
        XCTAssertEqual(OSVersion.plainIsBelow("15.4", "16"), true)
        XCTAssertEqual(OSVersion.plainIsBelow("16.0.0", "16"), false)
    }

    func testIOSVersionsBuildsAndFallback() throws {
        let c = try PrinceOfVersionsClient(bytes(#"{"ios":{"x":1},"ios2":[{"required_version":"2.1.0-150","last_version_available":"3","notify_last_version_frequency":"ONCE"}]}"#), platform: "ios")
        XCTAssertEqual(c.decide("2.1", build: 149), .required, "2.1 == 2.1.0, and build 149 is below 150")
        XCTAssertEqual(c.decide("2.1.0", build: 150), .optional)
        XCTAssertEqual(c.decide("2.0.9", build: 999), .required)
        XCTAssertEqual(c.decide("3.0.0", build: 1), .none, "missing components are 0: 3 == 3.0.0")
        XCTAssertEqual(c.decide("2.9.9.9", build: 1), .optional)
        // `ios` wins when it is an array.
        let first = try PrinceOfVersionsClient(bytes(#"{"ios":[{"last_version_available":"1.5"}],"ios2":[{"required_version":"9"}]}"#), platform: "ios")
        XCTAssertEqual(first.decide("1.0", build: 1), .optional)
    }

    func testFourthComponentIsDropped() throws {
        let c = try PrinceOfVersionsClient(bytes(#"{"ios2":[{"last_version_available":"3.1.0.1"}]}"#), platform: "ios")
        XCTAssertEqual(c.decide("3.1.0", build: nil), .none, "3.1.0.1 is read as 3.1.0")
        XCTAssertEqual(c.decide("3.0.9", build: nil), .optional)
    }

    func testAndroidIntegersOnly() throws {
        let c = try PrinceOfVersionsClient(bytes(#"{"android2":{"required_version":200,"last_version_available":250,"requirements":{"required_os_version":24}}}"#), platform: "android")
        XCTAssertEqual(c.decide(versionCode: 199), .required, "a single object is read as a list of one")
        XCTAssertEqual(c.decide(versionCode: 200), .optional)
        XCTAssertEqual(c.decide(versionCode: 250), .none)
        XCTAssertEqual(c.decide(versionCode: 100, sdk: 23), .ignored("no configuration's requirements pass"))
        ignored(#"{"android2":[{"required_version":"200"}]}"#, platform: "android")
        ignored(#"{"ios2":[{"last_version_available":"2.0"}]}"#, platform: "android")
    }

    func testRequirementsChooseTheConfiguration() throws {
        let file = #"{"ios2":[{"last_version_available":"3.0","requirements":{"required_os_version":"17.0"}},{"last_version_available":"2.5","required_version":"2.0","requirements":{"required_os_version":"15"}},{"last_version_available":"9.0","requirements":{"jailbroken":true}}]}"#
        let c = try PrinceOfVersionsClient(bytes(file), platform: "ios")
        XCTAssertEqual(c.decide("2.5", build: nil, os: "17.1"), .optional)
        XCTAssertEqual(c.decide("2.5", build: nil, os: "16.4"), .none, "iOS 16 falls through to the 2.5 band")
        XCTAssertEqual(c.decide("1.9", build: nil, os: "15.0"), .required)
        XCTAssertEqual(c.decide("1.9", build: nil, os: "14.0"), .ignored("no configuration's requirements pass"), "a custom key without a checker fails its configuration")
        let checked = try PrinceOfVersionsClient(bytes(file), platform: "ios", checkers: ["jailbroken"])
        XCTAssertEqual(checked.decide("1.9", build: nil, os: "14.0"), .optional)
    }

    func testBadShapesAreErrors() {
        ignored("{")
        ignored("[]")
        ignored(#"{"ios2":[]}"#)
        ignored(#"{"ios2":[{}]}"#, platform: "ios")
        ignored(#"{"ios2":[{"required_version":2}]}"#)
        ignored(#"{"ios2":[{"required_version":"v2"}]}"#)
        ignored(#"{"ios2":[{"required_version":"2","notify_last_version_frequency":"DAILY"}]}"#)
        ignored(#"{"ios2":["2.0"]}"#)
    }

    static func snapshot(minOS: [String?], force: Floor?, android: Bool = false) -> ProjectSnapshot {
        let now: Int64 = 1_790_000_000
        let project = ProjectRecord(id: 1, slug: "app", name: "App", defaultLocale: "en", locales: ["en"], rules: .standard,
                                    releaseDelayDays: 0, remindHours: 24, outdated: .recommend)
        let name = android ? "android" : "ios"
        let platform = PlatformRecord(id: 1, projectID: 1, name: name, bundleID: "com.example.app", appStoreID: "1", storeURL: nil,
                                      minOS: nil, force: force, recommend: nil)
        let versions = ["1.0", "2.0", "3.0"].enumerated().map { i, t in
            VersionRecord(id: Int64(i + 1), platformID: 1, version: try! Version(t), build: Int64(100 * (i + 1)),
                          releasedAt: now - Int64(10 - i) * 86400, minOS: minOS[i], policy: nil, notes: [:])
        }
        return ProjectSnapshot(project: project, platforms: [platform], versions: [1: versions], windows: [],
                               messages: MessageResolver(overrides: [:], defaultLocale: "en"))
    }

    func render(_ s: ProjectSnapshot) throws -> (JSON, [String: [UInt8]]) {
        var warnings: [String] = []
        let files = ProjectFiles.render(s, at: 1_790_000_000, warnings: &warnings)
        var byPath: [String: [UInt8]] = [:]
        for f in files { byPath[f.path] = f.bytes }
        return (try JSONReader.parse(byPath["app/prince-of-versions.json"] ?? []), byPath)
    }

    func testOneConfigurationPerOSBandNewestFirst() throws {
        let s = PrinceOfVersionsTests.snapshot(minOS: ["13.0", "15.0", "17.0"], force: Floor(version: try Version("2.0"), build: nil))
        let (j, files) = try render(s)
        let list = j["ios2"]?.array ?? []
        // Below iOS 13 nothing installs: the last configuration, without a requirement, offers nothing.
        XCTAssertEqual(list.map { $0["last_version_available"]?.string ?? "?" }, ["3.0-300", "2.0-200", "1.0-100", "0.0.0"])
        XCTAssertEqual(list.map { $0["requirements"]?["required_os_version"]?.string ?? "-" }, ["17.0", "15.0", "13.0", "-"])
        XCTAssertEqual(list.map { $0["required_version"]?.string ?? "-" }, ["2.0", "2.0", "-", "-"], "a device that cannot install 2.0 is not forced to")
        let c = try PrinceOfVersionsClient(files["app/prince-of-versions.json"]!, platform: "ios")
        XCTAssertEqual(c.decide("1.0", build: 100, os: "14.0"), .none, "iOS 14 can install nothing newer")
        XCTAssertEqual(c.decide("1.0", build: 100, os: "16.0"), .required)
        XCTAssertEqual(c.decide("1.0", build: 100, os: "12.4"), .none, "below every minimum: a configuration that offers nothing, not an error")
        XCTAssertTrue(Fidelity.check(s, at: 1_790_000_000) { files[$0] }.allSatisfy { !$0.isDisagreement })
    }

    func testAndroidCodesAndSDKLevels() throws {
        let s = PrinceOfVersionsTests.snapshot(minOS: [nil, "24", "26"], force: Floor(version: try Version("2.0"), build: nil), android: true)
        let (j, files) = try render(s)
        let list = j["android2"]?.array ?? []
        XCTAssertEqual(list.first?["last_version_available"], .int(300))
        XCTAssertEqual(list.first?["required_version"], .int(200))
        XCTAssertEqual(list.first?["requirements"]?["required_os_version"], .int(26))
        XCTAssertEqual(list.count, 3)
        XCTAssertNil(list.last?["requirements"], "the oldest band has no OS requirement")
        XCTAssertNil(j["ios2"])
        XCTAssertTrue(Fidelity.check(s, at: 1_790_000_000) { files[$0] }.allSatisfy { !$0.isDisagreement })
    }

    func testATamperedFileIsADisagreement() throws {
        let s = PrinceOfVersionsTests.snapshot(minOS: [nil, nil, nil], force: Floor(version: try Version("2.0"), build: nil))
        var (_, files) = try render(s)
        files["app/prince-of-versions.json"] = bytes(#"{"ios2":[{"last_version_available":"3.0"}]}"#)
        let bad = Fidelity.check(s, at: 1_790_000_000) { files[$0] }.filter { $0.isDisagreement && $0.client == .princeOfVersions }
        XCTAssertEqual(bad.filter { $0.install == nil }.map(\.version), ["1.0"], "1.0 is forced, the file only offers")
        // And the installs nobody recorded below the floor, each named; and the builds
        // nobody recorded of 1.0 (forced) and 3.0 (offered 3.0 build 300, which the file names as build 0).
        XCTAssertEqual(bad.filter { $0.install != nil }.map { "\($0.version!)\($0.build.map { " build \($0)" } ?? "")" },
                       ["0.999999", "1.0.1", "1.0 build 99", "1.0 build 101", "3.0 build 299", "1.999999"])
        XCTAssertEqual(bad.first { $0.version == "1.999999" }?.install, "just below the floor 2.0")
    }
}
