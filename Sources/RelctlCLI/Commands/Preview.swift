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
        let impact = Impact(before: before, after: after, at: now)
        let lines = moves + (impact.lines.isEmpty ? ["no recorded version changes what it sees now"] : impact.lines)
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
}
