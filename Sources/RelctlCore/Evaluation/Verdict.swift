/// The one answer to "what does a client at version V (build B, locale L)
/// see at time T?". `check`, `status` and every publisher ask it.
public struct Verdict: Sendable {
    public enum Kind: String, Sendable { case maintenance, required, optional, none }

    public var kind: Kind
    /// What decided: "maintenance", "pin", "force-floor", "force-deadline"
    /// (a force floor before its deadline), "recommend-floor",
    /// "outdated", "rule", "release-delay", "up-to-date".
    public var decidedBy: String
    /// A sentence for people, written when asked: verify, a publish without
    /// status pages and `check` decide every version and show few sentences.
    public var why: String { explain() }
    private var explain: @Sendable () -> String
    public var target: VersionRecord?
    public var window: MaintenanceWindow?
    /// The rule for the update type, for optional and rule-driven verdicts.
    public var updateType: String?
    public var rule: Rule?
    /// When an optional update becomes required (a force floor's deadline).
    public var deadline: Int64? = nil

    public init(kind: Kind, decidedBy: String, why: @escaping @Sendable @autoclosure () -> String, target: VersionRecord? = nil,
                window: MaintenanceWindow? = nil, updateType: String? = nil, rule: Rule? = nil) {
        self.kind = kind; self.decidedBy = decidedBy; self.explain = why; self.target = target
        self.window = window; self.updateType = updateType; self.rule = rule
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
