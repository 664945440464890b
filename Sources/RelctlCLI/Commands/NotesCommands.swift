import RelctlCore
import RelctlStore

/// `relctl notes`: release notes per version and locale.
enum NotesCommands {
    static let command: RunnableCommand = RunnableCommand(
        "notes", abstract: "Manage localized release notes (what's new).",
        subcommands: [set, show, rm],
        examples: [Example("relctl notes show 2.0 --platform ios", "Every locale's notes of iOS 2.0."), Example("relctl notes set 2.0 --platform ios --locale de \"Neues Design\"", "German notes.")]
    )

    static let set: RunnableCommand = RunnableCommand(
        "set", abstract: "Set the notes of a version in one locale.",
        arguments: [Shared.version, Argument("LINE", help: "Lines of notes (or use --file).", optional: true, repeating: true)],
        options: [Shared.platforms, Shared.locale("The notes' locale (default the project's default locale)."),
                  Option("file", value: "FILE", help: "Read the notes from FILE, one line each ('-' for stdin).", completion: .file), Shared.dryRun],
        examples: [Example("relctl notes set 2.1.0 --platform ios --locale tr \"Daha hızlı ödeme\"", "Turkish notes for iOS 2.1.0."),
                   Example("relctl notes set 2.1.0 --locale de --file notes-de.txt", "German notes from a file.")]
    ) { inv in
        guard let text = try NotesInput.read(inv, lines: inv.args("LINE"), file: inv.value("file")) else {
            throw RelctlError.usage("no notes given", hint: "give lines as arguments or --file FILE (or - for stdin)")
        }
        let locale = try inv.locale(inv.value("locale"))
        let (store, project, platforms) = try inv.targets()
        let tag = locale ?? project.defaultLocale
        try inv.write(store) { try $0.setNotes(of: inv.arg("VERSION")!, locale: tag, to: text, on: platforms, of: project, now: inv.now) }
        for p in platforms { inv.info("set \(tag) notes of \(p.name) \(inv.arg("VERSION")!)") }
        NotesInput.warnSize(inv, text, platforms: platforms, version: inv.arg("VERSION")!, locale: tag)
        try inv.printWritten {
            .object(["notes": .array(try platforms.map { p in json(p, try store.version(inv.arg("VERSION")!, on: p), notes: nil) })])
        }
    }

    static let show: RunnableCommand = RunnableCommand(
        "show", abstract: "Show the notes of a version.",
        arguments: [Shared.version], options: [Shared.platform, Shared.locale],
        examples: [Example("relctl notes show 2.0 --platform ios --locale en", "The English notes of iOS 2.0.")]
    ) { inv in
        let locale = try inv.locale(inv.value("locale"))
        let store = try inv.store(.read)
        let (p, v) = try store.read {
            let project = try inv.project(in: store)
            let p = try inv.platform(in: store, project: project)
            return (p, try store.version(inv.arg("VERSION")!, on: p))
        }
        var notes = v.notes
        if let locale {
            guard let text = v.notes[locale] else {
                throw RelctlError.failure("\(v.version.text) has no \(locale) notes",
                                          hint: v.notes.isEmpty ? "add them with 'relctl notes set \(v.version.text) --locale \(locale) LINE'" : "it has: \(v.notes.keys.sorted().joined(separator: ", "))")
            }
            notes = [locale: text]
        }
        inv.render(json(p, v, notes: notes)) {
            if locale != nil { return notes.values.first! + "\n" }
            return notes.keys.sorted().map { "[\($0)]\n\(notes[$0]!)\n" }.joined(separator: "\n")
        }
    }

    /// A version's notes as 'notes show --json' prints them (all of them unless `notes` narrows them).
    static func json(_ p: PlatformRecord, _ v: VersionRecord, notes: [String: String]?) -> JSON {
        .object(["platform": .string(p.name), "version": .string(v.version.text), "notes": .object((notes ?? v.notes).mapValues {
            .array($0.lines.map { .string($0) })
        })])
    }

    static let rm: RunnableCommand = RunnableCommand(
        "rm", abstract: "Remove the notes of a version in one locale.",
        discussion: "With several platforms the notes are removed from each in one change: every platform must have them, or nothing changes.",
        arguments: [Shared.version],
        options: [Shared.platforms, Shared.locale("The locale whose notes to remove."), Shared.dryRun, Shared.yes],
        examples: [Example("relctl notes rm 2.0 --platform ios --locale en --yes", "Remove the English notes of iOS 2.0.")]
    ) { inv in
        guard let locale = try inv.locale(inv.value("locale")) else {
            throw RelctlError.usage("--locale is required", hint: "name the notes to remove, like --locale tr")
        }
        let (store, project, platforms) = try inv.targets()
        let names = platforms.map(\.name).joined(separator: " and ")
        try inv.write(store, project, asking: "removing the \(locale) notes of \(names) \(inv.arg("VERSION")!)") { s in
            try s.removeNotes(of: inv.arg("VERSION")!, locale: locale, on: platforms, of: project, now: inv.now)
        }
        for p in platforms { inv.info("removed \(locale) notes of \(p.name) \(inv.arg("VERSION")!)") }
    }
}
