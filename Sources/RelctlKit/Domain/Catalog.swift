/// The built-in message catalog, compiled from templates/messages (see the
/// EmbedTemplates plugin), and the kinds and fields of messages.
public enum Catalog {
    public static var locales: [String] { builtin.keys.sorted() }

    public static let kinds = ["required", "optional", "maintenance"]
    public static let fields: [String: [String]] = [
        "required": ["title", "message", "update_button"],
        "optional": ["title", "message", "update_button", "later_button", "skip_button"],
        "maintenance": ["title", "message", "retry_button"],
    ]
    /// Every key a catalog file must have.
    public static var keys: [String] {
        kinds.flatMap { kind in fields[kind]!.map { "\(kind).\($0)" } } + ["whatsnew.generic"]
    }
    public static let placeholders = ["{app}", "{version}", "{until}"]

    /// The order in which locales are tried: the tag, its language, the
    /// project's default locale, its language, then English.
    public static func chain(_ locale: String, defaultLocale: String) -> [String] {
        var out: [String] = []
        for candidate in [locale, LocaleTag.language(locale), defaultLocale, LocaleTag.language(defaultLocale), "en"]
        where !out.contains(candidate) { out.append(candidate) }
        return out
    }
}

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
    public var defaultLocale: String

    /// Resolution walks the user's language (the tag, then its language), then
    /// the project's default locale, then English. Within each step the copy of
    /// a maintenance window wins, then the project's text, then the catalog's:
    /// a project that wrote Portuguese copy shows it to pt-BR users even though
    /// the catalog has pt-BR.
    public func resolve(_ kind: String, _ field: String, locale: String, window: [String: [String: String]] = [:]) -> ResolvedText {
        let groups = [[locale, LocaleTag.language(locale)], [defaultLocale, LocaleTag.language(defaultLocale)], ["en"]]
        for group in groups {
            for candidate in group { if let v = window[candidate]?[field] { return ResolvedText(value: v, source: "window \(candidate)") } }
            for candidate in group { if let v = overrides[kind]?[candidate]?[field] { return ResolvedText(value: v, source: "project \(candidate)") } }
            for candidate in group { if let v = Catalog.builtin[candidate]?["\(kind).\(field)"] { return ResolvedText(value: v, source: "built-in \(candidate)") } }
        }
        // Unreachable while the English catalog has every key (a test checks it).
        return ResolvedText(value: "", source: "missing")
    }

    public func message(_ kind: String, locale: String, values: [String: String],
                        window: [String: [String: String]] = [:]) -> [String: ResolvedText] {
        var out: [String: ResolvedText] = [:]
        for field in Catalog.fields[kind]! {
            var text = resolve(kind, field, locale: locale, window: window)
            text.value = MessageResolver.fill(text.value, values)
            out[field] = text
        }
        return out
    }

    /// Replaces {name} with values[name]; unknown placeholders stay as written.
    public static func fill(_ template: String, _ values: [String: String]) -> String {
        guard template.contains("{") else { return template }
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

    public func generic(locale: String) -> ResolvedText {
        for candidate in Catalog.chain(locale, defaultLocale: defaultLocale) {
            if let v = Catalog.builtin[candidate]?["whatsnew.generic"] { return ResolvedText(value: v, source: "built-in \(candidate)") }
        }
        return ResolvedText(value: "", source: "missing")
    }
}
