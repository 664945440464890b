/// A JSON value with one canonical serialisation: sorted keys, two-space
/// indentation, UTF-8, so the same data always gives the same bytes.
/// Not `indirect`: arrays and dictionaries already hold their elements
/// apart, and a boxed case costs an allocation for every value written or read.
public enum JSON: Equatable, Sendable {
    case null
    case bool(Bool)
    case int(Int64)
    case string(String)
    case array([JSON])
    case object([String: JSON])
    /// An object written with its members in the order given: no dictionary
    /// to build and no sort. For objects made many times over, in key order
    /// (`ordered` checks it); in another where a reader or a protocol wants
    /// it (push payloads, LastPublish's largest member last).
    case fields([(String, JSON)])
    /// Bytes already in canonical compact form, for fragments that many files
    /// share or that a publisher writes directly.
    case raw([UInt8])

    public static func int(_ n: Int) -> JSON { .int(Int64(n)) }

    /// Builds `.fields`, checking in debug builds (and so in tests) that the
    /// keys are written in sorted order.
    public static func ordered(_ members: KeyValuePairs<String, JSON>) -> JSON {
        let list = members.map { ($0.key, $0.value) }
        assert(zip(list, list.dropFirst()).allSatisfy { keyOrder($0.0, $1.0) }, "keys out of order: \(list.map(\.0))")
        return .fields(list)
    }

    /// The members of an object, whichever way it was built, in key order.
    package var sortedMembers: [(String, JSON)]? {
        switch self {
        case .object(let members): return members.sorted { JSON.keyOrder($0.key, $1.key) }.map { ($0.key, $0.value) }
        case .fields(let list): return list
        default: return nil
        }
    }
    public static func optional(_ s: String?) -> JSON { s.map { .string($0) } ?? .null }
    public static func optional(_ n: Int64?) -> JSON { n.map { .int($0) } ?? .null }
    public static func time(_ t: Int64?) -> JSON { t.map { .string(Time.format($0)) } ?? .null }

    /// The document followed by a newline, indented for people.
    public func rendered() -> String {
        var out: [UInt8] = []
        out.reserveCapacity(4096)
        writePretty(to: &out, indent: 0)
        out.append(10)
        return String(decoding: out, as: UTF8.self)
    }

    private func writePretty(to out: inout [UInt8], indent: Int) {
        func pad(_ n: Int) { out.append(contentsOf: repeatElement(32, count: n)) }
        switch self {
        case .array(let items) where !items.isEmpty:
            out.append(contentsOf: "[\n".utf8)
            for (i, item) in items.enumerated() {
                pad(indent + 2)
                item.writePretty(to: &out, indent: indent + 2)
                out.append(contentsOf: (i == items.count - 1 ? "\n" : ",\n").utf8)
            }
            pad(indent)
            out.append(93)
        case .object, .fields:
            let members = sortedMembers!
            if members.isEmpty { out.append(contentsOf: "{}".utf8); return }
            out.append(contentsOf: "{\n".utf8)
            for (i, member) in members.enumerated() {
                pad(indent + 2)
                JSON.quoteBytes(member.0, into: &out)
                out.append(contentsOf: ": ".utf8)
                member.1.writePretty(to: &out, indent: indent + 2)
                out.append(contentsOf: (i == members.count - 1 ? "\n" : ",\n").utf8)
            }
            pad(indent)
            out.append(125)
        case .raw(let bytes):
            // Indented as the rest, for the person reading it.
            if let value = try? JSONReader.parse(bytes) { value.writePretty(to: &out, indent: indent) } else { writeCompact(to: &out) }
        default:
            writeCompact(to: &out)
        }
    }

    /// Two documents are equal when they serialise to the same bytes.
    public static func == (a: JSON, b: JSON) -> Bool { a.compactBytes() == b.compactBytes() }

    /// Keys sort by their UTF-8 bytes (code point order), whatever the locale:
    /// compared as contiguous bytes, several times faster than through the
    /// UTF-8 views, and every object written sorts its keys.
    public static func keyOrder(_ a: String, _ b: String) -> Bool {
        var a = a, b = b
        return a.withUTF8 { x in
            b.withUTF8 { y in
                for i in 0..<min(x.count, y.count) where x[i] != y[i] { return x[i] < y[i] }
                return x.count < y.count
            }
        }
    }

    /// The compact canonical bytes of a published file: no spaces, sorted
    /// keys, UTF-8, a trailing newline. Apps download these on every launch.
    public func compactBytes() -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(4096)
        writeCompact(to: &out)
        out.append(10)
        return out
    }

    package func writeCompact(to out: inout [UInt8]) {
        switch self {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let b): out.append(contentsOf: (b ? "true" : "false").utf8)
        case .int(let n): out.append(contentsOf: String(n).utf8)
        case .string(let s): JSON.quoteBytes(s, into: &out)
        case .array(let items):
            out.append(91)
            for (i, item) in items.enumerated() {
                if i > 0 { out.append(44) }
                item.writeCompact(to: &out)
            }
            out.append(93)
        case .raw(let bytes): out.append(contentsOf: bytes)
        case .object, .fields:
            out.append(123)
            for (i, member) in sortedMembers!.enumerated() {
                if i > 0 { out.append(44) }
                JSON.quoteBytes(member.0, into: &out)
                out.append(58)
                member.1.writeCompact(to: &out)
            }
            out.append(125)
        }
    }

    public static func quoteBytes(_ s: String, into out: inout [UInt8]) {
        var s = s
        s.withUTF8 { bytes in
            out.append(34)
            appendEscaped(bytes[...], into: &out)
            out.append(34)
        }
    }

    /// The same of a string's UTF-8 bytes.
    public static func quoteBytes(_ utf8: ArraySlice<UInt8>, into out: inout [UInt8]) {
        utf8.withUnsafeBufferPointer { bytes in
            out.append(34)
            appendEscaped(bytes[...], into: &out)
            out.append(34)
        }
    }

    /// A text's lines as a JSON array of strings, straight from its bytes.
    public static func quoteLines(_ s: String, into out: inout [UInt8]) {
        var s = s
        s.withUTF8 { bytes in
            out.append(91)
            var start = 0
            for i in 0...bytes.count where i == bytes.count || bytes[i] == 10 {
                if start > 0 { out.append(44) }
                out.append(34)
                appendEscaped(bytes[start..<i], into: &out)
                out.append(34)
                start = i + 1
            }
            out.append(93)
        }
    }

    private static func appendEscaped(_ bytes: Slice<UnsafeBufferPointer<UInt8>>, into out: inout [UInt8]) {
        // Most strings need no escaping: copy them whole.
        if !bytes.contains(where: { $0 < 32 || $0 == 34 || $0 == 92 || $0 == 127 || $0 == 0xE2 }) {
            out.append(contentsOf: bytes)
            return
        }
        // Else the runs between escapes are copied whole (an em dash, E2 80 94, is one of them).
        var i = bytes.startIndex, run = i
        while i < bytes.endIndex {
            let b = bytes[i]
            if b >= 32 && b != 34 && b != 92 && b != 127
                && !(b == 0xE2 && i + 2 < bytes.endIndex && bytes[i + 1] == 0x80 && (bytes[i + 2] == 0xA8 || bytes[i + 2] == 0xA9)) {
                i += 1
                continue
            }
            out.append(contentsOf: bytes[run..<i])
            switch b {
            case 34: out.append(92); out.append(34)
            case 92: out.append(92); out.append(92)
            case 10: out.append(92); out.append(110)
            case 13: out.append(92); out.append(114)
            case 9: out.append(92); out.append(116)
            case 0..<32, 127:
                let hex = Array("0123456789abcdef".utf8)
                out.append(contentsOf: [92, 117, 48, 48, hex[Int(b >> 4)], hex[Int(b & 15)]])
            // U+2028/2029 break JavaScript parsers that treat JSON as script.
            case 0xE2 where i + 2 < bytes.endIndex && bytes[i + 1] == 0x80 && (bytes[i + 2] == 0xA8 || bytes[i + 2] == 0xA9):
                out.append(contentsOf: Array((bytes[i + 2] == 0xA8 ? "\\u2028" : "\\u2029").utf8))
                i += 2
            default: out.append(b)
            }
            i += 1
            run = i
        }
        out.append(contentsOf: bytes[run..<i])
    }
}
