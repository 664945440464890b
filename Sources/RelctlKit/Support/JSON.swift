/// A JSON value with one canonical serialisation: sorted keys, two-space
/// indentation, UTF-8, so the same data always gives the same bytes.
public indirect enum JSON: Equatable, Sendable {
    case null
    case bool(Bool)
    case int(Int64)
    case string(String)
    case array([JSON])
    case object([String: JSON])

    public static func int(_ n: Int) -> JSON { .int(Int64(n)) }
    public static func optional(_ s: String?) -> JSON { s.map { .string($0) } ?? .null }
    public static func optional(_ n: Int64?) -> JSON { n.map { .int($0) } ?? .null }
    public static func time(_ t: Int64?) -> JSON { t.map { .string(Time.format($0)) } ?? .null }

    /// The document followed by a newline.
    public func rendered() -> String {
        var out = ""
        write(to: &out, indent: 0)
        out.append("\n")
        return out
    }

    private func write(to out: inout String, indent: Int) {
        switch self {
        case .null: out.append("null")
        case .bool(let b): out.append(b ? "true" : "false")
        case .int(let n): out.append(String(n))
        case .string(let s): JSON.quote(s, into: &out)
        case .array(let items):
            if items.isEmpty { out.append("[]"); return }
            out.append("[\n")
            for (i, item) in items.enumerated() {
                out.append(String(repeating: " ", count: indent + 2))
                item.write(to: &out, indent: indent + 2)
                out.append(i == items.count - 1 ? "\n" : ",\n")
            }
            out.append(String(repeating: " ", count: indent))
            out.append("]")
        case .object(let members):
            if members.isEmpty { out.append("{}"); return }
            out.append("{\n")
            let keys = members.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            for (i, key) in keys.enumerated() {
                out.append(String(repeating: " ", count: indent + 2))
                JSON.quote(key, into: &out)
                out.append(": ")
                members[key]!.write(to: &out, indent: indent + 2)
                out.append(i == keys.count - 1 ? "\n" : ",\n")
            }
            out.append(String(repeating: " ", count: indent))
            out.append("}")
        }
    }

    static func quote(_ s: String, into out: inout String) {
        out.append("\"")
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out.append("\\\"")
            case "\\": out.append("\\\\")
            case "\n": out.append("\\n")
            case "\r": out.append("\\r")
            case "\t": out.append("\\t")
            // U+2028/2029 break JavaScript parsers that treat JSON as script.
            case "\u{2028}": out.append("\\u2028")
            case "\u{2029}": out.append("\\u2029")
            default:
                if scalar.value < 0x20 || scalar.value == 0x7f {
                    let hex = String(scalar.value, radix: 16)
                    out.append("\\u" + String(repeating: "0", count: 4 - hex.count) + hex)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        out.append("\"")
    }
}
