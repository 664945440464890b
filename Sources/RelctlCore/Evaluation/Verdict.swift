/// The one answer to "what does a client at version V (build B, locale L)
/// see at time T?". `check`, `status` and every publisher ask it.
///
/// A value whose fields live in one shared object until a copy is changed,
/// as VersionRecord's do: every platform's verdicts are copied out by each
/// client check, format and page.
public struct Verdict: Sendable {
    public enum Kind: String, Sendable { case maintenance, required, optional, none }

    private final class Fields: @unchecked Sendable {
        // Changed only through a Verdict holding the sole reference (`fields()`).
        var kind: Kind
        var decidedBy: String
        var explain: @Sendable () -> String
        var target: VersionRecord?
        var window: MaintenanceWindow?
        var updateType: String?
        var rule: Rule?
        var deadline: Int64? = nil

        init(kind: Kind, decidedBy: String, explain: @escaping @Sendable () -> String, target: VersionRecord?,
             window: MaintenanceWindow?, updateType: String?, rule: Rule?) {
            self.kind = kind; self.decidedBy = decidedBy; self.explain = explain; self.target = target
            self.window = window; self.updateType = updateType; self.rule = rule
        }

        func copy() -> Fields {
            let c = Fields(kind: kind, decidedBy: decidedBy, explain: explain, target: target, window: window, updateType: updateType, rule: rule)
            c.deadline = deadline
            return c
        }
    }
    private var stored: Fields

    /// The fields, made this verdict's own before a change.
    private mutating func fields() -> Fields {
        if !isKnownUniquelyReferenced(&stored) { stored = stored.copy() }
        return stored
    }

    public var kind: Kind { get { stored.kind } set { fields().kind = newValue } }
    /// What decided: "maintenance", "pin", "force-floor", "force-deadline"
    /// (a force floor before its deadline), "recommend-floor",
    /// "outdated", "rule", "release-delay", "up-to-date".
    public var decidedBy: String { get { stored.decidedBy } set { fields().decidedBy = newValue } }
    /// A sentence for people, written when asked: verify, a publish without
    /// status pages and `check` decide every version and show few sentences.
    public var why: String { stored.explain() }
    public var target: VersionRecord? { get { stored.target } set { fields().target = newValue } }
    public var window: MaintenanceWindow? { get { stored.window } set { fields().window = newValue } }
    /// The rule for the update type, for optional and rule-driven verdicts.
    public var updateType: String? { get { stored.updateType } set { fields().updateType = newValue } }
    public var rule: Rule? { get { stored.rule } set { fields().rule = newValue } }
    /// When an optional update becomes required (a force floor's deadline).
    public var deadline: Int64? { get { stored.deadline } set { fields().deadline = newValue } }

    public init(kind: Kind, decidedBy: String, why: @escaping @Sendable @autoclosure () -> String, target: VersionRecord? = nil,
                window: MaintenanceWindow? = nil, updateType: String? = nil, rule: Rule? = nil) {
        stored = Fields(kind: kind, decidedBy: decidedBy, explain: why, target: target, window: window, updateType: updateType, rule: rule)
    }

    /// The policy word Retired understands.
    public var retiredPolicy: String {
        switch kind {
        case .required: return "force"
        case .optional: return "recommend"
        case .none, .maintenance: return "none"
        }
    }
}
