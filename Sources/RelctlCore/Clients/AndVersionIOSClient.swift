/// AndVersion for iOS (Objective-C), as docs/clients.md describes it.
public struct AndVersionIOSClient: Sendable {
    let current: String
    let minimum: String
    let whatsNew: [String: [String]]
    let appStoreID: String

    /// A missing file is a library that does nothing.
    public init(_ bytes: [UInt8]) throws(ClientFailure) {
        let top = try ClientJSON.object(try ClientJSON.parse(bytes), "the file")
        guard case .object(let m)? = top["AndVersion"] else { throw .ignored("no AndVersion object") }
        func value(_ key: String) throws(ClientFailure) -> String {
            switch m[key] {
            case .string(let s)? where !s.isEmpty: return s
            case .int?, .bool?: throw .crash("\(key) is not a string")
            default: throw .ignored("\(key) is missing or empty")
            }
        }
        current = try value("CurrentVersion")
        minimum = try value("MinVersion")
        let id = try value("AppStoreId")
        guard id.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }) else { throw .ignored("AppStoreId '\(id)' is not digits only") }
        appStoreID = id
        guard case .object(let notes)? = m["WhatsNew"], !notes.isEmpty else { throw .ignored("WhatsNew is missing or empty") }
        var whatsNew: [String: [String]] = [:]
        for (key, value) in notes {
            guard case .array(let lines) = value else { throw .ignored("WhatsNew.\(key) is not a list") }
            whatsNew[key] = try lines.map { (line: JSON) throws(ClientFailure) -> String in try ClientJSON.string(line, "WhatsNew.\(key)[]") }
        }
        self.whatsNew = whatsNew
    }

    /// Components compared as integers; when the common ones are equal, the
    /// version with more components is newer ("1.0" < "1.0.0").
    static func isBelow(_ a: String, _ b: String) -> Bool {
        let x = plainComponents(a) ?? a.split(separator: ".", omittingEmptySubsequences: false).map { Int($0) ?? 0 }
        let y = plainComponents(b) ?? b.split(separator: ".", omittingEmptySubsequences: false).map { Int($0) ?? 0 }
        for (p, q) in zip(x, y) where p != q { return p < q }
        return x.count < y.count
    }

    /// The components of a text of digits and dots as `Int($0) ?? 0` reads
    /// them (an empty one is 0), read from the bytes; nil for any other text.
    static func plainComponents(_ s: String) -> [Int]? {
        var out: [Int] = []
        var n = 0, digits = 0
        for c in s.utf8 {
            if c == UInt8(ascii: ".") {
                out.append(n)
                n = 0; digits = 0
            } else if c >= 48 && c <= 57 && digits < 18 {
                n = n * 10 + Int(c - 48); digits += 1
            } else {
                return nil
            }
        }
        out.append(n)
        return out
    }

    public func decide(_ installed: String) -> ClientDecision {
        if AndVersionIOSClient.isBelow(installed, minimum) { return .required }
        if AndVersionIOSClient.isBelow(installed, current) { return .optional }
        return .none
    }

    /// The device language's first two letters, then "en", then any key.
    public func notes(deviceLanguage: String) -> [String] {
        let two = String(deviceLanguage.prefix(2)).lowercased()
        return whatsNew[two] ?? whatsNew["en"] ?? whatsNew[whatsNew.keys.sorted().first!]!
    }
}
