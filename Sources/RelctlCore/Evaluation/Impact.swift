/// What a change would do to users, before it is made: every recorded
/// version (with its build) on every platform, and the installs nobody
/// recorded around the lines the change draws (Probes), are asked of the ONE
/// evaluator on the snapshot as it is and on a copy with the change applied
/// in memory; now, and (`timeline`) at each coming instant either state
/// changes by itself, as the proof's time sweep sees them (Fidelity.coming).
public struct Impact: Sendable {
    public struct Change: Sendable, Equatable {
        public var platform: String
        public var version: String
        public var from: Verdict.Kind
        public var to: Verdict.Kind
        /// An install no record names (Probes): `version` says which.
        public var unrecorded = false
        /// On an older OS band (OSBands), where the change does otherwise
        /// than on the newest: the band as people name it.
        public var band: String? = nil
        /// What the message users read says otherwise when the verdict stays
        /// (a deadline set, moved or dropped; another version offered; a
        /// window's end moved), in a few words.
        public var reads: String? = nil
        /// Installs in a rollout, where they are told otherwise than those
        /// outside it: the share in at that instant ("5 % of installs").
        public var rollout: String? = nil
    }

    /// How the message of `new` reads otherwise than that of `old`, when both are of one kind.
    static func reads(_ old: Verdict, _ new: Verdict) -> String? {
        var said: [String] = []
        switch (old.deadline, new.deadline) {
        case (nil, let d?): said.append("now told it is required from \(Time.format(d))")
        case (let d?, nil): said.append(new.kind == .required ? "its deadline of \(Time.format(d)) dropped" : "no longer told of the deadline \(Time.format(d))")
        case (let a?, let b?) where a != b: said.append("told it is required from \(Time.format(b)), not \(Time.format(a))")
        default: break
        }
        if let a = old.target?.version.text, let b = new.target?.version.text, a != b { said.append("offered \(b), not \(a)") }
        if let a = old.window, let b = new.window, a.endsAt != b.endsAt {
            said.append("told maintenance ends \(b.endsAt.map(Time.format) ?? "when it is stopped"), not \(a.endsAt.map(Time.format) ?? "when it is stopped")")
        }
        return said.isEmpty ? nil : said.joined(separator: "; ")
    }

    public var changes: [Change]
    /// Who is in a rollout, where the change moves it: a share that falls, installs drawn again.
    public var notes: [String] = []

    /// Who is asked, per platform: the platform before and after, the records and the probes.
    struct Asker {
        let was: PlatformRecord, now: PlatformRecord
        let records: [VersionRecord]
        let probes: [Probes.Install]
        /// The older OS bands of either state with devices in them.
        let bands: [(os: String, label: String)]
    }

    static func askers(_ before: ProjectSnapshot, _ after: ProjectSnapshot) -> (old: Evaluator, new: Evaluator, platforms: [Asker]) {
        var out: [Asker] = []
        for platform in after.platforms {
            guard let was = before.platforms.first(where: { $0.id == platform.id }) else { continue }
            let records = after.versions(of: platform)
            let sorted = records.sorted { Release.isBelow($0.release, $1.release) }
            // Lines either state draws: floors, and pinned versions (which Probes marks).
            let lines = [was.force?.release, was.recommend?.release, was.rollout?.floor.release, platform.force?.release, platform.recommend?.release,
                         platform.rollout?.floor.release].compactMap { $0 }
            let pinned = Set(before.versions(of: was).filter { $0.policy != nil }.map(\.version.text) + sorted.filter { $0.policy != nil }.map(\.version.text))
            let marked = Set(sorted.indices.filter { $0 == 0 || $0 == sorted.count - 1 || pinned.contains(sorted[$0].version.text) })
            var bands: [(os: String, label: String)] = []
            for (p, versions) in [(platform, records), (was, before.versions(of: was))] {
                for band in OSBands.of(p, versions).dropFirst() where OSBands.populated(band, p, versions) {
                    if !bands.contains(where: { OSVersion.same($0.os, band.os!) }) { bands.append((band.os!, band.label(p.name))) }
                }
            }
            out.append(Asker(was: was, now: platform, records: records,
                             probes: Probes.installs(sorted, marked: marked, lines: lines, buildOrdered: platform.isAndroid), bands: bands))
        }
        return (Evaluator(before), Evaluator(after), out)
    }

    init(_ askers: (old: Evaluator, new: Evaluator, platforms: [Asker]), at t: Int64) {
        var changes: [Change] = [], notes: [String] = []
        for a in askers.platforms {
            // Installs on the newest OS, then on each older band where they are told otherwise.
            var asked: [(release: Release, name: String, unrecorded: Bool, record: VersionRecord?)] = a.records.map { ($0.release, $0.label, false, $0) }
            asked += a.probes.map { ($0.release, "\($0.release.version.text) (\($0.kind))", true, nil) }
            var newest: [(Verdict.Kind, Verdict.Kind)] = []
            for i in asked.indices {
                let old = askers.old.evaluate(a.was, asked[i].release, at: t), new = askers.new.evaluate(a.now, asked[i].release, at: t)
                let (from, to) = (old.kind, new.kind)
                newest.append((from, to))
                if from != to {
                    changes.append(Change(platform: a.now.name, version: asked[i].name, from: from, to: to, unrecorded: asked[i].unrecorded))
                } else if from != .none, let reads = Impact.reads(old, new) {
                    changes.append(Change(platform: a.now.name, version: asked[i].name, from: from, to: to, unrecorded: asked[i].unrecorded, reads: reads))
                }
            }
            if let old = a.was.rollout, let new = a.now.rollout {
                let (from, to) = (old.basisPoints(at: t), new.basisPoints(at: t))
                // A complete rollout folded into the floor drops nobody: every install keeps its version as the floor.
                if old.salt != new.salt && from > 0 && from < Rollout.unit {
                    notes.append("\(a.now.name): the rollout of \(new.floor.text) draws who is in anew (a new salt): of the \(Rollout.percent(from)) of installs in the rollout of \(old.floor.text), most are out")
                } else if old.salt == new.salt && to < from {
                    notes.append("\(a.now.name): \(Rollout.percent(to)) of installs in the rollout of \(new.floor.text) instead of \(Rollout.percent(from)): fewer are in than without this change")
                }
            }
            // A rollout on either side: its installs are asked too, where they differ from the rest.
            if let r = a.now.rollout ?? a.was.rollout {
                let share = "in the rollout (\(Rollout.percent(r.basisPoints(at: t))) of installs)"
                for i in asked.indices {
                    let old = askers.old.evaluate(a.was.seen(inRollout: true, at: t), asked[i].release, at: t)
                    let new = askers.new.evaluate(a.now.seen(inRollout: true, at: t), asked[i].release, at: t)
                    guard (old.kind, new.kind) != newest[i] else { continue }
                    if old.kind != new.kind || (old.kind != .none && Impact.reads(old, new) != nil) {
                        changes.append(Change(platform: a.now.name, version: asked[i].name, from: old.kind, to: new.kind, unrecorded: asked[i].unrecorded,
                                              reads: old.kind == new.kind ? Impact.reads(old, new) : nil, rollout: share))
                    }
                }
            }
            for band in a.bands {
                for i in asked.indices {
                    if let r = asked[i].record, !OSBands.installable(r, on: band.os, a.now) { continue }
                    let from = askers.old.evaluate(a.was, asked[i].release, at: t, os: band.os).kind
                    let to = askers.new.evaluate(a.now, asked[i].release, at: t, os: band.os).kind
                    guard (from, to) != newest[i], from != to || newest[i].0 != newest[i].1 else { continue }
                    changes.append(Change(platform: a.now.name, version: asked[i].name, from: from, to: to, unrecorded: asked[i].unrecorded, band: band.label))
                }
            }
        }
        self.changes = changes
        self.notes = notes
    }

    /// The impact now and at each coming instant either state changes by
    /// itself (a deadline, a window's end, a release delay: Fidelity.coming),
    /// each instant with its causes; an instant whose changes are those of
    /// the instant listed before it is left out (nothing new happens then).
    public static func timeline(before: ProjectSnapshot, after: ProjectSnapshot, at t: Int64) -> [(at: Int64, causes: [String], impact: Impact)] {
        let askers = askers(before, after)
        let instants = Set(Fidelity.coming(before, after: t).map(\.at) + Fidelity.coming(after, after: t).map(\.at)).sorted()
        var out: [(at: Int64, causes: [String], impact: Impact)] = [(t, [], Impact(askers, at: t))]
        for instant in instants {
            let impact = Impact(askers, at: instant)
            if impact.changes == out.last!.impact.changes && impact.notes == out.last!.impact.notes { continue }
            // What happens then, in either state (the change may add the instant or take it away).
            func causes(_ s: ProjectSnapshot) -> [String]? { NextChange.after(s, at: instant - 1).flatMap { $0.at == instant ? $0.causes : nil } }
            // An instant only the state before has is one the change takes away: said so.
            let said = causes(after) ?? causes(before).map { $0.map { "(without this change) " + $0 } } ?? []
            out.append((instant, said, impact))
        }
        return out
    }

    /// One line per platform and change: "ios: 1.0 (100), 1.1 (110): none → required";
    /// installs nobody recorded apart, by one example and their count.
    public var lines: [String] {
        var out: [String] = []
        var groups: [(key: String, versions: [String])] = []
        var unrecorded: [(platform: String, move: String, first: String, count: Int)] = []
        func move(_ c: Change) -> String {
            if let reads = c.reads { return "stays \(c.from.rawValue), \(reads)" }
            return c.from == c.to ? "stays \(c.from.rawValue)" : "\(c.from.rawValue) → \(c.to.rawValue)"
        }
        func place(_ c: Change) -> String { (c.band.map { "\(c.platform) on \($0)" } ?? c.platform) + (c.rollout.map { " \($0)" } ?? "") }
        for c in changes where c.unrecorded {
            let move = move(c), platform = place(c)
            if let i = unrecorded.firstIndex(where: { $0.platform == platform && $0.move == move }) { unrecorded[i].count += 1 }
            else { unrecorded.append((platform, move, c.version, 1)) }
        }
        for c in changes where !c.unrecorded {
            let key = "\(place(c)): \(move(c))"
            if let i = groups.firstIndex(where: { $0.key == key }) { groups[i].versions.append(c.version) }
            else { groups.append((key, [c.version])) }
        }
        for g in groups {
            let colon = g.key.firstIndex(of: ":")!
            out.append("\(g.key[..<colon]): \(g.versions.joined(separator: ", ")): \(g.key[g.key.index(colon, offsetBy: 2)...])")
        }
        for u in unrecorded {
            out.append("\(u.platform): installs nobody recorded, such as \(u.first)\(u.count > 1 ? " (\(u.count) probed)" : ""): \(u.move)")
        }
        return notes + out
    }

    /// How a floor moves, in words: "raises the force floor of ios from 1.0 to 2.0".
    public static func floorMove(_ kind: String, platform: String, from old: Floor?, to new: Floor?) -> String? {
        switch (old, new) {
        case (nil, nil): return nil
        case (nil, let n?): return "sets the \(kind) floor of \(platform) to \(n.text)"
        case (let o?, nil):
            return "removes the \(kind) floor of \(platform) (\(o.text))" + (o.deadline.map { ", and with it the switch to required at \(Time.format($0))" } ?? "")
        case (let o?, let n?):
            if o.text == n.text {
                let keeps = "keeps the \(kind) floor of \(platform) at \(n.text)"
                switch (o.deadline, n.deadline) {
                case (nil, let d?): return keeps + ", with a deadline at \(Time.format(d))"
                case (let d?, nil): return keeps + ", dropping its deadline of \(Time.format(d)): required at once"
                case (let a?, let b?) where a != b: return keeps + ", its deadline moved from \(Time.format(a)) to \(Time.format(b))"
                default: return keeps
                }
            }
            if !Release.isBelow(n.release, o.release) && !Release.isBelow(o.release, n.release) {
                return "respells the \(kind) floor of \(platform) from \(o.text) to \(n.text) (an equal version)"
            }
            let lower = Release.isBelow(n.release, o.release)
            let deadline: String
            switch (o.deadline, n.deadline) {
            case (let d?, nil): deadline = ", dropping the deadline of \(Time.format(d)): required at once"
            case (let a?, let b?) where a != b: deadline = ", its deadline moved from \(Time.format(a)) to \(Time.format(b))"
            case (nil, let d?): deadline = ", with a deadline at \(Time.format(d))"
            default: deadline = ""
            }
            return "\(lower ? "lowers" : "raises") the \(kind) floor of \(platform) from \(o.text) to \(n.text)" + deadline
        }
    }
}
