import RelctlCore
import RelctlStore

/// `relctl status` without a project, on a database of several: the fleet
/// at a glance. One line per project that needs someone now (maintenance on
/// or about to start, a force deadline coming, a floor no release reaches,
/// users locked out), counts for the rest; `-p SLUG` shows one in full.
enum StatusFleet {
    /// How far ahead a window's start or a force deadline needs attention.
    static let soon: Int64 = 7 * 86400

    struct Project {
        var slug: String
        var attention: [String]
        var force = 0, recommend = 0, scheduled = 0
    }

    static func render(_ inv: Invocation, _ store: Store, at: Int64) throws {
        if inv.flag("html") {
            throw RelctlError.usage("--html writes the page of one project", hint: "choose it with -p SLUG; 'relctl publish DIR' writes DIR/index.html for the whole fleet")
        }
        let projects = try store.read { try store.projects().map { try look(store, $0, at: at, inv) } }
        let needing = projects.filter { !$0.attention.isEmpty }
        let rest = projects.count - needing.count
        let counts: [(String, Int)] = [("force", projects.filter { $0.force > 0 }.count), ("recommend", projects.filter { $0.recommend > 0 }.count),
                                       ("maintenanceScheduled", projects.filter { $0.scheduled > 0 }.count)]
        inv.render(.object([
            "at": .time(at),
            "projects": .array(projects.map { .object(["project": .string($0.slug), "attention": .array($0.attention.map { .string($0) })]) }),
            "counts": .object(Dictionary(uniqueKeysWithValues: ([("projects", projects.count), ("attention", needing.count)] + counts).map { ($0, JSON.int(Int64($1))) })),
        ])) {
            var text = "\(projects.count) projects at \(inv.people(at)): \(needing.isEmpty ? "none needs" : "\(needing.count) need\(needing.count == 1 ? "s" : "")") attention\n"
            text += needing.map { "  \($0.slug): \($0.attention.joined(separator: "; "))\n" }.joined()
            let held = counts.compactMap { name, n -> String? in
                guard n > 0 else { return nil }
                return "\(n) with \(["force": "a force floor", "recommend": "a recommend floor", "maintenanceScheduled": "maintenance scheduled"][name]!)"
            }
            if rest > 0 { text += "\(needing.isEmpty ? "all \(rest)" : "\(rest) others"): nothing needs attention\(held.isEmpty ? "" : " (of all: " + held.joined(separator: ", ") + ")")\n" }
            text += "one project in full: relctl status -p SLUG\n"
            return text
        }
    }

    /// What one project needs, read without its notes (the lines say nothing of them).
    static func look(_ store: Store, _ project: ProjectRecord, at: Int64, _ inv: Invocation) throws -> Project {
        var out = Project(slug: project.slug, attention: [])
        for w in try store.maintenanceWindows(project: project.id) {
            let scope = w.platformName ?? "all platforms"
            if w.isActive(at: at) {
                out.attention.append("maintenance on for \(scope) " + (w.endsAt.map { "until \(inv.people($0))" } ?? "until stopped"))
            } else if w.isUpcoming(at: at) {
                if w.startsAt - at <= soon { out.attention.append("maintenance for \(scope) starts \(inv.people(w.startsAt))") } else { out.scheduled += 1 }
            }
        }
        for p in try store.platforms(project: project.id) {
            let versions = try store.versions(platform: p.id, withNotes: false)
            if let force = p.force {
                out.force += 1
                if let deadline = force.deadline, deadline > at, deadline - at <= soon {
                    out.attention.append("\(p.name): force floor \(force.text) required from \(inv.people(deadline))")
                }
            }
            if p.recommend != nil { out.recommend += 1 }
            for (floor, kind) in [(p.force, WriteRules.FloorKind.force), (p.recommend, .recommend)] {
                guard let floor, WriteRules.floorReached(floor, kind: kind, on: p, versions: versions, now: at) != nil else { continue }
                out.attention.append("\(p.name): no release reaches the \(kind.rawValue) floor \(floor.text)")
            }
            let lockouts = Lockouts.of(p, versions, at: at)
            if !lockouts.isEmpty {
                out.attention.append("\(p.name): \(lockouts.count) lockout\(lockouts.count == 1 ? "" : "s") (users on an OS that can install nothing the floors ask for)")
            }
        }
        return out
    }
}
