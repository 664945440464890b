import XCTest
@testable import RelctlPublish

/// index.json compared with the one there as it is written, a piece at a time.
final class SameBytesTests: XCTestCase {
    let old = Array((0..<5000).map { UInt8(truncatingIfNeeded: $0 &* 31) })

    /// `new` handed over in pieces of `piece` bytes, compared with the old bytes held and with a file holding them.
    func same(_ new: [UInt8], piece: Int, file: String? = nil) throws -> [Bool] {
        let path = file ?? NSTemporaryDirectory() + "relctl-same-" + UUID().uuidString
        if file == nil { try Data(old).write(to: URL(fileURLWithPath: path)) }
        defer { if file == nil { try? FileManager.default.removeItem(atPath: path) } }
        return [SameBytes(bytes: old), SameBytes(file: path)].map { compared in
            var at = 0
            while at < new.count {
                compared.compare(new[at..<min(new.count, at + piece)])
                at += piece
            }
            return compared.isSame
        }
    }

    func testTheSameBytesInAnyPiecesAreTheSame() throws {
        for piece in [1, 7, 4096, 5000, 9999] {
            XCTAssertEqual(try same(old, piece: piece), [true, true], "pieces of \(piece)")
        }
    }

    func testLongerShorterOrOneByteOffIsNot() throws {
        var last = old
        last[last.count - 1] ^= 1
        var first = old
        first[0] ^= 1
        for (name, new) in [("longer", old + [0]), ("shorter", Array(old.dropLast())), ("last byte", last), ("first byte", first), ("empty", [])] {
            XCTAssertEqual(try same(new, piece: 1000), [false, false], name)
        }
    }

    /// Only a regular file is read: not a missing one, a folder, or a FIFO (which would hold the publish up).
    func testOnlyARegularFileIsRead() throws {
        let dir = NSTemporaryDirectory() + "relctl-same-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        XCTAssertEqual(mkfifo(dir + "/fifo", 0o600), 0)
        for path in [dir + "/missing", dir, dir + "/fifo"] {
            let compared = SameBytes(file: path)
            compared.compare(old[...])
            XCTAssertFalse(compared.isSame, path)
            XCTAssertFalse(compared.wasRead, path)
        }
        XCTAssertFalse(SameBytes().isSame)
    }

    /// What matched is given back from the old bytes held, to be written before the piece that differed.
    func testWhatMatchedIsTheOldBytes() {
        let compared = SameBytes(bytes: old)
        XCTAssertTrue(compared.keepsOld)
        compared.compare(old[0..<100])
        XCTAssertTrue(compared.mayBeSame)
        compared.compare([1, 2, 3])
        XCTAssertFalse(compared.mayBeSame)
        XCTAssertEqual(Array(compared.matched(100)), Array(old[0..<100]))
        XCTAssertFalse(SameBytes(file: "/nonexistent").keepsOld)
    }
}
