import XCTest
@testable import RelctlPublish

final class ParallelRenderTests: XCTestCase {
    /// Projects are read ahead of the one taken while the cores work, up to
    /// the window; results that together would hold more than `readAhead`
    /// (a publish's files, while a slow disk holds this thread up) fewer at
    /// a time, never fewer than keep the cores busy.
    func testHeavyResultsAreReadAheadFewerAtATime() throws {
        let snapshot = PrinceOfVersionsTests.snapshot(minOS: [nil, nil, nil], force: nil)
        // A window wider than the fewest read ahead, whatever the cores.
        let window = ParallelRender.cores + 8, fewest = ParallelRender.cores + 2
        // How many were read and not yet taken, at each read.
        func ahead(weight: ((Int) -> Int)?) throws -> [Int] {
            var read = 0, taken = 0, seen: [Int] = []
            try ParallelRender.pipeline(count: 60, window: window, weight: weight, read: { _ in
                read += 1
                seen.append(read - taken)
                return (snapshot, nil)
            }, work: { _ in usleep(3000); return 1 }, take: { i, _, result in
                XCTAssertEqual(i, taken, "taken in order")
                XCTAssertEqual(result, 1)
                taken += 1
            })
            XCTAssertEqual(taken, 60)
            return seen
        }
        let light = try ahead(weight: { _ in 1 })
        let heavy = try ahead(weight: { _ in ParallelRender.readAhead })
        XCTAssertEqual(light.max(), window, "\(light)")
        // Working is slower than reading: the reads keep as far ahead as they may.
        XCTAssertEqual(heavy.suffix(40).max(), fewest, "\(heavy)")
        XCTAssertGreaterThan(light.suffix(40).max()!, fewest, "\(light)")
    }
}
