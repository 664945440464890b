import Foundation
import XCTest
@testable import RelctlCLI
@testable import RelctlCore
@testable import RelctlModel

/// Tags as iOS and Android report them find their language's text, as the
/// platforms resolve them; the catalog keeps every language complete.
final class LocaleResolutionTests: XCTestCase {
    /// (tag as a device reports it, the catalog language whose text the user
    /// reads) for a project whose default locale is German, so that falling to
    /// the default shows as "de".
    static let table: [(String, String)] = [
        // English: regional tags read the English catalog.
        ("en", "en"), ("en-US", "en"), ("en-GB", "en"), ("en-AU", "en"), ("en-IN", "en"), ("en-CA", "en"), ("en_DE", "en"),
        // Spanish: Latin America, Spain, the United States.
        ("es-419", "es"), ("es-MX", "es"), ("es-ES", "es"), ("es-US", "es"), ("es_AR", "es"),
        // Portuguese: pt is Brazilian; Africa reads European Portuguese.
        ("pt-BR", "pt-BR"), ("pt-PT", "pt-PT"), ("pt", "pt-BR"), ("pt-AO", "pt-PT"), ("pt-MZ", "pt-PT"), ("pt-US", "pt-BR"), ("pt_BR", "pt-BR"),
        // Chinese: the script a region implies, never the other script.
        ("zh-Hans-CN", "zh-Hans"), ("zh-Hant-TW", "zh-Hant"), ("zh-Hant-HK", "zh-Hant"), ("zh-TW", "zh-Hant"), ("zh-HK", "zh-Hant"),
        ("zh-MO", "zh-Hant"), ("zh-CN", "zh-Hans"), ("zh-SG", "zh-Hans"), ("zh", "zh-Hans"), ("zh-Hans", "zh-Hans"), ("zh-Hant", "zh-Hant"),
        ("zh_TW_#Hant", "zh-Hant"), ("zh_CN_#Hans", "zh-Hans"), ("zh-Hant-MO", "zh-Hant"),
        // Serbian: Cyrillic unless Latin is named (or Montenegro).
        ("sr", "sr-Cyrl"), ("sr-RS", "sr-Cyrl"), ("sr-Cyrl-RS", "sr-Cyrl"), ("sr-Latn-RS", "sr-Latn"), ("sr-Latn", "sr-Latn"), ("sr-ME", "sr-Latn"),
        ("sr_RS_#Latn", "sr-Latn"),
        // Norwegian: no and nn read Bokmål.
        ("nb-NO", "nb"), ("no", "nb"), ("no-NO", "nb"), ("nn-NO", "nb"), ("nn", "nb"),
        // Java's legacy codes (older Android) and Filipino.
        ("iw-IL", "he"), ("iw", "he"), ("in-ID", "id"), ("in", "id"), ("fil-PH", "fil"), ("fil", "fil"), ("tl", "fil"), ("mo", "ro"),
        // Right-to-left and the new languages.
        ("ar-EG", "ar"), ("ar-SA", "ar"), ("he-IL", "he"), ("fa-IR", "fa"), ("fa-AF", "fa"), ("ur-PK", "ur"), ("ur-IN", "ur"),
        ("hi-IN", "hi"), ("bn-BD", "bn"), ("cs-CZ", "cs"), ("sk-SK", "sk"), ("hr-HR", "hr"), ("ro-RO", "ro"), ("ro-MD", "ro"), ("uk-UA", "uk"),
        // Everyday regional tags.
        ("de-AT", "de"), ("de-CH", "de"), ("fr-CA", "fr"), ("fr-FR", "fr"), ("it-IT", "it"), ("ja-JP", "ja"), ("ko-KR", "ko"), ("ru-RU", "ru"),
        ("tr-TR", "tr"), ("vi-VN", "vi"), ("th-TH", "th"), ("id-ID", "id"), ("ms-MY", "ms"), ("el-GR", "el"), ("nl-BE", "nl"), ("sv-SE", "sv"),
        // No catalog: the project's default locale.
        ("ca-ES", "de"), ("sw-KE", "de"), ("kk-KZ", "de"),
    ]

    func testRealWorldTagsReachTheirLanguage() throws {
        XCTAssertGreaterThanOrEqual(Self.table.count, 40)
        let resolver = MessageResolver(overrides: [:], defaultLocale: "de")
        for (reported, language) in Self.table {
            let tag = try LocaleTag.normalize(reported)  // as check, message show and the stored locales take it
            let title = resolver.resolve("required", "title", locale: tag)
            XCTAssertEqual(title.source, "built-in \(language)", "\(reported) → \(tag): chain \(Catalog.chainGroups(tag, defaultLocale: "de"))")
            XCTAssertEqual(title.value, Catalog.builtin[language]!["required.title"], reported)
            // Dates in messages and the generic notes line walk the same chain.
            XCTAssertEqual(resolver.generic(locale: tag).source, "built-in \(language)", reported)
            XCTAssertEqual(LocalDate.render(0, offset: 0, locale: tag, defaultLocale: "de"), LocalDate.render(0, offset: 0, locale: language, defaultLocale: "de"), reported)
        }
    }

    func testChainsInSteps() {
        func chain(_ tag: String, _ def: String = "en") -> [[String]] { Catalog.chainGroups(tag, defaultLocale: def) }
        XCTAssertEqual(chain("zh-TW"), [["zh-TW", "zh-Hant-TW", "zh-Hant"], ["en"]])
        XCTAssertEqual(chain("zh-Hant-TW"), [["zh-Hant-TW", "zh-TW", "zh-Hant"], ["en"]])
        XCTAssertEqual(chain("zh-MO"), [["zh-MO", "zh-Hant-MO", "zh-HK", "zh-Hant-HK", "zh-Hant"], ["en"]])
        XCTAssertEqual(chain("zh-Hans-CN"), [["zh-Hans-CN", "zh-CN", "zh-Hans", "zh"], ["en"]])
        XCTAssertEqual(chain("zh"), [["zh", "zh-Hans"], ["en"]])
        XCTAssertEqual(chain("sr-Latn-RS"), [["sr-Latn-RS", "sr-Latn"], ["en"]], "Latin Serbian never reads sr, which is Cyrillic")
        XCTAssertEqual(chain("sr-RS"), [["sr-RS", "sr-Cyrl-RS", "sr-Cyrl", "sr"], ["en"]])
        XCTAssertEqual(chain("nn-NO", "de"), [["nn-NO", "nn", "nb-NO", "nb"], ["de"], ["en"]])
        XCTAssertEqual(chain("pt", "de"), [["pt"], ["pt-BR"], ["de"], ["en"]])
        XCTAssertEqual(chain("pt-AO", "de"), [["pt-AO", "pt-PT", "pt"], ["pt-BR"], ["de"], ["en"]])
        XCTAssertEqual(chain("pt-BR", "de"), [["pt-BR", "pt"], ["de"], ["en"]])
        XCTAssertEqual(chain("es-MX", "pt"), [["es-MX", "es-419", "es"], ["pt"], ["pt-BR"], ["en"]], "the default locale is resolved the same way")
        XCTAssertEqual(chain("en-GB", "tr"), [["en-GB", "en-001", "en"], ["tr"]])
        XCTAssertEqual(chain("en-DE"), [["en-DE", "en-150", "en-001", "en"]])
        XCTAssertEqual(chain("en-US", "en"), [["en-US", "en"]])
        XCTAssertEqual(chain("en", "en"), [["en"]])
        // The short path for ordinary languages gives what the tables give.
        XCTAssertTrue(Set(LocaleChain.aliases.keys).union(LocaleChain.defaultVariant.keys).union(["zh", "sr", "es", "pt", "en"]).isSubset(of: LocaleChain.special))
        // Tags beyond the table too, scripts of ordinary languages among them (uz-Cyrl never reads Latin uz).
        for tag in Self.table.map({ try! LocaleTag.normalize($0.0) }) + ["uz-Cyrl-UZ", "uz-Latn", "az-Cyrl", "pa-Arab-PK", "bs-Cyrl-BA", "de-AT", "tr", "ms-Arab"] {
            XCTAssertEqual(LocaleChain.steps(tag), LocaleChain.full(tag), tag)
        }
        XCTAssertEqual(chain("uz-Cyrl-UZ"), [["uz-Cyrl-UZ", "uz-Cyrl"], ["en"]])
    }

    /// Within the user's step a project's text beats the catalog; the
    /// default-variant step (pt → pt-BR) comes after the catalog's own pt-PT.
    func testProjectTextWinsWithinAStepOnly() {
        let overrides = ["required": ["zh-TW": ["title": "TW"], "pt-BR": ["title": "BR"], "no": ["title": "NO"]]]
        let r = MessageResolver(overrides: overrides, defaultLocale: "en")
        XCTAssertEqual(r.resolve("required", "title", locale: "zh-Hant-TW").source, "project zh-TW")
        XCTAssertEqual(r.resolve("required", "title", locale: "zh-Hant-HK").source, "built-in zh-Hant")
        XCTAssertEqual(r.resolve("required", "title", locale: "pt-PT").source, "built-in pt-PT", "Brazilian copy does not beat the European catalog")
        XCTAssertEqual(r.resolve("required", "title", locale: "pt").source, "project pt-BR")
        XCTAssertEqual(r.resolve("required", "title", locale: "no-NO").source, "project no")
        XCTAssertEqual(r.resolve("required", "title", locale: "nb-NO").source, "built-in nb")
    }

    /// check, message show and the published files of the locales a project
    /// publishes all reach the regional tag's language.
    func testCheckMessageShowAndPublishedFiles() throws {
        let h = Harness()
        h.sample()
        h.ok("project edit shop --locales en,zh-TW,pt,nn-NO,sr-Latn-RS")
        h.ok("force 2.0 --platform ios --yes")
        func title(_ locale: String) -> (String?, String?) {
            let v = h.ok("--json check 1.0 --platform ios --locale \(locale)").json as? [String: Any]
            let t = (v?["message"] as? [String: Any])?["title"] as? [String: Any]
            return (t?["text"] as? String, t?["source"] as? String)
        }
        XCTAssertEqual(title("zh-Hant-HK").1, "built-in zh-Hant")
        XCTAssertEqual(title("zh_TW_#Hant").1, "built-in zh-Hant")
        XCTAssertEqual(title("pt").1, "built-in pt-BR")
        XCTAssertEqual(title("nn").1, "built-in nb")
        XCTAssertEqual(title("iw").1, "built-in he")

        let shown = h.ok("message show --locale zh-TW").out
        XCTAssertTrue(shown.hasPrefix("chain: zh-TW, zh-Hant-TW, zh-Hant → en\n"), shown)
        XCTAssertTrue(shown.contains("built-in zh-Hant"), shown)
        let doc = h.ok("--json message show --locale pt-AO").json as? [String: Any]
        XCTAssertEqual(doc?["chain"] as? [[String]], [["pt-AO", "pt-PT", "pt"], ["pt-BR"], ["en"]])

        let out = h.dir + "/out"
        h.ok("publish \(out)")
        func retiredTitle(_ locale: String) throws -> String? {
            let data = try XCTUnwrap(FileManager.default.contents(atPath: out + "/shop/ios/retired/\(locale).json"), locale)
            let j = try JSONSerialization.jsonObject(with: data) as? [String: Any]
            return ((j?["messaging"] as? [String: Any])?["forced"] as? [String: Any])?["title"] as? String
        }
        XCTAssertEqual(try retiredTitle("zh-TW"), Catalog.builtin["zh-Hant"]!["required.title"])
        XCTAssertEqual(try retiredTitle("pt"), Catalog.builtin["pt-BR"]!["required.title"])
        XCTAssertEqual(try retiredTitle("nn-NO"), Catalog.builtin["nb"]!["required.title"])
        XCTAssertEqual(try retiredTitle("sr-Latn-RS"), Catalog.builtin["sr-Latn"]!["required.title"])
        XCTAssertEqual(h.run(["verify", out]).status, 0)
    }

    /// AndVersion's "en" key, for devices in languages without notes, takes
    /// the default locale's notes along the same chain: a project whose
    /// default is pt finds its pt-BR notes.
    func testAndVersionFallbackNotesWalkTheSameChain() throws {
        let h = Harness()
        h.ok("init")
        h.ok("project add shop --name Shop --default-locale pt")
        h.ok("platform add android --bundle-id com.example.shop")
        h.ok("version add 2.0 --platform android --build 200 --released 2026-11-01T00:00:00Z")
        h.ok("notes set 2.0 --platform android --locale pt-BR \"Novo visual\"")
        let out = h.dir + "/out"
        h.ok("publish \(out)")
        let data = try XCTUnwrap(FileManager.default.contents(atPath: out + "/shop/android/andversion.json"))
        let j = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        let whatsNew = (j?["AndVersion"] as? [String: Any])?["WhatsNew"] as? [String: [String]]
        XCTAssertEqual(whatsNew?["en"], ["Novo visual"], "\(whatsNew ?? [:])")
        XCTAssertEqual(whatsNew?["pt"], ["Novo visual"])
    }
}

/// The catalog as a careful reader checks it: complete, nothing left in
/// English, right-to-left lines that start in their own script.
final class CatalogLanguageTests: XCTestCase {
    static let rightToLeft: Set<String> = ["ar", "he", "fa", "ur", "yi", "ps", "ckb", "ug", "dv", "sd"]

    func testMoreLanguagesThanSiren() {
        let added = ["cs", "hr", "ro", "uk", "fa", "ur", "sk", "hi", "bn", "fil"]
        XCTAssertTrue(Set(added).isSubset(of: Set(Catalog.locales)), "missing: \(Set(added).subtracting(Catalog.locales))")
        XCTAssertGreaterThan(Catalog.locales.count, 40, "Siren ships about 40")
    }

    /// Keys and placeholders are English's (CatalogTests checks that for every
    /// file); here: no text left in English. A string equal to the English one
    /// is English; in a language not written in Latin letters, Latin words
    /// outside placeholders are English too.
    func testNoTextLeftInEnglish() {
        let english = Catalog.builtin["en"]!
        let nonLatin: Set<String> = ["ar", "he", "fa", "ur", "ru", "uk", "el", "hy", "ja", "ko", "zh-Hans", "zh-Hant", "th", "hi", "bn", "sr-Cyrl"]
        XCTAssertEqual(untranslated(["title": "Update required", "message": "Обновите {app} now"], english: ["title": "Update required", "message": "x"], nonLatin: true),
                       ["message", "title"], "the check can fail")
        for locale in Catalog.locales where locale != "en" {
            let strings = Catalog.builtin[locale]!.filter { !$0.key.hasPrefix("date.") }
            XCTAssertEqual(Set(strings.keys), Set(english.keys.filter { !$0.hasPrefix("date.") }), locale)
            XCTAssertEqual(untranslated(strings, english: english, nonLatin: nonLatin.contains(locale)), [], locale)
        }
    }

    func untranslated(_ strings: [String: String], english: [String: String], nonLatin: Bool) -> [String] {
        strings.keys.sorted().filter { key in
            let value = strings[key]!
            if value == english[key] { return true }
            guard nonLatin else { return false }
            var text = value
            for p in Catalog.placeholders { text = text.replacingOccurrences(of: p, with: "") }
            return text.unicodeScalars.contains { $0.isASCII && CharacterSet.letters.contains($0) }
        }
    }

    /// A right-to-left line that starts with a placeholder takes its direction
    /// from what fills it: a Latin app name ("Shop נמצאת…") or a date with
    /// "UTC" turns the line left-to-right. Every line of every right-to-left
    /// string starts with a word of its own script, or with a right-to-left
    /// mark (U+200F) before the placeholder.
    func testRightToLeftLinesNeverStartWithAPlaceholder() {
        XCTAssertEqual(rtlProblems(["m": "{app} נמצאת בתחזוקה"]), ["m"], "the check can fail")
        XCTAssertEqual(rtlProblems(["m": "שלום\n{app}"]), ["m"], "every line counts")
        XCTAssertEqual(rtlProblems(["m": "\u{200F}{app} נמצאת בתחזוקה"]), [], "a right-to-left mark guards it")
        let rtl = Catalog.locales.filter { Self.rightToLeft.contains(LocaleTag.language($0)) }
        XCTAssertEqual(Set(rtl), ["ar", "he", "fa", "ur"])
        for locale in rtl {
            XCTAssertEqual(rtlProblems(Catalog.builtin[locale]!), [], locale)
        }
    }

    /// A project's own right-to-left copy gets the same advice, as a warning.
    func testRightToLeftOverridesStartingWithAPlaceholderAreWarned() {
        let h = Harness()
        h.sample()
        var r = h.ok("message set maintenance --locale he --message \"{app} בתחזוקה\"")
        XCTAssertTrue(r.err.contains("warning: --message (he) starts a line with {app}"), r.err)
        r = h.ok("message set maintenance --locale he --message \"\u{200F}{app} בתחזוקה\"")
        XCTAssertFalse(r.err.contains("warning"), r.err)
        r = h.ok("message set maintenance --locale tr --message \"{app} bakımda\"")
        XCTAssertFalse(r.err.contains("warning"), "left-to-right text is fine: \(r.err)")
        r = h.ok("maintenance schedule --from 2026-12-01T20:00:00Z --for 1h --locale fa --message \"{app} در دست تعمیر است\" --yes")
        XCTAssertTrue(r.err.contains("warning: --message (fa) starts a line with {app}"), r.err)
        r = h.ok("maintenance message 1 --locale ar --title \"صيانة\" --message \"التطبيق\n{until}\"")
        XCTAssertTrue(r.err.contains("warning: --message (ar) starts a line with {until}"), r.err)
        XCTAssertEqual(RightToLeft.unguardedPlaceholder("שלום {app}"), nil)
    }

    func rtlProblems(_ strings: [String: String]) -> [String] {
        strings.keys.sorted().filter { key in
            strings[key]!.split(separator: "\n", omittingEmptySubsequences: false).contains { line in
                let start = line.drop { $0 == " " }
                return Catalog.placeholders.contains { start.hasPrefix($0) }
            }
        }
    }

    func testNewLanguagesWriteDates() {
        let t: Int64 = 1_796_162_400  // 2026-12-01T22:00:00Z
        func render(_ locale: String) -> String { LocalDate.render(t, offset: 10800, locale: locale, defaultLocale: "en") }
        XCTAssertEqual(render("cs"), "2. prosince 2026 v 1:00 (UTC+3)")
        XCTAssertEqual(render("sk"), "2. decembra 2026 o 1:00 (UTC+3)")
        XCTAssertEqual(render("hr"), "2. prosinca 2026. u 01:00 (UTC+3)")
        XCTAssertEqual(render("ro"), "2 decembrie 2026 la 01:00 (UTC+3)")
        XCTAssertEqual(render("uk"), "2 грудня 2026 р. о 01:00 (UTC+3)")
        XCTAssertEqual(render("fa"), "۲ دسامبر ۲۰۲۶، ساعت ۱:۰۰ (UTC+3)")
        XCTAssertEqual(render("ur"), "2 دسمبر، 2026، 1:00 قبل دوپہر (UTC+3)")
        XCTAssertEqual(render("hi"), "2 दिसंबर 2026 को 1:00 am (UTC+3)")
        XCTAssertEqual(render("bn"), "২ ডিসেম্বর, ২০২৬, ১:০০ AM (UTC+3)")
        XCTAssertEqual(render("fil"), "Disyembre 2, 2026 nang 1:00 AM (UTC+3)")
    }
}
