import Foundation
import XCTest
@testable import RelctlCLI
@testable import RelctlCore
@testable import RelctlModel

/// The rough edges of a first day (issue 35): what a newcomer types and reads.
final class FirstDayTests: XCTestCase {
    /// `relctl` alone prints the help and succeeds, as git and gh do; a group alone still asks for its command.
    func testRelctlAlonePrintsTheHelp() {
        let h = Harness()
        let r = h.run([String]())
        XCTAssertEqual(r.status, 0, r.err)
        XCTAssertEqual(r.err, "")
        XCTAssertEqual(r.out, Help.render([Relctl.tree.model], width: 80))
        XCTAssertTrue(r.out.contains("USAGE") && r.out.contains("apply"), r.out)
        XCTAssertEqual(h.run(["policy"]).status, 2)
    }

    /// A Retired file with a version written as a number names that value and how to write it;
    /// a policy Retired does not know is read as none, as Retired reads it, and said.
    func testImportRetiredNamesAWrongValueAndSaysAnUnknownPolicy() throws {
        let h = Harness()
        h.sample()
        let messaging = #""messaging":{"forced":{"title":"x","message":"y","continueButtonText":"z"},"recommended":{"title":"x","message":"y","continueButtonText":"z","cancelButtonText":"c"}}"#
        let number = h.dir + "/number.json"
        try Data(#"{"versions":[{"version":"1.0","policy":"none"},{"version":1.3,"policy":"force"}],\#(messaging)}"#.utf8).write(to: URL(fileURLWithPath: number))
        h.fails("import retired \(number) --platform ios --yes", "versions[1].version is the number 1.3, where a string is expected: write it in quotes, \"1.3\"")
        let forced = h.dir + "/forced.json"
        try Data(#"{"versions":[{"version":"1.0","policy":"forced"},{"version":"2.0","policy":"none"}],\#(messaging)}"#.utf8).write(to: URL(fileURLWithPath: forced))
        let r = h.ok("import retired \(forced) --platform ios --dry-run")
        XCTAssertTrue(r.err.contains("warning: versions[0] (1.0): policy 'forced' is not one Retired knows (force, recommend, none), so Retired reads it as none, and so does the import; did you mean 'force'?"), r.err)
        // Where the number is, in any document: the path of its value.
        XCTAssertEqual(JSONReader.fractionalNumber(Array(#"{"a":[1,{"b":"2.5","c":-2e3}]}"#.utf8))?.path, "a[1].c")
        XCTAssertEqual(JSONReader.fractionalNumber(Array(#"{"a":[1,{"b":"2.5","c":-2e3}]}"#.utf8))?.text, "-2e3")
        XCTAssertNil(JSONReader.fractionalNumber(Array(#"{"a":"1.5 \"2.5\"","b":-7}"#.utf8)))
    }

    /// The project's time zone is shown where people look: project show (and --json), rules show, status.
    func testTheProjectsTimeZoneIsShown() throws {
        let h = Harness()
        h.sample()
        h.ok("project edit shop --time-zone Europe/Berlin")
        XCTAssertTrue(h.ok("project show").out.contains("time zone:      Europe/Berlin (the dates in messages)"))
        XCTAssertEqual((h.ok("project show --json").json as? [String: Any])?["timeZone"] as? String, "Europe/Berlin")
        XCTAssertTrue(h.ok("rules show").out.contains("time zone:      Europe/Berlin"))
        XCTAssertEqual((h.ok("rules show --json").json as? [String: Any])?["timeZone"] as? String, "Europe/Berlin")
        XCTAssertTrue(h.ok("status").out.split(separator: "\n").first?.hasSuffix("its messages' dates in Europe/Berlin") == true)
    }

    /// check's labels are words in one style, their values in one column.
    func testChecksLabelsAreOneStyle() {
        let h = Harness()
        h.sample()
        h.ok("force 2.0 --platform ios --after 7d --yes")
        let out = h.ok("check 1.0 --platform ios").out
        let labelled = out.split(separator: "\n").filter { !$0.hasPrefix(" ") && !$0.hasPrefix("notes") }
        XCTAssertGreaterThanOrEqual(labelled.count, 8, out)
        for line in labelled {
            let label = line.prefix { $0 != ":" }
            XCTAssertFalse(label.contains("_"), "a label in words: \(line)")
            XCTAssertEqual(line.dropFirst(15).first.map { $0 != " " }, true, "values in one column: \(line)")
            XCTAssertEqual(line.prefix(15).last, " ", line.description)
        }
        XCTAssertTrue(out.contains("update button: Update"), out)
    }

    /// A project on UTC, a person in Berlin: commands that schedule what apps
    /// show ({until}, {deadline}) say so once; nothing is said once the
    /// project has a zone, or to a person on UTC.
    func testSchedulingOnUTCFromAnotherZoneSaysSoOnce() {
        let h = Harness()
        h.sample()
        h.env["TZ"] = "Europe/Berlin"
        let note = "note: apps show this time in UTC, the time zone of shop, while yours (TZ) is Europe/Berlin; to show users their local time: relctl project edit shop --time-zone Europe/Berlin"
        for line in ["maintenance schedule --from 2026-12-10T02:00:00Z --for 1h --yes", "maintenance edit 1 --until 2026-12-10T04:00:00Z --yes",
                     "force 2.0 --platform ios --after 7d --yes", "force --platform ios --after 8d --yes"] {
            let r = h.ok(line)
            XCTAssertEqual(r.err.components(separatedBy: note).count, 2, "\(line): said once: \(r.err)")
        }
        XCTAssertFalse(h.ok("force 2.0 --platform ios --yes").err.contains("note: apps show"), "no deadline: nothing shown in a message")
        XCTAssertFalse(h.ok("maintenance schedule --from 2026-12-11T02:00:00Z --for 1h --yes -q").err.contains("note:"), "-q")
        h.env["TZ"] = "UTC"
        XCTAssertFalse(h.ok("maintenance schedule --from 2026-12-12T02:00:00Z --for 1h --yes").err.contains("note: apps show"))
        h.env["TZ"] = "Europe/Berlin"
        h.ok("project edit shop --time-zone Europe/Berlin")
        XCTAssertFalse(h.ok("maintenance schedule --from 2026-12-13T02:00:00Z --for 1h --yes").err.contains("note: apps show"))
    }

    /// why: lines, limit lines, impact lines and logged actions write instants as every table does: local, with the distance.
    func testInstantsInSentencesAreWrittenForPeople() {
        let h = Harness()
        h.sample()
        h.env["TZ"] = "Europe/Berlin"
        let r = h.ok("force 2.0 --platform ios --deadline 2026-12-06T12:00:00Z --yes")
        XCTAssertTrue(r.err.contains("2026-12-06 13:00 CET (in 7 d)"), r.err)
        let check = h.ok("check 1.0 --platform ios").out
        XCTAssertTrue(check.contains("why:           1.0 is below the force floor 2.0 on ios, required from 2026-12-06 13:00 CET (in 7 d) [force-deadline]"), check)
        XCTAssertEqual((h.ok("check 1.0 --platform ios --json").json as? [String: Any])?["why"] as? String,
                       "1.0 is below the force floor 2.0 on ios, required from 2026-12-06T12:00:00Z", "--json keeps RFC 3339")
        h.ok("maintenance schedule --from 2026-12-10T02:00:00Z --for 1h --yes")
        let log = h.ok("log").out
        XCTAssertTrue(log.contains("force ios 2.0 deadline 2026-12-06 13:00 CET (in 7 d)"), log)
        XCTAssertTrue(log.contains("maintenance schedule #1 all platforms 2026-12-10 03:00 CET (in 10 d 14 h) to 2026-12-10 04:00 CET (in 10 d 15 h)"), log)
        let status = h.ok("status").out
        XCTAssertTrue(status.contains("maintenance window #1 (2026-12-10 03:00 CET (in 10 d 14 h) to 2026-12-10 04:00 CET (in 10 d 15 h))"), status)
        for text in [check, log, status, r.err] {
            XCTAssertNil(text.range(of: "[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:", options: .regularExpression), text)
        }
    }

    /// Several platforms wherever the action applies to each (version add,
    /// version rm, notes rm), all or nothing; check says plainly that it
    /// answers for one; a maintenance window takes 'all' for every platform.
    func testSeveralPlatformsWhereTheActionAppliesToEach() {
        let h = Harness()
        h.sample()
        var r = h.ok("version add 3.0 --platform ios,android --build 300 --notes Same --json")
        XCTAssertEqual(((r.json as? [String: Any])?["versions"] as? [[String: Any]])?.count, 2, r.out)
        XCTAssertTrue(r.err.contains("added ios 3.0") && r.err.contains("added android 3.0"), r.err)
        XCTAssertEqual(h.ok("log --limit 1").out.split(separator: "\n")[1].hasSuffix("version add ios,android 3.0 build 300"), true)
        // All or nothing: android has 2.0.0, not 2.0; nothing is removed from ios either.
        h.fails("version rm 2.0 --platform all --yes", "no version 2.0 on android")
        XCTAssertTrue(h.ok("version list --platform ios").out.contains("2.0 "))
        h.fails("version add 1.1 --platform ios,android --build 111", "ios already has version 1.1; nothing was added")
        XCTAssertFalse(h.ok("version list --platform android").out.contains("1.1 "))
        h.fails("version add 3.1 --platform ios,android", status: 2, "Android versions need --build")
        h.ok("notes set 3.0 --platform all --locale de Gleich")
        r = h.ok("notes rm 3.0 --platform ios,android --locale de --yes")
        XCTAssertTrue(r.err.contains("removed de notes of ios 3.0") && r.err.contains("removed de notes of android 3.0"), r.err)
        h.fails("notes rm 3.0 --platform all --locale de --yes", "3.0 has no de notes on android")
        r = h.ok("version rm 3.0 --platform all --yes")
        XCTAssertTrue(r.err.contains("removed android 3.0") && r.err.contains("removed ios 3.0"), r.err)
        XCTAssertEqual(h.run("undo --yes").status, 0, "one change: one undo brings both back")
        XCTAssertTrue(h.ok("version list --platform android").out.contains("3.0 ") && h.ok("version list --platform ios").out.contains("3.0 "))
        // check answers for one client: it says so, and how.
        let c = h.fails("check 1.0 --platform all", status: 2, "'relctl check' takes one platform, not 'all'")
        XCTAssertTrue(c.err.contains("run it once per platform: --platform android, then --platform ios"), c.err)
        h.fails("maintenance start --platform ios,android --for 1h --yes", status: 2, "a maintenance window covers one platform or every one, not 'ios,android'")
        h.ok("maintenance start --platform all --for 1h --yes")
        XCTAssertTrue(h.ok("maintenance list").out.contains("#1  active  all "), "'all' is the project-wide window")
        // Completion offers 'all' where a command takes it; the active window for edit and message.
        XCTAssertEqual(h.ok("__complete platforms-or-all").out, "android\nios\nall\n")
        XCTAssertEqual(h.ok("__complete platforms").out, "android\nios\n")
        // Completion reads the machine's clock (it runs as you type): a window running until 2030 is active now.
        h.ok("maintenance stop --yes")
        h.ok("maintenance start --until 2030-01-01T00:00:00Z --yes")
        XCTAssertTrue(h.ok("__complete live-windows").out.hasPrefix("2\t"), "edit and message offer the active window")
        XCTAssertEqual(h.ok("__complete windows").out, "", "cancel offers only windows that have not begun")
    }

    /// maintenance list shows the copy of the project's default locale, and says where only another has copy.
    func testMaintenanceListShowsTheDefaultLocalesCopy() {
        let h = Harness()
        h.sample()
        h.ok("maintenance schedule --from 2026-12-10T02:00:00Z --for 1h --locale de --message \"Wartung\" --yes")
        h.ok("maintenance message 1 --locale en --message \"Back soon\"")
        h.ok("maintenance schedule --from 2026-12-11T02:00:00Z --for 1h --locale de --message \"Nur deutsch\" --yes")
        let out = h.ok("maintenance list").out
        XCTAssertTrue(out.contains("MESSAGE (en)"), out)
        let rows = out.split(separator: "\n")
        XCTAssertTrue(rows.first { $0.hasPrefix("#1") }?.hasSuffix("Back soon") == true, out)
        XCTAssertTrue(rows.first { $0.hasPrefix("#2") }?.hasSuffix("- (copy in de only)") == true, out)
    }

    /// Notes past the store's limit warn (4,000 characters on the App Store, 500 on Google Play); absurd sizes are refused.
    func testNotesSizes() throws {
        let h = Harness()
        h.sample()
        let long = String(repeating: "a", count: 4_001)
        var r = h.ok("notes set 2.0 --platform ios \(long)")
        XCTAssertTrue(r.err.contains("warning: the en notes of ios 2.0 are 4001 characters long, more than the App Store allows (4000)"), r.err)
        XCTAssertFalse(h.ok("notes set 2.0 --platform ios \(String(repeating: "a", count: 4_000))").err.contains("warning"))
        r = h.ok("version add 2.1.0 --platform android --build 210 --notes \(String(repeating: "é", count: 501))")
        XCTAssertTrue(r.err.contains("more than Google Play allows (500)"), r.err)
        let huge = h.dir + "/huge.txt"
        try Data(String(repeating: "line of a changelog\n", count: 11_000).utf8).write(to: URL(fileURLWithPath: huge))
        h.fails("notes set 2.0 --platform ios --file \(huge)", status: 2, "notes are at most 40000")
        h.fails("version add 2.2 --platform ios --build 220 --notes-file \(huge)", status: 2, "notes are at most 40000")
        // apply: a file may hold what a database held, so it warns; past the maximum it is refused.
        let file = h.dir + "/shop.json"
        h.ok("export -o \(file)")
        var text = try String(contentsOfFile: file, encoding: .utf8)
        text = text.replacingOccurrences(of: "\"New look\"", with: "\"\(String(repeating: "b", count: 4_100))\"")
        try Data(text.utf8).write(to: URL(fileURLWithPath: file))
        r = h.ok("apply \(file) --yes")
        XCTAssertTrue(r.err.contains("the en notes of android 2.0.0 are 4100 characters long, more than Google Play allows (500)"), r.err)
        XCTAssertFalse(r.err.contains("ios 2.0 are"), "notes the file leaves as they were are not warned of again: \(r.err)")
        text = text.replacingOccurrences(of: String(repeating: "b", count: 4_100), with: String(repeating: "c", count: 40_001))
        try Data(text.utf8).write(to: URL(fileURLWithPath: file))
        h.fails("apply \(file) --yes", status: 1, "notes are at most 40000")
        // import: the same warning and refusal.
        let andversion = h.dir + "/andversion.json"
        try #"{"AndVersion":{"CurrentVersion":"2.0","MinVersion":"1.0","AppStoreId":"1","WhatsNew":{"en":["\#(String(repeating: "d", count: 4_200))"]}}}"#
            .write(toFile: andversion, atomically: true, encoding: .utf8)
        r = h.ok("import andversion \(andversion) --platform ios --replace --yes")
        XCTAssertTrue(r.err.contains("the en notes of ios 2.0 are 4200 characters long, more than the App Store allows (4000)"), r.err)
        try #"{"AndVersion":{"CurrentVersion":"2.0","MinVersion":"1.0","AppStoreId":"1","WhatsNew":{"en":["\#(String(repeating: "d", count: 40_001))"]}}}"#
            .write(toFile: andversion, atomically: true, encoding: .utf8)
        h.fails("import andversion \(andversion) --platform ios --yes", "notes are at most 40000")
    }
}
