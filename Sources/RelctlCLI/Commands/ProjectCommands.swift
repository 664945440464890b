import RelctlCore
import RelctlStore

/// `relctl project`: the apps in the database.
enum ProjectCommands {
    static let slug: Argument = Argument("SLUG", help: "The project's short name: lowercase letters, digits and '-' (used in published paths).",
                               completion: .dynamic(.projects))
    static let name: Option = Option("name", value: "NAME", help: "The app's display name, used in messages as {app}.")
    static let defaultLocale: Option = Option("default-locale", value: "LOCALE", help: "The locale used when a user's language has no text (default en).",
                                      completion: .dynamic(.locales))
    static let locales: Option = Option("locales", value: "LIST", help: "Comma-separated locales to publish, like en,tr,de; empty derives them from notes and messages.")
    static let formats: Option = Option("formats", value: "LIST", help: "The formats the apps read, the only ones publish writes, proves and warns about: \(ServedFormats.accepted), like control,siren (default all).")

    /// --formats, when given.
    static func parseFormats(_ inv: Invocation) throws -> ServedFormats? {
        guard let text = inv.value("formats") else { return nil }
        let names = text.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingSpaces().lowercased() }
        for name in names where name != "all" && ServedFormat(rawValue: name) == nil {
            throw RelctlError.usage("unknown format '\(name)' in --formats\(Suggest.didYouMean(name, ServedFormat.allCases.map(\.rawValue)))", hint: "give \(ServedFormats.accepted)")
        }
        guard let formats = ServedFormats(stored: names.joined(separator: ",")) else {
            throw RelctlError.usage("--formats '\(text)' names a format twice, or 'all' beside others", hint: "give \(ServedFormats.accepted)")
        }
        return formats
    }

    static let command: RunnableCommand = RunnableCommand(
        "project", abstract: "Manage projects (apps).",
        subcommands: [add, list, show, edit, rm, use],
        examples: [Example("relctl project add shop --name \"Shop\"", "Add the app 'shop'.")]
    )

    static let add: RunnableCommand = RunnableCommand(
        "add", abstract: "Add a project.",
        arguments: [Argument("SLUG", help: slug.help)],
        options: [name, defaultLocale, locales, formats, Shared.dryRun],
        examples: [Example("relctl project add shop --name \"Shop\" --default-locale en", "Add the app 'shop'."),
                   Example("relctl project add shop --name \"Shop\" --formats control,siren", "An app that reads control.json and Siren's files: only those are published.")]
    ) { inv in
        let slug = try Names.slug(inv.arg("SLUG")!)
        let display = try inv.value("name").map(Names.appName) ?? slug
        let locale = try inv.locale(inv.value("default-locale")) ?? "en"
        let list = try parseLocales(inv.value("locales"))
        let served = try parseFormats(inv) ?? .all
        let store = try inv.store()
        try inv.write(store) { try $0.addProject(slug: slug, name: display, defaultLocale: locale, locales: list, formats: served, now: inv.now) }
        inv.info("added project \(slug)")
        try inv.printWritten { try written(store, slug) }
    }

    static func parseLocales(_ text: String?) throws -> [String] {
        guard let text, !text.isEmpty else { return [] }
        var seen: [String] = []
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            guard !part.trimmingSpaces().isEmpty else {
                throw RelctlError.usage("--locales '\(text)' has an empty entry", hint: "separate locales with single commas, like en,tr,de")
            }
            let tag = try LocaleTag.normalize(part.trimmingSpaces())
            if !seen.contains(tag) { seen.append(tag) }
        }
        return seen
    }

    /// A project as 'project show --json' prints it, read back after a change.
    static func written(_ store: Store, _ slug: String) throws -> JSON {
        try store.read {
            let p = try store.requireProject(slug)
            return json(p, platforms: try store.platforms(project: p.id), counts: try store.versionCounts())
        }
    }

    static func json(_ p: ProjectRecord, platforms: [PlatformRecord], counts: [Int64: Int]) -> JSON {
        .object([
            "slug": .string(p.slug), "name": .string(p.name), "defaultLocale": .string(p.defaultLocale), "timeZone": .string(p.timeZone),
            "locales": .array(p.locales.map { .string($0) }), "formats": .array(p.formats.names.map { .string($0) }),
            "platforms": .array(platforms.map { PlatformCommands.json($0, versions: counts[$0.id] ?? 0) }),
        ])
    }

    static let list: RunnableCommand = RunnableCommand("list", abstract: "List projects.", examples: [Example("relctl project list", "Every project with its platforms.")]) { inv in
        let store = try inv.store(.read)
        let (projects, platforms, counts, current) = try store.read {
            (try store.projects(), try store.allPlatforms(), try store.versionCounts(), try store.defaultProject)
        }
        inv.render(.object(["projects": .array(projects.map { p in json(p, platforms: platforms.filter { $0.projectID == p.id }, counts: counts) }),
                            "default": .optional(current)])) {
            if projects.isEmpty { return "" }
            return Table.render(["SLUG", "NAME", "PLATFORMS", "VERSIONS"], projects.map { p in
                let mine = platforms.filter { $0.projectID == p.id }
                return [(p.slug == current ? "* " : "") + p.slug, p.name, mine.map(\.name).joined(separator: ","),
                        String(mine.reduce(0) { $0 + (counts[$1.id] ?? 0) })]
            })
        }
        if projects.isEmpty { inv.info("no projects yet; add one with 'relctl project add SLUG --name NAME'") }
    }

    /// The project named by SLUG, or the resolved one when SLUG is absent.
    static func named(_ inv: Invocation, _ store: Store) throws -> ProjectRecord {
        guard let slug = inv.arg("SLUG") else { return try inv.project(in: store) }
        if let p = inv.value("project"), p != slug {
            throw RelctlError.usage("SLUG '\(slug)' and -p '\(p)' name two projects", hint: "give one of them")
        }
        return try store.requireProject(slug)
    }

    static let show: RunnableCommand = RunnableCommand(
        "show", abstract: "Show a project and its platforms.",
        arguments: [Argument("SLUG", help: slug.help, optional: true, completion: .dynamic(.projects))],
        examples: [Example("relctl project show shop --json", "The project shop as JSON.")]
    ) { inv in
        let store = try inv.store(.read)
        let (p, platforms, counts) = try store.read {
            let p = try named(inv, store)
            return (p, try store.platforms(project: p.id), try store.versionCounts())
        }
        inv.render(json(p, platforms: platforms, counts: counts)) {
            var s = "project:        \(p.slug)\nname:           \(p.name)\ndefault locale: \(p.defaultLocale)\n"
            s += "locales:        \(p.locales.isEmpty ? "(from notes and messages)" : p.locales.joined(separator: ", "))\n"
            s += "time zone:      \(p.timeZone) (the dates in messages)\n"
            s += "formats:        \(p.formats.isAll ? "all" : p.formats.names.joined(separator: ", "))\n"
            if !platforms.isEmpty {
                s += "\n" + Table.render(["PLATFORM", "BUNDLE ID", "APP STORE ID", "MIN OS", "VERSIONS"], platforms.map {
                    [$0.name, $0.bundleID ?? "-", $0.appStoreID ?? "-", $0.minOS ?? "-", String(counts[$0.id] ?? 0)]
                })
            }
            return s
        }
    }

    static let edit: RunnableCommand = RunnableCommand(
        "edit", abstract: "Change a project's name, locales, time zone or formats.",
        discussion: "Without SLUG, the project of -p (or RELCTL_PROJECT, or 'relctl project use'), as every other command takes it.",
        arguments: [Argument("SLUG", help: slug.help, optional: true, completion: .dynamic(.projects))],
        options: [name, defaultLocale, locales, formats,
                  Option("time-zone", value: "ZONE", help: "The zone app messages show times in ({until}, {deadline}), like Europe/Istanbul (default UTC)."),
                  Shared.dryRun],
        examples: [Example("relctl project edit shop --locales en,tr,de", "Publish English, Turkish and German files."),
                   Example("relctl project edit shop --time-zone Europe/Istanbul", "Turkish users read 'Bakım 2 Aralık 2026 03:00 (UTC+3) itibarıyla bitecek'.")]
    ) { inv in
        let locale = try inv.locale(inv.value("default-locale"))
        let list = inv.flag("locales") ? try parseLocales(inv.value("locales")) : nil
        let zone = try inv.value("time-zone").map { z in
            let name = try Names.timeZoneName(z)
            try ZoneOffsets.check(name)
            return name
        }
        let served = try parseFormats(inv)
        guard inv.flag("name") || locale != nil || list != nil || zone != nil || served != nil else {
            throw RelctlError.usage("nothing to change", hint: "give --name, --default-locale, --locales, --time-zone or --formats")
        }
        let store = try inv.store()
        let slug = try named(inv, store).slug
        try inv.write(store) {
            try $0.editProject(slug, name: try inv.value("name").map(Names.appName), defaultLocale: locale, locales: list, timeZone: zone, formats: served, now: inv.now)
        }
        inv.info("updated project \(slug)")
        try inv.printWritten { try written(store, slug) }
    }

    static let rm: RunnableCommand = RunnableCommand(
        "rm", abstract: "Remove a project with all its platforms, versions and settings.",
        arguments: [Argument("SLUG", help: slug.help, completion: .dynamic(.projects))],
        options: [Shared.yes, Shared.dryRun],
        examples: [Example("relctl project rm shop --yes", "Remove shop with everything it holds.")]
    ) { inv in
        let store = try inv.store()
        let slug = inv.arg("SLUG")!
        _ = try named(inv, store)
        try inv.confirm("Remove project '\(slug)' and everything in it?")
        try inv.write(store) { try $0.removeProject(slug, now: inv.now) }
        inv.info("removed project \(slug)")
    }

    static let use: RunnableCommand = RunnableCommand(
        "use", abstract: "Make a project the default for commands without -p.",
        arguments: [Argument("SLUG", help: slug.help, completion: .dynamic(.projects))], options: [Shared.dryRun],
        examples: [Example("relctl project use shop", "Later commands act on shop without -p.")]
    ) { inv in
        let store = try inv.store()
        let slug = inv.arg("SLUG")!
        try inv.write(store) { try $0.useProject(slug, now: inv.now) }
        inv.info("now using project \(slug)")
    }
}
