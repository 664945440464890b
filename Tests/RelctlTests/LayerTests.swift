import Foundation
import XCTest
@testable import RelctlCLI
@testable import RelctlCore
@testable import RelctlModel
@testable import RelctlStore
@testable import SQLite

/// What the layering promises beyond what the compiler checks: a bad row is
/// reported, never skipped; each layer's errors map to one exit status; the
/// model is data that prints as JSON; every runnable command has its handler.
final class LayerTests: XCTestCase {
    /// Rows people edited by hand into something relctl cannot read.
    func testABadRowIsAnErrorNamingIt() throws {
        let cases: [(sql: String, names: String)] = [
            ("UPDATE version SET version = '2.x' WHERE version = '2.0' AND build = 200 AND platform_id = (SELECT id FROM platform WHERE name = 'ios')",
             "version #"),
            ("UPDATE project SET rules = 'force/immediately,bogus' WHERE slug = 'shop'", "project 'shop'"),
            ("UPDATE project SET rules = 'force/immediately,skip/daily,skip/daily,loud/daily' WHERE slug = 'shop'", "project 'shop'"),
            ("UPDATE platform SET force_version = '1..0' WHERE name = 'ios'", "platform ios"),
        ]
        for (sql, names) in cases {
            try assertRefused(sql, naming: names, by: ["status", "version list", "check 1.0 --platform ios", "publish OUT"], saying: "has a bad row")
        }
    }

    /// After `sql` on the sample (and `setup`), each command line fails naming the row, and no publish goes ahead.
    func assertRefused(_ sql: String, naming names: String, by lines: [String], saying error: String, setup: (Harness) -> Void = { _ in }) throws {
        let h = Harness()
        h.sample()
        setup(h)
        try Connection(path: h.db, readOnly: false, create: false).execute(sql)
        for line in lines.map({ $0.replacingOccurrences(of: "OUT", with: h.dir + "/out") }) {
            let r = h.fails(line, error)
            XCTAssertTrue(r.err.contains(names), "\(sql) → \(line): \(r.err)")
            XCTAssertFalse(FileManager.default.fileExists(atPath: h.dir + "/out/index.json"), "a publish went ahead over a bad row")
        }
    }

    /// Rows that a command would refuse to write, written by hand: text apps
    /// would show as written (an unknown placeholder, a NUL, bytes that are
    /// not UTF-8), a window that ends before it starts or whose platform is
    /// gone (it would become project-wide), ids past 2^53. Each is an error
    /// naming it, for reads and publish alike, never a file sent to apps.
    func testHandWrittenTextAndWindowsAreCheckedWhenRead() throws {
        let ios = "(SELECT id FROM platform WHERE name = 'ios')"
        let cases: [(sql: String, names: String)] = [
            ("INSERT INTO message VALUES (1, 'required', 'en', 'message', '{bogus} {deadline')", "unknown placeholder {bogus}"),
            ("INSERT INTO message VALUES (1, 'required', 'en', 'title', 'Stop ' || char(27) || '[2J')", "its en title: it contains control characters"),
            ("UPDATE note SET body = 'a' || char(0) || 'b' WHERE locale = 'en'", "a note of version #"),
            ("UPDATE note SET body = '  ' WHERE locale = 'en'", "it has no text"),
            ("UPDATE project SET name = 'A' || char(0) || 'B'", "control character"),
            ("UPDATE project SET name = CAST(x'41ff42' AS TEXT)", "a value of column name is not UTF-8 text"),
            ("UPDATE maintenance SET ends_at = starts_at - 3600", "maintenance window #1: it ends at"),
            ("UPDATE maintenance SET id = 9223372036854775807", "its id is outside 1...9007199254740991"),
            ("PRAGMA foreign_keys = OFF; DELETE FROM platform WHERE id = \(ios)", "its platform #1 does not exist"),
            ("INSERT INTO maintenance_copy VALUES (1, 'en', 'Down ' || char(7), NULL)", "its title: it contains control characters"),
        ]
        for (sql, names) in cases {
            try assertRefused(sql, naming: names, by: ["check 1.0 --platform android", "status", "publish OUT"], saying: "database") {
                $0.ok("maintenance schedule --platform ios --from 2026-12-05T02:00:00Z --until 2026-12-05T03:00:00Z --yes")
            }
        }
        // What an earlier relctl could store still reads: an empty override (no override), a
        // brace that is not a placeholder name, a CR from an imported file, an empty window title.
        let old = Harness()
        old.sample()
        old.ok("maintenance schedule --platform ios --from 2026-12-05T02:00:00Z --until 2026-12-05T03:00:00Z --yes")
        old.ok("force 2.0 --platform ios --yes")
        try Connection(path: old.db, readOnly: false, create: false).execute("""
            INSERT INTO message VALUES (1, 'required', 'en', 'title', '');
            INSERT INTO message VALUES (1, 'required', 'en', 'message', 'Code {0} expired');
            UPDATE note SET body = 'Line one' || char(13) || char(10) || 'Line two' WHERE locale = 'en';
            INSERT INTO maintenance_copy VALUES (1, 'en', '', 'Back soon');
            """)
        let checked = old.ok("--json check 1.0 --platform ios --at 2026-12-01T00:00:00Z").json as? [String: Any]
        let message = checked?["message"] as? [String: Any]
        XCTAssertEqual((message?["message"] as? [String: Any])?["text"] as? String, "Code {0} expired")
        XCTAssertNotEqual((message?["title"] as? [String: Any])?["text"] as? String, "", "an empty override falls back to the built-in title")
        XCTAssertEqual(old.run(["publish", old.dir + "/out", "--at", "2026-11-29T12:00:00Z"]).status, 0)
        // The last id given out is read as a number, and a new one never overflows.
        let h = Harness()
        h.sample()
        try Connection(path: h.db, readOnly: false, create: false).execute("INSERT OR REPLACE INTO meta(key, value) VALUES ('maintenance_last_id', 'abc')")
        h.fails("maintenance schedule --from 2026-12-05T02:00:00Z --for 1h --yes", "meta maintenance_last_id")
        try Connection(path: h.db, readOnly: false, create: false).execute("UPDATE meta SET value = '9007199254740991' WHERE key = 'maintenance_last_id'")
        h.fails("maintenance schedule --from 2026-12-05T02:00:00Z --for 1h --yes", "every maintenance window id up to 9007199254740991 is used")
    }

    func testEachLayersErrorsMapToOneExitStatus() {
        XCTAssertEqual(RelctlError.from(InputError("bad version", hint: "h")), .usage("bad version", hint: "h"))
        XCTAssertEqual(RelctlError.from(StoreError("locked", hint: "wait")), .failure("locked", hint: "wait"))
        XCTAssertEqual(RelctlError.from(RelctlError.usage("x")).status, 2)
        struct Other: Error {}
        XCTAssertEqual(RelctlError.from(Other()).status, 1)
    }

    func testTheModelPrintsAsJSON() throws {
        let h = Harness()
        let r = h.run(["__spec"])
        XCTAssertEqual(r.status, 0, r.err)
        let spec = try XCTUnwrap(r.json as? [String: Any])
        XCTAssertEqual(spec["completionScopes"] as? [String], ["db", "project", "platform"])
        XCTAssertEqual((spec["exitStatus"] as? [[String: Any]])?.compactMap { $0["code"] as? Int }, [0, 1, 2, 3])
        XCTAssertTrue((spec["environment"] as? [[String: Any]])?.contains { $0["name"] as? String == "RELCTL_DB" } == true)
        // Every command of the model is in the document, with its options.
        func names(_ c: [String: Any], _ prefix: String) -> [String] {
            let subs = c["subcommands"] as? [[String: Any]] ?? []
            return [prefix] + subs.flatMap { names($0, (prefix.isEmpty ? "" : prefix + " ") + ($0["name"] as! String)) }
        }
        func walk(_ c: Command, _ prefix: String) -> [String] {
            [prefix] + c.subcommands.flatMap { walk($0, (prefix.isEmpty ? "" : prefix + " ") + $0.name) }
        }
        let command = try XCTUnwrap(spec["command"] as? [String: Any])
        XCTAssertEqual(names(command, ""), walk(Relctl.tree.model, ""))
        let add = (command["subcommands"] as! [[String: Any]]).first { $0["name"] as? String == "version" }
            .flatMap { ($0["subcommands"] as? [[String: Any]])?.first { $0["name"] as? String == "add" } }
        XCTAssertTrue((add?["options"] as? [[String: Any]])?.contains { $0["long"] as? String == "build" } == true)
    }

    func testEveryRunnableCommandHasAHandlerAndGroupsHaveNone() {
        func visit(_ c: Command, _ path: [String]) {
            let handler = Relctl.tree.handler(at: path)
            if c.subcommands.isEmpty { XCTAssertNotNil(handler, "'\(path.joined(separator: " "))' has no handler") }
            else { XCTAssertTrue(path.isEmpty || handler == nil, "group '\(path.joined(separator: " "))' has a handler") }
            for sub in c.subcommands { visit(sub, path + [sub.name]) }
        }
        visit(Relctl.tree.model, [])
        XCTAssertNil(Relctl.tree.handler(at: ["no-such-command"]))
    }

    func testVersionFlagAfterACommandIsAUsageError() {
        let h = Harness()
        h.ok("init")
        h.fails("--version project", status: 2, "--version goes alone")
        h.fails("--version status", status: 2, "--version goes alone")
        XCTAssertEqual(h.run("--version").out, "relctl \(Runner.version)\n")
    }
}
