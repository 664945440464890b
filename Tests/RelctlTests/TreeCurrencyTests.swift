import XCTest
@testable import RelctlCore
@testable import RelctlModel
@testable import RelctlPublish
@testable import RelctlStore

/// The one answer publish, verify and deploy give to "is this tree current".
final class TreeCurrencyTests: XCTestCase {
    let next = NextChange(at: 2000, causes: ["shop: the force floor 2.0 on ios becomes required"])

    func tree(revision: Int64 = 7, edits: Int64? = 30, projects: [String: (revision: Int64?, edits: Int64?)] = ["shop": (7, 30), "game": (5, 12)]) -> TreeCurrency.Record {
        TreeCurrency.Record(revision: revision, edits: edits, validFrom: 1000, nextChange: next, projects: projects)
    }

    func database(revision: Int64 = 7, edits: Int64 = 30, shop: (Int64, Int64) = (7, 30), game: (Int64, Int64)? = (5, 12)) -> TreeCurrency.Database {
        var r = Revisions(everyProject: 1)
        r.bySlug["shop"] = shop.0; r.edits["shop"] = shop.1
        if let game { r.bySlug["game"] = game.0; r.edits["game"] = game.1 }
        return TreeCurrency.Database(revision: revision, edits: edits, projects: r, slugs: game == nil ? ["shop"] : ["game", "shop"])
    }

    func testACurrentTreeHasNoReason() {
        XCTAssertEqual(TreeCurrency.staleness(tree(), database: database(), at: 1500), [])
        XCTAssertEqual(TreeCurrency.staleness(tree(), database: database(), at: 1000), [], "from validFrom on")
    }

    func testTheSpan() {
        XCTAssertEqual(TreeCurrency.staleness(tree(), database: nil, at: 999), [.notYet(validFrom: 1000)])
        XCTAssertEqual(TreeCurrency.staleness(tree(), database: nil, at: 2000), [.wentStale(next)], "the next change itself is past the span")
        XCTAssertEqual(TreeCurrency.staleness(tree(), database: database(), at: nil), [], "no instant: the span is not looked at")
    }

    func testTheDatabaseAndItsProjects() {
        XCTAssertEqual(TreeCurrency.staleness(tree(), database: database(revision: 8, shop: (8, 31)), at: nil),
                       [.databaseRevision(database: 8, tree: 7), .project("shop", tree: 7, database: 8, byHand: false)])
        XCTAssertEqual(TreeCurrency.staleness(tree(), database: database(edits: 31, shop: (7, 31)), at: nil),
                       [.editedByHand, .project("shop", tree: 7, database: 7, byHand: true)])
        XCTAssertEqual(TreeCurrency.staleness(tree(), database: database(game: nil), at: nil), [.projectRemoved("game")])
        XCTAssertEqual(TreeCurrency.staleness(tree(projects: ["shop": (7, 30)]), database: database(), at: nil), [.projectAdded("game")])
        XCTAssertEqual(TreeCurrency.staleness(tree(projects: ["shop": (7, 30), "game": (nil, nil)]), database: database(), at: nil),
                       [.project("game", tree: nil, database: 5, byHand: false)], "files listed without a record")
        XCTAssertEqual(TreeCurrency.staleness(tree(edits: nil), database: database(edits: 99), at: nil), [], "an index from before edit counts")
    }
}

/// verify asks TreeCurrency too: a tree with no files for a project of the
/// database is not current for it, and says which.
final class VerifyCurrencyTests: XCTestCase {
    func testATreeWithoutAProjectIsStaleAndNamesIt() throws {
        let h = Harness()
        h.sample()
        h.ok("project add game --name Game")
        h.ok("-p game platform add android --bundle-id com.example.game")
        h.ok("-p shop publish \(h.dir)/out --at 2026-11-29T12:00:00Z")
        let r = h.run(["verify", h.dir + "/out", "--json"])
        XCTAssertEqual(r.status, 1, r.out + r.err)
        let doc = r.json as? [String: Any]
        XCTAssertEqual(doc?["stale"] as? Bool, true)
        XCTAssertEqual(doc?["addedProjects"] as? [String], ["game"])
        XCTAssertTrue(h.run(["verify", h.dir + "/out"]).out.contains("stale: project 'game' is in the database but not published here"))
        // Published whole, it is current.
        h.ok("publish \(h.dir)/out --at 2026-11-29T12:00:00Z")
        XCTAssertEqual(h.run(["verify", h.dir + "/out"]).status, 0)
    }
}
