/// BCP 47 language tags of the shapes apps use: language, optional script,
/// optional region (en, pt-BR, zh-Hans, sr-Latn, es-419).
public enum LocaleTag {
    public static func normalize(_ text: String) throws -> String {
        var parts = text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "-" || $0 == "_" }).map(String.init)
        // Android's Locale.toString() writes the script last behind '#':
        // zh_TW_#Hant is zh-Hant-TW, sr_RS_#Latn is sr-Latn-RS, sr__#Latn (no region) is sr-Latn.
        if parts.count == 3, parts[2].count == 5, parts[2].first == "#" {
            parts = [parts[0], String(parts[2].dropFirst())] + (parts[1].isEmpty ? [] : [parts[1]])
        }
        let bad = InputError("invalid locale '\(text)'", hint: "use a BCP 47 tag such as en, tr, pt-BR, zh-Hans or sr-Latn")
        guard let first = parts.first, (2...3).contains(first.count), first.allSatisfy(isLetter) else { throw bad }
        var out = [legacy[first.lowercased()] ?? first.lowercased()]
        var rest = parts.dropFirst()
        if let s = rest.first, s.count == 4, s.allSatisfy(isLetter) {
            out.append(s.prefix(1).uppercased() + s.dropFirst().lowercased())
            rest = rest.dropFirst()
        }
        if let r = rest.first {
            if r.count == 2, r.allSatisfy(isLetter) { out.append(r.uppercased()) }
            else if r.count == 3, r.allSatisfy({ $0.isASCII && $0.isNumber }) { out.append(r) }
            else { throw bad }
            rest = rest.dropFirst()
        }
        guard rest.isEmpty else { throw bad }
        return out.joined(separator: "-")
    }

    /// Java's old codes for Hebrew, Indonesian and Yiddish: stored under the
    /// current code, so that current systems find the text (AndVersion
    /// publishes both spellings for older Android runtimes).
    public static let legacy = ["iw": "he", "in": "id", "ji": "yi"]

    private static func isLetter(_ c: Character) -> Bool { c.isASCII && c.isLetter }

    public static func language(_ tag: String) -> String {
        String(tag.prefix { $0 != "-" })
    }
}
