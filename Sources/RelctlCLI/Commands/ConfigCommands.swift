import RelctlCore
import RelctlPublish
import RelctlStore

/// `relctl plan` and `relctl apply`: the configuration file (`relctl export`)
/// as the shared truth a team reviews in git, terraform's way: plan says what
/// applying the file would change, row by row and for users now and at each
/// coming transition; apply makes each project the file names hold what it
/// says, in one transaction, one log entry per project changed.
enum ConfigCommands {
    static let file: Argument = Argument("FILE", help: "A configuration file as 'relctl export' writes it ('-' for standard input).", completion: .file)

    static let plan: RunnableCommand = RunnableCommand(
        "plan", abstract: "Say what applying a configuration file would change, and what users would see.",
        discussion: "Tries the file against the database and rolls it back: lists the rows it would add (+), change (~, each field before → after) and remove (-), project by project, and the impact on users now and at each coming transition, as every change's preview does. Ends with the command that applies exactly this plan: 'relctl apply FILE --expect TOKEN' refuses if the database or the file changed since. With -p, only that project of the file. The configuration in the database is not changed: plan, apply and approve only note there which projects already hold what the file says (those without a window still to end, and without warnings), so that the next reads only the projects whose part of the file or of the database changed since. Without a database, the plan is made against an empty one.",
        arguments: [file],
        options: [Option("exit-code", help: "Exit with \(ExitStatus.changes) when the file would change something, 0 when the database already matches, as 'terraform plan -detailed-exitcode' does; no error exits \(ExitStatus.changes), so CI can tell changes from a broken file or database."),
                  endActive],
        examples: [Example("relctl plan shop.relctl.json", "What applying shop.relctl.json would change, and for whom."),
                   Example("relctl plan fleet.relctl.json --exit-code", "In CI: exit \(ExitStatus.changes) when the database differs from the file, 1 or 2 on an error.")]
    ) { inv in
        let file = try read(inv)
        let path = file.path
        // No database yet: the plan is made against an empty one, as terraform plans from empty state.
        let (applied, trial, token) = try plannedWithToken(inv, file)
        guard let trial else {
            let unchanged = applied.map { p in
                JSON.object(["project": .string(p.slug), "status": .string("unchanged"), "rows": .array([]), "warnings": .array(p.warnings.map { .string($0) })]) }
            // A plan of no change has its token too: CI applies the plan reviewed, whatever it was.
            inv.render(.object(["file": .string(path), "changes": .bool(false), "expect": .string(token()), "projects": .array(unchanged), "impact": .array([])])) {
                "no changes: the database already holds what \(path) says (\(Suggest.few(applied.map(\.slug))))\n"
                    + applied.flatMap { p in p.warnings.map { "warning: \(p.slug): \($0)\n" } }.joined()
                    + "apply exactly this plan with: relctl apply \(PastedHints.quoted(path)) --expect \(token())\n"
            }
            return
        }
        let words = trial.words
        // The token last: asked for once every row is written out (the keys are written sorted).
        inv.render(.object(["file": .string(path), "changes": .bool(true),
                            "projects": .array(trial.result.map { p in
                                .object(["project": .string(p.slug), "status": .string(p.status), "rows": .array(trial.rows[p.rows].map(LogCommand.json)),
                                         "drift": .array(p.drift.map { driftJSON($0, trial.rows) }),
                                         "warnings": .array(p.warnings.map { .string($0) })]) }),
                            "impact": .array(trial.impact.map { .string($0) }), "expect": .string(token())])) {
            // Projects left as they are, in one line: a fleet's plan of one edit said "unchanged" a hundred times.
            let quiet = trial.result.filter { $0.rows.isEmpty && $0.warnings.isEmpty }.map(\.slug)
            var text = quiet.isEmpty ? "" : "unchanged: \(Suggest.few(quiet))\n"
            for p in trial.result where !(p.rows.isEmpty && p.warnings.isEmpty) {
                text += "\(p.slug): \(p.status == "create" ? "created" : p.status)\(p.rows.isEmpty ? "" : " (\(counts(trial.rows[p.rows])))")\n"
                // The rows that take back a change made in the database since the file, apart.
                let apart = Set(p.drift.map(\.index))
                let rows = trial.rows[p.rows].indices.filter { !apart.contains($0) }
                text += rows.prefix(Trial.linesShown).map { "  " + words.line($0) + "\n" }.joined()
                text += driftLines(p, words, inv).map { "  " + $0 + "\n" }.joined()
                if rows.count > Trial.linesShown { text += "  … and \(rows.count - Trial.linesShown) more rows (--json lists every one)\n" }
                text += p.warnings.map { "  warning: \($0)\n" }.joined()
            }
            text += "impact:\n" + trial.impact.map { "  \($0)\n" }.joined()
            text += "apply exactly this plan with: relctl apply \(PastedHints.quoted(path)) --expect \(token())\n"
            return text
        }
        if inv.flag("exit-code") { inv.exitStatus = ExitStatus.changes }
        inv.context.leaveToExit(trial.rows)
    }

    static let apply: RunnableCommand = RunnableCommand(
        "apply", abstract: "Make the database hold what a configuration file says.",
        discussion: "Each project the file names is made to match it — created when missing; its settings, platforms, versions, notes, floors, pins, rules, messages and the active and upcoming maintenance windows as the file has them — in one transaction, with one log entry per project that changed ('relctl undo' takes one back). Projects the file does not name are left alone. A window the file no longer lists is cancelled when it is still to come; one that is on stays on unless --end-active-windows ends it (an on-call's emergency window, started after the file was exported, must not end because CI applied an older file); past windows stay on record. Without a database, apply creates one. The change is shown first (rows and impact) and needs confirmation, or --yes. --expect TOKEN (from 'relctl plan') refuses when the database or the file changed since that plan was made, so two people applying at once never overwrite each other unseen. A file the database already matches changes and logs nothing. With -p, only that project of the file.",
        arguments: [file],
        options: [Option("expect", value: "TOKEN", help: "Apply only if the change is still the one 'relctl plan' showed with this token."),
                  endActive,
                  Option("require-approvals", value: "N", help: "Apply only a plan approved ('relctl approve') by N distinct signers of --allowed-signers."),
                  Option("allowed-signers", value: "FILE", help: "Who may approve: an OpenSSH allowed-signers file (ssh-keygen(1)), kept in the repository.", completion: .file),
                  ApproveCommand.approvals,
                  Option("break-glass", help: "Apply with fewer approvals than --require-approvals asks, logged with --reason; status and verify name it until the approvals are added."),
                  Option("reason", value: "TEXT", help: "Why --break-glass was needed: logged with the apply."),
                  Shared.allowStoreRisk, Shared.dryRun, Shared.yes],
        examples: [Example("relctl apply shop.relctl.json", "Show what the file changes, ask, then make it so."),
                   Example("relctl apply fleet.relctl.json --expect 3f9a0c1b2d4e5f60 --yes", "In CI: apply the plan reviewed, or nothing if anything moved since."),
                   Example("relctl apply shop.relctl.json --require-approvals 2 --allowed-signers allowed_signers --yes", "In CI: apply only what two people approved, exactly as it is.")]
    ) { inv in
        // A misuse is said before any file or database is read.
        let required = try requiredApprovals(inv)
        let file = try read(inv)
        // No database yet: it is created (a dry run tries an empty one in memory), and removed
        // again when nothing was applied, once the store that made it is gone: only by the
        // process that made it, and only while nothing else has written to it.
        let creating = Store.isMissing(inv.dbPath) && !inv.dryRun
        var created = false, applied = false
        do {
            try apply(inv, file, required: required, creating: creating, created: &created, applied: &applied)
        } catch {
            if created && !applied { Store.removeIfUnused(inv.dbPath, user: inv.context.user) }
            throw error
        }
    }

    static func apply(_ inv: Invocation, _ file: Source, required: (Int, String)?, creating: Bool, created: inout Bool, applied: inout Bool) throws {
        let (path, bytes) = (file.path, file.bytes)
        let store = Store.isMissing(inv.dbPath) && inv.dryRun ? try Store.empty(user: inv.context.user, now: inv.now) : try inv.store(creating ? .create : .write)
        if creating { created = try store.initialise(now: inv.now) }
        try store.cachePages(megabytes: fleetCache)
        // One instant for the trial, the question and the write: the rows shown are the rows made.
        let now = inv.now
        let expected = inv.value("expect")
        // Set when the plan is applied with fewer approvals than required (--break-glass), before the write that records it.
        var glass: BreakGlass? = nil
        var vet: (([RowChange]) throws -> Void)? = nil
        if expected != nil || required != nil {
            // The file's part of the token, hashed on the other core while the change is made.
            let digest = SHA256.Pending(bytes)
            vet = { rows in
                let current = expectToken(digest, rows)
                if let token = expected, current != token {
                    throw RelctlError.failure("the change is no longer the plan \(token): the database or \(path) changed since (its token is now \(current)); nothing was applied",
                                              hint: "see it again with: relctl plan \(PastedHints.quoted(path))")
                }
                guard let (count, signers) = required, !rows.isEmpty else { return }
                let folder = Approvals.folder(path, given: inv.value("approvals"))
                let (approved, refused) = try Approvals.principals(inv, token: current, folder: folder, signers: signers)
                guard approved.count < count else { return }
                let found = "\(approved.count) of the \(count) approvals it needs" + (approved.isEmpty ? "" : " (\(approved.joined(separator: ", ")))")
                guard inv.flag("break-glass") else {
                    throw RelctlError.failure("the plan \(current) of \(path) has \(found)\(refused.isEmpty ? "" : "; refused: " + refused.prefix(3).joined(separator: "; ")); nothing was applied",
                                              hint: "each approver runs 'relctl approve \(PastedHints.quoted(path)) --key KEY' and commits \(folder); or, in an emergency, --break-glass --reason TEXT")
                }
                glass = BreakGlass(token: current, at: now, user: inv.context.user, reason: inv.value("reason")!, required: Int64(count),
                                   approvals: folder, signers: signers)
            }
        }
        var asking = Invocation.Asking<[Applied]>(what: "applying \(path)", vet: vet)
        asking.remade = { glass != nil }
        asking.apart = { applied, rows, words in (Set(applied.flatMap { $0.drift.map(\.index) }), applied.flatMap { driftLines($0, words, inv) }) }
        // Asked first, the change is made again after the question: the file is read again then.
        let outcome = try inv.write(store, projects: file.slugs, asking: asking) {
            try write(file, $0, endingActive: inv.flag("end-active-windows"), breakGlass: glass, now: now)
        }
        applied = true
        if !inv.dryRun { noteHeld(store, outcome, file, now: now) }
        if created { inv.info("created \(inv.dbPath)") }
        // Said once the apply is made (or, in a dry run, would be), never for one refused or cancelled.
        if let glass {
            inv.warn("break-glass: \(inv.dryRun ? "would apply" : "applied") the plan \(glass.token) with fewer than its \(glass.required) approvals: \(glass.reason)")
        }
        for p in outcome { for w in p.warnings { inv.warn("\(p.slug): \(w)") } }
        let changed = outcome.filter { $0.status != "unchanged" }
        try inv.printWritten {
            .object(["file": .string(path), "projects": .array(outcome.map { .object(["project": .string($0.slug), "status": .string($0.status)]) })])
        }
        if changed.isEmpty {
            inv.info("the database already holds what \(path) says")
        } else {
            let verb = inv.dryRun ? "would apply" : "applied"
            // A fleet's file is said in counts, each with a few of its projects.
            let said = outcome.count <= 4 ? outcome.map { "\($0.slug) \($0.status == "create" ? "created" : $0.status)" }
                : [("create", "created"), ("changed", "changed"), ("unchanged", "unchanged")].compactMap { status, word in
                    let slugs = outcome.filter { $0.status == status }.map(\.slug)
                    return slugs.isEmpty ? nil : "\(slugs.count) \(word) (\(Suggest.few(slugs)))"
                }
            inv.info("\(verb) \(path): " + said.joined(separator: ", "))
        }
    }

    /// The file tried against the database (an empty one when there is
    /// none yet) and rolled back: what each project would be, and the trial
    /// (nil: no change). One instant for the whole plan: a window it ends or
    /// cancels is ended or cancelled then. `made` is handed the rows once all
    /// are made, before the trial words them (none: no change).
    static func planned(_ inv: Invocation, _ file: Source, made: ([RowChange]) -> Void) throws -> ([Applied], Trial?) {
        let missing = Store.isMissing(inv.dbPath)
        let store = missing ? try Store.empty(user: inv.context.user, now: inv.now) : try inv.store(.write)
        if missing { inv.info("no database at \(inv.dbPath): planned against an empty one ('relctl apply' creates it)") }
        try store.cachePages(megabytes: fleetCache)
        let slugs = file.slugs
        // Dropped once seen: the rows it makes are read, not logged (Session.forPreview).
        let session = try store.session(forPreview: true)
        // A plan shows what the stores do not serve; apply refuses it (unless allowed).
        session.allowStoreRisk = true
        defer { session.drop() }
        let before = try inv.before(store, slugs)
        let applied = try write(file, session, endingActive: inv.flag("end-active-windows"), now: inv.now)
        // The rows are all made: the trial's (none when it is nil).
        made(session.rows)
        var trial = try inv.trial(applied, session, slugs, before: before)
        let (risks, unchecked) = Invocation.storeLines(session.storeNotes, risk: "apply refuses this without --allow-store-risk: ")
        if let impact = trial?.impact { trial?.impact = risks + impact }
        for line in unchecked { inv.info(line) }
        session.drop()
        if !missing { noteHeld(store, applied, file, now: inv.now) }
        return (applied, trial)
    }

    /// The same, with its token (`expectToken`), to be asked for where it is said, last: worked
    /// out on another core while this one makes the plan and words it, the file's part as soon
    /// as it is read, the rows' once they are made (none: the file's alone, as for no change).
    static func plannedWithToken(_ inv: Invocation, _ file: Source) throws -> ([Applied], Trial?, () -> String) {
        let digest = SHA256.Pending(file.bytes)
        let (applied, trial) = try planned(inv, file) { rows in digest.then { hashRows(rows, into: &$0) } }
        return (applied, trial, { String(digest.state().finish().prefix(16)) })
    }

    /// The page cache of a plan, apply or approve (Store.cachePages): a first plan of 1,000 projects
    /// 13.7–15.0 → 13.5–15.7 s (medians 14.2 → 13.7), its system time 1.7–2.1 → 0.8–0.9 s;
    /// 32 MiB more memory. At 100 projects, no change.
    static let fleetCache = 32

    /// Notes the projects found holding their part of the file (ConfigSeen),
    /// so that the next plan leaves them unread. Only a hint: a note that
    /// cannot be written (a busy or full disk) costs the next plan time, never a wrong answer.
    static func noteHeld(_ store: Store, _ applied: [Applied], _ file: Source, now: Int64) {
        let held = applied.filter { $0.held != nil }
        guard !held.isEmpty else { return }
        let bytes = file.bytes
        var ranges: [String: Range<Int>] = [:]
        for p in file.sections.projects { ranges[p.slug] = p.range }
        // A fleet's first plan notes every project: their 60 MB hashed on every core.
        let digests = Parallel.map(held.count, ParallelRender.everyCore) { i in ranges[held[i].slug].map { ConfigSections.digest(bytes, $0) } }
        let notes = zip(held, digests).compactMap { a, digest in
            digest.map { ConfigSeen.Note(slug: a.slug, stamp: a.held!.stamp, digest: $0, lineage: a.held!.lineage, edited: a.held!.edited) }
        }
        try? store.noteConfigSeen(notes, now: now)
    }

    /// What the write did to one project: its status, its rows among the trial's, what the state breaks.
    struct Applied {
        var slug: String
        /// "create", "changed" or "unchanged".
        var status: String
        var rows: Range<Int>
        var warnings: [String]
        /// Its rows that take back a change made in the database since the file.
        var drift: [Drift] = []
        /// Set when the project was read and found holding what the file says: nothing changed
        /// or said of it. Its edit stamp then, and the histories its part of the file brings.
        var held: Held? = nil

        struct Held { var stamp: Int64?; var lineage: [String: [Int64]]; var edited: Set<String> }
    }

    /// The drift of one project, for people: a heading, then each row with the change it takes back.
    static func driftLines(_ p: Applied, _ words: ChangeWords, _ inv: Invocation) -> [String] {
        guard !p.drift.isEmpty else { return [] }
        return ["changed in the database since the file was exported or applied; applying takes \(p.drift.count == 1 ? "it" : "them") back:"]
            + p.drift.map { d in
                let cause = d.entry.map { "#\($0.id) \($0.action), by \($0.user) \(inv.people($0.at))" } ?? "by hand"
                return "  " + words.line(d.index) + " (\(d.alsoInFile ? "edited in the file too; " : "")\(inv.people(in: cause)))"
            }
    }

    static func driftJSON(_ d: Drift, _ rows: [RowChange]) -> JSON {
        .object(["row": LogCommand.json(rows[d.index]), "editedInFile": .bool(d.alsoInFile),
                 "entry": d.entry.map { .object(["id": .int($0.id), "at": .time($0.at), "user": .string($0.user), "action": .string($0.action)]) } ?? .null])
    }

    /// Every project of the file, in slug order, in the session: a
    /// project that fails leaves none applied. The file's `removed`: the histories of
    /// projects it lists as removed, taken for those the database does not hold.
    /// A project is read as it is taken, and let go once it is (a fleet's
    /// file); one is left unread when the database holds its part of the
    /// file already (ConfigSeen, read here under the session's lock): unchanged.
    static func write(_ file: Source, _ session: Session, endingActive: Bool = false, breakGlass: BreakGlass? = nil, now: Int64) throws -> [Applied] {
        let store = session.store
        let seen = try store.configSeen(now: now).filter { file.only == nil || $0.key == file.only }
        let unread = ConfigFormat.unread(file.bytes, file.sections, known: seen.mapValues(\.digest), forEach: ParallelRender.everyCore).sorted()
        var out: [Applied] = []
        // Read once, before any project: a window takes its file id when no app can have seen it.
        let windowsGiven = try store.lastWindowID()
        // Unread projects are taken between those read, in slug order: their rows are as the file says;
        // their histories are read, and those the file brings taken, as a read's would be.
        var nextUnread = 0
        func takeUnread(before slug: String?) throws {
            while nextUnread < unread.count, slug.map({ unread[nextUnread] < $0 }) ?? true {
                let slug = unread[nextUnread], noted = seen[slug]!
                nextUnread += 1
                if !(noted.lineage.isEmpty && noted.edited.isEmpty) {
                    try session.adoptLineage(slug, chains: noted.lineage, edited: noted.edited)
                } else {
                    _ = try store.lineage(project: slug)
                }
                out.append(Applied(slug: slug, status: "unchanged", rows: session.rows.count..<session.rows.count, warnings: []))
            }
        }
        // The time zones this machine must know are said after the file's problems and before the
        // database's, in slug order, those of unread projects too.
        let unknownZone = unread.first { (try? checkZone(file, $0, seen[$0]!.timeZone)) == nil }
        var zoneSaid = false
        func zone(_ slug: String, _ zone: String) throws {
            do { try checkZone(file, slug, zone) } catch { zoneSaid = true; throw error }
        }
        var removed: [String: [String: [Int64]]]
        do {
            removed = try ConfigFormat.readFile(file.bytes, cut: file.sections, forEach: ParallelRender.everyCore, ahead: Parallel.ahead, skipping: Set(unread), only: file.only,
                                                check: { p in
                                                    if let slug = unknownZone, slug < p.slug { try zone(slug, seen[slug]!.timeZone) }
                                                    try zone(p.slug, p.snapshot.project.timeZone)
                                                }) { p in
                try takeUnread(before: p.slug)
                out.append(try write(p, session, endingActive: endingActive, breakGlass: breakGlass, windowsGiven: windowsGiven, now: now))
            }
        } catch let problem as ImportProblem {
            throw cannotApply(file.path, problem)
        } catch where !zoneSaid && unknownZone != nil {
            // The database refused a project: an unread project's zone, after every read one, comes first.
            try zone(unknownZone!, seen[unknownZone!]!.timeZone)
            throw error
        }
        if let slug = unknownZone { try zone(slug, seen[slug]!.timeZone) }
        try takeUnread(before: nil)
        // -p as typed: RELCTL_PROJECT, set for everyday commands, does not narrow a file.
        if let slug = file.only {
            let all = file.sections.projects.map(\.slug).sorted()
            guard all.contains(slug) else {
                throw RelctlError.usage("\(file.path) has no project '\(slug)'\(Suggest.didYouMean(slug, all))",
                                        hint: "it has \(all.isEmpty ? "none" : Suggest.few(all))")
            }
            removed = [:]
        }
        guard !out.isEmpty else {
            throw RelctlError.failure("\(file.path) names no project", hint: "export one with: relctl export -p SLUG -o \(PastedHints.quoted(file.path))")
        }
        for (slug, chains) in removed.sorted(by: { $0.key < $1.key }) where try store.project(slug: slug) == nil {
            try session.adoptLineage(slug, chains: chains)
        }
        if let breakGlass, !session.rows.isEmpty { try session.recordBreakGlass(breakGlass) }
        return out
    }

    /// One project read from the file, made so in the session.
    static func write(_ p: ConfigProject, _ session: Session, endingActive: Bool, breakGlass: BreakGlass?, windowsGiven: Int64, now: Int64) throws -> Applied {
        let store = session.store
        let existed = try store.project(slug: p.slug) != nil
        let (rows, logged) = (session.rows.count, session.entries.count)
        let (histories, lastEntry) = (try store.lineage(project: p.slug)[p.slug] ?? [:], try store.lastAuditID())
        let made = try session.applyConfig(p, windowsGiven: windowsGiven, endingActiveWindows: endingActive,
                                           note: breakGlass.map { "break-glass, \($0.required) approvals needed: \($0.reason)" }, now: now)
        let changed = session.entries.count > logged
        // What the file knows of parts this change did not touch, even when it touched none.
        try session.adoptLineage(p.slug, chains: p.lineage, edited: p.edited, windows: made.renumbered)
        var applied = Applied(slug: p.slug, status: !changed ? "unchanged" : existed ? "changed" : "create", rows: rows..<session.rows.count,
                              warnings: (changed ? made.warnings : []) + made.keptWindows.map {
                                  "maintenance window #\($0) is on and the file does not list it: it stays on (--end-active-windows ends it now)" },
                              drift: try session.drift(session.rows[rows..<session.rows.count], of: p, histories: histories, logged: lastEntry,
                                                       windows: made.renumbered))
        // A window still to end is matched by rules that read other projects' window ids, which no
        // stamp of this project follows: a project with one is read in full each time.
        if !changed, applied.warnings.isEmpty, p.snapshot.windows.allSatisfy({ $0.isOver(at: now) }), let id = try store.project(slug: p.slug)?.id {
            applied.held = Applied.Held(stamp: try store.editStamp(project: id), lineage: p.lineage, edited: p.edited)
        }
        return applied
    }

    /// A project's time zone, checked as the file is read.
    static func checkZone(_ file: Source, _ slug: String, _ zone: String) throws {
        do { try ZoneOffsets.check(zone) } catch let e as InputError {
            throw RelctlError.failure("cannot apply \(file.path): projects.\(slug).timeZone: \(e.message)", hint: "install the zone database (tzdata), or set the time zone to UTC")
        }
    }

    static func cannotApply(_ path: String, _ problem: ImportProblem) -> RelctlError {
        RelctlError.failure("cannot apply \(path): \(problem.message)", hint: "fix the file (schema/config.schema.json describes it); 'relctl export' prints what the database holds, to compare")
    }

    typealias Trial = Invocation.Trial<[Applied]>

    /// --require-approvals N and its --allowed-signers, checked before anything is read; nil when none are required.
    static func requiredApprovals(_ inv: Invocation) throws -> (Int, String)? {
        if inv.flag("reason") && !inv.flag("break-glass") { throw RelctlError.usage("--reason goes with --break-glass", hint: "add --break-glass, or leave out --reason") }
        guard let text = inv.value("require-approvals") else {
            if inv.flag("break-glass") || inv.flag("allowed-signers") {
                throw RelctlError.usage("--\(inv.flag("break-glass") ? "break-glass" : "allowed-signers") goes with --require-approvals N", hint: "add --require-approvals N")
            }
            return nil
        }
        guard let n = Int(text), (1...100).contains(n) else { throw RelctlError.usage("invalid --require-approvals '\(text)'", hint: "give a number of approvers from 1 to 100") }
        guard let signers = inv.value("allowed-signers") else {
            throw RelctlError.usage("--require-approvals needs --allowed-signers FILE", hint: "give the allowed-signers file that lists who may approve")
        }
        if inv.flag("break-glass"), (inv.value("reason") ?? "").trimmingSpaces().isEmpty {
            throw RelctlError.usage("--break-glass needs --reason TEXT", hint: "say why, like --reason \"outage: payments down\"")
        }
        return (n, signers)
    }

    static let endActive = Option("end-active-windows", help: "End now the maintenance windows that are on and that the file does not list. Without it they stay on: most likely an on-call's emergency window, started after the file was exported.")

    /// A configuration file as plan and apply take it: its bytes, cut at
    /// its projects, each read as the write takes it (`write`).
    struct Source {
        var path: String
        var bytes: [UInt8]
        var sections: ConfigSections
        /// -p as typed: only that project of the file (RELCTL_PROJECT, set for everyday commands, does not narrow a file).
        var only: String?
        /// The projects the write takes, in slug order, known before any is read.
        var slugs: [String] { only.map { [$0] } ?? sections.projects.map(\.slug).sorted() }
    }

    static func read(_ inv: Invocation) throws -> Source {
        let path = inv.arg("FILE")!
        // A fleet's file is larger than the files import takes.
        let bytes = path == "-" ? try inv.context.readStdin() : try FileSystem.readFile(path, limit: 1 << 30)
        guard let sections = ConfigSections(bytes) else {
            // Not a document of projects: the whole read says what is wrong with it (cut, a document it reads is).
            do { _ = try ConfigFormat.readFile(bytes, forEach: Parallel.serial) } catch { throw cannotApply(path, error) }
            throw RelctlError.failure("cannot apply \(path): it could not be cut at its projects, yet it can be read whole; please report it (relctl's reads disagree)")
        }
        return Source(path: path, bytes: bytes, sections: sections, only: inv.parsed.values["project"]?.last)
    }

    /// Names one plan: the file, and every row it changes as it was before.
    /// What it makes of them follows from those (and the instant, which is
    /// not part of the plan: a window it ends is ended when it is applied).
    /// The file's part is begun on another core (SHA256.Pending), and hashed where it is: a
    /// copy to append the rows to was 60 MB for a fleet.
    static func expectToken(_ file: SHA256.Pending, _ rows: [RowChange]) -> String {
        var hasher = file.state()
        hashRows(rows, into: &hasher)
        return String(hasher.finish().prefix(16))
    }

    /// What the token hashes after the file.
    private static func hashRows(_ rows: [RowChange], into hasher: inout SHA256.Hasher) {
        // Each row is `[table,key,before]` as `JSON.writeCompact` writes it, in place: an
        // array made of them to be written was most of the token of an apply into an empty
        // database (850,000 rows). Hashed 64 KiB at a time, not gathered whole (38 MB for a
        // fleet). The bytes must not change: approvals sign the token.
        var more: [UInt8] = []
        more.reserveCapacity(Self.tokenPiece)
        for row in rows {
            more += "\n[".utf8
            JSON.quoteBytes(row.table, into: &more)
            more.append(UInt8(ascii: ","))
            JSON.array(row.key).writeCompact(to: &more)
            more.append(UInt8(ascii: ","))
            if let before = row.before { JSON.object(before).writeCompact(to: &more) } else { more += "null".utf8 }
            more.append(UInt8(ascii: "]"))
            if more.count >= Self.tokenPiece {
                hasher.update(more)
                more.removeAll(keepingCapacity: true)
            }
        }
        hasher.update(more)
    }

    private static let tokenPiece = 1 << 16

    static func counts(_ rows: ArraySlice<RowChange>) -> String {
        // Counted, not filtered: a filter copied each of an apply's 850,000 rows twice.
        var added = 0, removed = 0
        for row in rows {
            if row.before == nil { added += 1 }
            if row.after == nil { removed += 1 }
        }
        return "\(rows.count) row\(rows.count == 1 ? "" : "s"): \(added) added, \(rows.count - added - removed) changed, \(removed) removed"
    }
}
