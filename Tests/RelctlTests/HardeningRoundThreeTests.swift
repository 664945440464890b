import Foundation
import XCTest
@testable import RelctlCLI
@testable import RelctlClient
@testable import RelctlCore
@testable import RelctlModel
@testable import RelctlPublish
@testable import RelctlStore
@testable import SQLite

/// Issue 44, the third hardening round: one defect per test, each failed before its fix.
final class HardeningRoundThreeTests: XCTestCase {
    let fm = FileManager.default

    /// Runs `body` on a thread with an app's background stack (512 KiB):
    /// a reader that recursed once per bracket would overflow it and crash
    /// the test process, which fails the suite.
    func onAppThread(_ body: @escaping @Sendable () throws -> Void) {
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            do { try body() } catch { XCTFail("\(error)") }
            done.signal()
        }
        thread.stackSize = 512 * 1024
        thread.start()
        XCTAssertEqual(done.wait(timeout: .now() + 300), .success, "the readers finished")
    }

    /// Every bracket shape, a million deep, and 100 KB of `{` (a `{` where a name belongs).
    static let hostile: [(name: String, bytes: [UInt8])] = {
        let n = 1_000_000
        func deep(_ open: String, _ close: String = "") -> [UInt8] {
            Array((String(repeating: open, count: n) + String(repeating: close, count: n)).utf8)
        }
        return [("100 KB of {", Array(repeating: UInt8(ascii: "{"), count: 100_000)),
                ("[ x 1M", deep("[")), ("{ x 1M", deep("{")), ("[] x 1M closed", deep("[", "]")),
                ("{\"a\": x 1M", deep("{\"a\":")), ("{\"a\":[ x 1M", deep("{\"a\":[")), ("[{\"a\": x 1M", deep("[{\"a\":")),
                ("[{ x 1M", deep("[{")), ("{\"schemaVersion\":1,\"project\": then [ x 1M", Array("{\"schemaVersion\":1,\"project\":".utf8) + deep("[")),
                ("{\"a\":{ closed x 1M", deep("{\"a\":", "}"))]
    }()

    // 1. A `{` in the place of a name started the depth again at 0, so 100 KB
    // of `{` crashed every JSON reader. Each reader refuses each shape, on a
    // 512 KiB stack, and one nested to the limit still reads.
    func testHostileNestingIsRefusedByEveryReaderOnAnAppsStack() throws {
        let dir = NSTemporaryDirectory() + "/relctl-nesting-\(getpid())"
        try fm.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? fm.removeItem(atPath: dir) }
        onAppThread {
            for (name, bytes) in Self.hostile {
                XCTAssertNil(try? JSONReader.parse(bytes), name)
                XCTAssertNil(try? JSONReader.members(bytes), name)
                var i = 0
                XCTAssertNil(try? JSONReader.skipValue(bytes, &i), name)
                XCTAssertNil(JSONReader.repeatedKey(bytes).map { _ in () }, name)
                XCTAssertNil(JSONReader.loneSurrogate(bytes), name)
                _ = JSONReader.invalidUTF8(bytes + [0xFF])
                _ = JSONReader.fractionalNumber(bytes + Array("1.5".utf8))
                XCTAssertThrowsError(try ControlImport.read(bytes), name)
                XCTAssertThrowsError(try ConfigFormat.read(bytes), name)
                XCTAssertNil(IndexFormat.parse(bytes), name)
                XCTAssertEqual(TreeFiles.readIndex(bytes).count, 0, name)
                // What a DIR holds: the journal, the state.
                for file in [".relctl-journal", TreeState.name] {
                    _ = try? Data(bytes).write(to: URL(fileURLWithPath: dir + "/" + file))
                }
                _ = TreeFiles.readJournal(dir + "/.relctl-journal")
                XCTAssertNil(TreeState.read(root: dir), name)
                // The app: control.json, the what's-new file, its own stored choices.
                let device = ReleaseControl.Device(platform: "ios", version: "1.0", languages: ["en"])
                let store = URL(fileURLWithPath: dir + "/app")
                try? FileManager.default.createDirectory(at: store, withIntermediateDirectories: true)
                for file in ["control.json", "choices.json", "whatsnew.json"] { _ = try? Data(bytes).write(to: store.appendingPathComponent(file)) }
                guard let control = try? ReleaseControl(device: device, storage: store) else { XCTFail("the client starts on a damaged store"); continue }
                XCTAssertThrowsError(try control.load(bytes), name)
                XCTAssertThrowsError(try control.loadWhatsNew(bytes), name)
                XCTAssertNotNil(control.lastError, name)
                // An appcast, through the other reader with the same limit.
                let xml = Array(String(repeating: "<a>", count: 100_000).utf8)
                XCTAssertThrowsError(try XMLReader.parse(xml))
            }
            // At the limit a document still reads, and is written back the same.
            let limit = Nesting.maxDepth
            let deepest = Array((String(repeating: "{\"a\":[", count: limit / 2) + "1" + String(repeating: "]}", count: limit / 2)).utf8)
            XCTAssertEqual((try? JSONReader.parse(deepest))?.compactBytes(), deepest + [10])
            let over = Array((String(repeating: "[", count: limit + 1) + String(repeating: "]", count: limit + 1)).utf8)
            XCTAssertNil(try? JSONReader.parse(over))
        }
    }

    /// The commands, on the files and rows a user or a bucket hands them.
    func testHostileNestingIsAOneLineErrorFromEveryCommand() throws {
        let h = PublishTests.scenario()
        let bad = h.dir + "/bad.json"
        try Data(Self.hostile[0].bytes).write(to: URL(fileURLWithPath: bad))
        h.fails("apply \(bad) --yes", "bad.json")
        h.fails("plan \(bad)", "bad.json")
        h.fails("import retired \(bad) --platform ios --yes", "bad.json")
        // A DIR's index.json.
        let out = h.dir + "/out"
        XCTAssertEqual(h.run(["publish", out]).status, 0)
        try Data(Self.hostile[1].bytes).write(to: URL(fileURLWithPath: out + "/index.json"))
        let verify = h.run(["verify", out])
        XCTAssertEqual(verify.status, 1, verify.err)
        XCTAssertEqual(h.run(["publish", out]).status, 0, "publish writes over an index it cannot read")
        // A recorded row: log and undo.
        try sqlite3(h, "UPDATE audit_change SET before = CASE WHEN before IS NULL THEN NULL ELSE replace(hex(zeroblob(50000)), '0', '{') END, after = CASE WHEN after IS NULL THEN NULL ELSE replace(hex(zeroblob(50000)), '0', '[') END")
        h.fails("log", "bad row")
        h.fails("undo --yes", "bad row")
    }

    // 5. A lone surrogate escape was stored as U+FFFD; it is refused with the value's path.
    func testALoneSurrogateIsRefusedWithItsPath() throws {
        for text in [#""\ud800""#, #""a\udc00b""#, #""\ud800\u0041""#, #""\ud800x""#, #""\uDBFF""#] {
            XCTAssertNil(try? JSONReader.parse(Array(text.utf8)), text)
            var i = 0
            XCTAssertNil(try? JSONReader.skipValue(Array(text.utf8), &i), text)
        }
        XCTAssertEqual(try JSONReader.parse(Array(#""\ud83d\ude00""#.utf8)), .string("😀"), "a pair is one character")
        let doc = Array(#"{"projects": {"shop": {"name": "Sh\ud800op"}}}"#.utf8)
        XCTAssertEqual(JSONReader.loneSurrogate(doc), "projects.shop.name")
        XCTAssertEqual(JSONReader.loneSurrogate(Array(#"{"a": ["x", "\udfff"]}"#.utf8)), "a[1]")
        XCTAssertNil(JSONReader.loneSurrogate(Array(#"{"a": "\\ud800", "b": "\ud83d\ude00"}"#.utf8)), "an escaped backslash, and a pair")

        let h = PublishTests.scenario()
        let file = h.dir + "/shop.relctl.json"
        h.ok("export -o \(file)")
        var text = try String(contentsOfFile: file, encoding: .utf8)
        text = text.replacingOccurrences(of: #""name": "Shop""#, with: #""name": "Sh\ud800op""#)
        XCTAssertTrue(text.contains(#"\ud800"#))
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        let r = h.fails("apply \(file) --yes", "projects.shop.name")
        XCTAssertTrue(r.err.contains("surrogate"), r.err)

        // The control.json readers: relctl's import and the client's.
        let out = h.dir + "/out"
        XCTAssertEqual(h.run(["publish", out]).status, 0)
        var control = try String(contentsOfFile: out + "/shop/control.json", encoding: .utf8)
        let name = try XCTUnwrap(control.range(of: #""name":""#))
        control.insert(contentsOf: #"\udc01"#, at: name.upperBound)
        let bytes = Array(control.utf8)
        XCTAssertThrowsError(try ControlImport.read(bytes)) { XCTAssertTrue(($0 as! ImportProblem).message.contains("project.name"), "\($0)") }
        let client = try ReleaseControl(device: .init(platform: "ios", version: "1.0", languages: ["en"]))
        XCTAssertThrowsError(try client.load(bytes))
    }

    /// control.json read as a project (import, verify) looks for a lone
    /// surrogate and a fractional number only once its parse refuses the
    /// document: it names them as the text check before the parse did. On
    /// published documents with one value replaced by such a string or
    /// number (and the same with a plain one, which is read), then edited at
    /// random (values replaced, a byte put in or left out).
    func testControlReadNamesWhatTheTextCheckNames() throws {
        let h = PublishTests.scenario()
        let out = h.dir + "/out"
        XCTAssertEqual(h.run(["publish", out]).status, 0)
        let base = Array(try Data(contentsOf: URL(fileURLWithPath: out + "/shop/control.json")))
        XCTAssertNoThrow(try ControlImport.read(base))
        let quote = UInt8(ascii: "\""), backslash = UInt8(ascii: "\\")
        func isNumber(_ c: UInt8) -> Bool { (48...57).contains(c) || c == UInt8(ascii: "-") }
        // The value starting at `at` (a string or a number) replaced by `new`; false where none starts.
        func replace(_ doc: inout [UInt8], at: Int, with new: [UInt8]) -> Bool {
            guard at < doc.count else { return false }
            var end = at + 1
            if doc[at] == quote {
                while end < doc.count, doc[end] != quote { end += doc[end] == backslash ? 2 : 1 }
                end += 1
            } else if isNumber(doc[at]) {
                while end < doc.count, isNumber(doc[end]) { end += 1 }
            } else {
                return false
            }
            doc.replaceSubrange(at..<min(end, doc.count), with: new)
            return true
        }
        // Where a member's value starts: after each colon outside a string.
        func starts(_ doc: [UInt8]) -> [Int] {
            var out: [Int] = [], i = 0, inString = false
            while i < doc.count {
                if inString {
                    if doc[i] == backslash { i += 1 } else if doc[i] == quote { inString = false }
                } else if doc[i] == quote {
                    inString = true
                } else if doc[i] == UInt8(ascii: ":") {
                    out.append(i + 1)
                }
                i += 1
            }
            return out
        }
        func checked(_ doc: [UInt8]) -> String? {
            do throws(ImportProblem) { try ImportProblem.checkText(doc); return nil } catch { return error.message }
        }
        func refusal(_ doc: [UInt8]) -> String? {
            do throws(ImportProblem) { _ = try ControlImport.read(doc); return nil } catch { return error.message }
        }
        let strange = [#""\ud800""#, #""a\udc00b""#, #""\uDBFF\u0041""#, "1.5", "-2e3", "0.0"].map { Array($0.utf8) }
        // One value replaced: the escape or the fraction is the document's only problem.
        let first = (string: try XCTUnwrap(starts(base).first { base[$0] == quote && base[$0 + 1] != quote }),
                     number: try XCTUnwrap(starts(base).first { isNumber(base[$0]) }))
        for piece in strange {
            let at = piece[0] == quote ? first.string : first.number
            var plain = base, doc = base
            XCTAssertTrue(replace(&plain, at: at, with: Array((piece[0] == quote ? #""plain""# : "1").utf8)))
            XCTAssertNotNil(try? JSONReader.parse(plain), "replaced plainly, the document is JSON")
            XCTAssertTrue(replace(&doc, at: at, with: piece))
            let named = try XCTUnwrap(checked(doc), String(decoding: piece, as: UTF8.self))
            XCTAssertEqual(refusal(doc), named)
        }
        let bytes: [UInt8] = [0xFF, backslash, quote, UInt8(ascii: ","), UInt8(ascii: "."), UInt8(ascii: "e")]
        let values = strange + [#""x""#, "7", "-1"].map { Array($0.utf8) }
        var rng = SplitMix(seed: 44)
        var named = 0, invalid = 0, read = 0
        for _ in 0..<1_500 {
            var doc = base
            for _ in 0...rng.below(2) {
                if rng.chance(70) {
                    _ = replace(&doc, at: rng.pick(starts(doc)), with: rng.pick(values))
                } else if rng.chance(50) {
                    doc.insert(rng.pick(bytes), at: rng.below(doc.count))
                } else {
                    doc.remove(at: rng.below(doc.count))
                }
            }
            let problem = checked(doc)
            if let refused = refusal(doc) {
                if let problem {
                    XCTAssertEqual(refused, problem)
                    named += 1
                } else {
                    invalid += 1
                }
            } else {
                XCTAssertNil(problem, "read, though the text check names \(problem ?? "")")
                read += 1
            }
        }
        // Each outcome is met often: documents named by the text check, refused otherwise, and read.
        XCTAssertGreaterThan(named, 300, "named \(named), refused \(invalid), read \(read)")
        XCTAssertGreaterThan(invalid, 100, "named \(named), refused \(invalid), read \(read)")
        XCTAssertGreaterThan(read, 30, "named \(named), refused \(invalid), read \(read)")
    }

    // 9. A leading zero is no JSON number.
    func testALeadingZeroIsNoNumber() {
        for text in ["01", "-01", "00", "[1, 02]", "{\"build\": 0100}"] { XCTAssertNil(try? JSONReader.parse(Array(text.utf8)), text) }
        for (text, value) in [("0", Int64(0)), ("-0", 0), ("10", 10), ("-105", -105)] { XCTAssertEqual(try? JSONReader.parse(Array(text.utf8)), .int(value), text) }
    }
}

extension HardeningRoundThreeTests {
    // 7. apply --expect was not checked when the file changed nothing: a used
    // or made-up token exited 0. It is checked always.
    func testApplyChecksItsTokenEvenWhenNothingChanges() throws {
        let h = PublishTests.scenario()
        let file = h.dir + "/shop.relctl.json"
        h.ok("export -o \(file)")
        h.ok("force 2.0 --platform ios --yes")
        let plan = try XCTUnwrap(h.ok("plan \(file) --json").json as? [String: Any])
        let used = try XCTUnwrap(plan["expect"] as? String)
        h.ok("apply \(file) --expect \(used) --yes")
        // Applied: the same token again names a plan that is gone.
        h.fails("apply \(file) --expect \(used) --yes", "no longer the plan \(used)")
        h.fails("apply \(file) --expect 0123456789abcdef --yes", "no longer the plan 0123456789abcdef")
        // A plan of no change has a token of its own, which applies (nothing) while nothing moved.
        let none = try XCTUnwrap(h.ok("plan \(file) --json").json as? [String: Any])
        XCTAssertEqual(none["changes"] as? Bool, false)
        let token = try XCTUnwrap(none["expect"] as? String)
        XCTAssertNotEqual(token, used)
        XCTAssertTrue(h.ok("plan \(file)").out.contains("--expect \(token)"))
        h.ok("apply \(file) --expect \(token) --yes")
        // Once the database moved, that token no longer holds either.
        h.ok("recommend 2.0 --platform ios --yes")
        h.fails("apply \(file) --expect \(token) --yes", "no longer the plan \(token)")
    }
}

/// Issue 44, item 8: the renderer a tree names is what renders it.
final class FormatRevisionTests: XCTestCase {
    /// A format changed without moving the revision would leave every live
    /// tree rendered by the old code until its database changes.
    func testTheFormatRevisionMovesWithWhatTheFormatsWrite() throws {
        let golden = Package.root + "/Tests/RelctlTests/Golden"
        var all: [UInt8] = []
        for (path, bytes) in fileTree(golden).sorted(by: { $0.key < $1.key }) where path != "index.json" {
            all += Array(path.utf8) + [0] + Array(bytes) + [0]
        }
        let digest = SHA256.hex(all)
        XCTAssertEqual(digest, FormatRevision.goldenDigest,
                       "what the formats write changed (the golden files) at format revision \(FormatRevision.number): move FormatRevision.number to \(FormatRevision.number + 1) and goldenDigest to \(digest)")
        XCTAssertTrue(PublishCommand.generator.contains("formats \(FormatRevision.number)"))
        XCTAssertTrue(PublishCommand.generator.contains(Runner.version))
    }

    /// A tree whose index names another renderer has every file rendered again.
    func testATreeRenderedByAnotherRevisionIsRenderedAgain() throws {
        let h = PublishTests.scenario()
        let out = h.dir + "/out"
        XCTAssertEqual(h.run(["publish", out]).status, 0)
        let control = out + "/shop/control.json"
        let good = try Data(contentsOf: URL(fileURLWithPath: control))
        // As the previous revision wrote it: other bytes, listed so in index.json, and its name there and in the state.
        let old = alteredAtSameSize(control)
        try old.write(to: URL(fileURLWithPath: control))
        let index = out + "/index.json"
        try (try String(contentsOfFile: index, encoding: .utf8)).replacingOccurrences(of: SHA256.hex(Array(good)), with: SHA256.hex(Array(old)))
            .write(toFile: index, atomically: true, encoding: .utf8)
        let older = FormatRevision.generator(version: Runner.version).replacingOccurrences(of: "formats \(FormatRevision.number)", with: "formats \(FormatRevision.number - 1)")
        for name in ["index.json", TreeState.name] {
            let path = out + "/" + name
            let text = try String(contentsOfFile: path, encoding: .utf8)
            XCTAssertTrue(text.contains(PublishCommand.generator), name)
            try text.replacingOccurrences(of: PublishCommand.generator, with: older).write(toFile: path, atomically: true, encoding: .utf8)
        }
        XCTAssertEqual(h.run(["publish", out]).status, 0)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: control)), good, "rendered again by this revision")
        XCTAssertTrue(try String(contentsOfFile: out + "/index.json", encoding: .utf8).contains(PublishCommand.generator))
    }
}

extension HardeningRoundThreeTests {
    // 6. A 1.2 MB project name made a 9.6 MB control.json the client refuses,
    // while publish and verify passed. Every text has a limit, and publish
    // refuses a control.json the client would (one constant for both).
    func testEveryTextHasALimitAndPublishRefusesWhatTheClientWould() throws {
        let h = PublishTests.scenario()
        let huge = String(repeating: "N", count: 1_200_000)
        XCTAssertEqual(h.run(["project", "edit", "shop", "--name", huge]).status, 2)
        h.fails("project edit shop --name \(String(repeating: "N", count: 101))", status: 2, "more than \(Names.appNameMaximum)")
        let file = h.dir + "/shop.relctl.json"
        h.ok("export -o \(file)")
        let exported = try String(contentsOfFile: file, encoding: .utf8)
        try exported.replacingOccurrences(of: #""name": "Shop""#, with: "\"name\": \"\(huge)\"").write(toFile: file, atomically: true, encoding: .utf8)
        h.fails("apply \(file) --yes", "projects.shop.name")
        let long = String(repeating: "m", count: UserText.messageMaximum + 1)
        h.fails("message set optional --locale en --message \(long)", status: 2, "at most \(UserText.messageMaximum)")
        h.fails("platform edit ios --store-url https://example.com/\(String(repeating: "a", count: Names.urlMaximum))", status: 2, "more than \(Names.urlMaximum)")
        // At the limit, taken.
        h.ok("project edit shop --name \(String(repeating: "é", count: Names.appNameMaximum))")

        // A database edited by hand past every limit: publish refuses the control.json
        // the client would refuse, verify says so of one written anyway, and the client refuses it.
        let out = h.dir + "/out"
        let copy = "replace(hex(zeroblob(\(UserText.messageMaximum / 2))), '0', '😀')"
        try sqlite3(h, """
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 200)
            INSERT INTO maintenance(project_id, platform_id, starts_at, ends_at)
                SELECT (SELECT id FROM project WHERE slug = 'shop'), NULL, 1830000000 + i * 7200, 1830000000 + i * 7200 + 3600 FROM n;
            INSERT INTO maintenance_copy(window_id, locale, title, message)
                SELECT m.id, l.tag, \(copy), \(copy) FROM maintenance m, (SELECT 'en' AS tag UNION SELECT 'tr' UNION SELECT 'he') l WHERE m.starts_at > 1830000000;
            """)
        let refused = h.run(["publish", out])
        XCTAssertEqual(refused.status, 1, refused.err)
        XCTAssertTrue(refused.err.contains("8 MiB RelctlClient reads"), refused.err)
        XCTAssertFalse(fm.fileExists(atPath: out + "/shop/control.json"))
        let forced = h.run(["publish", out, "--\(PublishCommand.overrideFlag)"])
        XCTAssertEqual(forced.status, 0, forced.err)
        do {
            let control = try Data(contentsOf: URL(fileURLWithPath: out + "/shop/control.json"))
            XCTAssertGreaterThan(control.count, ControlDocument.maximumBytes)
            XCTAssertEqual(h.run(["verify", out]).status, 1)
            let client = try ReleaseControl(device: .init(platform: "ios", version: "1.0", languages: ["en"]))
            XCTAssertThrowsError(try client.load(Array(control)))
        }
        XCTAssertEqual(ReleaseControl.maximumBytes, ControlDocument.maximumBytes)
    }
}

extension HardeningRoundThreeTests {
    func rcloneWrapper(_ path: String, _ body: String) throws {
        try ("#!/bin/sh\n" + body + "\nexec /usr/bin/rclone \"$@\"\n").write(toFile: path, atomically: true, encoding: .utf8)
        XCTAssertEqual(chmod(path, 0o755), 0)
    }

    // 3. The deletions a killed deploy owed lived only in its DIR: CI publishing into a
    // fresh DIR each run left stale files on the remote for ever. The next deploy to
    // the remote finishes them, from any DIR. And (9) a remote index naming the
    // record never has the record deleted.
    func testAKilledDeployIsFinishedFromAFreshFolder() throws {
        let h = PublishTests.scenario()
        let remote = h.dir + "/remote", bin = h.dir + "/bin"
        for d in [remote, bin] { try fm.createDirectory(atPath: d, withIntermediateDirectories: true) }
        try rcloneWrapper(bin + "/rclone", "")
        // TMPDIR in the harness: the path list the killed deploy leaves goes with it.
        let env = ["TZ": "UTC", "PATH": bin + ":/usr/local/bin:/usr/bin:/bin", "HOME": h.dir, "RCLONE_CONFIG": "/dev/null", "TMPDIR": h.dir]
        func relctl(_ args: [String]) throws -> Proc { try Proc.run(Package.binary, ["--db", h.db] + args, env: env) }
        // Each run of CI publishes into a folder of its own.
        var run = 0
        func ciRun() throws -> (Proc, String) {
            run += 1
            let out = h.dir + "/ci-\(run)"
            XCTAssertEqual(try relctl(["publish", out, "-q"]).status, 0)
            return (try relctl(["deploy", out, remote]), out)
        }
        XCTAssertEqual(try ciRun().0.status, 0)
        h.ok("platform rm android --yes")
        let stale = fileTree(remote).keys.filter { $0.hasPrefix("shop/android/") }
        XCTAssertFalse(stale.isEmpty)
        try rcloneWrapper(bin + "/rclone", "[ \"$1\" = delete ] && { kill -9 $PPID; sleep 5; exit 1; }")
        let (killed, killedDir) = try ciRun()
        XCTAssertNotEqual(killed.status, 0)
        XCTAssertEqual(fm.contents(atPath: remote + "/index.json"), fm.contents(atPath: killedDir + "/index.json"), "killed after index.json")
        XCTAssertTrue(fm.fileExists(atPath: remote + "/" + stale[0]), "and before the deletions")
        try rcloneWrapper(bin + "/rclone", "")
        let (next, nextDir) = try ciRun()
        XCTAssertEqual(next.status, 0, next.err)
        XCTAssertTrue(next.err.contains("deleted \(stale.count)"), next.err)
        XCTAssertEqual(fileTree(remote), fileTree(nextDir), "the stale files are gone, deleted by a deploy from another folder")

        // A remote index that lists the record (hostile, or a hand's copy) does not get it deleted.
        var index = try String(contentsOfFile: remote + "/index.json", encoding: .utf8)
        let files = try XCTUnwrap(index.range(of: "\"files\":{"))
        index.insert(contentsOf: "\"\(releasesRecord)\":{\"size\":1,\"sha256\":\"\(String(repeating: "0", count: 64))\"},", at: files.upperBound)
        try index.write(toFile: remote + "/index.json", atomically: true, encoding: .utf8)
        let again = try relctl(["deploy", nextDir, remote])
        XCTAssertEqual(again.status, 0, again.err)
        XCTAssertTrue(fm.fileExists(atPath: remote + "/" + releasesRecord), "the record stays")
    }
}

extension HardeningRoundThreeTests {
    // 4. The watcher never read a good database with the (device, inode) of
    // one it refused: one fixed in place with cp, or a new file on a reused inode.
    func testTheWatcherReadsADatabaseFixedInPlace() throws {
        let h = Harness()
        h.sample()
        let backup = h.dir + "/backup.db"
        try fm.copyItem(atPath: h.db, toPath: backup)
        let w = try PublishWatchTests.Watcher(h, [])
        w.wait(for: "published (start)")
        // A file that is not a database put in its place.
        try Data("not a database".utf8).write(to: URL(fileURLWithPath: h.db + ".new"))
        XCTAssertEqual(rename(h.db + ".new", h.db), 0)
        w.wait(for: "was replaced by one that cannot be read")
        var st = stat()
        XCTAssertEqual(stat(h.db, &st), 0)
        let inode = st.st_ino
        // Fixed in place, as `cp backup.db relctl.db` does: the inode it refused, a good database.
        let cp = try Proc.run("/bin/cp", [backup, h.db])
        XCTAssertEqual(cp.status, 0, cp.err)
        XCTAssertEqual(stat(h.db, &st), 0)
        XCTAssertEqual(st.st_ino, inode, "the same file, fixed in place")
        w.wait(for: "published (database replaced)")
        XCTAssertTrue(w.log.contains("can be read again"), w.log)
        XCTAssertEqual(w.log.components(separatedBy: "cannot be read").count - 1, 1, w.log)
        XCTAssertEqual(w.stop(), 0)
    }
}

extension HardeningRoundThreeTests {
    // 9. A right-to-left override in a project name reversed the page title (and
    // every message after {app}): refused in a name, and left out of a title.
    func testADirectionOverrideNeverReversesATitleOrAMessage() throws {
        let h = PublishTests.scenario()
        for c in ["\u{202E}", "\u{202A}", "\u{2066}", "\u{2069}"] {
            h.fails("project edit shop --name \"Shop\(c)evil\"", status: 2, "direction override")
        }
        try sqlite3(h, "UPDATE project SET name = 'Shop' || char(8238) || 'evil' WHERE slug = 'shop'")
        h.fails("status", "direction override")
        let title = HTML.isolated("שופ \u{202E}evil\u{2066}x")
        XCTAssertFalse(title.unicodeScalars.contains { (0x202A...0x202E).contains($0.value) || (0x2066...0x2067).contains($0.value) }, title)
        XCTAssertEqual(title, "\u{2068}שופ evilx\u{2069}")
    }

    // 9. Small ones: a negative build, a unit given twice.
    func testANegativeBuildAndARepeatedUnitAreRefused() throws {
        XCTAssertThrowsError(try ReleaseControl(device: .init(platform: "ios", version: "1.0", build: -1, languages: ["en"]))) {
            XCTAssertEqual($0 as? ReleaseControl.Failure, .badBuild(-1))
        }
        XCTAssertNoThrow(try ReleaseControl(device: .init(platform: "ios", version: "1.0", build: 0, languages: ["en"])))
        for text in ["2d2d", "30m1h", "1h1h", "5s5s"] { XCTAssertThrowsError(try Time.parseDuration(text), text) }
        let expected: Int64 = 788_645
        XCTAssertEqual(try Time.parseDuration("1w2d3h4m5s"), expected)
        let h = PublishTests.scenario()
        h.fails("log --since 2d2d", status: 2, "2d2d")
    }
}

extension HardeningRoundThreeTests {
    func alive(_ pidFile: String) -> pid_t? {
        guard let text = try? String(contentsOfFile: pidFile, encoding: .utf8), let pid = pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines)) else { return nil }
        // A zombie is no longer running.
        let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
        guard kill(pid, 0) == 0, let close = stat.lastIndex(of: ")"), !stat[close...].hasPrefix(") Z") else { return nil }
        return pid
    }

    // 9. What --exec started in a session of its own (setsid), or orphaned, outlived the watcher.
    func testWhatExecStartsStopsWithTheWatcher() throws {
        let h = Harness()
        h.sample()
        let kept = h.dir + "/kept.pid", orphan = h.dir + "/orphan.pid"
        // One child in a session of its own that the command waits for, and one it orphans (a daemon's double fork).
        let command = "setsid sleep 300 & echo $! > \(kept); sh -c 'setsid sleep 301 & echo $! > \(orphan)'; wait"
        let w = try PublishWatchTests.Watcher(h, ["--exec", command], env: ["RELCTL_EXEC_GRACE": "1"])
        let deadline = Date().addingTimeInterval(10)
        while (alive(kept) == nil || alive(orphan) == nil) && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        let pids = [alive(kept), alive(orphan)]
        XCTAssertFalse(pids.contains(nil), "both started: \(w.log)")
        defer { for case let p? in pids { kill(p, SIGKILL) } }
        XCTAssertEqual(w.stop(), 0)
        Thread.sleep(forTimeInterval: 0.3)
        XCTAssertNil(alive(kept), "the setsid child stopped with the watcher: \(w.log)")
        XCTAssertNil(alive(orphan), "the orphan too: \(w.log)")
    }

    // 9. SIGTERM to a watcher waiting for another publish's lock waited out the 10 s wait.
    func testSIGTERMEndsALockWaitAtOnce() throws {
        let h = Harness()
        h.sample()
        let out = h.dir + "/out"
        h.ok("publish \(out) -q")
        // Another publish holds DIR (flock on the folder, as publish takes it).
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        holder.arguments = ["python3", "-c", "import fcntl, os, sys, time; fd = os.open(sys.argv[1], os.O_RDONLY); fcntl.flock(fd, fcntl.LOCK_EX); time.sleep(60)", out]
        try holder.run()
        defer { holder.terminate(); holder.waitUntilExit() }
        Thread.sleep(forTimeInterval: 0.3)
        let w = try PublishWatchTests.Watcher(h, [])
        Thread.sleep(forTimeInterval: 1.0)
        XCTAssertFalse(w.log.contains("published"), w.log)
        let start = Date()
        XCTAssertEqual(w.stop(), 0)
        XCTAssertLessThan(Date().timeIntervalSince(start), 3, "stopped within the wait: \(w.log)")
        XCTAssertTrue(w.log.contains("stopped (SIGTERM)"), w.log)
        XCTAssertFalse(w.log.contains("publish failed"), w.log)
    }
}

extension HardeningRoundThreeTests {
    // 9. conformance export wrote through a suite folder that was a link, and a
    // killed run left its scenario databases in TMPDIR for ever.
    func testConformanceExportKeepsToItsFolders() throws {
        let h = Harness()
        let suite = h.dir + "/suite", victim = h.dir + "/victim", tmp = h.dir + "/tmp"
        for d in [suite, victim, tmp] { try fm.createDirectory(atPath: d, withIntermediateDirectories: true) }
        let first = ConformanceScenarios.all[0].name
        try fm.createSymbolicLink(atPath: suite + "/" + first, withDestinationPath: victim)
        h.fails("conformance export \(suite)", "\(suite)/\(first) is not a folder")
        XCTAssertEqual(try fm.contentsOfDirectory(atPath: victim), [])

        // Killed (a real SIGKILL) while it builds its scenarios: the next run removes what it left.
        let env = ["TZ": "UTC", "TMPDIR": tmp, "PATH": "/usr/bin:/bin"]
        let p = Process()
        p.executableURL = URL(fileURLWithPath: Package.binary)
        p.arguments = ["conformance", "export", h.dir + "/killed"]
        p.environment = env
        try p.run()
        let deadline = Date().addingTimeInterval(20)
        while ((try? fm.contentsOfDirectory(atPath: tmp)) ?? []).isEmpty && Date() < deadline { usleep(2_000) }
        kill(p.processIdentifier, SIGKILL)
        p.waitUntilExit()
        let left = try fm.contentsOfDirectory(atPath: tmp)
        XCTAssertEqual(left.count, 1, "the killed run left its folder")
        let again = try Proc.run(Package.binary, ["conformance", "export", h.dir + "/again"], env: env)
        XCTAssertEqual(again.status, 0, again.err)
        XCTAssertEqual(try fm.contentsOfDirectory(atPath: tmp), [], "the next run removed it, and its own")
    }
}

extension HardeningRoundThreeTests {
    // 2. A colleague's older database rolled back the live files: CI applied a change
    // from git and deployed it; a colleague whose database lacked that change made one
    // unrelated edit and deployed, and was accepted. A deploy is refused unless the
    // database holds every change the remote's release was made from.
    func testAColleaguesOlderDatabaseDoesNotRollTheLiveFilesBack() throws {
        let t = try Team(), h = t.h, remote = t.remote, file = t.file
        let dev = h.dir + "/dev.db", colleague = h.dir + "/colleague.db"
        // The team's first file, from a working database.
        for line in ["init", "project add shop --name Shop", "platform add ios --bundle-id com.example.shop",
                     "version add 1.0 --platform ios --build 100", "version add 1.1 --platform ios --build 110"] { t.ok(dev, line + " -q") }
        t.ok(dev, "export --all-projects -o \(file)")
        // The colleague starts from that file.
        t.ok(colleague, "init -q")
        t.ok(colleague, "apply \(file) --yes -q")
        XCTAssertEqual(t.ci().status, 0)
        // A change reviewed in git: made in a database, exported, merged; CI applies and deploys it.
        t.ok(dev, "force 1.1 --platform ios --yes -q")
        t.ok(dev, "export --all-projects -o \(file)")
        let deployed = t.ci()
        XCTAssertEqual(deployed.status, 0, deployed.err)
        let live = fileTree(remote)
        XCTAssertTrue(String(decoding: live["shop/control.json"] ?? Data(), as: UTF8.self).contains("\"force\":{"), "CI's floor is live")

        // The colleague's database lacks it; one unrelated edit, then a deploy: refused, the remote as CI left it.
        t.ok(colleague, "notes set 1.1 --platform ios --locale en \"Faster\"")
        t.ok(colleague, "publish \(h.dir)/colleague -q")
        let refused = t.run(colleague, "deploy \(h.dir)/colleague \(remote)")
        XCTAssertEqual(refused.status, 1, refused.err)
        XCTAssertTrue(refused.err.contains("holds a release made from changes this database does not hold: shop: ios (revision"), refused.err)
        XCTAssertEqual(fileTree(remote), live)

        // Caught up (the team's file applied, the colleague's note again), the colleague deploys.
        t.ok(colleague, "apply \(file) --yes -q")
        t.ok(colleague, "notes set 1.1 --platform ios --locale en \"Faster\"")
        t.ok(colleague, "publish \(h.dir)/colleague -q")
        let caughtUp = t.run(colleague, "deploy \(h.dir)/colleague \(remote)")
        XCTAssertEqual(caughtUp.status, 0, caughtUp.err)
        // Now CI, from a file without the colleague's note, would take it back: refused until it is in git.
        let behind = t.ci()
        XCTAssertEqual(behind.status, 1, behind.err)
        XCTAssertTrue(behind.err.contains("shop: ios 1.1"), behind.err)
        t.ok(colleague, "export --all-projects -o \(file)")
        XCTAssertEqual(t.ci().status, 0, "the note in git: CI deploys again")

        // A revert made in the file itself (git revert): applied, a change of its own, which deploys.
        var text = try String(contentsOfFile: file, encoding: .utf8)
        let floor = try XCTUnwrap(text.range(of: #""force": {"build":null,"deadline":null,"version":"1.1"}"#))
        text.replaceSubrange(floor, with: #""force": null"#)
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        let reverted = t.ci()
        XCTAssertEqual(reverted.status, 0, reverted.err)
        XCTAssertFalse(String(decoding: fileTree(remote)["shop/control.json"] ?? Data(), as: UTF8.self).contains("\"force\":{"), "the floor is gone")
        // And the colleague's database, which still has the floor, does not bring it back,
        // not even after an edit of its own to the same platform (its history lacks the revert).
        for _ in 0..<6 { t.ok(colleague, "notes set 1.0 --platform ios --locale en \"Again\" -q"); t.ok(colleague, "notes rm 1.0 --platform ios --locale en --yes -q") }
        t.ok(colleague, "recommend 1.1 --platform ios --yes -q")
        t.ok(colleague, "publish \(h.dir)/colleague -q")
        let samePart = t.run(colleague, "deploy \(h.dir)/colleague \(remote)")
        XCTAssertEqual(samePart.status, 1, samePart.err)
        XCTAssertTrue(samePart.err.contains("shop: ios (revision"), samePart.err)
        // On purpose, it can.
        XCTAssertEqual(t.run(colleague, "deploy \(h.dir)/colleague \(remote) --allow-older").status, 0)
    }

    // Two copies of one database that each edited the same platform gave both edits
    // one revision (the count of changes alone), so the copy that had not made the
    // live release's change replaced it: a floor on the remote was taken back.
    func testCopiesThatEachEditAPlatformDoNotReplaceEachOthersRelease() throws {
        let t = try Team(), h = t.h, remote = t.remote
        let base = h.dir + "/base.db"
        for line in ["init", "project add shop --name Shop", "platform add ios --bundle-id com.example.shop",
                     "version add 1.0 --platform ios --build 100", "version add 2.0 --platform ios --build 200"] { t.ok(base, line + " -q") }
        let (ci, colleague, twin) = (h.dir + "/ci.db", h.dir + "/colleague.db", h.dir + "/twin.db")
        for copy in [ci, colleague, twin] { try Connection(path: base, readOnly: true, create: false).run("VACUUM INTO ?", [.text(copy)]) }
        func deploy(_ db: String) -> Harness.Result {
            let out = db + ".out"
            t.ok(db, "publish \(out) -q")
            return t.run(db, "deploy \(out) \(remote)")
        }
        t.ok(ci, "force 2.0 --platform ios --yes -q")
        XCTAssertEqual(deploy(ci).status, 0)
        let live = fileTree(remote)
        // Another edit of the same platform from the same state: not the change the release was made from.
        t.ok(colleague, "recommend 2.0 --platform ios --yes -q")
        let refused = deploy(colleague)
        XCTAssertEqual(refused.status, 1, refused.err)
        XCTAssertTrue(refused.err.contains("holds a release made from changes this database does not hold: shop: ios (revision"), refused.err)
        XCTAssertEqual(fileTree(remote), live, "the floor stays live")
        // The same edit from the same state is the same change: that copy replaces the release.
        t.ok(twin, "force 2.0 --platform ios --yes -q")
        let same = deploy(twin)
        XCTAssertEqual(same.status, 0, same.err)
    }

    // 2. Removals through the file: a version deleted from the file by hand (its
    // lineage line kept), and a project removed and exported, deploy from CI's fresh database.
    func testRemovalsThroughTheFileDeployFromAFreshDatabase() throws {
        let t = try Team(), h = t.h, remote = t.remote, file = t.file
        let dev = h.dir + "/dev.db"
        for line in ["init", "project add shop --name Shop", "-p shop platform add ios --bundle-id com.example.shop",
                     "-p shop version add 1.0 --platform ios --build 100", "-p shop version add 1.1 --platform ios --build 110",
                     "project add blog --name Blog", "-p blog platform add android --bundle-id com.example.blog",
                     "-p blog version add 1.0 --platform android --build 1"] { t.ok(dev, line + " -q") }
        t.ok(dev, "export --all-projects -o \(file)")
        XCTAssertEqual(t.ci().status, 0)
        // 1.0 deleted from the file by hand; its lineage line stays, its content is gone.
        var text = try String(contentsOfFile: file, encoding: .utf8)
        let line = try XCTUnwrap(text.components(separatedBy: "\n").first { $0.hasPrefix("            \"1.0\": {\"build\":100") })
        text = text.replacingOccurrences(of: line + "\n", with: "")
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        let removedByHand = t.ci()
        XCTAssertEqual(removedByHand.status, 0, removedByHand.err)
        XCTAssertTrue(fileTree(remote).keys.contains { $0.hasPrefix("blog/") }, "blog is still live")
        XCTAssertFalse(String(decoding: fileTree(remote)["shop/control.json"] ?? Data(), as: UTF8.self).contains("\"version\":\"1.0\""), "1.0 is gone")
        // A project removed in a database and exported with every project: CI's fresh database knows the removal.
        t.ok(dev, "apply \(file) --yes -q")
        t.ok(dev, "project rm blog --yes -q")
        t.ok(dev, "export --all-projects -o \(file)")
        XCTAssertTrue(try String(contentsOfFile: file, encoding: .utf8).contains("\"removed\": {"))
        let projectRemoved = t.ci()
        XCTAssertEqual(projectRemoved.status, 0, projectRemoved.err)
        XCTAssertFalse(fileTree(remote).keys.contains { $0.hasPrefix("blog/") }, "blog is gone from the remote")
    }
}

/// A team around one remote (a folder, through rclone): databases of its
/// own, the configuration file in git, and CI that builds a fresh database
/// and a fresh folder from the file on each run.
final class Team {
    let h = Harness()
    let remote: String, file: String
    private var runs = 0

    init() throws {
        remote = h.dir + "/remote"
        file = h.dir + "/relctl.json"
        try FileManager.default.createDirectory(atPath: remote, withIntermediateDirectories: true)
        h.env = h.env.merging(["PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": h.dir, "RCLONE_CONFIG": "/dev/null"]) { $1 }
    }

    func run(_ db: String, _ line: String) -> Harness.Result { h.run(Harness.split(line), database: db) }

    func ok(_ db: String, _ line: String, file: StaticString = #filePath, lineNumber: UInt = #line) {
        let r = run(db, line)
        XCTAssertEqual(r.status, 0, "\(line): \(r.err)", file: file, line: lineNumber)
    }

    /// One run of CI: a fresh database from the file, published into a fresh folder, deployed.
    func ci() -> Harness.Result {
        runs += 1
        let db = h.dir + "/ci-\(runs).db", out = h.dir + "/ci-\(runs)"
        ok(db, "init -q")
        ok(db, "apply \(file) --yes -q")
        ok(db, "publish \(out) -q")
        return run(db, "deploy \(out) \(remote)")
    }
}

extension HardeningRoundThreeTests {
    // 2. A database from before the lineage: every part it holds is revision 1, so the
    // file it exports gives a fresh database the same histories, and either deploys over the other.
    func testADatabaseFromBeforeTheLineageDeploysLikeAFreshOne() throws {
        let t = try Team(), h = t.h
        let old = h.dir + "/old.db"
        let c = try Connection(path: old, readOnly: false, create: true)
        try c.execute("PRAGMA journal_mode = WAL")
        for sql in Schema.migrations.prefix(8) { try c.execute(sql) }
        try c.execute("PRAGMA application_id = \(Schema.applicationID)")
        try c.execute("PRAGMA user_version = 8")
        try c.execute("""
            INSERT INTO audit(at, user, project, action, kind) VALUES (1764000000, 'x', NULL, 'init', 'init');
            INSERT INTO project(slug, name, default_locale, locales, rules, release_delay_days, remind_hours, outdated, time_zone, whatsnew_limit)
                VALUES ('shop', 'Shop', 'en', '', 'skip/daily,skip/daily,skip/daily,skip/daily', 1, 24, 'recommend', 'UTC', 10);
            INSERT INTO platform(project_id, name, bundle_id) VALUES (1, 'ios', 'com.example.shop');
            INSERT INTO version(platform_id, version, build, released_at) VALUES (1, '1.0', 100, 1764000000);
            """)
        t.ok(old, "project list")
        XCTAssertEqual(try c.query("SELECT part, chain FROM lineage ORDER BY part").map { "\($0.text(0))=\($0.text(1))" }, ["=1", "ios=1", "ios/1.0=1"])
        t.ok(old, "export --all-projects -o \(t.file)")
        XCTAssertEqual(t.ci().status, 0)
        t.ok(old, "publish \(h.dir)/old -q")
        let r = t.run(old, "deploy \(h.dir)/old \(t.remote)")
        XCTAssertEqual(r.status, 0, r.err)
    }
}
