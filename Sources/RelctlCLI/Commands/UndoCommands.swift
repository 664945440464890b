import RelctlCore
import RelctlStore

/// `relctl undo` and `relctl revert ID`: a logged change taken back, in one
/// transaction that is itself logged (and can be reverted).
enum UndoCommands {
    static let withLater = Option("with-later", help: "Also revert the later changes that touched the same rows (or rows that putting them back would change), newest first, in the same transaction.")

    static let undo: RunnableCommand = RunnableCommand(
        "undo", abstract: "Take back the last change of a project.",
        discussion: "Puts back every row the project's newest change touched as it was before, after showing what it changes and who it affects now (asked on a terminal; --yes is required elsewhere). Each undo goes one change further back; a revert is itself logged, and 'relctl revert ID' of its id puts the change back. Refused when a row was changed by hand since.",
        options: [withLater, Shared.dryRun, Shared.yes],
        examples: [Example("relctl undo -p shop", "Take back shop's last change."),
                   Example("relctl undo --dry-run", "Show what undo would change.")]
    ) { inv in
        let store = try inv.store()
        // The project as every command takes it; a project removed is still undone by its slug (-p), and
        // with no project left at all, the last change is the removal of the last one.
        let slug = try inv.value("project") ?? (try store.projectSlugs().isEmpty ? nil : try inv.project(in: store).slug)
        guard let entry = try store.lastUndoable(project: slug) else {
            throw RelctlError.failure("nothing to undo\(slug.map { " in '\($0)'" } ?? ""): no change there that recorded its rows is in force",
                                      hint: "see the changes with 'relctl log'")
        }
        try revert(inv, store, entry)
    }

    static let revert: RunnableCommand = RunnableCommand(
        "revert", abstract: "Take back any logged change by its id.",
        discussion: "ID is the number 'relctl log' shows. The change's rows are put back as they were before it, after showing what that changes and who it affects now (asked on a terminal; --yes is required elsewhere). Refused, naming them, when later changes touched the same rows: revert those first, or add --with-later. Reverting a revert puts its change back.",
        arguments: [Argument("ID", help: "The change's number in 'relctl log'.")],
        options: [withLater, Shared.dryRun, Shared.yes],
        examples: [Example("relctl revert 42", "Take back change #42."),
                   Example("relctl revert 42 --with-later --dry-run", "Show what taking back #42 and every later change to its rows would do.")]
    ) { inv in
        let text = inv.arg("ID")!
        let digits = text.hasPrefix("#") ? String(text.dropFirst()) : text
        guard let id = Int64(digits), id > 0 else {
            throw RelctlError.usage("invalid change id '\(text)'", hint: "give the number 'relctl log' shows, like 42")
        }
        let store = try inv.store()
        try revert(inv, store, try store.auditEntry(id))
    }

    /// Shows what reverting `entry` changes (a trial, rolled back), asks, then reverts.
    static func revert(_ inv: Invocation, _ store: Store, _ entry: AuditEntry) throws {
        let later = inv.flag("with-later")
        // Off a terminal, nobody can be asked: refused before any work (terraform's rule).
        if !inv.context.stdinIsTerminal && !inv.flag("yes") && !inv.dryRun {
            throw RelctlError.usage("reverting #\(entry.id) (\(entry.action)) needs confirmation", hint: "add --yes to confirm, or see what it would change with --dry-run")
        }
        let project = try entry.project.flatMap { try store.project(slug: $0) }
        let before = try project.map { p in try store.read { try store.snapshot(p) } }
        // The trial: every check the data makes, and the rows it would change, then rolled back.
        let held = store.holdsChanges
        store.holdsChanges = true
        let trial: Store.Reverted
        let after: ProjectSnapshot?
        do {
            trial = try store.revert(entry.id, withLater: later, now: inv.now)
            after = try (try store.project(slug: entry.project ?? "")).map { try store.snapshot($0) }
        } catch {
            store.dropChanges()
            store.holdsChanges = held
            throw error
        }
        let changes = try store.rowChanges(of: trial.id)
        let words = try ChangeWords(changes, store: store, time: inv.people)
        store.dropChanges()
        store.holdsChanges = held
        let lockouts = Invocation.newLockouts(before: Invocation.lockouts(before, at: inv.now), after: Invocation.lockouts(after, at: inv.now))
        let impact = (before.flatMap { b in after.map { inv.impactLines(before: b, after: $0) } } ?? []) + lockouts.map { "lockout: " + $0 }
        let names = trial.entries.map { "#\($0.id) (\($0.project.map { $0 + ": " } ?? "")\($0.action))" }
        let asking = inv.context.stdinIsTerminal && !inv.flag("yes") && !inv.dryRun
        if !inv.quiet || asking {
            inv.context.stderr.write("revert \(names.joined(separator: ", ")):\n" + changes.map { "  " + words.line($0) + "\n" }.joined()
                + "impact:\n" + (impact.isEmpty ? ["no install changes what it sees now"] : impact).map { "  \($0)\n" }.joined())
        }
        try inv.confirm("Revert \(trial.entries.map { "#\($0.id)" }.joined(separator: ", "))?")
        let done = try store.revert(entry.id, withLater: later, now: inv.now)
        if inv.quiet && !asking { for l in lockouts { inv.warn(l) } }
        inv.info("reverted \(names.joined(separator: ", "))\(inv.dryRun ? "" : " as change #\(done.id)")")
        try inv.printWritten {
            .object(["id": inv.dryRun ? .null : .int(done.id), "dryRun": .bool(inv.dryRun), "reverted": .array(done.entries.map { .int($0.id) }.reversed()),
                     "changes": .array(done.changes.map(LogCommand.json)), "impact": .array(impact.map { .string($0) })])
        }
    }
}
