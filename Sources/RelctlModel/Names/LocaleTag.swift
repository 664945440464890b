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
    /// Read part by part over the bytes, splitting nothing: every command that
    /// reads a project checks its locales (split into slices, 8,700
    /// instructions a tag).
    static func isNormal(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { b in
            let lower = UInt8(ascii: "a")...UInt8(ascii: "z"), upper = UInt8(ascii: "A")...UInt8(ascii: "Z"), digit = UInt8(ascii: "0")...UInt8(ascii: "9")
            let dash = UInt8(ascii: "-")
            /// Where the part that starts at `from` ends (its dash, or the end).
            func end(_ from: Int) -> Int { var i = from; while i < b.count, b[i] != dash { i += 1 }; return i }
            /// Whether every byte in from..<to is in `range`.
            func all(_ from: Int, _ to: Int, _ range: ClosedRange<UInt8>) -> Bool { (from..<to).allSatisfy { range.contains(b[$0]) } }
            let language = end(0)
            guard (2...3).contains(language), all(0, language, lower),
                  legacy[String(decoding: UnsafeBufferPointer(rebasing: b[0..<language]), as: UTF8.self)] == nil else { return false }
            guard language < b.count else { return true }
            var start = language + 1, stop = end(start)
            if stop - start == 4 {
                guard upper.contains(b[start]), all(start + 1, stop, lower) else { return false }
                guard stop < b.count else { return true }
                start = stop + 1
                stop = end(start)
            }
            // The region, the last part.
            guard stop == b.count else { return false }
            return (stop - start == 2 && all(start, stop, upper)) || (stop - start == 3 && all(start, stop, digit))
        }
    }

    public static func language(_ tag: String) -> String {
        String(tag.prefix { $0 != "-" })
    }
}
