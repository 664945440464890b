import RelctlCore
import RelctlStore

/// High-impact changes (floors, pins, maintenance) show what they do to
/// users before they are made: on a terminal they ask, `--yes` skips the
/// question, and off a terminal the impact goes to stderr without blocking.
extension Invocation {
    /// Makes a high-impact change: first as a dry run (every check the data
    /// makes, rolled back), so only a change that would succeed shows its
    /// impact; then the preview; then the change itself.
    func guarded<T>(_ store: Store, _ project: ProjectRecord, moves: [String] = [], change: (inout ProjectSnapshot) -> Void,
                    write: () throws -> T) throws -> T {
        let wasDry = store.dryRun
        store.dryRun = true
        do { _ = try write() } catch { store.dryRun = wasDry; throw error }
        store.dryRun = wasDry
        try preview(store, project, moves: moves, change: change)
        return try write()
    }

    /// Shows the impact of `change`, applied in memory to the project's
    /// snapshot; returns when the change should go ahead.
    func preview(_ store: Store, _ project: ProjectRecord, moves: [String] = [], change: (inout ProjectSnapshot) -> Void) throws {
        let before = try store.read { try store.snapshot(project) }
        var after = before
        change(&after)
        let lines = moves + impactLines(before: before, after: after)
        previewedImpact = lines
        let asking = context.stdinIsTerminal && !flag("yes") && !dryRun
        if !quiet || asking {
            context.stderr.write("impact:\n" + lines.map { "  \($0)\n" }.joined())
        }
        guard asking else { return }
        context.stderr.write("Apply this change? [y/N] ")
        context.stderr.flush()
        let answer = (context.readLine() ?? "").trimmingSpaces().lowercased()
        guard answer == "y" || answer == "yes" else { throw RelctlError.failure("cancelled; nothing was changed") }
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
