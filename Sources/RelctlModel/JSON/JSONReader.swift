/// A small strict JSON parser: relctl's own index.json, and every
/// published file as the client simulations read it back.
public enum JSONReader {
    package struct Failure: Error {}

    /// The members of a top-level object as byte ranges of their values,
    /// after checking that the whole document is valid JSON: for readers
    /// that build only the parts they need.
    ///
    /// `known` is a member value read before (a whole array, object or
    /// string that this function accepted): where the member of that name
    /// starts with exactly those bytes, its end and its validity are known,
    /// so they are compared instead of scanned again (Retired's version
    /// list, the same in every locale's file).
    ///
    /// `scan` reads the value of the member of that name itself (index.json's
    /// file list, most of the file): from where the value starts, it returns
    /// where it ends, having checked it, or nil to have it scanned as usual.
    public static func members(_ bytes: [UInt8], known: (key: String, value: [UInt8])? = nil,
                               scan: (key: String, end: (Int) -> Int?)? = nil) throws -> [String: Range<Int>] {
        var i = 0
        skipSpace(bytes, &i)
        guard i < bytes.count, bytes[i] == UInt8(ascii: "{") else {
            _ = try parse(bytes)
            throw Failure()
        }
        i += 1
        var out: [String: Range<Int>] = [:]
        skipSpace(bytes, &i)
        if i < bytes.count, bytes[i] == UInt8(ascii: "}") { i += 1 } else {
            while true {
                skipSpace(bytes, &i)
                let key = try parseString(bytes, &i)
                skipSpace(bytes, &i)
                guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else { throw Failure() }
                i += 1
                skipSpace(bytes, &i)
                let start = i
                if let known, key == known.key, let first = known.value.first,
                   first == UInt8(ascii: "[") || first == UInt8(ascii: "{") || first == UInt8(ascii: "\""),
                   hasPrefix(bytes, at: i, known.value) {
                    i += known.value.count
                } else if let scan, key == scan.key, let end = scan.end(i) {
                    i = end
                } else {
                    // A member's value is one level in, as parseValue reads it.
                    try skipValue(bytes, &i, depth: 1)
                }
                out[key] = start..<i
                skipSpace(bytes, &i)
                guard i < bytes.count else { throw Failure() }
                if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
                guard bytes[i] == UInt8(ascii: "}") else { throw Failure() }
                i += 1
                break
            }
        }
        skipSpace(bytes, &i)
        guard i == bytes.count else { throw Failure() }
        return out
    }

    /// The members of the object at `range` of a document that `members`
    /// or `parse` accepted, as names and value ranges in document order
    /// (a list: most objects are small, and a dictionary grown member by
    /// member costs more than reading them); nil when the value there is
    /// not an object. `ObjectMembers.last` finds a name as a decoder does.
    package static func object(_ b: [UInt8], at range: Range<Int>) -> ObjectMembers? {
        var out = ObjectMembers(bytes: b)
        out.list.reserveCapacity(8)
        return eachMember(b, at: range) { out.list.append(($1, $2, $3)) } != nil ? out : nil
    }

    /// The value of each of `names` in the object at `range` of an accepted
    /// document, the last where a name is repeated (as a decoder keeps it),
    /// nil where it is absent; nil when the value there is not an object.
    /// Neither a list of members nor a JSON value is made: a version list has
    /// hundreds of objects, and a client reads two or three members of each.
    package static func values(_ b: [UInt8], at range: Range<Int>, of names: [Name]) -> [Range<Int>?]? {
        valuesEnding(b, at: range, of: names)?.values
    }

    /// The same, with where the object ends: `range` may run past it (to the document's end).
    private static func valuesEnding(_ b: [UInt8], at range: Range<Int>, of names: [Name]) -> (values: [Range<Int>?], end: Int)? {
        var found = [Range<Int>?](repeating: nil, count: names.count)
        let end = eachMember(b, at: range) { p, name, plain, value in
            // Every name it is: two names asked for can be one (K and U+212A KELVIN SIGN).
            for k in names.indices where names[k].matches(b, p, name, plain: plain) { found[k] = value }
        }
        return end.map { (found, $0) }
    }

    /// Each element of the array at `range` of an accepted document (the range
    /// may run past it), in one pass: `body` gets the values of `names` in the
    /// element as `values` finds them, nil when it is not an object. Where the
    /// array ends; nil when the value there is not an array. One pass, not one
    /// to find the elements and one for each: a control.json's version list is
    /// most of it, read back at every instant a publish proves.
    package static func eachObject<E: Error>(_ b: [UInt8], at range: Range<Int>, of names: [Name],
                                             _ body: (_ values: [Range<Int>?]?) throws(E) -> Void) throws(E) -> Int? {
        try b.withUnsafeBufferPointer { (p: UnsafeBufferPointer<UInt8>) throws(E) -> Int? in
            var i = range.lowerBound
            // Within the document: the walk below reads without bounds checks.
            guard range.upperBound <= p.count, i < range.upperBound, p[i] == UInt8(ascii: "[") else { return nil }
            i += 1
            skipSpace(p, &i)
            if i < p.count, p[i] == UInt8(ascii: "]") { return i + 1 }
            while i < range.upperBound {
                skipSpace(p, &i)
                guard i < range.upperBound else { break }
                if let (found, end) = valuesEnding(b, at: i..<range.upperBound, of: names) {
                    try body(found)
                    i = max(i, min(end, p.count))
                } else {
                    try body(nil)
                    skipChecked(p, &i)
                }
                skipSpace(p, &i)
                guard i < p.count, p[i] == UInt8(ascii: ",") else { break }
                i += 1
            }
            return i + 1
        }
    }

    /// Each member of the object at `range` of an accepted document (the range
    /// may run past it), in one pass: `body` gets the member's name (the bytes
    /// between its quotes; plain: ASCII without an escape) and where its value
    /// starts, and returns where the value ends when it read the value itself,
    /// nil to have it skipped. Where the object ends; nil when the value there
    /// is not an object. A reader that goes into some members this way goes
    /// over their bytes once, where `object` of each level went over them once per level.
    package static func walk<E: Error>(_ b: [UInt8], at range: Range<Int>,
                                       _ body: (_ name: Range<Int>, _ plain: Bool, _ value: Int) throws(E) -> Int?) throws(E) -> Int? {
        try b.withUnsafeBufferPointer { (p: UnsafeBufferPointer<UInt8>) throws(E) -> Int? in try walk(p, at: range, body) }
    }

    /// Calls `body` with each member of the object at `range` of an accepted
    /// document, in order: the document's bytes, the member's name as the
    /// bytes between its quotes (plain: ASCII without an escape) and its
    /// value's range. Where the object ends (`range` may run past it); nil
    /// when the value there is not an object.
    private static func eachMember(_ b: [UInt8], at range: Range<Int>,
                                   _ body: (_ bytes: UnsafeBufferPointer<UInt8>, _ name: Range<Int>, _ plain: Bool, _ value: Range<Int>) -> Void) -> Int? {
        b.withUnsafeBufferPointer { p -> Int? in
            walk(p, at: range) { name, plain, start in
                var end = start
                skipChecked(p, &end)
                body(p, name, plain, start..<end)
                return end
            }
        }
    }

    /// `walk` on the document's bytes, which it reads without bounds checks: every index is tested against them.
    private static func walk<E: Error>(_ p: UnsafeBufferPointer<UInt8>, at range: Range<Int>,
                                       _ body: (_ name: Range<Int>, _ plain: Bool, _ value: Int) throws(E) -> Int?) throws(E) -> Int? {
        var i = range.lowerBound
        guard range.upperBound <= p.count, i < range.upperBound, p[i] == UInt8(ascii: "{") else { return nil }
        i += 1
        skipSpace(p, &i)
        if i < p.count, p[i] == UInt8(ascii: "}") { return i + 1 }
        while i < range.upperBound {
            skipSpace(p, &i)
            guard i < p.count, p[i] == UInt8(ascii: "\"") else { return nil }
            // The name, and whether it is plain ASCII without an escape.
            let nameStart = i + 1
            var plain = true
            i += 1
            while i < p.count, p[i] != UInt8(ascii: "\"") {
                if p[i] == UInt8(ascii: "\\") { plain = false; i += 1 } else if p[i] >= 0x80 { plain = false }
                i += 1
            }
            guard i < p.count else { return nil }
            let name = nameStart..<i
            i += 1
            skipSpace(p, &i)
            guard i < p.count, p[i] == UInt8(ascii: ":") else { return nil }
            i += 1
            skipSpace(p, &i)
            // A value read by `body` ends after it starts, within the document.
            if let end = try body(name, plain, i) { i = max(i, min(end, p.count)) } else { skipChecked(p, &i) }
            skipSpace(p, &i)
            guard i < p.count, p[i] == UInt8(ascii: ",") else { break }
            i += 1
        }
        return i + 1
    }

    /// A member name looked for (`ObjectMembers.last`, `values`), its bytes worked out once.
    package struct Name: Sendable {
        let text: String
        let utf8: [UInt8]
        let ascii: Bool
        package init(_ text: String) {
            self.text = text
            utf8 = Array(text.utf8)
            ascii = !utf8.contains { $0 >= 0x80 }
        }

        /// Whether the name between the quotes at `raw` of `b` (whose bytes `p` holds) is
        /// this one, as a decoder compares keys. Two all-ASCII texts are equal strings exactly
        /// when their bytes are; any other name (an escape, a non-ASCII character) is decoded
        /// and compared as Swift compares strings.
        func matches(_ b: [UInt8], _ p: UnsafeBufferPointer<UInt8>, _ raw: Range<Int>, plain: Bool) -> Bool {
            if plain && ascii {
                guard raw.count == utf8.count else { return false }
                for k in utf8.indices where p[raw.lowerBound + k] != utf8[k] { return false }
                return true
            }
            var i = raw.lowerBound - 1
            return (try? JSONReader.parseString(b, &i)) == text
        }

        /// The same of a name `walk` gives.
        package func matches(_ b: [UInt8], _ raw: Range<Int>, plain: Bool) -> Bool {
            b.withUnsafeBufferPointer { matches(b, $0, raw, plain: plain) }
        }
    }

    package struct ObjectMembers {
        let bytes: [UInt8]
        /// Each member's name, as the bytes between its quotes (plain: ASCII
        /// without an escape), and its value.
        var list: [(name: Range<Int>, plain: Bool, range: Range<Int>)] = []

        /// A member's value, the last one when the name is repeated (as in a
        /// dictionary), compared as `Name.matches` says.
        package func last(_ name: String) -> Range<Int>? {
            let wanted = Name(name)
            return bytes.withUnsafeBufferPointer { p in list.last { wanted.matches(bytes, p, $0.name, plain: $0.plain) }?.range }
        }

        package func decoded(_ raw: Range<Int>) -> String? {
            var i = raw.lowerBound - 1
            return try? JSONReader.parseString(bytes, &i)
        }

        /// Each name once, with its last value.
        package var byName: [String: Range<Int>] {
            Dictionary(list.compactMap { m in decoded(m.name).map { ($0, m.range) } }, uniquingKeysWith: { _, last in last })
        }
    }

    /// The value at `range` of an accepted document.
    package static func value(_ b: [UInt8], at range: Range<Int>) -> JSON? {
        var i = range.lowerBound
        return try? parseValue(b, &i)
    }

    /// Past one value of a document already checked: only brackets and
    /// strings (with their escapes) are followed, for the readers that walk
    /// a checked document again by its parts.
    package static func skipChecked(_ b: [UInt8], _ i: inout Int) {
        b.withUnsafeBufferPointer { p in skipChecked(p, &i) }
    }

    private static func skipChecked(_ p: UnsafeBufferPointer<UInt8>, _ i: inout Int) {
        guard i < p.count else { return }
        switch p[i] {
        case UInt8(ascii: "{"), UInt8(ascii: "["), UInt8(ascii: "\""):
            var depth = 0
            var inString = false
            var j = i
            defer { i = j }
            while j < p.count {
                let c = p[j]
                if inString {
                    // Most of a document is inside strings (notes): the closing quote is looked for eight
                    // bytes at a time; it is escaped when an odd number of backslashes comes right before it.
                    let from = j
                    while true {
                        j = nextQuote(p, from: j)
                        guard j < p.count else { return }
                        var k = j
                        while k > from, p[k - 1] == UInt8(ascii: "\\") { k -= 1 }
                        if (j - k) % 2 == 0 { break }
                        j += 1
                    }
                    inString = false
                    if depth == 0 { j += 1; return }
                } else if c == UInt8(ascii: "\"") {
                    inString = true
                } else if c == UInt8(ascii: "{") || c == UInt8(ascii: "[") {
                    depth += 1
                } else if c == UInt8(ascii: "}") || c == UInt8(ascii: "]") {
                    depth -= 1
                    if depth == 0 { j += 1; return }
                }
                j += 1
            }
        default:
            // A number or a literal: up to the next delimiter.
            while i < p.count, p[i] != UInt8(ascii: ","), p[i] != UInt8(ascii: "}"), p[i] != UInt8(ascii: "]"),
                  p[i] != 32, p[i] != 10, p[i] != 13, p[i] != 9 { i += 1 }
        }
    }

    /// The first quote at or after `from`, else `p.count`: eight bytes at a
    /// time, a word's first zero byte after XOR with quotes (the lowest bit of
    /// the classic zero-byte test is exact).
    private static func nextQuote(_ p: UnsafeBufferPointer<UInt8>, from: Int) -> Int {
        var j = from
        if let base = p.baseAddress {
            let raw = UnsafeRawPointer(base)
            while j + 8 <= p.count {
                let v = raw.loadUnaligned(fromByteOffset: j, as: UInt64.self) ^ 0x2222_2222_2222_2222
                let zero = (v &- 0x0101_0101_0101_0101) & ~v & 0x8080_8080_8080_8080
                if zero != 0 {
                    #if _endian(little)
                    return j + zero.trailingZeroBitCount / 8
                    #else
                    return j + zero.leadingZeroBitCount / 8
                    #endif
                }
                j += 8
            }
        }
        while j < p.count, p[j] != UInt8(ascii: "\"") { j += 1 }
        return j
    }

    /// The first quote or backslash at or after `from`, else `p.count`, found
    /// as `nextQuote` finds a quote: where a string's plain bytes end.
    static func nextQuoteOrEscape(_ p: UnsafeBufferPointer<UInt8>, from: Int) -> Int {
        var j = from
        #if _endian(little)
        if let base = p.baseAddress {
            let raw = UnsafeRawPointer(base)
            while j + 8 <= p.count {
                let w = raw.loadUnaligned(fromByteOffset: j, as: UInt64.self)
                let q = w ^ 0x2222_2222_2222_2222, e = w ^ 0x5C5C_5C5C_5C5C_5C5C
                let found = ((q &- 0x0101_0101_0101_0101) & ~q | (e &- 0x0101_0101_0101_0101) & ~e) & 0x8080_8080_8080_8080
                if found != 0 { return j + found.trailingZeroBitCount / 8 }
                j += 8
            }
        }
        #endif
        while j < p.count, p[j] != UInt8(ascii: "\""), p[j] != UInt8(ascii: "\\") { j += 1 }
        return j
    }

    /// Whether `b` holds `prefix` from `offset` on, compared eight bytes at a time.
    package static func hasPrefix(_ b: [UInt8], at offset: Int, _ prefix: [UInt8]) -> Bool {
        guard offset >= 0, b.count - offset >= prefix.count else { return false }
        return b.withUnsafeBytes { all in
            prefix.withUnsafeBytes { p in
                var i = 0
                while i + 8 <= p.count {
                    if all.loadUnaligned(fromByteOffset: offset + i, as: UInt64.self) != p.loadUnaligned(fromByteOffset: i, as: UInt64.self) { return false }
                    i += 8
                }
                while i < p.count {
                    if all[offset + i] != p[i] { return false }
                    i += 1
                }
                return true
            }
        }
    }

    /// Parses one value of a larger document.
    public static func parse(_ bytes: ArraySlice<UInt8>) throws -> JSON { try parse(Array(bytes)) }

    /// Deeper nesting is refused: each level is a frame of the recursive
    /// reader, and a file of a few hundred kilobytes of brackets would
    /// otherwise overflow the stack (an app reads control.json on a
    /// background thread of 512 KiB). No file relctl reads nests past ten.
    public static let maxDepth = Nesting.maxDepth

    /// Checks one value's syntax without building it.
    package static func skipValue(_ b: [UInt8], _ i: inout Int, depth: Int = 0) throws {
        try b.withUnsafeBufferPointer { p in try skipValue(p, &i, depth: depth) }
    }

    /// A string's syntax, without making it: escapes as parseValue reads them.
    package static func skipString(_ b: [UInt8], _ i: inout Int) throws {
        try b.withUnsafeBufferPointer { p in try skipString(p, &i) }
    }

    // Checking is most of what reading a published file back costs (every
    // document is checked whole, as a decoder does): it walks the bytes
    // without the array's bounds checks, each index compared with the count.

    private static func skipValue(_ b: UnsafeBufferPointer<UInt8>, _ i: inout Int, depth: Int) throws {
        skipSpace(b, &i)
        guard i < b.count else { throw Failure() }
        switch b[i] {
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            guard depth < maxDepth else { throw Failure() }
            let close = b[i] == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]")
            let isObject = close == UInt8(ascii: "}")
            i += 1
            skipSpace(b, &i)
            if i < b.count, b[i] == close { i += 1; return }
            while true {
                if isObject {
                    skipSpace(b, &i)
                    guard i < b.count, b[i] == UInt8(ascii: "\"") else { throw Failure() }
                    try skipString(b, &i)
                    skipSpace(b, &i)
                    guard i < b.count, b[i] == UInt8(ascii: ":") else { throw Failure() }
                    i += 1
                }
                try skipValue(b, &i, depth: depth + 1)
                skipSpace(b, &i)
                guard i < b.count else { throw Failure() }
                if b[i] == UInt8(ascii: ",") { i += 1; continue }
                guard b[i] == close else { throw Failure() }
                i += 1
                return
            }
        case UInt8(ascii: "\""):
            try skipString(b, &i)
        case UInt8(ascii: "t"): try skipWord(b, &i, "true")
        case UInt8(ascii: "f"): try skipWord(b, &i, "false")
        case UInt8(ascii: "n"): try skipWord(b, &i, "null")
        default:
            // A number as parseValue takes it: an integer within Int64's range.
            let start = i
            while i < b.count, (b[i] >= 48 && b[i] <= 57) || b[i] == UInt8(ascii: "-") { i += 1 }
            guard integer(b[start..<i]) != nil else { throw Failure() }
        }
    }

    private static func skipWord(_ b: UnsafeBufferPointer<UInt8>, _ i: inout Int, _ word: StaticString) throws {
        let n = word.utf8CodeUnitCount
        guard i + n <= b.count, (0..<n).allSatisfy({ b[i + $0] == word.utf8Start[$0] }) else { throw Failure() }
        i += n
    }

    private static func skipString(_ b: UnsafeBufferPointer<UInt8>, _ i: inout Int) throws {
        i += 1
        while true {
            // The plain bytes up to the next quote or escape, eight at a time: a signed
            // control.json's payload is a 120 KB string, skipped by every reader of its signatures.
            i = nextQuoteOrEscape(b, from: i)
            guard i < b.count else { throw Failure() }
            if b[i] == UInt8(ascii: "\"") { i += 1; return }
            i += 1
            guard i < b.count else { throw Failure() }
            if b[i] == UInt8(ascii: "u") {
                guard let code = hex4(b, i + 1) else { throw Failure() }
                i += 4
                // A surrogate stands only as the first of a pair, as parseValue reads it.
                if (0xDC00..<0xE000).contains(code) { throw Failure() }
                if (0xD800..<0xDC00).contains(code) {
                    guard i + 2 < b.count, b[i + 1] == UInt8(ascii: "\\"), b[i + 2] == UInt8(ascii: "u"),
                          let low = hex4(b, i + 3), (0xDC00..<0xE000).contains(low) else { throw Failure() }
                    i += 6
                }
            } else if !escapes.contains(b[i]) {
                throw Failure()
            }
            i += 1
        }
    }

    private static func hex4(_ b: UnsafeBufferPointer<UInt8>, _ at: Int) -> UInt32? {
        guard at >= 0, at + 4 <= b.count else { return nil }
        var code: UInt32 = 0
        for j in at..<(at + 4) {
            guard let d = hexValue(b[j]) else { return nil }
            code = code << 4 | d
        }
        return code
    }

    private static func hexValue(_ c: UInt8) -> UInt32? {
        switch c {
        case 48...57: UInt32(c - 48)
        case 65...70: UInt32(c - 55)
        case 97...102: UInt32(c - 87)
        default: nil
        }
    }

    private static func skipSpace(_ b: UnsafeBufferPointer<UInt8>, _ i: inout Int) {
        while i < b.count, b[i] == 32 || b[i] == 10 || b[i] == 13 || b[i] == 9 { i += 1 }
    }

    public static func parse(_ bytes: [UInt8]) throws -> JSON {
        var repeated = false
        return try parse(bytes, repeated: &repeated)
    }

    /// Parses `bytes`, and sets `repeated` when an object holds a key twice
    /// (its last value kept): `repeatedKey` then names it. Walking a fleet's
    /// file again for it cost two more passes over 60 MB on every plan.
    public static func parse(_ bytes: [UInt8], repeated: inout Bool) throws -> JSON {
        try parse(bytes, repeated: &repeated, fractions: false)
    }

    /// Parses what another party wrote (a store's answer), whose numbers may
    /// have a fraction or an exponent: those are read as `.raw` of their
    /// text, for the reader to check. relctl's own files stay integer-only.
    public static func parseForeign(_ bytes: [UInt8]) throws -> JSON {
        var repeated = false
        return try parse(bytes, repeated: &repeated, fractions: true)
    }

    /// The value spanning `range` of `bytes` and nothing else, read as at nesting `depth`:
    /// a part of a document read alone, within the limits it has in place.
    package static func parse(_ bytes: [UInt8], _ range: Range<Int>, depth: Int, repeated: inout Bool) throws -> JSON {
        var i = range.lowerBound
        let value = try parseValue(bytes, &i, depth: depth, repeated: &repeated)
        guard i == range.upperBound else { throw Failure() }
        return value
    }

    static func parse(_ bytes: [UInt8], repeated: inout Bool, fractions: Bool) throws -> JSON {
        var i = 0
        let value = try parseValue(bytes, &i, repeated: &repeated, fractions: fractions)
        skipSpace(bytes, &i)
        guard i == bytes.count else { throw Failure() }
        return value
    }

    package static func skipSpace(_ b: [UInt8], _ i: inout Int) {
        while i < b.count, b[i] == 32 || b[i] == 10 || b[i] == 13 || b[i] == 9 { i += 1 }
    }

    /// The characters JSON allows after a backslash, `u` aside.
    package static let escapes: [UInt8] = Array(#""\/bfnrt"#.utf8)

    /// Four hex digits at `at`, as a code unit; nil when any is not one.
    package static func hex4(_ b: [UInt8], _ at: Int) -> UInt32? {
        guard at >= 0, at + 4 <= b.count else { return nil }
        var code: UInt32 = 0
        for c in b[at..<(at + 4)] {
            guard let d = hexValue(c) else { return nil }
            code = code << 4 | d
        }
        return code
    }

    package static func parseValue(_ b: [UInt8], _ i: inout Int, depth: Int = 0) throws -> JSON {
        var repeated = false
        return try parseValue(b, &i, depth: depth, repeated: &repeated)
    }

    static func parseValue(_ b: [UInt8], _ i: inout Int, depth: Int = 0, repeated: inout Bool, fractions: Bool = false) throws -> JSON {
        skipSpace(b, &i)
        guard i < b.count else { throw Failure() }
        switch b[i] {
        case UInt8(ascii: "{"):
            guard depth < maxDepth else { throw Failure() }
            i += 1
            // Members are gathered first so the dictionary is made at its
            // size, not grown (and rehashed) member by member; a repeated key
            // keeps its last value, as assigning them in turn does.
            var members: [(String, JSON)] = []
            members.reserveCapacity(8)
            skipSpace(b, &i)
            if i < b.count, b[i] == UInt8(ascii: "}") { i += 1; return .object([:]) }
            while true {
                skipSpace(b, &i)
                // A name is a string, never a value read from depth 0 again.
                let key = try parseString(b, &i)
                skipSpace(b, &i)
                guard i < b.count, b[i] == UInt8(ascii: ":") else { throw Failure() }
                i += 1
                members.append((key, try parseValue(b, &i, depth: depth + 1, repeated: &repeated, fractions: fractions)))
                skipSpace(b, &i)
                guard i < b.count else { throw Failure() }
                if b[i] == UInt8(ascii: ",") { i += 1; continue }
                guard b[i] == UInt8(ascii: "}") else { throw Failure() }
                i += 1
                let object = Dictionary(members, uniquingKeysWith: { _, last in last })
                if object.count < members.count { repeated = true }
                return .object(object)
            }
        case UInt8(ascii: "["):
            guard depth < maxDepth else { throw Failure() }
            i += 1
            var items: [JSON] = []
            skipSpace(b, &i)
            if i < b.count, b[i] == UInt8(ascii: "]") { i += 1; return .array(items) }
            while true {
                items.append(try parseValue(b, &i, depth: depth + 1, repeated: &repeated, fractions: fractions))
                skipSpace(b, &i)
                guard i < b.count else { throw Failure() }
                if b[i] == UInt8(ascii: ",") { i += 1; continue }
                guard b[i] == UInt8(ascii: "]") else { throw Failure() }
                i += 1
                return .array(items)
            }
        case UInt8(ascii: "\""):
            return .string(try parseString(b, &i))
        case UInt8(ascii: "t"): return try literal(b, &i, "true", .bool(true))
        case UInt8(ascii: "f"): return try literal(b, &i, "false", .bool(false))
        case UInt8(ascii: "n"): return try literal(b, &i, "null", .null)
        default:
            let start = i
            while i < b.count, (b[i] >= 48 && b[i] <= 57) || b[i] == UInt8(ascii: "-") { i += 1 }
            if let n = integer(b[start..<i]), !(fractions && i < b.count && (b[i] == UInt8(ascii: ".") || b[i] | 0x20 == UInt8(ascii: "e"))) {
                return .int(n)
            }
            guard fractions else { throw Failure() }
            i = start
            return .raw(try number(b, &i))
        }
    }

    /// A number in JSON's grammar at `i`, as its text: -?(0|[1-9]d*)(.d+)?([eE][+-]?d+)?
    static func number(_ b: [UInt8], _ i: inout Int) throws -> [UInt8] {
        let start = i
        func digits() throws {
            let from = i
            while i < b.count, b[i] >= 48 && b[i] <= 57 { i += 1 }
            guard i > from else { throw Failure() }
        }
        if i < b.count, b[i] == UInt8(ascii: "-") { i += 1 }
        if i < b.count, b[i] == 48 { i += 1 } else { try digits() }
        if i < b.count, b[i] == UInt8(ascii: ".") { i += 1; try digits() }
        if i < b.count, b[i] | 0x20 == UInt8(ascii: "e") {
            i += 1
            if i < b.count, b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-") { i += 1 }
            try digits()
        }
        guard i - start <= 64 else { throw Failure() }
        return Array(b[start..<i])
    }

    /// A string at `i` (which must start with its quote), its escapes read.
    package static func parseString(_ b: [UInt8], _ i: inout Int) throws -> String {
        guard i < b.count, b[i] == UInt8(ascii: "\"") else { throw Failure() }
        i += 1
        // Most strings have no escape: one copy of their bytes.
        let end = b.withUnsafeBufferPointer { nextQuoteOrEscape($0, from: i) }
        if end < b.count, b[end] == UInt8(ascii: "\"") {
            let s = String(decoding: b[i..<end], as: UTF8.self)
            i = end + 1
            return s
        }
        // Escapes (a note's new lines): the plain bytes between them copied a run at a time.
        var out: [UInt8] = []
        out.reserveCapacity(end - i + 64)
        var run = end
        while true {
            if run > i { out.append(contentsOf: b[i..<run]) }
            i = run
            guard i < b.count else { throw Failure() }
            if b[i] == UInt8(ascii: "\"") { break }
            i += 1
            guard i < b.count else { throw Failure() }
            switch b[i] {
            case UInt8(ascii: "n"): out.append(10)
            case UInt8(ascii: "r"): out.append(13)
            case UInt8(ascii: "t"): out.append(9)
            case UInt8(ascii: "b"): out.append(8)
            case UInt8(ascii: "f"): out.append(12)
            case UInt8(ascii: "u"):
                guard let code = hex4(b, i + 1) else { throw Failure() }
                i += 4
                var scalar = code
                // A surrogate stands only as the first of a pair: a lone one is no
                // character (a reader would store U+FFFD, text nobody wrote).
                if (0xDC00..<0xE000).contains(code) { throw Failure() }
                if (0xD800..<0xDC00).contains(code) {
                    guard i + 2 < b.count, b[i + 1] == UInt8(ascii: "\\"), b[i + 2] == UInt8(ascii: "u"),
                          let low = hex4(b, i + 3), (0xDC00..<0xE000).contains(low) else { throw Failure() }
                    scalar = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    i += 6
                }
                guard let character = Unicode.Scalar(scalar) else { throw Failure() }
                UTF8.encode(character) { out.append($0) }
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(b[i])
            default: throw Failure()
            }
            i += 1
            run = b.withUnsafeBufferPointer { nextQuoteOrEscape($0, from: i) }
        }
        i += 1
        return String(decoding: out, as: UTF8.self)
    }

    /// The integer spanning `range` of `b`, as `integer(_:)` reads it, read in this module, where
    /// the generic reading is specialised (called from another, it cost 5,000 instructions).
    package static func integer(_ b: [UInt8], _ range: Range<Int>) -> Int64? { integer(b[range]) }

    /// What Int64(String) makes of the bytes, without making the string: an
    /// optional minus, then at least one digit, within Int64's range.
    package static func integer<Bytes: Collection<UInt8>>(_ b: Bytes) -> Int64? {
        var digits = b[...]
        let negative = digits.first == UInt8(ascii: "-")
        if negative { digits = digits.dropFirst() }
        guard !digits.isEmpty else { return nil }
        // JSON writes no leading zero ("01"), and a reader that took one would accept what clients refuse.
        if digits.first == UInt8(ascii: "0") && digits.count > 1 { return nil }
        // Summed negatively: Int64.min has no positive twin.
        var n: Int64 = 0
        for c in digits {
            guard c >= 48 && c <= 57 else { return nil }
            let (m, o1) = n.multipliedReportingOverflow(by: 10)
            let (d, o2) = m.subtractingReportingOverflow(Int64(c - 48))
            guard !o1, !o2 else { return nil }
            n = d
        }
        if negative { return n }
        return n == .min ? nil : -n
    }

    package static func literal(_ b: [UInt8], _ i: inout Int, _ word: String, _ value: JSON) throws -> JSON {
        // Compared in place: true, false and null are most values of some files.
        let w = word.utf8
        guard i + w.count <= b.count, b[i..<(i + w.count)].elementsEqual(w) else { throw Failure() }
        i += w.count
        return value
    }
}
