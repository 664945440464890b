/// Retired (Swift, iOS) and its versions file, as clients.md describes it:
/// both messaging blocks required, title/message/continueButtonText strings,
/// versions as strings matched by exact text, force and recommend told apart
/// only by cancelButtonText.
public struct RetiredClient: Sendable {
    let forcedDismissable: Bool
    let recommendedDismissable: Bool
    /// Exact version text → policy; the first entry wins, as a linear search does.
    let policies: [String: String]

    public init(_ bytes: [UInt8]) throws(ClientFailure) {
        let top = try ClientJSON.object(try ClientJSON.parse(bytes), "the file")
        let messaging = try ClientJSON.object(top["messaging"], "messaging")
        func block(_ name: String) throws(ClientFailure) -> Bool {
            let m = try ClientJSON.object(messaging[name], "messaging.\(name)")
            for key in ["title", "message", "continueButtonText"] { _ = try ClientJSON.string(m[key], "messaging.\(name).\(key)") }
            guard let cancel = m["cancelButtonText"] else { return false }
            _ = try ClientJSON.string(cancel, "messaging.\(name).cancelButtonText")
            return true
        }
        forcedDismissable = try block("forced")
        recommendedDismissable = try block("recommended")
        guard case .array(let list)? = top["versions"] else { throw .crash("versions is \(top["versions"] == nil ? "missing" : "not an array")") }
        var policies: [String: String] = [:]
        for (i, entry) in list.enumerated() {
            let e = try ClientJSON.object(entry, "versions[\(i)]")
            let version = try ClientJSON.string(e["version"], "versions[\(i)].version")
            let policy = try ClientJSON.string(e["policy"], "versions[\(i)].policy")
            if policies[version] == nil { policies[version] = policy }
        }
        self.policies = policies
    }

    /// The app reports CFBundleShortVersionString; an unlisted one gets nothing.
    public func decide(_ installed: String) -> ClientDecision {
        switch policies[installed] {
        case "force": return forcedDismissable ? .optional : .required
        case "recommend": return recommendedDismissable ? .optional : .required
        default: return .none
        }
    }
}
