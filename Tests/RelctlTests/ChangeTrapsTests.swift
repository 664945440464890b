import Foundation
import XCTest
@testable import RelctlCLI

/// The quiet operations that could cause an outage: an end that already
/// passed today, a window longer than a day, a release moved again.
final class ChangeTrapsTests: XCTestCase {
    /// At 12:00, "--until 11:00" is refused with both readings, never taken
    /// as tomorrow's 11:00 (a 23-hour window); a later time today works.
    func testAnEndThatPassedTodayIsRefusedWithBothReadings() {
        let h = Harness()  // now: 2026-11-29 12:00 UTC
        h.sample()
        let r = h.fails("maintenance start --until 11:00 --yes", status: 2, "--until 11:00 has already passed today (2026-11-29 11:00 UTC (1 h ago))")
        XCTAssertTrue(r.err.contains("--until 'tomorrow 11:00' (2026-11-30 11:00 UTC (in 23 h))"), r.err)
        // With a start ahead, an end's time of day is the first after it: 11:30 has passed, so
        // "--from 11:30 --until 11:45" is tomorrow's quarter of an hour.
        let s = h.ok("--json maintenance schedule --from 11:30 --until 11:45 --yes").json as? [String: Any]
        XCTAssertEqual(s?["startsAt"] as? String, "2026-11-30T11:30:00Z")
        XCTAssertEqual(s?["endsAt"] as? String, "2026-11-30T11:45:00Z")
        h.ok("maintenance cancel 1 --yes")
        h.ok("maintenance start --until 13:00 --yes")
        // During the window, moving its end to a time of day that passed is the same trap.
        h.fails("maintenance edit 2 --until 11:59 --yes", status: 2, "--until 11:59 has already passed today")
        h.ok("maintenance edit 2 --until \"tomorrow 01:00\" --yes")
        XCTAssertTrue(h.ok("maintenance list").out.contains("2026-11-30 01:00"), h.ok("maintenance list").out)
    }

    /// Every confirmation of a window shows its start, end and length (and
    /// says when it is longer than a day); any window is asked about on a
    /// terminal and needs --yes elsewhere, a dry run never.
    func testEveryWindowIsConfirmedShowingItsSpan() {
        let h = Harness()
        h.sample()
        let shown = h.run(["maintenance", "start", "--for", "2h"], terminal: true, answer: "n")
        XCTAssertEqual(shown.status, 1, shown.err)
        XCTAssertTrue(shown.err.contains("maintenance for all platforms: now to 2026-11-29 14:00 UTC (in 2 h), 2 h\n"), shown.err)
        h.fails("maintenance start --for 2d", status: 2, "a maintenance window for all platforms changes what users see and needs confirmation")
        let asked = h.run(["maintenance", "schedule", "--from", "2026-11-30 02:00", "--for", "30h"], terminal: true, answer: "n")
        XCTAssertEqual(asked.status, 1, asked.err)
        XCTAssertTrue(asked.err.contains("2026-11-30 02:00 UTC (in 14 h) to 2026-12-01 08:00 UTC (in 44 h), 30 h, longer than a day"), asked.err)
        XCTAssertTrue(asked.err.contains("from 2026-11-30 02:00 UTC (in 14 h), when maintenance window"), "the preview names when it starts to block: \(asked.err)")
        h.ok("maintenance schedule --from \"2026-11-30 02:00\" --for 2h --yes")
        h.fails("maintenance edit 1 --until 2026-12-05T00:00:00Z", status: 2, "moving window #1 changes what users see and needs confirmation")
        let edit = h.run(["maintenance", "edit", "1", "--until", "2026-12-05T00:00:00Z"], terminal: true, answer: "n")
        XCTAssertTrue(edit.err.contains("window #1: 2026-11-30 02:00 UTC (in 14 h) to 2026-12-05 00:00 UTC (in 5 d 12 h), 4 d 22 h, longer than a day, was 2026-11-30 02:00 UTC (in 14 h) to 2026-11-30 04:00 UTC (in 16 h), 2 h"), edit.err)
        h.ok("maintenance edit 1 --until 2026-12-05T00:00:00Z --yes")
        h.ok("maintenance start --for 3d --dry-run")
        h.ok("maintenance start --for 3d --yes")
    }

    /// Releasing a version already released moves its release time and
    /// restarts its release delay: asked, --yes off a terminal, and the log keeps the old time.
    func testReReleasingAReleasedVersionAsksAndLogsTheOldTime() {
        let h = Harness()
        h.sample()
        h.fails("version release 2.0 --platform ios", status: 2, "moving a release changes what users see and needs confirmation")
        let declined = h.run(["version", "release", "2.0", "--platform", "ios"], terminal: true, answer: "n")
        XCTAssertEqual(declined.status, 1, declined.err)
        XCTAssertTrue(declined.err.contains("ios 2.0 released 2026-11-01 00:00 UTC (28 d 12 h ago): moves its release to 2026-11-29 12:00 UTC (now), restarting its release delay"), declined.err)
        h.ok("version release 2.0 --platform ios --yes")
        XCTAssertTrue(h.ok("log --limit 1").out.contains("~ version ios 2.0: release 2026-11-01 00:00 UTC (28 d 12 h ago) → 2026-11-29 12:00 UTC (now)"), h.ok("log --limit 1").out)
        // version edit moving a release is the same change.
        h.fails("version edit 1.1 --platform ios --released 2026-11-28T00:00:00Z", status: 2, "moving a release changes what users see")
        h.fails("version edit 1.1 --platform ios --unreleased", status: 2, "moving a release changes what users see")
        h.ok("version edit 1.1 --platform ios --build 111")
        h.ok("version edit 1.1 --platform ios --unreleased --yes")
        // A version not yet released is released without a question.
        h.ok("version add 2.1 --platform ios --build 210 --unreleased")
        h.ok("version release 2.1 --platform ios")
    }
}

/// Previews look past "now": the effect at each coming transition, and what a change removes.
final class TimelinePreviewTests: XCTestCase {
    func scenario() -> Harness {
        let h = Harness()  // now: 2026-11-29 12:00 UTC
        h.ok("init")
        h.ok("project add shop --name Shop")
        h.ok("platform add ios --bundle-id com.example.shop --app-store-id 1")
        for v in ["1.8.0", "1.9.4", "2.0.0"] { h.ok("version add \(v) --platform ios --released 2026-11-01T00:00:00Z") }
        h.ok("version add 2.1.0 --platform ios --released 2026-11-20T00:00:00Z")
        h.ok("force 2.0.0 --after 7d --yes")
        h.ok("maintenance start --for 2h --yes")
        return h
    }

    /// During a window, a floor changes nothing now; the preview says what
    /// it does when the window ends, and that it drops the old deadline.
    func testAFloorDuringMaintenanceShowsTheWindowsEndAndTheDroppedDeadline() {
        let h = scenario()
        let r = h.run(["force", "2.1.0"], terminal: true, answer: "n")
        XCTAssertEqual(r.status, 1, r.err)
        XCTAssertTrue(r.err.contains("raises the force floor of ios from 2.0.0 to 2.1.0, dropping the deadline of 2026-12-06 12:00 UTC (in 7 d): required at once"), r.err)
        XCTAssertTrue(r.err.contains("no install changes what it sees now"), r.err)
        // 2.1.0 is out for 9 days: 2.0.0 is offered it (optional), and the floor makes it required.
        XCTAssertTrue(r.err.contains("from 2026-11-29 14:00 UTC (in 2 h), when maintenance window #1 ends:\n    ios: 1.8.0, 1.9.4, 2.0.0: optional → required"), r.err)
        XCTAssertTrue(r.err.contains("from 2026-12-06 12:00 UTC (in 7 d), when (without this change) the force floor 2.0.0 on ios becomes required:\n    ios: 2.0.0: optional → required"), r.err)
        XCTAssertTrue(r.err.contains("ios: installs nobody recorded, such as"), r.err)
    }

    /// A floor set again without a deadline drops the one it had: a warning, which -q keeps.
    func testDroppingADeadlineWarnsEvenQuietly() {
        let h = scenario()
        let r = h.ok("-q force 2.0.0 --yes")
        XCTAssertTrue(r.err.contains("warning: ios: this drops the deadline of 2.0.0 (2026-12-06 12:00 UTC (in 7 d)): versions below 2.0.0 must update at once; to keep a grace period, add --after or --deadline"), r.err)
        // During the window the preview said nothing changes now; what the window's end brings comes from this change.
        XCTAssertTrue(h.ok("log --limit 1").out.contains("force deadline 2026-12-06 12:00 UTC (in 7 d) → none"), h.ok("log --limit 1").out)
    }

    /// Clearing a floor whose deadline is ahead cancels a switch to required: the preview names it.
    func testClearingAFloorNamesTheSwitchItCancels() {
        let h = scenario()
        h.ok("maintenance stop --yes")
        let r = h.run(["force", "--clear"], terminal: true, answer: "n")
        XCTAssertTrue(r.err.contains("removes the force floor of ios (2.0.0), and with it the switch to required at 2026-12-06 12:00 UTC"), r.err)
        // Optional now either way (the floor's grace period, or the outdated rule after it is gone),
        // but the message users read changes at once: it no longer names the deadline…
        XCTAssertTrue(r.err.contains("ios: 1.8.0, 1.9.4: stays optional, no longer told of the deadline 2026-12-06 12:00 UTC (in 7 d)"), r.err)
        // …but the switch to required next week is what the change takes away.
        XCTAssertTrue(r.err.contains("from 2026-12-06 12:00 UTC (in 7 d), when (without this change) the force floor 2.0.0 on ios becomes required:\n    ios: 1.8.0, 1.9.4: required → optional"), r.err)
    }
}

/// A printed command, pasted, acts on what the message was about.
final class PastedHintProjectTests: XCTestCase {
    /// The hint of a duplicate keeps the values typed.
    func testADuplicateVersionSuggestsTheEditWithTheValuesTyped() {
        let h = Harness()
        h.sample()
        let r = h.fails("version add 2.0 --platform ios --build 999", "ios already has version 2.0")
        // The whole hint: the build typed, and no release time (version add's default, now, would move the release).
        XCTAssertTrue(r.err.contains("change it with 'relctl version edit 2.0 --platform ios --build 999 --db "), r.err)
        XCTAssertFalse(r.err.contains("--released"), r.err)
        let p = h.fails("platform add ios --bundle-id com.example.other --min-os 16.0", "already has platform ios")
        XCTAssertTrue(p.err.contains("'relctl platform edit ios --bundle-id com.example.other --min-os 16.0"), p.err)
    }

    /// A publish warning about another project than the default names it
    /// (-p), and pasted as printed it fixes that project, not the default.
    func testAPublishWarningsCommandNamesItsProjectAndPastesRight() throws {
        let h = Harness()
        h.sample()
        h.ok("project add cam --name Cam")
        h.ok("-p cam platform add ios --bundle-id com.example.cam --app-store-id 7")
        h.ok("-p cam version add 1.0 --platform ios --released 2026-01-01T00:00:00Z")
        h.ok("project use shop")
        let out = h.dir + "/out"
        let r = h.ok("publish \(out)")
        let line = try XCTUnwrap(r.err.split(separator: "\n").first { $0.contains("cam/ios: no minimum OS") }, r.err)
        XCTAssertTrue(line.contains("(relctl platform edit ios --min-os VERSION -p cam)"), String(line))
        // Pasted with a value for VERSION: cam changes, shop does not.
        h.ok("platform edit ios --min-os 14.0 -p cam")
        XCTAssertTrue(h.ok("-p cam platform show ios").out.contains("14.0"))
        XCTAssertTrue(h.ok("platform show ios").out.contains("15.0"), "the default project's iOS keeps its minimum OS")
    }

    /// project edit takes the project as every command does: SLUG, -p or the default.
    func testProjectEditHonoursTheProjectOption() {
        let h = Harness()
        h.sample()
        h.ok("project add blog --name Blog")
        h.ok("project use shop")
        h.ok("-p blog project edit --name \"Blog Two\"")
        XCTAssertTrue(h.ok("project show blog").out.contains("Blog Two"))
        h.ok("project edit --name \"Shop Two\"")
        XCTAssertTrue(h.ok("project show shop").out.contains("Shop Two"))
        h.fails("-p blog project edit shop --name X", status: 2, "SLUG 'shop' and -p 'blog' name two projects")
    }
}

/// A dry run says, field by field, what it would change.
final class DryRunWordsTests: XCTestCase {
    func testADryRunShowsEachFieldBeforeAndAfter() throws {
        let h = Harness()
        h.sample()
        let before = try Data(contentsOf: URL(fileURLWithPath: h.db))
        let r = h.ok("version edit 2.0 --platform ios --build 999 --min-os 16.0 --dry-run")
        XCTAssertTrue(r.err.contains("would change:\n  ~ version ios 2.0: build 200 → 999, min os none → '16.0'"), r.err)
        let q = h.ok("version edit 2.0 --platform ios --build 999 --dry-run -q")
        XCTAssertEqual(q.err, "", "-q silences what a dry run would change")
        let added = h.ok("notes set 2.0 --platform ios --locale fr \"Nouveau\" --dry-run")
        XCTAssertTrue(added.err.contains("+ note fr of ios 2.0"), added.err)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: h.db)), before, "a dry run changed the database")
    }
}

/// What is made is what was shown: a change made by another writer while
/// the question waits makes the confirmed change refuse, changing nothing.
final class ShownIsMadeTests: XCTestCase {
    func testAChangeByAnotherWriterWhileAskingRefuses() throws {
        let h = Harness()
        h.sample()
        let context = Context(env: h.env, clock: { [now = h.now] in now }, user: "tester")
        context.stdinIsTerminal = true
        let db = h.db
        context.readLine = {
            // Another relctl raises the floor while this one asks.
            let other = Context(env: [:], clock: { 1_796_212_800 }, user: "other")
            _ = Runner.run(["--db", db, "force", "1.1", "--platform", "ios", "--yes", "-q"], context: other, tree: Relctl.tree)
            return "y"
        }
        let status = Runner.run(["--db", db, "force", "2.0", "--platform", "ios"], context: context, tree: Relctl.tree)
        XCTAssertEqual(status, 1, context.stderr.text)
        XCTAssertTrue(context.stderr.text.contains("the database changed while the change was shown; nothing was changed"), context.stderr.text)
        XCTAssertTrue(h.ok("policy list").out.contains("1.1"), "the other writer's floor stays")
        XCTAssertFalse(h.ok("policy list").out.contains("2.0 ("), h.ok("policy list").out)
        // Asked again, it goes through.
        XCTAssertEqual(h.run(["force", "2.0", "--platform", "ios"], terminal: true, answer: "y").status, 0)
    }

    /// The question shows the rows the change makes, before → after.
    func testTheQuestionShowsTheRows() {
        let h = Harness()
        h.sample()
        let r = h.run(["rules", "set", "--release-delay", "3"], terminal: true, answer: "n")
        XCTAssertTrue(r.err.contains("changes:\n  ~ project shop: release delay days 1 → 3\nimpact:"), r.err)
    }
}
