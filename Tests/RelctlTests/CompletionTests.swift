import Foundation
import XCTest
@testable import RelctlCLI
@testable import RelctlCore
@testable import RelctlModel
@testable import RelctlStore
@testable import SQLite

/// The completion scripts and the manual: generated from the model, committed,
/// and exercised in the real shells.
final class CompletionTests: XCTestCase {
    static let files = ["bash": "completions/relctl.bash", "zsh": "completions/_relctl", "fish": "completions/relctl.fish"]

    func testCommittedScriptsAndManualAreWhatTheBinaryGenerates() {
        for (shell, file) in CompletionTests.files {
            XCTAssertEqual(Package.read(file), CompletionCommand.script(shell), "\(file) is stale: run 'make generate'")
        }
        XCTAssertEqual(Package.read("man/relctl.1"), ManPage.generate(Relctl.tree.model), "man/relctl.1 is stale: run 'make generate'")
        let h = Harness()
        XCTAssertEqual(h.run(["completion", "zsh"]).out, CompletionCommand.script("zsh"))
        XCTAssertEqual(h.run(["completion", "csh"]).status, 2)
    }

    func require(_ name: String) -> String? {
        let path = Proc.which(name)
        if path == nil { XCTFail("\(name) is not installed; .ci/run installs it") }
        return path
    }

    func testScriptsParseInTheirShells() throws {
        for (shell, flag) in [("bash", "-n"), ("zsh", "-n"), ("fish", "--no-execute")] {
            guard let path = require(shell) else { continue }
            let r = try Proc.run(path, [flag, Package.root + "/" + CompletionTests.files[shell]!])
            XCTAssertEqual(r.status, 0, "\(shell): \(r.err)")
        }
    }

    func testManualIsCleanUnderMandocLint() throws {
        guard let mandoc = require("mandoc") else { return }
        let r = try Proc.run(mandoc, ["-T", "lint", "-W", "warning", Package.root + "/man/relctl.1"])
        XCTAssertEqual(r.status, 0, r.out + r.err)
        XCTAssertEqual(r.out + r.err, "")
        let page = Package.read("man/relctl.1")
        for section in ["NAME", "SYNOPSIS", "DESCRIPTION", "COMMANDS", "ENVIRONMENT", "FILES", "EXIT STATUS", "EXAMPLES", "SEE ALSO"] {
            XCTAssertTrue(page.contains(".Sh \(section)\n"), section)
        }
        for entry in ModelWalk.entries(Relctl.tree.model) where Relctl.tree.handler(at: entry.words) != nil && entry.path.count > 1 {
            XCTAssertTrue(page.contains(".It Nm " + entry.words.map { "Cm \($0)" }.joined(separator: " ")), entry.key)
        }
    }

    // MARK: candidates in the real shells

    /// A database with two projects, so --project on the line matters.
    func fixture() -> (Harness, [String: String]) {
        let h = Harness()
        h.ok("init")
        h.ok("project add shop")
        h.ok("platform add ios --bundle-id a.b")
        h.ok("platform add android --bundle-id a.b")
        h.ok("version add 2.1.0 --platform ios")
        h.ok("version add 1.0 --platform android --build 1")
        h.ok("notes set 2.1.0 --platform ios --locale tr Merhaba")
        h.ok("project add blog")
        h.ok("-p blog platform add macos --bundle-id c.d")
        h.ok("-p blog version add 9.9")
        h.ok("-p shop maintenance schedule --from 2027-01-01T00:00:00Z --until 2027-01-01T01:00:00Z --yes")
        // Running now by the machine's clock, which completion reads: window #2.
        h.ok("-p shop maintenance start --platform android --until 2030-01-01T00:00:00Z --yes")
        h.ok("project use shop")
        let bin = URL(fileURLWithPath: Package.binary).deletingLastPathComponent().path
        let env = ["PATH": bin + ":/usr/bin:/bin", "HOME": h.dir, "TERM": "dumb", "RELCTL_DB": h.db]
        return (h, env)
    }

    /// The line typed, and the candidates every shell must offer (a set).
    let cases: [(String, [String])] = [
        ("relctl vers", ["version"]),
        ("relctl version ", ["add", "edit", "list", "release", "rm", "show"]),
        ("relctl policy set 2.1.0 ", ["force", "none", "recommend"]),
        ("relctl rules set --outdated ", ["none", "recommend"]),
        ("relctl completion ", ["bash", "fish", "zsh"]),
        ("relctl -p ", ["blog", "shop"]),
        ("relctl version show --platform ", ["android", "ios"]),
        ("relctl version show --platform ios ", ["2.1.0"]),
        ("relctl -p blog version show ", ["9.9"]),
        ("relctl version show -p blog ", ["9.9"]),
        ("relctl notes show 2.1.0 --locale t", ["th", "tr"]),
        ("relctl maintenance cancel ", ["1"]),
        ("relctl maintenance edit ", ["1", "2"]),
        ("relctl maintenance message ", ["1", "2"]),
        ("relctl force 2.0 --platform ", ["all", "android", "ios"]),
        ("relctl maintenance start --platform ", ["all", "android", "ios"]),
        ("relctl --db /nonexistent/relctl.db version show --platform ios 2", []),
        ("relctl --db relctl.db version list --d", []),
        ("relctl -p shop version list --pro", []),
        ("relctl version add 1.0 --build 3 --bu", []),
        ("relctl version add 1.0 --notes a --no", ["--no-color", "--notes", "--notes-file"]),
        ("relctl maintenance start --fo", ["--for"]),
        ("relctl help ma", ["maintenance"]),
        ("relctl help ", Relctl.tree.model.visibleSubcommands.map(\.name)),
        ("relctl rules set --major ", Rule.presets.map(\.0)),
    ]

    func compare(_ shell: String, _ results: [String: [String]]) {
        for (line, expected) in cases {
            XCTAssertEqual(Set(results[line] ?? ["<missing>"]), Set(expected), "\(shell): [\(line)]")
        }
    }

    static func parseRows(_ output: String) -> [String: [String]] {
        var results: [String: [String]] = [:]
        for row in output.split(separator: "\n") {
            guard row.hasPrefix("["), let end = row.range(of: "] =>") else { continue }
            let line = String(row[row.index(after: row.startIndex)..<end.lowerBound])
            results[line] = row[end.upperBound...].split(separator: " ").map(String.init)
        }
        return results
    }

    func testBashCompletes() throws {
        guard let bash = require("bash") else { return }
        let (h, env) = fixture()
        let loader = ["/usr/share/bash-completion/bash_completion"].first { FileManager.default.fileExists(atPath: $0) }
        XCTAssertNotNil(loader, "bash-completion is not installed; .ci/run installs it")
        var script = "source \(loader ?? "/dev/null")\nsource \(Package.root)/completions/relctl.bash\n"
        script += """
        t() { COMP_LINE="$1"; COMP_POINT=${#1}; read -ra COMP_WORDS <<< "$1"; [[ "$1" == *" " ]] && COMP_WORDS+=("")
              COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); COMPREPLY=(); _relctl relctl; echo "[$1] => ${COMPREPLY[*]}"; }

        """
        for (line, _) in cases { script += "t '\(line)'\n" }
        try script.write(toFile: h.dir + "/t.bash", atomically: true, encoding: .utf8)
        let r = try Proc.run(bash, [h.dir + "/t.bash"], env: env, cwd: h.dir)
        compare("bash", CompletionTests.parseRows(r.out))
    }

    func testFishCompletes() throws {
        guard let fish = require("fish") else { return }
        let (h, env) = fixture()
        var script = "source \(Package.root)/completions/relctl.fish\n"
        for (line, _) in cases {
            script += "echo '[\(line)] =>' (complete -C'\(line)' | string split -f1 \\t | string join ' ')\n"
        }
        try script.write(toFile: h.dir + "/t.fish", atomically: true, encoding: .utf8)
        let r = try Proc.run(fish, ["--no-config", h.dir + "/t.fish"], env: env, cwd: h.dir)
        compare("fish", CompletionTests.parseRows(r.out))
    }

    func testZshCompletes() throws {
        guard let zsh = require("zsh") else { return }
        let (h, env) = fixture()
        let r = try Proc.run(zsh, ["-f", Package.root + "/Tests/Shell/zsh-complete.zsh", Package.root + "/completions"] + cases.map(\.0),
                             env: env, cwd: h.dir)
        compare("zsh", CompletionTests.parseRows(r.out))
    }

    /// The callback reads and never writes, and is silent without a database.
    func testCallbackNeverWrites() throws {
        let (h, env) = fixture()
        let before = try Data(contentsOf: URL(fileURLWithPath: h.db))
        var r = try Proc.run(Package.binary, ["__complete", "versions", "--project", "shop"], env: env, cwd: h.dir)
        XCTAssertEqual(r.out, "1.0\n2.1.0\n")
        // Window ids come with their times, which zsh and fish show beside them.
        r = try Proc.run(Package.binary, ["__complete", "windows", "--project", "shop"], env: env, cwd: h.dir)
        XCTAssertEqual(r.out, "1\t2027-01-01T00:00:00Z to 2027-01-01T01:00:00Z\n")
        // zsh keeps a colon in a description (escaped) instead of turning it into " -".
        XCTAssertEqual(ZshScript.describe("a: b"), "a\\: b")
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: h.db)), before)
        r = try Proc.run(Package.binary, ["__complete", "projects", "--db", h.dir + "/none.db"], env: env, cwd: h.dir)
        XCTAssertEqual(r.status, 0)
        XCTAssertEqual(r.out + r.err, "")
        XCTAssertFalse(FileManager.default.fileExists(atPath: h.dir + "/none.db"))
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: h.db)
        r = try Proc.run(Package.binary, ["__complete", "locales"], env: env, cwd: h.dir)
        XCTAssertTrue(r.out.contains("tr\n"))
        XCTAssertTrue(Relctl.tree.model.subcommand("__complete")!.hidden, "the callback stays out of help")
        XCTAssertFalse(h.run(["--help"]).out.contains("__complete"))
    }
}
