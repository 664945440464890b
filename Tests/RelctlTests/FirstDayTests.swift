import Foundation
import XCTest
@testable import RelctlCLI
@testable import RelctlCore

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
}
