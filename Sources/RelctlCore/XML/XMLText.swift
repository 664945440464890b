/// Escaping for the XML relctl writes. Strict on purpose: text and
/// attribute values may come from release notes, which anyone with write
/// access to the database can fill with anything.
enum XMLText {
    /// Text content and attribute values alike: the five markup characters
    /// become entities (so "]]>" cannot end anything), CR, LF and TAB become
    /// character references (so attribute normalisation keeps them, and a
    /// CR survives line-end normalisation), and the characters XML 1.0 does
    /// not allow at all (other C0 controls, U+FFFE, U+FFFF) become U+FFFD.
    static func escape(_ s: String, into out: inout [UInt8]) {
        if appendPlain(s, into: &out) { return }
        for scalar in s.unicodeScalars {
            switch scalar.value {
            case 0x26: out += "&amp;".utf8
            case 0x3C: out += "&lt;".utf8
            case 0x3E: out += "&gt;".utf8
            case 0x22: out += "&quot;".utf8
            case 0x27: out += "&apos;".utf8
            case 0x09: out += "&#9;".utf8
            case 0x0A: out += "&#10;".utf8
            case 0x0D: out += "&#13;".utf8
            case 0x00..<0x20, 0xFFFE, 0xFFFF: out += "\u{FFFD}".utf8
            default: UTF8.encode(scalar) { out.append($0) }
            }
        }
    }

    /// Appends `s` as it is when it is printable ASCII without a markup
    /// character, which XML and HTML alike take unescaped; false (nothing
    /// appended) otherwise. Most text is (versions, sentences, notes), and
    /// looking at it as bytes is a fraction of walking its scalars.
    static func appendPlain(_ s: String, into out: inout [UInt8]) -> Bool {
        var s = s
        return s.withUTF8 { bytes -> Bool in
            for b in bytes where b < 0x20 || b >= 0x7F || b == 0x26 || b == 0x3C || b == 0x3E || b == 0x22 || b == 0x27 { return false }
            out.append(contentsOf: bytes)
            return true
        }
    }

    static func escape(_ s: String) -> String {
        var out: [UInt8] = []
        escape(s, into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// What a reader gets back from `escape`: the text with the characters
    /// XML 1.0 cannot hold as U+FFFD.
    static func representable(_ s: String) -> String {
        var out = String.UnicodeScalarView()
        for scalar in s.unicodeScalars {
            switch scalar.value {
            case 0x09, 0x0A, 0x0D: out.append(scalar)
            case 0x00..<0x20, 0xFFFE, 0xFFFF: out.append("\u{FFFD}")
            default: out.append(scalar)
            }
        }
        return String(out)
    }
}
