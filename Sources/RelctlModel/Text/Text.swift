extension StringProtocol {
    public func trimmingSpaces() -> String {
        var s = Substring(self)
        while let f = s.first, f.isWhitespace { s.removeFirst() }
        while let l = s.last, l.isWhitespace { s.removeLast() }
        return String(s)
    }
}

extension String {
    /// The string as a shell reads it back: bare when safe, else in double quotes.
    public var shellWord: String {
        let safe = !isEmpty && unicodeScalars.allSatisfy { c in
            (c >= "a" && c <= "z") || (c >= "A" && c <= "Z") || (c >= "0" && c <= "9") || "._/:@%+=,-".unicodeScalars.contains(c)
        }
        if safe { return self }
        var q = "\""
        for c in self { if "\"$`\\".contains(c) { q.append("\\") }; q.append(c) }
        return q + "\""
    }

    /// The lines of a text joined by "\n", split on bytes rather than grapheme
    /// clusters: notes are stored with "\n" only, and this runs for every
    /// version of every published file.
    public var lines: [String] {
        var text = self
        return text.withUTF8 { bytes in
            var out: [String] = []
            var start = 0
            for i in 0...bytes.count where i == bytes.count || bytes[i] == 10 {
                out.append(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<i]), as: UTF8.self))
                start = i + 1
            }
            return out
        }
    }
}
