import Foundation
import XCTest
@testable import RelctlCLI
@testable import RelctlCore
@testable import RelctlModel
@testable import RelctlStore

/// The release engineer's day (issue 12): every platform at once, hints
/// that work when pasted, previews, one JSON dialect.
final class ReleaseDayTests: XCTestCase {
    func floors(_ h: Harness) -> [String: String] {
        let list = h.ok("policy list --json").json as! [String: Any]
        var out: [String: String] = [:]
        for p in list["platforms"] as! [[String: Any]] {
            out[p["platform"] as! String] = ((p["force"] as? [String: Any])?["version"] as? String) ?? "-"
        }
        return out
    }

    func testForceOnEveryPlatformAtOnce() {
        let h = Harness()
        h.sample()
        let r = h.ok("force 2.0 --platform all --yes")
        XCTAssertTrue(r.err.contains("ios: versions below 2.0 must update"), r.err)
        XCTAssertTrue(r.err.contains("android: versions below 2.0 must update"), r.err)
        XCTAssertEqual(floors(h), ["ios": "2.0", "android": "2.0"])
        h.ok("force 1.0 --platform ios --platform android --yes")
        XCTAssertEqual(floors(h), ["ios": "1.0", "android": "1.0"])
        h.ok("force 1.1 --platform ios,android --yes")
        XCTAssertEqual(floors(h), ["ios": "1.1", "android": "1.1"])
        // One transaction, one audit row naming both.
        let log = h.ok("log --json").json as! [String: Any]
        let actions = (log["entries"] as! [[String: Any]]).map { $0["action"] as! String }
        XCTAssertTrue(actions.contains("force android,ios 1.1") || actions.contains("force ios,android 1.1"), "\(actions)")
    }

    func testSeveralPlatformsAreAllOrNothing() {
        let h = Harness()
        h.sample()
        // Android has no released 2.1: refused there, so iOS keeps its floor too.
        h.ok("version add 2.1 --platform ios --build 210")
        h.fails("recommend 2.1 --platform all --yes", "no released version of android")
        h.fails("policy set 2.0 force --platform ios,android --yes", status: 1, "no version 2.0 on android")
        h.fails("force 2.0 --platform ios,iphone --yes", "no platform 'iphone'")
        h.fails("force 2.0 --platform ios, --yes", status: 2, "empty platform name")
    }

    func testPinsReleasesAndNotesOnSeveralPlatforms() {
        let h = Harness()
        h.sample()
        h.ok("version add 3.0 --platform ios --build 300 --unreleased")
        h.ok("version add 3.0 --platform android --build 300 --unreleased")
        let r = h.ok("version release 3.0 --platform all")
        XCTAssertTrue(r.err.contains("ios 3.0 released") && r.err.contains("android 3.0 released"), r.err)
        h.ok("notes set 3.0 --platform ios,android --locale tr \"Yeni\"")
        XCTAssertEqual(h.ok("notes show 3.0 --platform android --locale tr").out, "Yeni\n")
        XCTAssertEqual(h.ok("notes show 3.0 --platform ios --locale tr").out, "Yeni\n")
        h.ok("version add 1.5 --platform android --build 150 --released 2026-07-01T00:00:00Z")
        h.ok("version add 1.5 --platform ios --build 150 --released 2026-07-01T00:00:00Z")
        h.ok("policy set 1.5 force --platform all --yes")
        XCTAssertEqual(h.ok("check 1.5 --platform android --build 150 --json").json.flatMap { ($0 as? [String: Any])?["verdict"] as? String }, "required")
        h.ok("policy clear 1.5 --platform all --yes")
    }

    func testMissingPlatformHintNamesAllFirstAndWorks() {
        let h = Harness()
        h.sample()
        let r = h.fails("force 2.0 --yes", status: 2, "several platforms")
        let first = PastedHintTests.hintedCommands(r.err)[0]
        XCTAssertTrue(first.hasPrefix("relctl force 2.0") && first.hasSuffix("--platform all"), r.err)
        // A one-platform command is not told about 'all', which it cannot take.
        let one = h.fails("version show 2.0", status: 2, "several platforms")
        XCTAssertFalse(one.err.contains("--platform all"), one.err)
        XCTAssertEqual(PastedHintTests.run(PastedHintTests.filled(first), h).0, 0)
        XCTAssertEqual(floors(h), ["ios": "2.0", "android": "2.0"])
    }
}

/// Every command a hint shows must work as printed (issue 12, point 2).
final class PastedHintTests: XCTestCase {
    /// Placeholders a hint may show where the user has to choose; filled with a value that works.
    static let placeholders = ["N": "999", "ID": "123456789", "SLUG": "newapp", "NAME": "New", "LINE": "text",
                               "COMMAND": "status", "TITLE": "Title"]
    /// Placeholders whose value depends on the option before them.
    static let optionPlaceholders = ["--bundle-id ID": "com.example.new"]

    /// The words of a hinted command with its placeholders filled in.
    static func filled(_ hinted: String) -> [String] {
        let words = Array(Harness.split(hinted).dropFirst())
        return words.indices.map { i in
            if i > 0, let v = optionPlaceholders[words[i - 1] + " " + words[i]] { return v }
            return placeholders[words[i]] ?? words[i]
        }
    }

    static func run(_ words: [String], _ h: Harness) -> (Int32, String) {
        // The hint carries --db from the failing line, so it runs as printed, without the harness's own --db.
        let context = Context(env: h.env, clock: { [now = h.now] in now }, user: "tester")
        // Pasted into a terminal by a person who answers its question.
        context.stdinIsTerminal = true
        context.readLine = { "y" }
        let status = Runner.run(words, context: context, tree: Relctl.tree)
        return (status, context.stderr.text)
    }

    /// The commands in single quotes in a stderr line that start with relctl.
    static func hintedCommands(_ err: String) -> [String] {
        guard let hint = err.split(separator: "\n").first?.components(separatedBy: " — ").dropFirst().joined(separator: " — ") else { return [] }
        let parts = hint.components(separatedBy: "'")
        return stride(from: 1, to: parts.count - 1, by: 2).map { parts[$0] }.filter { $0.hasPrefix("relctl ") }
    }

    func testEveryHintedCommandWorksWhenPasted() throws {
        let h = Harness()
        h.sample()
        h.ok("version add 2.1 --platform ios --build 210 --unreleased")
        let sample = try Data(contentsOf: URL(fileURLWithPath: h.db))
        let previous = FileManager.default.currentDirectoryPath
        _ = FileManager.default.changeCurrentDirectoryPath(h.dir)
        defer { _ = FileManager.default.changeCurrentDirectoryPath(previous) }
        var corpus = BadInputCorpusTests.cases.map(\.args)
        // The failures the issue names, and others whose hints show commands.
        for line in ["version add 2.0 --platform ios", "recommend 2.1 --platform ios", "force 2.1 --platform ios",
                     "force 2.0", "recommend 2.0", "policy set 2.0 force", "notes set 2.0 x", "version release 2.1",
                     "version edit 2.0 --platform ios", "policy clear 2.0 --platform ios", "notes rm 2.0 --platform ios --locale tr",
                     "notes show 1.9 --platform android --locale tr", "project add shop", "platform add ios --bundle-id a.b",
                     "version show 2.0.0 --platform ios", "force 2.0 --clear --platform ios"] {
            corpus.append(Harness.split(line))
        }
        var seen = Set<String>(), ran = 0
        for args in corpus {
            try sample.write(to: URL(fileURLWithPath: h.db))
            let r = h.run(args)
            guard r.status != 0 else { continue }
            for hinted in PastedHintTests.hintedCommands(r.err) where seen.insert(hinted).inserted {
                try sample.write(to: URL(fileURLWithPath: h.db))
                let (status, err) = PastedHintTests.run(PastedHintTests.filled(hinted), h)
                if r.err.contains("several platforms") {
                    // Which platform is the user's choice; the data may refuse it there, but the command is right.
                    XCTAssertNotEqual(status, 2, "hint of '\(args.joined(separator: " "))' is not a valid command: '\(hinted)': \(err)")
                } else {
                    XCTAssertEqual(status, 0, "hint of '\(args.joined(separator: " "))' does not work: '\(hinted)': \(err)")
                }
                ran += 1
            }
        }
        print("pasted hints: \(ran) distinct commands run")
        XCTAssertGreaterThanOrEqual(ran, 10)
    }
}

/// Previews before high-impact changes, and --dry-run on every change (issue 12, point 3).
final class PreviewTests: XCTestCase {
    func bytes(_ h: Harness) -> Data? { try? Data(contentsOf: URL(fileURLWithPath: h.db)) }

    func testLoweringTheFloorSaysSoAndShowsWhoChanges() {
        let h = Harness()
        h.sample()
        h.ok("force 2.0 --platform ios --yes")
        let r = h.ok("force 1.0 --platform ios --yes")
        XCTAssertTrue(r.err.contains("lowers the force floor of ios from 2.0 to 1.0"), r.err)
        XCTAssertTrue(r.err.contains("ios: 1.0 (100), 1.1 (110): required → optional"), r.err)
        let raise = h.ok("force 2.0 --platform all --yes")
        XCTAssertTrue(raise.err.contains("raises the force floor of ios from 1.0 to 2.0"), raise.err)
        XCTAssertTrue(raise.err.contains("sets the force floor of android to 2.0"), raise.err)
        XCTAssertTrue(raise.err.contains("android: 1.9 (190): optional → required"), raise.err)
        // -q: scripts get no preview, only errors.
        XCTAssertEqual(h.ok("-q recommend --clear --platform all --yes").err, "")
    }

    func testTerminalAsksAndYesSkips() {
        let h = Harness()
        h.sample()
        let before = bytes(h)
        let no = h.run(["force", "2.0", "--platform", "ios"], terminal: true, answer: "n")
        XCTAssertEqual(no.status, 1)
        XCTAssertTrue(no.err.contains("impact:") && no.err.contains("Apply this change? [y/N]") && no.err.contains("cancelled"), no.err)
        XCTAssertEqual(bytes(h), before)
        let yes = h.run(["force", "2.0", "--platform", "ios"], terminal: true, answer: "y")
        XCTAssertEqual(yes.status, 0, yes.err)
        let skipped = h.run(["policy", "set", "1.0", "force", "--platform", "ios", "--yes"], terminal: true, answer: nil)
        XCTAssertEqual(skipped.status, 0, skipped.err)
        XCTAssertFalse(skipped.err.contains("[y/N]"), skipped.err)
        // A refused change shows no impact and asks nothing.
        let refused = h.run(["recommend", "9.0", "--platform", "ios"], terminal: true, answer: "y")
        XCTAssertEqual(refused.status, 1)
        XCTAssertFalse(refused.err.contains("impact"), refused.err)
    }

    func testMaintenanceStartAndPinsShowTheirImpact() {
        let h = Harness()
        h.sample()
        let pin = h.ok("policy set 1.1 force --platform ios --yes")
        XCTAssertTrue(pin.err.contains("ios: 1.1 (110): optional → required"), pin.err)
        let before = bytes(h)
        let dry = h.ok("maintenance start --for 2h --platform android --dry-run")
        XCTAssertTrue(dry.err.contains("android: 2.0.0 (200): none → maintenance"), dry.err)
        XCTAssertTrue(dry.err.contains("android: 1.9 (190): optional → maintenance"), dry.err)
        XCTAssertFalse(dry.err.contains("ios:"), dry.err)
        XCTAssertTrue(dry.err.contains("dry run, nothing changed"), dry.err)
        XCTAssertEqual(bytes(h), before)
    }

    /// Commands that only read; every other command must take --dry-run.
    static let readOnly: Set<String> = ["", "status", "check", "log", "export", "plan", "approve", "keys generate", "keys list", "help", "completion", "verify", "publish", "conformance export",
                                        "project", "project list", "project show", "platform", "platform list", "platform show",
                                        "version", "version list", "version show", "notes", "notes show", "policy", "policy list",
                                        "maintenance", "maintenance status", "maintenance list", "message", "message show",
                                        "rules", "rules show", "store show", "rollout", "rollout show"]

    func testEveryCommandThatChangesStateTakesDryRun() {
        let entries = ModelWalk.entries(Relctl.tree.model)
        var checked = 0
        for e in entries {
            let hasDryRun = e.command.options.contains { $0.long == "dry-run" }
            // A group runs nothing itself; its commands are checked one by one.
            if PreviewTests.readOnly.contains(e.key) || !e.command.subcommands.isEmpty { continue }
            XCTAssertTrue(hasDryRun, "'relctl \(e.key)' changes state but has no --dry-run (or add it to readOnly if it only reads)")
            checked += 1
        }
        XCTAssertGreaterThanOrEqual(checked, 20)
        // Every read-only entry exists, so the list cannot hide a renamed command.
        for key in PreviewTests.readOnly { XCTAssertTrue(entries.contains { $0.key == key }, "no command '\(key)'") }
    }

    func testDryRunChangesNothingForEveryExample() {
        var ran = 0
        for e in ModelWalk.entries(Relctl.tree.model) where e.command.options.contains(where: { $0.long == "dry-run" }) && e.key != "publish" {
            for example in e.command.examples {
                let h = Harness()
                h.sample()
                h.ok("version add 2.1.0 --platform ios --build 210 --unreleased")
                h.ok("maintenance schedule --from 2026-12-01T02:00:00Z --until 2026-12-01T04:00:00Z --yes")
                let before = try? Data(contentsOf: URL(fileURLWithPath: h.db))
                let words = Array(Harness.split(example.command).dropFirst()) + ["--dry-run"]
                // An example naming its own --db runs as written (init's does; nothing may appear there).
                let status = words.contains("--db") ? PastedHintTests.run(words, h).0 : h.run(words).status
                if let i = words.firstIndex(of: "--db") { XCTAssertFalse(FileManager.default.fileExists(atPath: words[i + 1]), example.command) }
                XCTAssertNotEqual(status, 2, "\(example.command) --dry-run")
                XCTAssertEqual(try? Data(contentsOf: URL(fileURLWithPath: h.db)), before, "\(example.command) --dry-run changed the database")
                ran += 1
            }
        }
        XCTAssertGreaterThanOrEqual(ran, 10)
    }
}

final class InitFolderTests: XCTestCase {
    func testInitInAMissingFolderNamesTheFolder() {
        let h = Harness()
        let r = h.run(["init"], database: h.dir + "/sub/dir/x.db")
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.err.contains("the folder \(h.dir)/sub/dir does not exist"), r.err)
        XCTAssertTrue(r.err.contains("mkdir -p"), r.err)
        XCTAssertFalse(r.err.contains("permissions"), r.err)
        XCTAssertFalse(FileManager.default.fileExists(atPath: h.dir + "/sub"))
        h.ok("init")
        let file = h.run(["init"], database: h.db + "/x.db")
        XCTAssertTrue(file.err.contains("is not a folder"), file.err)
    }
}

final class ColourTests: XCTestCase {
    func styled(_ env: [String: String], terminal: Bool = true, noColor: Bool = false) -> Bool {
        let c = Context(env: env)
        c.stderrIsTerminal = terminal
        c.noColor = noColor
        return c.stderrStyled
    }

    func testNoColorCountsOnlyWhenNotEmptyAndDumbTerminalsGetNone() {
        XCTAssertTrue(styled(["TERM": "xterm"]))
        XCTAssertTrue(styled(["NO_COLOR": ""]), "an empty NO_COLOR does not count (no-color.org)")
        XCTAssertFalse(styled(["NO_COLOR": "1"]))
        XCTAssertFalse(styled(["TERM": "dumb"]))
        XCTAssertFalse(styled([:], noColor: true))
        XCTAssertFalse(styled([:], terminal: false))
        // The error label is coloured exactly when styled.
        for (env, coloured) in [(["NO_COLOR": ""], true), (["TERM": "dumb"], false), (["NO_COLOR": "x"], false)] {
            let c = Context(env: env)
            c.stderrIsTerminal = true
            _ = Runner.run(["statsu"], context: c, tree: Relctl.tree)
            XCTAssertEqual(c.stderr.text.hasPrefix("\u{1B}[31m"), coloured, "\(env): \(c.stderr.text)")
        }
    }

    func testQuietIsDocumentedAsItBehaves() {
        let h = Harness()
        h.sample()
        XCTAssertTrue(Globals.options.first { $0.long == "quiet" }!.help.contains("warnings"))
        // Warnings are about correctness: -q keeps them; messages go.
        let r = h.ok("-q version add 2.0.0 --platform ios --build 201")
        XCTAssertTrue(r.err.hasPrefix("warning: "), r.err)
        XCTAssertFalse(r.err.contains("added"), r.err)
    }
}

/// One JSON dialect (issue 12, point 4): camelCase keys in every --json document.
final class JSONDialectTests: XCTestCase {
    static func snakeKeys(_ value: Any, path: String = "") -> [String] {
        if let o = value as? [String: Any] {
            return o.flatMap { k, v in (k.contains("_") || k.contains("-") ? ["\(path).\(k)"] : []) + snakeKeys(v, path: path + "." + k) }
        }
        if let a = value as? [Any] { return a.flatMap { snakeKeys($0, path: path + "[]") } }
        return []
    }

    func testEveryJSONDocumentUsesCamelCaseKeys() {
        let h = Harness()
        h.sample()
        h.ok("maintenance schedule --from 2026-12-01T02:00:00Z --until 2026-12-01T04:00:00Z --message \"Back soon\" --yes")
        h.ok("message set optional --locale en --later-button \"Not now\"")
        h.ok("force 1.1 --platform ios --yes")
        var checked = 0
        for line in ["status", "check 1.0 --platform ios", "check 1.0 --platform android --build 100", "message show", "message show --locale tr",
                     "version list", "version show 2.0 --platform ios", "project list", "project show shop", "platform list", "platform show ios",
                     "policy list", "maintenance list", "maintenance status", "log", "rules show", "notes show 2.0 --platform ios",
                     "check 1.0 --platform ios --at 2026-12-01T03:00:00Z"] {
            let r = h.ok(line + " --json")
            guard let doc = r.json else { XCTFail("\(line) --json is not JSON: \(r.out)"); continue }
            XCTAssertEqual(JSONDialectTests.snakeKeys(doc), [], "\(line) --json")
            checked += 1
        }
        let check = h.ok("check 1.0 --platform ios --json").json as! [String: Any]
        XCTAssertNotNil((check["message"] as? [String: Any])?["updateButton"], "\(check)")
        XCTAssertEqual(checked, 18)
        XCTAssertEqual((h.ok("notes show 2.0 --platform ios --json").json as! [String: Any])["platform"] as? String, "ios")
        XCTAssertEqual((h.ok("platform show ios --json").json as! [String: Any])["project"] as? String, "shop")
        // Write commands print what they changed, exactly as show prints it.
        let added = h.ok("version add 2.5 --platform ios --build 250 --notes Fresh --json").out
        XCTAssertEqual(added, h.ok("version show 2.5 --platform ios --json").out)
        XCTAssertEqual(h.ok("force 2.0 --platform ios --json --yes").out, h.ok("policy list --platform ios --json").out)
        XCTAssertEqual(h.ok("platform edit ios --min-os 16.0 --json").out, h.ok("platform show ios --json").out)
        XCTAssertEqual(h.ok("rules set --major critical --json --yes").out, h.ok("rules show --json").out)
        XCTAssertEqual(h.ok("message set required --locale en --title Now --json").out, h.ok("message show --locale en --json").out)
        XCTAssertEqual(h.ok("project edit shop --name Shop2 --json").out, h.ok("project show shop --json").out)
        // A dry run prints what the change would make, and makes nothing.
        let dry = h.ok("force 2.1 --platform ios --json --dry-run --allow-unreleased").out
        XCTAssertTrue(dry.contains(#""force":{"build":null,"deadline":null,"version":"2.1"}"#), dry)
        XCTAssertFalse(h.ok("policy list --platform ios --json").out.contains(#""version":"2.1"}"#))
    }
}

/// `relctl log` filters (issue 12, point 5).
final class LogFilterTests: XCTestCase {
    func actions(_ h: Harness, _ line: String) -> [String] {
        ((h.ok(line + " --json").json as! [String: Any])["entries"] as! [[String: Any]]).map { $0["action"] as! String }
    }

    func testLogFiltersByProjectPlatformActionAndTime() {
        let h = Harness()
        h.sample()
        h.ok("project add alpha --name Alpha")
        h.ok("-p alpha platform add ios --bundle-id com.example.alpha")
        XCTAssertEqual(actions(h, "log -p alpha"), ["platform add ios bundle=com.example.alpha", "project add alpha name=Alpha"])
        h.now += 3 * 86400
        h.ok("-p shop force 2.0 --platform all --yes")
        h.ok("-p shop recommend 1.1 --platform ios --yes")
        XCTAssertEqual(actions(h, "log --since 2d").count, 2)
        XCTAssertEqual(actions(h, "log --since 1h").count, 2)
        XCTAssertEqual(actions(h, "log --since 2026-11-29T00:00:00Z").count, 13)
        XCTAssertEqual(actions(h, "log --action force"), [actions(h, "log --since 1h")[1]])
        XCTAssertTrue(actions(h, "log --action force")[0].hasPrefix("force "))
        XCTAssertEqual(actions(h, "log --action \"version add\" --platform android").count, 2)
        XCTAssertEqual(actions(h, "log --platform android --since 1h").count, 1, "force names android; recommend does not")
        XCTAssertEqual(actions(h, "log --action \"version add\" --limit 1").count, 1)
        XCTAssertEqual(actions(h, "log --action forc"), [], "an action matches whole words")
        let none = h.ok("log --action forc")
        XCTAssertEqual(none.out, "", "no table for no entries")
        XCTAssertTrue(none.err.contains("no logged change matches"), none.err)
        XCTAssertTrue(h.fails("log --since yesterday", status: 2, "invalid --since 'yesterday'").err.contains("a duration ago, like 2d"))
        let entry = (h.ok("log --limit 1 --json").json as! [String: Any])["entries"] as! [[String: Any]]
        XCTAssertEqual(Set(entry[0].keys), ["id", "at", "user", "project", "action", "kind", "platforms", "reverts", "changes"])
        h.fails("log --platform iphone", status: 2, "unknown platform")
        h.fails("log --since yesterdayish", status: 2, "invalid")
    }
}

/// Help (issue 12, point 6): an example on every page, real ones, never wrapped inside quotes.
final class HelpExampleTests: XCTestCase {
    func testEveryCommandHasARealExample() throws {
        var count = 0
        for e in ModelWalk.entries(Relctl.tree.model) {
            XCTAssertFalse(e.command.examples.isEmpty, "'relctl \(e.key)' has no example")
            for example in e.command.examples {
                // A shell redirection ends the command.
                let words = Array(Harness.split(example.command).dropFirst().prefix { $0 != ">" })
                let parsed = try Parser.parse(words, root: Relctl.tree.model)
                // A group's examples show its subcommands.
                XCTAssertEqual(Array(parsed.path.map(\.name).prefix(e.path.count)), e.path.map(\.name), "\(example.command) is not an example of 'relctl \(e.key)'")
                XCTAssertNoThrow(try Parser.validatePositionals(parsed), example.command)
                count += 1
            }
        }
        XCTAssertGreaterThanOrEqual(count, 60)
    }

    func testReadingExamplesRunOnASampleProject() {
        var ran = 0
        // approve's example signs with a key of the reader's: ApprovalTests runs it with real keys; keys generate's
        // writes a key into the reader's home: SignedFilesTests makes keys.
        for e in ModelWalk.entries(Relctl.tree.model) where PreviewTests.readOnly.contains(e.key) && !["publish", "verify", "completion", "approve", "keys generate"].contains(e.key) {
            for example in e.command.examples {
                let words = Array(Harness.split(example.command).dropFirst())
                guard (try? Parser.parse(words, root: Relctl.tree.model))?.path.count == e.path.count else { continue }
                let h = Harness()
                h.sample()
                // Files and folders named (`status --html FILE`, `export -o FILE`, `plan FILE`, `conformance
                // export ./suite`) are the harness's, not the package's; a configuration file to read is the sample's.
                let files = words.map { $0.hasSuffix(".html") || $0.hasSuffix(".json") ? h.dir + "/" + $0
                                        : $0.hasPrefix("./") ? h.dir + "/" + $0.dropFirst(2) : $0 }
                if e.key == "plan", let file = files.first(where: { $0.hasSuffix(".json") }) {
                    XCTAssertEqual(h.run(["export", "-o", file]).status, 0)
                }
                let r = h.run(files)
                XCTAssertEqual(r.status, 0, "\(example.command): \(r.err)")
                ran += 1
            }
        }
        XCTAssertGreaterThanOrEqual(ran, 20)
    }

    func testHelpNeverBreaksInsideAQuotedArgument() {
        for width in [40, 60, 80] {
            for e in ModelWalk.entries(Relctl.tree.model) {
                let text = Help.render(e.path, width: width)
                for line in text.split(separator: "\n") {
                    XCTAssertEqual(line.filter { $0 == "\"" }.count % 2, 0, "width \(width), 'relctl \(e.key)': a line breaks inside quotes: \(line)")
                }
                // A wrapped example pastes back as the command it shows.
                for example in e.command.examples {
                    let shown = Help.wrapCommand(example.command, width: width, indent: 2)
                    let joined = shown.replacingOccurrences(of: " \\\n", with: " ").split(separator: " ").joined(separator: " ")
                    XCTAssertEqual(joined, example.command.split(separator: " ").joined(separator: " "))
                    XCTAssertTrue(text.contains(shown), "\(e.key) at \(width)")
                }
            }
        }
    }
}

/// The README's quick start, run verbatim by bash with the real binary: it
/// must keep working on any day (no hard-coded instants that expire).
final class ReadmeQuickStartTests: XCTestCase {
    static func quickStart() -> [String] {
        let readme = Package.read("README.md")
        guard let start = readme.range(of: "## Quick start\n") else { return [] }
        let rest = readme[start.upperBound...]
        let section = rest[..<(rest.range(of: "\n## ")?.lowerBound ?? rest.endIndex)]
        return section.split(separator: "\n").filter { $0.hasPrefix("    relctl ") }.map { String($0.dropFirst(4)) }
    }

    func testQuickStartRunsVerbatim() throws {
        let lines = ReadmeQuickStartTests.quickStart()
        XCTAssertGreaterThanOrEqual(lines.count, 10)
        for line in lines {
            // An absolute instant in the quick start expires: use --for or relative times.
            XCTAssertNil(line.range(of: #"20[0-9][0-9]-[0-9][0-9]-[0-9][0-9]"#, options: .regularExpression), "the quick start hard-codes a date: \(line)")
        }
        let h = Harness()
        let bin = URL(fileURLWithPath: Package.binary).deletingLastPathComponent().path
        let script = "set -e\n" + lines.map { "echo '$ \($0.replacingOccurrences(of: "'", with: ""))' >&2\n\($0)\n" }.joined()
        try script.write(toFile: h.dir + "/quick-start.sh", atomically: true, encoding: .utf8)
        let r = try Proc.run("/bin/bash", [h.dir + "/quick-start.sh"], env: ["PATH": bin + ":/usr/bin:/bin", "HOME": h.dir, "TZ": "UTC"], cwd: h.dir)
        XCTAssertEqual(r.status, 0, r.err)
        XCTAssertTrue(r.out.contains("verdict:       optional"), "the check after the force floor with its grace period: \(r.out)")
        XCTAssertTrue(r.out.contains("[force-deadline]"), "and why: \(r.out)")
        XCTAssertTrue(FileManager.default.fileExists(atPath: h.dir + "/out/index.json"), r.err)
        XCTAssertTrue(r.err.contains("impact:"), "maintenance start previews its impact: \(r.err)")
    }
}

/// The manual (issue 12, point 8): the topics a reader needs, each example once.
final class ManualTopicsTests: XCTestCase {
    func testManualExplainsVerdictsFilesMessagesAndHostingAndListsEachExampleOnce() {
        let page = ManPage.generate(Relctl.tree.model)
        for title in ["HOW A VERDICT IS DECIDED", "PUBLISHED FILES", "MESSAGE RESOLUTION", "HOSTING"] {
            XCTAssertTrue(page.contains(".Sh \(title)\n"), title)
        }
        XCTAssertTrue(page.contains("The force floor"), "the verdict steps come from Topics")
        let examples = page.components(separatedBy: ".Sh EXAMPLES\n")[1].components(separatedBy: ".Sh SEE ALSO")[0]
        let commands = examples.split(separator: "\n").filter { $0.hasPrefix("relctl ") }
        XCTAssertEqual(commands.count, Set(commands).count, "an example appears twice in the manual")
        XCTAssertGreaterThanOrEqual(commands.count, 50)
        XCTAssertEqual(page, Package.read("man/relctl.1"), "run make generate")
    }
}

/// Every --json shape has a JSON Schema beside control.json's, and what the
/// commands print validates against it (issue 12, point 4).
final class JSONSchemaTests: XCTestCase {
    /// Command lines and the schema (schema/json/NAME.schema.json) their output follows.
    static let cases: [(String, String?)] = [
        ("project show shop", "project"), ("project add blog --name Blog", "project"), ("project edit shop --name Shop2", "project"),
        ("project list", "projects"), ("platform show ios", "platform"), ("platform edit ios --min-os 16.0", "platform"),
        ("-p blog platform add macos --bundle-id com.example.blog", "platform"), ("platform list", "platforms"),
        ("version show 2.0 --platform ios", "version"), ("version add 2.2 --platform ios --build 220 --notes New", "version"),
        ("version edit 2.2 --platform ios --min-os 16.0", "version"), ("version list", "versions"),
        ("version add 2.3 --platform ios --build 230 --unreleased", "version"), ("version release 2.3 --platform ios", "versions"),
        ("version add 2.4 --platform ios,android --build 240 --unreleased", "versions"),
        ("notes show 2.0 --platform ios", "notes"), ("notes set 2.0 --platform ios --locale tr Yeni", "notes-set"),
        ("policy list", "policy"), ("force 1.1 --platform ios --yes", "policy"), ("recommend 1.9 --platform android --yes", "policy"),
        ("policy set 1.0 force --platform ios --yes", "policy"), ("policy clear 1.0 --platform ios --yes", "policy"),
        ("maintenance schedule --from 2026-12-01T02:00:00Z --until 2026-12-01T04:00:00Z --message Later --yes", "window"),
        ("maintenance list", "windows"), ("maintenance status", "maintenance-status"),
        ("message set optional --locale en --later-button Later", "messages"), ("message show --locale tr", "messages"),
        ("rules show", "rules"), ("rules set --major critical --yes", "rules"), ("check 1.0 --platform ios --locale tr", "check"),
        ("status", "status"), ("log", "log"), ("publish out --dry-run", "publish"), ("publish out", "publish"), ("verify out", "verify"),
        ("deploy out ./remote --dry-run", "deploy"), ("deploy out ./remote", "deploy"),
        ("maintenance start --for 1h --platform android --yes", "window"), ("check 1.9 --platform android --build 190", "check"),
        ("maintenance stop --yes", "maintenance-stop"), ("undo --dry-run", "revert"), ("undo --yes", "revert"),
        ("export -o shop.relctl.json", nil), ("plan shop.relctl.json", "plan"), ("force 2.0 --platform ios --yes", "policy"),
        ("plan shop.relctl.json", "plan"), ("apply shop.relctl.json --yes", "apply"),
        ("keys generate signing.pem", "keys-generate"), ("keys trust ebVWLo/mVPlAeLES6KmLp5AfhTrmlb7X4OORC60ElmQ= --yes", "keys"), ("keys list", "keys"),
        ("recommend 2.2 --platform ios --rollout 1,5,100 --yes", "policy"), ("rollout show", "rollout"), ("check 1.0 --platform ios --install-id abc", "check"),
        ("status", "status"), ("rollout halt --platform ios --yes", "rollout"), ("rollout resume --platform ios --yes", "rollout"), ("rollout finish --platform ios --yes", "rollout"),
        ("platform edit ios --storefronts us,de", "platform"), ("store show", "store"), ("status", "status"), ("check 1.0 --platform ios --country de", "check"),
    ]

    func testEveryJSONOutputValidatesAgainstItsSchema() throws {
        let h = Harness()
        h.sample()
        h.ok("project use shop")
        // deploy runs rclone: no user configuration, a home of its own.
        h.env["RCLONE_CONFIG"] = "/dev/null"
        h.env["HOME"] = h.dir
        let previous = FileManager.default.currentDirectoryPath
        _ = FileManager.default.changeCurrentDirectoryPath(h.dir)
        defer { _ = FileManager.default.changeCurrentDirectoryPath(previous) }
        var used = Set<String>()
        for (line, name) in JSONSchemaTests.cases {
            // nil: a step that sets up the next (its output is no --json document).
            guard let name else { XCTAssertEqual(h.run(Harness.split(line)).status, 0, line); continue }
            let r = h.run(Harness.split(line) + ["--json"])
            XCTAssertEqual(r.status, 0, "\(line): \(r.err)")
            let doc = try JSONReader.parse(Array(r.out.utf8))
            let validator = try SchemaValidator(path: Package.root + "/schema/json/\(name).schema.json")
            XCTAssertEqual(validator.validate(doc), [], "\(line) --json against \(name).schema.json: \(r.out)")
            used.insert(name)
        }
        let initialised = h.run(["init", "--json"], database: h.dir + "/new.db")
        XCTAssertEqual(try SchemaValidator(path: Package.root + "/schema/json/init.schema.json").validate(try JSONReader.parse(Array(initialised.out.utf8))), [])
        used.insert("init")
        // approve needs ssh-keygen and keys: ApprovalTests validates its document (make check).
        used.insert("approve")
        // status without a project on a database of several: FleetTests validates it.
        used.insert("status-fleet")
        // push needs keys and the mock services: PushTests validates its document and deploy's pushes.
        used.insert("push")
        let files = try FileManager.default.contentsOfDirectory(atPath: Package.root + "/schema/json")
        XCTAssertEqual(Set(files.map { $0.replacingOccurrences(of: ".schema.json", with: "") }), used, "every schema is tested, every shape has one")
        // A schema can fail: a snake_case key is refused.
        let rules = try SchemaValidator(path: Package.root + "/schema/json/rules.schema.json")
        XCTAssertFalse(rules.validate(.object(["rules": .object([:]), "release_delay_days": .int(1)])).isEmpty)
    }
}

/// Repeating a change says "unchanged" and logs nothing (issue 12, point 5).
final class UnchangedWriteTests: XCTestCase {
    func testRepeatingAChangeLogsNothing() {
        let h = Harness()
        h.sample()
        for line in ["force 2.0 --platform all --yes", "recommend 1.1 --platform ios --yes", "policy set 1.0 force --platform ios --yes",
                     "notes set 2.0 --platform ios --locale tr Yeni", "rules set --major critical --yes", "project use shop",
                     "version release 2.0 --platform ios --at 2026-11-01T00:00:00Z", "project edit shop --name Boutique",
                     "platform edit ios --min-os 16.0", "version edit 2.0 --platform ios --build 201",
                     "message set required --locale en --title \"Update now\""] {
            h.ok(line)
            let before = try? Data(contentsOf: URL(fileURLWithPath: h.db))
            let revision = h.ok("log --limit 1 --json").out
            let again = h.ok(line)
            XCTAssertTrue(again.err.contains("unchanged"), "\(line): \(again.err)")
            XCTAssertEqual(h.ok("log --limit 1 --json").out, revision, "\(line) logged a change that changed nothing")
            XCTAssertEqual(try? Data(contentsOf: URL(fileURLWithPath: h.db)), before, line)
        }
        // A real change still logs.
        let r = h.ok("force 1.1 --platform ios --yes")
        XCTAssertFalse(r.err.contains("unchanged"), r.err)
        XCTAssertTrue(h.ok("log --limit 1").out.contains("force ios 1.1"))
    }
}

final class PublishLogTests: XCTestCase {
    func testPublishesThatChangeFilesAreLoggedAndDoNotChangeTheRevision() throws {
        let h = Harness()
        h.sample()
        let previous = FileManager.default.currentDirectoryPath
        _ = FileManager.default.changeCurrentDirectoryPath(h.dir)
        defer { _ = FileManager.default.changeCurrentDirectoryPath(previous) }
        let first = h.ok("publish out --json").json as! [String: Any]
        let entry = ((h.ok("log --limit 1 --json").json as! [String: Any])["entries"] as! [[String: Any]])[0]
        XCTAssertEqual(entry["user"] as? String, "tester")
        XCTAssertEqual(entry["action"] as? String, "publish out revision \(first["revision"]!): \((first["added"] as! [String]).count) added, 0 changed, 0 removed")
        let index = try Data(contentsOf: URL(fileURLWithPath: h.dir + "/out/index.json"))
        // Republishing: same revision, same bytes, and nothing to log.
        let again = h.ok("publish out --json").json as! [String: Any]
        XCTAssertEqual(again["revision"] as? Int, first["revision"] as? Int)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: h.dir + "/out/index.json")), index)
        XCTAssertEqual(actionsCount(h, "publish"), 1)
        h.ok("publish out --dry-run")
        XCTAssertEqual(actionsCount(h, "publish"), 1, "a dry run is not logged")
        h.ok("force 2.0 --platform ios --yes")
        h.ok("publish out")
        XCTAssertEqual(actionsCount(h, "publish"), 2)
    }

    func actionsCount(_ h: Harness, _ action: String) -> Int {
        ((h.ok("log --action \(action) --json").json as! [String: Any])["entries"] as! [Any]).count
    }
}
