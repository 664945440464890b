import Foundation
import XCTest
@testable import RelctlCLI
@testable import RelctlCore
@testable import RelctlModel
@testable import RelctlPublish
@testable import RelctlStore

/// Hundreds of generated release situations, each rendered and read back by
/// every client simulation: no client may do anything `check` does not say,
/// except what a declared limit names. Seeded, so a failure reproduces.
final class FidelityScenarioTests: XCTestCase {
    static let now: Int64 = 1_790_000_000
    static let day: Int64 = 86400


    static let pool = ["1", "1.0", "1.0.0", "1.0.1", "1.1", "1.2.0", "1.9.4", "2", "2.0", "2.0.0", "2.0.1", "2.1", "2.1.0", "2.2", "3.0", "3.1.0.1"]
    static let locales = ["en", "tr", "de", "he", "id", "pt-BR", "pt-PT", "zh-Hans", "ar", "ja", "fr", "es"]

    static func scenario(_ seed: UInt64) -> ProjectSnapshot {
        var r = SplitMix(seed: seed)
        let now = FidelityScenarioTests.now, day = FidelityScenarioTests.day
        let presets = Rule.presets.map(\.1) + [Rule(alert: .none, frequency: .daily)]
        let rules = Rules(byType: (0..<4).map { _ in r.pick(presets) })
        let defaultLocale = r.pick(["en", "en", "tr", "de"])
        let project = ProjectRecord(id: 1, slug: "app", name: r.pick(["Shop", "Ödeme", "חנות"]), defaultLocale: defaultLocale,
                                    locales: Array(FidelityScenarioTests.locales.prefix(10 + r.below(3))), rules: rules,
                                    releaseDelayDays: Int64(r.below(3)), remindHours: 24, outdated: r.chance(25) ? ProjectRecord.Outdated.none : .recommend)
        var platforms: [PlatformRecord] = []
        var versions: [Int64: [VersionRecord]] = [:]
        var nextID: Int64 = 1
        for (pid, name) in [(Int64(1), "ios"), (Int64(2), "android")] {
            // Distinct texts, some equal but for trailing zeros; builds grow with the version on Android.
            var texts: [String] = []
            for _ in 0..<(3 + r.below(6)) {
                let t = r.pick(FidelityScenarioTests.pool)
                if !texts.contains(t) { texts.append(t) }
            }
            var list: [VersionRecord] = []
            for t in texts {
                let released: Int64? = r.chance(10) ? nil : r.chance(20) ? now - Int64(r.below(30)) * 3600 : now - Int64(1 + r.below(300)) * day
                let notes = Dictionary(uniqueKeysWithValues: FidelityScenarioTests.locales.filter { _ in r.chance(30) }.map { ($0, "Notes \(t) \($0)\nLine two") })
                list.append(VersionRecord(id: nextID, platformID: pid, version: try! Version(t), build: nil, releasedAt: released,
                                          minOS: nil, policy: r.chance(15) ? r.pick(VersionRecord.Pin.allCases) : nil, notes: notes))
                nextID += 1
            }
            list = Store.sorted(list)
            // A few Android versions without a versionCode, and iOS without an App Store id: no manifest, a limit.
            for i in list.indices where name == "android" ? !r.chance(5) : r.chance(50) { list[i].build = Int64(100 * (i + 1) + r.below(50)) }
            list = Store.sorted(list)
            // Versions that need a newer OS: mostly rising with the version, sometimes not,
            // on Android mostly API levels and now and then an OS version the library cannot take.
            if r.chance(50) {
                let ladder = name == "ios" ? ["13.0", "15.0", "16.4", "17.0", "18"] : r.chance(15) ? ["7.0", "8.1"] : ["21", "24", "26", "30"]
                var step = 0
                for i in list.indices where r.chance(60) {
                    step = min(ladder.count - 1, r.chance(15) ? r.below(ladder.count) : step + r.below(2))
                    list[i].minOS = ladder[step]
                }
            }
            func floor(_ chance: Int) -> Floor? {
                guard r.chance(chance), let v = list.filter({ $0.releasedAt.map { $0 <= now } ?? false }).randomElement(using: &r) else { return nil }
                return Floor(version: v.version, build: r.chance(30) ? v.build : nil)
            }
            // Some force floors have a deadline: still ahead (optional) or passed (required).
            func withDeadline(_ f: Floor?) -> Floor? {
                guard var f, r.chance(40) else { return f }
                f.deadline = now + (r.chance(50) ? -day : day)
                return f
            }
            platforms.append(PlatformRecord(id: pid, projectID: 1, name: name, bundleID: "com.example.app", appStoreID: name == "ios" && !r.chance(10) ? "1088280260" : nil,
                                            storeURL: nil, minOS: r.chance(80) ? "15.0" : nil, force: withDeadline(floor(50)), recommend: floor(40)))
            versions[pid] = list
        }
        var windows: [MaintenanceWindow] = []
        if r.chance(20) {
            let iosOnly = r.chance(50)
            windows.append(MaintenanceWindow(id: 7, projectID: 1, platformID: iosOnly ? 1 : nil, platformName: iosOnly ? "ios" : nil,
                                             startsAt: now + (r.chance(50) ? -3600 : 7200), endsAt: now + 4 * 3600, copy: [:]))
        }
        return ProjectSnapshot(project: project, platforms: platforms, versions: versions, windows: windows,
                               messages: MessageResolver(overrides: [:], defaultLocale: defaultLocale))
    }

    func testGeneratedScenariosHaveNoDisagreement() throws {
        // RELCTL_SCENARIOS=5000 for a longer search; the suite runs 300.
        let count = UInt64(ProcessInfo.processInfo.environment["RELCTL_SCENARIOS"] ?? "") ?? 300
        var decisions = 0, limits = 0, scenarios = 0
        for seed in UInt64(1)...count {
            let snapshot = FidelityScenarioTests.scenario(seed)
            var warnings: [String] = []
            let files = ProjectFiles.render(snapshot, at: FidelityScenarioTests.now, warnings: &warnings)
            var byPath: [String: [UInt8]] = [:]
            for f in files { byPath[f.path] = f.bytes }
            let result = Fidelity.run(snapshot, at: FidelityScenarioTests.now) { byPath[$0] }
            for f in result.findings where f.isDisagreement {
                XCTFail("seed \(seed): \(FindingsReport.disagreementLine(f))")
            }
            decisions += result.decisions
            limits += Finding.distinctLimits(result.findings).count
            scenarios += 1
        }
        XCTAssertEqual(scenarios, Int(count))
        XCTAssertGreaterThan(decisions, 50_000, "the scenarios exercise many client decisions")
        XCTAssertGreaterThan(limits, 100, "limits are declared, not absent")
        print("fidelity: \(scenarios) scenarios, \(decisions) client decisions, \(limits) declared limits, 0 disagreements")
    }
}

extension FidelityScenarioTests {
    /// A publish and verify keep each limit's first finding and every
    /// disagreement (`limitsOnce`): they say the same limits, in the same
    /// order with the same examples, the same disagreements and decisions,
    /// now and in the sweep, as the proof that keeps every finding: publish's
    /// reading of the files as published, and verify's (which also reads
    /// control.json as a project) of files changed after (disagreements).
    func testFirstFindingOfEachLimitSaysWhatEveryFindingSays() throws {
        let now = FidelityScenarioTests.now
        var every = 0, kept = 0, sweeps = 0, disagreements = 0, publishedEvery = 0, publishedKept = 0
        func said(_ findings: [Finding]) -> [String] {
            Finding.distinctLimits(findings).map { "\($0.project) \($0.limit)" } + findings.filter(\.isDisagreement).map { "\($0.from ?? 0) \($0)" }
        }
        func isSubsequence(_ some: [Finding], of all: [Finding]) -> Bool {
            var rest = all.map { "\($0)" }[...]
            return some.allSatisfy { f in
                guard let i = rest.firstIndex(of: "\(f)") else { return false }
                rest = rest[(i + 1)...]
                return true
            }
        }
        for seed in UInt64(1)...60 {
            let s = FidelityScenarioTests.scenario(seed)
            var warnings: [String] = []
            // Publish's reading of the files it wrote, from the states it wrote them from.
            let (rendered, states) = ProjectFiles.clientFiles(s, at: now, warnings: &warnings)
            var files = Dictionary(rendered.map { ($0.path, $0.bytes) }, uniquingKeysWith: { a, _ in a })
            let published = Fidelity.run(states: states) { files[$0] }, publishedOnce = Fidelity.run(states: states, limitsOnce: true) { files[$0] }
            XCTAssertEqual(said(publishedOnce.findings), said(published.findings), "seed \(seed)")
            XCTAssertEqual(publishedOnce.decisions, published.decisions, "seed \(seed)")
            XCTAssertTrue(isSubsequence(publishedOnce.findings, of: published.findings), "seed \(seed)")
            publishedEvery += published.findings.count
            publishedKept += publishedOnce.findings.count
            // Verify's, of files changed since: a forced version let go in one locale, a required update made none.
            for (path, bytes) in files where path.contains("/retired/") || path.hasSuffix("control.json") {
                let text = String(decoding: bytes, as: UTF8.self)
                let changed = path.hasSuffix("control.json") ? text.replacing("\"update\":\"required\"", with: "\"update\":\"none\"", maxReplacements: 1)
                                                              : text.replacing("\"policy\":\"force\"", with: "\"policy\":\"none\"", maxReplacements: 1)
                if changed != text && (path.hasSuffix("control.json") || path.hasSuffix("/en.json")) { files[path] = Array(changed.utf8) }
            }
            let all = Fidelity.run(s, at: now) { files[$0] }, once = Fidelity.run(s, at: now, limitsOnce: true) { files[$0] }
            let allComing = Fidelity.sweep(s, after: now), onceComing = Fidelity.sweep(s, after: now, limitsOnce: true)
            XCTAssertEqual(said(once.findings), said(all.findings), "seed \(seed)")
            XCTAssertEqual(once.decisions, all.decisions, "seed \(seed)")
            XCTAssertTrue(isSubsequence(once.findings, of: all.findings), "seed \(seed): only findings are left out, none changed or moved")
            // The sweep says each limit and disagreement once either way.
            XCTAssertEqual(onceComing.findings.map { "\($0)" }, allComing.findings.map { "\($0)" }, "seed \(seed)")
            XCTAssertEqual(onceComing.decisions, allComing.decisions, "seed \(seed)")
            XCTAssertEqual(said(Fidelity.merged(now: once.findings, coming: onceComing.findings)),
                           said(Fidelity.merged(now: all.findings, coming: allComing.findings)), "seed \(seed)")
            every += all.findings.count + published.findings.count
            kept += once.findings.count + publishedOnce.findings.count
            disagreements += once.findings.filter(\.isDisagreement).count
            if !allComing.findings.isEmpty { sweeps += 1 }
        }
        XCTAssertGreaterThan(sweeps, 10, "the sweep must find something in some scenarios")
        XCTAssertGreaterThan(disagreements, 60, "the changed files must disagree, or the disagreements kept prove nothing")
        XCTAssertLessThan(kept * 2, every, "most findings repeat a limit: keeping the first must leave most out")
        XCTAssertGreaterThan(publishedKept, 0, "publish's reading must find limits")
        XCTAssertLessThan(publishedKept * 2, publishedEvery, "and leave most of their findings out")
    }

    /// Probes made from what the records know, made once (`Probes.Known`): none repeats a
    /// record or another probe, none without a build names a recorded version, none on a
    /// platform ranked by build carries a recorded code; and a `Known` made for the other
    /// ranking is not used.
    func testProbesKeepClearOfTheRecordsTheyAreToldOf() throws {
        var probed = 0
        for seed in UInt64(1)...60 {
            let s = FidelityScenarioTests.scenario(seed)
            for platform in s.platforms {
                let versions = s.versions(of: platform)
                let marked = Set(versions.indices.filter { $0 % 3 == 0 })
                let lines = [platform.force?.release, platform.recommend?.release].compactMap { $0 }
                let records = Set(versions.map { "\($0.version.text) \($0.build ?? -1)" }), texts = Set(versions.map(\.version.text))
                let codes = Set(versions.compactMap(\.build))
                for ordered in [false, true] {
                    let probes = Probes.installs(versions, marked: marked, lines: lines, buildOrdered: ordered, known: Probes.Known(versions, buildOrdered: ordered))
                    let keys = probes.map { "\($0.release.version.text) \($0.release.build ?? -1)" }
                    XCTAssertEqual(Set(keys).count, keys.count, "seed \(seed)")
                    XCTAssertTrue(records.isDisjoint(with: keys), "seed \(seed)")
                    XCTAssertFalse(probes.contains { $0.release.build == nil && texts.contains($0.release.version.text) }, "seed \(seed)")
                    if ordered { XCTAssertFalse(probes.contains { $0.release.build.map(codes.contains) ?? false }, "seed \(seed)") }
                    let other = Probes.installs(versions, marked: marked, lines: lines, buildOrdered: ordered, known: Probes.Known(versions, buildOrdered: !ordered))
                    XCTAssertEqual(other.map { "\($0.release.version.text) \($0.release.build ?? -1) \($0.kind)" }, probes.map { "\($0.release.version.text) \($0.release.build ?? -1) \($0.kind)" })
                    probed += probes.count
                }
            }
        }
        XCTAssertGreaterThan(probed, 500)
        // Two builds of one version: the build below the newer one is the older record, not a probe.
        let twice = try [(5 as Int64, 1 as Int64), (6, 2)].map { VersionRecord(id: $0.1, platformID: 1, version: try Version("1.0"), build: $0.0, releasedAt: nil, minOS: nil, policy: nil, notes: [:]) }
        let probes = Probes.installs(twice, marked: [0, 1], lines: [], buildOrdered: false, known: Probes.Known(twice, buildOrdered: false))
        XCTAssertTrue(probes.contains { $0.release.build == 7 } && !probes.contains { $0.release.build == 5 || $0.release.build == 6 })
        // What other records of as many versions know is not used.
        let others = try [(8 as Int64, 3 as Int64), (9, 4)].map { VersionRecord(id: $0.1, platformID: 1, version: try Version("2.0"), build: $0.0, releasedAt: nil, minOS: nil, policy: nil, notes: [:]) }
        let misgiven = Probes.installs(twice, marked: [0, 1], lines: [], buildOrdered: false, known: Probes.Known(others, buildOrdered: false))
        XCTAssertEqual(misgiven.map { "\($0.release.version.text) \($0.release.build ?? -1) \($0.kind)" }, probes.map { "\($0.release.version.text) \($0.release.build ?? -1) \($0.kind)" })
    }

    /// A platform's records are shared by its checks only where they hold the
    /// check's own records: another platform's are made again.
    func testRecordsAreSharedOnlyWithTheStateTheyHold() throws {
        var shared = 0, remade = 0
        for seed in UInt64(1)...40 {
            let s = FidelityScenarioTests.scenario(seed)
            let states = s.platforms.map { PlatformState(Evaluator(s), $0, at: FidelityScenarioTests.now) }
            for state in states {
                for other in states {
                    let given = PlatformCheck.Records(other.versions, other.platform)
                    let check = PlatformCheck(state: state, file: { _ in nil }, control: nil, records: given)
                    let own = PlatformCheck.Records(state.versions, state.platform)
                    XCTAssertEqual(check.records.ids, own.ids, "seed \(seed)")
                    XCTAssertEqual(check.records.texts, own.texts)
                    XCTAssertEqual(check.records.byVersion, own.byVersion)
                    XCTAssertEqual(check.records.disorderedBuild, own.disorderedBuild)
                    // The probes, made from what the shared records know, are those made from its own.
                    let fresh = PlatformCheck(state: state, file: { _ in nil }, control: nil)
                    XCTAssertEqual(check.versions.map { "\($0.version.text) \($0.build ?? -1)" }, fresh.versions.map { "\($0.version.text) \($0.build ?? -1)" }, "seed \(seed)")
                    XCTAssertEqual(check.probeKinds, fresh.probeKinds, "seed \(seed)")
                    if other.platform.id == state.platform.id { shared += 1 } else if other.versions.map(\.id) != state.versions.map(\.id) { remade += 1 }
                }
            }
        }
        XCTAssertGreaterThan(shared, 40)
        XCTAssertGreaterThan(remade, 10, "some platforms must hold other records, or the fallback is never asked")
        // The same platform with a version fewer (another instant's snapshot, say) is not given the full list's.
        for seed in UInt64(1)...10 {
            var s = FidelityScenarioTests.scenario(seed)
            let platform = s.platforms[0]
            let full = PlatformCheck.Records(s.versions(of: platform), platform)
            guard var list = s.versions[platform.id], list.count > 1 else { continue }
            list.removeFirst()
            s.versions[platform.id] = list
            let state = PlatformState(Evaluator(s), platform, at: FidelityScenarioTests.now)
            let check = PlatformCheck(state: state, file: { _ in nil }, control: nil, records: full)
            XCTAssertEqual(check.records.ids, state.versions.map(\.id), "seed \(seed)")
            XCTAssertNotEqual(check.records.ids, full.ids)
        }
    }

    /// An unreadable siren.json is said once for each locale's lookup file,
    /// in the locales' order, as when each read it again.
    func testAnUnreadableSirenConfigIsSaidForEachLocale() throws {
        var asked = 0
        for seed in UInt64(1)...20 {
            let s = FidelityScenarioTests.scenario(seed)
            guard s.platforms.contains(where: { $0.name == "ios" }), s.project.formats.serves(Client.siren.format) else { continue }
            var warnings: [String] = []
            var files = Dictionary(ProjectFiles.render(s, at: FidelityScenarioTests.now, warnings: &warnings).map { ($0.path, $0.bytes) }, uniquingKeysWith: { a, _ in a })
            let config = FileKinds.siren.path(project: s.project.slug, platform: "ios")
            guard let bytes = files[config] else { continue }
            files[config] = Array(String(decoding: bytes, as: UTF8.self).replacing("\"alertType\":\"", with: "\"alertType\":\"loud", maxReplacements: 1).utf8)
            let said = Fidelity.check(s, at: FidelityScenarioTests.now) { files[$0] }.filter { $0.client == .siren && $0.file == config }
            XCTAssertEqual(said.map(\.locale), s.publishedLocales.map { Optional($0) }, "seed \(seed)")
            XCTAssertTrue(said.allSatisfy { $0.isDisagreement && $0.actual.hasPrefix("crash (majorUpdateRules.alertType") }, "seed \(seed): \(said.map(\.actual))")
            asked += 1
        }
        XCTAssertGreaterThan(asked, 3)
    }
}

extension Array {
    func randomElement(using r: inout SplitMix) -> Element? { isEmpty ? nil : self[r.below(count)] }
}
