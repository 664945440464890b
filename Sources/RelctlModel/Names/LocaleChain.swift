/// Which texts a user's language tag reaches, and in which order, the way
/// iOS (Bundle.preferredLocalizations) and Android (7+, CLDR parent
/// locales) find resources: a tag as devices report it (zh-TW, zh-Hant-HK,
/// sr-RS, es-MX, pt-AO, nn-NO) first finds its own language in its own
/// script, never another script's text (zh-Hant never falls to zh, which is
/// Simplified; sr-Latn never to sr, which is Cyrillic).
///
/// This is the ONE chain: the message resolver, release notes, dates in
/// messages and every published file go through Catalog.chainGroups.
public enum LocaleChain {
    /// The steps of one tag: its own variety (the tag, the tag with its
    /// likely script, the CLDR parent regions, the script, the language, the
    /// macrolanguage's written standard: nn → nb), then the language's
    /// default variant when the language has no text of its own (pt → pt-BR).
    /// Within a step a project's text beats the catalog's (MessageResolver).
    public static func steps(_ tag: String) -> [[String]] {
        // Most tags (de, tr, fr-CA) have no script, parent region, alias or
        // default variant: the tag, then its language. Publish asks for a chain
        // per version and locale, so this path stays as cheap as it was.
        let language = LocaleTag.language(tag)
        // A script subtag (uz-Cyrl-UZ) needs the tables: its text is uz-Cyrl, never Latin uz.
        let hasScript = tag.split(separator: "-").dropFirst().first?.count == 4
        if !special.contains(language) && !hasScript { return language == tag ? [[tag]] : [[tag, language]] }
        return common[tag] ?? full(tag)
    }

    /// The tables' answers for the tags most asked for, worked out once. A
    /// fleet publish asks for about 800,000 chains (appcast notes, per version
    /// and locale); measured with swiftc -O: 3.1 s of chains without this
    /// table, 1.0 s with it, as before the platform chain.
    package static let common: [String: [[String]]] = {
        var out: [String: [[String]]] = [:]
        for tag in ["en", "en-US", "en-GB", "en-AU", "en-CA", "en-IN", "es", "es-419", "es-ES", "es-MX", "es-US", "pt", "pt-BR", "pt-PT",
                    "zh", "zh-Hans", "zh-Hant", "zh-CN", "zh-TW", "zh-HK", "zh-Hans-CN", "zh-Hant-TW", "zh-Hant-HK",
                    "sr", "sr-Cyrl", "sr-Latn", "no", "nn"] {
            out[tag] = full(tag)
        }
        return out
    }()

    /// The steps worked out from the tables, for any tag (a test holds the
    /// short path above to the same answer).
    package static func full(_ tag: String) -> [[String]] {
        guard let p = Parts(tag) else { return [[tag, LocaleTag.language(tag)].uniqued()] }
        var own: [String] = [tag]
        for language in [p.language] + (aliases[p.language].map { [$0] } ?? []) {
            own += variety(Parts(language: language, script: p.script, region: p.region))
        }
        own = own.uniqued()
        let extra = (defaultVariant[p.language].map { [$0] } ?? []).filter { !own.contains($0) }
        return extra.isEmpty ? [own] : [own, extra]
    }

    /// Candidates inside one language, most specific first.
    package static func variety(_ p: Parts) -> [String] {
        let likelyHere = likelyScript(p.language, region: p.region)
        let script = p.script ?? likelyHere
        var out = [p.text]
        if let region = p.region {
            if p.script == nil, let s = likelyHere { out.append(Parts(language: p.language, script: s, region: region).text) }
            // zh-Hant-TW is also written zh-TW, because Hant is Taiwan's likely script; sr-Latn-RS is not sr-RS.
            if let s = p.script, s == likelyHere { out.append(Parts(language: p.language, script: nil, region: region).text) }
            var r = region
            while let parent = parentRegion(p.language, script: script, region: r) {
                out.append(Parts(language: p.language, script: p.script == nil ? nil : script, region: parent).text)
                if p.script == nil, let s = script { out.append(Parts(language: p.language, script: s, region: parent).text) }
                if p.script != nil, script == likelyScript(p.language, region: parent) {
                    out.append(Parts(language: p.language, script: nil, region: parent).text)
                }
                r = parent
            }
        }
        if let s = script { out.append(p.language + "-" + s) }
        // The bare language means its default script: zh is Simplified, sr Cyrillic.
        if script == nil || script == likelyScript(p.language, region: nil) { out.append(p.language) }
        return out.uniqued()
    }

    /// The languages that take more than the tag and its language: an alias,
    /// a default variant, a likely script or a parent region (the tables below).
    package static let special: Set<String> = ["no", "nn", "tl", "mo", "iw", "in", "ji", "pt", "zh", "sr", "es", "en"]

    /// Languages whose texts stand in for another code: Norwegian (no) and
    /// Nynorsk (nn) read Bokmål (nb), what iOS and Android show them when an
    /// app has no Nynorsk; tl is Android's old code for Filipino, mo for
    /// Romanian in Moldova. (iw, in, ji are rewritten when typed: LocaleTag.)
    package static let aliases = ["no": "nb", "nn": "nb", "tl": "fil", "mo": "ro", "iw": "he", "in": "id", "ji": "yi"]

    /// A bare language's default variant. pt is Brazilian Portuguese: CLDR's
    /// likely region for pt is BR (pt-PT is the variant with its own parent),
    /// Apple's and Google's "pt" localizations are Brazilian, and Brazil is by
    /// far the larger market. So "pt" (and pt-US, pt-FR…) read pt-BR text when
    /// there is no plain pt; the Portuguese-speaking African and Asian
    /// countries read pt-PT (CLDR parent locales).
    package static let defaultVariant = ["pt": "pt-BR"]

    /// Scripts a tag implies when it names none (CLDR likely subtags), for
    /// the languages written in more than one.
    package static func likelyScript(_ language: String, region: String?) -> String? {
        switch language {
        case "zh": return ["TW", "HK", "MO"].contains(region ?? "") ? "Hant" : "Hans"
        case "sr": return ["ME", "RO", "RU", "TR"].contains(region ?? "") ? "Latn" : "Cyrl"
        default: return nil
        }
    }

    /// CLDR parent locales that app texts are written for: Latin American
    /// Spanish (es-419), European Portuguese for Africa and Asia, Hong Kong
    /// Traditional Chinese for Macau, international English (en-001, with
    /// en-150 for Europe) outside the United States.
    package static func parentRegion(_ language: String, script: String?, region: String) -> String? {
        switch language {
        case "es":
            return ["AR", "BO", "BR", "BZ", "CL", "CO", "CR", "CU", "DO", "EC", "GT", "HN", "MX", "NI", "PA", "PE", "PR", "PY", "SV", "US", "UY", "VE"]
                .contains(region) ? "419" : nil
        case "pt":
            return ["AO", "CH", "CV", "GQ", "GW", "LU", "MO", "MZ", "ST", "TL"].contains(region) ? "PT" : nil
        case "zh":
            return script == "Hant" && region == "MO" ? "HK" : nil
        case "en":
            if ["US", "AS", "GU", "MH", "MP", "PR", "UM", "VI", "001"].contains(region) { return nil }
            if region == "150" { return "001" }
            return ["AT", "BE", "CH", "DE", "DK", "FI", "NL", "SE", "SI"].contains(region) ? "150" : "001"
        default:
            return nil
        }
    }

    package struct Parts {
        var language: String
        var script: String?
        var region: String?

        package init(language: String, script: String?, region: String?) {
            self.language = language; self.script = script; self.region = region
        }

        /// A normalised tag (LocaleTag.normalize); nil for anything else.
        package init?(_ tag: String) {
            let parts = tag.split(separator: "-", omittingEmptySubsequences: false).map(String.init)
            guard let first = parts.first, (2...3).contains(first.count) else { return nil }
            language = first
            var rest = parts.dropFirst()
            if let s = rest.first, s.count == 4 { script = s; rest = rest.dropFirst() }
            if let r = rest.first, r.count == 2 || r.count == 3 { region = r; rest = rest.dropFirst() }
            guard rest.isEmpty else { return nil }
        }

        var text: String { [language, script, region].compactMap { $0 }.joined(separator: "-") }
    }
}

extension Array where Element == String {
    /// The elements in order, each at its first place.
    package func uniqued() -> [String] {
        var out: [String] = []
        for e in self where !out.contains(e) { out.append(e) }
        return out
    }
}
