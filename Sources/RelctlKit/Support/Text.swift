extension StringProtocol {
    func trimmingSpaces() -> String {
        var s = Substring(self)
        while let f = s.first, f.isWhitespace { s.removeFirst() }
        while let l = s.last, l.isWhitespace { s.removeLast() }
        return String(s)
    }
}

extension String {
    /// The lines of a text joined by "\n", split on bytes rather than grapheme
    /// clusters: notes are stored with "\n" only, and this runs for every
    /// version of every published file.
    var lines: [String] {
        utf8.split(separator: 10, omittingEmptySubsequences: false).map { String(Substring($0)) }
    }
}
