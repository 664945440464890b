import RelctlCore
import RelctlStore

/// `relctl undo` and `relctl revert ID`: a logged change taken back, in one
/// transaction that is itself logged (and can be reverted).
enum UndoCommands {
    static let withLater = Option("with-later", help: "Also revert the later changes that touched the same rows (or rows that putting them back would change), newest first, in the same transaction.")

    static let undo: RunnableCommand = RunnableCommand(
        "undo", abstract: "Take back the last change of a project.",
        discussion: "Puts back every row the project's newest change touched as it was before, after showing what it changes and who it affects now (asked on a terminal; --yes is required elsewhere). Each undo goes one change further back; a revert is itself logged, and 'relctl revert ID' of its id puts the change back. Refused when a row was changed by hand since.",
        options: [withLater, Shared.allowStoreRisk, Shared.dryRun, Shared.yes],
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
        options: [withLater, Shared.allowStoreRisk, Shared.dryRun, Shared.yes],
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

    /// Reverts `entry` as every change that users see is made (Invocation.write):
    /// tried, shown with the entries it takes back, then with --yes that
    /// session committed, or asked and made again, committed only if its
    /// rows are the ones shown.
    static func revert(_ inv: Invocation, _ store: Store, _ entry: AuditEntry) throws {
        let later = inv.flag("with-later")
        func names(_ r: Store.Reverted) -> [String] { r.entries.map { "#\($0.id) (\($0.project.map { $0 + ": " } ?? "")\($0.action))" } }
        let asking = Invocation.Asking<Store.Reverted>(
            what: "reverting #\(entry.id) (\(entry.action))", heading: { "revert \(names($0).joined(separator: ", ")):" },
            question: { "Revert \($0.entries.map { "#\($0.id)" }.joined(separator: ", "))?" }, alwaysTried: true)
        let done = try inv.write(store, projects: entry.project.map { [$0] } ?? [], asking: asking) { session in
            try session.revert(entry.id, withLater: later, now: inv.now)
        }
        if done.id == 0 && !inv.dryRun {
            // Later changes taken back with it put every row back already: nothing to write, nothing logged.
            inv.info("nothing to revert: the rows of \(names(done).joined(separator: ", ")) already hold what they held before")
        } else {
            inv.info("reverted \(names(done).joined(separator: ", "))\(inv.dryRun ? "" : " as change #\(done.id)")")
        }
        try inv.printWritten {
            .object(["id": inv.dryRun || done.id == 0 ? .null : .int(done.id), "dryRun": .bool(inv.dryRun), "reverted": .array(done.entries.map { .int($0.id) }.reversed()),
                     "changes": .array(done.changes.map(LogCommand.json)), "impact": .array((inv.previewedImpact ?? []).map { .string($0) })])
        }
    }
}
