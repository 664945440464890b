extension JSONReader {
    /// The first number with a fraction or an exponent (`1.3`, `2e1`) in a
    /// document, as its text and the path of the value holding it; nil when
    /// there is none. relctl's parser takes whole numbers only, since no file
    /// it reads holds any other: a version written unquoted (`"version": 1.3`)
    /// is then named, not reported as invalid JSON.
    /// `parts`: where to look (the rest holds whole JSON values known to hold none), in order.
    public static func fractionalNumber(_ b: [UInt8], in parts: [Range<Int>]? = nil) -> (text: String, path: String)? {
        for part in parts ?? [0..<b.count] {
            if let found = fractionalNumber(b, part) { return found }
        }
        return nil
    }

    static func fractionalNumber(_ b: [UInt8], _ part: Range<Int>) -> (text: String, path: String)? {
        var i = part.lowerBound, inString = false
        while i < part.upperBound {
            let c = b[i]
            if inString {
                if c == UInt8(ascii: "\\") { i += 2; continue }
                if c == UInt8(ascii: "\"") { inString = false }
                i += 1
                continue
            }
            if c == UInt8(ascii: "\"") { inString = true; i += 1; continue }
            guard c == UInt8(ascii: "-") || (48...57).contains(c) else { i += 1; continue }
            let start = i
            while i < b.count, b[i] == UInt8(ascii: "-") || b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: ".")
                    || b[i] == UInt8(ascii: "e") || b[i] == UInt8(ascii: "E") || (48...57).contains(b[i]) { i += 1 }
            let token = b[start..<i]
            if token.contains(where: { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }) {
                // The path is found in a copy where the number is a whole one of the same length, which the parser takes.
                var whole = b
                for j in (start + 1)..<i where !(48...57).contains(whole[j]) { whole[j] = UInt8(ascii: "0") }
                return (String(decoding: token, as: UTF8.self), path(to: start, in: whole))
            }
        }
        return nil
    }
}
