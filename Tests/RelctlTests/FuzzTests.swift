import Foundation
import XCTest
@testable import RelctlCLI
@testable import RelctlCore
@testable import RelctlModel
@testable import RelctlStore
@testable import SQLite

/// Random command lines and random databases, for a bounded time:
/// RELCTL_FUZZ_SECONDS (default 20; `make fuzz` gives more), seeded by
/// RELCTL_FUZZ_SEED (printed, so a failure can be replayed). Never a crash,
/// never an exit status other than 0, 1 or 2, never invalid JSON.
final class FuzzTests: XCTestCase {

    static let values = ["", "1.0", "2.0", "2.0.0", "1..0", "x", "-1", "0", "99999999999999999999", "9223372036854775807",
                         "ios", "android", "macos", "en", "tr", "pt-BR", "../x", "now", "12:00", "24:00", "2026-11-29T12:00:00Z",
                         "9999-12-31T23:59:59Z", "0001-01-01T00:00:00Z", "2026-11-29 12:00", "90m", "2h", "1w", "99999999w", "0m",
                         "force", "recommend", "none", "critical", "skip/weekly", "default", "shop", "Shop", "a.b", "com.example.shop",
                         "1088280260", "id1", "https://example.com", "{app}", "{until}", "required", "maintenance", "bash", "zsh",
                         "out", "out/sub", "--", "-", "-q", "--json", "\u{0}", "ş", "١٢", String(repeating: "z", count: 300), "1.0,", "en,,tr"]

    static func randomString(_ r: inout SplitMix) -> String {
        // No '/' next to '.': random paths stay inside the test's folder.
        let alphabet = Array("0123456789.:-+TZ wdhms,abcxyzé{}\u{1F600}")
        return String((0..<Int.random(in: 0...12, using: &r)).map { _ in alphabet.randomElement(using: &r)! })
    }

    static func value(_ r: inout SplitMix) -> String {
        Int.random(in: 0..<4, using: &r) == 0 ? randomString(&r) : values.randomElement(using: &r)!
    }

    /// Every runnable command path of the model.
    static let commands: [(path: [String], command: Command)] = {
        var out: [([String], Command)] = []
        func walk(_ c: Command, _ path: [String]) {
            if c.subcommands.isEmpty { out.append((path, c)) }
            for s in c.subcommands where s.name != "__complete" { walk(s, path + [s.name]) }
        }
        walk(Relctl.tree.model, [])
        return out
    }()

    static func commandLine(_ r: inout SplitMix) -> [String] {
        let (path, command) = commands.randomElement(using: &r)!
        var args = Int.random(in: 0..<20, using: &r) == 0 ? Array(path.dropLast()) : path
        for _ in command.arguments where Int.random(in: 0..<6, using: &r) > 0 { args.append(value(&r)) }
        // --watch runs until a signal (PublishWatchTests covers it).
        let options = command.options.filter { $0.long != "watch" } + Globals.options.filter { $0.long != "db" && $0.long != "help" }
        for _ in 0..<Int.random(in: 0...3, using: &r) {
            guard let o = options.randomElement(using: &r) else { break }
            args.append("--" + o.long)
            if o.takesValue && Int.random(in: 0..<10, using: &r) > 0 { args.append(value(&r)) }
        }
        if Int.random(in: 0..<10, using: &r) == 0 { args.shuffle(using: &r) }
        return args
    }

    /// A random value for any column: the types STRICT tables take, at their extremes.
    static func columnValue(_ r: inout SplitMix) -> SQLValue {
        switch Int.random(in: 0..<6, using: &r) {
        case 0: return .null
        case 1: return .int([Int64.max, Int64.min, 0, -1, 1, 253_402_300_800, -62_135_596_801, 4_000_000_000, 366].randomElement(using: &r)!)
        case 2: return .int(Int64.random(in: .min ... .max, using: &r))
        case 3: return .text(randomString(&r))
        default: return .text(values.randomElement(using: &r)!)
        }
    }

    static let columns: [(table: String, columns: [String])] = [
        ("project", ["slug", "name", "default_locale", "locales", "rules", "release_delay_days", "remind_hours", "outdated"]),
        ("platform", ["name", "bundle_id", "app_store_id", "store_url", "min_os", "force_version", "force_build", "recommend_version", "recommend_build"]),
        ("version", ["version", "build", "released_at", "min_os", "policy"]),
        ("note", ["locale", "body"]),
        ("maintenance", ["starts_at", "ends_at", "platform_id"]),
        ("maintenance_copy", ["locale", "title", "message"]),
        ("message", ["kind", "locale", "field", "value"]),
        ("audit", ["at", "user", "project", "action"]),
        ("meta", ["value"]),
    ]

    static let readers: [[String]] = [["status", "--json"], ["check", "1.0", "--platform", "ios", "--json"], ["log", "--json"],
                                      ["publish", "out"], ["maintenance", "list", "--json"], ["version", "list", "--platform", "ios", "--json"],
                                      ["project", "show", "--json"], ["rules", "show", "--json"], ["message", "show", "--json"],
                                      ["check", "2.0.0", "--platform", "android", "--locale", "tr"], ["status"], ["log"]]

    func check(_ r: Harness.Result, _ args: [String], seed: UInt64, dir: String) {
        let shown = "\(args) (seed \(seed))"
        XCTAssertTrue([0, 1, 2].contains(r.status), shown)
        XCTAssertFalse(r.err.contains("Fatal error"), shown)
        if r.status != 0 {
            XCTAssertTrue(r.err.hasPrefix("relctl: "), "\(shown): \(r.err)")
            XCTAssertLessThanOrEqual(r.err.split(separator: "\n").count, 3, "\(shown): \(r.err)")
        } else if let parsed = try? Parser.parse(args, root: Relctl.tree.model), parsed.values["json"] != nil, parsed.values["help"] == nil,
                  !["help", "completion", "__manpage"].contains(parsed.path.dropFirst().first?.name ?? ""), !r.out.isEmpty {
            // help, completion and the manual print their text whatever --json says.
            XCTAssertNoThrow(try JSONReader.parse(Array(r.out.utf8)), "\(shown): \(r.out.prefix(200))")
        }
        if r.status == 0 && args.first == "publish" {
            // The files relctl wrote, as its index.json lists them: DIR may hold others (a conformance
            // suite exported there earlier in the run, with its deliberately broken files).
            let out = dir + "/" + args[1]
            // None after a dry run (-n, --dry-run), which writes nothing.
            guard let index = FileManager.default.contents(atPath: out + "/index.json") else { return }
            XCTAssertNoThrow(try JSONReader.parse(Array(index)), "\(shown): index.json is not JSON")
            guard case .object(let top)? = try? JSONReader.parse(Array(index)), case .object(let files)? = top["files"] else { return }
            for path in files.keys where path.hasSuffix(".json") {
                guard let data = FileManager.default.contents(atPath: out + "/" + path) else { continue }
                XCTAssertNoThrow(try JSONReader.parse(Array(data)), "\(shown): \(path) is not JSON")
            }
        }
    }

    func testRandomCommandLinesAndDatabases() throws {
        let env = ProcessInfo.processInfo.environment
        let seconds = env["RELCTL_FUZZ_SECONDS"].flatMap(Double.init) ?? 20
        let seed = env["RELCTL_FUZZ_SEED"].flatMap { UInt64($0) } ?? UInt64.random(in: 0 ... UInt64(UInt32.max))
        print("fuzz: seed \(seed) for \(Int(seconds)) s (replay with RELCTL_FUZZ_SEED=\(seed))")
        var r = SplitMix(seed: seed)
        let template = PublishTests.scenario()
        template.ok("maintenance schedule --from 2026-12-01T02:00:00Z --until 2026-12-01T04:00:00Z --message \"Back {until}\" --yes")
        let pristine = try Data(contentsOf: URL(fileURLWithPath: template.db))
        let h = Harness()
        // Two levels down, so that a random ".." or "../x" still names a folder of this test.
        let cwd = h.dir + "/cwd/inner"
        try FileManager.default.createDirectory(atPath: cwd, withIntermediateDirectories: true)
        let previous = FileManager.default.currentDirectoryPath
        _ = FileManager.default.changeCurrentDirectoryPath(cwd)
        defer { _ = FileManager.default.changeCurrentDirectoryPath(previous) }
        let start = Date()
        var executions = 0, round = 0
        while Date().timeIntervalSince(start) < seconds {
            round += 1
            try pristine.write(to: URL(fileURLWithPath: h.db))
            try? FileManager.default.removeItem(atPath: cwd + "/out")
            if round % 2 == 0 {
                // A database with random values in random columns, then every reader.
                let c = try Connection(path: h.db, readOnly: false, create: false)
                for _ in 0..<Int.random(in: 1...3, using: &r) {
                    let (table, columns) = FuzzTests.columns.randomElement(using: &r)!
                    let column = columns.randomElement(using: &r)!
                    _ = try? c.run("UPDATE \(table) SET \(column) = ? WHERE rowid IN (SELECT rowid FROM \(table) ORDER BY random() LIMIT 2)",
                                   [FuzzTests.columnValue(&r)])
                }
                for args in FuzzTests.readers {
                    let result = h.run(args)
                    check(result, args, seed: seed, dir: cwd)
                    executions += 1
                    // What each client sees of those files, once `verify` exists (issue 9).
                    if args.first == "publish", result.status == 0, Relctl.tree.model.subcommand("verify") != nil {
                        check(h.run(["verify", "out"]), ["verify", "out"], seed: seed, dir: cwd)
                        executions += 1
                    }
                }
            } else {
                for _ in 0..<10 {
                    let args = FuzzTests.commandLine(&r)
                    let t0 = Date()
                    check(h.run(args), args, seed: seed, dir: cwd)
                    if Date().timeIntervalSince(t0) > 1 { print("fuzz: slow (\(Int(Date().timeIntervalSince(t0))) s): \(args)") }
                    executions += 1
                }
            }
        }
        let elapsed = Date().timeIntervalSince(start)
        print("fuzz: \(executions) executions in \(Int(elapsed)) s, \(Int(Double(executions) / elapsed)) per second")
        XCTAssertGreaterThan(executions, 0)
    }
}
