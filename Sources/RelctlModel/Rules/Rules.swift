/// The rule for each update type of a project (Siren's model).
public struct Rules: Equatable, Sendable {
    public static let types = ["major", "minor", "patch", "revision"]
    /// Indexed like `Version.firstDifference`: 0 major ... 3 revision.
    public var byType: [Rule]

    public static let standard = Rules(byType: Array(repeating: Rule(alert: .skip, frequency: .daily), count: 4))

    public init(byType: [Rule]) { self.byType = byType }

    /// Stored as "force/immediately,option/daily,skip/daily,skip/daily"; an
    /// empty value (the column's default) means the standard rules.
    public init(stored: String) throws {
        if stored.isEmpty { self = .standard; return }
        let parts = stored.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 4 else {
            throw InputError("rules '\(stored)' name \(parts.count) update types, not 4", hint: "store ALERT/FREQUENCY for major, minor, patch and revision, separated by commas")
        }
        self.byType = try parts.map { try Rule.parse(String($0)) }
    }

    public var stored: String { byType.map { "\($0.alert.rawValue)/\($0.frequency.rawValue)" }.joined(separator: ",") }

    public func rule(forDifference index: Int) -> Rule { byType[min(index, 3)] }

    public var json: JSON {
        var members: [String: JSON] = [:]
        for (i, t) in Rules.types.enumerated() {
            members[t] = .object(["alert": .string(byType[i].alert.rawValue), "frequency": .string(byType[i].frequency.rawValue),
                                  "preset": .string(byType[i].name), "skipAllowed": .bool(byType[i].skipAllowed)])
        }
        return .object(members)
    }
}
