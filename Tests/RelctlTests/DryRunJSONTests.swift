import Foundation
import XCTest
@testable import RelctlCLI
@testable import RelctlCore
@testable import RelctlModel
@testable import RelctlStore

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
        var tried: [String] = []
        // Files the cases name (export -o, apply) are the harness's.
        let previous = FileManager.default.currentDirectoryPath
        _ = FileManager.default.changeCurrentDirectoryPath(h.dir)
        defer { _ = FileManager.default.changeCurrentDirectoryPath(previous) }
        // publish and deploy have dry runs of their own (files, not rows).
        for (line, schema) in JSONSchemaTests.cases + [("force --after 3d --platform ios --yes", "policy")]
        where !line.hasPrefix("publish") && !line.hasPrefix("deploy") && !line.hasPrefix("undo") {
            let args = Harness.split(line)
            // nil: a step that sets up the next.
            guard let name = schema else { XCTAssertEqual(h.run(args).status, 0, line); continue }
            let before = try dump(h)
            let dry = h.run(args + ["--dry-run", "--json"])
            if dry.status == 2 && dry.err.contains("unknown option '--dry-run'") { continue }
            XCTAssertEqual(dry.status, 0, "\(line): \(dry.err)")
            XCTAssertEqual(try dump(h), before, "\(line) --dry-run changed the database")
            let validator = try SchemaValidator(path: Package.root + "/schema/json/\(name).schema.json")
            let document = try JSONReader.parse(Array(dry.out.utf8))
            XCTAssertEqual(validator.validate(document), [], "\(line) --dry-run --json against \(name).schema.json: \(dry.out)")
            // The same document the change itself prints, marked as a dry run, with the rows it would change.
            let real = h.run(args + ["--json"])
            XCTAssertEqual(real.status, 0, "\(line): \(real.err)")
            if case .object(var o) = document {
                XCTAssertEqual(o.removeValue(forKey: "dryRun"), .bool(true), line)
                guard case .array(let changes)? = o.removeValue(forKey: "changes") else { XCTFail("\(line): no changes in \(dry.out)"); continue }
                XCTAssertFalse(changes.isEmpty, "\(line): a dry run that changes rows lists none")
                o.removeValue(forKey: "impact")
                XCTAssertEqual(JSON.object(o), try JSONReader.parse(Array(real.out.utf8)), line)
            } else {
                XCTAssertEqual(dry.out, real.out, line)
            }
            XCTAssertNotEqual(try dump(h), before, "\(line) changed nothing for real either: the test proves nothing")
            tried.append(args.prefix(2).joined(separator: " "))
        }
        // Every write command of the list, not skipped for want of --dry-run.
        for command in ["project add", "project edit", "platform edit", "version add", "version edit", "version release", "notes set",
                        "force 1.1", "recommend 1.9", "policy set", "policy clear", "maintenance schedule", "message set", "rules set",
                        "maintenance start", "maintenance stop", "force --after", "keys trust"] {
            XCTAssertTrue(tried.contains { ($0 + " ").hasPrefix(command + " ") || $0 == command }, "\(command) was not tried: \(tried)")
        }
        // init says whether it would create the database, as init itself says.
        let fresh = h.dir + "/fresh.db"
        XCTAssertEqual(h.run(["init", "--dry-run", "--json"], database: fresh).out, #"{"created":true,"db":"\#(fresh)","schema":\#(Store.schemaVersion)}"# + "\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: fresh))
        XCTAssertEqual(h.run(["init", "--json"], database: fresh).out, #"{"created":true,"db":"\#(fresh)","schema":\#(Store.schemaVersion)}"# + "\n")
    }

    /// A dry run lets go of the database before it writes its document: a
    /// reader slow to take the output (a pager, a full pipe) holds up no other writer.
    func testADryRunHoldsNoLockWhileItsOutputWaits() throws {
        let h = Harness()
        h.sample()
        let notes = h.dir + "/notes.txt"
        // About 150 KB of JSON: more than a pipe holds, so the dry run blocks writing it
        // (four bytes a character: notes are at most 40,000 characters).
        try String(repeating: "\u{1F680}", count: 39_000).write(toFile: notes, atomically: true, encoding: .utf8)
        let dry = Process()
        dry.executableURL = URL(fileURLWithPath: Package.binary)
        dry.arguments = ["--db", h.db, "notes", "set", "2.0", "--platform", "ios", "--locale", "en", "--file", notes, "--dry-run", "--json"]
        dry.environment = ["TZ": "UTC"]
        let pipe = Pipe()
        dry.standardOutput = pipe
        dry.standardError = FileHandle(forWritingAtPath: "/dev/null")
        try dry.run()
        Thread.sleep(forTimeInterval: 1)
        XCTAssertTrue(dry.isRunning, "the dry run should be waiting for its output to be read")
        let start = Date()
        let writer = try Proc.run(Package.binary, ["--db", h.db, "version", "add", "3.0", "--platform", "ios", "--build", "300", "-q"], env: ["TZ": "UTC"])
        XCTAssertEqual(writer.status, 0, writer.err)
        XCTAssertLessThan(Date().timeIntervalSince(start), 5, "the writer waited on the dry run's lock")
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        dry.waitUntilExit()
        XCTAssertEqual(dry.terminationStatus, 0)
        XCTAssertGreaterThan(output.count, 100_000)
        XCTAssertTrue(h.ok("notes show 2.0 --platform ios --locale en").out.contains("New look"), "the dry run changed nothing")
    }

    /// What a dry run made is gone when it ends: the next command finds the
    /// database as it was, and can make the same change for real.
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
