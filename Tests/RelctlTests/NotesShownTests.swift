import Foundation
import XCTest
@testable import RelctlCLI
@testable import RelctlCore
@testable import RelctlModel
@testable import RelctlStore

/// A publish reads only the notes its files show (ProjectSnapshot.versionsWithNotesShown):
/// with every other version's notes unread, it must write the same bytes. A format that
/// asked for an unread version's notes would stop the process (VersionRecord.notes), so a
/// gap in that list fails here loudly, never as a silently empty note.
final class NotesShownTests: XCTestCase {
    /// Generated situations (FidelityScenarioTests'), with what's-new limits that cut the
    /// list and projects without a locale list, at instants around their releases and floors.
    func testFilesAreTheSameWithOnlyTheNotesTheyShow() throws {
        let day = FidelityScenarioTests.day, now = FidelityScenarioTests.now
        var compared = 0, cut = 0
        for seed in 0..<30 {
            var full = FidelityScenarioTests.scenario(UInt64(seed))
            var r = SplitMix(seed: UInt64(seed) &+ 7777)
            full.project.whatsNewLimit = r.pick([0, 1, 2, 3, 10])
            if r.chance(30) { full.project.locales = [] }
            for t in [now - 400 * day, now - 30 * day, now - 3600, now, now + day, now + 40 * day] {
                let shown = full.versionsWithNotesRead(at: t)
                var partial = full
                for (id, list) in full.versions { partial.versions[id] = list.map { shown.contains($0.id) ? $0 : $0.withoutNotes() } }
                // As the store reads them: apart, for a project without a locale list.
                if full.project.locales.isEmpty { partial.noteLocales = Set(full.versions.values.flatMap { $0.flatMap { $0.notes.keys } }) }
                if partial.versions.values.contains(where: { $0.contains { !$0.notesRead } }) { cut += 1 }
                let a = rendered(full, at: t), b = rendered(partial, at: t)
                XCTAssertEqual(a.files.map(\.path), b.files.map(\.path), "seed \(seed) at \(t)")
                for (x, y) in zip(a.files, b.files) { XCTAssertEqual(x.bytes, y.bytes, "seed \(seed) at \(t): \(x.path)") }
                XCTAssertEqual(a.said, b.said, "seed \(seed) at \(t)")
                compared += 1
            }
        }
        XCTAssertEqual(compared, 180)
        XCTAssertGreaterThan(cut, 90, "most situations must leave some notes unread, or this proves nothing")
    }

    func rendered(_ s: ProjectSnapshot, at t: Int64) -> (files: [PublishedFile], said: [String]) {
        var warnings: [String] = []
        let r = ProjectFiles.renderChecked(s, at: t, warnings: &warnings, page: StatusPageOptions())
        return (r.files, warnings + r.findings.map { "\($0)" })
    }

    /// The store reads the shown versions' notes whole, marks the others unread, and the
    /// locales of every note apart: a locale only an old version's notes use is still published.
    func testTheStoreReadsTheShownNotesAndEveryNoteLocale() throws {
        let h = Harness()
        h.sample()
        h.ok("notes set 1.0 --platform ios --locale fr \"Première\"")
        h.ok("rules set --whats-new 1 --yes")
        let store = try Store(path: h.db, mode: .read, user: "tester")
        let at = try TimeInput.parse("2026-11-29T12:00:00Z", now: 0, timeZone: nil)
        let (full, partial) = try store.read {
            let project = try store.requireProject("shop")
            return (try store.snapshot(project), try store.snapshot(project, notesShownAt: at))
        }
        XCTAssertTrue(full.project.locales.isEmpty)
        XCTAssertEqual(partial.publishedLocales, full.publishedLocales)
        XCTAssertTrue(partial.publishedLocales.contains("fr"), "fr is used by 1.0's notes alone")
        let shown = full.versionsWithNotesRead(at: at)
        var read: [String] = []
        for (id, list) in partial.versions {
            for (v, w) in zip(list, full.versions[id]!) {
                XCTAssertEqual(v.notesRead, shown.contains(v.id), v.label)
                if v.notesRead { XCTAssertEqual(v.notes, w.notes, v.label); read.append(v.label) }
            }
        }
        XCTAssertEqual(read.sorted(), ["2.0 (200)", "2.0.0 (200)"], "the newest release of each platform, with the limit at 1")
        // Listing every version, most notes are shown: they are read at once, all of them.
        h.ok("rules set --whats-new 0 --yes")
        let all = try store.read { try store.snapshot(try store.requireProject("shop"), notesShownAt: at) }
        for (id, list) in all.versions {
            for (v, w) in zip(list, full.versions[id]!) {
                XCTAssertTrue(v.notesRead, v.label)
                XCTAssertEqual(v.notes, w.notes, v.label)
            }
        }
    }
}
