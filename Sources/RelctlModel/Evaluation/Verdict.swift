/// The one answer to "what does a client at version V (build B, locale L)
/// see at time T?". `check`, `status` and every publisher ask it.
/// Its fields are shared between copies until one is changed (CopyOnWrite).
public struct Verdict: Sendable {
    public enum Kind: String, Sendable { case maintenance, required, optional, none }

    /// What decided a verdict; the raw value is the word `check` and
    /// `status` print. A switch over it names every case: a new cause does
    /// not compile until each format's check (Fidelity) says what it does.
    public enum Cause: String, Sendable, CaseIterable {
        case maintenance, pin
        case forceFloor = "force-floor"
        /// A force floor before its deadline: optional until then.
        case forceDeadline = "force-deadline"
        case recommendFloor = "recommend-floor"
        case outdated, rule
        case releaseDelay = "release-delay"
        /// A newer release that a rollout stages, which this install is not in.
        case rollout
        case upToDate = "up-to-date"
        /// The device's OS cannot install the version a floor, pin or rule
        /// sends it to: offered the newest it can install, or nothing.
        case osTooOld = "os-too-old"
    }

    private struct Fields {
        var kind: Kind
        var decidedBy: Cause
        var explain: @Sendable () -> String
        var target: VersionRecord?
        var window: MaintenanceWindow?
        var updateType: String?
        var rule: Rule?
        var deadline: Int64? = nil
    }
    private var stored: CopyOnWrite<Fields>

    public var kind: Kind { get { stored.fields.kind } set { stored.update { $0.kind = newValue } } }
    /// What decided.
    public var decidedBy: Cause { get { stored.fields.decidedBy } set { stored.update { $0.decidedBy = newValue } } }
    /// A sentence for people, written when asked: verify, a publish without
    /// status pages and `check` decide every version and show few sentences.
    public var why: String { stored.fields.explain() }
    public var target: VersionRecord? { get { stored.fields.target } set { stored.update { $0.target = newValue } } }
    public var window: MaintenanceWindow? { get { stored.fields.window } set { stored.update { $0.window = newValue } } }
    /// The rule for the update type, for optional and rule-driven verdicts.
    public var updateType: String? { get { stored.fields.updateType } set { stored.update { $0.updateType = newValue } } }
    public var rule: Rule? { get { stored.fields.rule } set { stored.update { $0.rule = newValue } } }
    /// When an optional update becomes required (a force floor's deadline).
    public var deadline: Int64? { get { stored.fields.deadline } set { stored.update { $0.deadline = newValue } } }

    public init(kind: Kind, decidedBy: Cause, why: @escaping @Sendable @autoclosure () -> String, target: VersionRecord? = nil,
                window: MaintenanceWindow? = nil, updateType: String? = nil, rule: Rule? = nil) {
        stored = CopyOnWrite(Fields(kind: kind, decidedBy: decidedBy, explain: why, target: target, window: window, updateType: updateType, rule: rule))
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
