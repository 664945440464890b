import RelctlCore
import RelctlPublish

/// `relctl status`: the whole release-control state of a project at a glance.
enum StatusCommand {
    static let command: RunnableCommand = RunnableCommand(
        "status", abstract: "Show per platform the newest version, floors, pins, rules, maintenance and what each version gets now.",
        options: [Shared.at, Option("html", value: "FILE", help: "Write the status page (what 'relctl publish' writes as DIR/PROJECT/status.html) to FILE ('-' for standard output) instead of the text.", completion: .file)],
        examples: [Example("relctl status", "Every platform of the project at a glance."), Example("relctl status --html status.html", "The page for people, to open in a browser."), Example("relctl status --at 2026-12-01T03:00:00Z --json", "The same at a future instant, for a script.")]
    ) { inv in
        let at = try inv.value("at").map(inv.time) ?? inv.now
        if inv.json && inv.flag("html") {
            throw RelctlError.usage("--html writes the page for people and --json prints the state for scripts: choose one", hint: "relctl status --json, or relctl status --html FILE")
        }
        let store = try inv.store(.read)
        let snapshot = try store.read { try store.zonedSnapshot(try inv.project(in: store)) }
        if let path = inv.value("html") {
            let limits = FindingsReport.wouldNotCarry(snapshot, at: at)
            let page = StatusPage.render(snapshot, at: at, limits: limits.map(\.limit), published: false)
            if path == "-" { inv.context.stdout.write(bytes: page); return }
            try FileSystem.writeFile(path, page)
            inv.info("wrote the status page of \(snapshot.project.slug) to \(path)")
            return
        }
        let evaluator = Evaluator(snapshot)
        var platformDocs: [JSON] = []
        var text = "project: \(snapshot.project.slug) (\(snapshot.project.name)) at \(inv.people(at)); its messages' dates in \(snapshot.project.timeZone)\n"
        for w in snapshot.windows where w.isActive(at: at) {
            text += "MAINTENANCE ACTIVE: window #\(w.id) (\(w.platformName ?? "all platforms")) until \(w.endsAt.map(inv.people) ?? "stopped")\n"
        }
        for w in snapshot.upcomingWindows(nil, at: at) {
            text += "maintenance scheduled: window #\(w.id) (\(w.platformName ?? "all platforms")) \(inv.people(w.startsAt)) to \(w.endsAt.map(inv.people) ?? "stop")\n"
        }
        for p in snapshot.platforms {
            let newest = snapshot.newestReleased(p, at: at)
            let announced = snapshot.newestAnnounced(p, at: at)
            let versions = snapshot.versions(of: p).reversed()
            let verdicts = versions.map { ($0, evaluator.evaluate(p, $0.release, at: at)) }
            platformDocs.append(.object([
                "platform": .string(p.name),
                "newestReleased": .optional(newest?.version.text), "newestAnnounced": .optional(announced?.version.text),
                "force": p.force?.json ?? .null, "recommend": p.recommend?.json ?? .null,
                "pins": .array(versions.filter { $0.policy != nil }.map { .object(["version": .string($0.version.text), "policy": .string($0.policy!.rawValue)]) }),
                "versions": .array(verdicts.map { v, verdict in
                    .object(["version": .string(v.version.text), "build": .optional(v.build), "released": .bool(v.isReleased(at: at)),
                             "verdict": .string(verdict.kind.rawValue), "decidedBy": .string(verdict.decidedBy.rawValue),
                             "target": .optional(verdict.target?.version.text)])
                }),
            ]))
            text += "\n\(p.name): newest released \(newest?.label ?? "none")"
            if let a = announced, a.id != newest?.id { text += ", announced \(a.label)" }
            let deadline = p.force?.deadline.map { ($0 > at ? " (optional until " : " (required since ") + PeopleTime.format($0, now: at, timeZone: inv.timeZone) + ")" } ?? ""
            text += "\n  force floor: \(p.force.map { $0.text + deadline } ?? "none"); recommend floor: \(p.recommend?.text ?? "none")\n"
            if !verdicts.isEmpty {
                text += Table.render(["VERSION", "RELEASED", "PIN", "GETS", "BECAUSE"], verdicts.map { v, verdict in
                    [v.label, v.isReleased(at: at) ? "yes" : "no", v.policy?.rawValue ?? "-",
                     verdict.kind.rawValue + (verdict.target.map { " → \($0.version.text)" } ?? ""), verdict.decidedBy.rawValue]
                }).split(separator: "\n").map { "  \($0)\n" }.joined()
            }
        }
        text += "\n" + RulesCommands.text(snapshot.project)
        let limits = FindingsReport.wouldNotCarry(snapshot, at: at)
        if !limits.isEmpty { text += "\nnot carried by every published format:\n" + FindingsReport.limitLines(limits).map { "  \($0)\n" }.joined() }
        inv.render(.object([
            "limits": .array(limits.map { FindingsReport.json(project: $0.project, $0.limit) }),
            "project": .string(snapshot.project.slug), "at": .time(at), "rules": RulesCommands.json(snapshot.project),
            "maintenance": .object([
                "active": .array(snapshot.windows.filter { $0.isActive(at: at) }.map { MaintenanceCommands.json($0, now: at) }),
                "upcoming": .array(snapshot.upcomingWindows(nil, at: at).map { MaintenanceCommands.json($0, now: at) }),
            ]),
            "platforms": .array(platformDocs),
        ])) { text }
    }
}
