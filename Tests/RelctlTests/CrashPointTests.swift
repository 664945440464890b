import Foundation
import XCTest
@testable import RelctlCLI
@testable import RelctlCore
@testable import RelctlModel
@testable import RelctlPublish
@testable import SQLite

/// Kills publish at each of its filesystem steps in turn (RELCTL_CRASH_AT,
/// honoured by debug builds) and checks after each: every file whole, nothing
/// outside DIR touched, and the next publish gives exactly a fresh publish's
/// tree, with no stale file, temporary or journal left.
final class CrashPointTests: XCTestCase {
    let at = "2026-11-29T12:00:00Z"

    /// Files and folders under `dir`, dot-files included but the state file
    /// (inodes and times: `testEveryCrashPointIsCompletedByTheNextPublish` checks it by its use).
    func snapshot(_ dir: String) -> (files: [String: Data], folders: Set<String>) {
        var files: [String: Data] = [:], folders = Set<String>()
        guard let e = FileManager.default.enumerator(atPath: dir) else { return ([:], []) }
        while let p = e.nextObject() as? String {
            if p == publishState { continue }
            var isDir: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: dir + "/" + p, isDirectory: &isDir)
            if isDir.boolValue { folders.insert(p) } else { files[p] = FileManager.default.contents(atPath: dir + "/" + p) ?? Data() }
        }
        return (files, folders)
    }

    func publish(_ db: String, _ dir: String, crashAt: Int? = nil) throws -> Proc {
        var env = ["TZ": "UTC"]
        if let crashAt { env["RELCTL_CRASH_AT"] = String(crashAt) }
        return try Proc.run(Package.binary, ["--db", db, "publish", dir, "--at", at, "-q"], env: env)
    }

    func testEveryCrashPointIsCompletedByTheNextPublish() throws {
        let h = PublishTests.scenario()
        let base = h.dir + "/base", old = h.dir + "/old", fresh = h.dir + "/fresh", work = h.dir + "/work/out"
        let sentinel = h.dir + "/work/beside.json"
        XCTAssertEqual(try publish(h.db, old).status, 0)
        // The new state: changed files, a new platform's files, and stale ones (a locale and a platform go).
        h.ok("project edit shop --locales en,tr")
        h.ok("notes set 2.0 --platform ios --locale tr \"Başka\"")
        h.ok("platform rm android --yes")
        h.ok("platform add macos --bundle-id com.example.shop --app-store-id 1088280260")
        h.ok("version add 1.0 --platform macos --released 2026-01-01T00:00:00Z")
        // A new project: a folder staged at DIR's root, and a flush ahead while the next renders.
        h.ok("project add second --name Second")
        h.ok("platform add android --bundle-id com.example.second -p second")
        h.ok("version add 1.0 --platform android --build 1 --released 2026-01-01T00:00:00Z -p second")
        XCTAssertEqual(try publish(h.db, fresh).status, 0)
        let oldTree = snapshot(old), newTree = snapshot(fresh)
        XCTAssertFalse(Set(oldTree.files.keys).subtracting(newTree.files.keys).isEmpty, "the scenario must leave stale files")
        XCTAssertFalse(Set(newTree.files.keys).subtracting(oldTree.files.keys).isEmpty, "and add new ones")
        _ = base

        var point = 1
        var crashed = 0
        while true {
            try? FileManager.default.removeItem(atPath: h.dir + "/work")
            try FileManager.default.createDirectory(atPath: h.dir + "/work", withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: old, toPath: work)
            try Data("mine\n".utf8).write(to: URL(fileURLWithPath: sentinel))
            let run = try publish(h.db, work, crashAt: point)
            if run.status == 0 { break }
            // A publish that fails outright would never reach its end: one failure, not a loop.
            guard run.status == 86 else { XCTFail("point \(point): exit \(run.status): \(run.err)"); break }
            crashed += 1
            // Every file whole: the old or the new bytes at its path.
            let seen = snapshot(work)
            for (path, data) in seen.files {
                // Temporaries, staging folders and the journal: never a client's URL.
                if path.split(separator: "/").contains(where: { $0.hasPrefix(".relctl-") }) { continue }
                XCTAssertTrue(data == oldTree.files[path] || data == newTree.files[path], "point \(point): \(path) is neither old nor new")
            }
            XCTAssertNoThrow(try JSONReader.parse(Array(seen.files["index.json"] ?? Data())), "point \(point): index.json")
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: h.dir + "/work").sorted(), ["beside.json", "out"], "point \(point)")
            XCTAssertEqual(FileManager.default.contents(atPath: sentinel), Data("mine\n".utf8))
            // The next publish completes it: exactly a fresh publish's tree.
            let next = try publish(h.db, work)
            XCTAssertEqual(next.status, 0, "point \(point): \(next.err)")
            let after = snapshot(work)
            XCTAssertEqual(Set(after.files.keys), Set(newTree.files.keys), "point \(point)")
            XCTAssertEqual(after.folders, newTree.folders, "point \(point)")
            for (path, data) in newTree.files { XCTAssertEqual(after.files[path], data, "point \(point): \(path)") }
            // The state it recorded names the tree as it is, so the publish after it has nothing to do.
            let state = TreeState.read(root: work)
            XCTAssertNotNil(state, "point \(point)")
            XCTAssertEqual(state?.checkFolders(root: work).changed, [], "point \(point)")
            XCTAssertEqual(state.map { $0.files }, newTree.files.count, "point \(point): every file, index.json too")
            point += 1
        }
        print("crash points: \(crashed) steps of one publish, each killed and completed")
        XCTAssertGreaterThan(crashed, 30, "the publish has a step for each write, rename and removal")
        XCTAssertEqual(snapshot(work).files, newTree.files)
    }

    /// Killed twice: during a publish, then during the one that completes it.
    func testACrashDuringRecoveryIsCompletedToo() throws {
        let h = PublishTests.scenario()
        let old = h.dir + "/old", fresh = h.dir + "/fresh", work = h.dir + "/work"
        XCTAssertEqual(try publish(h.db, old).status, 0)
        h.ok("project edit shop --locales en")
        // New folders too, so a staging folder is left by the first kill for the second.
        h.ok("platform add macos --bundle-id com.example.shop --app-store-id 1088280260")
        h.ok("version add 1.0 --platform macos --released 2026-01-01T00:00:00Z")
        XCTAssertEqual(try publish(h.db, fresh).status, 0)
        let newTree = snapshot(fresh)
        for first in stride(from: 3, through: 60, by: 7) {
            for second in [1, 2, 5] {
                try? FileManager.default.removeItem(atPath: work)
                try FileManager.default.copyItem(atPath: old, toPath: work)
                _ = try publish(h.db, work, crashAt: first)
                _ = try publish(h.db, work, crashAt: second)
                XCTAssertEqual(try publish(h.db, work).status, 0)
                let after = snapshot(work)
                XCTAssertEqual(after.files, newTree.files, "crashed at \(first), then at \(second)")
                XCTAssertEqual(after.folders, newTree.folders, "crashed at \(first), then at \(second)")
            }
        }
    }

    /// A file a publish cut short put in place, found as wanted by the next
    /// publish, which is cut short too (before index.json), is still named
    /// by the journal: it stays relctl's, and a later publish that changes
    /// it replaces it rather than refusing it as someone else's.
    func testAFileACutPublishPutInPlaceStaysRelctlsThroughASecondCut() throws {
        let h = PublishTests.scenario()
        let fm = FileManager.default
        let fresh = h.dir + "/fresh", work = h.dir + "/work", other = h.dir + "/other.db", freshOther = h.dir + "/fresh-other"
        XCTAssertEqual(try publish(h.db, fresh).status, 0)
        let paths = snapshot(fresh).files.keys.filter { $0 != "index.json" }.sorted()
        // Another database, whose shop/control.json differs.
        try fm.copyItem(atPath: h.db, toPath: other)
        XCTAssertEqual(h.run(["force", "2.0", "--platform", "ios", "--yes", "-q"], database: other).status, 0)
        XCTAssertEqual(try publish(other, freshOther).status, 0)
        let expected = snapshot(freshOther)
        XCTAssertNotEqual(expected.files["shop/control.json"], snapshot(fresh).files["shop/control.json"])
        var cuts = 0
        // Every third step: the second cut matters between its journal's rename and index.json's, a few steps wide.
        for step in stride(from: 1, through: 400, by: 3) {
            // A first publish cut short after it renamed shop/control.json into place.
            try? fm.removeItem(atPath: work)
            try fm.createDirectory(atPath: work + "/shop", withIntermediateDirectories: true)
            try fm.copyItem(atPath: fresh + "/shop/control.json", toPath: work + "/shop/control.json")
            try JSON.object(["paths": .array(paths.map(JSON.string))]).rendered().write(toFile: work + "/.relctl-journal", atomically: true, encoding: .utf8)
            let cut = try publish(h.db, work, crashAt: step)
            if cut.status == 0 { break }
            XCTAssertEqual(cut.status, 86, cut.err)
            cuts += 1
            let next = try publish(other, work)
            XCTAssertEqual(next.status, 0, "cut at \(step): \(next.err)")
            XCTAssertEqual(snapshot(work).files, expected.files, "cut at \(step)")
        }
        XCTAssertGreaterThan(cuts, 10)
    }
}
