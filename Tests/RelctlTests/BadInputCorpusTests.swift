import Foundation
import XCTest
@testable import RelctlCLI
@testable import RelctlCore
@testable import RelctlModel
@testable import RelctlPublish
@testable import RelctlStore
@testable import SQLite

/// Bad input over every command and option: each case is refused with its
/// exit status (2 for what the user typed, 1 for what the data or the
/// database refuses), a short message on stderr, no crash text, nothing on
/// stdout, and the database byte-identical.
final class BadInputCorpusTests: XCTestCase {
    struct Case { var args: [String]; var status: Int32 }

    static let badVersions = ["", "x", "1..0", "1.2.3.4.5", "-1", "1.", ".1", "1.0-beta", "v1.0", "1.0 0", "١.٠",
                              "99999999999999999999.0", "1/0", "../1.0"]
    static let badBuilds = ["", "x", "-5", "1.5", "99999999999999999999", "0x10", "1 2"]
    static let badTimes = ["", "tomorrow", "2026-13-01T00:00:00Z", "2026-02-30T00:00:00Z", "2026-11-29T25:00:00Z",
                           "0000-01-01T00:00:00Z", "9999-12-31T23:59:59-01:00", "2026-11-29T12:00:00+25:00", "24:00",
                           "12:60", "2026-11-29", "20261129T120000Z", "2026-11-29T12:00:00.Z", "１２:００", "2026-11-29T12:00:00Zjunk"]
    static let badDurations = ["", "0m", "90", "m", "1x", "1h-", "99999999w", "9999999w9999999w", "-1h", "1.5h", "1h 30m",
                               "99999999d99999999d99999999d"]
    static let badLocales = ["e", "english", "en_US_POSIX", "en-", "-en", "en--US", "zh-Hans-CN-x", "../en", "en/US", "1en"]
    static let badSlugs = ["Shop", "-shop", "shop_1", String(repeating: "a", count: 65), "shop/x", "..", "ş"]

    /// Cases against the sample database (Harness.sample plus a scheduled window).
    static var cases: [Case] {
        var c: [Case] = []
        func add(_ status: Int32, _ args: [String]) { c.append(Case(args: args, status: status)) }
        for v in badVersions {
            for cmd in [["version", "add", v], ["version", "show", v], ["version", "edit", v, "--build", "5"],
                        ["version", "release", v], ["version", "rm", v, "--yes"], ["notes", "set", v, "line"],
                        ["notes", "show", v], ["notes", "rm", v, "--locale", "en"], ["force", v], ["recommend", v],
                        ["policy", "set", v, "force"], ["policy", "clear", v], ["check", v]] {
                add(2, cmd + ["--platform", "ios"])
            }
        }
        for b in badBuilds {
            for cmd in [["version", "add", "3.0"], ["version", "edit", "2.0"], ["force", "2.0"], ["recommend", "2.0"], ["check", "1.0"]] {
                add(2, cmd + ["--platform", "ios", "--build", b])
            }
        }
        for t in badTimes {
            add(2, ["status", "--at", t])
            add(2, ["check", "1.0", "--platform", "ios", "--at", t])
            add(2, ["publish", "out", "--at", t])
            add(2, ["version", "add", "3.0", "--platform", "ios", "--released", t])
            add(2, ["version", "edit", "2.0", "--platform", "ios", "--released", t])
            add(2, ["version", "release", "2.0", "--platform", "ios", "--at", t])
            add(2, ["maintenance", "schedule", "--from", t, "--until", "2027-01-01T00:00:00Z"])
            add(2, ["maintenance", "start", "--until", t])
        }
        for d in badDurations { add(2, ["maintenance", "start", "--for", d]) }
        // Commands added after the corpus was first written: deadlines, window edits, verify, import, time zones.
        for d in badDurations { add(2, ["force", "2.0", "--platform", "ios", "--after", d]); add(2, ["maintenance", "edit", "1", "--for", d]) }
        for t in badTimes { add(2, ["force", "2.0", "--platform", "ios", "--deadline", t]); add(2, ["maintenance", "edit", "1", "--until", t]) }
        for id in ["x", "#", "0", "-1", ""] {
            add(2, ["maintenance", "edit", id, "--for", "1h"]); add(2, ["maintenance", "message", id, "--title", "x"])
        }
        for l in badLocales { add(2, ["maintenance", "message", "1", "--locale", l, "--title", "x"]) }
        add(2, ["force", "2.0", "--platform", "ios", "--after", "1d", "--deadline", "2027-01-01T00:00:00Z"])
        add(2, ["force", "--clear", "--platform", "ios", "--after", "1d"])
        add(2, ["force", "2.0", "--platform", "ios", "--deadline", "2020-01-01T00:00:00Z"])
        add(2, ["maintenance", "edit", "1"])
        add(1, ["maintenance", "edit", "999", "--for", "1h"])
        add(1, ["maintenance", "message", "999", "--title", "x"])
        for z in ["Mars/Olympus", "Europe/Atlantis", "../../etc/passwd", "UTC+99", "A+3"] { add(2, ["project", "edit", "shop", "--time-zone", z]) }
        add(1, ["verify", "no-such-dir"])
        add(2, ["verify", ""])
        add(1, ["import", "retired", "no-such-file.json", "--platform", "ios", "--locale", "en"])
        add(2, ["import", "retired", "", "--platform", "ios"])
        add(1, ["import", "andversion", "relctl.db", "--platform", "ios"])
        add(2, ["import", "bogus", "x.json"])
        add(1, ["import", "control", "no-such-file.json"])
        add(1, ["import", "control", "relctl.db"])
        add(2, ["import", "control", ""])
        for s in badSlugs { add(2, ["import", "control", "relctl.db", "-p", s]) }
        // deploy (issue 14): no tree, an empty or option-like remote, a bad list path, bad --whats-new.
        add(1, ["deploy", "no-such-dir", "remote"])
        add(2, ["deploy", "out", ""])
        add(2, ["deploy", "out", "-remote"])
        add(2, ["deploy", "out", "remote", "--changed-list", ""])
        add(2, ["deploy", "out", "remote", "--at", "soon"])
        for n in ["-1", "x", "1001", "", "1.5"] { add(2, ["rules", "set", "--whats-new", n]) }
        // The second hardening round (issue 29): --exec-timeout, files with bytes that are not UTF-8 (made by the test).
        for d in badDurations { add(2, ["publish", "out", "--watch", "--exec", "true", "--exec-timeout", d]) }
        add(2, ["publish", "out", "--exec-timeout", "5m"])
        add(2, ["publish", "out", "--watch", "--exec-timeout", "5m"])
        add(1, ["import", "retired", "not-utf8.json", "--platform", "ios", "--locale", "en"])
        add(1, ["import", "andversion", "not-utf8.json", "--platform", "ios"])
        add(1, ["import", "control", "not-utf8.json"])
        for l in badLocales {
            add(2, ["project", "add", "new", "--default-locale", l])
            add(2, ["project", "edit", "shop", "--default-locale", l])
            add(2, ["project", "edit", "shop", "--locales", "en,\(l)"])
            add(2, ["version", "add", "3.0", "--platform", "ios", "--locale", l, "--notes", "x"])
            add(2, ["notes", "set", "2.0", "--platform", "ios", "--locale", l, "x"])
            add(2, ["notes", "show", "2.0", "--platform", "ios", "--locale", l])
            add(2, ["check", "1.0", "--platform", "ios", "--locale", l])
            add(2, ["maintenance", "start", "--locale", l, "--message", "x"])
            add(2, ["message", "set", "required", "--locale", l, "--title", "x"])
            add(2, ["message", "show", "--locale", l])
        }
        for l in ["en,", ",en", "en,,tr", " , "] { add(2, ["project", "edit", "shop", "--locales", l]) }
        for s in badSlugs + [""] { add(2, ["project", "add", s]) }
        for s in ["nosuch", "shop2"] {
            add(1, ["project", "show", s]); add(1, ["project", "rm", s, "--yes"]); add(1, ["project", "use", s])
            add(1, ["-p", s, "status"]); add(1, ["project", "edit", s, "--name", "X"])
        }
        for p in ["iphone", "", "IOS2", "../ios", "android/x"] { add(2, ["platform", "add", p, "--bundle-id", "a.b"]) }
        for p in ["iphone", "macos"] { add(1, ["version", "list", "--platform", p]); add(1, ["platform", "show", p]) }
        for b in ["com", "com..x", "com.ex ample", "", ".com.x"] { add(2, ["platform", "edit", "ios", "--bundle-id", b]) }
        for a in ["id123", "0123", "12a", "1234567890123", ""] { add(2, ["platform", "edit", "ios", "--app-store-id", a]) }
        for u in ["ftp://x", "apps.apple.com", "https://a b", ""] { add(2, ["platform", "edit", "ios", "--store-url", u]) }
        for m in ["x", "15..0", ""] { add(2, ["platform", "edit", "ios", "--min-os", m]) }
        for o in ["x", "15..0", "", "1.2.3.4.5", "99999999999", "-1"] { add(2, ["check", "1.0", "--platform", "ios", "--os", o]) }
        let long = String(repeating: "n", count: 300)
        for args in [["publish", ""], ["publish", "out/\(long)/x"], ["publish", "out", "--at"], ["notes", "set", "2.0", "--platform", "ios", "--file", ""],
                     ["version", "add", "3.0", "--platform", "ios", "--notes-file", ""], ["version", "add", "3.0", "--platform", "ios", "--notes-file", long]] {
            add(2, args)
        }
        add(1, ["publish", "relctl.db"])
        // The status page of `status --html`: an unusable path, a folder, a folder that does not exist.
        add(2, ["status", "--html", ""]); add(2, ["status", "--html", "out/\(long)/x"])
        add(2, ["status", "--html", "-", "--json"]); add(1, ["status", "--html", "/"]); add(1, ["status", "--html", "/nonexistent-relctl-folder/status.html"])
        add(1, ["notes", "set", "2.0", "--platform", "ios", "--file", "no-such-file"])
        add(1, ["notes", "set", "2.0", "--platform", "ios", "--file", "."])
        for args in [["--nosuch"], ["statsu"], ["status", "--nosuch"], ["status", "extra"], ["log", "--limit"], ["-p"],
                     ["--version", "status"], ["--version", "project"], ["status", "--version"], ["--", "status"],
                     ["policy"], ["policy", "--json"], ["project"], ["maintenance", "-q"], ["rules", "--", "show"],
                     ["status", "--at", "now", "--at", "now"], ["check"], ["notes", "set", "2.0"], ["completion", "tcsh"], ["help", "nosuch"],
                     ["policy", "set", "2.0", "maybe", "--platform", "ios"], ["message", "set", "bogus", "--title", "x"],
                     ["maintenance", "cancel", "x"], ["maintenance", "cancel", "#"], ["maintenance", "schedule", "--from", "2027-01-01T00:00:00Z"],
                     ["maintenance", "start", "--for", "1h", "--until", "2027-01-01T00:00:00Z"], ["maintenance", "start", "--message", "{nope}"],
                     ["maintenance", "start", "--message", "back at {until}"], ["message", "set", "required", "--title", "{until}"],
                     ["maintenance", "schedule", "--from", "2027-01-02T00:00:00Z", "--until", "2027-01-01T00:00:00Z"],
                     ["maintenance", "start", "--until", "2020-01-01T00:00:00Z"], ["project", "edit", "shop"], ["rules", "set"],
                     ["version", "rm", "1.0", "--platform", "ios"], ["project", "rm", "shop"],
                     ["revert"], ["revert", "x", "--yes"], ["revert", "0", "--yes"], ["revert", "-3", "--yes"], ["revert", "#", "--yes"],
                     ["revert", "99999999999999999999", "--yes"], ["revert", "1.5", "--yes"], ["revert", "", "--yes"], ["undo", "extra"],
                     ["undo"], ["revert", "3", "--with-later"], ["undo", "--with-later=yes"], ["export", "--all-projects", "-p", "shop"], ["export", "extra"],
                     ["plan"], ["apply"], ["export", "--all-projects", "--as", "x"], ["export", "--as", "Not A Slug"], ["plan", "a.json", "b.json"], ["apply", "a.json", "--expect"], ["plan", "a.json", "--exit-code=yes"],
                     ["conformance", "export"], ["conformance", "export", "a", "b"], ["conformance"], ["conformance", "export", ""],
                     ["approve"], ["approve", "a.json"], ["approve", "a.json", "--key", "k", "--token", "xyz"], ["approve", "a.json", "--key", "k", "--token", "0123456789ABCDEF"],
                     ["apply", "a.json", "--require-approvals", "0"], ["apply", "a.json", "--require-approvals", "x", "--allowed-signers", "s"],
                     ["apply", "a.json", "--require-approvals", "2"], ["apply", "a.json", "--break-glass", "--reason", "x"],
                     ["apply", "a.json", "--reason", "x"], ["apply", "a.json", "--require-approvals", "2", "--allowed-signers", "s", "--break-glass"],
                     ["project", "edit", "--formats", "bogus"], ["project", "edit", "--formats", ""], ["project", "edit", "--formats", "all,siren"],
                     ["project", "add", "blog", "--formats", "siren,siren"], ["version", "add", "3.0", "--platform", "ios", "--build", "300", "--released", "2d"],
                     ["version", "edit", "2.0", "--platform", "ios", "--released", "90m"],
                     ["keys"], ["keys", "generate"], ["keys", "trust"], ["keys", "trust", "x", "--yes"], ["keys", "trust", "QUJD", "--yes"],
                     ["keys", "trust", "ebVWLo/mVPlAeLES6KmLp5AfhTrmlb7X4OORC60ElmR=", "--yes"], ["keys", "retire", "zz", "--yes"],
                     ["keys", "list", "extra"], ["keys", "generate", "a", "b"], ["publish", "out", "--signing-key", "missing.pem"],
                     ["publish", "out", "--signing-key", "relctl.db"], ["publish", "out", "--signing-key", ""], ["keys", "generate", ""]] {
            add(2, args)
        }
        // Store-aware floors: storefronts and countries, and the store's files (the sample names no storefronts).
        for code in ["uk", "u", "usa", "us,,de", ",", "US DE", "xx", "1a", "../us", "ü", String(repeating: "us,", count: 300)] {
            add(2, ["platform", "edit", "ios", "--storefronts", code]); add(2, ["check", "1.0", "--platform", "ios", "--country", code])
        }
        add(2, ["platform", "add", "macos", "--bundle-id", "a.b", "--storefronts", "zz"])
        add(2, ["store", "fetch", "--platform", "android"]); add(2, ["store", "import", "play", "x.json", "--platform", "ios"])
        add(2, ["store", "show", "extra"]); add(2, ["store", "import", "play"])
        for args in [["store", "fetch"], ["store", "import", "play", "missing.json"], ["store", "import", "play", "/"],
                     ["store", "import", "play", "relctl.db"], ["store", "import", "play", "not-utf8.json"], ["store", "import", "play", "deep.json"],
                     ["store", "show", "-p", "nosuch"]] {
            add(1, args)
        }
        // Staged recommends: the schedule, its step length, what unstaged files say, the install id.
        for v in ["0", "101", "5,2", "1.234", "", "abc", "1,,5", "-1", "1e2", "100,100", (1...51).map(String.init).joined(separator: ","), String(repeating: "9", count: 40)] {
            add(2, ["recommend", "2.0", "--platform", "ios", "--rollout", v])
        }
        for e in ["10s", "400d", "0m", "x", ""] { add(2, ["recommend", "2.0", "--platform", "ios", "--rollout", "5", "--every", e]) }
        add(2, ["recommend", "2.0", "--platform", "ios", "--every", "1d"]); add(2, ["recommend", "2.0", "--platform", "ios", "--rollout", "5", "--unstaged", "maybe"])
        add(2, ["force", "2.0", "--platform", "ios", "--rollout", "5"]); add(2, ["rollout", "show", "extra"])
        add(2, ["rollout", "show", "--at", "soonish"]); add(2, ["maintenance", "start", "--for", "1h", "--rollout", "5"])
        for step in ["halt", "resume", "finish", "cancel"] { add(1, ["rollout", step, "--platform", "ios", "--yes"]); add(1, ["rollout", step, "--yes"]) }
        // Pushes: nothing to send through, half an APNs key, files that are not keys, a topic that is none, push options without --push.
        add(2, ["push"]); add(2, ["push", "--apns-key", "/nonexistent.p8"]); add(1, ["push", "--fcm-credentials", "/nonexistent.json"])
        add(1, ["push", "--fcm-credentials", "/etc/hostname"]); add(1, ["push", "--fcm-credentials", "/dev/zero"])
        add(1, ["push", "--apns-key", "/etc/hostname", "--apns-key-id", "ABC123DEFG", "--apns-team-id", "DEF123GHIJ", "--apns-tokens", "/etc/hostname"])
        add(2, ["push", "--apns-key", "/etc/hostname", "--apns-key-id", "bad id", "--apns-team-id", "DEF123GHIJ", "--apns-tokens", "/etc/hostname"])
        add(2, ["push", "--urgent", "extra"]); add(2, ["deploy", "out", "remote", "--fcm-credentials", "x.json"]); add(2, ["deploy", "out", "remote", "--push"])
        for id in ["a b", "", String(repeating: "x", count: 129), "tab\there"] { add(2, ["check", "1.0", "--platform", "ios", "--install-id", id]) }
        for n in ["0", "-1", "x", "99999999999999999999", "1.5", ""] { add(2, ["log", "--limit", n]) }
        for n in ["366", "-1", "x", "1e3", "", "99999999999999999999"] { add(2, ["rules", "set", "--release-delay", n]) }
        for n in ["8761", "-1", "x", ""] { add(2, ["rules", "set", "--remind-after", n]) }
        for p in ["bogus", "force/hourly", "loud/daily", "", "critical/"] { add(2, ["rules", "set", "--all", p]); add(2, ["rules", "set", "--major", p]) }
        add(2, ["rules", "set", "--outdated", "maybe"])
        for args in [["version", "add", "2.0", "--platform", "ios"], ["version", "add", "2.5", "--platform", "ios", "--build", "200"],
                     ["force", "9.0", "--platform", "ios"], ["recommend", "9.0", "--platform", "ios"], ["check", "1.0", "--platform", "macos"],
                     ["version", "show", "7.7", "--platform", "ios"], ["notes", "show", "7.7", "--platform", "ios"],
                     ["policy", "set", "2.0", "force", "--platform", "ios"], ["maintenance", "cancel", "999", "--yes"],
                     ["message", "rm", "optional", "--locale", "de"], ["project", "add", "shop"], ["platform", "add", "ios", "--bundle-id", "a.b"],
                     ["status"] + ["-p", "nosuch"], ["revert", "9999", "--yes"], ["revert", "1", "--yes"], ["undo", "-p", "nosuch", "--yes"],
                     ["export", "-p", "nosuch"], ["export", "-o", "/"], ["plan", "missing.json"], ["apply", "missing.json", "--yes"],
                     ["apply", "/", "--yes"], ["plan", "/dev/null"], ["conformance", "export", "/dev/null"], ["conformance", "export", "/proc/suite"],
                     ["keys", "retire", "0123456789abcdef", "--yes"], ["keys", "generate", "relctl.db"], ["keys", "generate", "/nonexistent-relctl-folder/k.pem"]] {
            add(1, args)
        }
        return c
    }

    func assertRefused(_ h: Harness, _ args: [String], _ status: Int32, database: String? = nil,
                       file: StaticString = #filePath, line: UInt = #line) {
        let path = database ?? h.db
        let readable = FileSystem.kind(of: path) == .file
        let before = readable ? FileManager.default.contents(atPath: path) : nil
        let r = h.run(args, database: path)
        let shown = args.map { $0.isEmpty ? "''" : $0 }.joined(separator: " ")
        XCTAssertEqual(r.status, status, "\(shown): \(r.err)", file: file, line: line)
        XCTAssertTrue(r.err.hasPrefix("relctl: "), "\(shown): \(r.err)", file: file, line: line)
        XCTAssertLessThanOrEqual(r.err.split(separator: "\n").count, 3, "\(shown): \(r.err)", file: file, line: line)
        XCTAssertFalse(r.err.contains("Fatal error") || r.err.contains("Stack dump"), "\(shown)", file: file, line: line)
        XCTAssertEqual(r.out, "", "\(shown) printed on stdout", file: file, line: line)
        if readable { XCTAssertEqual(FileManager.default.contents(atPath: path), before, "\(shown) changed the database", file: file, line: line) }
        else { XCTAssertEqual(FileSystem.kind(of: path), FileSystem.kind(of: path), file: file, line: line) }
    }

    func testEveryBadValueIsRefusedCleanly() {
        let h = Harness()
        h.sample()
        h.ok("maintenance schedule --from 2026-12-01T02:00:00Z --until 2026-12-01T04:00:00Z --yes")
        let previous = FileManager.default.currentDirectoryPath
        _ = FileManager.default.changeCurrentDirectoryPath(h.dir)
        defer { _ = FileManager.default.changeCurrentDirectoryPath(previous) }  // later tests' processes inherit it
        // A Retired file whose title holds bytes that are not UTF-8 (for each importer: the first thing refused).
        let notUTF8 = Array(#"{"messaging":{"forced":{"title":""#.utf8) + [0xC3, 0x28] + Array(#"","message":"M","continueButtonText":"U"}},"versions":[]}"#.utf8)
        XCTAssertTrue(FileManager.default.createFile(atPath: h.dir + "/not-utf8.json", contents: Data(notUTF8)))
        // A million '{': a nesting no reader may follow on its stack.
        XCTAssertTrue(FileManager.default.createFile(atPath: h.dir + "/deep.json", contents: Data(repeating: UInt8(ascii: "{"), count: 1_000_000)))
        let cases = BadInputCorpusTests.cases
        for c in cases { assertRefused(h, c.args, c.status) }
        XCTAssertFalse(FileManager.default.fileExists(atPath: h.dir + "/out"), "a refused publish made its folder")
        print("bad-input corpus: \(cases.count) value cases")
    }

    /// Databases that cannot be used, under every kind of command.
    static func unusableDatabases(in dir: String) throws -> [(name: String, path: String, status: Int32)] {
        let fm = FileManager.default
        var out: [(String, String, Int32)] = [("missing", dir + "/missing.db", 1)]
        _ = fm.createFile(atPath: dir + "/empty.db", contents: Data())
        out.append(("empty", dir + "/empty.db", 1))
        var generator = SystemRandomNumberGenerator()
        _ = fm.createFile(atPath: dir + "/corrupt.db", contents: Data((0..<8192).map { _ in UInt8.random(in: 0...255, using: &generator) }))
        out.append(("random bytes", dir + "/corrupt.db", 1))
        let foreign = try Connection(path: dir + "/foreign.db", readOnly: false, create: true)
        try foreign.execute("CREATE TABLE t(x); INSERT INTO t VALUES (1)")
        out.append(("foreign", dir + "/foreign.db", 1))
        for (name, sql) in [("newer", "PRAGMA user_version = 99"), ("no schema version", "PRAGMA user_version = 0")] {
            let path = dir + "/\(name.replacingOccurrences(of: " ", with: "-")).db"
            let h = Harness()
            h.ok("init")
            try Connection(path: h.db, readOnly: false, create: false).execute(sql)
            try fm.copyItem(atPath: h.db, toPath: path)
            out.append((name, path, 1))
        }
        // A relctl database whose pages were overwritten past the header.
        let h = Harness()
        h.sample()
        var bytes = try Data(contentsOf: URL(fileURLWithPath: h.db))
        for i in 4096..<bytes.count { bytes[i] = UInt8(truncatingIfNeeded: i &* 31) }
        _ = fm.createFile(atPath: dir + "/damaged.db", contents: bytes)
        out.append(("damaged pages", dir + "/damaged.db", 1))
        XCTAssertEqual(mkfifo(dir + "/fifo.db", 0o644), 0)
        out.append(("FIFO", dir + "/fifo.db", 1))
        try fm.createDirectory(atPath: dir + "/folder.db", withIntermediateDirectories: true)
        out.append(("directory", dir + "/folder.db", 1))
        return out
    }

    static let databaseCommands: [[String]] = [
        ["status"], ["log"], ["project", "list"], ["version", "list"], ["check", "1.0"], ["publish", "out"], ["project", "add", "x"],
        ["maintenance", "start"], ["rules", "set", "--release-delay", "2"], ["maintenance", "list"], ["platform", "add", "ios", "--bundle-id", "a.b"],
        ["undo", "--yes"], ["revert", "2", "--yes"], ["export"],
    ]

    func testEveryUnusableDatabaseIsRefusedByEveryCommand() throws {
        let h = Harness()
        let previous = FileManager.default.currentDirectoryPath
        _ = FileManager.default.changeCurrentDirectoryPath(h.dir)
        defer { _ = FileManager.default.changeCurrentDirectoryPath(previous) }  // later tests' processes inherit it
        var count = 0
        for db in try BadInputCorpusTests.unusableDatabases(in: h.dir) {
            for args in BadInputCorpusTests.databaseCommands {
                assertRefused(h, args, db.status, database: db.path)
                count += 1
            }
            // init refuses what is there, except where there is nothing yet (it reads
            // only the header, so it cannot tell damaged pages either).
            if !["missing", "empty", "damaged pages"].contains(db.name) { assertRefused(h, ["init"], 1, database: db.path); count += 1 }
        }
        // A read-only file: every write refused, reads fine.
        h.ok("init")
        h.ok("project add shop")
        chmod(h.db, 0o444)
        for args in [["project", "add", "x"], ["maintenance", "start"], ["rules", "set", "--release-delay", "2"],
                     ["platform", "add", "ios", "--bundle-id", "a.b"], ["project", "use", "shop"]] {
            assertRefused(h, args, 1)
            count += 1
        }
        XCTAssertEqual(h.run(["status"]).status, 0)
        // An empty --db: SQLite would open a private temporary database and init would "succeed".
        for args in [["--db", "", "status"], ["--db", "", "init"], ["--db=", "project", "add", "x"]] {
            let context = Context(env: ["TZ": "UTC"])
            XCTAssertEqual(Runner.run(args, context: context, tree: Relctl.tree), 2, "\(args)")
            XCTAssertTrue(context.stderr.text.hasPrefix("relctl: --db is empty"), context.stderr.text)
            count += 1
        }
        print("bad-input corpus: \(count) database cases")
        XCTAssertGreaterThanOrEqual(BadInputCorpusTests.cases.count + count, 300)
    }
}
