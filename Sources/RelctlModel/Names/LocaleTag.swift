/// BCP 47 language tags of the shapes apps use: language, optional script,
/// optional region (en, pt-BR, zh-Hans, sr-Latn, es-419).
public enum LocaleTag {
    public static func normalize(_ text: String) throws -> String {
        // Most tags read (a fleet's file holds millions) are already spelled so.
        if isNormal(text) { return text }
        return try spelled(text)
    }

    /// The tag in its normal spelling, from any spelling apps write.
    static func spelled(_ text: String) throws -> String {
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

    /// Whether `text` is spelled as `normalize` spells it: 2–3 lower-case
    /// letters (not a legacy code), then an optional Title-case script of
    /// 4 letters, then an optional region of 2 upper-case letters or 3 digits.
    static func isNormal(_ text: String) -> Bool {
        let parts = text.utf8.split(separator: UInt8(ascii: "-"), omittingEmptySubsequences: false)
        func all(_ part: Substring.UTF8View, _ range: ClosedRange<UInt8>) -> Bool { part.allSatisfy { range.contains($0) } }
        let lower = UInt8(ascii: "a")...UInt8(ascii: "z"), upper = UInt8(ascii: "A")...UInt8(ascii: "Z"), digit = UInt8(ascii: "0")...UInt8(ascii: "9")
        guard let first = parts.first, (2...3).contains(first.count), all(first, lower), legacy[String(decoding: first, as: UTF8.self)] == nil, parts.count <= 3 else { return false }
        var rest = parts.dropFirst()
        if let s = rest.first, s.count == 4 {
            guard upper.contains(s.first!), all(s.dropFirst(), lower) else { return false }
            rest = rest.dropFirst()
        }
        guard let r = rest.first else { return true }
        return rest.count == 1 && ((r.count == 2 && all(r, upper)) || (r.count == 3 && all(r, digit)))
    }

    public static func language(_ tag: String) -> String {
        String(tag.prefix { $0 != "-" })
    }
}
