import RelctlCore

/// What kind of change an audit row records. The raw value is the
/// `audit.kind` word `relctl log --action` matches: the command's words.
/// Rows written before schema 7 had their kind filled from the action's
/// first words, so an old row may hold a word no case has ("maintenance").
public enum ChangeKind: String, CaseIterable, Sendable {
    case initialise = "init"
    case projectAdd = "project add", projectEdit = "project edit", projectRemove = "project rm", projectUse = "project use"
    case platformAdd = "platform add", platformEdit = "platform edit", platformRemove = "platform rm"
    case force, recommend
    case rolloutHalt = "rollout halt", rolloutResume = "rollout resume", rolloutFinish = "rollout finish", rolloutCancel = "rollout cancel"
    case versionAdd = "version add", versionEdit = "version edit", versionRelease = "version release", versionRemove = "version rm"
    case notesSet = "notes set", notesRemove = "notes rm"
    case policySet = "policy set", policyClear = "policy clear"
    case rulesSet = "rules set"
    case messageSet = "message set", messageRemove = "message rm"
    case maintenanceSchedule = "maintenance schedule", maintenanceStart = "maintenance start", maintenanceStop = "maintenance stop"
    case maintenanceMessage = "maintenance message", maintenanceEdit = "maintenance edit", maintenanceCancel = "maintenance cancel"
    case importRetired = "import retired", importAndVersion = "import andversion", importControl = "import control"
    case keysTrust = "keys trust", keysRetire = "keys retire"
    case storeFetch = "store fetch", storeImport = "store import"
    case apply, revert, publish, deploy
    /// A push sent (or tried), and one no service took: logged, never a change of the data.
    case push, pushFailed = "push failed"
}

/// One change, as a value: its kind, the project and platforms it names,
/// and the sentence the log shows. A write makes its rows through a
/// `Session`, which records them under this change's audit row.
public struct Change: Sendable, Equatable {
    public var kind: ChangeKind
    public var project: String?
    /// The platforms the change names, by name; none for a change to the whole project.
    public var platforms: [String]
    /// The sentence for the log ("force ios 2.0").
    public var action: String
    /// The audit entries it takes back (revert).
    public var reverts: [Int64] = []

    public init(_ kind: ChangeKind, project: String?, platforms: [String] = [], _ action: String) {
        self.kind = kind; self.project = project; self.platforms = platforms; self.action = action
    }
}
