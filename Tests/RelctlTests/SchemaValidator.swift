import Foundation
@testable import RelctlCLI
@testable import RelctlCore
@testable import RelctlModel
@testable import RelctlStore
@testable import SQLite

/// The part of JSON Schema (2020-12) that schema/control.schema.json uses:
/// type, enum, required, properties, additionalProperties, items, $ref to
/// $defs, oneOf, pattern, minLength, minimum. Values are read with relctl's
/// exact JSON reader, so an integer is never mistaken for a boolean or a string.
struct SchemaValidator {
    let root: [String: Any]

    init(path: String) throws {
        root = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as! [String: Any]
    }

    func validate(_ value: JSON) -> [String] { validate(value, root, at: "$") }

    func validate(_ value: JSON, _ schema: [String: Any], at path: String) -> [String] {
        if let ref = schema["$ref"] as? String {
            let name = String(ref.dropFirst("#/$defs/".count))
            guard let target = (root["$defs"] as? [String: Any])?[name] as? [String: Any] else { return ["\(path): unknown $ref \(ref)"] }
            return validate(value, target, at: path)
        }
        var errors: [String] = []
        if let options = schema["oneOf"] as? [[String: Any]] {
            let passing = options.filter { validate(value, $0, at: path).isEmpty }.count
            if passing != 1 { errors.append("\(path): matches \(passing) of oneOf") }
        }
        if let type = schema["type"] {
            let types = (type as? [String]) ?? [type as! String]
            if !types.contains(where: { matches(value, $0) }) { return ["\(path): \(value) is not \(types)"] }
        }
        if let allowed = schema["enum"] as? [Any], !allowed.contains(where: { equal($0, value) }) {
            errors.append("\(path): \(value) not in enum \(allowed)")
        }
        if case .string(let s) = value {
            if let min = schema["minLength"] as? Int, s.count < min { errors.append("\(path): shorter than \(min)") }
            if let pattern = schema["pattern"] as? String, s.range(of: pattern, options: .regularExpression) == nil {
                errors.append("\(path): '\(s)' does not match \(pattern)")
            }
        }
        if case .int(let n) = value, let min = schema["minimum"] as? Int, n < min { errors.append("\(path): below \(min)") }
        if case .object(let object) = value {
            for key in schema["required"] as? [String] ?? [] where object[key] == nil { errors.append("\(path): missing \(key)") }
            let properties = schema["properties"] as? [String: [String: Any]] ?? [:]
            for (key, member) in object {
                if let p = properties[key] { errors += validate(member, p, at: "\(path).\(key)") }
                else if let extra = schema["additionalProperties"] as? [String: Any] { errors += validate(member, extra, at: "\(path).\(key)") }
                else if schema["additionalProperties"] as? Bool == false { errors.append("\(path): unexpected key \(key)") }
            }
        }
        if case .array(let array) = value, let items = schema["items"] as? [String: Any] {
            for (i, item) in array.enumerated() { errors += validate(item, items, at: "\(path)[\(i)]") }
        }
        return errors
    }

    func matches(_ value: JSON, _ type: String) -> Bool {
        switch (type, value) {
        case ("object", .object), ("array", .array), ("string", .string), ("null", .null), ("boolean", .bool), ("integer", .int), ("number", .int): return true
        // A number with a fraction or exponent, as JSONReader.parseForeign keeps it.
        case ("number", .raw(let text)): return Double(String(decoding: text, as: UTF8.self)) != nil
        default: return false
        }
    }

    func equal(_ a: Any, _ b: JSON) -> Bool {
        switch b {
        case .string(let s): return (a as? String) == s
        case .int(let n): return (a as? Int).map { Int64($0) == n } ?? false
        default: return false
        }
    }
}

extension JSON {
    subscript(_ key: String) -> JSON? { if case .object(let o) = self { return o[key] }; return nil }
    var string: String? { if case .string(let s) = self { return s }; return nil }
    var int: Int64? { if case .int(let n) = self { return n }; return nil }
    var array: [JSON]? { if case .array(let a) = self { return a }; return nil }
    var object: [String: JSON]? { if case .object(let o) = self { return o }; return nil }
}
