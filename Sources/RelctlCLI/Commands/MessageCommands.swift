import RelctlCore
import RelctlStore

/// `relctl message`: project overrides of the built-in message catalog.
enum MessageCommands {
    static let fieldOptions: [(option: String, field: String, help: String)] = [
        ("title", "title", "The title."),
        ("message", "message", "The message ({app}, {version} for updates, {until} for maintenance)."),
        ("update-button", "update_button", "The update button (required, optional)."),
        ("later-button", "later_button", "The 'later' button (optional)."),
        ("skip-button", "skip_button", "The 'skip this version' button (optional)."),
        ("retry-button", "retry_button", "The 'try again' button (maintenance)."),
        ("deadline-message", "deadline_message", "The optional message while a force floor's deadline lies ahead ({app}, {version}, {deadline})."),
    ]

    static let command: RunnableCommand = RunnableCommand(
        "message", abstract: "Override the built-in messages per locale.",
        discussion: "Text is resolved for a user's locale as iOS and Android resolve it: the tag, with its likely script and its parent regions (zh-TW, zh-Hant-TW, zh-Hant; es-MX, es-419, es), its language (nn and no read nb), the language's default variant (pt reads pt-BR), then the project's default locale the same way, then English; at each step the project's text wins over the built-in catalog. 'message show' prints the chain it walked.",
        subcommands: [set, show, rm],
        examples: [Example("relctl message show --locale tr", "The Turkish texts and where each comes from."), Example("relctl message set optional --locale en --later-button \"Not now\"", "Change one English button.")]
    )

    static let set: RunnableCommand = RunnableCommand(
        "set", abstract: "Set message text for a kind and locale.",
        arguments: [Argument("KIND", help: "Which message.", allowed: Catalog.kinds)],
        options: [Shared.locale("The locale of the text.")]
            + fieldOptions.map { Option($0.option, value: "TEXT", help: $0.help) } + [Shared.dryRun],
        examples: [Example("relctl message set required --locale en --title \"Time to update\"", "Change the English title of required updates.")]
    ) { inv in
        let kind = inv.arg("KIND")!
        guard let locale = try inv.locale(inv.value("locale")) else {
            throw RelctlError.usage("--locale is required", hint: "name the locale of the text, like --locale en")
        }
        let allowedFields = Catalog.fields[kind]!
        var changes: [(String, String)] = []
        for f in fieldOptions {
            guard let text = inv.value(f.option) else { continue }
            guard allowedFields.contains(f.field) else {
                throw RelctlError.usage("--\(f.option) does not apply to \(kind) messages",
                                        hint: "\(kind) messages have: \(allowedFields.map { "--" + $0.replacing("_", with: "-") }.joined(separator: ", "))")
            }
            guard !text.trimmingSpaces().isEmpty else {
                throw RelctlError.usage("--\(f.option) is empty", hint: "give text, or remove the override with 'relctl message rm \(kind) --locale \(locale)'")
            }
            try MaintenanceCommands.validate(text, kind: kind, option: "--\(f.option)")
            changes.append((f.field, text))
        }
        guard !changes.isEmpty else {
            throw RelctlError.usage("no text given", hint: "give at least one of \(allowedFields.map { "--" + $0.replacing("_", with: "-") }.joined(separator: ", "))")
        }
        let store = try inv.store()
        let project = try inv.project(in: store)
        try inv.write(store) { try $0.setMessages(of: project, kind: kind, locale: locale, fields: changes.map { (field: $0.0, text: $0.1) }, now: inv.now) }
        for (field, text) in changes { MaintenanceCommands.warnDirection(inv, text, locale: locale, option: "--" + field.replacing("_", with: "-")) }
        inv.info("set \(changes.count) \(kind) text\(changes.count == 1 ? "" : "s") for \(locale)")
        try inv.printWritten {
            let resolver = MessageResolver(overrides: try store.messageOverrides(project: project.id), defaultLocale: project.defaultLocale)
            return document(resolver, locale: locale).json
        }
    }

    /// What a locale gets, as 'message show' prints it: JSON and table rows.
    static func document(_ resolver: MessageResolver, locale: String) -> (json: JSON, rows: [[String]]) {
        var rows: [[String]] = []
        var doc: [String: JSON] = [:]
        for kind in Catalog.kinds {
            var fields: [String: JSON] = [:]
            for field in Catalog.fields[kind]! {
                let r = resolver.resolve(kind, field, locale: locale)
                rows.append([kind, field, r.value, r.source])
                fields[JSONKey.camel(field)] = .object(["text": .string(r.value), "source": .string(r.source)])
            }
            doc[kind] = .object(fields)
        }
        let chain = Catalog.chainGroups(locale, defaultLocale: resolver.defaultLocale)
        return (.object(["locale": .string(locale), "messages": .object(doc),
                         "chain": .array(chain.map { .array($0.map { .string($0) }) })]), rows)
    }

    /// The locales a tag walks, a step per group: "zh-TW, zh-Hant-TW, zh-Hant → en".
    static func chainLine(_ resolver: MessageResolver, locale: String) -> String {
        "chain: " + Catalog.chainGroups(locale, defaultLocale: resolver.defaultLocale)
            .map { $0.joined(separator: ", ") }.joined(separator: " → ")
    }

    static let show: RunnableCommand = RunnableCommand(
        "show", abstract: "Show the messages a locale gets, and where each string comes from.",
        options: [Shared.locale("The locale to resolve (default the project's default locale).")],
        examples: [Example("relctl message show --locale pt-BR --json", "Brazilian Portuguese texts as JSON.")]
    ) { inv in
        let store = try inv.store(.read)
        let project = try inv.project(in: store)
        let locale = try inv.locale(inv.value("locale")) ?? project.defaultLocale
        let resolver = MessageResolver(overrides: try store.messageOverrides(project: project.id), defaultLocale: project.defaultLocale)
        let (json, rows) = document(resolver, locale: locale)
        inv.render(json) {
            chainLine(resolver, locale: locale) + "\n\n" + Table.render(["KIND", "FIELD", "TEXT", "FROM"], rows)
        }
    }

    static let rm: RunnableCommand = RunnableCommand(
        "rm", abstract: "Remove a locale's overrides of one kind.",
        arguments: [Argument("KIND", help: "Which message.", allowed: Catalog.kinds)],
        options: [Shared.locale("The locale whose overrides to remove."), Shared.dryRun, Shared.yes],
        examples: [Example("relctl message rm optional --locale en --yes", "Back to the catalog's English optional texts.")]
    ) { inv in
        let kind = inv.arg("KIND")!
        guard let locale = try inv.locale(inv.value("locale")) else {
            throw RelctlError.usage("--locale is required", hint: "name the locale, like --locale en")
        }
        let store = try inv.store()
        let project = try inv.project(in: store)
        try inv.write(store, project, asking: "removing the \(kind) texts for \(locale)") { s in
            try s.removeMessages(of: project, kind: kind, locale: locale, now: inv.now)
        }
        inv.info("removed the \(kind) overrides for \(locale)")
    }
}
