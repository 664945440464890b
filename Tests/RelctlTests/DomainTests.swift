import XCTest
@testable import RelctlCLI
@testable import RelctlCore
@testable import RelctlModel
@testable import RelctlPublish
@testable import RelctlStore
@testable import SQLite

final class VersionTests: XCTestCase {
    func testAcceptsOneToFourNumericComponentsAndKeepsTheText() throws {
        for text in ["1", "1.0", "2.1.0", "1.2.3.4", "10.0.01"] {
            XCTAssertEqual(try Version(text).text, text)
        }
    }

    func testRefusesWithTheReason() {
        let cases = ["": "empty", "1.2.3.4.5": "at most 4", "1..2": "empty component", "1.x": "'x' is not a number",
                     "v1.0": "'v1' is not a number", "1.0-beta": "not a number", " 1.0": "not a number", "1.2.": "empty component",
                     "1.9999999999": "too large"]
        for (text, reason) in cases {
            XCTAssertThrowsError(try Version(text), text) { error in
                let e = RelctlError.from(error)
                XCTAssertEqual(e.status, 2)
                XCTAssertTrue(e.message.contains(reason), "\(text): \(e.message)")
            }
        }
    }

    /// The byte reader (every row a publish reads) accepts exactly what the
    /// rule says, with the same numbers: 1 to 4 dot-separated runs of 1 to 9 digits.
    func testTheByteReaderAgreesWithTheRule() {
        func rule(_ s: String) -> [Int]? {
            let parts = s.split(separator: ".", omittingEmptySubsequences: false)
            guard !s.isEmpty, parts.count <= 4, parts.allSatisfy({ !$0.isEmpty && $0.count <= 9 && $0.allSatisfy { "0123456789".contains($0) } }) else { return nil }
            return parts.map { Int($0)! }
        }
        var rng = SplitMix(seed: 77)
        let alphabet = Array("0123456789..x -٣")
        var accepted = 0
        for _ in 0..<20_000 {
            let s = String((0..<rng.below(13)).map { _ in rng.chance(70) ? alphabet[rng.below(10)] : rng.pick(alphabet) })
            XCTAssertEqual(Version.plainComponents(s), rule(s), s)
            XCTAssertEqual((try? Version(s))?.components, rule(s), s)
            if rule(s) != nil { accepted += 1 }
        }
        XCTAssertGreaterThan(accepted, 1000, "the strings tried include many versions")
        XCTAssertEqual(Version.plainComponents("123456789.0"), [123_456_789, 0])
        XCTAssertNil(Version.plainComponents("1234567890"))
    }

    /// The packed key orders as `<` and `==` do, and a platform's versions
    /// sorted by it come out oldest first, in one order whatever order they
    /// are given in, builds and spellings of one version included.
    func testTheSortKeyOrdersAsVersionsAndReleasesDo() throws {
        var rng = SplitMix(seed: 31)
        func number() -> Int { rng.chance(30) ? 0 : rng.chance(20) ? 999_999_999 : rng.below(4) }
        func version() throws -> Version {
            try Version((0...rng.below(4)).map { _ in String(number()) }.joined(separator: "."))
        }
        for _ in 0..<200 {
            var seen = Set<String>()
            var list: [VersionRecord] = []
            for id in 0..<rng.below(40) {
                let v = try version()
                guard seen.insert(v.text).inserted else { continue }
                let build: Int64? = rng.chance(30) ? nil : Int64(rng.below(3))
                list.append(VersionRecord(id: Int64(id), platformID: 1, version: v, build: build, releasedAt: nil, minOS: nil, policy: nil, notes: [:]))
            }
            for a in list { for b in list {
                XCTAssertEqual(a.version.sortKey < b.version.sortKey, a.version < b.version, "\(a.version) \(b.version)")
                XCTAssertEqual(a.version.sortKey == b.version.sortKey, a.version == b.version, "\(a.version) \(b.version)")
            } }
            // Oldest first by Release.isBelow, and a strict order: the same whatever order the
            // versions come in (of one rank, a build after none, then the text).
            let sorted = Store.sorted(list)
            for (i, a) in sorted.enumerated() {
                for b in sorted[(i + 1)...] { XCTAssertFalse(Release.isBelow(b.release, a.release), "\(b.version) before \(a.version)") }
            }
            for _ in 0..<3 { XCTAssertEqual(Store.sorted(list.shuffled(using: &rng)).map(\.id), sorted.map(\.id)) }
            XCTAssertEqual(sorted.map(\.id), list.sorted(by: VersionRecord.isOlder).map(\.id), "the one order export and import use too")
        }
        // Of one rank, a build after none, then the text: where Release.isBelow alone went round in a
        // circle (1.0 build 5 below 1.0.0 by text, 1.0.0 below 1.0.00 by text, 1.0.00 build 3 below 1.0 build 5).
        let spellings = [("1.0", 5), ("1.0.0", nil), ("1.0.00", 3)].enumerated().map { i, s in
            VersionRecord(id: Int64(i), platformID: 1, version: try! Version(s.0), build: s.1.map(Int64.init), releasedAt: nil, minOS: nil, policy: nil, notes: [:])
        }
        for order in [[0, 1, 2], [2, 1, 0], [1, 2, 0]] {
            XCTAssertEqual(Store.sorted(order.map { spellings[$0] }).map(\.version.text), ["1.0.0", "1.0.00", "1.0"])
        }
    }

    func testOrdersByNumericComponents() throws {
        let sorted = ["1.0", "1.2", "1.10", "2", "2.0.1", "10.0"]
        let versions = try sorted.reversed().map(Version.init).sorted()
        XCTAssertEqual(versions.map(\.text), sorted)
        XCTAssertTrue(try Version("1.9") < Version("1.10"))
        XCTAssertEqual(try Version("1.0"), try Version("1.0.0"))
        XCTAssertEqual(try Version("1.0").firstDifference(from: Version("2.0")), 0)
        XCTAssertEqual(try Version("1.0").firstDifference(from: Version("1.1")), 1)
        XCTAssertEqual(try Version("1.0").firstDifference(from: Version("1.0.1")), 2)
        XCTAssertEqual(try Version("1.0.0.1").firstDifference(from: Version("1.0.0.2")), 3)
        XCTAssertNil(try Version("1.0").firstDifference(from: Version("1.0.0")))
    }

    func testBuildDecidesBetweenEqualVersionsWhenBothHaveOne() throws {
        let v = try Version("2.0")
        XCTAssertTrue(Release.isBelow(Release(v, build: 199), Release(v, build: 200)))
        XCTAssertFalse(Release.isBelow(Release(v, build: 200), Release(v, build: 200)))
        XCTAssertFalse(Release.isBelow(Release(v, build: nil), Release(v, build: 200)))
        XCTAssertFalse(Release.isBelow(Release(v, build: 199), Release(v, build: nil)))
        XCTAssertTrue(Release.isBelow(Release(try Version("1.9"), build: 999), Release(v, build: 1)))
    }

    func testBuildNumbers() {
        XCTAssertEqual(try parseBuild("210"), 210)
        for bad in ["-1", "1.5", "abc", "", "99999999999"] { XCTAssertThrowsError(try parseBuild(bad), bad) }
    }
}

final class LocaleTests: XCTestCase {
    func testNormalisesCase() throws {
        let cases = ["en": "en", "EN": "en", "pt-br": "pt-BR", "pt_BR": "pt-BR", "zh-hans": "zh-Hans", "ZH-HANT": "zh-Hant",
                     "sr-latn": "sr-Latn", "sr-Cyrl-RS": "sr-Cyrl-RS", "es-419": "es-419", "fil": "fil",
                     "zh_TW_#Hant": "zh-Hant-TW", "sr_RS_#Latn": "sr-Latn-RS", "sr__#Latn": "sr-Latn"]
        for (input, expected) in cases { XCTAssertEqual(try LocaleTag.normalize(input), expected, input) }
    }

    /// The shortcut for tags already in their normal spelling takes exactly those.
    func testTheNormalSpellingIsRecognisedWithoutRespelling() {
        var random = SystemRandomNumberGenerator()
        let pieces = ["en", "EN", "pt", "iw", "fil", "zh", "Hans", "hans", "HANS", "Latn", "BR", "br", "419", "41", "4190", "US", "", "#Hant", "x", "abcd", "Ab1d"]
        var tried = ["en", "iw", "in", "ji", "he", "pt-BR", "zh-Hans-TW", "sr-Latn", "es-419", "en-US-US", "en--US", "-en", "en-"]
        for _ in 0..<3000 {
            tried.append((0..<Int.random(in: 1...4, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined(separator: ["-", "-", "_"].randomElement(using: &random)!))
        }
        for text in tried {
            XCTAssertEqual(LocaleTag.isNormal(text), (try? LocaleTag.spelled(text)) == text, text)
        }
        XCTAssertTrue(LocaleTag.isNormal("zh-Hant-TW"))
        XCTAssertFalse(LocaleTag.isNormal("iw"), "a legacy code is stored under the current one")
    }

    func testRefusesWhatIsNotATag() {
        for bad in ["", "e", "english", "en-", "en-USA1", "12", "en-US-x", "../en", "en/US"] {
            XCTAssertThrowsError(try LocaleTag.normalize(bad), bad)
        }
    }

    func testChainFallsBackThroughLanguageDefaultAndEnglish() {
        XCTAssertEqual(Catalog.chain("pt-BR", defaultLocale: "de"), ["pt-BR", "pt", "de", "en"])
        XCTAssertEqual(Catalog.chain("en", defaultLocale: "en"), ["en"])
        XCTAssertEqual(Catalog.chain("sr-Latn", defaultLocale: "tr"), ["sr-Latn", "tr", "en"], "sr is Cyrillic: Latin Serbian never reads it")
    }
}

final class NameTests: XCTestCase {
    func testSlugs() {
        XCTAssertNoThrow(try Names.slug("shop"))
        XCTAssertNoThrow(try Names.slug("my-app-2"))
        XCTAssertNoThrow(try Names.slug(String(repeating: "a", count: 64)))
        for bad in ["", "Shop", "-shop", "sh op", "../x", "a/b", "ş", String(repeating: "a", count: 65), "'; DROP TABLE projects; --"] {
            XCTAssertThrowsError(try Names.slug(bad), bad)
        }
    }

    func testAppStoreIDs() {
        XCTAssertNoThrow(try Names.appStoreID("1088280260"))
        XCTAssertThrowsError(try Names.appStoreID("id1088280260")) { e in
            XCTAssertTrue(RelctlError.from(e).hint!.contains("drop the 'id' prefix"))
        }
        for bad in ["", "12a", "0123", " 1"] { XCTAssertThrowsError(try Names.appStoreID(bad), bad) }
    }
}

final class TimeTests: XCTestCase {
    let now = try! TimeInput.parse("2026-11-29T12:00:00Z", now: 0, timeZone: "UTC")

    func testRFC3339() throws {
        XCTAssertEqual(Time.format(try TimeInput.parse("2026-12-01T06:00:00Z", now: now, timeZone: nil)), "2026-12-01T06:00:00Z")
        XCTAssertEqual(Time.format(try TimeInput.parse("2026-12-01T08:00:00+02:00", now: now, timeZone: nil)), "2026-12-01T06:00:00Z")
        XCTAssertEqual(Time.format(try TimeInput.parse("2026-12-01T01:30:00-04:30", now: now, timeZone: nil)), "2026-12-01T06:00:00Z")
        XCTAssertEqual(Time.format(try TimeInput.parse("2026-12-01T06:00:00.250Z", now: now, timeZone: nil)), "2026-12-01T06:00:00Z")
        XCTAssertEqual(Time.format(try TimeInput.parse("2024-02-29T00:00:00Z", now: now, timeZone: nil)), "2024-02-29T00:00:00Z")
        XCTAssertEqual(Time.format(0), "1970-01-01T00:00:00Z")
    }

    /// The instants relctl writes are read back as the reading of their digits
    /// as numbers says: every one formatted, and text of their shape that is
    /// none (a month 13, a 30 February, a letter for a digit, a non-ASCII
    /// character, whose bytes make the text longer or, two for a digit's one, as long).
    func testParseUTCReadsWhatFormatWrites() {
        func reference(_ s: String) -> Int64? {
            let b = Array(s.utf8)
            guard b.count == 20, b[4] == 45, b[7] == 45, b[10] == 84, b[13] == 58, b[16] == 58, b[19] == 90 else { return nil }
            func n(_ r: Range<Int>) -> Int? { b[r].allSatisfy { $0 >= 48 && $0 <= 57 } ? Int(String(decoding: b[r], as: UTF8.self)) : nil }
            guard let y = n(0..<4), let mo = n(5..<7), let d = n(8..<10), let h = n(11..<13), let mi = n(14..<16), let sec = n(17..<19),
                  (1...12).contains(mo), (1...Time.daysIn(month: mo, year: y)).contains(d), h < 24, mi < 60, sec < 60 else { return nil }
            return Int64(Time.daysFromCivil(y, mo, d)) * 86400 + Int64(h * 3600 + mi * 60 + sec)
        }
        var r = SystemRandomNumberGenerator()
        var valid = 0
        for _ in 0..<20_000 {
            let t = Int64.random(in: Time.earliest...Time.latest, using: &r)
            XCTAssertEqual(Time.parseUTC(Time.format(t)), t)
            var b = Array(Time.format(t).unicodeScalars)
            // A character or two changed, some to what a date holds, some to what it must not.
            for _ in 0..<Int.random(in: 1...2, using: &r) {
                b[Int.random(in: 0..<b.count, using: &r)] = ["0", "1", "2", "3", "9", "-", ":", "T", "Z", "x", " ", "\u{0663}"].randomElement(using: &r)!
            }
            let text = String(String.UnicodeScalarView(b))
            XCTAssertEqual(Time.parseUTC(text), reference(text), text)
            if reference(text) != nil { valid += 1 }
        }
        XCTAssertGreaterThan(valid, 1_000, "changed texts that still read must be among those asked")
        for text in ["2026-13-01T00:00:00Z", "2025-02-29T00:00:00Z", "2024-02-29T24:00:00Z", "2026-12-01T00:00:00", "2026-12-01 00:00:00Z", "",
                     "2026-12-01T00:00:\u{0663}Z", "2026-12-01T00:00:0\u{E9}"] {
            XCTAssertEqual(Time.parseUTC(text), reference(text), text)
            XCTAssertNil(Time.parseUTC(text), text)
        }
        XCTAssertEqual(Time.parseUTC("2024-02-29T23:59:59Z"), reference("2024-02-29T23:59:59Z"))
    }

    /// An instant for people is written in place (a status page writes one
    /// per version): the same text as made from `format`'s, in every zone,
    /// with and without seconds, on the same day as UTC or another, at the
    /// ends of the calendar; and a page's numbers as `String` writes them.
    func testPeopleWritesWhatFormatsTextSays() {
        func reference(_ t: Int64, _ zone: ZoneRules?) -> String {
            func wall(_ formatted: String) -> String {
                var b = Array(formatted.utf8)
                b.removeLast()
                if b[17] == 48, b[18] == 48 { b.removeLast(3) }
                b[10] = 32
                return String(decoding: b, as: UTF8.self)
            }
            let utc = wall(Time.format(t))
            guard let zone else { return utc + " UTC" }
            let (offset, name) = zone.local(at: t)
            guard offset != 0 else { return utc + " " + (name.isEmpty ? "UTC" : name) }
            let local = wall(Time.format(min(max(t + offset, Time.earliest), Time.latest)))
            let label = name.isEmpty ? LocalDate.zone(offset) : name
            return "\(local) \(label) (\(local.prefix(10) == utc.prefix(10) ? String(utc.dropFirst(11)) : utc) UTC)"
        }
        let zones: [ZoneRules?] = [
            nil, ZoneRules(initial: (0, ""), transitions: []), ZoneRules(initial: (0, "GMT"), transitions: []),
            ZoneRules(initial: (3600, "CET"), transitions: []), ZoneRules(initial: (-18000, "EST"), transitions: []),
            ZoneRules(initial: (19800, ""), transitions: []), ZoneRules(initial: (50400, "+14"), transitions: []),
            ZoneRules(initial: (3600, "CET"), transitions: [(at: 1_790_000_000, offset: 7200, name: "CEST"), (at: 1_800_000_000, offset: 0, name: "")]),
        ]
        var r = SystemRandomNumberGenerator()
        var instants: [Int64] = [0, 59, 60, 61, 3599, 82_800, 86_399, -1, -86_400, Time.earliest, Time.earliest + 59, Time.latest, Time.latest - 59,
                                 1_790_000_000, 1_796_000_000, 1_796_000_030, 1_799_999_999, 1_800_000_000]
        for _ in 0..<2_000 {
            let t = Int64.random(in: Time.earliest...Time.latest, using: &r)
            instants += [t, t - t % 60, t - t % 86_400 + 82_800]
        }
        var sameDay = 0, otherDay = 0
        for zone in zones {
            for t in instants where Time.isInRange(t) {
                let text = Time.people(t, zone: zone)
                XCTAssertEqual(Array(text.utf8), Array(reference(t, zone).utf8), "\(t) in \(zone.map { "\($0.local(at: t))" } ?? "no zone")")
                // "(12:00 UTC)" on the same day, "(2026-12-07 23:00 UTC)" on another.
                if let utc = text.split(separator: "(").last, utc.hasSuffix(" UTC)") { if utc.count <= 13 { sameDay += 1 } else { otherDay += 1 } }
            }
        }
        XCTAssertGreaterThan(sameDay, 100)
        XCTAssertGreaterThan(otherDay, 100)
        for n: Int64 in [0, 7, 10, 199, -1, -18_000, 50_400, Int64.max, Int64.min] + (0..<200).map({ _ in Int64.random(in: Int64.min...Int64.max, using: &r) }) {
            var h = HTML()
            h.number(n)
            XCTAssertEqual(h.out, Array(String(n).utf8))
        }
    }

    func testLocalTimesUseTZ() throws {
        XCTAssertEqual(Time.format(try TimeInput.parse("2026-12-01 07:00", now: now, timeZone: "Europe/Berlin")), "2026-12-01T06:00:00Z")
        XCTAssertEqual(Time.format(try TimeInput.parse("2026-07-01 07:00", now: now, timeZone: "Europe/Berlin")), "2026-07-01T05:00:00Z")
        XCTAssertEqual(Time.format(try TimeInput.parse("2026-12-01 06:00", now: now, timeZone: "UTC")), "2026-12-01T06:00:00Z")
        XCTAssertEqual(Time.format(try TimeInput.parse("18:30", now: now, timeZone: "Asia/Tokyo")), "2026-11-29T09:30:00Z")
        XCTAssertEqual(Time.format(try TimeInput.parse("now", now: now, timeZone: nil)), "2026-11-29T12:00:00Z")
    }

    /// Times for people: relative durations, tomorrow, HH:MM:SS, and an
    /// "HH:MM" that has passed meaning tomorrow where the option looks ahead.
    func testPeopleForms() throws {
        func t(_ text: String, _ zone: String? = "UTC", future: Bool = false) throws -> String {
            Time.format(try TimeInput.parse(text, now: now, timeZone: zone, future: future))
        }
        XCTAssertEqual(try t("+2h"), "2026-11-29T14:00:00Z")
        XCTAssertEqual(try t("90m"), "2026-11-29T13:30:00Z")
        XCTAssertEqual(try t("2d"), "2026-12-01T12:00:00Z")
        XCTAssertEqual(try t("+1h30m"), "2026-11-29T13:30:00Z")
        XCTAssertEqual(try t("-3h"), "2026-11-29T09:00:00Z")
        XCTAssertEqual(try t("tomorrow 02:00"), "2026-11-30T02:00:00Z")
        XCTAssertEqual(try t("tomorrow 02:00", "Europe/Istanbul"), "2026-11-29T23:00:00Z")
        XCTAssertEqual(try t("today 18:00:30"), "2026-11-29T18:00:30Z")
        XCTAssertEqual(try t("13:15:20"), "2026-11-29T13:15:20Z")
        // 11:00 has passed at 12:00: today's for --at, tomorrow's for --until.
        XCTAssertEqual(try t("11:00"), "2026-11-29T11:00:00Z")
        XCTAssertEqual(try t("11:00", future: true), "2026-11-30T11:00:00Z")
        XCTAssertEqual(try t("13:00", future: true), "2026-11-29T13:00:00Z")
        XCTAssertEqual(try t("12:00", future: true), "2026-11-30T12:00:00Z")
        // Month and year ends.
        let eve = try TimeInput.parse("2026-12-31T23:00:00Z", now: 0, timeZone: "UTC")
        XCTAssertEqual(Time.format(try TimeInput.parse("tomorrow 06:00", now: eve, timeZone: "UTC")), "2027-01-01T06:00:00Z")
        XCTAssertEqual(Time.format(try TimeInput.parse("01:00", now: eve, timeZone: "UTC", future: true)), "2027-01-01T01:00:00Z")
        for bad in ["tomorrow", "tomorrow 25:00", "tomorrow 2:00", "+", "+0m", "+2x", "90", "2h30", "13:60", "13:00:61", "yesterday 02:00"] {
            XCTAssertThrowsError(try TimeInput.parse(bad, now: now, timeZone: "UTC"), bad) { e in
                XCTAssertEqual(RelctlError.from(e).status, 2, bad)
            }
        }
        // Capped at the year 9999, an unknown zone refused.
        XCTAssertThrowsError(try TimeInput.parse("+99999999w", now: now, timeZone: "UTC"))
        XCTAssertThrowsError(try TimeInput.parse("tomorrow 02:00", now: now, timeZone: "Mars/Olympus"))
    }

    func testRefusesMalformedTimes() {
        for bad in ["tomorrow", "2026-13-01T00:00:00Z", "2026-02-30T00:00:00Z", "2026-12-01T25:00:00Z", "2026-12-01", "24:00",
                    "2026-12-01T06:00:00+2", "2026-12-01T06:00:00Zjunk", "12/01/2026"] {
            XCTAssertThrowsError(try TimeInput.parse(bad, now: now, timeZone: "UTC"), bad) { e in
                XCTAssertEqual(RelctlError.from(e).status, 2)
            }
        }
    }

    func testDurations() throws {
        XCTAssertEqual(try Time.parseDuration("90m"), 5400)
        XCTAssertEqual(try Time.parseDuration("2h"), 7200)
        XCTAssertEqual(try Time.parseDuration("1d"), 86400)
        XCTAssertEqual(try Time.parseDuration("1h30m"), 5400)
        XCTAssertEqual(try Time.parseDuration("1w"), 604800)
        for bad in ["0m", "0", "-5m", "m", "5", "5x", "1.5h", ""] { XCTAssertThrowsError(try Time.parseDuration(bad), bad) }
    }
}

final class JSONTests: XCTestCase {
    /// A member held twice is found with its path, in small objects and in
    /// large ones (a list for the first 16 members, a set past them), at any depth.
    func testARepeatedKeyIsFoundWithItsPath() {
        func found(_ text: String) -> String? { JSONReader.repeatedKey(Array(text.utf8)).map { "\($0.path) \($0.key) \($0.line)" } }
        let many = (0..<40).map { "\"k\($0)\": \($0)" }
        XCTAssertNil(found("{" + many.joined(separator: ",") + "}"))
        XCTAssertEqual(found("{" + many.joined(separator: ",") + ",\n\"k3\": 1}"), "the top-level object k3 2")
        XCTAssertEqual(found("{" + many.joined(separator: ",") + ",\n\"k39\": 1}"), "the top-level object k39 2")
        XCTAssertEqual(found("{" + many.prefix(16).joined(separator: ",") + ",\"k15\": 1}"), "the top-level object k15 1")
        XCTAssertEqual(found(#"{"a": [1, {"b": {"c": 1}}, {"b": {"c": 1, "d": 2, "c": 3}}], "e": 1}"#), "a[2].b c 1")
        XCTAssertEqual(found(#"[[], [{"x": 1, "x": 2}]]"#), "[1][0] x 1")
        XCTAssertNil(found(#"{"a": {"x": 1}, "b": {"x": 1}, "c": [{"x": 1}, {"x": 2}]}"#), "the same key in two objects is no repeat")
    }

    func testCanonicalBytes() {
        let doc = JSON.object(["b": .int(1), "a": .array([.string("x\"\\\n\u{1}\u{2028}ü"), .null, .bool(true)])])
        XCTAssertEqual(String(decoding: doc.compactBytes(), as: UTF8.self), "{\"a\":[\"x\\\"\\\\\\n\\u0001\\u2028ü\",null,true],\"b\":1}\n")
        XCTAssertEqual(try JSONReader.parse(doc.compactBytes()), doc)
        XCTAssertEqual(try JSONReader.parse(Array(doc.rendered().utf8)), doc)
        // Runs between escapes are copied whole: a dash or a U+2027 beside them stays as it is.
        let mixed = JSON.string("a — b\u{2027}\u{2029}\"c\u{2028}\t—")
        XCTAssertEqual(String(decoding: mixed.compactBytes(), as: UTF8.self), "\"a — b\u{2027}\\u2029\\\"c\\u2028\\t—\"\n")
        XCTAssertEqual(try JSONReader.parse(mixed.compactBytes()), mixed)
    }

    /// Hostile JSON (a hand-edited index.json, a file to import) is an
    /// error or a value, never a crash: lone and mismatched surrogates (no
    /// character: an import names where), escapes JSON does not have and
    /// deep nesting are refused.
    /// The parse notices a key held twice at any depth, so the walk that names it runs only then.
    func testParseNoticesARepeatedKeyAtAnyDepth() throws {
        for (text, twice) in [(#"{"a":1,"b":2}"#, false), (#"{"a":1,"a":2}"#, true), (#"{"p":{"x":[{"k":1},{"k":2,"k":3}]}}"#, true),
                              (#"[{"k":1},{"k":2}]"#, false), (#"{"é":1,"é":2}"#, true)] {
            var repeated = false
            _ = try JSONReader.parse(Array(text.utf8), repeated: &repeated)
            XCTAssertEqual(repeated, twice, text)
            XCTAssertEqual(JSONReader.repeatedKey(Array(text.utf8)) != nil, twice, "the walk agrees: \(text)")
        }
    }

    func testHostileJSONIsAnErrorNotACrash() throws {
        func string(_ json: String) throws -> String? {
            guard case .string(let s) = try JSONReader.parse(Array(json.utf8)) else { return nil }
            return s
        }
        for lone in [#""\uD800\u0041""#, #""\uDC00x""#, #""\uD800""#] { XCTAssertThrowsError(try string(lone), lone) }
        XCTAssertEqual(try string(#""\uD83D\uDE00\/""#), "😀/")
        for bad in [#""\u+041""#, #""\u004""#, #""\x41""#, #""\a""#] {
            XCTAssertThrowsError(try JSONReader.parse(Array(bad.utf8)), bad)
            XCTAssertThrowsError(try JSONReader.members(Array("{\"k\":\(bad)}".utf8)), bad)
        }
        let deep = Array((String(repeating: "[", count: 300_000) + String(repeating: "]", count: 300_000)).utf8)
        XCTAssertThrowsError(try JSONReader.parse(deep))
        XCTAssertThrowsError(try JSONReader.members(Array("{\"k\":".utf8) + deep + Array("}".utf8)))
        let fine = Array((String(repeating: "[", count: JSONReader.maxDepth) + String(repeating: "]", count: JSONReader.maxDepth)).utf8)
        XCTAssertNoThrow(try JSONReader.parse(fine))
        XCTAssertThrowsError(try XMLReader.parse(Array((String(repeating: "<a>", count: 300_000) + String(repeating: "</a>", count: 300_000)).utf8)))
    }

    /// A string's plain bytes end at the first quote or backslash, found
    /// eight bytes at a time as one at a time, from every start; and long
    /// strings (a signed control.json's payload) read and check as short ones.
    func testStringsEndWhereTheirFirstQuoteOrEscapeIs() throws {
        var rng = SplitMix(seed: 4242)
        let alphabet: [UInt8] = [0x22, 0x5C, 0x00, 0x01, 0x21, 0x23, 0x5B, 0x5D, 0x7F, 0x80, 0xA2, 0xDC, 0xFF, 0x61]
        for _ in 0..<3_000 {
            let bytes = (0..<Int.random(in: 0...40, using: &rng)).map { _ in
                Bool.random(using: &rng) ? alphabet.randomElement(using: &rng)! : UInt8.random(in: 0...255, using: &rng)
            }
            bytes.withUnsafeBufferPointer { p in
                for from in 0...bytes.count {
                    let expected = bytes[from...].firstIndex { $0 == 0x22 || $0 == 0x5C } ?? bytes.count
                    XCTAssertEqual(JSONReader.nextQuoteOrEscape(p, from: from), expected, "\(bytes) from \(from)")
                }
            }
        }
        let pieces: [(text: String, means: String)] = [("a", "a"), ("é", "é"), ("😀", "😀"), ("\\\"", "\""), ("\\\\", "\\"), ("\\n", "\n"),
                                                      ("\\u00e9", "é"), ("\\uD83D\\uDE00", "😀"), ("\\/", "/"), ("0123456789abcdef", "0123456789abcdef")]
        // A string that ends inside a surrogate pair or its escape.
        for cut in [#""\uD83D"#, #""\uD83D\"#, #""\uD83D\u"#, #""\uD83D\uDE0"#, #""a\"#, #""a\u00"#] {
            var from = 0
            XCTAssertThrowsError(try JSONReader.skipString(Array(cut.utf8), &from), cut)
            XCTAssertThrowsError(try JSONReader.parse(Array(cut.utf8)), cut)
        }
        for _ in 0..<2_000 {
            let chosen = (0..<Int.random(in: 0...60, using: &rng)).map { _ in pieces.randomElement(using: &rng)! }
            let text = "{\"k\":\"" + chosen.map(\.text).joined() + "\"}"
            var bytes = Array(text.utf8)
            // Where each escape begins: its backslash.
            var escapes: [Int] = [], at = 6
            for piece in chosen {
                if piece.text.hasPrefix("\\") { escapes.append(at) }
                at += piece.text.utf8.count
            }
            guard case .object(let o) = try JSONReader.parse(bytes), case .string(let s)? = o["k"] else { return XCTFail(text) }
            XCTAssertEqual(s, chosen.map(\.means).joined(), text)
            XCTAssertNotNil(try? JSONReader.members(bytes), text)
            // Skipped, a string ends just past its closing quote; cut short anywhere in its last bytes, it is refused.
            let string = Array(("\"" + chosen.map(\.text).joined() + "\"").utf8)
            var end = 0
            try JSONReader.skipString(string + Array(",1".utf8), &end)
            XCTAssertEqual(end, string.count, text)
            for cut in 1...min(6, string.count) {
                var from = 0
                XCTAssertThrowsError(try JSONReader.skipString(Array(string.dropLast(cut)), &from), text)
                XCTAssertThrowsError(try JSONReader.parse(Array(string.dropLast(cut))), text)
            }
            // Cut short, or an escape spoiled: both readers refuse it.
            if Bool.random(using: &rng) { bytes.removeLast(Int.random(in: 2...min(6, bytes.count), using: &rng)) }
            else if let slash = escapes.randomElement(using: &rng) { bytes[slash + 1] = UInt8(ascii: "x") }
            else { continue }
            XCTAssertNil(try? JSONReader.parse(bytes), String(decoding: bytes, as: UTF8.self))
            XCTAssertNil(try? JSONReader.members(bytes), String(decoding: bytes, as: UTF8.self))
        }
    }

    /// Checking a document member by member (what the client simulations
    /// read back) accepts exactly what parsing it does, on random texts.
    func testCheckingAcceptsWhatParsingAccepts() {
        var rng = SplitMix(seed: 2027)
        let pieces = ["{", "}", "[", "]", ",", ":", "\"", "\"k\"", "\"\\u00e9\"", "\"\\x\"", "\"\\uD83D\\uDE00\"", "1", "-2", "--3", "9223372036854775807",
                      "9223372036854775808", "1.5", "true", "tru", "false", "null", "nul", " ", "\n", "\"a\\\"b\"", "\"é\""]
        var accepted = 0
        func agree(_ text: String) -> Bool {
            let bytes = Array(text.utf8)
            let parsed = (try? JSONReader.parse(bytes)) != nil
            XCTAssertEqual((try? JSONReader.members(bytes)) != nil, parsed, text)
            return parsed
        }
        for _ in 0..<20_000 {
            var text = "{\"k\":" + (0..<Int.random(in: 1...8, using: &rng)).map { _ in pieces.randomElement(using: &rng)! }.joined() + "}"
            // Cut short now and then: an escape, a literal or a string that runs off the end.
            if Int.random(in: 0..<4, using: &rng) == 0 { text = String(text.dropLast(Int.random(in: 1...4, using: &rng))) }
            if agree(text) { accepted += 1 }
        }
        XCTAssertGreaterThan(accepted, 100, "the random texts must include valid documents")
        // Nesting at and around the limit, in a member as at the top.
        for depth in JSONReader.maxDepth - 2...JSONReader.maxDepth + 1 {
            let nested = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
            _ = agree("{\"k\":" + nested + "}")
        }
        XCTAssertTrue(agree("{\"k\":" + String(repeating: "[", count: JSONReader.maxDepth - 1) + String(repeating: "]", count: JSONReader.maxDepth - 1) + "}"))
        XCTAssertFalse(agree("{\"k\":" + String(repeating: "[", count: JSONReader.maxDepth) + String(repeating: "]", count: JSONReader.maxDepth) + "}"))
    }

    /// Member names are compared without being made into strings, yet as
    /// Swift compares strings: an escaped name is its decoded text, and a
    /// name canonically equal to another (U+212A KELVIN SIGN is K) is that name.
    func testMemberNamesCompareAsStrings() throws {
        let bytes = Array(#"{"v":1,"\u0076ersion":"a","K\u00e9y":2,"\#u{212A}":3,"versions":4,"version":"b","é":5}"#.utf8)
        let o = try XCTUnwrap(JSONReader.object(bytes, at: 0..<bytes.count))
        func value(_ name: String) -> JSON? { o.last(name).flatMap { JSONReader.value(bytes, at: $0) } }
        XCTAssertEqual(value("version"), .string("b"), "the last of two spellings of one name")
        XCTAssertEqual(value("Kéy"), .int(2))
        XCTAssertEqual(value("K"), .int(3))
        let plainK = Array(#"{"K":1}"#.utf8)
        XCTAssertEqual(JSONReader.object(plainK, at: 0..<plainK.count)?.last("\u{212A}"), 5..<6, "a plain name found by a canonically equal one")
        XCTAssertEqual(value("e\u{301}"), .int(5))
        XCTAssertEqual(value("versions"), .int(4))
        XCTAssertNil(value("ver"))
        XCTAssertEqual(Set(o.byName.keys), ["v", "version", "Kéy", "K", "versions", "é"])
        // The clients' reading of entries (`values`) finds every name as `last` does, each the last of its spellings.
        let names = ["version", "Kéy", "K", "\u{212A}", "e\u{301}", "versions", "ver", "v"]
        XCTAssertEqual(JSONReader.values(bytes, at: 0..<bytes.count, of: names.map(JSONReader.Name.init)), names.map { o.last($0) })
        XCTAssertEqual(JSONReader.values(plainK, at: 0..<plainK.count, of: [JSONReader.Name("\u{212A}")]), [5..<6])
        XCTAssertNil(JSONReader.values(Array("[1]".utf8), at: 0..<3, of: [JSONReader.Name("v")]), "an array has no members")
        let escaped = Array(#"{"\u0076ersion":"a","v\u0065rsions":1}"#.utf8)
        let e = try XCTUnwrap(JSONReader.object(escaped, at: 0..<escaped.count))
        XCTAssertEqual(e.last("version").flatMap { JSONReader.value(escaped, at: $0) }, .string("a"))
        XCTAssertEqual(e.last("versions").flatMap { JSONReader.value(escaped, at: $0) }, .int(1))
    }

    func testOrderedFieldsRenderLikeObjects() {
        let object = JSON.object(["b": .int(1), "a": .object(["y": .null, "x": .array([])]), "A": .raw(Array("[1]".utf8))])
        let fields = JSON.ordered(["A": .raw(Array("[1]".utf8)), "a": .ordered(["x": .array([]), "y": .null]), "b": .int(1)])
        XCTAssertEqual(object.compactBytes(), fields.compactBytes())
        XCTAssertEqual(object.rendered(), fields.rendered())
        XCTAssertEqual(String(decoding: fields.compactBytes(), as: UTF8.self), "{\"A\":[1],\"a\":{\"x\":[],\"y\":null},\"b\":1}\n")
        // Raw bytes are indented for people as the value they hold.
        let value = JSON.object(["limits": .array([.object(["client": .string("Retired"), "reason": .string("no \"quote\"")])])])
        let raw = JSON.object(["limits": .raw(Array(JSON.array([.object(["client": .string("Retired"), "reason": .string("no \"quote\"")])]).compactBytes().dropLast()))])
        XCTAssertEqual(raw.rendered(), value.rendered())
        XCTAssertTrue(raw.rendered().contains("\n      \"client\": \"Retired\""), raw.rendered())
    }

    func testPlaceholdersFillKnownNamesOnly() {
        XCTAssertEqual(MessageResolver.fill("{app} {version} {until} {other} {", ["app": "Shop", "version": "2.0"]), "Shop 2.0 {until} {other} {")
        XCTAssertEqual(MessageResolver.fill("no braces", ["app": "x"]), "no braces")
    }

    func testSHA256MatchesKnownVectors() {
        XCTAssertEqual(SHA256.hex([]), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        XCTAssertEqual(SHA256.hex(Array("abc".utf8)), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        XCTAssertEqual(SHA256.hex(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)),
                       "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        XCTAssertEqual(SHA256.hex([UInt8](repeating: 0x61, count: 1_000_000)), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }
}

final class FileKindTests: XCTestCase {
    /// Every kind's path, placeholders filled, as the pattern reads: each
    /// `<…>` a segment's start, the rest of the segment kept.
    func testEveryFileKindsPathFillsItsPattern() {
        for kind in FileKinds.all {
            for (project, platform, locale) in [("shop", "ios", "en"), ("app-001", "android", "zh-Hant")] {
                let want = kind.pattern.replacingOccurrences(of: "<project>", with: project)
                    .replacingOccurrences(of: "<platform>", with: platform).replacingOccurrences(of: "<locale>", with: locale)
                XCTAssertEqual(kind.path(project: project, platform: platform, locale: locale), want, kind.pattern)
            }
        }
        XCTAssertEqual(FileKinds.retired.path(project: "shop", platform: "ios", locale: "pt-BR"), "shop/ios/retired/pt-BR.json")
        XCTAssertEqual(FileKinds.index.path(project: ""), "index.json")
    }

    /// `matches` compares bytes; for ASCII paths (all a publish writes and
    /// verify reads) it answers as the pattern read component by component
    /// does, for paths that differ from a kind's by one thing. A non-ASCII
    /// path is cut at every "/" byte, as the file system cuts it.
    func testMatchesReadsThePatternComponentByComponent() {
        func reference(_ kind: FileKind, _ path: String) -> Bool {
            let want = kind.pattern.split(separator: "/", omittingEmptySubsequences: false)
            let have = path.split(separator: "/", omittingEmptySubsequences: false)
            guard want.count == have.count else { return false }
            return zip(want, have).allSatisfy { w, h in
                guard w.hasPrefix("<"), let close = w.firstIndex(of: ">") else { return w == h }
                let suffix = w[w.index(after: close)...]
                return h.count > suffix.count && h.hasSuffix(suffix)
            }
        }
        var paths = ["", "/", "//", "index.json", "index.json/", "/index.json", "index.jso", "xindex.json", "index.html",
                     "shop/control.json", "shop//control.json", "/control.json", "shop/control.json/", "shop/control.jsonx",
                     "shop/prince-of-versions.json", "shop/ios/prince-of-versions.json",
                     "shop/ios/retired/en.json", "shop/ios/retired/.json", "shop/ios/retired/json", "shop/ios/retired/en.json/",
                     "shop/ios/retired//en.json", "shop/ios/retired/en.jsox", "shop/ios/whatsnew/en-json", "shop/ios/lookup/pt-BR.json", "shop/android/lookup/en.json", "shop/ios/siren.json",
                     "shop/android/siren.json", "shop/ios/appcast.xml", "shop/ios/appcast.xm", "shop/ios/whatsnew/zh-Hant.json",
                     "shop/status.html", "shop/ios/status.html", "shop/ios/andversion.json", "a/b/c/d/e"]
        paths += paths.filter { $0.contains("/") }.map { $0.replacingOccurrences(of: "/", with: "\\") }
        XCTAssertEqual(Set(paths).count, paths.count)
        var kindsMatched = Set<String>()
        for kind in FileKinds.all {
            for path in paths {
                XCTAssertEqual(kind.matches(path), reference(kind, path), "\(kind.pattern) against \(path)")
                if kind.matches(path) { kindsMatched.insert(kind.pattern) }
            }
        }
        XCTAssertEqual(kindsMatched, Set(FileKinds.all.map(\.pattern)), "every kind is matched by some path, not only missed")
        // Bytes, not characters: a combining mark after "/" leaves the "/" a separator; a mark before the suffix leaves it the suffix.
        XCTAssertTrue(FileKinds.retired.matches("shop/ios/retired/\u{301}en.json"))
        XCTAssertTrue(FileKinds.retired.matches("商店/ios/retired/\u{600}.json"))
        XCTAssertFalse(FileKinds.retired.matches("shop/ios/retired\u{301}/en.json"))
    }
}
