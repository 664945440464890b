import RelctlCore
import RelctlStore

/// How every command writes: through one Session, following one rule.
///
/// A change that alters what users see (floors, pins, rules, maintenance
/// windows, a release moved, apply, undo and revert) follows terraform's
/// rule: it is first made in a session (every check the data makes) to
/// learn its rows and effect, which are shown (what it moves, and its
/// impact now and at each coming transition). With --yes, that session is
/// committed: it held the write lock from the change to the commit (but
/// for apply's break-glass, whose log line learns from the trial, and which
/// is made again as shown). On a
/// terminal it is asked about, and elsewhere it needs --yes; a question
/// drops the session, and after a yes the change is made again and
/// committed only if its rows are the ones shown, since another writer may
/// have changed the data while the question waited. A --dry-run makes it
/// once and keeps its session open for the command's output, then drops it.
/// Every other write is made and committed at once, with a warning for
/// each lockout it creates. Removals ask first through `confirm`.
extension Invocation {
    /// The command's write session (`written`): committed, or for a --dry-run held open until the command has said what it made.
    var session: Session? {
        get { written as? Session }
        set {
            written = newValue
            // A committed session's rows (an apply into an empty database made 850,000); not a
            // dry run's, which is set while open and may write again (it would copy its rows).
            if let done = newValue, !done.isOpen { context.leaveToExit(done.rows) }
        }
    }

    /// How a change is shown and asked about; `T` is what its write returns.
    struct Asking<T> {
        /// The change in a few words, for the refusal off a terminal ("moving window #3").
        var what: String
        /// Lines said before its impact ("maintenance for ios: …").
        var moves: [String] = []
        /// The line before its rows ("changes:", or the entries a revert takes back).
        var heading: ((T) -> String)? = nil
        var question: (T) -> String = { _ in "Apply this change?" }
        /// Sees the trial's rows before anything is shown or asked (apply --expect).
        var vet: (([RowChange]) throws -> Void)? = nil
        /// Whether the vet learned something the write itself records (apply's break-glass, in its log
        /// line): the change is then made again after it, as shown, rather than the trial committed.
        var remade: () -> Bool = { false }
        /// Tried even when confirmed and silenced: its impact is part of its output (revert).
        var alwaysTried = false
        /// Rows said apart, after the others, from what it made (apply: the rows that take back a change
        /// made since the file): their indices among the rows, and the lines that say them.
        var apart: ((T, [RowChange], ChangeWords) -> (indices: Set<Int>, lines: [String]))? = nil
    }

    /// Makes a change to one project that users see, shown and asked about first.
    func write<T>(_ store: Store, _ project: ProjectRecord, asking what: String, moves: [String] = [], _ body: (Session) throws -> T) throws -> T {
        try write(store, projects: [project.slug], asking: Asking<T>(what: what, moves: moves), body)
    }

    /// Makes a change through a session. `projects`: those whose lockouts
    /// are watched and whose impact is shown (of several, only those the
    /// change names); `asking`: nil for a change that needs no question.
    func write<T>(_ store: Store, projects: [String] = [], asking: Asking<T>? = nil, _ body: (Session) throws -> T) throws -> T {
        if dryRun { return try dryRunWrite(store, projects, asking, body) }
        // Confirmed and silenced (a script): nothing to show, nothing to ask, no trial to make.
        guard var asking, !(flag("yes") && quiet && asking.vet == nil && !asking.alwaysTried) else {
            let session = try newSession(store)
            let result = try body(session)
            // Of the platforms it touched alone, the lockouts before read from its own rows: a version
            // added read every platform's versions twice, a third of the command.
            let (was, made) = try session.lockoutsTouched(at: now)
            let created = Invocation.newLockouts(before: was, after: made)
            try session.commit()
            self.session = session
            for l in created { warn(l) }
            sayStoreNotes(session)
            return result
        }
        // The trial's session is kept until the question: with none to wait for, what it
        // shows is what it holds, under the write lock all along, and it is committed itself.
        let session = try newSession(store)
        defer { session.drop() }
        let before = try self.before(store, projects)
        let made = try body(session)
        // The store risks it takes are part of its impact.
        asking.moves += Invocation.storeLines(session.storeNotes).risks
        // Nothing to change: nothing to ask about (the write says "unchanged").
        guard let trial = try self.trial(made, session, projects, before: before) else {
            // A plan of no change is vetted too: a token that names another plan is refused.
            try asking.vet?([])
            return try committed(session, made)
        }
        try asking.vet?(trial.rows)
        previewedImpact = trial.shown(asking.moves)
        let questioning = context.stdinIsTerminal && !flag("yes")
        if !context.stdinIsTerminal && !flag("yes") {
            throw RelctlError.usage("\(asking.what) changes what users see and needs confirmation",
                                    hint: "add --yes to make it, or see its impact first with --dry-run")
        }
        let shown = !quiet || questioning
        if shown { show(trial, asking) }
        guard questioning else {
            let result: T
            if asking.remade() {
                session.drop()
                result = try asShown(trial.rows, store, body)
            } else {
                result = try committed(session, made)
            }
            // The lockouts it made, once they are made.
            if !shown { for l in trial.lockouts { warn(l) } }
            sayStoreNotes(session, risks: !shown)
            return result
        }
        // While the question waits, the write lock is let go: the change is made again after, as shown or not at all.
        session.drop()
        context.stderr.write(asking.question(trial.result) + " [y/N] ")
        context.stderr.flush()
        let answer = (context.readLine() ?? "").trimmingSpaces().lowercased()
        guard answer == "y" || answer == "yes" else { throw RelctlError.failure("cancelled; nothing was changed") }
        let result = try asShown(trial.rows, store, body)
        if let made = self.session { sayStoreNotes(made, risks: false) }
        return result
    }

    /// A session for the command's writes, allowing what the command allows.
    func newSession(_ store: Store) throws -> Session {
        let session = try store.session()
        session.allowStoreRisk = flag("allow-store-risk")
        return session
    }

    /// What the store guard said: the risks taken, when no impact showed
    /// them (warned of even under -q), and the floors left unchecked, once.
    func sayStoreNotes(_ session: Session, risks: Bool = true) {
        let (taken, unchecked) = Invocation.storeLines(session.storeNotes)
        if risks { for line in taken { warn(line) } }
        for line in unchecked { info(line) }
    }

    /// The store guard's notes for people: each risk taken (a few, then a
    /// count), and the floors left unchecked, in one line when several
    /// platforms have them (a fleet's apply).
    static func storeLines(_ notes: [Session.StoreNote], risk prefix: String = "store risk allowed: ") -> (risks: [String], unchecked: [String]) {
        // A risk that time ends has its instant in the timeline too, as a window's end has.
        let risks = notes.filter(\.risk).flatMap { n in
            [prefix + n.text] + (n.safeAt.map { ["from \(Time.format($0)): the stores serve it in every storefront, once a lookup fetched then says so"] } ?? [])
        }
        var shown = Array(risks.prefix(5))
        if risks.count > 5 { shown.append("… and \(risks.count - 5) more floors and pins the stores do not serve ('relctl log' lists them)") }
        let unchecked = notes.filter { !$0.risk }
        guard unchecked.count > 3 else { return (shown, unchecked.map(\.text)) }
        let platforms = unchecked.map(\.platform)
        return (shown, ["\(unchecked.count) floors and pins are unchecked against the stores, on platforms that name no storefronts or are new to this database (\(Suggest.few(Array(Set(platforms)).sorted())))"])
    }

    /// Commits the session that made `result`, seen as it is.
    private func committed<T>(_ session: Session, _ result: T) throws -> T {
        try session.commit()
        self.session = session
        return result
    }

    /// A --dry-run: made once, shown as a trial is, and held for the output.
    private func dryRunWrite<T>(_ store: Store, _ projects: [String], _ asking: Asking<T>?, _ body: (Session) throws -> T) throws -> T {
        // A command's second write in a dry run sees its first: one session holds both.
        let session = try self.session.flatMap { $0.isOpen && $0.store === store ? $0 : nil } ?? newSession(store)
        let before = try snapshots(store, projects)
        let result = try body(session)
        self.session = session
        guard var asking else {
            for l in Invocation.newLockouts(before: before.flatMap { Invocation.lockouts($0, at: now) }, after: try lockouts(store, projects)) { warn(l) }
            sayStoreNotes(session)
            return result
        }
        let (risks, unchecked) = Invocation.storeLines(session.storeNotes)
        asking.moves += risks
        for line in unchecked { info(line) }
        guard let trial = try self.trial(result, session, projects, before: before) else {
            try asking.vet?([])
            return result
        }
        try asking.vet?(trial.rows)
        previewedImpact = trial.shown(asking.moves)
        if !quiet { show(trial, asking) }
        return result
    }

    /// Makes the change in a session of its own, and commits it only if its
    /// rows are the ones shown (`rows`).
    private func asShown<T>(_ rows: [RowChange], _ store: Store, _ body: (Session) throws -> T) throws -> T {
        let session = try newSession(store)
        let result = try body(session)
        try session.commit(expecting: rows)
        self.session = session
        return result
    }

    /// Its rows (a dry run says them once, after the command: "would change:"), then its impact.
    private func show<T>(_ trial: Trial<T>, _ asking: Asking<T>) {
        let heading = asking.heading.map { $0(trial.result) + "\n" }
        let (apartRows, apartLines): (Set<Int>, [String]) = asking.apart?(trial.result, trial.rows, trial.words) ?? ([], [])
        // The rows said apart are not said twice.
        var lines = trial.changeLines
        if !apartRows.isEmpty {
            lines = trial.rows.indices.filter { !apartRows.contains($0) }.prefix(Trial<T>.linesShown).map(trial.words.line)
        }
        var rows = dryRun ? heading ?? "" : (heading ?? "changes:\n") + lines.map { "  \($0)\n" }.joined()
        rows += apartLines.map { "\($0)\n" }.joined()
        context.stderr.write(rows + "impact:\n" + trial.shown(asking.moves).map { "  \(PeopleTime.inText($0, context: context))\n" }.joined())
    }

    /// The lockouts of each project's floors and pins now, read without notes.
    func lockouts(_ store: Store, _ slugs: [String]) throws -> [Lockout] {
        try store.read {
            try slugs.flatMap { slug -> [Lockout] in
                guard let project = try store.project(slug: slug) else { return [] }
                return try store.platforms(project: project.id).flatMap { p in Lockouts.of(p, try store.versions(platform: p.id, withNotes: false), at: now) }
            }
        }
    }

    static func lockouts(_ s: ProjectSnapshot?, at t: Int64) -> [Lockout] {
        s.map { s in s.platforms.flatMap { Lockouts.of($0, s.versions(of: $0), at: t) } } ?? []
    }

    /// What `after` locks out that `before` did not, in words.
    static func newLockouts(before: [Lockout], after: [Lockout]) -> [String] {
        after.filter { !before.contains($0) }.map(\.sentence)
    }

    /// The projects as they are before a change, for its trial; nil when
    /// the trial can read them after, from the database as committed, and
    /// then only those the change names: a fleet's plan read every project
    /// twice and said "no install changes" for each.
    func before(_ store: Store, _ slugs: [String]) throws -> [ProjectSnapshot?]? {
        if slugs.count > 1, try store.readsCommittedBesideWrites() { return nil }
        return try snapshots(store, slugs)
    }

    /// The projects as a trial compares them: without their notes, which no
    /// verdict, lockout or coming instant reads (a version read without them
    /// traps if asked for them). An apply into an empty database read every
    /// note it had just written back, a thirteenth of its plan. So a note
    /// damaged by hand no longer stops an asked write at its trial, as it never
    /// stopped one made with --yes -q; publish and status still name it.
    func snapshots(_ store: Store, _ slugs: [String]) throws -> [ProjectSnapshot?] {
        try store.read { try slugs.map { slug in try store.project(slug: slug).map { try store.snapshot($0, withNotes: false) } } }
    }

    /// A change made and seen: what it returned, the rows it made, and what
    /// it does to users. Nil when it changes nothing.
    struct Trial<T> {
        var result: T
        var rows: [RowChange]
        /// How the rows read for people.
        var words: ChangeWords
        /// The rows for people, at most `Trial.linesShown`, then how many more.
        var changeLines: [String]
        var impact: [String]
        /// The lockouts the change creates (Lockouts), in words.
        var lockouts: [String]
        static var linesShown: Int { 200 }

        /// What is shown under "impact:": the moves, the impact, the lockouts.
        func shown(_ moves: [String]) -> [String] { moves + impact + lockouts.map { "lockout: " + $0 } }
    }

    /// What the change the session holds does: its rows, and its impact on
    /// the projects it changed among `all` (the others are left out, as
    /// nothing of theirs changes) against `before` (from `before(_:_:)`, one
    /// for each of `all`). Without it, the session must be the first write
    /// since the last commit (a trial's, a plan's): the projects it changed
    /// are read as they were from the database as committed.
    func trial<T>(_ result: T, _ session: Session, _ all: [String], before given: [ProjectSnapshot?]?) throws -> Trial<T>? {
        let rows = session.rows
        if rows.isEmpty { return nil }
        var slugs = all
        if let changed = session.projectsChanged, changed.isSubset(of: all) { slugs = all.filter(changed.contains) }
        let before: [ProjectSnapshot?]
        if let given {
            let was = Dictionary(zip(all, given), uniquingKeysWith: { first, _ in first })
            before = slugs.map { was[$0] ?? nil }
        } else {
            before = try snapshots(try session.store.committed(), slugs)
        }
        let after = try snapshots(session.store, slugs)
        let words = try ChangeWords(rows, changes: session.changeStarts, store: session.store, time: people)
        var changeLines = rows.indices.prefix(Trial<T>.linesShown).map(words.line)
        if rows.count > Trial<T>.linesShown {
            changeLines.append("… and \(rows.count - Trial<T>.linesShown) more rows (--json lists every one)")
        }
        var impact: [String] = []
        for (i, slug) in slugs.enumerated() {
            let lines: [String]
            switch (before[i], after[i]) {
            case (let old?, let new?): lines = impactLines(before: old, after: new)
            case (nil, let new?):
                let count = new.platforms.reduce(0) { $0 + new.versions(of: $1).count }
                lines = ["a new project: \(new.platforms.count) platform\(new.platforms.count == 1 ? "" : "s"), \(count) version\(count == 1 ? "" : "s"); apps asking it get what 'relctl check -p \(slug)' says"]
            case (_?, nil): lines = ["the project is removed"]
            case (nil, nil): lines = []
            }
            // Several projects: each one's lines under its name.
            impact += all.count == 1 ? lines : ["\(slug):"] + lines.map { "  " + $0 }
        }
        if impact.isEmpty { impact = ["no install changes what it sees now"] }
        let lockouts = Invocation.newLockouts(before: before.flatMap { Invocation.lockouts($0, at: now) },
                                              after: after.flatMap { Invocation.lockouts($0, at: now) })
        return Trial(result: result, rows: rows, words: words, changeLines: changeLines, impact: impact, lockouts: lockouts)
    }

    /// What a change does to users now, then at each coming instant where
    /// that differs (a window's end, a deadline, a release delay), for
    /// recorded versions and the installs nobody recorded:
    ///     ios: 1.0 (100): none → optional
    ///     from 2026-12-02 20:00 UTC (in 8 h), when maintenance window #1 ends:
    ///       ios: 1.8.0, 1.9.4: maintenance → required
    func impactLines(before: ProjectSnapshot, after: ProjectSnapshot) -> [String] {
        let timeline = Impact.timeline(before: before, after: after, at: now)
        var lines = timeline[0].impact.lines
        if lines.isEmpty { lines = ["no install changes what it sees now"] }
        for step in timeline.dropFirst() {
            let when = "from \(people(step.at))" + (step.causes.isEmpty ? "" : ", when " + step.causes.joined(separator: "; "))
            lines.append(when + ":")
            lines += step.impact.lines.isEmpty ? ["  no install sees anything other than it would have"] : step.impact.lines.map { "  " + $0 }
        }
        return lines
    }
}

/// What a write leaves for the command's output (Invocation.written): the session itself.
extension Session: Written {
    var wroteNothing: Bool { isEmpty }

    func dryRunLines(_ inv: Invocation) -> [String] {
        guard isOpen, !rows.isEmpty else { return [] }
        let words = try? ChangeWords(rows, changes: changeStarts, store: store, time: inv.people)
        return rows.indices.map { words?.line($0) ?? "\(rows[$0].table) \(rows[$0].key)" }
    }
}
