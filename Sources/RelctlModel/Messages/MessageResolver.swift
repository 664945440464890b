/// One resolved string and where it came from.
public struct ResolvedText: Equatable, Sendable {
    public var value: String
    /// "project tr" for an override, "built-in tr" for the catalog.
    public var source: String
}

/// Resolves message fields through the locale chain, project overrides first
/// at each step, and fills placeholders.
public struct MessageResolver: Sendable {
    public var overrides: [String: [String: [String: String]]]
    public var defaultLocale: String { didSet { knownGroups = [:]; knownChains = [:] } }
    /// Chain groups worked out once per locale (`remember`): a publish
    /// resolves every message of every published locale, many times over,
    /// and looks up each version's notes along the chain in every format.
    private var knownGroups: [String: [[String]]] = [:]
    private var knownChains: [String: [String]] = [:]

    public init(overrides: [String: [String: [String: String]]], defaultLocale: String) {
        self.overrides = overrides; self.defaultLocale = defaultLocale
    }

    /// Resolution walks Catalog.chainGroups: the user's variety (zh-TW,
    /// zh-Hant-TW, zh-Hant), the language's default variant (pt → pt-BR), the
    /// project's default locale, then English. Within each step the copy of
    /// a maintenance window wins, then the project's text, then the catalog's:
    /// a project that wrote Portuguese copy shows it to pt-BR users even though
    /// the catalog has pt-BR.
    public func resolve(_ kind: String, _ field: String, locale: String, window: [String: [String: String]] = [:]) -> ResolvedText {
        resolve(kind, field, key: "\(kind).\(field)", groups: groups(locale), window: window)
    }

    /// Catalog.chainGroups of `locale`, remembered or worked out now.
    package func groups(_ locale: String) -> [[String]] {
        knownGroups[locale] ?? Catalog.chainGroups(locale, defaultLocale: defaultLocale)
    }

    /// Catalog.chain of `locale` with this resolver's default locale, remembered or worked out now.
    public func chain(_ locale: String) -> [String] {
        knownChains[locale] ?? Catalog.chain(locale, defaultLocale: defaultLocale)
    }

    /// Works out the chain groups of these locales once, for every message resolved after.
    public mutating func remember(locales: [String]) {
        for locale in locales where knownGroups[locale] == nil {
            let groups = Catalog.chainGroups(locale, defaultLocale: defaultLocale)
            knownGroups[locale] = groups
            knownChains[locale] = groups.flatMap { $0 }
        }
    }

    /// The same along chain groups worked out once for all of a message's
    /// fields; `key` is the catalog's, "kind.field".
    package func resolve(_ kind: String, _ field: String, key: String, groups: [[String]], window: [String: [String: String]]) -> ResolvedText {
        let ours = overrides[kind]
        for group in groups {
            if !window.isEmpty { for candidate in group { if let v = window[candidate]?[field] { return ResolvedText(value: v, source: "window \(candidate)") } } }
            if let ours { for candidate in group { if let v = ours[candidate]?[field] { return ResolvedText(value: v, source: "project \(candidate)") } } }
            for candidate in group { if let v = Catalog.builtin[candidate]?[key] { return ResolvedText(value: v, source: "built-in \(candidate)") } }
        }
        // Unreachable while the English catalog has every key (a test checks it).
        return ResolvedText(value: "", source: "missing")
    }

    public func message(_ kind: String, locale: String, values: [String: String],
                        window: [String: [String: String]] = [:]) -> [String: ResolvedText] {
        let fields = Catalog.fieldKeys[kind]!
        var out: [String: ResolvedText] = [:]
        out.reserveCapacity(fields.count)
        let groups = groups(locale)
        for (field, key) in fields {
            var text = resolve(kind, field, key: key, groups: groups, window: window)
            text.value = MessageResolver.fill(text.value, values)
            out[field] = text
        }
        return out
    }

    /// Replaces {name} with values[name]; unknown placeholders stay as written.
    public static func fill(_ template: String, _ values: [String: String]) -> String {
        guard template.utf8.contains(UInt8(ascii: "{")) else { return template }
        if let filled = fillBytes(template, values) { return filled }
        var out = ""
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "{") {
            out += rest[..<open]
            let after = rest[rest.index(after: open)...]
            if let close = after.firstIndex(of: "}"), let value = values[String(after[..<close])] {
                out += value
                rest = after[after.index(after: close)...]
            } else {
                out += "{"
                rest = after
            }
        }
        return out + rest
    }

    /// `fill` on the UTF-8 bytes, when every brace is a whole Character (no
    /// combining mark, joiner or spacing mark after it, no prepend before
    /// it): the Character walk gives the same text at several times the
    /// cost, and publish fills every message of every locale. nil: walk the
    /// Characters.
    package static func fillBytes(_ template: String, _ values: [String: String]) -> String? {
        let b = Array(template.utf8)
        for (i, c) in b.enumerated() where c == UInt8(ascii: "{") || c == UInt8(ascii: "}") {
            // Beside ASCII a brace stands alone; beside another scalar, it does when the two are two
            // Characters (grapheme breaks join a brace only to the scalar next to it: Unicode's GB9,
            // GB9a, GB9b). Most catalogs' translations put letters right beside their placeholders.
            if i > 0, b[i - 1] >= 0x80 {
                var start = i - 1
                while b[start] & 0xC0 == 0x80 { start -= 1 }
                if String(decoding: b[start...i], as: UTF8.self).count != 2 { return nil }
            }
            if i + 1 < b.count, b[i + 1] >= 0x80 {
                var end = i + 2
                while end < b.count, b[end] & 0xC0 == 0x80 { end += 1 }
                if String(decoding: b[i..<end], as: UTF8.self).count != 2 { return nil }
            }
        }
        var out: [UInt8] = []
        out.reserveCapacity(b.count + 32)
        var i = 0
        while i < b.count {
            guard b[i] == UInt8(ascii: "{") else {
                // Up to the next brace, in one copy.
                let next = b[i...].firstIndex(of: UInt8(ascii: "{")) ?? b.count
                out += b[i..<next]
                i = next
                continue
            }
            if let close = b[(i + 1)...].firstIndex(of: UInt8(ascii: "}")),
               let value = values[String(decoding: b[(i + 1)..<close], as: UTF8.self)] {
                out += value.utf8
                i = close + 1
            } else {
                out.append(b[i])
                i += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    public func generic(locale: String) -> ResolvedText {
        for candidate in Catalog.chain(locale, defaultLocale: defaultLocale) {
            if let v = Catalog.builtin[candidate]?["whatsnew.generic"] { return ResolvedText(value: v, source: "built-in \(candidate)") }
        }
        return ResolvedText(value: "", source: "missing")
    }
}
