import RelctlCore
import RelctlStore

/// Changes that alter what users see (floors, pins, rules, maintenance
/// windows, a release moved, undo and revert) follow one rule, terraform's:
/// the change is first tried (every check the data makes, held and rolled
/// back) to learn its effect, which is shown (what it moves, and its impact
/// now and at each coming transition); on a terminal it is asked about, and
/// elsewhere it needs --yes; a --dry-run never does. Removals follow the
/// same rule through `confirm`.
extension Invocation {
    /// Makes such a change: `write` runs once as the trial, and once for real.
    /// `what`: the change in a few words, for the refusal off a terminal.
    func confirmedChange<T>(_ store: Store, _ project: ProjectRecord, _ what: String, moves: [String] = [], write: () throws -> T) throws -> T {
        try confirmedChange(store, projects: [project.slug], what, moves: moves, write: write)
    }

    /// The same for a change to several projects (apply). `vet` sees the
    /// trial's rows before anything is shown or asked (apply --expect).
    func confirmedChange<T>(_ store: Store, projects: [String], _ what: String, moves: [String] = [],
                            vet: (([RowChange]) throws -> Void)? = nil, write: () throws -> T) throws -> T {
        // Confirmed and silenced (a script): nothing to show, nothing to ask, no trial to make.
        if flag("yes") && quiet && !dryRun && vet == nil { return try watchingLockouts(store, projects, write) }
        // Nothing to change: nothing to ask about (the write says "unchanged"), as long as it still changes nothing.
        guard let trial = try self.trial(store, projects: projects, write: write) else {
            // A plan of no change is vetted too: a token that names another plan is refused.
            try vet?([])
            return try asShown([], store, write)
        }
        let rows = trial.rows
        try vet?(rows)
        let asking = context.stdinIsTerminal && !flag("yes") && !dryRun
        if !context.stdinIsTerminal && !flag("yes") && !dryRun {
            throw RelctlError.usage("\(what) changes what users see and needs confirmation",
                                    hint: "add --yes to make it, or see its impact first with --dry-run")
        }
        let lines = moves + trial.impact + trial.lockouts.map { "lockout: " + $0 }
        previewedImpact = lines
        let shown = !quiet || asking
        if shown {
            // A dry run says its rows once, after the command ("would change:").
            let changes = dryRun ? "" : "changes:\n" + trial.changeLines.map { "  \($0)\n" }.joined()
            context.stderr.write(changes + "impact:\n" + lines.map { "  \(PeopleTime.inText($0, context: context))\n" }.joined())
        }
        if asking {
            context.stderr.write("Apply this change? [y/N] ")
            context.stderr.flush()
            let answer = (context.readLine() ?? "").trimmingSpaces().lowercased()
            guard answer == "y" || answer == "yes" else { throw RelctlError.failure("cancelled; nothing was changed") }
        }
        // A --dry-run holds its change for its output, as any write does.
        if dryRun { return try write() }
        let result = try asShown(rows, store, write)
        if !shown { for l in trial.lockouts { warn(l) } }
        return result
    }

    /// Makes a change and warns of every lockout (Lockouts) it creates: a
    /// floor or pin that sends devices on some OS to an update they cannot install.
    func watchingLockouts<T>(_ store: Store, _ slugs: [String], _ write: () throws -> T) throws -> T {
        let before = try lockouts(store, slugs)
        let result = try write()
        for l in Invocation.newLockouts(before: before, after: try lockouts(store, slugs)) { warn(l) }
        return result
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

    /// Makes the change held, and commits it only if it is the one shown
    /// (`rows`): another writer may have changed the data while the question waited.
    private func asShown<T>(_ rows: [RowChange], _ store: Store, _ write: () throws -> T) throws -> T {
        if dryRun { return try write() }
        let held = store.holdsChanges
        store.holdsChanges = true
        defer { store.holdsChanges = held }
        do {
            let result = try write()
            guard store.heldChanges == rows else {
                throw RelctlError.failure("the database changed while the change was shown; nothing was changed",
                                          hint: "run the command again to see its effect now")
            }
            try store.commitChanges()
            return result
        } catch {
            store.dropChanges()
            throw error
        }
    }

    /// A change tried and rolled back: what it returned, the rows it
    /// touched, and what it does to users. Nil when it changes nothing.
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
    }

    func trial<T>(_ store: Store, projects slugs: [String], write: () throws -> T) throws -> Trial<T>? {
        let before = try store.read { try slugs.map { slug in try store.project(slug: slug).map { try store.snapshot($0) } } }
        let held = store.holdsChanges
        store.holdsChanges = true
        defer { store.holdsChanges = held }
        let result: T
        let after: [ProjectSnapshot?]
        do {
            result = try write()
            after = try slugs.map { slug in try store.project(slug: slug).map { try store.snapshot($0) } }
        } catch {
            store.dropChanges()
            throw error
        }
        let rows = store.heldChanges
        let words = try ChangeWords(rows, store: store, time: people)
        store.dropChanges()
        if rows.isEmpty { return nil }
        var changeLines = rows.prefix(Trial<T>.linesShown).map(words.line)
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
            default: lines = ["the project is removed"]
            }
            // Several projects: each one's lines under its name.
            impact += slugs.count == 1 ? lines : ["\(slug):"] + lines.map { "  " + $0 }
        }
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
