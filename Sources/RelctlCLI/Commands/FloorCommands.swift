import RelctlCore
import RelctlStore

/// `relctl force` and `relctl recommend`: the floors below which versions
/// must or should update.
enum FloorCommands {
    static let build: Option = Shared.build("With a version equal to the floor, builds below N are below the floor too.")
    static let clear: Option = Option("clear", help: "Remove the floor.")
    static let allowLockout: Option = Option("allow-lockout", help: "Set the floor even though devices on some OS cannot install any version at or above it.")
    static let floorArgument: Argument = Argument("VERSION", help: "The floor: versions below it are affected.", optional: true,
                                                  completion: .dynamic(.versions))

    static let force: RunnableCommand = RunnableCommand(
        "force", abstract: "Make every version below VERSION update (required update).",
        discussion: "Refused when no released version at or above VERSION exists on the platform, since users would be sent to an update they cannot install; --allow-unreleased overrides that with a warning. Refused too when devices on some OS cannot install any release at or above VERSION (its minimum OS is above theirs): apps that cannot tell the OS would block them with nothing to install; the refusal names the OS bands and the highest floor every OS reaches, and --allow-lockout overrides it (check --os, Prince of Versions, the appcast and control.json then offer those devices the newest version they can install). With --after or --deadline the update is optional until the deadline, with a message naming it ({deadline}), and required from it on; check, status and every published file change at that instant, and publish names it as a next change. Without VERSION, --after/--deadline move the deadline of the current floor and --no-deadline ends the grace period at once; --clear cancels the floor.",
        arguments: [floorArgument],
        options: [Shared.platforms, build, Option("allow-unreleased", help: "Set the floor even though no released version reaches it."), allowLockout, Shared.allowStoreRisk,
                  Option("after", value: "DURATION", help: "Required only after this grace period, like 7d, 36h or 90m; optional until then."),
                  Option("deadline", value: "TIME", help: "Required from this instant on, optional until then: " + TimeInput.forms + "."),
                  Option("no-deadline", help: "Make the current force floor required at once (drop its deadline)."), clear, Shared.dryRun, Shared.yes,
                  // Said, not unknown: why a force is never staged.
                  Option("rollout", value: "PERCENTS", help: "Refused: a force is never staged (stage a recommend).", hidden: true)],
        examples: [Example("relctl force 2.0 --platform ios", "Everything below 2.0 on iOS must update."),
                   Example("relctl force 2.0.1 --platform all", "A security fix: everything below 2.0.1 must update, on every platform."),
                   Example("relctl force 2.0 --platform all --after 7d", "Below 2.0: optional now, required in 7 days."),
                   Example("relctl force 2.0 --deadline \"2026-12-20 09:00\" --platform ios", "Below 2.0 on iOS: optional now, required from 20 December 09:00 local time."),
                   Example("relctl force --clear --platform ios", "Remove the iOS force floor.")]
    ) { inv in try setFloor(inv, kind: .force) }

    static let recommend: RunnableCommand = RunnableCommand(
        "recommend", abstract: "Ask every version below VERSION to update (optional update).",
        discussion: "Refused when VERSION is above the newest released version on the platform, and when devices on some OS cannot install any release at or above it (--allow-lockout overrides that).",
        arguments: [floorArgument],
        options: [Shared.platforms, build, allowLockout, Shared.allowStoreRisk,
                  Option("rollout", value: "PERCENTS", help: "Stage it: ask this share of installs first, widening step by step, like 1,5,20,100 (percent of installs), or phased (Apple's seven days: 1,2,5,10,20,50,100). Installs outside keep the recommend floor they had.",
                         suggested: ["phased", "1,5,20,100", "10"]),
                  Option("every", value: "DURATION", help: "How long each step of --rollout lasts (default 1d), like 12h or 2d."),
                  Option("unstaged", value: "WHAT", help: "What files that cannot stage (Retired, AndVersion, Siren, Prince of Versions, the appcast) say until the rollout reaches every install: withhold (the default) or everyone.",
                         allowed: Rollout.Unstaged.allCases.map(\.rawValue)),
                  clear, Shared.dryRun, Shared.yes],
        examples: [Example("relctl recommend 2.1 --platform android", "Everything below 2.1 on Android should update."),
                   Example("relctl recommend 2.1 --rollout 1,5,20,100 --every 1d --platform ios", "Ask 1 % of installs below 2.1 today, 5 % tomorrow, then 20 %, then everyone."),
                   Example("relctl recommend 2.1 --rollout phased --platform all", "Apple's phased schedule: 1 %, 2 %, 5 %, 10 %, 20 %, 50 %, 100 %, a day each.")]
    ) { inv in try setFloor(inv, kind: .recommend) }

    /// `--rollout`, `--every` and `--unstaged`, checked together (nil: no rollout).
    static func stagedRequest(_ inv: Invocation) throws -> RolloutRequest? {
        guard let text = inv.value("rollout") else {
            for name in ["every", "unstaged"] where inv.flag(name) {
                throw RelctlError.usage("--\(name) belongs to a staged recommend",
                                        hint: "add --rollout, like 'relctl recommend \(inv.arg("VERSION") ?? "2.1") --rollout 1,5,20,100 --\(name) \(inv.value(name)!)'")
            }
            return nil
        }
        if inv.flag("clear") { throw RelctlError.usage("--clear removes the recommend floor and any rollout", hint: "run 'relctl recommend --clear' alone") }
        let steps = text == "phased" ? Rollout.defaultSteps : try Rollout.parseSteps(text)
        if steps.first == Rollout.unit {
            throw RelctlError.usage("a rollout that starts at 100 % asks every install at once", hint: "that is a plain recommend: 'relctl recommend \(inv.arg("VERSION") ?? "2.1")' (for one already staged, relctl rollout finish)")
        }
        let every = try inv.value("every").map(Time.parseDuration) ?? Rollout.defaultEvery
        guard Rollout.everyRange.contains(every) else {
            throw RelctlError.usage("a rollout step of \(inv.value("every")!) is outside 1 minute to 366 days", hint: "give a length like 12h, 1d or 7d")
        }
        let unstaged = inv.value("unstaged").flatMap(Rollout.Unstaged.init)
        let any = Floor(version: try Version("1"), build: nil)
        do { _ = try Rollout(floor: any, salt: Rollout.newSalt(), steps: steps, every: every, start: inv.now) }
        catch { throw RelctlError.usage("--rollout \(text): \(error.message)", hint: "give rising percentages ending where it should stop, like 1,5,20,100") }
        return RolloutRequest(steps: steps, every: every, unstaged: unstaged, salts: [:])
    }

    static func setFloor(_ inv: Invocation, kind: Session.FloorKind) throws {
        let word = kind.rawValue
        let clearing = inv.flag("clear")
        let deadlineOptions = ["after", "deadline", "no-deadline"].filter(inv.flag)
        if deadlineOptions.count > 1 {
            throw RelctlError.usage("--\(deadlineOptions[0]) and --\(deadlineOptions[1]) both set the deadline", hint: "give one of them")
        }
        if clearing && !deadlineOptions.isEmpty {
            throw RelctlError.usage("--clear removes the floor and its deadline", hint: "run 'relctl force --clear' alone")
        }
        if !deadlineOptions.isEmpty && inv.arg("VERSION") == nil {
            if inv.flag("build") || inv.flag("allow-unreleased") || inv.flag("allow-lockout") {
                throw RelctlError.usage("moving a deadline keeps the floor as it is", hint: "give VERSION to set a new floor, like 'relctl force 2.0 --after 7d'")
            }
            try moveDeadline(inv)
            return
        }
        if inv.flag("no-deadline") {
            throw RelctlError.usage("--no-deadline takes no VERSION", hint: "a floor without --after or --deadline is required at once: run 'relctl force \(inv.arg("VERSION")!)'")
        }
        if clearing && (inv.arg("VERSION") != nil || inv.flag("build")) {
            throw RelctlError.usage("--clear takes no version or build", hint: "run 'relctl \(word) --clear' alone")
        }
        if !clearing && inv.arg("VERSION") == nil {
            throw RelctlError.usage("missing VERSION", hint: "give the floor, like 'relctl \(word) 2.0', or --clear to remove it")
        }
        if kind == .force, inv.flag("rollout") {
            throw RelctlError.usage("a force is never staged: a required update that users cannot all receive yet locks the others out",
                                    hint: "stage a recommend ('relctl recommend \(inv.arg("VERSION") ?? "VERSION") --rollout 1,5,20,100'), and force once it reaches everyone")
        }
        var staged = kind == .recommend ? try stagedRequest(inv) : nil
        let deadline = try deadline(inv)
        let floor = try inv.arg("VERSION").map { Floor(version: try Version($0), build: try inv.value("build").map(parseBuild), deadline: deadline) }
        let (store, project, platforms) = try inv.targets()
        for p in platforms { staged?.salts[p.id] = Rollout.newSalt() }
        var moves = platforms.compactMap { p in
            staged == nil ? Impact.floorMove(word, platform: p.name, from: kind == .force ? p.force : p.recommend, to: floor) : nil
        }
        // What staging does on each platform, as Session.stage decides it: said before, not guessed after.
        let plans = staged.map { staged in platforms.map { p in floor.map { StagePlan($0, staged, on: p, at: inv.now) } ?? .new } } ?? []
        if let staged, let floor {
            let schedule = Rollout.scheduleWords(steps: staged.steps, every: staged.every, start: inv.now, people: inv.people)
            for (p, plan) in zip(platforms, plans) {
                switch plan {
                // Refused by the write itself, which says why.
                case .unchanged, .blocked, .finished: continue
                case .reschedule(let old):
                    moves.append("re-schedules the rollout of \(floor.text) on \(p.name), who is in staying in\(old.haltedAt != nil ? ", and ends its halt" : ""): \(schedule)")
                case .foldThenNew(let done):
                    moves.append("makes \(done.text), which every install of \(p.name) is asked for, its recommend floor, then stages \(floor.text): \(schedule)")
                case .new:
                    moves.append("stages the recommend \(floor.text) on \(p.name) (\(p.recommend.map { "above its recommend floor \($0.text)" } ?? "no recommend floor")): \(schedule)")
                }
            }
        } else if kind == .recommend {
            for p in platforms { if let r = p.rollout { moves.append("ends the rollout of \(r.floor.text) on \(p.name) (\(Rollout.percent(r.basisPoints(at: inv.now))) of installs now)") } }
        }
        let reached = try inv.write(store, project, asking: floor.map { staged == nil ? "the \(word) floor \($0.text)" : "a staged recommend of \($0.text)" } ?? "clearing the \(word) floor", moves: moves) { s in
            try s.setFloor(kind, of: platforms, in: project, to: floor, allowUnreleased: inv.flag("allow-unreleased"), allowLockout: inv.flag("allow-lockout"), staged: staged, now: inv.now)
        }
        for p in platforms where kind == .force {
            if let d = p.force?.deadline, d > inv.now, let floor, floor.deadline == nil {
                inv.warn("\(p.name): this drops the deadline of \(p.force!.text) (\(inv.people(d))): versions below \(floor.text) must update at once; to keep a grace period, add --after or --deadline")
            }
        }
        if let floor, staged != nil {
            // Staged after the outdated rules already offer it: the rollout moves only the floor.
            let snapshot = try store.read { try store.snapshot(project) }
            for (p, plan) in zip(platforms, plans) where plan.isNew {
                if let a = snapshot.newestAnnounced(p, at: inv.now), !Release.isBelow(a.release, floor.release) {
                    inv.warn("\(p.name): \(a.version.text) is already offered to every older install by the outdated rules (announced since \(inv.people(a.releasedAt! + snapshot.delaySeconds))): the rollout changes who is asked by the floor, not who is offered \(a.version.text)")
                }
            }
        }
        for (p, reached) in zip(platforms, reached) {
            if let floor, !reached {
                inv.warn("no released version of \(p.name) is at or above \(floor.text): users below it are forced to an update they cannot install yet")
            }
            inv.info(floor.map { f in
                if let d = f.deadline { return "\(p.name): versions below \(f.text) should update now and must from \(inv.people(d))" }
                if let staged {
                    if let i = platforms.firstIndex(where: { $0.id == p.id }), case .unchanged = plans[i] { return "\(p.name): the rollout of \(f.text) is staged as asked already: unchanged" }
                    return "\(p.name): installs below \(f.text) should update: \(Rollout.scheduleWords(steps: staged.steps, every: staged.every, start: inv.now, people: inv.people))"
                }
                return "\(p.name): versions below \(f.text) \(kind == .force ? "must" : "should") update"
            } ?? "cleared the \(word) floor of \(p.name)")
        }
        if floor?.deadline != nil { inv.noteMessageZone(project) }
        try inv.printWritten { try PolicyCommands.document(store, platforms, project: project) }
    }

    /// The deadline of --after or --deadline: a future instant.
    static func deadline(_ inv: Invocation) throws -> Int64? {
        if let d = inv.value("after") {
            return try Time.adding(try Time.parseDuration(d), to: inv.now, what: "a deadline --after \(d)")
        }
        guard let text = inv.value("deadline") else { return nil }
        let t = try inv.futureTime(text)
        guard t > inv.now else {
            throw RelctlError.usage("the deadline \(Time.format(t)) is not in the future",
                                    hint: "give a later time, or leave out --deadline for a floor that is required at once")
        }
        return t
    }

    /// `relctl force --after/--deadline/--no-deadline` without VERSION: the
    /// current force floor with a new deadline (or none: required at once).
    static func moveDeadline(_ inv: Invocation) throws {
        let deadline = try deadline(inv)
        let (store, project, platforms) = try inv.targets()
        for p in platforms where p.force == nil {
            throw RelctlError.usage("\(p.name) has no force floor to move the deadline of", hint: "set one with a deadline, like 'relctl force 2.0 --platform \(p.name) --after 7d'")
        }
        let moves = platforms.compactMap { p in Impact.floorMove("force", platform: p.name, from: p.force, to: p.force.map { var f = $0; f.deadline = deadline; return f }) }
        // Each platform keeps its own floor; one change for them all, so one undo takes it back.
        try inv.write(store, project, asking: deadline == nil ? "dropping the deadline" : "moving the deadline", moves: moves) { s in
            try s.moveDeadline(of: platforms, in: project, to: deadline, now: inv.now)
        }
        for p in platforms {
            // Warned of under -q too: users who had a grace period are forced at once.
            if deadline == nil, let d = p.force?.deadline, d > inv.now {
                inv.warn("\(p.name): this drops the deadline of \(p.force!.text) (\(inv.people(d))): versions below it must update at once")
            }
            let floor = Floor(version: p.force!.version, build: p.force!.build, deadline: deadline)
            inv.info(deadline.map { "\(p.name): versions below \(floor.text) should update now and must from \(inv.people($0))" }
                     ?? "\(p.name): versions below \(floor.text) must update (no deadline)")
        }
        if deadline != nil { inv.noteMessageZone(project) }
        try inv.printWritten { try PolicyCommands.document(store, platforms, project: project) }
    }
}

