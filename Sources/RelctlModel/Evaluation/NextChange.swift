/// The next instant after `at` at which what relctl says (check, status,
/// every published file) may change with no change to the database: a
/// version's release time, the end of a release delay, a force floor's
/// deadline, a maintenance window starting or ending, and the hour before a
/// window when control.json starts asking for faster polling. A pure
/// function of the snapshot and the time, so publish, its index and
/// `--watch` agree on it.
public struct NextChange: Sendable, Equatable {
    public var at: Int64
    /// Every cause at that instant, in words ("the release delay of ios 2.1.0 ends").
    public var causes: [String]

    public init(at: Int64, causes: [String]) { self.at = at; self.causes = causes }

    public var because: String { causes.joined(separator: "; ") }

    /// The causes for a line people read: the first few, and how many more
    /// (a fleet's release day names dozens of projects; --json lists them all),
    /// counted as `Suggest.few` counts names.
    public var briefly: String {
        causes.count <= 4 ? because : causes.prefix(3).joined(separator: "; ") + "; and \(causes.count - 3) more"
    }

    /// How index.json, the last-publish record and the status index write it: `{"at", "causes"}`, or null.
    public static func json(_ next: NextChange?) -> JSON {
        next.map { .object(["at": .time($0.at), "causes": .array($0.causes.map { .string($0) })]) } ?? .null
    }

    /// Reads what `json` wrote: nil for a value that is not one, `.some(nil)` for null.
    public static func read(_ value: JSON?) -> NextChange?? {
        switch value {
        case .null?: return .some(nil)
        case .object(let o)?:
            guard case .string(let s)? = o["at"], let at = Time.parseUTC(s), case .array(let causes)? = o["causes"] else { return nil }
            var list: [String] = []
            for c in causes {
                guard case .string(let text) = c else { return nil }
                list.append(text)
            }
            return .some(NextChange(at: at, causes: list))
        default: return nil
        }
    }

    /// `people`: only what people notice (status pages): not the hour before
    /// a window when control.json asks for faster polling.
    public static func after(_ snapshot: ProjectSnapshot, at t: Int64, people: Bool = false) -> NextChange? {
        best(snapshot, people: people) { instant, best in instant > t && (best.map { instant < $0 } ?? true) }
    }

    /// The last such instant at or before `t`: when what relctl says at `t`
    /// began (nil: it has held since the data was entered). The status page
    /// shows it instead of the publish instant, and index.json records its
    /// instant (`since`): from it up to `after(t)` every file is the same, so
    /// two publishes of the same state write the same bytes.
    public static func latest(_ snapshot: ProjectSnapshot, atOrBefore t: Int64, people: Bool = false) -> NextChange? {
        best(snapshot, people: people) { instant, best in instant <= t && (best.map { instant > $0 } ?? true) }
    }

    /// The instant that beats every other, then the causes of every change
    /// at it, in order. Two passes: in one, each better instant on the way
    /// (each newer release, for `latest`) would build its causes in vain.
    private static func best(_ snapshot: ProjectSnapshot, people: Bool, _ beats: (Int64, Int64?) -> Bool) -> NextChange? {
        var best: Int64? = nil
        forEachInstant(snapshot, people: people) { instant, _, _ in
            if beats(instant, best) { best = instant }
        }
        guard let at = best else { return nil }
        var causes: [String] = []
        forEachInstant(snapshot, people: people) { instant, _, cause in
            if instant == at { causes.append(cause()) }
        }
        return NextChange(at: at, causes: causes)
    }

    /// `latest`'s instant alone, without building the causes (publish asks for every project).
    public static func since(_ snapshot: ProjectSnapshot, at t: Int64) -> Int64? {
        var best: Int64? = nil
        forEachInstant(snapshot) { instant, _, _ in
            if instant <= t, best == nil || instant > best! { best = instant }
        }
        return best
    }

    /// Every such instant after `t` up to `end`, earliest first, at most
    /// `limit` of them, each with the platforms (by id) whose answer may
    /// change then; nil: every platform (a maintenance window of them all).
    /// The time sweep renders and checks only those.
    public static func coming(_ snapshot: ProjectSnapshot, after t: Int64, through end: Int64, limit: Int) -> [(at: Int64, platforms: Set<Int64>?)] {
        // Per instant, the platforms it touches; `every`: one of its causes touches them all.
        var touched: [Int64: Set<Int64>] = [:], every: Set<Int64> = []
        forEachInstant(snapshot) { instant, platform, _ in
            guard instant > t && instant <= end else { return }
            if let platform { touched[instant, default: []].insert(platform) } else { every.insert(instant) }
        }
        return Set(touched.keys).union(every).sorted().prefix(limit).map { ($0, every.contains($0) ? nil : touched[$0]!) }
    }

    /// Every instant at which the answer may change, with the platform it
    /// touches (nil: all) and its cause (built only when asked).
    private static func forEachInstant(_ snapshot: ProjectSnapshot, people: Bool = false, _ body: (Int64, Int64?, () -> String) -> Void) {
        func consider(_ instant: Int64?, _ platform: Int64?, _ cause: @autoclosure () -> String) {
            guard let instant, Time.isInRange(instant) else { return }
            withoutActuallyEscaping(cause) { body(instant, platform, $0) }
        }
        let multi = snapshot.platforms.count > 1
        for p in snapshot.platforms {
            for v in snapshot.versions(of: p) {
                guard let released = v.releasedAt else { continue }
                consider(released, p.id, "\(p.name) \(v.version.text) is released")
                if snapshot.delaySeconds > 0 {
                    consider(released + snapshot.delaySeconds, p.id, "the release delay of \(p.name) \(v.version.text) ends")
                }
            }
            if let f = p.force, let d = f.deadline {
                consider(d, p.id, "the force floor \(f.text) on \(p.name) becomes required")
            }
            // Each step of a rollout, up to its halt: the status page shows it, and the last brings the files that cannot stage their floor.
            if let r = p.rollout {
                for (i, step) in r.schedule.enumerated() where r.haltedAt.map({ step.from <= $0 }) ?? true {
                    consider(step.from, p.id, step.basisPoints == Rollout.unit ? "the rollout of \(p.name) \(r.floor.text) reaches every install"
                             : "the rollout of \(p.name) \(r.floor.text) \(i == 0 ? "starts at" : "widens to") \(Rollout.percent(step.basisPoints)) of installs")
                }
            }
        }
        for w in snapshot.windows where !w.isCancelled {
            let scope = w.platformName.map { " (\($0))" } ?? (multi ? " (all platforms)" : "")
            let touched = w.platformName.flatMap { name in snapshot.platforms.first { $0.name == name }?.id }
            if !people { consider(w.startsAt - ControlDocument.urgentLead, touched, "control.json asks for faster polling an hour before maintenance window #\(w.id)\(scope)") }
            consider(w.startsAt, touched, "maintenance window #\(w.id)\(scope) starts")
            consider(w.endsAt, touched, "maintenance window #\(w.id)\(scope) ends")
        }
    }

    /// The same causes, each naming the project (a publish of several).
    public func naming(_ project: String) -> NextChange { NextChange(at: at, causes: causes.map { "\(project): \($0)" }) }

    /// The earlier of two (nil is "never"); causes of a tie are joined.
    public static func earliest(_ a: NextChange?, _ b: NextChange?) -> NextChange? {
        guard let a else { return b }
        guard let b else { return a }
        if a.at == b.at { return NextChange(at: a.at, causes: a.causes + b.causes) }
        return a.at < b.at ? a : b
    }
}
