import XCTest
@testable import RelctlCLI
@testable import RelctlCore
@testable import RelctlModel
@testable import RelctlStore
@testable import SQLite

/// Table-driven tests of the one evaluator, built on snapshots made in code.
final class EvaluatorTests: XCTestCase {
    static let day: Int64 = 86400
    static let t0: Int64 = 1_790_000_000  // the "now" of these tables

    func version(_ text: String, build: Int64? = nil, released: Int64? = t0 - 30 * day, policy: String? = nil,
                 notes: [String: String] = [:]) -> VersionRecord {
        VersionRecord(id: Int64(abs(text.hashValue % 100000)) + (build ?? 0), platformID: 1, version: try! Version(text), build: build,
                      releasedAt: released, minOS: nil, policy: policy.map { VersionRecord.Pin(rawValue: $0)! }, notes: notes)
    }

    func snapshot(_ versions: [VersionRecord], force: (String, Int64?)? = nil, recommend: (String, Int64?)? = nil,
                  windows: [MaintenanceWindow] = [], outdated: ProjectRecord.Outdated = .recommend, rules: Rules = .standard,
                  overrides: [String: [String: [String: String]]] = [:], defaultLocale: String = "en") -> (ProjectSnapshot, PlatformRecord) {
        let platform = PlatformRecord(id: 1, projectID: 1, name: "ios", bundleID: "com.example.shop", appStoreID: "1088280260", storeURL: nil, minOS: "15.0",
                                      force: force.map { Floor(version: try! Version($0.0), build: $0.1) },
                                      recommend: recommend.map { Floor(version: try! Version($0.0), build: $0.1) })
        let project = ProjectRecord(id: 1, slug: "shop", name: "Shop", defaultLocale: defaultLocale, locales: [], rules: rules,
                                    releaseDelayDays: 1, remindHours: 24, outdated: outdated)
        return (ProjectSnapshot(project: project, platforms: [platform], versions: [1: Store.sorted(versions)], windows: windows,
                                messages: MessageResolver(overrides: overrides, defaultLocale: defaultLocale)), platform)
    }

    func verdict(_ s: (ProjectSnapshot, PlatformRecord), _ client: String, build: Int64? = nil, at: Int64 = t0) -> Verdict {
        Evaluator(s.0).evaluate(s.1, Release(try! Version(client), build: build), at: at)
    }

    struct Row {
        var client: String
        var build: Int64? = nil
        var at: Int64 = EvaluatorTests.t0
        var kind: Verdict.Kind
        var by: String
        var target: String? = nil
        var line: UInt = #line
    }

    func check(_ s: (ProjectSnapshot, PlatformRecord), _ rows: [Row]) {
        for row in rows {
            let v = verdict(s, row.client, build: row.build, at: row.at)
            XCTAssertEqual(v.kind, row.kind, "\(row.client) build \(row.build.map(String.init) ?? "-"): \(v.why)", line: row.line)
            XCTAssertEqual(v.decidedBy.rawValue, row.by, "\(row.client): \(v.why)", line: row.line)
            if let target = row.target { XCTAssertEqual(v.target?.version.text, target, row.client, line: row.line) }
            if row.kind == .none || row.kind == .maintenance { XCTAssertNil(v.target, row.client, line: row.line) }
        }
    }

    func testFloorsAtTheirBoundariesAndBuilds() {
        let s = snapshot([version("1.0", build: 100), version("1.9", build: 190), version("2.0", build: 200),
                          version("2.0.1", build: 201), version("2.1", build: 210)],
                         force: ("2.0", 200), recommend: ("2.1", nil))
        check(s, [
            Row(client: "1.9", kind: .required, by: "force-floor", target: "2.1"),
            Row(client: "2.0", build: 199, kind: .required, by: "force-floor", target: "2.1"),
            Row(client: "2.0", build: 200, kind: .optional, by: "recommend-floor", target: "2.1"),  // exactly at the force floor
            Row(client: "2.0", kind: .optional, by: "recommend-floor", target: "2.1"),              // no build: not below 2.0 (200)
            Row(client: "2.0.0", build: 150, kind: .required, by: "force-floor"),                   // 2.0.0 == 2.0, lower build
            Row(client: "2.0.1", kind: .optional, by: "recommend-floor"),
            Row(client: "2.1", kind: .none, by: "up-to-date"),                                      // exactly at the recommend floor
            Row(client: "2.1.0", kind: .none, by: "up-to-date"),
            Row(client: "3.0", kind: .none, by: "up-to-date"),
        ])
    }

    func testPinsBeatFloors() {
        let s = snapshot([version("1.0"), version("1.4.2", policy: "force"), version("1.5", policy: "none"),
                          version("1.6", policy: "recommend"), version("2.0")], force: ("1.9", nil))
        check(s, [
            Row(client: "1.4.2", kind: .required, by: "pin", target: "2.0"),
            Row(client: "1.5", kind: .none, by: "pin"),           // pinned none although below the force floor
            Row(client: "1.6", kind: .optional, by: "pin"),       // pinned recommend beats the force floor
            Row(client: "1.0", kind: .required, by: "force-floor"),
        ])
        // A pin needs a newer released version to send the user to.
        let lone = snapshot([version("1.0", policy: "force")])
        check(lone, [Row(client: "1.0", kind: .none, by: "pin")])
    }

    func testOutdatedDefaultRulesAndReleaseDelay() {
        let t0 = EvaluatorTests.t0, day = EvaluatorTests.day
        let rules = Rules(byType: [Rule(alert: .force, frequency: .immediately), Rule(alert: .option, frequency: .daily),
                                   Rule(alert: .skip, frequency: .weekly), Rule(alert: .none, frequency: .weekly)])
        let released = t0 - day  // released exactly one delay ago
        let s = snapshot([version("1.0.0.0"), version("1.2.0.0", released: t0 - 40 * day), version("1.2.3.0", released: t0 - 35 * day),
                          version("1.2.3.4", released: t0 - 32 * day), version("2.0", released: released)], rules: rules)
        check(s, [
            Row(client: "1.0.0.0", kind: .required, by: "rule", target: "2.0"),               // major: force
            Row(client: "1.2.0.0", at: released + day - 1, kind: .optional, by: "rule", target: "1.2.3.4"), // 2.0 still in its delay: patch rule
            Row(client: "1.2.3.4", at: released + day - 1, kind: .none, by: "release-delay"),
            Row(client: "1.2.3.4", at: released + day, kind: .required, by: "rule", target: "2.0"), // the delay's last instant passed
        ])
        let minor = snapshot([version("1.0"), version("1.1")], rules: rules)
        check(minor, [Row(client: "1.0", kind: .optional, by: "rule", target: "1.1")])
        let patch = snapshot([version("1.0.0"), version("1.0.1")], rules: rules)
        let p = verdict(patch, "1.0.0")
        XCTAssertEqual(p.kind, .optional)
        XCTAssertEqual(p.updateType, "patch")
        XCTAssertEqual(p.rule?.skipAllowed, true)
        let revision = snapshot([version("1.0.0.1"), version("1.0.0.2")], rules: rules)
        check(revision, [Row(client: "1.0.0.1", kind: .none, by: "rule")])
        let quiet = snapshot([version("1.0"), version("2.0")], outdated: ProjectRecord.Outdated.none)
        check(quiet, [Row(client: "1.0", kind: .none, by: "outdated")])
        // Unreleased versions are never the target and never "latest".
        let unreleased = snapshot([version("1.0"), version("2.0", released: nil)], force: ("1.5", nil))
        check(unreleased, [Row(client: "1.0", kind: .none, by: "up-to-date")])
    }

    func testMaintenanceWindowsFirstAndLastInstant() {
        let t0 = EvaluatorTests.t0
        let window = MaintenanceWindow(id: 7, projectID: 1, platformID: nil, platformName: nil, startsAt: t0, endsAt: t0 + 3600,
                                       copy: ["en": (title: nil, message: "Back at {until}")])
        let s = snapshot([version("1.0"), version("2.0")], force: ("2.0", nil), windows: [window])
        check(s, [
            Row(client: "1.0", at: t0 - 1, kind: .required, by: "force-floor"),
            Row(client: "1.0", at: t0, kind: .maintenance, by: "maintenance"),
            Row(client: "2.0", at: t0 + 3599, kind: .maintenance, by: "maintenance"),
            Row(client: "2.0", at: t0 + 3600, kind: .none, by: "up-to-date"),
        ])
        let other = MaintenanceWindow(id: 8, projectID: 1, platformID: 2, platformName: "android", startsAt: t0, endsAt: nil, copy: [:])
        check(snapshot([version("1.0")], windows: [other]), [Row(client: "1.0", kind: .none, by: "up-to-date")])
        let open = MaintenanceWindow(id: 9, projectID: 1, platformID: 1, platformName: "ios", startsAt: t0, endsAt: nil, copy: [:])
        check(snapshot([version("1.0")], windows: [open]), [Row(client: "1.0", at: t0 + 1000 * EvaluatorTests.day, kind: .maintenance, by: "maintenance")])

        let e = Evaluator(s.0)
        let m = e.message(verdict(s, "1.0", at: t0), locale: "en")!
        // No offsets in this snapshot: the instant shows in UTC, and says so.
        XCTAssertEqual(m["message"]?.value, "Back at September 21, 2026 at 3:13 PM (UTC)")
        XCTAssertEqual(Time.format(t0 + 3600), "2026-09-21T15:13:20Z")
        XCTAssertEqual(m["message"]?.source, "window en")
        XCTAssertEqual(m["title"]?.source, "built-in en")
        // Turkish users get their language rather than the window's English copy.
        XCTAssertEqual(e.message(verdict(s, "1.0", at: t0), locale: "tr")!["message"]?.source, "built-in tr")
    }

    func testMessagesFollowTheLocaleChainAndFillPlaceholders() {
        let overrides = ["required": ["pt": ["title": "Atualize {app}"], "de": ["message": "Bitte {app} auf {version} bringen"]]]
        let s = snapshot([version("1.0"), version("2.0", notes: ["en": "New", "pt-BR": "Novo"])], force: ("2.0", nil),
                         overrides: overrides, defaultLocale: "de")
        let e = Evaluator(s.0)
        let v = verdict(s, "1.0")
        // exact tag
        var m = e.message(v, locale: "pt-BR")!
        XCTAssertEqual(m["message"]?.source, "built-in pt-BR")
        // project override at the language step beats nothing at the exact tag
        XCTAssertEqual(m["title"]?.value, "Atualize Shop")
        XCTAssertEqual(m["title"]?.source, "project pt")
        // an unknown language falls to the project's default locale
        m = e.message(v, locale: "xx")!
        XCTAssertEqual(m["message"]?.value, "Bitte Shop auf 2.0 bringen")
        XCTAssertEqual(m["title"]?.source, "built-in de")
        // then English when the default locale has no text
        let plain = snapshot([version("1.0"), version("2.0")], force: ("2.0", nil), defaultLocale: "xx")
        XCTAssertEqual(Evaluator(plain.0).message(verdict(plain, "1.0"), locale: "yy")!["title"]?.source, "built-in en")
        // Right-to-left text is kept as written.
        XCTAssertEqual(e.message(v, locale: "ar")!["update_button"]?.value, "تحديث")
        // notes fall back along the chain too
        XCTAssertEqual(e.notes(v.target!, locale: "pt-PT")?.0, "pt-BR", "Portuguese notes before the default locale, as the platforms do")
        XCTAssertEqual(e.notes(v.target!, locale: "es")?.0, "en")
        XCTAssertEqual(e.notes(v.target!, locale: "pt-BR")?.1, "Novo")
        XCTAssertNil(e.message(verdict(s, "2.0"), locale: "en"))
    }
}

final class CatalogTests: XCTestCase {
    func testEveryCatalogFileHasEveryKeyNoEmptyStringAndItsPlaceholders() throws {
        let required = ["ar", "hy", "eu", "zh-Hans", "zh-Hant", "da", "nl", "en", "et", "fi", "fr", "de", "el", "he", "hu", "id", "it", "ja",
                        "ko", "lv", "lt", "ms", "nb", "pl", "pt-BR", "pt-PT", "ru", "sr-Cyrl", "sr-Latn", "sl", "es", "sv", "th", "tr", "vi",
                        "cs", "hr", "ro", "uk", "fa", "ur", "sk", "hi", "bn", "fil"]
        XCTAssertTrue(Set(required).isSubset(of: Set(Catalog.locales)), "missing: \(Set(required).subtracting(Catalog.locales))")
        let english = Catalog.builtin["en"]!
        for locale in Catalog.locales {
            let strings = Catalog.builtin[locale]!
            XCTAssertEqual(Set(strings.keys), Set(Catalog.keys), locale)
            XCTAssertEqual(try LocaleTag.normalize(locale), locale, "file name must be a normalised tag")
            for (key, value) in strings {
                XCTAssertFalse(value.trimmingCharacters(in: .whitespaces).isEmpty, "\(locale) \(key)")
                for placeholder in Catalog.placeholders {
                    XCTAssertEqual(value.components(separatedBy: placeholder).count, english[key]!.components(separatedBy: placeholder).count,
                                   "\(locale) \(key) must keep \(placeholder) as the English text does")
                }
                XCTAssertFalse(value.contains("{") && !Catalog.placeholders.contains(where: value.contains), "\(locale) \(key): stray brace")
            }
        }
    }

    /// The binary carries templates/ exactly: the build plugin is in step with the files.
    func testEmbeddedCatalogMatchesTheTemplateFiles() throws {
        let dir = Package.root + "/templates/messages"
        let files = try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasSuffix(".json") }
        XCTAssertEqual(files.count, Catalog.locales.count)
        for file in files {
            let data = try Data(contentsOf: URL(fileURLWithPath: dir + "/" + file))
            let strings = try JSONSerialization.jsonObject(with: data) as! [String: String]
            XCTAssertEqual(strings, Catalog.builtin[String(file.dropLast(5))], file)
        }
    }
}
