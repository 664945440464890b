import Foundation
import XCTest
@testable import RelctlCLI
@testable import RelctlCore
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
            let h = Harness()
            h.sample()
            try Connection(path: h.db, readOnly: false, create: false).execute(sql)
            for line in ["status", "version list", "check 1.0 --platform ios", "publish \(h.dir)/out"] {
                let r = h.fails(line, "has a bad row")
                XCTAssertTrue(r.err.contains(names), "\(sql) → \(line): \(r.err)")
                XCTAssertFalse(FileManager.default.fileExists(atPath: h.dir + "/out/index.json"), "a publish went ahead over a bad row")
            }
        }
    }

    func testEachLayersErrorsMapToOneExitStatus() {
        XCTAssertEqual(RelctlError.from(InputError("bad version", hint: "h")), .usage("bad version", hint: "h"))
        XCTAssertEqual(RelctlError.from(StoreError("locked", hint: "wait")), .failure("locked", hint: "wait"))
        XCTAssertEqual(RelctlError.from(PublishProblem(message: "no id", fix: "add one")), .failure("cannot publish: no id", hint: "add one"))
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
        XCTAssertEqual((spec["exitStatus"] as? [[String: Any]])?.compactMap { $0["code"] as? Int }, [0, 1, 2])
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
