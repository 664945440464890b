/// Validation for names that reach file paths and clients.
public enum Names {
    public static func slug(_ s: String) throws -> String {
        let ok = !s.isEmpty && s.utf8.count <= 64
            && s.utf8.allSatisfy { ($0 >= 97 && $0 <= 122) || ($0 >= 48 && $0 <= 57) || $0 == 45 }
            && s.utf8.first != 45
        guard ok else {
            let hint = "use lowercase letters, digits and '-', starting with a letter or digit, at most 64 characters (like shop or my-app)"
            if s.utf8.count > 64 { throw RelctlError.usage("invalid project slug: it is \(s.utf8.count) characters long", hint: hint) }
            throw RelctlError.usage("invalid project slug '\(s)'", hint: hint)
        }
        return s
    }

    /// Platform names become folder names too, and decide the manifest flavour.
    public static let knownPlatforms = ["ios", "ipados", "macos", "tvos", "watchos", "visionos", "android"]
    public static let applePlatforms: Set<String> = ["ios", "ipados", "macos", "tvos", "watchos", "visionos"]

    public static func platform(_ s: String) throws -> String {
        let lower = s.lowercased()
        guard knownPlatforms.contains(lower) else {
            throw RelctlError.usage("unknown platform '\(s)'\(Suggest.didYouMean(s, knownPlatforms))",
                                    hint: "use one of: \(knownPlatforms.joined(separator: ", "))")
        }
        return lower
    }

    public static func appStoreID(_ s: String) throws -> String {
        guard !s.isEmpty, s.utf8.count <= 12, s.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }), s.utf8.first != 48 else {
            var hint = "use the digits of the App Store id only, like 1088280260"
            if s.lowercased().hasPrefix("id") { hint = "drop the 'id' prefix: --app-store-id \(s.dropFirst(2))" }
            throw RelctlError.usage("invalid App Store id '\(s)'", hint: hint)
        }
        return s
    }

    /// Reverse-DNS bundle or package id, as the stores require.
    public static func bundleID(_ s: String) throws -> String {
        let parts = s.split(separator: ".", omittingEmptySubsequences: false)
        let ok = parts.count >= 2 && parts.allSatisfy { p in
            !p.isEmpty && p.utf8.allSatisfy { c in
                (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c == 45 || c == 95
            }
        }
        guard ok else {
            throw RelctlError.usage("invalid bundle id '\(s)'", hint: "use reverse-DNS form, like com.example.shop")
        }
        return s
    }

    public static func url(_ s: String) throws -> String {
        guard s.hasPrefix("https://") || s.hasPrefix("http://") || s.hasPrefix("itms-apps://") || s.hasPrefix("market://"),
              !s.contains(where: { $0.isWhitespace }) else {
            throw RelctlError.usage("invalid URL '\(s)'", hint: "give an absolute https:// URL without spaces")
        }
        return s
    }

    public static func osVersion(_ s: String) throws -> String {
        do { _ = try Version(s) } catch {
            throw RelctlError.usage("invalid minimum OS version '\(s)'", hint: "use numbers separated by dots, like 15.0")
        }
        return s
    }
}

/// BCP 47 language tags of the shapes apps use: language, optional script,
/// optional region (en, pt-BR, zh-Hans, sr-Latn, es-419).
public enum LocaleTag {
    public static func normalize(_ text: String) throws -> String {
        let parts = text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "-" || $0 == "_" }).map(String.init)
        let bad = RelctlError.usage("invalid locale '\(text)'", hint: "use a BCP 47 tag such as en, tr, pt-BR, zh-Hans or sr-Latn")
        guard let first = parts.first, (2...3).contains(first.count), first.allSatisfy(isLetter) else { throw bad }
        var out = [first.lowercased()]
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

    private static func isLetter(_ c: Character) -> Bool { c.isASCII && c.isLetter }

    public static func language(_ tag: String) -> String {
        String(tag.prefix { $0 != "-" })
    }
}

public enum Suggest {
    /// " (did you mean 'x'?)" when a candidate is close, else "".
    public static func didYouMean(_ word: String, _ candidates: [String]) -> String {
        guard let best = closest(word, candidates) else { return "" }
        return "; did you mean '\(best)'?"
    }

    public static func closest(_ word: String, _ candidates: [String]) -> String? {
        let w = Array(word.lowercased())
        var best: (String, Int)? = nil
        for c in candidates {
            let d = distance(w, Array(c.lowercased()))
            let limit = max(1, min(3, c.count / 3))
            if d <= limit || (w.count >= 3 && c.lowercased().hasPrefix(String(w))) {
                if best == nil || d < best!.1 { best = (c, d) }
            }
        }
        return best?.0
    }

    /// Edit distance where swapping two neighbours counts as one edit ("iso" -> "ios").
    static func distance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var d = Array(repeating: Array(repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { d[i][0] = i }
        for j in 0...b.count { d[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1) }
            }
        }
        return d[a.count][b.count]
    }
}
