extension JSONReader {
    /// Where a document holds bytes that are not UTF-8, as the path of the
    /// value ("versions[2].version", "project.name") or of the object whose
    /// member name holds them; nil when the document is all UTF-8.
    ///
    /// The parser reads such bytes as U+FFFD, as a client's would: an
    /// import must refuse them instead of storing a character nobody wrote.
    /// `parts`: where to look (the rest holds whole JSON values known to be text), in order.
    public static func invalidUTF8(_ bytes: [UInt8], in parts: [Range<Int>]? = nil) -> String? {
        // The standard library's check is quick; the walk below only finds where. It copies
        // what it checks, so a megabyte at a time (a fleet's file is 600 MB), each piece cut
        // before an ASCII byte, which no character straddles.
        var valid = true
        for part in parts ?? [0..<bytes.count] where valid {
            var start = part.lowerBound
            while valid && start < part.upperBound {
                var end = min(part.upperBound, start + (1 << 20))
                while end < part.upperBound && bytes[end] >= 0x80 { end += 1 }
                valid = bytes.withUnsafeBufferPointer { String(validating: UnsafeBufferPointer(rebasing: $0[start..<end]), as: UTF8.self) != nil }
                start = end
            }
        }
        if valid { return nil }
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        var offset = 0
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let scalar): offset += scalar.count
            case .emptyInput: return nil
            case .error: return path(to: offset, in: bytes)
            }
        }
    }

    /// Where a document holds a `\u` escape of a lone surrogate (`\ud800`
    /// with no low half after it, or a low half alone), as the path of the
    /// value; nil when it holds none. Such an escape is no character: the
    /// parser refuses it, and an import names where it is.
    /// `parts`: where to look (the rest holds whole JSON values known to hold none), in order.
    public static func loneSurrogate(_ b: [UInt8], in parts: [Range<Int>]? = nil) -> String? {
        for part in parts ?? [0..<b.count] {
            if let found = loneSurrogate(b, part) { return found }
        }
        return nil
    }

    static func loneSurrogate(_ b: [UInt8], _ part: Range<Int>) -> String? {
        var i = part.lowerBound, inString = false
        while i < part.upperBound {
            let c = b[i]
            guard inString else {
                if c == UInt8(ascii: "\"") { inString = true }
                i += 1
                continue
            }
            if c == UInt8(ascii: "\"") { inString = false; i += 1; continue }
            guard c == UInt8(ascii: "\\") else { i += 1; continue }
            guard i + 1 < b.count, b[i + 1] == UInt8(ascii: "u"), let code = hex4(b, i + 2) else { i += 2; continue }
            let pairedLow = i + 7 < b.count && b[i + 6] == UInt8(ascii: "\\") && b[i + 7] == UInt8(ascii: "u")
                && hex4(b, i + 8).map { (0xDC00..<0xE000).contains($0) } == true
            if (0xDC00..<0xE000).contains(code) || ((0xD800..<0xDC00).contains(code) && !pairedLow) {
                // The path is found in a copy where the escape is a character, which the parser takes.
                var plain = b
                plain.replaceSubrange((i + 2)..<(i + 6), with: Array("0041".utf8))
                return path(to: i, in: plain)
            }
            i += (0xD800..<0xDC00).contains(code) ? 12 : 6
        }
        return nil
    }

    /// The path of the innermost value whose bytes hold `offset`.
    package static func path(to offset: Int, in b: [UInt8]) -> String {
        var path = "", i = 0
        func member(_ name: String) -> String { path.isEmpty ? name : path + "." + name }
        descend: while true {
            skipSpace(b, &i)
            guard i < b.count else { break }
            let open = b[i]
            guard open == UInt8(ascii: "{") || open == UInt8(ascii: "[") else { break }
            i += 1
            var index = 0
            while true {
                skipSpace(b, &i)
                guard i < b.count, b[i] != UInt8(ascii: "}"), b[i] != UInt8(ascii: "]") else { break descend }
                var name = "[\(index)]"
                if open == UInt8(ascii: "{") {
                    let start = i
                    guard b[i] == UInt8(ascii: "\""), (try? skipString(b, &i)) != nil else { break descend }
                    if (start..<i).contains(offset) { return "a member name in " + (path.isEmpty ? "the top-level object" : path) }
                    var at = start
                    guard let key = try? parseString(b, &at) else { break descend }
                    name = key
                    skipSpace(b, &i)
                    guard i < b.count, b[i] == UInt8(ascii: ":") else { break descend }
                    i += 1
                    skipSpace(b, &i)
                }
                let start = i
                guard (try? skipValue(b, &i)) != nil else { break descend }
                if (start..<i).contains(offset) {
                    path = open == UInt8(ascii: "{") ? member(name) : path + name
                    i = start
                    continue descend
                }
                skipSpace(b, &i)
                guard i < b.count, b[i] == UInt8(ascii: ",") else { break descend }
                i += 1
                index += 1
            }
        }
        return path.isEmpty ? "the document" : path
    }
}
