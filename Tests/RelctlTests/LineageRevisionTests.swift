import Foundation
import XCTest
@testable import RelctlCore
@testable import RelctlStore
@testable import SQLite

/// A revision is a count past the database's highest and the digest of the
/// part's content after the change (Lineage.next): what tells two copies'
/// different edits apart, and the same edit in both alike.
final class LineageRevisionTests: XCTestCase {
    func testARevisionCountsPastTheClockWithTheContentInItsLowBits() throws {
        let bits = Lineage.digestBits
        let a = try XCTUnwrap(Lineage.next(after: 900, content: "0123456789abcdef"))
        XCTAssertEqual(a >> bits, 1, "past every revision from before the digests")
        XCTAssertEqual(Lineage.next(after: 900, content: "0123456789abcdef"), a, "the same content at the same count: one revision")
        XCTAssertEqual(Lineage.next(after: 57, content: "0123456789abcdef"), a, "the count, not the revision before it")
        XCTAssertNotEqual(Lineage.next(after: 900, content: "fedcba9876543210"), a, "other content: another revision")
        let b = try XCTUnwrap(Lineage.next(after: a, content: "0123456789abcdef"))
        XCTAssertEqual(b >> bits, 2)
        XCTAssertGreaterThan(b, a)
        XCTAssertEqual(Lineage.next(after: 5 << bits | (1 << bits - 1), content: ConfigFormat.absent).map { $0 >> bits }, 6, "above the largest digest of a count")
        // The last count stays within the bound every reader checks; past it there is none.
        let last = try XCTUnwrap(Lineage.next(after: (Lineage.maximum >> bits - 2) << bits, content: ConfigFormat.absent))
        XCTAssertLessThan(last, Lineage.maximum)
        XCTAssertNil(Lineage.next(after: last, content: ConfigFormat.absent))
        XCTAssertNil(Lineage.next(after: -1, content: ConfigFormat.absent))
    }

    /// A database at its last count refuses a change, and keeps it unmade.
    func testADatabaseAtItsLastRevisionRefusesAChange() throws {
        let h = Harness()
        h.ok("init")
        h.ok("project add shop --name Shop")
        h.ok("platform add ios --bundle-id com.example.shop")
        let top = Lineage.maximum - 1
        try Connection(path: h.db, readOnly: false, create: false).run("UPDATE lineage SET head = ?, chain = ? WHERE part = 'ios'", [.int(top), .text(String(top))])
        h.fails("version add 1.0 --platform ios", "the database's lineage has reached its highest revision")
        XCTAssertFalse(h.ok("version list --platform ios").out.contains("1.0"))
    }

    /// The content a revision is told apart by is the part's digest as an exported file gives it,
    /// for every kind of part; a cancelled window, which no file lists, has none.
    func testAPartsContentIsDigestedAsTheFileDigestsIt() throws {
        let h = Harness()
        ExportTests.configured(h)
        h.ok("maintenance schedule --from 2027-03-01T00:00:00Z --for 1h --yes")
        h.ok("maintenance cancel 2 --yes")
        guard case .object(let top)? = try? JSONReader.parse(Array(h.ok("export").out.utf8)), case .object(let projects)? = top["projects"],
              case .object(let shop)? = projects["shop"], case .object(let lineage)? = shop["lineage"] else { return XCTFail("no lineage in the export") }
        var written: [String: String] = [:]
        for (part, entry) in lineage {
            guard case .array(let pair) = entry, pair.count == 2, case .string(let digest) = pair[1] else { return XCTFail(part) }
            written[part] = digest
        }
        for kind in ["", "ios", "ios/2.0", "window/1", "messages/optional/de"] { XCTAssertNotEqual(written[kind] ?? ConfigFormat.absent, ConfigFormat.absent, kind) }
        XCTAssertEqual(written["window/2"], ConfigFormat.absent, "the cancelled window")
        let store = try Store(path: h.db, mode: .read, user: "tester")
        let found = try store.partDigests(written.keys.map { ("shop", $0) })["shop"] ?? [:]
        for (part, digest) in written.sorted(by: { $0.key < $1.key }) {
            XCTAssertEqual(found[part] ?? ConfigFormat.absent, digest, part)
        }
    }
}

extension LineageRevisionTests {
    /// The parts an apply counts as the file's own edits, not made by its rows, take one count,
    /// as the parts of one change do: a database where those edits were rows counts them alike.
    func testAnApplysOwnEditsTakeOneCount() throws {
        let (h, store, now) = try ConfigApplyTests.adopted(["ios/1.0": [9, 6], "ios/1.1": [9, 6]])
        let heads = try ["ios/1.0", "ios/1.1"].map { try XCTUnwrap(now[$0]?.first) }
        XCTAssertEqual(Set(heads.map { $0 >> Lineage.digestBits }).count, 1, "one count: \(heads)")
        XCTAssertNotEqual(heads[0], heads[1], "two versions of different content: two revisions")
        XCTAssertEqual(heads.max(), try Lineage.clock(store.db))
        withExtendedLifetime(h) {}
    }
}
