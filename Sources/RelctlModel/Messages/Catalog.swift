/// The built-in message catalog, compiled from templates/messages (see the
/// EmbedTemplates plugin), and the kinds and fields of messages.
public enum Catalog {
    public static var locales: [String] { builtin.keys.sorted() }
    /// One built-in locale's strings ("date.pattern", "optional.title", …).
    package static func strings(_ locale: String) -> [String: String]? { builtin[locale] }

    public static let kinds = ["required", "optional", "maintenance"]
    public static let fields: [String: [String]] = [
        "required": ["title", "message", "update_button"],
        "optional": ["title", "message", "update_button", "later_button", "skip_button", "deadline_message"],
        "maintenance": ["title", "message", "retry_button"],
    ]
    /// Each kind's fields with their catalog keys ("required.title"), made once.
    package static let fieldKeys: [String: [(field: String, key: String)]] =
        Dictionary(uniqueKeysWithValues: fields.map { kind, list in (kind, list.map { (field: $0, key: "\(kind).\($0)") }) })
    /// Every key a catalog file must have.
    public static var keys: [String] {
        kinds.flatMap { kind in fields[kind]!.map { "\(kind).\($0)" } } + ["whatsnew.generic"] + dateKeys
    }
    /// How each language writes an instant in a message (LocalDate): a
    /// CLDR-style pattern, the twelve month names, am/pm, the ten digits.
    public static let dateKeys = ["date.pattern", "date.months", "date.am", "date.pm", "date.digits"]
    /// The placeholders each kind of message may use.
    public static func placeholders(for kind: String) -> [String] {
        switch kind {
        case "maintenance": return ["{app}", "{until}"]
        // {deadline} means something only in the deadline message; elsewhere it stays as written.
        case "optional": return ["{app}", "{version}", "{deadline}"]
        default: return ["{app}", "{version}"]
        }
    }
    /// Every placeholder any message may use.
    public static var placeholders: [String] {
        var all: [String] = []
        for kind in kinds { for p in placeholders(for: kind) where !all.contains(p) { all.append(p) } }
        return all
    }

    /// The order in which locales are tried, in steps: the user's tag along
    /// its own variety (LocaleChain: zh-TW, zh-Hant-TW, zh-Hant; pt-BR, pt;
    /// nn-NO, nn, nb-NO, nb), the language's default variant (pt → pt-BR),
    /// the project's default locale (likewise), then English. A locale
    /// appears once, at its first step.
    public static func chainGroups(_ locale: String, defaultLocale: String) -> [[String]] {
        var seen: [String] = []
        var groups: [[String]] = []
        for step in LocaleChain.steps(locale) + LocaleChain.steps(defaultLocale) + [["en"]] {
            let fresh = step.filter { candidate in
                if seen.contains(candidate) { return false }
                seen.append(candidate)
                return true
            }
            if !fresh.isEmpty { groups.append(fresh) }
        }
        return groups
    }

    /// The same order as one list.
    public static func chain(_ locale: String, defaultLocale: String) -> [String] {
        chainGroups(locale, defaultLocale: defaultLocale).flatMap { $0 }
    }
}
