enum ProjectCommands {
    static let slug: Argument = Argument("SLUG", help: "The project's short name: lowercase letters, digits and '-' (used in published paths).",
                               completion: .dynamic(.projects))
    static let name: Option = Option("name", value: "NAME", help: "The app's display name, used in messages as {app}.")
    static let defaultLocale: Option = Option("default-locale", value: "LOCALE", help: "The locale used when a user's language has no text (default en).",
                                      completion: .dynamic(.locales))
    static let locales: Option = Option("locales", value: "LIST", help: "Comma-separated locales to publish, like en,tr,de; empty derives them from notes and messages.")

    static let command: Command = Command(
        "project", abstract: "Manage projects (apps).",
        subcommands: [add, list, show, edit, rm, use],
        examples: [Example("relctl project add shop --name \"Shop\"", "Add the app 'shop'.")]
    )

    static let add: Command = Command(
        "add", abstract: "Add a project.",
        arguments: [Argument("SLUG", help: slug.help)],
        options: [name, defaultLocale, locales],
        examples: [Example("relctl project add shop --name \"Shop\" --default-locale en", "Add the app 'shop'.")]
    ) { inv in
        let slug = try Names.slug(inv.arg("SLUG")!)
        let display = inv.value("name") ?? slug
        let locale = try inv.locale(inv.value("default-locale")) ?? "en"
        let list = try parseLocales(inv.value("locales"))
        let store = try inv.store()
        try store.change(project: slug, "project add \(slug) name=\(display)", now: inv.now) {
            if try store.projects().contains(where: { $0.slug == slug }) {
                throw RelctlError.failure("project '\(slug)' already exists", hint: "choose another slug, or change it with 'relctl project edit \(slug)'")
            }
            try store.db.run("INSERT INTO project(slug, name, default_locale, locales, rules) VALUES (?, ?, ?, ?, ?)",
                             [.text(slug), .text(display), .text(locale), .text(list.joined(separator: ",")), .text(Rules.standard.stored)])
        }
        inv.info("added project \(slug)")
    }

    static func parseLocales(_ text: String?) throws -> [String] {
        guard let text, !text.isEmpty else { return [] }
        var seen: [String] = []
        for part in text.split(separator: ",") {
            let tag = try LocaleTag.normalize(part.trimmingSpaces())
            if !seen.contains(tag) { seen.append(tag) }
        }
        return seen
    }

    static func json(_ p: ProjectRecord, platforms: [PlatformRecord], counts: [Int64: Int]) -> JSON {
        .object([
            "slug": .string(p.slug), "name": .string(p.name), "defaultLocale": .string(p.defaultLocale),
            "locales": .array(p.locales.map { .string($0) }),
            "platforms": .array(platforms.map { PlatformCommands.json($0, versions: counts[$0.id] ?? 0) }),
        ])
    }

    static let list: Command = Command("list", abstract: "List projects.") { inv in
        let store = try inv.store(.read)
        let (projects, platforms, counts, current) = try store.read {
            (try store.projects(), try store.allPlatforms(), try versionCounts(store), try store.meta("default_project"))
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

    static func versionCounts(_ store: Store) throws -> [Int64: Int] {
        var counts: [Int64: Int] = [:]
        for r in try store.db.query("SELECT platform_id, count(*) FROM version GROUP BY platform_id") {
            counts[r.int(0)!] = Int(r.int(1)!)
        }
        return counts
    }

    /// The project named by SLUG, or the resolved one when SLUG is absent.
    static func named(_ inv: Invocation, _ store: Store) throws -> ProjectRecord {
        guard let slug = inv.arg("SLUG") else { return try inv.project(in: store) }
        let all = try store.projects()
        guard let p = all.first(where: { $0.slug == slug }) else {
            throw RelctlError.failure("no project '\(slug)'\(Suggest.didYouMean(slug, all.map(\.slug)))",
                                      hint: "see 'relctl project list'")
        }
        return p
    }

    static let show: Command = Command(
        "show", abstract: "Show a project and its platforms.",
        arguments: [Argument("SLUG", help: slug.help, optional: true, completion: .dynamic(.projects))]
    ) { inv in
        let store = try inv.store(.read)
        let (p, platforms, counts) = try store.read {
            let p = try named(inv, store)
            return (p, try store.platforms(project: p.id), try versionCounts(store))
        }
        inv.render(json(p, platforms: platforms, counts: counts)) {
            var s = "project:        \(p.slug)\nname:           \(p.name)\ndefault locale: \(p.defaultLocale)\n"
            s += "locales:        \(p.locales.isEmpty ? "(from notes and messages)" : p.locales.joined(separator: ", "))\n"
            if !platforms.isEmpty {
                s += "\n" + Table.render(["PLATFORM", "BUNDLE ID", "APP STORE ID", "MIN OS", "VERSIONS"], platforms.map {
                    [$0.name, $0.bundleID ?? "-", $0.appStoreID ?? "-", $0.minOS ?? "-", String(counts[$0.id] ?? 0)]
                })
            }
            return s
        }
    }

    static let edit: Command = Command(
        "edit", abstract: "Change a project's name or locales.",
        arguments: [Argument("SLUG", help: slug.help, completion: .dynamic(.projects))],
        options: [name, defaultLocale, locales]
    ) { inv in
        let locale = try inv.locale(inv.value("default-locale"))
        let list = inv.given("locales") ? try parseLocales(inv.value("locales")) : nil
        guard inv.given("name") || locale != nil || list != nil else {
            throw RelctlError.usage("nothing to change", hint: "give --name, --default-locale or --locales")
        }
        let store = try inv.store()
        let slug = inv.arg("SLUG")!
        try store.change(project: slug, "project edit \(slug)", now: inv.now) {
            let p = try named(inv, store)
            try store.db.run("UPDATE project SET name = ?, default_locale = ?, locales = ? WHERE id = ?",
                             [.text(inv.value("name") ?? p.name), .text(locale ?? p.defaultLocale),
                              .text((list ?? p.locales).joined(separator: ",")), .int(p.id)])
        }
        inv.info("updated project \(slug)")
    }

    static let rm: Command = Command(
        "rm", abstract: "Remove a project with all its platforms, versions and settings.",
        arguments: [Argument("SLUG", help: slug.help, completion: .dynamic(.projects))],
        options: [Shared.yes]
    ) { inv in
        let store = try inv.store()
        let slug = inv.arg("SLUG")!
        _ = try named(inv, store)
        try inv.confirm("Remove project '\(slug)' and everything in it?")
        try store.change(project: slug, "project rm \(slug)", now: inv.now) {
            let p = try named(inv, store)
            try store.db.run("DELETE FROM project WHERE id = ?", [.int(p.id)])
            if try store.meta("default_project") == slug { try store.setMeta("default_project", nil) }
        }
        inv.info("removed project \(slug)")
    }

    static let use: Command = Command(
        "use", abstract: "Make a project the default for commands without -p.",
        arguments: [Argument("SLUG", help: slug.help, completion: .dynamic(.projects))]
    ) { inv in
        let store = try inv.store()
        let slug = inv.arg("SLUG")!
        try store.change(project: slug, "project use \(slug)", now: inv.now) {
            _ = try named(inv, store)
            try store.setMeta("default_project", slug)
        }
        inv.info("now using project \(slug)")
    }
}
