import XCTest
@testable import RelctlCLI
@testable import RelctlCore
@testable import RelctlModel
@testable import RelctlStore
@testable import SQLite

final class ParserTests: XCTestCase {
    func parse(_ line: String) throws -> ParsedCommand { try Parser.parse(Harness.split(line), root: Relctl.tree.model) }

    func testLongShortBundledAndInlineValues() throws {
        let p = try parse("version add 2.1.0 --platform=ios --build 210 -qp shop --notes a --notes \"b c\"")
        XCTAssertEqual(p.name, "version add")
        XCTAssertEqual(p.values["platform"], ["ios"])
        XCTAssertEqual(p.values["build"], ["210"])
        XCTAssertEqual(p.values["project"], ["shop"])
        XCTAssertNotNil(p.values["quiet"])
        XCTAssertEqual(p.values["notes"], ["a", "b c"])
        XCTAssertEqual(p.positionals, ["2.1.0"])
        XCTAssertEqual(try parse("-pshop version list").values["project"], ["shop"])
    }

    func testGlobalOptionsAnywhereAndDoubleDash() throws {
        let p = try parse("--json project --db x.db list")
        XCTAssertEqual(p.name, "project list")
        XCTAssertEqual(p.values["db"], ["x.db"])
        let q = try parse("notes set 2.0 -- --not-an-option -x")
        XCTAssertEqual(q.positionals, ["2.0", "--not-an-option", "-x"])
    }

    func testUnknownCommandsAndOptionsSuggest() {
        func error(_ line: String) -> RelctlError {
            do { _ = try parse(line); return RelctlError.failure("parsed") } catch { return RelctlError.from(error) }
        }
        var e = error("versoin list")
        XCTAssertEqual(e.status, 2)
        XCTAssertTrue(e.message.contains("did you mean 'version'?"), e.message)
        XCTAssertNotNil(e.usage)
        e = error("version list --platfrom ios")
        XCTAssertTrue(e.message.contains("did you mean '--platform'?"), e.message)
        e = error("rules set --outdated recomend")
        XCTAssertTrue(e.message.contains("did you mean 'recommend'?"), e.message)
        e = error("version add 1.0 --build")
        XCTAssertTrue(e.message.contains("needs a value"), e.message)
        e = error("version add 1.0 --build 1 --build 2")
        XCTAssertTrue(e.message.contains("more than once"), e.message)
        e = error("project list -z")
        XCTAssertTrue(e.message.contains("unknown option '-z'"), e.message)
        e = error("init --json=yes")
        XCTAssertTrue(e.message.contains("takes no value"), e.message)
    }

    func testEnumeratedArgumentsAndMissingOnes() throws {
        let p = try parse("policy set 1.0 forse")
        XCTAssertThrowsError(try Parser.validatePositionals(p)) { e in
            XCTAssertTrue(RelctlError.from(e).message.contains("did you mean 'force'?"))
        }
        XCTAssertThrowsError(try Parser.validatePositionals(try parse("version add"))) { e in
            XCTAssertEqual(RelctlError.from(e).message, "missing VERSION")
        }
        XCTAssertThrowsError(try Parser.validatePositionals(try parse("version show 1.0 2.0"))) { e in
            XCTAssertTrue(RelctlError.from(e).message.contains("unexpected argument '2.0'"))
        }
    }

    func testEnvironmentFallbackAndDefault() {
        let h = Harness()
        h.env["RELCTL_DB"] = h.dir + "/from-env.db"
        let context = Context(env: h.env)
        XCTAssertEqual(Runner.run(["init", "-q"], context: context, tree: Relctl.tree), 0)
        XCTAssertTrue(FileManager.default.fileExists(atPath: h.dir + "/from-env.db"))
        // --db beats the environment.
        XCTAssertEqual(Runner.run(["init", "-q", "--db", h.dir + "/flag.db"], context: Context(env: h.env), tree: Relctl.tree), 0)
        XCTAssertTrue(FileManager.default.fileExists(atPath: h.dir + "/flag.db"))
    }

    func testHelpWrapsToTheWidth() {
        for width in [40, 80, 120] {
            let text = Help.render([Relctl.tree.model, VersionCommands.command.model, VersionCommands.add.model], width: width)
            for line in text.split(separator: "\n") where line.contains(" ") {
                // A single word (or quoted stretch, never broken) longer than the width may overflow; nothing else.
                let words = Help.words(String(line))
                if words.count > 1 { XCTAssertLessThanOrEqual(line.count, width, "width \(width): \(line)") }
            }
            XCTAssertTrue(text.contains("--notes-file FILE"))
            XCTAssertTrue(text.contains("EXIT STATUS"))
        }
    }

    func testHelpCommandAndFlagAgree() {
        let h = Harness()
        let a = h.run(["help", "version", "add"])
        let b = h.run(["version", "add", "--help"])
        XCTAssertEqual(a.status, 0)
        XCTAssertEqual(a.out, b.out)
        XCTAssertTrue(a.out.contains("USAGE"))
        let c = h.run(["help", "vresion"])
        XCTAssertEqual(c.status, 2)
        XCTAssertTrue(c.err.contains("did you mean 'version'?"))
    }
}

final class ModelTests: XCTestCase {
    /// The root's groups are declared by name, built when reached: each name (and whether it
    /// is hidden) must be its command's, or the parser would reach a command by another name.
    func testEachGroupIsDeclaredByItsOwnName() {
        XCTAssertFalse(Relctl.tree.children.isEmpty)
        for group in Relctl.tree.children {
            let built = group.build()
            XCTAssertEqual(built.model.name, group.name)
            XCTAssertEqual(built.model.hidden, group.hidden, group.name)
            XCTAssertEqual(Relctl.tree.model.subcommand(group.name)?.name, group.name)
        }
        XCTAssertEqual(Relctl.tree.model.visibleSubcommandNames, Relctl.tree.model.visibleSubcommands.map(\.name))
        XCTAssertNil(Relctl.tree.model.subcommand("no-such-command"))
    }

    func testNamesAndShortLettersAreUniqueAndEverythingVisibleHasHelp() {
        for entry in ModelWalk.entries(Relctl.tree.model) {
            let cmd = entry.command
            XCTAssertFalse(cmd.abstract.isEmpty, entry.key)
            let options = ModelWalk.options(entry)
            XCTAssertEqual(Set(options.map(\.long)).count, options.count, "duplicate option in '\(entry.key)'")
            let shorts = options.compactMap(\.short)
            XCTAssertEqual(Set(shorts).count, shorts.count, "duplicate short option in '\(entry.key)'")
            for o in options { XCTAssertFalse(o.help.isEmpty, "\(entry.key) --\(o.long)") }
            for a in cmd.arguments { XCTAssertFalse(a.help.isEmpty, "\(entry.key) \(a.name)") }
            let subs = cmd.subcommands.map(\.name)
            XCTAssertEqual(Set(subs).count, subs.count, "duplicate subcommand in '\(entry.key)'")
            XCTAssertTrue(Relctl.tree.handler(at: entry.words) != nil || !cmd.subcommands.isEmpty, "'\(entry.key)' does nothing")
            // Only the last argument may repeat, and nothing optional precedes a required one.
            for (i, a) in cmd.arguments.enumerated() {
                if a.repeating { XCTAssertEqual(i, cmd.arguments.count - 1, entry.key) }
                if a.optional { XCTAssertTrue(cmd.arguments[i...].allSatisfy(\.optional), entry.key) }
            }
        }
    }

    /// The fish script relies on it: an option name either always takes a value or never does.
    func testAnOptionNameTakesAValueEverywhereOrNowhere() {
        var valued: [String: Bool] = [:]
        for entry in ModelWalk.entries(Relctl.tree.model) {
            for o in ModelWalk.options(entry) {
                if let seen = valued[o.long] { XCTAssertEqual(seen, o.takesValue, "--\(o.long) in '\(entry.key)'") }
                valued[o.long] = o.takesValue
            }
        }
    }

    func testTheIssuesInterfaceExists() throws {
        let lines = [
            "init", "project add shop --name Shop --default-locale en", "project list", "project show shop", "project edit shop --name X",
            "project rm shop --yes", "project use shop", "platform add ios --bundle-id a.b --app-store-id 1 --min-os 15.0 --store-url https://x",
            "platform list", "platform show", "platform edit ios --min-os 16", "platform rm ios --yes",
            "version add 2.1.0 --platform ios --build 210 --released now --min-os 16.0 --notes a --notes-file f --locale tr",
            "version add 2.1.0 --unreleased", "version list", "version show 2.1.0", "version edit 2.1.0 --build 3",
            "version release 2.1.0 --at now", "version rm 2.1.0 --yes", "notes set 2.1.0 --platform ios --locale tr a b",
            "notes set 2.1.0 --file -", "notes show 2.1.0 --locale tr", "notes rm 2.1.0 --locale tr", "log --limit 5",
            "help version add", "force 2.0 --build 3 --platform ios --allow-unreleased", "force --clear",
            "recommend 2.1 --build 3 --platform ios", "recommend --clear", "policy set 1.4.2 force --platform ios",
            "policy clear 1.4.2", "policy list", "rules show",
            "rules set --all default --major critical --minor annoying --patch hinting --revision skip/weekly --release-delay 1 --remind-after 24 --outdated none",
            "maintenance start --until now --for 1h --title T --message M --locale tr --platform ios",
            "maintenance schedule --from now --until now", "maintenance stop", "maintenance status", "maintenance list",
            "maintenance cancel 3", "message set required --locale tr --title T --message M --update-button U --later-button L --skip-button S --retry-button R",
            "message show --locale tr", "message rm optional --locale tr", "check 1.9.4 --build 3 --platform ios --locale tr --at now",
            "status", "publish out --at now --dry-run", "completion zsh",
        ]
        for line in lines {
            let parsed = try Parser.parse(Harness.split(line), root: Relctl.tree.model)
            XCTAssertNotNil(Relctl.tree.handler(at: parsed.path.dropFirst().map(\.name)), line)
            XCTAssertNoThrow(try Parser.validatePositionals(parsed), line)
        }
    }
}
