import XCTest
@testable import RelctlCore
@testable import RelctlPublish

/// The deploy plan is a pure function of the two indexes, the owed
/// deletions and the time: what is sent, in which order, with which cache
/// headers, and what is deleted. An app must never meet an index.json that
/// names a file not there yet, or a control.json newer than the data it points at.
final class DeployPlanTests: XCTestCase {
    let now: Int64 = 1_796_212_800

    func index(_ files: [String: String], nextChange: Int64? = nil) -> PublishedIndex {
        var i = PublishedIndex(generator: "relctl test", revision: 1, validFrom: nil, nextChange: nextChange.map { NextChange(at: $0, causes: ["a window ends"]) })
        for (path, digest) in files { i.files[path] = (size: digest.count, sha256: digest) }
        return i
    }

    func plan(local: [String: String], remote: [String: String]?, remoteIndex: [UInt8]? = nil, owed: [String] = [], nextChange: Int64? = nil) -> DeployPlan {
        let theirs = remote.map { index($0) }
        return DeployPlan(local: index(local, nextChange: nextChange), localIndex: Array("local".utf8),
                          remote: (theirs, remoteIndex ?? theirs.map { _ in Array("remote".utf8) }), owed: owed, now: now)
    }

    func testDataGoesFirstThenControlThenTheIndexThenDeletions() {
        let p = plan(local: ["shop/control.json": "c2", "shop/ios/retired/en.json": "r2", "shop/ios/whatsnew/en.json": "w1"],
                     remote: ["shop/control.json": "c1", "shop/ios/retired/en.json": "r1", "shop/ios/whatsnew/en.json": "w1", "shop/android/andversion.json": "a1"])
        XCTAssertEqual(p.steps.map(\.what), ["uploading data files", "uploading control.json files", "uploading index.json", "deleting files that no longer belong"])
        XCTAssertEqual(p.uploads, ["shop/ios/retired/en.json", "shop/control.json", "index.json"])
        XCTAssertEqual(p.deletions, ["shop/android/andversion.json"])
        XCTAssertEqual(p.unchanged, 1, "the what's-new file is the remote's already")
        XCTAssertEqual(p.changedPaths, ["index.json", "shop/android/andversion.json", "shop/control.json", "shop/ios/retired/en.json"])
        XCTAssertTrue(p.steps[2].isIndex)
        XCTAssertTrue(p.steps[3].isDeletion)
    }

    func testAnIndexAlreadyThereIsNotSentAndAnEmptyRemoteTakesEverything() {
        let same = plan(local: ["shop/control.json": "c1"], remote: ["shop/control.json": "c1"], remoteIndex: Array("local".utf8))
        XCTAssertTrue(same.steps.isEmpty, "\(same.steps.map(\.what))")
        XCTAssertEqual(same.unchanged, 2, "the control.json and the index")
        let fresh = plan(local: ["shop/control.json": "c1", "shop/ios/siren.json": "s1"], remote: nil)
        XCTAssertEqual(fresh.uploads, ["shop/ios/siren.json", "shop/control.json", "index.json"])
        XCTAssertEqual(fresh.deletions, [])
    }

    func testNeverDeletedTheIndexTheRecordOrAPathOutsideTheTree() {
        let p = plan(local: ["shop/control.json": "c1"],
                     remote: ["shop/control.json": "c1", "index.json": "i", DeployPlan.recordName: "r", "../etc/passwd": "x", "/abs.json": "y", "old/control.json": "o"],
                     owed: ["gone/ios/siren.json", "../owed.json", "shop/control.json"])
        XCTAssertEqual(p.deletions, ["gone/ios/siren.json", "old/control.json"], "owed deletions are kept, a file the release holds is not one")
    }

    func testEachUploadCarriesItsKindsContentTypeAndCacheAge() {
        let p = plan(local: ["index.html": "h", "shop/ios/appcast.xml": "x", "shop/ios/whatsnew/en.json": "w", "shop/ios/retired/en.json": "r"], remote: nil)
        var headers: [String: (String, Int64)] = [:]
        for step in p.steps {
            guard case .upload(let type, let age) = step.kind else { continue }
            for path in step.paths { headers[path] = (type, age) }
        }
        XCTAssertEqual(headers["index.html"]?.0, "text/html; charset=utf-8")
        XCTAssertEqual(headers["shop/ios/appcast.xml"]?.0, "application/rss+xml")
        XCTAssertEqual(headers["shop/ios/whatsnew/en.json"]?.1, FileKinds.whatsNew.maxAge)
        XCTAssertEqual(headers["shop/ios/retired/en.json"]?.1, FileKinds.retired.maxAge)
        XCTAssertEqual(headers["index.json"]?.1, FileKinds.index.maxAge)
        XCTAssertFalse(p.capped)
        // One step per content type and age: the what's-new and retired files differ in age.
        XCTAssertEqual(p.steps.filter { $0.what == "uploading data files" }.count, 4)
    }

    /// A cache must not keep a file past the instant it changes by itself.
    func testCacheAgesAreCappedAtTheNextChange() {
        let p = plan(local: ["shop/ios/whatsnew/en.json": "w", "shop/control.json": "c"], remote: nil, nextChange: now + 90)
        XCTAssertTrue(p.capped)
        XCTAssertEqual(p.capSeconds, 90)
        for step in p.steps {
            guard case .upload(_, let age) = step.kind else { continue }
            XCTAssertLessThanOrEqual(age, 90, step.what)
        }
        let past = plan(local: ["shop/control.json": "c"], remote: nil, nextChange: now - 10)
        XCTAssertEqual(past.capSeconds, 0, "a change already due caps at zero, never below")
    }
}
