import XCTest
@testable import RelctlCore
@testable import RelctlModel
@testable import RelctlPublish

/// index.json's file list cut into runs (a project's folder, a root file)
/// and spliced back: whatever runs are carried whole, the list is the one
/// written entry by entry.
final class IndexFileRunTests: XCTestCase {
    typealias Files = [String: (size: Int, sha256: String)]

    /// Folders whose names are prefixes of one another, root files beside
    /// them and sorting between them, and a deep folder.
    func sampleFiles(_ rng: inout SplitMix) -> Files {
        var files: Files = [:]
        let tops = ["app", "app-0", "app-05", "app-050", "b", "zeta", "z-z"]
        for top in tops where rng.next() % 4 != 0 {
            for _ in 0..<(1 + Int(rng.next() % 6)) {
                let depth = Int(rng.next() % 3)
                let folders = (0..<depth).map { _ in ["ios", "android", "whatsnew", "lookup"][Int(rng.next() % 4)] }
                let path = ([top] + folders + ["f\(rng.next() % 5).json"]).joined(separator: "/")
                files[path] = (Int(rng.next() % 100_000), String(rng.next(), radix: 16) + String(rng.next(), radix: 16))
            }
        }
        for name in ["index.html", "app.json", "a", "zz"] where rng.next() % 2 == 0 {
            files[name] = (Int(rng.next() % 1000), String(repeating: "a", count: 64))
        }
        return files
    }

    func describe(_ files: Files) -> [String: String] { files.mapValues { "\($0.size) \($0.sha256)" } }

    func testAnyRunsCarriedGiveTheListWrittenEntryByEntry() throws {
        var rng = SplitMix(seed: 2026)
        for round in 0..<200 {
            let files = sampleFiles(&rng)
            let whole = IndexFormat.files(files)
            let runs = try XCTUnwrap(IndexFileRun.cut(whole, 0..<whole.count), "round \(round)")
            // Each run: the entries under its key, and nothing else.
            var seen: Files = [:]
            for (key, run) in runs {
                XCTAssertEqual(run.key, key)
                for e in run.entries() {
                    XCTAssertTrue(key.hasSuffix("/") ? e.path.hasPrefix(key) : e.path == key, "\(e.path) in run \(key)")
                    XCTAssertNil(seen.updateValue((e.size, e.sha256), forKey: e.path))
                    XCTAssertTrue(run.contains(e.path))
                }
                XCTAssertFalse(run.contains(key + "missing.json"))
                let folders = Set(run.entries().compactMap { e in e.path.lastIndex(of: "/").map { String(e.path[..<$0]) } })
                XCTAssertEqual(run.folders(), folders)
            }
            XCTAssertEqual(describe(seen), describe(files), "round \(round)")
            // Some runs carried, the others' entries fresh: the same bytes.
            var fresh: Files = [:], carried: [String: IndexFileRun] = [:]
            for (key, run) in runs {
                if rng.next() % 2 == 0 { carried[key] = run } else { for e in run.entries() { fresh[e.path] = (e.size, e.sha256) } }
            }
            XCTAssertEqual(IndexFormat.files(fresh, carried: carried), whole, "round \(round)")
            var index = PublishedIndex(generator: "t", revision: 1, validFrom: nil, nextChange: nil)
            index.files = fresh
            index.carried = carried
            XCTAssertEqual(index.fileCount, files.count)
            for path in files.keys { XCTAssertTrue(try index.lists(path), path) }
            XCTAssertFalse(try index.lists("app-050/nothing.json"))
        }
    }

    /// Files listed a project at a time, as a publish lists those it wrote
    /// (`PublishedIndex.list`: as runs, or as entries when their run's key is
    /// taken), among carried runs: the index written entry by entry. Written
    /// a piece at a time (`write`), the same bytes, list and runs, and the
    /// runs it wrote let go but for their folders.
    func testFilesListedAsRunsGiveTheIndexWrittenEntryByEntry() throws {
        var rng = SplitMix(seed: 49)
        let dir = NSTemporaryDirectory() + "relctl-spill-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        for round in 0..<200 {
            let files = sampleFiles(&rng)
            var whole = PublishedIndex(generator: "t", revision: 1, validFrom: nil, nextChange: nil)
            whole.files = files
            let expected = try IndexFormat.located(whole).bytes
            let all = IndexFormat.files(files)
            let runs = try XCTUnwrap(IndexFileRun.cut(all, 0..<all.count))
            var index = PublishedIndex(generator: "t", revision: 1, validFrom: nil, nextChange: nil)
            // Every other round the runs listed wait in a spill, as a publish keeps them.
            if round % 2 == 0 { index.spill = try XCTUnwrap(RunSpill(in: dir)) }
            var listed: Set<String> = [], once: Set<String> = []
            for key in runs.keys.sorted().map({ ($0, rng.next()) }).sorted(by: { $0.1 < $1.1 }).map(\.0) {
                let run = runs[key]!
                let entries = Dictionary(uniqueKeysWithValues: run.entries().map { ($0.path, ($0.size, $0.sha256)) })
                switch rng.next() % 4 {
                case 0: index.carried[key] = run
                // Listed twice over: the second time its key is taken, so they stay entries.
                case 1: try index.list(entries); try index.list(entries); listed.insert(key)
                default: try index.list(entries); listed.insert(key); once.insert(key)
                }
            }
            XCTAssertEqual(index.fileCount, files.count, "round \(round)")
            for path in files.keys { XCTAssertTrue(try index.lists(path), path) }
            XCTAssertFalse(try index.lists("app-050/nothing.json"))
            XCTAssertTrue(index.carried.allSatisfy { key, run in (run.spilledAt != nil) == (index.spill != nil && once.contains(key)) }, "round \(round)")
            let located = try IndexFormat.located(index)
            XCTAssertEqual(located.bytes, expected, "round \(round)")
            // Written: the runs listed once; those listed twice are entries.
            let written = Set(index.carried.filter(\.value.isWritten).keys)
            XCTAssertEqual(written, once, "round \(round)")
            XCTAssertTrue(listed.subtracting(once).allSatisfy { index.carried[$0] == nil }, "round \(round)")
            // Written as a publish writes it, a piece at a time: the same bytes, list and
            // runs; the runs it wrote let go, their folders kept for the tree's state.
            let piece = 1 + Int(rng.next() % 4096)
            var sent: [UInt8] = [], pieces: [Int] = []
            let streamed = try IndexFormat.write(&index, piece: piece) { sent += $0; pieces.append($0.count) }
            XCTAssertEqual(sent, expected, "round \(round)")
            // Cut where a piece is full: all but the last are, none is empty.
            XCTAssertTrue(pieces.dropLast().allSatisfy { $0 >= piece } && pieces.allSatisfy { $0 > 0 } && (expected.count < 2 * piece || pieces.count > 1),
                          "round \(round): pieces \(pieces) of \(piece) bytes")
            XCTAssertEqual(streamed.size, expected.count)
            XCTAssertEqual(streamed.sha256, SHA256.hex(expected))
            XCTAssertEqual(streamed.fileList, located.fileList)
            XCTAssertEqual(streamed.runs, located.runs)
            XCTAssertEqual(index.fileCount, files.count, "round \(round)")
            XCTAssertEqual(Set(index.carried.filter(\.value.isWritten).keys), written, "round \(round)")
            for (key, run) in index.carried {
                XCTAssertEqual(run.isHollow, written.contains(key), key)
                XCTAssertEqual(run.folders(), runs[key]!.folders(), key)
                if !run.isHollow { XCTAssertEqual(run.entries().map(\.path), runs[key]!.entries().map(\.path), key) }
            }
        }
    }

    /// The journal of a commit, written straight: the bytes its JSON gives,
    /// every path staged or named once, sorted, but index.json.
    func testTheJournalIsItsJSON() {
        var rng = SplitMix(seed: 1205)
        let cases: [(staged: [String], others: [String])] = [
            ([], []), (["index.html"], []), ([], ["index.json"]), (["index.json", "b"], ["a", "b", "index.json"]),
            (["a/b.json", "a", "a/b", "a/b"], ["a/", "a/b.j"]),
            (["app-001/ios/whatsnew/en.json", "app-001/control.json", #"odd "name"\.json"#, "app-001/control.json"], ["app-001/ios", "app-0011"]),
            ((0..<300).map { _ in "app-\(rng.next() % 40)/\(["ios", "android", "ios/retired"][Int(rng.next() % 3)])/\(rng.next() % 9).json" },
             (0..<50).map { _ in "app-\(rng.next() % 40)/control.json" }),
        ]
        for (staged, others) in cases {
            let expected = Set(staged + others).subtracting(["index.json"]).sorted()
            XCTAssertEqual(Staging.journal(PathList(staged), adding: others), JSON.object(["paths": .array(expected.map { .string($0) })]).compactBytes(),
                           "\(staged) \(others)")
        }
    }

    /// The paths a publish reports, kept as one buffer: the same strings in the order appended.
    func testAPathListGivesBackItsPaths() {
        let paths = ["app-001/control.json", "", "index.html", "app-001/control.json", "é/ü.json"]
        let list = PathList(paths)
        XCTAssertEqual(list.count, 5)
        XCTAssertEqual(list.paths, paths)
        XCTAssertTrue(PathList().isEmpty)
        XCTAssertEqual(PathList().paths, [])
    }

    /// Where the list's writer says each run is (what the tree's state
    /// records): taken, the runs are those a cut finds; anything but the
    /// list's contents exactly is refused, and a run recorded where the
    /// bytes are not entries reads as none, never as a crash.
    func testRunsWhereTheirWriterRecordedThemAreTheRunsCut() throws {
        var rng = SplitMix(seed: 1201)
        for round in 0..<200 {
            let files = sampleFiles(&rng)
            let whole = IndexFormat.files(files)
            let runs = try XCTUnwrap(IndexFileRun.cut(whole, 0..<whole.count))
            var fresh: Files = [:], carried: [String: IndexFileRun] = [:]
            for (key, run) in runs {
                if rng.next() % 2 == 0 { carried[key] = run } else { for e in run.entries() { fresh[e.path] = (e.size, e.sha256) } }
            }
            var output = IndexOutput(capacity: 0)
            output.bytes = Array("{\"files\":".utf8)
            let start = output.position
            var kept = carried
            let ranges = try IndexFormat.files(fresh, carried: &kept, letGo: false, spill: nil, into: &output)
            let list = start..<output.position
            var out = output.bytes
            out.append(125)
            let taken = try XCTUnwrap(IndexFileRun.recorded(out, list: list, runs: ranges), "round \(round)")
            XCTAssertEqual(taken.keys.sorted(), runs.keys.sorted())
            for (key, run) in runs {
                let other = try XCTUnwrap(taken[key])
                XCTAssertEqual(Array(other.bytes), Array(run.bytes), key)
                XCTAssertEqual(other.count, run.count, key)
                XCTAssertEqual(other.entries().map(\.path), run.entries().map(\.path), key)
                XCTAssertEqual(other.entries().map(\.sha256), run.entries().map(\.sha256), key)
                XCTAssertEqual(other.folders(), run.folders(), key)
                for e in run.entries() { XCTAssertTrue(other.contains(e.path), e.path) }
                XCTAssertFalse(other.contains(key + "missing.json"))
            }
            guard let (key, one) = ranges.first(where: { _ in true }) else { continue }
            var moved = ranges
            moved[key] = IndexFileRun.Recorded(range: one.range.lowerBound..<(one.range.upperBound - 1), count: one.count)
            XCTAssertNil(IndexFileRun.recorded(out, list: list, runs: moved), "a run one byte short")
            moved[key] = nil
            XCTAssertNil(IndexFileRun.recorded(out, list: list, runs: moved), "a run left out")
            XCTAssertNil(IndexFileRun.recorded(out, list: (list.lowerBound + 1)..<list.upperBound, runs: ranges), "not the list")
        }
        // The ranges of well-placed runs over entries that are not as relctl writes them.
        let bad = Array(#"{"a/x":{"sha256":"ZZ","size":01},"b":{"sha256":"ab","size":1}}"#.utf8)
        let a = IndexFileRun.Recorded(range: 1..<32, count: 1), b = IndexFileRun.Recorded(range: 33..<(bad.count - 1), count: 1)
        let taken = try XCTUnwrap(IndexFileRun.recorded(bad, list: 0..<bad.count, runs: ["a/": a, "b": b]))
        XCTAssertEqual(taken["a/"]?.entries().count, 0)
        XCTAssertEqual(taken["a/"]?.folders(), [])
        XCTAssertEqual(taken["b"]?.entries().map(\.path), ["b"])
        // Entries as written, but not as many as recorded: none read.
        let two = Array(#"{"a/x":{"sha256":"ab","size":1},"a/y":{"sha256":"ab","size":2}}"#.utf8)
        for (count, read) in [(2, 2), (1, 0)] {
            let runs = IndexFileRun.recorded(two, list: 0..<two.count, runs: ["a/": IndexFileRun.Recorded(range: 1..<(two.count - 1), count: count)])
            XCTAssertEqual(try XCTUnwrap(runs?["a/"]).entries().count, read, "recorded as \(count)")
        }
        // An empty list: no runs.
        XCTAssertEqual(IndexFileRun.recorded(Array("{}".utf8), list: 0..<2, runs: [:])?.count, 0)
    }

    func testOnlyAListAsRelctlWritesItIsCut() {
        func cut(_ text: String) -> [String: IndexFileRun]? {
            let bytes = Array(text.utf8)
            return IndexFileRun.cut(bytes, 0..<bytes.count)
        }
        let entry = { (path: String) in #""\#(path)":{"sha256":"ab","size":1}"# }
        XCTAssertEqual(cut("{" + entry("a/x") + "," + entry("b/y") + "}")?.keys.sorted(), ["a/", "b/"])
        XCTAssertEqual(cut("{}")?.count, 0)
        XCTAssertNil(cut("{" + entry("b/y") + "," + entry("a/x") + "}"), "out of order")
        XCTAssertNil(cut("{" + entry("a/x") + "," + entry("a/x") + "}"), "twice")
        XCTAssertNil(cut("{ " + entry("a/x") + "}"), "spaced")
        XCTAssertNil(cut("{" + entry("a\\/x") + "}"), "escaped")
        XCTAssertNil(cut("{" + entry("../x") + "}"), "outside DIR")
        XCTAssertNil(cut("{" + entry("a//x") + "}"), "an empty name")
        XCTAssertNil(cut("{" + #""a/x":{"sha256":"ab","size":1234567890123}"# + "}"), "a size beyond twelve digits")
        XCTAssertNil(cut("{" + #""a/x":{"sha256":"ab","size":01}"# + "}"), "a leading zero")
        XCTAssertEqual(cut("{" + #""a/x":{"sha256":"ab","size":0}"# + "}")?.count, 1)
        XCTAssertNil(cut("{" + #""a/x":{"sha256":"AB","size":1}"# + "}"), "a digest not in lowercase hex")
        XCTAssertNil(cut("{" + #""a/x":{"sha256":"\#(String(repeating: "a", count: 65))","size":1}"# + "}"), "a digest too long")
        XCTAssertNil(cut("{" + entry("ü/x") + "}"), "beyond ASCII")
        XCTAssertNil(cut("{" + #""a/x":{"size":1,"sha256":"ab"}"# + "}"), "members in another order")
        XCTAssertNil(cut("{" + entry("a/x") + "}x"), "after the list")
        XCTAssertNil(cut("{" + entry("a/x") + ","), "cut short")
    }

    /// A list not as relctl writes it is read, then cut from the list it
    /// gives, leaving out the paths no publish may touch and keeping those
    /// with a size or digest it would not write (to replace or remove them).
    func testAnyOtherListIsReadThenCut() throws {
        let runs = IndexFormat.runs(of: ["a/x": (1, "ab"), "../x": (2, "cd"), "a/\"q": (3, "ef"), "ü/x": (3, "ef"), "index.html": (4, "gh"),
                                         "b/negative": (-1, "ab"), "b/huge": (1_000_000_000_000, "ab"), "b/escaped": (5, "a\"b"), "b/upper": (6, "AB")])
        XCTAssertEqual(runs.keys.sorted(), ["a/", "b/", "index.html"])
        XCTAssertEqual(runs["a/"]?.entries().map(\.path), ["a/x"])
        XCTAssertEqual(runs["b/"]?.entries().map { "\($0.path) \($0.size) \($0.sha256)" },
                       ["b/escaped 5 ", "b/huge 0 ab", "b/negative 0 ab", "b/upper 6 "])
        XCTAssertEqual(runs["index.html"]?.entries().map(\.sha256), [""], "not hex: no digest")
        let pretty = Array(#"{"generator":"g","revision":1,"validFrom":null,"nextChange":null,"projects":{},"files":{ "b/y": {"size": 2, "sha256": "cd"}, "a/x": {"sha256": "ab", "size": 1}, "../z": {"sha256": "ef", "size": 3} }}"#.utf8)
        let index = try XCTUnwrap(IndexFormat.parse(pretty, files: .runs))
        XCTAssertTrue(index.files.isEmpty)
        XCTAssertEqual(index.carried.keys.sorted(), ["a/", "b/"])
        XCTAssertEqual(index.carried["b/"]?.entries().map(\.size), [2])
    }

    /// A publish reads the list in the same pass that finds its end, the
    /// members after it read as usual; a "files" given twice counts once, the last.
    func testTheListIsCutWhereTheIndexHoldsIt() throws {
        let head = #"{"files":{"a/x":{"sha256":"ab","size":1}},"generator":"g","nextChange":null,"projects":{},"treeSha256":"77","validFrom":null}"#
        let index = try XCTUnwrap(IndexFormat.parse(Array(head.utf8), files: .runs))
        XCTAssertEqual(index.treeSha256, "77")
        XCTAssertEqual(index.carried["a/"]?.entries().map(\.path), ["a/x"])
        let twice = head.replacingOccurrences(of: #","generator""#, with: #","files":{"b/y":{"sha256":"cd","size":2}},"generator""#)
        XCTAssertEqual(try XCTUnwrap(IndexFormat.parse(Array(twice.utf8), files: .runs)).carried.keys.sorted(), ["b/"])
        let secondNotCut = head.replacingOccurrences(of: #","generator""#, with: #","files":{ "b/y":{"sha256":"cd","size":2}},"generator""#)
        XCTAssertEqual(try XCTUnwrap(IndexFormat.parse(Array(secondNotCut.utf8), files: .runs)).carried.keys.sorted(), ["b/"])
    }

    func testPathsRelctlMayTouch() {
        for path in ["a", "a/b.json", "app-050/ios/whatsnew/pt-BR.json", "a b/c"] { XCTAssertTrue(PublishedPath.isSafe(path.utf8), path) }
        for path in ["", "/a", "a/", "a//b", ".a", "a/.b", "a/../b", "..", "a\"b", "a\\b", "a\u{7F}", "a\nb", "ü", "a\u{2028}"] {
            XCTAssertFalse(PublishedPath.isSafe(path.utf8), path)
        }
    }
}

/// A new file is closed once: a body that caught a failed write and went on
/// (FileSystem.writeFile's `put`) must not close a descriptor opened since.
final class NewFileTests: XCTestCase {
    func testANewFileIsClosedOnce() throws {
        let dir = NSTemporaryDirectory() + "newfile-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        for discarding in [false, true] {
            let file = try TreeFiles.NewFile.temporary(in: dir, for: "x.json", naming: dir + "/x.json")
            file.append(Array("{}".utf8)[...])
            try file.finish()
            // The lowest free descriptor: most likely the one the file had.
            let other = open(dir + "/other", O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
            XCTAssertGreaterThanOrEqual(other, 0)
            if discarding { file.discard() } else { try file.finish() }
            file.append(Array("more".utf8)[...])
            XCTAssertNotEqual(fcntl(other, F_GETFD), -1, "a descriptor opened after the file was closed again")
            XCTAssertEqual(try String(contentsOfFile: dir + "/other", encoding: .utf8), "", "written through a closed file's descriptor")
            close(other)
        }
    }
}
