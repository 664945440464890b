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
        discussion: "Tries the file against the database and rolls it back: lists the rows it would add (+), change (~, each field before → after) and remove (-), project by project, and the impact on users now and at each coming transition, as every change's preview does. Ends with the command that applies exactly this plan: 'relctl apply FILE --expect TOKEN' refuses if the database or the file changed since. With -p, only that project of the file. The database is not changed.",
        arguments: [file],
        options: [Option("exit-code", help: "Exit with 1 when the file would change something, 0 when the database already matches (as 'git diff --exit-code' does), so CI can gate on it.")],
        examples: [Example("relctl plan shop.relctl.json", "What applying shop.relctl.json would change, and for whom."),
                   Example("relctl plan fleet.relctl.json --exit-code", "In CI: exit 1 when the database differs from the file.")]
    ) { inv in
        let (path, bytes, projects, removed) = try read(inv)
        let store = try inv.store(.write)
        // One instant for the whole plan: a window it ends or cancels is ended or cancelled then.
        let now = inv.now
        guard let trial = try inv.trial(store, projects: projects.map(\.slug), { try write(projects, removed: removed, $0, now: now) }) else {
            let unchanged = projects.map { p in
                JSON.object(["project": .string(p.slug), "status": .string("unchanged"), "rows": .array([]), "warnings": .array([])]) }
            // A plan of no change has its token too: CI applies the plan reviewed, whatever it was.
            let token = expectToken(bytes, [])
            inv.render(.object(["file": .string(path), "changes": .bool(false), "expect": .string(token), "projects": .array(unchanged), "impact": .array([])])) {
                "no changes: the database already holds what \(path) says (\(projects.map(\.slug).joined(separator: ", ")))\n"
                    + "apply exactly this plan with: relctl apply \(PastedHints.quoted(path)) --expect \(token)\n"
            }
            return
        }
        let token = expectToken(bytes, trial.rows)
        let words = trial.words
        inv.render(.object(["file": .string(path), "changes": .bool(true), "expect": .string(token),
                            "projects": .array(trial.result.map { p in
                                .object(["project": .string(p.slug), "status": .string(p.status), "rows": .array(trial.rows[p.rows].map(LogCommand.json)),
                                         "warnings": .array(p.warnings.map { .string($0) })]) }),
                            "impact": .array(trial.impact.map { .string($0) })])) {
            var text = ""
            for p in trial.result {
                text += "\(p.slug): \(p.status == "create" ? "created" : p.status)\(p.rows.isEmpty ? "" : " (\(counts(trial.rows[p.rows])))")\n"
                let rows = trial.rows[p.rows]
                text += rows.prefix(Trial.linesShown).map { "  " + words.line($0) + "\n" }.joined()
                if rows.count > Trial.linesShown { text += "  … and \(rows.count - Trial.linesShown) more rows (--json lists every one)\n" }
                text += p.warnings.map { "  warning: \($0)\n" }.joined()
            }
            text += "impact:\n" + trial.impact.map { "  \($0)\n" }.joined()
            text += "apply exactly this plan with: relctl apply \(PastedHints.quoted(path)) --expect \(token)\n"
            return text
        }
        if inv.flag("exit-code") { inv.exitStatus = 1 }
    }

    static let apply: RunnableCommand = RunnableCommand(
        "apply", abstract: "Make the database hold what a configuration file says.",
        discussion: "Each project the file names is made to match it — created when missing; its settings, platforms, versions, notes, floors, pins, rules, messages and the active and upcoming maintenance windows as the file has them — in one transaction, with one log entry per project that changed ('relctl undo' takes one back). Projects the file does not name are left alone. A window the file no longer lists is cancelled, or ended now when it is on; past windows stay on record. The change is shown first (rows and impact) and needs confirmation, or --yes. --expect TOKEN (from 'relctl plan') refuses when the database or the file changed since that plan was made, so two people applying at once never overwrite each other unseen. A file the database already matches changes and logs nothing. With -p, only that project of the file.",
        arguments: [file],
        options: [Option("expect", value: "TOKEN", help: "Apply only if the change is still the one 'relctl plan' showed with this token."),
                  Shared.dryRun, Shared.yes],
        examples: [Example("relctl apply shop.relctl.json", "Show what the file changes, ask, then make it so."),
                   Example("relctl apply fleet.relctl.json --expect 3f9a0c1b2d4e5f60 --yes", "In CI: apply the plan reviewed, or nothing if anything moved since.")]
    ) { inv in
        let (path, bytes, projects, removed) = try read(inv)
        let store = try inv.store(.write)
        // One instant for the trial, the question and the write: the rows shown are the rows made.
        let now = inv.now
        let expected = inv.value("expect")
        let vet: (([RowChange]) throws -> Void)? = expected.map { token in
            { rows in
                let current = expectToken(bytes, rows)
                guard current == token else {
                    throw RelctlError.failure("the change is no longer the plan \(token): the database or \(path) changed since (its token is now \(current)); nothing was applied",
                                              hint: "see it again with: relctl plan \(PastedHints.quoted(path))")
                }
            }
        }
        let outcome = try inv.write(store, projects: projects.map(\.slug), asking: Invocation.Asking(what: "applying \(path)", vet: vet)) {
            try write(projects, removed: removed, $0, now: now)
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
            inv.info("\(verb) \(path): " + outcome.map { "\($0.slug) \($0.status == "create" ? "created" : $0.status)" }.joined(separator: ", "))
        }
    }

    /// What the write did to one project: its status, its rows among the trial's, what the state breaks.
    struct Applied {
        var slug: String
        /// "create", "changed" or "unchanged".
        var status: String
        var rows: Range<Int>
        var warnings: [String]
    }

    /// Every project of the file, in slug order, in the session: a
    /// project that fails leaves none applied. `removed`: the histories of
    /// projects the file lists as removed, taken for those the database does not hold.
    static func write(_ projects: [ConfigProject], removed: [String: [String: [Int64]]] = [:], _ session: Session, now: Int64) throws -> [Applied] {
        let store = session.store
        var out: [Applied] = []
        // Read once, before any project: a window takes its file id when no app can have seen it.
        let windowsGiven = try store.lastWindowID()
        for p in projects {
            let existed = try store.project(slug: p.slug) != nil
            let (rows, logged) = (session.rows.count, session.entries.count)
            let warnings = try session.applyConfig(p, windowsGiven: windowsGiven, now: now)
            let changed = session.entries.count > logged
            // What the file knows of parts this change did not touch, even when it touched none.
            try session.adoptLineage(p.slug, chains: p.lineage, edited: p.edited)
            out.append(Applied(slug: p.slug, status: !changed ? "unchanged" : existed ? "changed" : "create", rows: rows..<session.rows.count,
                               warnings: changed ? warnings : []))
        }
        for (slug, chains) in removed.sorted(by: { $0.key < $1.key }) where try store.project(slug: slug) == nil {
            try session.adoptLineage(slug, chains: chains)
        }
        return out
    }

    typealias Trial = Invocation.Trial<[Applied]>

    static func read(_ inv: Invocation) throws -> (String, [UInt8], [ConfigProject], [String: [String: [Int64]]]) {
        let path = inv.arg("FILE")!
        // A fleet's file is larger than the files import takes.
        let bytes = path == "-" ? try inv.context.readStdin() : try FileSystem.readFile(path, limit: 1 << 30)
        var projects: [ConfigProject], removed: [String: [String: [Int64]]]
        do { (projects, removed) = try ConfigFormat.readFile(bytes) } catch {
            throw RelctlError.failure("cannot apply \(path): \(error.message)", hint: "fix the file (schema/config.schema.json describes it), or export it again: relctl export -o \(PastedHints.quoted(path))")
        }
        // -p as typed: RELCTL_PROJECT, set for everyday commands, does not narrow a file.
        if let slug = inv.parsed.values["project"]?.last {
            guard let one = projects.first(where: { $0.slug == slug }) else {
                throw RelctlError.usage("\(path) has no project '\(slug)'\(Suggest.didYouMean(slug, projects.map(\.slug)))",
                                        hint: "it has \(projects.isEmpty ? "none" : projects.map(\.slug).joined(separator: ", "))")
            }
            projects = [one]
            removed = [:]
        }
        guard !projects.isEmpty else { throw RelctlError.failure("\(path) names no project", hint: "export one with: relctl export -p SLUG -o \(PastedHints.quoted(path))") }
        for p in projects {
            do { try ZoneOffsets.check(p.snapshot.project.timeZone) } catch let e as InputError {
                throw RelctlError.failure("cannot apply \(path): projects.\(p.slug).timeZone: \(e.message)", hint: "install the zone database (tzdata), or set the time zone to UTC")
            }
        }
        return (path, bytes, projects, removed)
    }

    /// Names one plan: the file, and every row it changes as it was before.
    /// What it makes of them follows from those (and the instant, which is
    /// not part of the plan: a window it ends is ended when it is applied).
    static func expectToken(_ bytes: [UInt8], _ rows: [RowChange]) -> String {
        var all = bytes
        for row in rows {
            all.append(10)
            JSON.array([.string(row.table), .array(row.key), row.before.map { .object($0) } ?? .null]).writeCompact(to: &all)
        }
        return String(SHA256.hex(all).prefix(16))
    }

    static func counts(_ rows: ArraySlice<RowChange>) -> String {
        let added = rows.filter { $0.before == nil }.count, removed = rows.filter { $0.after == nil }.count
        return "\(rows.count) row\(rows.count == 1 ? "" : "s"): \(added) added, \(rows.count - added - removed) changed, \(removed) removed"
    }
}
