import XCTest
@testable import RelctlCore

/// index.json's file list cut into runs (a project's folder, a root file)
/// and spliced back: whatever runs are carried whole, the list is the one
/// written entry by entry.
final class IndexFileRunTests: XCTestCase {
    typealias Files = [String: (size: Int, sha256: String)]

    /// Folders whose names are prefixes of one another, root files beside
    /// them and sorting between them, a deep folder, and a name beyond ASCII.
    func sampleFiles(_ rng: inout SplitMix) -> Files {
        var files: Files = [:]
        let tops = ["app", "app-0", "app-05", "app-050", "b", "zeta", "ürün"]
        for top in tops where rng.next() % 4 != 0 {
            for _ in 0..<(1 + Int(rng.next() % 6)) {
                let depth = Int(rng.next() % 3)
                let folders = (0..<depth).map { _ in ["ios", "android", "whatsnew", "lookup"][Int(rng.next() % 4)] }
                let path = ([top] + folders + ["f\(rng.next() % 5).json"]).joined(separator: "/")
                files[path] = (Int(rng.next() % 100_000), "sha\(rng.next())")
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
            for path in files.keys { XCTAssertTrue(index.lists(path), path) }
            XCTAssertFalse(index.lists("app-050/nothing.json"))
        }
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
        XCTAssertNil(cut("{" + #""a/x":{"size":1,"sha256":"ab"}"# + "}"), "members in another order")
        XCTAssertNil(cut("{" + entry("a/x") + "}x"), "after the list")
        XCTAssertNil(cut("{" + entry("a/x") + ","), "cut short")
    }

    /// A list not as relctl writes it is read, then cut from the list it
    /// gives, leaving out the paths no publish may touch.
    func testAnyOtherListIsReadThenCut() throws {
        let runs = IndexFormat.runs(of: ["a/x": (1, "ab"), "../x": (2, "cd"), "a/\"q": (3, "ef"), "index.html": (4, "gh")])
        XCTAssertEqual(runs.keys.sorted(), ["a/", "index.html"])
        XCTAssertEqual(runs["a/"]?.entries().map(\.path), ["a/x"])
        let pretty = Array(#"{"generator":"g","revision":1,"validFrom":null,"nextChange":null,"projects":{},"files":{ "b/y": {"size": 2, "sha256": "cd"}, "a/x": {"sha256": "ab", "size": 1}, "../z": {"sha256": "ef", "size": 3} }}"#.utf8)
        let index = try XCTUnwrap(IndexFormat.parse(pretty, files: .runs))
        XCTAssertTrue(index.files.isEmpty)
        XCTAssertEqual(index.carried.keys.sorted(), ["a/", "b/"])
        XCTAssertEqual(index.carried["b/"]?.entries().map(\.size), [2])
    }
}
