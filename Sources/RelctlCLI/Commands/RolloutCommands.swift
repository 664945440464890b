import RelctlCore
import RelctlStore

/// `relctl rollout`: a staged recommend (`relctl recommend 2.1 --rollout
/// 1,5,20,100`) shown, halted, resumed, finished and cancelled.
enum RolloutCommands {
    static let command: RunnableCommand = RunnableCommand(
        "rollout", abstract: "Show, halt, resume, finish or cancel a staged recommend.",
        discussion: "A staged recommend asks a growing share of installs to update: an install is in when the first four bytes of SHA-256(salt + \".\" + install id), read as a big-endian 32-bit number, modulo 10000, are below the step's basis points. Apps work the step out from the schedule in control.json, so widening needs no publish. Halting freezes who is in: nobody new, nobody dropped; apps see a halt once the files are published again. Outside a rollout, an install below the staged version is not offered it, or any newer version released since it was first staged, by the outdated rules. Files that cannot stage (Retired, AndVersion, Siren, Prince of Versions, the appcast) withhold it until it reaches every install, unless it was set with --unstaged everyone.",
        subcommands: [show, halt, resume, finish, cancel],
        examples: [Example("relctl rollout show --platform ios", "The iOS rollout (staged with 'relctl recommend 2.1 --rollout 1,5,20,100 --platform ios')."),
                   Example("relctl rollout halt --platform ios", "Something is wrong: nobody new is asked."),
                   Example("relctl rollout show", "Each platform's rollout and its schedule.")]
    )

    static let show: RunnableCommand = RunnableCommand(
        "show", abstract: "Show each platform's staged recommend, its schedule and the share of installs in now.",
        options: [Shared.platform, Shared.at],
        examples: [Example("relctl rollout show --platform ios --json", "The iOS rollout as JSON.")]
    ) { inv in
        let at = try inv.value("at").map(inv.time) ?? inv.now
        let store = try inv.store(.read)
        let platforms: [PlatformRecord] = try store.read {
            let project = try inv.project(in: store)
            return inv.flag("platform") ? [try inv.platform(in: store, project: project)] : try store.platforms(project: project.id)
        }
        inv.render(json(platforms, at: at)) {
            platforms.map { p in text(p, inv, at: at) + "\n" }.joined()
        }
    }

    static func step(_ name: RolloutStep, _ abstract: String, _ discussion: String, _ example: Example) -> RunnableCommand {
        RunnableCommand(name.rawValue, abstract: abstract, discussion: discussion, options: [Shared.platforms, Shared.dryRun, Shared.yes], examples: [example]) { inv in
            let (store, project, platforms) = try staged(inv)
            let named = named(inv)
            let moves = platforms.compactMap { p in p.rollout.flatMap { r -> String? in
                guard acts(name, on: r, named: named, at: inv.now) else { return nil }
                let share = Rollout.percent(r.basisPoints(at: inv.now))
                switch name {
                case .halt: return "halts the rollout of \(r.floor.text) on \(p.name) at \(share) of installs"
                case .resume: return "resumes the rollout of \(r.floor.text) on \(p.name) from \(share) of installs"
                case .finish: return "asks every install of \(p.name) below \(r.floor.text) to update (the rollout ends at \(share))"
                case .cancel: return "ends the rollout of \(r.floor.text) on \(p.name): the \(share) of installs in it go back to \(p.recommend.map { "the recommend floor \($0.text)" } ?? "no recommend floor")"
                }
            } }
            let doing = [RolloutStep.halt: "halting", .resume: "resuming", .finish: "finishing", .cancel: "cancelling"][name]!
            try inv.write(store, project, asking: "\(doing) the rollout", moves: moves) { s in
                try s.rollout(name, of: platforms, in: project, named: named, now: inv.now)
            }
            // Worked out from the rollouts as they were, as the change made them.
            for p in platforms {
                guard let r = p.rollout else { continue }
                switch name {
                case .halt:
                    if let h = r.haltedAt { inv.info("\(p.name): the rollout of \(r.floor.text) is halted already, since \(inv.people(h))"); continue }
                    if !acts(.halt, on: r, named: named, at: inv.now) { inv.info("\(p.name): the rollout of \(r.floor.text) has nothing to halt (\(r.isComplete(at: inv.now) ? "every install is in" : "it starts \(inv.people(r.start))")): unchanged"); continue }
                    inv.info("\(p.name): the rollout of \(r.floor.text) is halted at \(Rollout.percent(r.basisPoints(at: inv.now))) of installs once apps read the files published next; 'relctl rollout resume' goes on, 'relctl rollout cancel' takes it back from the installs in it")
                case .resume:
                    if r.haltedAt == nil { inv.info("\(p.name): the rollout of \(r.floor.text) is not halted"); continue }
                    guard let r = try? r.resumed(at: inv.now), let step = r.step(at: inv.now) else { continue }
                    inv.info("\(p.name): the rollout of \(r.floor.text) goes on: \(Rollout.scheduleWords(steps: Array(r.steps[step...]), every: r.every, start: r.stepStart(step), people: inv.people))")
                case .finish: inv.info("\(p.name): every install below \(r.floor.text) should update")
                case .cancel: inv.info("\(p.name): the rollout of \(r.floor.text) is over; every install has \(p.recommend.map { "the recommend floor \($0.text)" } ?? "no recommend floor") again")
                }
            }
            try inv.printWritten { json(try store.read { try store.platforms(project: project.id).filter { p in platforms.contains { $0.id == p.id } } }, at: inv.now) }
        }
    }

    /// The platforms a step acts on: those named, or, without --platform or with 'all', every platform with a rollout.
    static func staged(_ inv: Invocation) throws -> (Store, ProjectRecord, [PlatformRecord]) {
        if named(inv) { return try inv.targets() }
        let store = try inv.store()
        let project = try inv.project(in: store)
        let staged = try store.platforms(project: project.id).filter { $0.rollout != nil }
        guard !staged.isEmpty else {
            throw RelctlError.failure("no platform of \(project.slug) has a staged recommend", hint: "stage one with relctl recommend VERSION --rollout 1,5,20,100 --platform NAME")
        }
        return (store, project, staged)
    }

    /// Whether --platform names platforms (not 'all').
    static func named(_ inv: Invocation) -> Bool {
        inv.flag("platform") && !inv.values("platform").contains { $0.lowercased() == Shared.allPlatforms }
    }

    /// Whether the step changes this rollout (a repeated halt or resume does not; unnamed, a halt passes over one not started or complete).
    static func acts(_ step: RolloutStep, on r: Rollout, named: Bool, at now: Int64) -> Bool {
        switch step {
        case .halt: return r.haltedAt == nil && (named || (now >= r.start && !r.isComplete(at: now)))
        case .resume: return r.haltedAt != nil
        case .finish, .cancel: return true
        }
    }

    static let halt = step(.halt, "Halt a rollout: who is in stays in, nobody new comes in.",
                           "Apps see the halt once the files are published (and deployed) again: until then they widen by the schedule they hold. 'relctl rollout cancel' takes the staged recommend back from the installs in it; 'relctl rollout resume' goes on.",
                           Example("relctl rollout halt --platform ios", "Stop widening the iOS rollout."))
    static let cancel = step(.cancel, "Cancel a rollout: the installs in it go back to the recommend floor the others have.",
                             "The staged recommend ends; the platform's recommend floor stays as it was.",
                             Example("relctl rollout cancel --platform ios", "Something is wrong with the staged version: ask nobody to take it."))
    static let resume = step(.resume, "Resume a halted rollout from the step it was halted at.",
                             "The step in force when it was halted keeps the time it had left; the later steps move by the time spent halted.",
                             Example("relctl rollout resume --platform ios", "Go on widening the iOS rollout."))
    static let finish = step(.finish, "Finish a rollout: every install below the staged version is asked to update.",
                             "The staged version becomes the platform's recommend floor, in every file.",
                             Example("relctl rollout finish --platform all", "Ask every install below the staged version, on every platform."))

    /// Each platform's rollout, as `rollout show --json` prints it.
    static func json(_ platforms: [PlatformRecord], at t: Int64) -> JSON {
        .object(["platforms": .array(platforms.map { p in
            .object(["platform": .string(p.name), "recommend": p.recommend?.json ?? .null, "rollout": p.rollout.map { json($0, at: t) } ?? .null])
        })])
    }

    static func json(_ r: Rollout, at t: Int64) -> JSON {
        let state = r.haltedAt != nil ? "halted" : r.isComplete(at: t) ? "complete" : "rolling"
        return .object([
            "version": .string(r.floor.version.text), "build": .optional(r.floor.build), "salt": .string(r.salt), "hash": .string(Rollout.hashName),
            "unit": .int(Rollout.unit), "every": .int(r.every), "start": .time(r.start), "since": .time(r.since), "haltedAt": .time(r.haltedAt),
            "unstaged": .string(r.unstaged.rawValue), "state": .string(state), "basisPoints": .int(r.basisPoints(at: t)),
            "completesAt": .time(r.completesAt),
            "schedule": .array(r.schedule.map { .object(["from": .time($0.from), "basisPoints": .int($0.basisPoints)]) }),
        ])
    }

    static func text(_ p: PlatformRecord, _ inv: Invocation, at: Int64) -> String {
        guard let r = p.rollout else { return "\(p.name): no staged recommend\(p.recommend.map { " (recommend floor \($0.text), every install)" } ?? "")" }
        let now = r.basisPoints(at: at), current = r.step(at: at)
        var lines = ["\(p.name): \(r.floor.text) staged above \(p.recommend.map { "the recommend floor \($0.text)" } ?? "no recommend floor"): \(Rollout.percent(now)) of installs in\(at == inv.now ? " now" : "")"
                     + (r.haltedAt.map { ", halted since \(inv.people($0))" } ?? (r.isComplete(at: at) ? ", every install ('relctl rollout finish' makes it the recommend floor)" : ""))]
        for (i, step) in r.schedule.enumerated() {
            let mark = i == current ? "→" : " "
            let frozen = r.haltedAt.map { step.from > $0 } ?? false
            lines.append("  \(mark) \(Rollout.percent(step.basisPoints).padding(8)) from \(inv.people(step.from))\(frozen ? " (held by the halt)" : "")")
        }
        lines.append("  files that cannot stage: \(r.isComplete(at: at) ? "every install below \(r.floor.text) asked, as in control.json" : r.unstaged == .everyone ? "every install below \(r.floor.text) asked at once (--unstaged everyone)" : "nothing of it until every install is in")")
        lines.append("  salt \(r.salt); an install's bucket: relctl check VERSION --platform \(p.name) --install-id ID")
        return lines.joined(separator: "\n")
    }
}
