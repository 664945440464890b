import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import XCTest
@testable import RelctlCore
@testable import RelctlModel

/// upgrader's appcast: the simulation on hand-made feeds, the strict XML
/// reader, and the escaping of hostile notes (checked by relctl's reader
/// and by Foundation's XMLParser, a second, independent one).
final class AppcastTests: XCTestCase {
    func bytes(_ s: String) -> [UInt8] { Array(s.utf8) }

    func feed(_ items: String) -> [UInt8] {
        bytes(#"<?xml version="1.0" encoding="utf-8"?><rss version="2.0" xmlns:sparkle="http://www.andymatuschak.org/xml-namespaces/sparkle"><channel><title>T</title>\#(items)</channel></rss>"#)
    }

    func testUpgraderDecisions() throws {
        let c = try UpgraderClient(feed("""
            <item><sparkle:version>2.1.0</sparkle:version><description>New</description><description xml:lang="tr">Yeni</description><enclosure url="https://s/1" sparkle:os="iOS"/></item>
            <item><enclosure url="https://s/2" sparkle:os="ios" sparkle:version="1.5"/><sparkle:tags><sparkle:criticalUpdate/></sparkle:tags></item>
            <item><sparkle:version>v9.0</sparkle:version><enclosure url="https://s/3" sparkle:os="ios"/></item>
            <item><sparkle:version>8.0</sparkle:version><enclosure url="https://s/4" sparkle:os="android"/></item>
            <item><sparkle:version>7.0</sparkle:version><sparkle:criticalUpdate/><enclosure url="https://s/5"/><sparkle:minimumSystemVersion>20.0</sparkle:minimumSystemVersion></item>
            """), platform: "ios")
        XCTAssertEqual(c.decide("1.4.9"), .required, "below the highest critical item (version from the enclosure)")
        XCTAssertEqual(c.decide("1.5"), .optional)
        XCTAssertEqual(c.decide("2.1", os: "18.0"), .none, "2.1 == 2.1.0; v9.0 is skipped, 8.0 is for Android, 7.0 needs OS 20")
        XCTAssertEqual(c.decide("6.0", os: "20.1"), .optional, "7.0 for OS 20: a top-level criticalUpdate is ignored")
        XCTAssertEqual(c.decide("2.1", os: "20.1"), .optional)
        XCTAssertEqual(c.decide("2.1", os: "0.0.0"), .none, "upgrader's default OS hides an item with a minimum")
        XCTAssertEqual(c.decide("2.0.9.9"), .optional, "a fourth component is dropped")
        XCTAssertEqual(c.decide("2.1.0.9", os: "18.0"), .none, "a fourth component is dropped")
        XCTAssertEqual(c.notes(locale: "tr", os: "18.0"), "Yeni")
        XCTAssertEqual(c.notes(locale: "de", os: "18.0"), "New")
        XCTAssertEqual(c.url(os: "18.0"), "https://s/1")
        let android = try UpgraderClient(feed("<item><sparkle:version>8.0</sparkle:version><enclosure url=\"u\" sparkle:os=\"ANDROID\"/></item>"), platform: "android")
        XCTAssertEqual(android.decide("7.9"), .optional, "sparkle:os is compared case-insensitively")
    }

    func testMalformedFeedsAreIgnored() {
        for bad in ["", "<rss>", "<rss></channel>", "<rss><item a=1/></rss>", "<rss>&nbsp;</rss>", "<rss>a & b</rss>", "<rss a=\"<\"/>",
                    "<rss>\u{1}</rss>", "<rss></rss><x/>", "<rss>]]></rss>", "<!DOCTYPE x><rss/>", "<rss a='1' a='2'/>", "<rss>&#0;</rss>"] {
            XCTAssertThrowsError(try UpgraderClient(bytes(bad), platform: "ios"), bad) { error in
                guard case .ignored? = error as? ClientFailure else { return XCTFail("\(bad): \(error)") }
            }
        }
    }

    func testReaderResolvesEntitiesCDATAAndLineEnds() throws {
        let root = try XMLReader.parse(bytes("<?xml version=\"1.0\"?>\n<!-- c --><a x=\"1&#10;2\tz\">&lt;&amp;&gt;&quot;&apos;&#x41;&#66;<![CDATA[<raw>&]]>\r\nend<b/></a>"))
        XCTAssertEqual(root.text, "<&>\"'AB<raw>&\nend")
        XCTAssertEqual(root.attributes["x"], "1\n2 z", "a character reference is kept, a raw tab is normalised")
        XCTAssertEqual(root.children.map(\.name), ["b"])
    }

    static let hostile = "Fixes <script>alert(\"x\")</script> & 'quotes' ]]> <![CDATA[ end ]]>\u{1}\u{8}\u{B}\u{C}\u{1F}\u{FFFE}\r\n\ttab &amp; &#0; ünï 🎉"

    func testHostileNotesStayText() throws {
        var out: [UInt8] = Array("<a x=\"".utf8)
        XMLText.escape(AppcastTests.hostile, into: &out)
        out += "\">".utf8
        XMLText.escape(AppcastTests.hostile, into: &out)
        out += "</a>".utf8
        let root = try XMLReader.parse(out)
        let expected = "Fixes <script>alert(\"x\")</script> & 'quotes' ]]> <![CDATA[ end ]]>\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}\r\n\ttab &amp; &#0; ünï 🎉"
        XCTAssertEqual(root.text, expected, "every character survives but those XML 1.0 cannot hold")
        XCTAssertEqual(root.attributes["x"], expected)
        XCTAssertTrue(root.children.isEmpty)
        // A second, independent parser agrees that the document is well-formed.
        let parser = XMLParser(data: Data(out))
        XCTAssertTrue(parser.parse(), "\(parser.parserError.map { "\($0)" } ?? "")")
    }

    func testPublishedFeedWithHostileNotesAndCriticalItem() throws {
        let now: Int64 = 1_790_000_000
        let project = ProjectRecord(id: 1, slug: "app", name: "A & <B>", defaultLocale: "en", locales: ["en", "tr"], rules: .standard,
                                    releaseDelayDays: 0, remindHours: 24, outdated: .recommend)
        let platform = PlatformRecord(id: 1, projectID: 1, name: "ios", bundleID: "com.example.b", appStoreID: "1", storeURL: "https://x.example/?a=1&b=\"2\"",
                                      minOS: nil, force: Floor(version: try Version("1.5"), build: nil), recommend: nil)
        let versions = [("1.0", nil), ("2.0", "15.0"), ("3.0", nil)].enumerated().map { i, v in
            VersionRecord(id: Int64(i + 1), platformID: 1, version: try! Version(v.0), build: nil, releasedAt: now - Int64(10 - i) * 86400,
                          minOS: v.1, policy: nil, notes: ["en": AppcastTests.hostile, "tr": "Türkçe <notlar>"])
        }
        let snapshot = ProjectSnapshot(project: project, platforms: [platform], versions: [1: versions], windows: [],
                                       messages: MessageResolver(overrides: [:], defaultLocale: "en"))
        var warnings: [String] = []
        let files = ProjectFiles.render(snapshot, at: now, warnings: &warnings)
        var byPath: [String: [UInt8]] = [:]
        for f in files { byPath[f.path] = f.bytes }
        let xml = try XCTUnwrap(byPath["app/ios/appcast.xml"])
        XCTAssertTrue(XMLParser(data: Data(xml)).parse())
        let root = try XMLReader.parse(xml)
        let items = root.all("item")
        // Issue 30: the critical item stands at the floor (1.5), which no release is: at the
        // lowest release above it (2.0), installs between (1.9) were forced, which check does not.
        XCTAssertEqual(items.map { $0.first("sparkle:version")?.text ?? "?" }, ["3.0", "1.5"], "the offered version and the critical one, at the floor")
        XCTAssertEqual(items.map { $0.first("sparkle:tags")?.first("sparkle:criticalUpdate") != nil }, [false, true])
        XCTAssertEqual(items.map { $0.first("sparkle:minimumSystemVersion")?.text }, [nil, nil], "only a minimum OS the engineer set")
        XCTAssertEqual(items[0].first("enclosure")?.attributes["url"], "https://x.example/?a=1&b=\"2\"")
        XCTAssertEqual(items[0].first("pubDate")?.text, "Sun, 13 Sep 2026 14:13:20 +0000")
        let client = try UpgraderClient(xml, platform: "ios")
        XCTAssertEqual(client.decide("1.4.9"), .required)
        XCTAssertEqual(client.decide("1.9"), .optional, "above the floor, as check says")
        XCTAssertEqual(client.decide("2.0"), .optional)
        for v in ["1.4.9", "1.9", "2.0", "3.0"] {
            let verdict = Evaluator(snapshot).evaluate(platform, Release(try Version(v), build: nil), at: now)
            XCTAssertEqual(client.decide(v), PlatformCheck.decision(verdict.kind), v)
        }
        XCTAssertEqual(client.notes(locale: "tr"), "Türkçe <notlar>")
        for f in Fidelity.check(snapshot, at: now, file: { byPath[$0] }) where f.isDisagreement { XCTFail("\(f)") }
        XCTAssertEqual(root.first("channel")?.first("title")?.text, "A & <B>")
    }

    func testRFC822Dates() {
        XCTAssertEqual(AppcastFormat.rfc822(0), "Thu, 01 Jan 1970 00:00:00 +0000")
        XCTAssertEqual(AppcastFormat.rfc822(1_795_946_400), "Sun, 29 Nov 2026 10:00:00 +0000")
        XCTAssertEqual(AppcastFormat.rfc822(-62135596800), "Mon, 01 Jan 0001 00:00:00 +0000")
    }
}
