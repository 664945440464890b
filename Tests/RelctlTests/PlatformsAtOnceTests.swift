import XCTest
@testable import RelctlCLI
@testable import RelctlCore
@testable import RelctlModel
@testable import RelctlPublish

/// A project rendered alone (publish after a change to one project, `-p`)
/// has its platforms rendered, checked and written up at once, one per core
/// (ParallelRender.everyCore): what comes out must be what going through
/// them one after another gives, in every generated situation.
final class PlatformsAtOnceTests: XCTestCase {
    func testPlatformsAtOnceGiveWhatOneAfterAnotherGives() {
        let day = FidelityScenarioTests.day, now = FidelityScenarioTests.now
        var compared = 0, refused = 0
        for seed in 0..<30 {
            let snapshot = FidelityScenarioTests.scenario(UInt64(seed))
            XCTAssertEqual(snapshot.platforms.count, 2)
            for t in [now - 30 * day, now, now + 40 * day] {
                let a = rendered(snapshot, at: t, forEach: Parallel.serial)
                let b = rendered(snapshot, at: t, forEach: ParallelRender.everyCore)
                XCTAssertEqual(a.files.map(\.path), b.files.map(\.path), "seed \(seed) at \(t)")
                for (x, y) in zip(a.files, b.files) { XCTAssertEqual(x.bytes, y.bytes, "seed \(seed) at \(t): \(x.path)") }
                XCTAssertEqual(a.said, b.said, "seed \(seed) at \(t)")
                compared += 1
                if a.files.isEmpty { refused += 1 }
            }
        }
        XCTAssertEqual(compared, 90)
        XCTAssertLessThan(refused, 45, "most situations must publish, or the comparison is of two refusals")
    }

    /// The calls of everyCore all run, each once, and are all done when it returns.
    func testEveryCoreCallsEachIndexOnce() {
        for count in [0, 1, 2, 5, 33] {
            let calls = Parallel.map(count, ParallelRender.everyCore) { $0 * 2 }
            XCTAssertEqual(calls, (0..<count).map { $0 * 2 })
        }
    }

    func rendered(_ s: ProjectSnapshot, at t: Int64, forEach: @escaping ForEachIndex) -> (files: [PublishedFile], said: [String]) {
        var warnings: [String] = []
        let r = ProjectFiles.renderChecked(s, at: t, warnings: &warnings, page: StatusPageOptions(), forEach: forEach)
        return (r.files, warnings + r.findings.map { "\($0)" } + [r.summary.json.rendered()])
    }
}
