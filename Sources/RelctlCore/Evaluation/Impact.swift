/// What a change would do to users, before it is made: every recorded
/// version (with its build) on every platform is asked of the ONE evaluator
/// on the snapshot as it is and on a copy with the change applied in memory.
public struct Impact: Sendable {
    public struct Change: Sendable, Equatable {
        public var platform: String
        public var version: String
        public var from: Verdict.Kind
        public var to: Verdict.Kind
    }

    public var changes: [Change]

    public init(before: ProjectSnapshot, after: ProjectSnapshot, at t: Int64) {
        let old = Evaluator(before), new = Evaluator(after)
        var changes: [Change] = []
        for platform in after.platforms {
            guard let was = before.platforms.first(where: { $0.id == platform.id }) else { continue }
            for v in after.versions(of: platform) {
                let from = old.evaluate(was, v.release, at: t).kind, to = new.evaluate(platform, v.release, at: t).kind
                if from != to { changes.append(Change(platform: platform.name, version: v.label, from: from, to: to)) }
            }
        }
        self.changes = changes
    }

    /// One line per platform and change: "ios: 1.0 (100), 1.1 (110): none → required".
    public var lines: [String] {
        var out: [String] = []
        var groups: [(key: String, versions: [String])] = []
        for c in changes {
            let key = "\(c.platform): \(c.from.rawValue) → \(c.to.rawValue)"
            if let i = groups.firstIndex(where: { $0.key == key }) { groups[i].versions.append(c.version) }
            else { groups.append((key, [c.version])) }
        }
        for g in groups {
            let colon = g.key.firstIndex(of: ":")!
            out.append("\(g.key[..<colon]): \(g.versions.joined(separator: ", ")): \(g.key[g.key.index(colon, offsetBy: 2)...])")
        }
        return out
    }

    /// How a floor moves, in words: "raises the force floor of ios from 1.0 to 2.0".
    public static func floorMove(_ kind: String, platform: String, from old: Floor?, to new: Floor?) -> String? {
        switch (old, new) {
        case (nil, nil): return nil
        case (nil, let n?): return "sets the \(kind) floor of \(platform) to \(n.text)"
        case (let o?, nil): return "removes the \(kind) floor of \(platform) (\(o.text))"
        case (let o?, let n?):
            if o.text == n.text {
                let keeps = "keeps the \(kind) floor of \(platform) at \(n.text)"
                switch (o.deadline, n.deadline) {
                case (nil, let d?): return keeps + ", with a deadline at \(Time.format(d))"
                case (let d?, nil): return keeps + ", without its deadline (\(Time.format(d)))"
                case (let a?, let b?) where a != b: return keeps + ", its deadline moved from \(Time.format(a)) to \(Time.format(b))"
                default: return keeps
                }
            }
            if !Release.isBelow(n.release, o.release) && !Release.isBelow(o.release, n.release) {
                return "respells the \(kind) floor of \(platform) from \(o.text) to \(n.text) (an equal version)"
            }
            let lower = Release.isBelow(n.release, o.release)
            return "\(lower ? "lowers" : "raises") the \(kind) floor of \(platform) from \(o.text) to \(n.text)"
        }
    }
}
