import XCTest
@testable import RelctlModel

/// Instants in messages follow CLDR's long date-time form of each language
/// (the date, its joiner, the time in the language's own clock): the six
/// locales the conformance suite shows, at one afternoon instant.
final class DateConventionTests: XCTestCase {
    func testTheSuitesLocalesWriteAnInstantAsCLDRDoes() {
        let t = Time.parseUTC("2026-06-08T14:05:00Z")!
        let expected = [
            "en": "June 8, 2026 at 2:05 PM (UTC)",
            "de": "8. Juni 2026 um 14:05 (UTC)",
            "tr": "8 Haziran 2026 14:05 (UTC)",
            "pt-BR": "8 de junho de 2026 às 14:05 (UTC)",
            // zh-Hant writes the time on a 12-hour clock, the period first.
            "zh-Hant": "2026年6月8日 下午2:05 (UTC)",
            // Arabic joins date and time with في ("at"), in Arabic-Indic digits.
            "ar": "٨ يونيو ٢٠٢٦ في ٢:٠٥ م (UTC)",
        ]
        for (locale, text) in expected {
            XCTAssertEqual(LocalDate.render(t, offset: 0, locale: locale, defaultLocale: "en"), text, locale)
        }
        XCTAssertEqual(LocalDate.render(t, offset: 19_800, locale: "en", defaultLocale: "en"), "June 8, 2026 at 7:35 PM (UTC+5:30)")
    }

    /// '' is an apostrophe inside a quoted literal as outside one (locales.json says so).
    func testAnApostropheInsideAQuotedLiteral() {
        XCTAssertEqual(LocalDate.pattern("h 'o''clock' a", 14 * 3600, strings: ["date.am": "AM", "date.pm": "PM", "date.months": "", "date.digits": "0123456789"]), "2 o'clock PM")
    }
}
