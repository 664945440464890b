import Foundation
import XCTest
@testable import RelctlCLI
@testable import RelctlCore
@testable import RelctlModel

/// {until} and {deadline} in the user's language and the project's time zone.
final class LocalDateTests: XCTestCase {
    // 2026-12-01T22:00:00Z: 01:00 on 2 December in Istanbul (UTC+3), 07:00 in Tokyo.
    let t: Int64 = 1_796_162_400

    func render(_ locale: String, offset: Int64?) -> String { LocalDate.render(t, offset: offset, locale: locale, defaultLocale: "en") }

    func testLanguagesAndZones() {
        XCTAssertEqual(Time.format(t), "2026-12-01T22:00:00Z")
        XCTAssertEqual(render("tr", offset: 10800), "2 Aralık 2026 01:00 (UTC+3)")
        XCTAssertEqual(render("de", offset: 3600), "1. Dezember 2026 um 23:00 (UTC+1)")
        XCTAssertEqual(render("ja", offset: 32400), "2026年12月2日 7:00 (UTC+9)")
        XCTAssertEqual(render("ar", offset: 10800), "٢ ديسمبر ٢٠٢٦ في ١:٠٠ ص (UTC+3)")
        XCTAssertEqual(render("en-US", offset: -18000), "December 1, 2026 at 5:00 PM (UTC-5)")
        XCTAssertEqual(render("en-US", offset: nil), "December 1, 2026 at 10:00 PM (UTC)")
        XCTAssertEqual(render("sw", offset: 10800), "December 2, 2026 at 1:00 AM (UTC+3)", "a language without a catalog falls back to English")
        XCTAssertEqual(render("hi", offset: 19800), "2 दिसंबर 2026 को 3:30 am (UTC+5:30)")
        XCTAssertEqual(render("pt-BR", offset: -10800), "1 de dezembro de 2026 às 19:00 (UTC-3)")
        XCTAssertEqual(render("ko", offset: 32400), "2026년 12월 2일 오전 7:00 (UTC+9)")
        XCTAssertEqual(LocalDate.render(0, offset: -3600, locale: "en", defaultLocale: "en"), "December 31, 1969 at 11:00 PM (UTC-1)")
        XCTAssertEqual(LocalDate.zone(-12600), "UTC-3:30")
    }

    /// Every catalog language renders without leftovers of its pattern.
    func testEveryCatalogLanguageRenders() {
        for locale in Catalog.locales {
            let s = render(locale, offset: 10800)
            XCTAssertTrue(s.hasSuffix(" (UTC+3)"), "\(locale): \(s)")
            XCTAssertFalse(s.contains("'") || s.contains("MMMM") || s.contains("yy") || s.contains("HH"), "\(locale): \(s)")
            XCTAssertEqual(Catalog.builtin[locale]!["date.months"]!.split(separator: ",").count, 12, locale)
            XCTAssertEqual(Catalog.builtin[locale]!["date.digits"]!.count, 10, locale)
        }
    }

    /// End to end: project edit --time-zone, check and the published files.
    func testProjectTimeZoneReachesMessagesAndFiles() throws {
        let h = Harness()  // 2026-11-29T12:00:00Z
        h.sample()
        h.ok("project edit shop --locales en,tr,de,ja,ar --time-zone Europe/Istanbul")
        h.ok("force 2.0 --platform ios --deadline 2026-12-01T22:00:00Z --yes")
        func message(_ locale: String) -> String? {
            let v = h.ok("--json check 1.0 --platform ios --locale \(locale)").json as? [String: Any]
            return ((v?["message"] as? [String: Any])?["message"] as? [String: Any])?["text"] as? String
        }
        XCTAssertEqual(message("tr"), "Shop uygulamasının 2.0 sürümü yayında. Lütfen 2 Aralık 2026 01:00 (UTC+3) tarihine kadar güncelleyin; sonrasında güncelleme zorunlu olacak.")
        XCTAssertEqual(message("ja"), "Shop のバージョン 2.0 が利用可能です。2026年12月2日 1:00 (UTC+3) までにアップデートしてください。それ以降はアップデートが必須になります。")
        XCTAssertTrue(message("en-US")?.contains("December 2, 2026 at 1:00 AM (UTC+3)") == true)
        h.ok("maintenance schedule --from 2026-12-01T20:00:00Z --until 2026-12-01T22:00:00Z --message \"Back {until}\" --locale de --yes")
        let out = h.dir + "/out"
        h.ok("publish \(out)")
        let control = try JSONSerialization.jsonObject(with: FileManager.default.contents(atPath: out + "/shop/control.json")!) as? [String: Any]
        let window = ((control?["maintenance"] as? [String: Any])?["upcoming"] as? [[String: Any]])?.first
        XCTAssertEqual(((window?["messages"] as? [String: Any])?["de"] as? [String: Any])?["message"] as? String, "Back 2. Dezember 2026 um 01:00 (UTC+3)")
        XCTAssertEqual(window?["endsAt"] as? String, "2026-12-01T22:00:00Z", "control.json keeps the raw timestamp")
        let retired = try JSONSerialization.jsonObject(with: FileManager.default.contents(atPath: out + "/shop/ios/retired/ar.json")!) as? [String: Any]
        let recommended = ((retired?["messaging"] as? [String: Any])?["recommended"] as? [String: Any])?["message"] as? String
        XCTAssertTrue(recommended?.contains("٢ ديسمبر ٢٠٢٦ في ١:٠٠ ص (UTC+3)") == true, recommended ?? "")
        XCTAssertEqual(h.run(["verify", out]).status, 0)
        // Daylight saving: Berlin is UTC+1 in winter, UTC+2 in summer.
        h.ok("project edit shop --time-zone Europe/Berlin")
        h.ok("force 2.0 --platform ios --deadline 2027-07-01T10:00:00Z --yes")
        XCTAssertTrue(message("de")?.contains("1. Juli 2027 um 12:00 (UTC+2)") == true, message("de") ?? "")
        h.fails("project edit shop --time-zone Mars/Olympus", status: 2, "unknown time zone 'Mars/Olympus'")
        // POSIX rules count hours west (UTC-14 is fourteen hours east): a project names a zone instead.
        for rule in ["UTC+99", "ABC+25", "A+3", "UTC+3E", "UTC-14", "EST+5EDT4", "GMT+14"] {
            h.fails("project edit shop --time-zone \(rule)", status: 2, "'\(rule)' is a POSIX rule, not a tz database name")
        }
        for zone in ["EST5EDT", "Etc/GMT-14"] { h.ok("project edit shop --time-zone \(zone)") }
        XCTAssertTrue(message("de")?.contains("(UTC+14)") == true, message("de") ?? "")
        // TZ in the environment may also take the <...>, minutes and rule forms.
        for rule in ["<+0530>-5:30", "CET-1CEST,M3.5.0,M10.5.0/3", "<-03>3", "UTC+24"] { XCTAssertTrue(TimeInput.posixRuleIsValid(rule), rule) }
        for rule in ["XYZ+3:75", "<+05>-5j", "<+0>1", "UTC+025", "UTC", "UTC+3EST+1:99", "UTC+24:30"] { XCTAssertFalse(TimeInput.posixRuleIsValid(rule), rule) }
        h.fails("project edit shop --time-zone ../../etc/passwd", status: 2, "is not a time-zone name")
        h.fails("project edit shop --time-zone \"\"", status: 2, "is not a time-zone name")
    }
}
