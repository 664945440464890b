/// AndVersion for Android (Java), as docs/clients.md describes it: integer
/// versionCodes, a required update only, Java's language codes.
public struct AndVersionAndroidClient: Sendable {
    let current: Int64?
    let minimum: Int64?
    let whatsNew: [String: [String]]

    public init(_ bytes: [UInt8]) throws(ClientFailure) {
        let top = try ClientJSON.object(try ClientJSON.parse(bytes), "the file")
        guard case .object(let m)? = top["AndVersion"] else { throw .ignored("no AndVersion object") }
        current = AndVersionAndroidClient.code(m["CurrentVersion"])
        minimum = AndVersionAndroidClient.code(m["MinVersion"])
        var whatsNew: [String: [String]] = [:]
        if case .object(let notes)? = m["WhatsNew"] {
            for (key, value) in notes {
                guard case .array(let lines) = value else { continue }
                whatsNew[key] = lines.compactMap { if case .string(let s) = $0 { return s } else { return nil } }
            }
        }
        self.whatsNew = whatsNew
    }

    /// An integer, or a string read as one up to its first non-digit ("1.5"
    /// is 1); anything else is "no rule".
    static func code(_ value: JSON?) -> Int64? {
        switch value {
        case .int(let n)?: return n
        case .string(let s)?:
            let digits = s.prefix { $0.isASCII && $0.isNumber }
            return digits.isEmpty ? nil : Int64(digits)
        default: return nil
        }
    }

    /// Forced below MinVersion, and only when CurrentVersion is valid too.
    public func decide(_ versionCode: Int64) -> ClientDecision {
        guard current != nil, let minimum, versionCode < minimum else { return .none }
        return .required
    }

    /// The Java language code (older runtimes say iw, in, ji), then "en", then any key.
    public func notes(javaLanguage: String) -> [String]? {
        whatsNew[javaLanguage] ?? whatsNew["en"] ?? whatsNew.keys.sorted().first.flatMap { whatsNew[$0] }
    }
}
