/// "Did you mean" for every kind of name a user types.
public enum Suggest {
    /// " (did you mean 'x'?)" when a candidate is close, else "".
    public static func didYouMean(_ word: String, _ candidates: [String]) -> String {
        guard let best = closest(word, candidates) else { return "" }
        return "; did you mean '\(best)'?"
    }

    /// Names for a message a person reads: the first `shown`, then how many
    /// more ("app-000, app-001, app-002 and 997 more"); a fleet's thousand
    /// slugs never make one 9 KB line.
    public static func few(_ names: [String], shown: Int = 3) -> String {
        names.count <= shown + 1 ? names.joined(separator: ", ")
            : names.prefix(shown).joined(separator: ", ") + " and \(names.count - shown) more"
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
    package static func distance(_ a: [Character], _ b: [Character]) -> Int {
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
