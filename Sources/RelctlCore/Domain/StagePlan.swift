/// What `recommend --rollout` asks for: the steps and their length, and
/// what files that cannot stage say meanwhile.
public struct RolloutRequest: Sendable, Equatable {
    public var steps: [Int]
    public var every: Int64
    /// nil: as the rollout it replaces has it, else withhold.
    public var unstaged: Rollout.Unstaged?
    /// A new salt per platform (by id), chosen once: a change shown and then
    /// made must be the same change.
    public var salts: [Int64: String]

    public init(steps: [Int], every: Int64, unstaged: Rollout.Unstaged?, salts: [Int64: String]) {
        self.steps = steps; self.every = every; self.unstaged = unstaged; self.salts = salts
    }

    /// As the log's action says it: "1,5,100 every 1d".
    public var words: String {
        "\(steps.map(Rollout.number).joined(separator: ",")) every \(Time.formatDuration(every))\(unstaged.map { " unstaged \($0.rawValue)" } ?? "")"
    }
}

/// What `recommend --rollout` does on one platform with the rollout it has:
/// decided once, for the preview and for the write (Session.stage).
public enum StagePlan {
    /// No rollout to keep: a new one, with a new salt.
    case new
    /// Staged as asked already.
    case unchanged
    /// The same version on a new schedule: its salt and `since` kept.
    case reschedule(Rollout)
    /// A rollout that reached every install becomes the floor of all first.
    case foldThenNew(Floor)
    /// Another version still staging: never replaced.
    case blocked(Rollout)
    /// The same version, every install in already: finish it.
    case finished(Rollout)

    public init(_ floor: Floor, _ staged: RolloutRequest, on p: PlatformRecord, at now: Int64) {
        guard let old = p.rollout else { self = .new; return }
        let same = old.floor.version == floor.version && old.floor.build == floor.build
        if !same { self = old.isComplete(at: now) ? .foldThenNew(old.floor) : .blocked(old); return }
        if old.steps == staged.steps && old.every == staged.every && old.unstaged == (staged.unstaged ?? old.unstaged) && old.haltedAt == nil {
            self = .unchanged
        } else {
            self = old.isComplete(at: now) ? .finished(old) : .reschedule(old)
        }
    }

    public var isNew: Bool {
        switch self {
        case .new, .foldThenNew: return true
        default: return false
        }
    }
}
