/// A minimal, strict XML reader: enough for an appcast as upgrader reads
/// it (elements, attributes, text, the five entities and character
/// references, comments, CDATA, the declaration). Anything malformed is an
/// error, as in the XML parser upgrader uses. Names are kept with their
/// prefix ("sparkle:version"): upgrader matches them literally.
struct XMLElement: Sendable {
    var name: String
    var attributes: [String: String]
    var children: [XMLElement]
    var text: String

    /// Every descendant (and itself) named `name`, in document order.
    func all(_ name: String) -> [XMLElement] {
        var out: [XMLElement] = []
        if self.name == name { out.append(self) }
        for c in children { out += c.all(name) }
        return out
    }

    func first(_ name: String) -> XMLElement? { children.first { $0.name == name } }
}

struct XMLError: Error, Equatable { let message: String; let offset: Int }

enum XMLReader {
    static func parse(_ bytes: [UInt8]) throws(XMLError) -> XMLElement {
        var i = 0
        func fail(_ m: String) -> XMLError { XMLError(message: m, offset: i) }
        func starts(_ s: String) -> Bool {
            let u = Array(s.utf8)
            return i + u.count <= bytes.count && Array(bytes[i..<i + u.count]) == u
        }
        func skip(until s: String) throws(XMLError) {
            let u = Array(s.utf8)
            while i + u.count <= bytes.count {
                if Array(bytes[i..<i + u.count]) == u { i += u.count; return }
                i += 1
            }
            throw fail("unterminated markup, expected \(s)")
        }
        func space() { while i < bytes.count, [9, 10, 13, 32].contains(bytes[i]) { i += 1 } }
        // Prolog: a byte order mark, the declaration, comments, space.
        if starts("\u{FEFF}") { i += 3 }
        func misc() throws(XMLError) {
            while true {
                space()
                if starts("<?") { try skip(until: "?>") } else if starts("<!--") { try skip(until: "-->") } else { return }
            }
        }
        try misc()
        if starts("<!DOCTYPE") { throw fail("a DOCTYPE is not accepted") }
        guard i < bytes.count, bytes[i] == 60 else { throw fail("no root element") }
        let root = try element(bytes, &i)
        try misc()
        guard i == bytes.count else { throw fail("content after the root element") }
        return root
    }

    static func isNameByte(_ b: UInt8) -> Bool {
        (b >= 97 && b <= 122) || (b >= 65 && b <= 90) || (b >= 48 && b <= 57) || b == 58 || b == 95 || b == 45 || b == 46 || b >= 0x80
    }

    static func name(_ b: [UInt8], _ i: inout Int) throws(XMLError) -> String {
        let start = i
        while i < b.count, isNameByte(b[i]) { i += 1 }
        guard i > start, !(b[start] >= 48 && b[start] <= 57), b[start] != 45, b[start] != 46 else { throw XMLError(message: "a name is expected", offset: start) }
        return String(decoding: b[start..<i], as: UTF8.self)
    }

    /// Text up to `end` (a byte that is not part of it), entities resolved.
    static func chars(_ b: [UInt8], _ i: inout Int, until end: UInt8, attribute: Bool) throws(XMLError) -> String {
        var out: [UInt8] = []
        while i < b.count, b[i] != end {
            let c = b[i]
            if c == 60 && (attribute || end != 60) { throw XMLError(message: "'<' in an attribute value", offset: i) }
            if c < 32 && c != 9 && c != 10 && c != 13 { throw XMLError(message: "a control character", offset: i) }
            if c == 38 {
                let start = i
                while i < b.count, b[i] != 59 { i += 1; if i - start > 12 { break } }
                guard i < b.count, b[i] == 59 else { throw XMLError(message: "'&' that starts no entity", offset: start) }
                let ref = String(decoding: b[(start + 1)..<i], as: UTF8.self)
                i += 1
                switch ref {
                case "amp": out.append(38)
                case "lt": out.append(60)
                case "gt": out.append(62)
                case "quot": out.append(34)
                case "apos": out.append(39)
                default:
                    let value: UInt32?
                    if ref.hasPrefix("#x") { value = UInt32(ref.dropFirst(2), radix: 16) } else if ref.hasPrefix("#") { value = UInt32(ref.dropFirst(), radix: 10) } else { value = nil }
                    guard let v = value, let scalar = Unicode.Scalar(v), v == 9 || v == 10 || v == 13 || (v >= 32 && v != 0xFFFE && v != 0xFFFF) else {
                        throw XMLError(message: "unknown entity &\(ref);", offset: start)
                    }
                    out += String(scalar).utf8
                }
                continue
            }
            // Line ends read as LF; "]]>" may not appear in text.
            if !attribute && c == 13 {
                out.append(10); i += 1
                if i < b.count, b[i] == 10 { i += 1 }
                continue
            }
            if !attribute && c == 93 && i + 2 < b.count && b[i + 1] == 93 && b[i + 2] == 62 { throw XMLError(message: "']]>' in text", offset: i) }
            // Attribute values normalise white space characters to spaces.
            out.append(attribute && (c == 9 || c == 10 || c == 13) ? 32 : c)
            i += 1
        }
        guard i < b.count else { throw XMLError(message: "unexpected end of the document", offset: i) }
        return String(decoding: out, as: UTF8.self)
    }

    /// Deeper nesting is refused, as JSONReader refuses it: each level is a
    /// frame of this recursive reader. An appcast nests four deep.
    static let maxDepth = Nesting.maxDepth

    static func element(_ b: [UInt8], _ i: inout Int, depth: Int = 0) throws(XMLError) -> XMLElement {
        guard depth < maxDepth else { throw XMLError(message: "elements nested more than \(maxDepth) deep", offset: i) }
        i += 1  // <
        var e = XMLElement(name: try name(b, &i), attributes: [:], children: [], text: "")
        while true {
            let before = i
            while i < b.count, [9, 10, 13, 32].contains(b[i]) { i += 1 }
            guard i < b.count else { throw XMLError(message: "unterminated tag <\(e.name)", offset: i) }
            if b[i] == 47 {
                guard i + 1 < b.count, b[i + 1] == 62 else { throw XMLError(message: "malformed tag <\(e.name)", offset: i) }
                i += 2
                return e
            }
            if b[i] == 62 { i += 1; break }
            guard i > before else { throw XMLError(message: "attributes must be separated by space", offset: i) }
            let key = try name(b, &i)
            guard i < b.count, b[i] == 61 else { throw XMLError(message: "attribute \(key) has no value", offset: i) }
            i += 1
            guard i < b.count, b[i] == 34 || b[i] == 39 else { throw XMLError(message: "attribute \(key) is not quoted", offset: i) }
            let quote = b[i]
            i += 1
            let value = try chars(b, &i, until: quote, attribute: true)
            i += 1
            guard e.attributes[key] == nil else { throw XMLError(message: "attribute \(key) twice", offset: i) }
            e.attributes[key] = value
        }
        var text = ""
        while true {
            guard i < b.count else { throw XMLError(message: "element <\(e.name)> is not closed", offset: i) }
            if b[i] != 60 {
                text += try chars(b, &i, until: 60, attribute: false)
                continue
            }
            func at(_ s: String) -> Bool { let u = Array(s.utf8); return i + u.count <= b.count && Array(b[i..<i + u.count]) == u }
            if at("</") {
                i += 2
                let closing = try name(b, &i)
                while i < b.count, [9, 10, 13, 32].contains(b[i]) { i += 1 }
                guard closing == e.name, i < b.count, b[i] == 62 else { throw XMLError(message: "</\(closing)> does not close <\(e.name)>", offset: i) }
                i += 1
                e.text = text
                return e
            } else if at("<!--") {
                guard let end = find(b, "-->", from: i + 4) else { throw XMLError(message: "unterminated comment", offset: i) }
                i = end + 3
            } else if at("<![CDATA[") {
                guard let end = find(b, "]]>", from: i + 9) else { throw XMLError(message: "unterminated CDATA", offset: i) }
                text += String(decoding: b[(i + 9)..<end], as: UTF8.self)
                i = end + 3
            } else if at("<?") {
                guard let end = find(b, "?>", from: i + 2) else { throw XMLError(message: "unterminated processing instruction", offset: i) }
                i = end + 2
            } else {
                e.children.append(try element(b, &i, depth: depth + 1))
            }
        }
    }

    static func find(_ b: [UInt8], _ s: String, from: Int) -> Int? {
        let u = Array(s.utf8)
        var j = from
        while j + u.count <= b.count {
            if b[j] == u[0] && Array(b[j..<j + u.count]) == u { return j }
            j += 1
        }
        return nil
    }
}
