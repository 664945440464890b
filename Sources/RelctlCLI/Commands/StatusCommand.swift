import RelctlCore
import RelctlPublish

/// `relctl status`: the whole release-control state of a project at a glance.
enum StatusCommand {
    static let command: RunnableCommand = RunnableCommand(
        "status", abstract: "Show per platform the newest version, floors, pins, rules, maintenance and what each version gets now.",
        discussion: "Shows the project of -p (or the default project, or the only one). Without one, on a database of several, shows the fleet at a glance: one line per project that needs attention now (maintenance on or starting within 7 days, a force deadline within 7 days, a floor no release reaches, users locked out by their OS), and counts for the rest.",
        options: [Shared.at, Option("html", value: "FILE", help: "Write the status page (what 'relctl publish' writes as DIR/PROJECT/status.html) to FILE ('-' for standard output) instead of the text.", completion: .file)],
        examples: [Example("relctl status", "Every platform of the project at a glance."), Example("relctl status --html status.html", "The page for people, to open in a browser."), Example("relctl status --at 2026-12-01T03:00:00Z --json", "The same at a future instant, for a script.")]
    ) { inv in
        let at = try inv.value("at").map(inv.time) ?? inv.now
        if inv.json && inv.flag("html") {
            throw RelctlError.usage("--html writes the page for people and --json prints the state for scripts: choose one", hint: "relctl status --json, or relctl status --html FILE")
        }
        let store = try inv.store(.read)
        // No project chosen among several: the fleet at a glance.
        let chosen = try inv.chosenProject(in: store)
        try Approvals.warnOwed(inv, store)
        if chosen == nil, try store.projectSlugs().count > 1 { return try StatusFleet.render(inv, store, at: at) }
        let snapshot = try store.read { try store.zonedSnapshot(try chosen ?? inv.project(in: store)) }
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
        // A signing project: how long apps obey the files of the last publish (this machine's tree of it).
        var signed: JSON = .null
        if !snapshot.project.trustedKeys.isEmpty {
            if let dir = try store.read({ try store.lastPublishDir() }), FileSystem.kind(of: dir + "/index.json") == .file {
                let report = SignatureReport(snapshot.project, root: dir, at: inv.now)
                text += "signed: " + report.line(inv) + " (in \(dir))\n"
                if report.lapsesSoon(at: inv.now) || !report.problems.isEmpty { inv.warn(report.line(inv)) }
                signed = report.json()
            } else {
                text += "signed: by \(snapshot.project.trustedKeys.count) trusted key\(snapshot.project.trustedKeys.count == 1 ? "" : "s"); no published tree here to say how long apps obey it ('relctl verify DIR' does)\n"
            }
        }
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
            // Versions that need different OS: each band's newest release, and what a version is told there otherwise.
            let all = snapshot.versions(of: p)
            let bands = OSBands.of(p, all).filter { OSBands.populated($0, p, all) }
            let older = bands.count > 1 ? verdicts.map { v, verdict in CheckCommand.otherBands(evaluator, p, v.release, at: at, than: verdict) } : verdicts.map { _ in [] }
            let lockouts = Lockouts.of(p, all, at: at)
            func newestIn(_ band: OSBand) -> VersionRecord? {
                all.last { v in v.isReleased(at: at) && (band.os.map { OSBands.installable(v, on: $0, p) } ?? true) }
            }
            let bandDocs: [JSON] = bands.map { b in
                .object(["from": .optional(b.from), "below": .optional(b.below), "label": .string(b.label(p.name)),
                         "newestReleased": .optional(newestIn(b)?.version.text)])
            }
            let pins: [JSON] = versions.filter { $0.policy != nil }.map { .object(["version": .string($0.version.text), "policy": .string($0.policy!.rawValue)]) }
            let versionDocs: [JSON] = zip(verdicts, older).map { pair, other in StatusCommand.versionJSON(pair.0, pair.1, other, p, at: at) }
            platformDocs.append(.object([
                "platform": .string(p.name),
                "newestReleased": .optional(newest?.version.text), "newestAnnounced": .optional(announced?.version.text),
                "force": p.force?.json ?? .null, "recommend": p.recommend?.json ?? .null,
                "rollout": p.rollout.map { RolloutCommands.json($0, at: at) } ?? .null,
                "pins": .array(pins),
                "osBands": .array(bands.count > 1 ? bandDocs : []),
                "lockouts": .array(lockouts.map { .string($0.sentence) }),
                "versions": .array(versionDocs),
                "store": StoreCommands.json(p, snapshot, now: inv.now, at: at),
            ]))
            text += "\n\(p.name): newest released \(newest?.label ?? "none")"
            if let a = announced, a.id != newest?.id { text += ", announced \(a.label)" }
            let deadline = p.force?.deadline.map { ($0 > at ? " (optional until " : " (required since ") + PeopleTime.format($0, now: at, timeZone: inv.timeZone) + ")" } ?? ""
            let byRollout = p.rollout.flatMap { r in r.isComplete(at: at) ? " (\(r.floor.text) for every install, by its rollout)" : nil } ?? ""
            text += "\n  force floor: \(p.force.map { $0.text + deadline } ?? "none"); recommend floor: \(p.recommend?.text ?? "none")\(byRollout)\n"
            if bands.count > 1 {
                text += "  OS bands: " + bands.map { "\($0.label(p.name)) gets up to \(newestIn($0)?.label ?? "nothing released")" }.joined(separator: "; ") + "\n"
            }
            if let r = p.rollout {
                let state = r.haltedAt != nil ? ", halted since \(PeopleTime.format(r.haltedAt!, now: at, timeZone: inv.timeZone))"
                    : r.isComplete(at: at) ? ", every install: 'relctl rollout finish' makes it the recommend floor" : ""
                let next = r.widenings(after: at).first.map { "; \($0.basisPoints == Rollout.unit ? "every install" : Rollout.percent($0.basisPoints)) from \(PeopleTime.format($0.at, now: at, timeZone: inv.timeZone))" } ?? ""
                let files = r.isComplete(at: at) ? "" : r.unstaged == .everyone ? "; files that cannot stage ask every install at once" : "; files that cannot stage withhold it"
                text += "  rollout: \(r.floor.text) to \(Rollout.percent(r.basisPoints(at: at))) of installs\(state)\(next)\(files) ('relctl rollout show')\n"
            }
            for l in lockouts { text += "  LOCKOUT: \(l.sentence)\n" }
            text += StoreCommands.statusLines(p, snapshot, inv, at: at).map { "  \($0)\n" }.joined()
            if !verdicts.isEmpty {
                // While a rollout divides installs: what those in it are told, where it differs.
                let inside = p.isStaging(at: at) ? p.seen(inRollout: true, at: at) : nil
                let head = ["VERSION", "RELEASED", "PIN", "GETS", "BECAUSE"] + (inside != nil ? ["IN THE ROLLOUT"] : []) + (bands.count > 1 ? ["ON OLDER OS"] : [])
                text += Table.render(head, zip(verdicts, older).map { pair, other in
                    let (v, verdict) = pair
                    var row = [v.label, v.isReleased(at: at) ? "yes" : "no", v.policy?.rawValue ?? "-",
                               verdict.kind.rawValue + (verdict.target.map { " → \($0.version.text)" } ?? ""), verdict.decidedBy.rawValue]
                    if let inside {
                        let there = evaluator.evaluate(inside, v.release, at: at)
                        row.append(there.kind == verdict.kind && there.target?.id == verdict.target?.id ? "the same"
                                   : there.kind.rawValue + (there.target.map { " → \($0.version.text)" } ?? ""))
                    }
                    guard bands.count > 1 else { return row }
                    let runs = bands.dropFirst().contains { $0.os.map { OSBands.installable(v, on: $0, p) } ?? false }
                    return row + [!runs ? "-" : other.isEmpty ? "the same" : other.map { b, o in "\(b.label(p.name)): \(o.kind.rawValue)\(o.target.map { " → \($0.version.text)" } ?? "")" }.joined(separator: "; ")]
                }).split(separator: "\n").map { "  \($0)\n" }.joined()
            }
        }
        text += "\n" + RulesCommands.text(snapshot.project)
        let limits = FindingsReport.wouldNotCarry(snapshot, at: at)
        if !limits.isEmpty { text += "\nnot carried by every published format:\n" + FindingsReport.limitLines(limits).map { "  \(inv.people(in: $0))\n" }.joined() }
        inv.render(.object([
            "limits": .array(limits.map { FindingsReport.json(project: $0.project, $0.limit) }),
            "project": .string(snapshot.project.slug), "at": .time(at), "rules": RulesCommands.json(snapshot.project),
            "maintenance": .object([
                "active": .array(snapshot.windows.filter { $0.isActive(at: at) }.map { MaintenanceCommands.json($0, now: at) }),
                "upcoming": .array(snapshot.upcomingWindows(nil, at: at).map { MaintenanceCommands.json($0, now: at) }),
            ]),
            "platforms": .array(platformDocs), "signatures": signed,
        ])) { text }
    }

    static func versionJSON(_ v: VersionRecord, _ verdict: Verdict, _ other: [(OSBand, Verdict)], _ p: PlatformRecord, at: Int64) -> JSON {
        let bands: [JSON] = other.map { b, o in
            .object(["from": .optional(b.from), "below": .optional(b.below), "label": .string(b.label(p.name)),
                     "verdict": .string(o.kind.rawValue), "decidedBy": .string(o.decidedBy.rawValue), "target": .optional(o.target?.version.text)])
        }
        return .object(["version": .string(v.version.text), "build": .optional(v.build), "released": .bool(v.isReleased(at: at)),
                        "verdict": .string(verdict.kind.rawValue), "decidedBy": .string(verdict.decidedBy.rawValue),
                        "target": .optional(verdict.target?.version.text), "otherOs": .array(bands)])
    }
}
