/// Retired (Swift, iOS) and its versions file, as docs/clients.md describes it:
/// both messaging blocks required, title/message/continueButtonText strings,
/// versions as strings matched by exact text, force and recommend told apart
/// only by cancelButtonText. Equal clients (what they parsed) decide alike.
public struct RetiredClient: Sendable, Equatable {
    let forcedDismissable: Bool
    let recommendedDismissable: Bool
    /// Exact version text → policy; the first entry wins, as a linear search does.
    let policies: [String: String]

    /// `memo` remembers the last versions list read: the files of one
    /// platform share it in every locale, so it is built once.
    public init(_ bytes: [UInt8], memo: RetiredMemo? = nil) throws(ClientFailure) {
        let members: [String: Range<Int>]
        do { members = try JSONReader.members(bytes, known: memo.map { ("versions", $0.bytes) }) } catch { throw .crash("invalid JSON, or not an object") }
        guard let messagingRange = members["messaging"] else { throw .crash("messaging is missing") }
        let messaging = try ClientJSON.object(try? JSONReader.parse(bytes[messagingRange]), "messaging")
        func block(_ name: String) throws(ClientFailure) -> Bool {
            let m = try ClientJSON.object(messaging[name], "messaging.\(name)")
            for key in ["title", "message", "continueButtonText"] { _ = try ClientJSON.string(m[key], "messaging.\(name).\(key)") }
            guard let cancel = m["cancelButtonText"] else { return false }
            _ = try ClientJSON.string(cancel, "messaging.\(name).cancelButtonText")
            return true
        }
        forcedDismissable = try block("forced")
        recommendedDismissable = try block("recommended")
        guard let range = members["versions"] else { throw .crash("versions is missing") }
        if let memo, range.count == memo.bytes.count, JSONReader.hasPrefix(bytes, at: range.lowerBound, memo.bytes) {
            policies = memo.policies
            return
        }
        // Read by its parts (the document is checked), in one pass: two members of each entry are used.
        // Gathered in order, then made a table of their own number (ControlClient.init says why).
        var entries: [(version: String, policy: String)] = []
        let listEnd = try JSONReader.eachObject(bytes, at: range, of: RetiredClient.entryMembers) { (e: [Range<Int>?]?) throws(ClientFailure) in
            let i = entries.count
            guard let e else { throw .crash("versions[\(i)] is not an object") }
            entries.append((try ClientJSON.string(bytes, e[0], "versions[\(i)].version"), try ClientJSON.string(bytes, e[1], "versions[\(i)].policy")))
        }
        guard listEnd != nil else { throw .crash("versions is not an array") }
        var policies: [String: String] = [:]
        policies.reserveCapacity(entries.count)
        for e in entries where policies[e.version] == nil { policies[e.version] = e.policy }
        self.policies = policies
        memo?.bytes = Array(bytes[range])
        memo?.policies = policies
    }

    static let entryMembers = ["version", "policy"].map(JSONReader.Name.init)

    /// The app reports CFBundleShortVersionString; an unlisted one gets nothing.
    public func decide(_ installed: String) -> ClientDecision {
        switch policies[installed] {
        case "force": return forcedDismissable ? .optional : .required
        case "recommend": return recommendedDismissable ? .optional : .required
        default: return .none
        }
    }
}

/// The last versions list a RetiredClient read, by its exact bytes.
public final class RetiredMemo {
    var bytes: [UInt8] = []
    var policies: [String: String] = [:]
    public init() {}
}
