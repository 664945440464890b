import Foundation
import XCTest
@testable import RelctlCLI
@testable import RelctlCore
@testable import RelctlModel
@testable import RelctlPublish
@testable import RelctlStore

/// A publish costs what changed: a publish with nothing to do renders and
/// writes nothing, a change to one project renders that project only, a
/// time transition renders the projects it touches, and whatever the path,
/// the tree is byte for byte the one a full publish into an empty folder gives.
final class IncrementalPublishTests: XCTestCase {
    func fleet() -> Harness { threeProjects() }

    func publish(_ h: Harness, _ dir: String, _ extra: [String] = []) -> [String: Any] { publishJSON(h, dir, extra) }

    /// Publishes again well after the tree's folders were written: the state
    /// is recorded again and trusts them all, so a publish with nothing to do
    /// then reads no part of index.json.
    func settle(_ h: Harness, _ out: String) throws {
        Thread.sleep(forTimeInterval: 0.1)
        let again = publish(h, out)
        XCTAssertEqual(again["rendered"] as? [String], [])
        XCTAssertEqual(again["changed"] as? [String], [])
        XCTAssertEqual(try XCTUnwrap(TreeState.read(root: out)).checkFolders(root: out).unsure, [])
    }

    /// Writes `bytes` into the file at `path` in place, and gives it back its times to the nanosecond.
    func overwriteKeepingTime(_ path: String, _ bytes: Data) throws {
        var st = stat()
        XCTAssertEqual(lstat(path, &st), 0)
        let handle = try XCTUnwrap(FileHandle(forWritingAtPath: path))
        try handle.write(contentsOf: bytes)
        try handle.close()
        var times = [st.st_atim, st.st_mtim]
        XCTAssertEqual(utimensat(AT_FDCWD, path, &times, 0), 0)
    }

    /// The warnings on stderr but the limits, which a publish says once per cause and tree revision.
    func plainWarnings(_ err: String) -> [String] {
        err.split(separator: "\n").filter { $0.hasPrefix("warning:") && !$0.hasPrefix("warning: not carried:") }.map(String.init)
    }

    func testNoOpPublishRendersAndWritesNothingAndSaysTheSame() throws {
        let h = fleet()
        let out = h.dir + "/out"
        let first = h.run(["publish", out])
        XCTAssertEqual(first.status, 0, first.err)
        let index = try Data(contentsOf: URL(fileURLWithPath: out + "/index.json"))
        let old = Date(timeIntervalSince1970: 1_000_000_000)
        for path in fileTree(out).keys { try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: out + "/" + path) }
        // Later, but before the next change (the release delay of blog/cafe 1.1 ends at 06:00 tomorrow).
        h.now += 3600
        let again = h.run(["publish", out, "--json"])
        XCTAssertEqual(again.status, 0, again.err)
        XCTAssertEqual((again.json as? [String: Any])?["rendered"] as? [String], [])
        XCTAssertTrue(again.err.contains("nothing written: the ") && again.err.contains("in \(out) are already what this publish makes (revision "), again.err)
        // The same warnings as the publish that rendered them; its limits were said once
        // (issue 30: once per cause and tree revision), and --json carries them all.
        XCTAssertEqual(plainWarnings(first.err), plainWarnings(again.err))
        XCTAssertTrue(first.err.contains("not carried:"), first.err)
        XCTAssertFalse(again.err.contains("not carried:"), again.err)
        XCTAssertFalse((((again.json as? [String: Any])?["limits"] as? [Any]) ?? []).isEmpty, "--json carries them")
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: out + "/index.json")), index)
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: out + "/index.json")[.modificationDate] as? Date, old, "index.json was touched")
        let summary = publish(h, out)
        XCTAssertEqual(summary["rendered"] as? [String], [])
        XCTAssertEqual((summary["limits"] as? [Any])?.isEmpty, false)
        XCTAssertEqual(h.run(["verify", out]).status, 0)
    }

    /// A publish that writes a few files into folders already there flushes
    /// each of them (fdatasync), not the whole file system (syncfs, which
    /// also waits for every other writer's data on that disk); a new tree is
    /// flushed by one syncfs. As the kernel sees it, through strace.
    func testAFewFilesAreFlushedOneByOneAndANewTreeAtOnce() throws {
        let strace = try XCTUnwrap(Proc.which("strace"), "strace is needed (scripts/deps.sh test installs it); the test is in the Makefile's TOOLS")
        let h = fleet()
        let out = h.dir + "/out"
        // strace names each file by its resolved path.
        let resolved = URL(fileURLWithPath: out).resolvingSymlinksInPath().path
        func flushes(_ args: [String]) throws -> (syncfs: Int, fdatasync: Int, written: Int) {
            let log = h.dir + "/strace.log"
            // At the harness's instant, as its own runs publish.
            let run = try Proc.run(strace, ["-f", "-qq", "-y", "-e", "trace=syncfs,fdatasync", "-o", log, Package.binary, "--db", h.db]
                                   + args + ["--at", "2026-11-29T12:00:00Z", "--json"], env: h.env)
            XCTAssertEqual(run.status, 0, run.err)
            let summary = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(run.out.utf8)) as? [String: Any])
            let written = ((summary["added"] as? [String]) ?? []).count + ((summary["changed"] as? [String]) ?? []).count
            let lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
            // The tree's files, not the database's.
            return (lines.filter { $0.contains("syncfs(") }.count, lines.filter { $0.contains("fdatasync(") && $0.contains(resolved + "/") }.count, written)
        }
        let first = try flushes(["publish", out])
        XCTAssertGreaterThan(first.syncfs, 0, "a new tree is flushed at once")
        XCTAssertEqual(first.fdatasync, 0)
        h.ok("notes set 1.1 -p blog --platform ios --locale en \"Flushed one by one\"")
        let one = try flushes(["publish", out])
        XCTAssertEqual(one.syncfs, 0, "a few files, flushed one by one")
        // Each file written (index.json among them), and the journal.
        XCTAssertGreaterThan(one.written, 1)
        XCTAssertEqual(one.fdatasync, one.written + 1)
        // A file kept because its bytes, read, were already the new ones (newer than index.json: put
        // there by someone else, a restore, maybe not on the disk yet): the whole file system is flushed.
        let blog = try XCTUnwrap(FileManager.default.subpathsOfDirectory(atPath: out + "/blog")).filter { !$0.hasSuffix("/") }
        for file in blog { XCTAssertEqual(utimensat(AT_FDCWD, out + "/blog/" + file, nil, 0), 0) }
        h.ok("notes set 1.1 -p blog --platform ios --locale en \"Flushed at once\"")
        let restored = try flushes(["publish", out])
        XCTAssertGreaterThan(restored.syncfs, 0)
        XCTAssertEqual(restored.fdatasync, 0)
        XCTAssertEqual(publish(h, out)["changed"] as? [String], [], "as published")
        XCTAssertEqual(h.run(["verify", out]).status, 0)
    }

    /// With the state the last publish recorded, a publish with nothing to do
    /// goes by the database's revision and the folders' times, not each file
    /// (but those of folders too recent to vouch for them), and says what the
    /// publish that rendered the files said.
    func testNothingToDoGoesByTheRecordedStateAndSaysTheSame() throws {
        let h = fleet()
        let out = h.dir + "/out"
        let first = publish(h, out)
        XCTAssertNotNil(TreeState.read(root: out), "the publish recorded the tree's state")
        // Folders written just before the state was recorded are not trusted (a change in the same
        // tick of the clock would not show): a publish right after looks at each file they hold,
        // from their part of index.json. Here every folder is made too recent (a capture at 0).
        let statePath = out + "/" + publishState
        func recordAsCapturedAtZero(_ change: (inout TreeState) -> Void = { _ in }) throws {
            var state = try XCTUnwrap(TreeState.read(root: out))
            state.captured = TreeState.Stamp(inode: 0, size: 0, seconds: 0, nanoseconds: 0)
            change(&state)
            try Data(state.bytes).write(to: URL(fileURLWithPath: statePath))
            XCTAssertEqual(try XCTUnwrap(TreeState.read(root: out)).checkFolders(root: out).unsure, ["blog", "cafe", "shop"])
        }
        // A file of theirs edited in place at the same size (its folder's time stays as recorded): found, and put right.
        try recordAsCapturedAtZero()
        let edited = out + "/cafe/control.json"
        try alteredAtSameSize(edited).write(to: URL(fileURLWithPath: edited))
        let fixed = publish(h, out)
        XCTAssertEqual(fixed["rendered"] as? [String], ["cafe"])
        XCTAssertEqual(fixed["changed"] as? [String], ["cafe/control.json"])
        // Only their part of index.json is read: the projects' records garbled at the same size and
        // time go unseen (read whole, index.json would be no index, and every project rendered).
        try recordAsCapturedAtZero()
        let indexPath = out + "/index.json"
        let published = try Data(contentsOf: URL(fileURLWithPath: indexPath))
        let records = try XCTUnwrap(published.range(of: Data(#""projects":{"#.utf8))).upperBound..<(try XCTUnwrap(published.range(of: Data(#","treeSha256":"#.utf8))).lowerBound)
        var garbled = published
        garbled.replaceSubrange(records, with: Data(repeating: UInt8(ascii: " "), count: records.count))
        try overwriteKeepingTime(indexPath, garbled)
        XCTAssertEqual(publish(h, out)["rendered"] as? [String], [])
        try overwriteKeepingTime(indexPath, published)
        // A state that does not say where a project's files are listed: index.json is read whole, and the state recorded again.
        try recordAsCapturedAtZero { $0.runs["shop/"] = nil }
        XCTAssertEqual(publish(h, out)["rendered"] as? [String], [])
        XCTAssertNotNil(try XCTUnwrap(TreeState.read(root: out)).runs["shop/"])
        // Once the folders are old enough, a publish with nothing to do records the state again, trusting them all.
        try settle(h, out)
        // A write cut short at DIR's root (a state being replaced) leaves a temporary there, which moves no recorded
        // folder's time: a publish with nothing to do is not taken, and the one that runs sweeps it.
        let leftover = out + "/.relctl-tmp..relctl-state.0123456789abcdef"
        XCTAssertTrue(FileManager.default.createFile(atPath: leftover, contents: Data("{".utf8)))
        XCTAssertEqual(publish(h, out)["rendered"] as? [String], [])
        XCTAssertFalse(FileManager.default.fileExists(atPath: leftover))
        // A file edited in place, at the same size, leaves its folder's time as it was: not seen.
        let victim = out + "/cafe/control.json"
        try alteredAtSameSize(victim).write(to: URL(fileURLWithPath: victim))
        let fast = publish(h, out)
        XCTAssertEqual(fast["rendered"] as? [String], [])
        XCTAssertEqual(fast["changed"] as? [String], [])
        for key in ["files", "revision", "limits", "nextChange", "disagreements"] {
            func canonical(_ value: Any?) throws -> Data {
                try JSONSerialization.data(withJSONObject: value ?? NSNull(), options: [.sortedKeys, .fragmentsAllowed])
            }
            XCTAssertEqual(try canonical(first[key]), try canonical(fast[key]), key)
        }
        XCTAssertEqual(fast["unchanged"] as? Int, first["files"] as? Int)
        // Without the state nothing says what the files were published from (index.json names no
        // database): every project is rendered, the edit is found and put right, and the state recorded again.
        try FileManager.default.removeItem(atPath: out + "/" + publishState)
        let slow = publish(h, out)
        XCTAssertEqual(slow["rendered"] as? [String], ["blog", "cafe", "shop"])
        XCTAssertEqual(slow["changed"] as? [String], ["cafe/control.json"])
        XCTAssertNotNil(TreeState.read(root: out))
        // A state that names another index.json (this one was replaced, same bytes) is not believed, and is recorded anew.
        let index = try Data(contentsOf: URL(fileURLWithPath: out + "/index.json"))
        try index.write(to: URL(fileURLWithPath: out + "/index.json"), options: .atomic)
        XCTAssertNil(TreeState.read(root: out))
        XCTAssertEqual(publish(h, out)["rendered"] as? [String], [])
        XCTAssertNotNil(TreeState.read(root: out))
        // A change to the database: the recorded revision no longer holds.
        h.ok("notes set 1.1 -p blog --platform ios --locale en \"Edited\"")
        XCTAssertEqual(publish(h, out)["rendered"] as? [String], ["blog"])
        // --full renders every project whatever the state says.
        XCTAssertEqual(publish(h, out, ["--full"])["rendered"] as? [String], ["blog", "cafe", "shop"])
        XCTAssertEqual(h.run(["verify", out]).status, 0)
    }

    /// The state records what the publish said and the facts it rests on
    /// (LastPublish): a publish with nothing to do says the same from there,
    /// without reading index.json. A record of another relctl, or none (a
    /// state written before), is not taken: the publish goes by index.json
    /// and records it anew.
    func testNothingToDoSaysWhatTheStateRecordsWithoutReadingTheIndex() throws {
        let h = fleet()
        let out = h.dir + "/out"
        let first = h.run(["publish", out, "--json"])
        XCTAssertEqual(first.status, 0, first.err)
        try settle(h, out)
        let state = try XCTUnwrap(TreeState.read(root: out))
        let last = try XCTUnwrap(LastPublish(bytes: try XCTUnwrap(state.last)))
        XCTAssertEqual(last.generator, PublishCommand.generator)
        XCTAssertEqual(Set(last.projects.keys), ["blog", "cafe", "shop"])
        XCTAssertEqual(plainWarnings(last.warnings.map { "warning: " + $0 }.joined(separator: "\n")), plainWarnings(first.err))
        XCTAssertEqual(try JSONReader.parse(last.limits), try JSONReader.parse(Array(JSONSerialization.data(
            withJSONObject: try XCTUnwrap((first.json as? [String: Any])?["limits"]), options: [.sortedKeys]))))
        XCTAssertEqual(LastPublish(bytes: last.bytes), last)
        XCTAssertNil(LastPublish(bytes: Array(last.bytes.dropLast())))
        // The limits come last, where a publish with nothing to do does not scan them; a record
        // with its keys sorted (as relctl wrote it before) is read whole, to the same.
        XCTAssertEqual(try JSONReader.members(last.bytes).max { $0.value.lowerBound < $1.value.lowerBound }?.key, "limits")
        let sorted = Array(try JSONReader.parse(last.bytes).compactBytes().dropLast())
        XCTAssertNotEqual(sorted, last.bytes)
        XCTAssertEqual(LastPublish(bytes: sorted), last)
        // Not scanned where they come last (the state's checksum holds for them): limits that are no
        // JSON are taken as they are there, and refused anywhere else, where the record is read whole.
        var none = last
        none.limits = Array("[]".utf8)
        XCTAssertEqual(LastPublish(bytes: none.bytes), none)
        XCTAssertEqual(LastPublish(bytes: Array(none.bytes.dropLast(3)) + Array("[1,]}".utf8))?.limits, Array("[1,]".utf8))
        var broken = sorted
        broken.replaceSubrange(try XCTUnwrap(try JSONReader.members(sorted)["limits"]), with: Array("[1,]".utf8))
        XCTAssertNil(LastPublish(bytes: broken))
        // Made from the tree's index as index.json has it, with the stamps a publish knows (index.json names no
        // database) and the index's own digest; none when a project's client decisions differed from check.
        let indexBytes = Array(try Data(contentsOf: URL(fileURLWithPath: out + "/index.json")))
        var tree = try XCTUnwrap(IndexFormat.parse(indexBytes))
        tree.edits = last.edits
        for (slug, p) in last.projects { tree.projects[slug]?.revision = p.revision; tree.projects[slug]?.edits = p.edits }
        XCTAssertEqual(last.indexSha256, SHA256.hex(indexBytes))
        XCTAssertEqual(LastPublish(of: tree, generator: last.generator, warnings: last.warnings, limits: last.limits, indexSha256: last.indexSha256), last)
        tree.projects["cafe"]?.disagreements = 1
        let despite = LastPublish(of: tree, generator: last.generator, warnings: last.warnings, limits: last.limits)
        XCTAssertEqual(despite.projects["cafe"]?.vouched, false, "a project whose files differ from check is never taken as done")
        XCTAssertEqual(despite.projects["blog"]?.vouched, true)
        XCTAssertEqual(LastPublish(bytes: despite.bytes), despite)

        // index.json's bytes replaced at the same size and time: a publish with nothing to do, every
        // folder old enough for the state to vouch for (settle), never reads them.
        let indexPath = out + "/index.json"
        let index = try Data(contentsOf: URL(fileURLWithPath: indexPath))
        func overwrite(_ bytes: Data) throws { try overwriteKeepingTime(indexPath, bytes) }
        try overwrite(Data(repeating: UInt8(ascii: " "), count: index.count))
        XCTAssertNotNil(TreeState.read(root: out), "the state still names index.json")
        let blind = h.run(["publish", out, "--json"])
        XCTAssertEqual(blind.status, 0, blind.err)
        XCTAssertEqual(plainWarnings(blind.err), plainWarnings(first.err))
        let said = try XCTUnwrap(blind.json as? [String: Any]), before = try XCTUnwrap(first.json as? [String: Any])
        XCTAssertEqual(said["rendered"] as? [String], [])
        for key in ["files", "revision", "limits", "nextChange"] {
            XCTAssertEqual(try JSONSerialization.data(withJSONObject: said[key] ?? NSNull(), options: [.sortedKeys, .fragmentsAllowed]),
                           try JSONSerialization.data(withJSONObject: before[key] ?? NSNull(), options: [.sortedKeys, .fragmentsAllowed]), key)
        }
        try overwrite(index)

        // No record, or another relctl's: the publish reads index.json, finds every project current, and records it.
        for record in [nil, LastPublish(generator: "relctl 0.0.1", edits: last.edits, validFrom: last.validFrom, nextChange: last.nextChange,
                                        projects: last.projects, warnings: [], limits: Array("[]".utf8)).bytes] {
            var edited = try XCTUnwrap(TreeState.read(root: out))
            edited.last = record
            try Data(edited.bytes).write(to: URL(fileURLWithPath: out + "/" + publishState))
            XCTAssertEqual(try XCTUnwrap(TreeState.read(root: out)).last, record)
            let again = h.run(["publish", out])
            XCTAssertEqual(again.status, 0, again.err)
            XCTAssertTrue(again.err.contains("nothing written"), again.err)
            XCTAssertEqual(plainWarnings(again.err), plainWarnings(first.err))
            // Recorded anew as it was, but the limits the first publish said (said once: issue 30).
            func unsaid(_ bytes: [UInt8]?) -> LastPublish? {
                var last = bytes.flatMap(LastPublish.init(bytes:))
                last?.warnings.removeAll { $0.hasPrefix("not carried: ") }
                return last
            }
            XCTAssertEqual(unsaid(try XCTUnwrap(TreeState.read(root: out)).last), unsaid(state.last))
        }
        XCTAssertEqual(h.run(["verify", out]).status, 0)
    }

    /// The state records where each run of index.json's file list is, and a
    /// publish after a change takes the runs it keeps from there, without
    /// cutting the list; ranges that are not the list's runs are not
    /// believed (the list is cut), and the index comes out the same.
    func testRunsAreTakenWhereTheStateRecordedThemOnlyWhereTheyAre() throws {
        let h = fleet()
        let out = h.dir + "/out", fresh = h.dir + "/fresh"
        _ = publish(h, out)
        var state = try XCTUnwrap(TreeState.read(root: out))
        XCTAssertEqual(state.runs.keys.sorted(), ["blog/", "cafe/", "index.html", "shop/"])
        let whole = Array(try Data(contentsOf: URL(fileURLWithPath: out + "/index.json")))
        let list = try XCTUnwrap(state.fileList)
        XCTAssertEqual(IndexFileRun.recorded(whole, list: list, runs: state.runs)?.mapValues(\.count),
                       IndexFileRun.cut(whole, list)?.mapValues(\.count))
        for (round, change) in ["Changed", "Changed again"].enumerated() {
            h.ok("notes set 1.1 -p cafe --platform ios --locale en \"\(change)\"")
            if round == 1 {
                // Each run a byte later: not the list's runs.
                state = try XCTUnwrap(TreeState.read(root: out))
                state.runs = state.runs.mapValues { IndexFileRun.Recorded(range: ($0.range.lowerBound + 1)..<($0.range.upperBound + 1), count: $0.count) }
                try Data(state.bytes).write(to: URL(fileURLWithPath: out + "/" + publishState))
                XCTAssertEqual(try XCTUnwrap(TreeState.read(root: out)).runs, state.runs)
            }
            XCTAssertEqual(publish(h, out)["rendered"] as? [String], ["cafe"])
            try? FileManager.default.removeItem(atPath: fresh)
            _ = publish(h, fresh)
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: out + "/index.json")), try Data(contentsOf: URL(fileURLWithPath: fresh + "/index.json")),
                           "round \(round)")
        }
    }

    /// XXH64 as the reference gives it (the values are the reference
    /// implementation's, by Python's xxhash 3), on every path through it:
    /// no stripe, stripes, and a tail of 8-, 4- and 1-byte steps.
    func testXXH64MatchesTheReference() {
        let long = Array((0..<768).map { UInt8($0 % 256) })
        for (bytes, seed, expected): ([UInt8], UInt64, String) in [
            ([], 0, "ef46db3751d8e999"), (Array("a".utf8), 0, "d24ec4f1a98c6e5b"), (Array("abc".utf8), 0, "44bc2cf5ad770999"),
            (Array("abc".utf8), 1, "bea9ca8199328908"), (long, 0, "8e03c838c596036f"), (long + Array("xyz1234".utf8), 3, "9dd0b87c16d8300e"),
            (long + Array("xyz1234abcdefgh".utf8), 2, "5460b0c11bfff63e"), (Array("Nobody inspects the spammish repetition".utf8), 0, "fbcea83c8a378bf1"),
        ] {
            XCTAssertEqual(String(XXH64.hash(bytes[...], seed: seed), radix: 16), expected, "\(bytes.count) bytes, seed \(seed)")
        }
    }

    /// A state the relctl before recorded (version 1, its check SHA-256) is
    /// still the tree's record; one claiming the other version is not.
    func testAVersionOneStateIsStillARecord() throws {
        let h = fleet()
        let out = h.dir + "/out", path = out + "/" + publishState
        _ = publish(h, out)
        let state = try XCTUnwrap(TreeState.read(root: out))
        func written(version: Int, check: ([UInt8]) -> String) throws {
            var bytes = state.bytes
            let marker = Array(#""version":2"#.utf8)
            let at = try XCTUnwrap((0...(bytes.count - marker.count)).first { bytes[$0..<($0 + marker.count)].elementsEqual(marker) })
            bytes[at + marker.count - 1] = UInt8(ascii: "0") + UInt8(version)
            let room = 75
            let body = [UInt8(ascii: "{")] + bytes[(room + 1)...]
            bytes.replaceSubrange(0..<room, with: Array(#"{"check":""#.utf8) + Array(check(body).utf8) + [34])
            try Data(bytes).write(to: URL(fileURLWithPath: path))
        }
        try written(version: 1) { SHA256.hex($0) }
        var old = state
        old.version = 1
        XCTAssertEqual(TreeState.read(root: out), old, "a version-1 state, as relctl wrote it before")
        let verified = h.run(["verify", out])
        XCTAssertEqual(verified.status, 0, verified.err)
        XCTAssertFalse((verified.out + verified.err).contains("holds no record"), verified.err)
        // A publish with nothing to do records it again in the current version.
        XCTAssertEqual(publish(h, out)["rendered"] as? [String], [])
        XCTAssertEqual(TreeState.read(root: out)?.version, TreeState.current)
        try written(version: 2) { SHA256.hex($0) }
        XCTAssertNil(TreeState.read(root: out), "SHA-256 is version 1's check only")
        try written(version: 1) { TreeState.checksum($0[...]) }
        XCTAssertNil(TreeState.read(root: out), "and the new check version 2's")
    }

    /// The state's checksum changes with any byte changed, and with the
    /// length where the bytes differ only by zeros at the end.
    func testTheStateChecksumTellsEveryEdit() {
        let bytes = (0..<1001).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        let sum = TreeState.checksum(bytes[...])
        XCTAssertEqual(sum.count, 64)
        XCTAssertTrue(sum.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }, sum)
        var seen: Set<String> = [sum]
        for i in bytes.indices {
            for flip: UInt8 in [1, 0x80] {
                var edited = bytes
                edited[i] ^= flip
                XCTAssertTrue(seen.insert(TreeState.checksum(edited[...])).inserted, "byte \(i) ^ \(flip)")
            }
        }
        for zeros in 1...40 {
            XCTAssertTrue(seen.insert(TreeState.checksum((bytes + [UInt8](repeating: 0, count: zeros))[...])).inserted, "\(zeros) zeros")
        }
        XCTAssertEqual(TreeState.checksum(bytes[...]), sum, "the same bytes, the same sum")
        // Changes in two words of one lane that a lone multiply and shift let cancel out.
        var paired = bytes
        paired[7] ^= 0x80; paired[39] ^= 0x80; paired[36] ^= 0x04
        XCTAssertTrue(seen.insert(TreeState.checksum(paired[...])).inserted)
    }

    /// The state's bytes carry their checksum: one edited by hand (a folder's
    /// time, a run's place) is no record, and the publish goes by the files.
    func testAStateEditedByHandIsNoRecord() throws {
        let h = fleet()
        let out = h.dir + "/out", path = out + "/" + publishState
        _ = publish(h, out)
        XCTAssertNotNil(TreeState.read(root: out))
        var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        // The first digit of where blog's run starts.
        let marker = Array(#""runs":{"blog/":["#.utf8)
        let digit = try XCTUnwrap((0...(bytes.count - marker.count)).first { bytes[$0..<($0 + marker.count)].elementsEqual(marker) }) + marker.count
        bytes[digit] = bytes[digit] == UInt8(ascii: "1") ? UInt8(ascii: "2") : UInt8(ascii: "1")
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        XCTAssertNil(TreeState.read(root: out), "a state edited by hand")
        h.ok("notes set 1.1 -p cafe --platform ios --locale en \"Changed\"")
        // Nothing then says what the files were published from: each project is rendered, and comes out as it is.
        let again = publish(h, out)
        XCTAssertEqual(again["rendered"] as? [String], ["blog", "cafe", "shop"])
        XCTAssertEqual(again["changed"] as? [String], ["cafe/ios/whatsnew/en.json", "cafe/status.html", "index.json"])
        XCTAssertNotNil(TreeState.read(root: out), "recorded anew")
        let fresh = h.dir + "/fresh"
        _ = publish(h, fresh)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: out + "/index.json")), try Data(contentsOf: URL(fileURLWithPath: fresh + "/index.json")))
    }

    /// A publish of one project (-p) keeps the others as they are, current or
    /// not: the state it records must not vouch for them, so the next publish
    /// renders what changed meanwhile, restores what went missing, and removes
    /// pages --no-pages no longer wants.
    func testOneProjectPublishDoesNotVouchForTheOthers() throws {
        let h = fleet()
        let out = h.dir + "/out"
        _ = publish(h, out)
        h.ok("notes set 1.1 -p blog --platform ios --locale en \"Meanwhile\"")
        XCTAssertEqual(publish(h, out, ["-p", "cafe"])["rendered"] as? [String], ["cafe"])
        XCTAssertEqual(publish(h, out)["rendered"] as? [String], ["blog"], "blog changed while cafe was published alone")
        try FileManager.default.removeItem(atPath: out + "/blog/ios/whatsnew/en.json")
        XCTAssertEqual(publish(h, out, ["-p", "cafe"])["rendered"] as? [String], ["cafe"])
        // Past the tick in which the state's folder times are not trusted: blog's stamps still
        // match the database, but it was kept without a look, so nothing vouches for its files.
        Thread.sleep(forTimeInterval: 0.2)
        XCTAssertEqual(publish(h, out)["rendered"] as? [String], ["blog"])
        XCTAssertTrue(FileManager.default.fileExists(atPath: out + "/blog/ios/whatsnew/en.json"))
        _ = publish(h, out, ["-p", "cafe", "--no-pages"])
        _ = publish(h, out, ["--no-pages"])
        XCTAssertFalse(FileManager.default.fileExists(atPath: out + "/blog/status.html"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: out + "/shop/status.html"))
        // -p with --full renders that project, and the index still lists every project.
        let full = publish(h, out, ["-p", "cafe", "--full", "--no-pages"])
        XCTAssertEqual(full["rendered"] as? [String], ["cafe"])
        let index = try XCTUnwrap(IndexFormat.parse(Array(try Data(contentsOf: URL(fileURLWithPath: out + "/index.json")))))
        XCTAssertEqual(Set(index.projects.keys), ["blog", "cafe", "shop"])
        let v = h.run(["verify", out]); XCTAssertEqual(v.status, 0, v.out + v.err)
    }

    /// A folder changed in the same tick of the clock as the publish that
    /// recorded it keeps its time: the state does not trust such a folder,
    /// so the next publish looks at each of its files.
    func testAFolderChangedWithinATickOfTheStateIsLookedInto() throws {
        let h = fleet()
        let out = h.dir + "/out"
        _ = publish(h, out)
        let state = try XCTUnwrap(TreeState.read(root: out))
        let folder = out + "/cafe/ios/whatsnew", recorded = try XCTUnwrap(state.folders["cafe/ios/whatsnew"])
        try FileManager.default.removeItem(atPath: folder + "/en.json")
        // The folder's time put back as recorded: what a removal within the same tick looks like.
        var times = [timespec(tv_sec: Int(recorded.seconds), tv_nsec: Int(recorded.nanoseconds)), timespec(tv_sec: Int(recorded.seconds), tv_nsec: Int(recorded.nanoseconds))]
        XCTAssertEqual(utimensat(AT_FDCWD, folder, &times, 0), 0)
        XCTAssertEqual(TreeState.Stamp(folder, folder: true), recorded)
        XCTAssertEqual(publish(h, out)["rendered"] as? [String], ["cafe"])
        XCTAssertTrue(FileManager.default.fileExists(atPath: folder + "/en.json"))
    }

    /// --full reads every file: a file changed at the same size with its old
    /// time put back (disk damage, a restore) is found and put right too.
    func testFullComparesEveryFilesBytes() throws {
        let h = fleet()
        let out = h.dir + "/out"
        _ = publish(h, out)
        let victim = out + "/shop/control.json"
        let attributes = try FileManager.default.attributesOfItem(atPath: victim)
        try alteredAtSameSize(victim).write(to: URL(fileURLWithPath: victim))
        try FileManager.default.setAttributes([.modificationDate: attributes[.modificationDate]!], ofItemAtPath: victim)
        XCTAssertEqual(h.run(["verify", out]).status, 1)
        XCTAssertEqual(publish(h, out, ["--full"])["changed"] as? [String], ["shop/control.json"])
        XCTAssertEqual(h.run(["verify", out]).status, 0)
    }

    /// index.json is compared with the one there as it is written, a piece
    /// at a time: a copy put back with the same bytes (another inode, a newer
    /// time) is kept as it is, one altered at the same size is replaced, one
    /// missing is added; no temporary is left either way, and a dry run writes none.
    func testTheIndexIsComparedAsItIsWritten() throws {
        let h = fleet()
        let out = h.dir + "/out", index = out + "/index.json"
        _ = publish(h, out)
        let original = try Data(contentsOf: URL(fileURLWithPath: index))
        func inode() throws -> UInt64 { (try FileManager.default.attributesOfItem(atPath: index)[.systemFileNumber] as? UInt64) ?? 0 }
        func temporaries() throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: out).filter { $0.hasPrefix(".relctl-tmp") } }
        // Put back by someone else: read, found the same, kept.
        try FileManager.default.removeItem(atPath: index)
        try original.write(to: URL(fileURLWithPath: index))
        let restored = try inode()
        let kept = publish(h, out, ["--full"])
        XCTAssertEqual(kept["changed"] as? [String], [])
        XCTAssertEqual(kept["added"] as? [String], [])
        XCTAssertEqual(try inode(), restored, "the copy put back is kept")
        XCTAssertEqual(try temporaries(), [])
        // Altered at the same size: replaced with what relctl writes.
        try alteredAtSameSize(index).write(to: URL(fileURLWithPath: index))
        XCTAssertEqual(publish(h, out, ["--full"])["changed"] as? [String], ["index.json"])
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: index)), original)
        XCTAssertEqual(try temporaries(), [])
        // Missing: a dry run says it would be added and writes nothing; a publish adds it.
        try FileManager.default.removeItem(atPath: index)
        XCTAssertEqual(publish(h, out, ["--full", "--dry-run"])["added"] as? [String], ["index.json"])
        XCTAssertFalse(FileManager.default.fileExists(atPath: index))
        XCTAssertEqual(try temporaries(), [])
        XCTAssertEqual(publish(h, out, ["--full"])["added"] as? [String], ["index.json"])
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: index)), original)
        XCTAssertEqual(h.run(["verify", out]).status, 0)
    }

    /// An index.json that comes out as the one there is never written, not
    /// even to a temporary thrown away (its first piece that differs makes
    /// the temporary): strace sees no temporary of it opened.
    func testAnIndexThatComesOutTheSameIsNotWritten() throws {
        let strace = try XCTUnwrap(Proc.which("strace"), "strace is needed (scripts/deps.sh test installs it); the test is in the Makefile's TOOLS")
        let h = fleet()
        let out = h.dir + "/out"
        _ = publish(h, out)
        func indexTemporaries(_ args: [String]) throws -> Int {
            let log = h.dir + "/strace.log"
            let run = try Proc.run(strace, ["-f", "-qq", "-e", "trace=openat", "-o", log, Package.binary, "--db", h.db]
                                   + args + ["--at", "2026-11-29T12:00:00Z", "-q"], env: h.env)
            XCTAssertEqual(run.status, 0, run.err)
            return try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").filter { $0.contains(".relctl-tmp.index.json") }.count
        }
        XCTAssertEqual(try indexTemporaries(["publish", out, "--full"]), 0)
        h.ok("notes set 1.1 -p blog --platform ios --locale en \"Written\"")
        XCTAssertGreaterThan(try indexTemporaries(["publish", out]), 0, "made, and opened again to be flushed")
    }

    /// index.json written in small pieces after a change to one project: the
    /// first ones match the old index (and are written from it once one
    /// differs), the rest are new; the tree is a full publish's, byte for byte.
    func testAnIndexWrittenInPiecesIsTheFullPublishsIndex() throws {
        let h = fleet()
        let base = h.dir + "/base", out = h.dir + "/out", fresh = h.dir + "/fresh"
        _ = publish(h, base)
        let before = try Data(contentsOf: URL(fileURLWithPath: base + "/index.json"))
        h.ok("notes set 1.1 -p cafe --platform ios --locale en \"In pieces\"")
        _ = publish(h, fresh)
        let expected = try Data(contentsOf: URL(fileURLWithPath: fresh + "/index.json"))
        // Blog's entries come before cafe's: pieces match before one differs.
        XCTAssertGreaterThan(zip(expected, before).prefix(while: { $0 == $1 }).count, 1000)
        for piece in [1, 64, 1000, 1 << 20] {
            try? FileManager.default.removeItem(atPath: out)
            try FileManager.default.copyItem(atPath: base, toPath: out)
            var request = Publisher.Request(dir: out, at: try XCTUnwrap(Time.parseUTC("2026-11-29T12:00:00Z")), generator: PublishCommand.generator)
            request.indexPiece = piece
            _ = try Publisher.publish(request, store: try Store(path: h.db, mode: .write, user: "test"))
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: out + "/index.json")), expected, "pieces of \(piece)")
            XCTAssertEqual(fileTree(out), fileTree(fresh), "pieces of \(piece)")
        }
        XCTAssertEqual(h.run(["verify", out]).status, 0)
    }

    /// index.json is read the same whether relctl wrote it (read entry by
    /// entry without a JSON value each) or someone re-indented it.
    func testTheIndexReadsTheSameWhateverItsSpacing() throws {
        let h = fleet()
        let out = h.dir + "/out"
        _ = publish(h, out)
        let compact = Array(try Data(contentsOf: URL(fileURLWithPath: out + "/index.json")))
        let pretty = Array(try JSONReader.parse(compact).rendered().utf8)
        let a = try XCTUnwrap(IndexFormat.parse(compact)), b = try XCTUnwrap(IndexFormat.parse(pretty))
        XCTAssertGreaterThan(a.files.count, 10)
        XCTAssertEqual(a.files.mapValues { "\($0.size) \($0.sha256)" }, b.files.mapValues { "\($0.size) \($0.sha256)" })
        XCTAssertEqual(try IndexFormat.render(a), compact)
        XCTAssertNotNil(IndexFileRun.cut(compact, try XCTUnwrap(JSONReader.members(compact)["files"])))
        XCTAssertNil(IndexFileRun.cut(pretty, try XCTUnwrap(JSONReader.members(pretty)["files"])))
        // As a publish reads it: the list in runs and each project's entry
        // as it is, both written back as they were (in a debug build,
        // IndexFormat.projects checks each entry against its record); written anew, the same.
        var runs = try XCTUnwrap(IndexFormat.parse(compact, files: .runs))
        XCTAssertEqual(Set(runs.verbatim.keys), Set(a.projects.keys))
        XCTAssertEqual(try IndexFormat.render(runs), compact)
        runs.verbatim = [:]
        XCTAssertEqual(try IndexFormat.render(runs), compact)
        XCTAssertNil(IndexFormat.parse(Array(String(decoding: compact, as: UTF8.self).replacingOccurrences(of: #""files":{"#, with: #""files":["#).utf8)))
    }

    /// A publish keeps a project's part of the file list as the old index
    /// holds it; an index re-indented by hand, or naming a path outside DIR,
    /// is read entry by entry instead, and the path outside is never touched.
    func testAnEditedIndexIsReadEntryByEntryAndNothingOutsideIsTouched() throws {
        let h = fleet()
        let out = h.dir + "/out"
        _ = publish(h, out)
        let outside = h.dir + "/outside.json"
        try Data("keep\n".utf8).write(to: URL(fileURLWithPath: outside))
        let compact = Array(try Data(contentsOf: URL(fileURLWithPath: out + "/index.json")))
        guard case .object(var top) = try JSONReader.parse(compact), case .object(var files)? = top["files"] else { return XCTFail("index.json") }
        files["../outside.json"] = .object(["size": .int(5), "sha256": .string(SHA256.hex(Array("keep\n".utf8)))])
        top["files"] = .object(files)
        try JSON.object(top).rendered().write(toFile: out + "/index.json", atomically: true, encoding: .utf8)
        h.ok("notes set 1.1 -p cafe --platform ios --locale en \"Changed\"")
        let s = publish(h, out)
        // The state is about another index.json (these bytes are not the ones it recorded): every project is rendered.
        XCTAssertEqual(s["rendered"] as? [String], ["blog", "cafe", "shop"])
        XCTAssertEqual(s["removed"] as? [String], [])
        XCTAssertEqual(try String(contentsOfFile: outside, encoding: .utf8), "keep\n")
        // The list is written as relctl writes it again, the path outside left out: the index a full publish gives.
        let fresh = h.dir + "/fresh"
        _ = publish(h, fresh)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: out + "/index.json")), try Data(contentsOf: URL(fileURLWithPath: fresh + "/index.json")))
        XCTAssertEqual(h.run(["verify", out]).status, 0)
        // An entry with a size or digest relctl never writes still names its file: a removed project's files all go.
        guard case .object(var again) = try JSONReader.parse(Array(try Data(contentsOf: URL(fileURLWithPath: out + "/index.json")))),
              case .object(var list)? = again["files"] else { return XCTFail("index.json") }
        list["blog/control.json"] = .object(["size": .int(-1), "sha256": .string("NOT HEX")])
        again["files"] = .object(list)
        try JSON.object(again).rendered().write(toFile: out + "/index.json", atomically: true, encoding: .utf8)
        h.ok("project rm blog --yes")
        let r = publish(h, out)
        XCTAssertEqual((r["removed"] as? [String])?.contains("blog/control.json"), true)
        XCTAssertFalse(FileManager.default.fileExists(atPath: out + "/blog"))
    }

    /// A file as the old index lists it is told changed or not by its digest,
    /// unread, only while the tree's state vouches for that index: a digest
    /// put wrong by hand makes it read, and it is not reported changed.
    func testAWrongDigestInAnEditedIndexIsNotTakenAtItsWord() throws {
        let h = fleet()
        let out = h.dir + "/out"
        _ = publish(h, out)
        let path = "cafe/ios/retired/en.json"
        let text = try String(contentsOfFile: out + "/index.json", encoding: .utf8)
        let sha = SHA256.hex(Array(try Data(contentsOf: URL(fileURLWithPath: out + "/" + path))))
        XCTAssertTrue(text.contains(sha))
        try text.replacingOccurrences(of: sha, with: String(repeating: "0", count: 64)).write(toFile: out + "/index.json", atomically: true, encoding: .utf8)
        // The notes are not in the Retired file: cafe is rendered again (every project is: the state is
        // about other bytes of index.json), that file comes out the same.
        h.ok("notes set 1.1 -p cafe --platform ios --locale en \"Changed\"")
        let s = publish(h, out)
        XCTAssertEqual(s["rendered"] as? [String], ["blog", "cafe", "shop"])
        XCTAssertEqual((s["changed"] as? [String])?.contains(path), false, "\(s["changed"] ?? [])")
        XCTAssertEqual((s["changed"] as? [String])?.contains("cafe/ios/whatsnew/en.json"), true)
    }

    /// The state a publish records takes the folders of the projects it kept
    /// as its check found them, where it trusted them: a folder changed after
    /// that check still shows as changed to the next publish.
    func testAFolderChangedAfterTheCheckIsNotTakenAsFound() throws {
        let h = fleet()
        let out = h.dir + "/out"
        _ = publish(h, out)
        // A state recorded more than a tick after blog's folders were written trusts them.
        usleep(120_000)
        h.ok("notes set 1.1 -p cafe --platform ios --locale en \"Changed\"")
        XCTAssertEqual(publish(h, out)["rendered"] as? [String], ["cafe"])
        let state = try XCTUnwrap(TreeState.read(root: out))
        let check = state.checkFolders(root: out)
        XCTAssertEqual(check.changed, [])
        XCTAssertNotNil(check.trusted["blog"])
        try Data("x".utf8).write(to: URL(fileURLWithPath: out + "/blog/extra.txt"))
        let index = try XCTUnwrap(IndexFormat.parse(Array(try Data(contentsOf: URL(fileURLWithPath: out + "/index.json"))), files: .runs))
        let later = try XCTUnwrap(TreeState.capture(root: out, index: index, known: check))
        XCTAssertEqual(later.folders["blog"], check.trusted["blog"], "taken as found")
        XCTAssertTrue(later.checkFolders(root: out).changed.contains("blog"))
        XCTAssertEqual(publish(h, out)["rendered"] as? [String], ["blog"])
    }

    func testAChangeToOneProjectRendersThatProjectOnly() throws {
        let h = fleet()
        let out = h.dir + "/out"
        XCTAssertEqual(publish(h, out)["rendered"] as? [String], ["blog", "cafe", "shop"])
        h.ok("notes set 1.1 -p cafe --platform ios --locale en \"Changed\"")
        let s = publish(h, out)
        XCTAssertEqual(s["rendered"] as? [String], ["cafe"])
        XCTAssertEqual((s["changed"] as? [String])?.contains("cafe/ios/whatsnew/en.json"), true)
        // Beside cafe's files only the root files that speak for every project: the index and its page (the revision it shows).
        XCTAssertEqual((s["changed"] as? [String])?.allSatisfy { $0.hasPrefix("cafe/") || $0 == "index.json" || $0 == "index.html" }, true)
        // A project removed: its files go, nothing is rendered.
        h.ok("project rm blog --yes")
        let r = publish(h, out)
        XCTAssertEqual(r["rendered"] as? [String], [])
        XCTAssertEqual((r["removed"] as? [String])?.allSatisfy { $0.hasPrefix("blog/") }, true)
        XCTAssertFalse(FileManager.default.fileExists(atPath: out + "/blog"))
        // A file replaced behind relctl's back makes its project render again, and that project only.
        try Data("{}".utf8).write(to: URL(fileURLWithPath: out + "/shop/control.json"), options: .atomic)
        XCTAssertEqual(publish(h, out)["rendered"] as? [String], ["shop"])
        // So does a file removed, or a file added beside the published ones.
        try FileManager.default.removeItem(atPath: out + "/cafe/ios/whatsnew/en.json")
        try Data("{}".utf8).write(to: URL(fileURLWithPath: out + "/shop/ios/extra.json"))
        XCTAssertEqual(publish(h, out)["rendered"] as? [String], ["cafe", "shop"])
        XCTAssertTrue(FileManager.default.fileExists(atPath: out + "/cafe/ios/whatsnew/en.json"))
        XCTAssertEqual(publish(h, out)["rendered"] as? [String], [], "the state recorded after the repair holds")
        XCTAssertEqual(h.run(["verify", out]).status, 0)
    }

    /// -p over a tree whose index this relctl cannot use per project (another
    /// version wrote it, or a publish was cut short) renders that project and
    /// leaves the others' files where they are: apps of those projects must not get 404s.
    func testOneProjectPublishKeepsTheOthersFilesOverAForeignOrUnfinishedIndex() throws {
        let h = fleet()
        let out = h.dir + "/out"
        _ = publish(h, out)
        let before = fileTree(out).filter { $0.key.hasPrefix("blog/") }
        XCTAssertFalse(before.isEmpty)
        let indexPath = out + "/index.json"
        let index = try String(contentsOfFile: indexPath, encoding: .utf8)
        try index.replacingOccurrences(of: "\"generator\":\"relctl ", with: "\"generator\":\"relctl 0.0.0-").write(toFile: indexPath, atomically: true, encoding: .utf8)
        let foreign = publish(h, out, ["-p", "cafe"])
        XCTAssertEqual(foreign["rendered"] as? [String], ["cafe"])
        XCTAssertEqual((foreign["removed"] as? [String]) ?? ["?"], [])
        XCTAssertEqual(fileTree(out).filter { $0.key.hasPrefix("blog/") }, before)
        try #"{"paths":["shop/control.json"]}"#.write(toFile: out + "/.relctl-journal", atomically: true, encoding: .utf8)
        let unfinished = publish(h, out, ["-p", "cafe"])
        XCTAssertEqual((unfinished["removed"] as? [String])?.filter { $0.hasPrefix("blog/") }, [])
        XCTAssertEqual(fileTree(out).filter { $0.key.hasPrefix("blog/") }, before)
        // The next full publish takes every project in again.
        XCTAssertEqual(publish(h, out)["rendered"] as? [String], ["blog", "shop"])
        XCTAssertEqual(h.run(["verify", out]).status, 0)
    }

    func testATimeTransitionRendersTheProjectsItTouches() throws {
        let h = fleet()
        let out = h.dir + "/out"
        _ = publish(h, out)
        h.ok("version add 3.0 -p shop --platform ios --build 300 --released 2026-12-05T00:00:00Z")
        _ = publish(h, out)
        // The release delay of blog and cafe 1.1 ends at 2026-11-30T06:00: those two, not shop.
        h.now = try TimeInput.parse("2026-11-30T06:00:00Z", now: 0, timeZone: "UTC")
        let s = publish(h, out)
        XCTAssertEqual(s["rendered"] as? [String], ["blog", "cafe"])
        XCTAssertEqual(h.run(["verify", out]).status, 0)
        let index = try JSONReader.parse(Array(try Data(contentsOf: URL(fileURLWithPath: out + "/index.json"))))
        guard case .object(let top) = index else { return XCTFail("index.json is not an object") }
        XCTAssertEqual(top["validFrom"], .string("2026-11-30T06:00:00Z"))
    }

    func testIncrementalPublishesGiveTheTreeOfAFullPublish() throws {
        let h = fleet()
        let incremental = h.dir + "/incremental"
        var rng = SplitMix(seed: UInt64(ProcessInfo.processInfo.environment["RELCTL_SEED"] ?? "") ?? 1414)
        var sawPartial = false, sawNone = false
        var projects = ["blog", "cafe", "shop"]
        for round in 0..<40 {
            for _ in 0..<Int(rng.next() % 3) {
                let p = projects[Int(rng.next() % UInt64(projects.count))]
                let platform = p == "shop" && rng.next() % 2 == 0 ? "android" : "ios"
                let at = h.now + Int64(rng.next() % (4 * 86400)) - 86400
                switch rng.next() % 8 {
                case 0: h.run("version add \(4 + round).\(rng.next() % 5) -p \(p) --platform \(platform) --build \(1000 + round * 10 + Int(rng.next() % 10)) --released \(Time.format(at))")
                case 1: h.run("notes set 1.0 -p \(p) --platform \(platform == "android" ? "android" : "ios") --locale tr \"Sürüm \(round)\"")
                case 2: h.run("force 1.1 -p \(p) --platform ios --deadline \(Time.format(at + 86400)) --yes")
                case 3: h.run("maintenance schedule -p \(p) --from \(Time.format(at)) --until \(Time.format(at + 7200)) --message \"Back soon\" --yes")
                case 4: h.run("rules set -p \(p) --release-delay \(rng.next() % 3) --yes")
                case 5 where projects.count < 5:
                    let slug = "new\(round)"
                    h.ok("project add \(slug) --name New")
                    h.ok("platform add ios -p \(slug) --bundle-id com.example.\(slug) --app-store-id 1088280262 --min-os 15.0")
                    h.ok("version add 1.0 -p \(slug) --platform ios --build 100 --released \(Time.format(at))")
                    projects.append(slug)
                case 6 where projects.count > 2:
                    h.ok("project rm \(p) --yes")
                    projects.removeAll { $0 == p }
                case 7:
                    // By hand: no audit row, no new revision.
                    try sqlite3(h, "UPDATE version SET policy = '\(rng.pick(["force", "recommend", "none"]))' WHERE version = '1.0' AND platform_id IN "
                                + "(SELECT p.id FROM platform p JOIN project j ON j.id = p.project_id WHERE j.slug = '\(p)')")
                default: break
                }
            }
            h.now += Int64(rng.next() % (36 * 3600))
            let s = publish(h, incremental)
            let rendered = (s["rendered"] as? [String]) ?? []
            if rendered.isEmpty { sawNone = true } else if rendered.count < projects.count { sawPartial = true }
            let full = h.dir + "/full\(round)"
            _ = publish(h, full)
            let a = fileTree(incremental), b = fileTree(full)
            XCTAssertEqual(a.keys.sorted(), b.keys.sorted(), "round \(round): the same paths")
            for (path, bytes) in b where a[path] != bytes {
                XCTFail("round \(round): \(path) differs between the incremental and the full publish")
            }
            try? FileManager.default.removeItem(atPath: full)
            XCTAssertEqual(h.run(["verify", incremental]).status, 0, "round \(round)")
        }
        XCTAssertTrue(sawPartial, "some publish rendered only some projects")
        XCTAssertTrue(sawNone, "some publish rendered nothing")
    }
}

