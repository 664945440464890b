import Foundation
import XCTest
@testable import RelctlCLI
@testable import RelctlPublish

/// The files of new folders are written on threads of their own, each
/// folder's on one: every one is there, whole, once `finish` returns, and a write that fails is reported,
/// naming its file, by the next write or by `finish`, never lost.
final class BackgroundWriterTests: XCTestCase {
    func testEveryFileIsWrittenWholeBeforeFinishReturns() throws {
        let dir = NSTemporaryDirectory() + "bw-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let folders = ["a", "b", "c", "d", "e"]
        for folder in folders { try FileManager.default.createDirectory(atPath: dir + "/" + folder, withIntermediateDirectories: true) }
        // A budget of a few files: most writes wait for room, and one larger than the budget goes alone.
        // Runs of files in one folder, then another, over three threads.
        for writer in [BackgroundWriter(budget: 1000, threads: 3), BackgroundWriter(budget: 1000, threads: 1), BackgroundWriter(synchronous: true)] {
            var expected: [String: [UInt8]] = [:]
            for i in 0..<300 {
                let name = folders[(i / 7) % folders.count] + "/f\(i)-\(expected.count)-\(UUID().uuidString.prefix(8))"
                let bytes = [UInt8](repeating: UInt8(i % 251), count: i == 7 ? 5000 : 100 + i)
                expected[name] = bytes
                try writer.write(bytes, at: dir + "/" + name, naming: name)
            }
            try writer.finish()
            for (name, bytes) in expected {
                XCTAssertEqual(Array(try Data(contentsOf: URL(fileURLWithPath: dir + "/" + name))), bytes, name)
            }
        }
    }

    func testAFailedWriteIsReportedNamingItsFile() throws {
        let dir = NSTemporaryDirectory() + "bw-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let writer = BackgroundWriter()
        try writer.write([1, 2, 3], at: dir + "/missing/a.json", naming: "out/app/a.json")
        XCTAssertThrowsError(try writer.finish()) { error in
            XCTAssertTrue("\(error)".contains("cannot write out/app/a.json"), "\(error)")
        }
        // Reported again by the next write, which is not queued.
        XCTAssertThrowsError(try writer.write([4], at: dir + "/b.json", naming: "b.json"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir + "/b.json"))
    }

    /// On several threads, of the writes that fail, the one queued first is
    /// reported, whichever failed first: as one thread would report it.
    func testTheFailureQueuedFirstIsReported() throws {
        let dir = NSTemporaryDirectory() + "bw-\(UUID().uuidString)"
        for folder in ["a", "b"] { try FileManager.default.createDirectory(atPath: dir + "/" + folder, withIntermediateDirectories: true) }
        defer { try? FileManager.default.removeItem(atPath: dir) }
        for round in 0..<50 {
            let writer = BackgroundWriter(budget: 1000, threads: 3)
            // Large files before the first failure, none before the second: the second most often fails first.
            for i in 0..<4 { try? writer.write([UInt8](repeating: 1, count: 900), at: dir + "/a/\(round)-\(i)", naming: "a/\(i)") }
            try? writer.write([1], at: dir + "/missing-1/x", naming: "missing-1/x")
            try? writer.write([2], at: dir + "/b/\(round)", naming: "b/\(round)")
            try? writer.write([3], at: dir + "/missing-2/y", naming: "missing-2/y")
            XCTAssertThrowsError(try writer.finish()) { error in
                XCTAssertTrue("\(error)".contains("cannot write missing-1/x"), "round \(round): \(error)")
            }
        }
    }
}
