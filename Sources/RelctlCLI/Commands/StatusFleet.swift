import RelctlCore
import RelctlStore

/// `relctl status` without a project, on a database of several: the fleet
/// at a glance. One line per project that needs someone now (maintenance on
/// or about to start, a force deadline coming, a floor no release reaches,
/// users locked out), counts for the rest; `-p SLUG` shows one in full.
enum StatusFleet {
    /// How far ahead a window's start or a force deadline needs attention.
    static let soon: Int64 = 7 * 86400

    /// One thing a project needs someone for: what, on which platform (nil: all), and when.
    struct Attention {
        var kind: String
        var platform: String?
        var at: Int64?
        /// The words after the platform, with the time put in by `line`.
        var words: (String) -> String

        func line(_ time: (Int64) -> String) -> String {
            (platform.map { "\($0): " } ?? "") + words(at.map(time) ?? "")
        }
    }

    struct Project {
        var slug: String
        var attention: [Attention]
        var force = 0, recommend = 0, scheduled = 0
    }

    static func render(_ inv: Invocation, _ store: Store, at: Int64) throws {
        if inv.flag("html") {
            throw RelctlError.usage("--html writes the page of one project", hint: "choose it with -p SLUG; 'relctl publish DIR' writes DIR/index.html for the whole fleet")
        }
        let projects = try store.read { try store.projects().map { try look(store, $0, at: at, now: inv.now) } }
        let needing = projects.filter { !$0.attention.isEmpty }
        let rest = projects.count - needing.count
        let counts: [(String, Int, String)] = [
            ("force", projects.filter { $0.force > 0 }.count, "a force floor"), ("recommend", projects.filter { $0.recommend > 0 }.count, "a recommend floor"),
            ("maintenanceScheduled", projects.filter { $0.scheduled > 0 }.count, "maintenance scheduled beyond 7 days")]
        inv.render(.object([
            "at": .time(at),
            "projects": .array(projects.map { p in
                .object(["project": .string(p.slug), "attention": .array(p.attention.map { a in
                    .object(["kind": .string(a.kind), "platform": .optional(a.platform), "at": .time(a.at), "text": .string(a.line(Time.format))]) })]) }),
            "counts": .object(Dictionary(uniqueKeysWithValues: ([("projects", projects.count), ("attention", needing.count)] + counts.map { ($0.0, $0.1) })
                .map { ($0, JSON.int(Int64($1))) })),
        ])) {
            // Times for people, from the instant shown (--at), in this user's zone.
            let time = { (t: Int64) in PeopleTime.format(t, now: at, timeZone: inv.timeZone) }
            var text = "\(projects.count) projects at \(inv.people(at)): \(needing.isEmpty ? "none needs" : "\(needing.count) need\(needing.count == 1 ? "s" : "")") attention\n"
            text += needing.map { p in "  \(p.slug): \(p.attention.map { $0.line(time) }.joined(separator: "; "))\n" }.joined()
            let held = counts.filter { $0.1 > 0 }.map { "\($0.1) with \($0.2)" }
            if rest > 0 { text += "\(needing.isEmpty ? "all \(rest)" : "\(rest) others"): nothing needs attention\(held.isEmpty ? "" : " (of all: " + held.joined(separator: ", ") + ")")\n" }
            text += "one project in full: relctl status -p SLUG\n"
            return text
        }
    }

    /// What one project needs, read without its notes (the lines say nothing of them).
    /// `now`: the evidence is as old as it is now, whatever instant is asked about.
    static func look(_ store: Store, _ project: ProjectRecord, at: Int64, now: Int64) throws -> Project {
        var out = Project(slug: project.slug, attention: [])
        for w in try store.maintenanceWindows(project: project.id) {
            let scope = w.platformName ?? "all platforms"
            if w.isActive(at: at) {
                out.attention.append(Attention(kind: "maintenanceOn", platform: nil, at: w.endsAt) { "maintenance on for \(scope) until " + ($0.isEmpty ? "stopped" : $0) })
            } else if w.isUpcoming(at: at) {
                if w.startsAt - at <= soon {
                    out.attention.append(Attention(kind: "maintenanceSoon", platform: nil, at: w.startsAt) { "maintenance for \(scope) starts \($0)" })
                } else { out.scheduled += 1 }
            }
        }
        let platforms = try store.platforms(project: project.id)
        // Read only where a platform names storefronts: most of a fleet has none to check.
        let evidence = platforms.contains { !$0.storefronts.isEmpty } ? try store.storeEvidence(project: project.id) : [:]
        for p in platforms {
            let versions = try store.versions(platform: p.id, withNotes: false)
            if let force = p.force {
                out.force += 1
                if let deadline = force.deadline, deadline > at, deadline - at <= soon {
                    out.attention.append(Attention(kind: "forceDeadline", platform: p.name, at: deadline) { "force floor \(force.text) required from \($0)" })
                }
            }
            if p.recommend != nil { out.recommend += 1 }
            for (floor, kind) in [(p.force, WriteRules.FloorKind.force), (p.recommend, .recommend)] {
                guard let floor, WriteRules.floorReached(floor, kind: kind, on: p, versions: versions, now: at) != nil else { continue }
                out.attention.append(Attention(kind: "floorUnreached", platform: p.name, at: nil) { _ in "no release reaches the \(kind.rawValue) floor \(floor.text)" })
            }
            if !p.storefronts.isEmpty {
                for target in StoreGuard.targets(p, versions, at: at) {
                    let findings = StoreGuard.unserved(target, on: p, versions: versions, evidence: evidence[p.id], delay: project.releaseDelayDays * 86400, now: now, at: at)
                    guard !findings.isEmpty else { continue }
                    let places = Suggest.few(findings.map { $0.storefront ?? "Play" })
                    out.attention.append(Attention(kind: "storeUnserved", platform: p.name, at: nil) { _ in "\(target.what) is not served by the store in \(places) ('relctl store show')" })
                }
            }
            let lockouts = Lockouts.of(p, versions, at: at)
            if !lockouts.isEmpty {
                out.attention.append(Attention(kind: "lockout", platform: p.name, at: nil) { _ in
                    "\(lockouts.count) lockout\(lockouts.count == 1 ? "" : "s") (users on an OS that can install nothing the floors ask for)" })
            }
        }
        return out
    }
}
