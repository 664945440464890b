import Foundation
import XCTest
@testable import RelctlCLI
@testable import RelctlCore

/// `--dry-run --json` prints what the change would make, in the shape the
/// change itself prints, and leaves the database as it was (not one row, the
/// audit trail included): a script can look before it leaps.
final class DryRunJSONTests: XCTestCase {
    func dump(_ h: Harness) throws -> String {
        let shell = try XCTUnwrap(Proc.which("sqlite3"), "the sqlite3 shell is needed (scripts/deps.sh test installs it)")
        return try Proc.run(shell, [h.db, ".dump"]).out
    }

    func testEveryWriteShowsWhatItWouldMakeAndChangesNothing() throws {
        let h = Harness()
        h.sample()
        h.ok("project use shop")
        var tried = 0
        for (line, name) in JSONSchemaTests.cases {
            let args = Harness.split(line)
            let before = try dump(h)
            let dry = h.run(args + ["--dry-run", "--json"])
            if dry.status == 2 && dry.err.contains("unknown option '--dry-run'") { continue }
            // publish and deploy have dry runs of their own (files, not rows).
            if args.contains("publish") || args.contains("deploy") { continue }
            XCTAssertEqual(dry.status, 0, "\(line): \(dry.err)")
            XCTAssertEqual(try dump(h), before, "\(line) --dry-run changed the database")
            let validator = try SchemaValidator(path: Package.root + "/schema/json/\(name).schema.json")
            let document = try JSONReader.parse(Array(dry.out.utf8))
            XCTAssertEqual(validator.validate(document), [], "\(line) --dry-run --json against \(name).schema.json: \(dry.out)")
            // The same document the change itself prints.
            let real = h.run(args + ["--json"])
            XCTAssertEqual(real.status, 0, "\(line): \(real.err)")
            XCTAssertEqual(dry.out, real.out, line)
            XCTAssertNotEqual(try dump(h), before, "\(line) changed nothing for real either: the test proves nothing")
            tried += 1
        }
        XCTAssertGreaterThanOrEqual(tried, 15, "the write commands were tried")
    }

    /// A dry run holds its changes in one transaction until the command ends:
    /// another relctl writing at the same time waits, then finds the database
    /// as it was.
    func testADryRunLeavesNothingForTheNextCommand() throws {
        let h = Harness()
        h.sample()
        let dry = h.run(["version", "add", "3.0", "--platform", "ios", "--build", "300", "--dry-run", "--json"])
        XCTAssertEqual(dry.status, 0, dry.err)
        XCTAssertEqual((dry.json as? [String: Any])?["version"] as? String, "3.0")
        let list = h.ok("version list --platform ios --json")
        XCTAssertFalse(list.out.contains("\"3.0\""), list.out)
        XCTAssertFalse(h.ok("log --json").out.contains("3.0"))
        h.ok("version add 3.0 --platform ios --build 300")
    }
}
