enum PlatformCommands {
    static let nameArgument: Argument = Argument("PLATFORM", help: "The platform: \(Names.knownPlatforms.joined(separator: ", ")).",
                                       allowed: Names.knownPlatforms)
    static let bundleID: Option = Option("bundle-id", value: "ID", help: "The bundle id (Apple) or package name (Android), like com.example.shop.")
    static let appStoreID: Option = Option("app-store-id", value: "ID", help: "The numeric App Store id, like 1088280260 (Apple platforms).")
    static let minOS: Option = Option("min-os", value: "VERSION", help: "The minimum OS version the app supports, like 15.0.")
    static let storeURL: Option = Option("store-url", value: "URL", help: "Where users update; defaults to the App Store or Google Play page.")

    static let command: Command = Command(
        "platform", abstract: "Manage the platforms of a project.",
        subcommands: [add, list, show, edit, rm]
    )

    static func json(_ p: PlatformRecord, versions: Int? = nil) -> JSON {
        var o: [String: JSON] = [
            "name": .string(p.name), "bundleId": .optional(p.bundleID), "appStoreId": .optional(p.appStoreID),
            "storeUrl": .optional(p.storeURL), "minOs": .optional(p.minOS), "updateUrl": .optional(p.updateURL),
        ]
        if let versions { o["versions"] = .int(versions) }
        return .object(o)
    }

    static func fields(_ inv: Invocation) throws -> (bundle: String?, store: String?, minOS: String?, url: String?) {
        (try inv.value("bundle-id").map(Names.bundleID), try inv.value("app-store-id").map(Names.appStoreID),
         try inv.value("min-os").map(Names.osVersion), try inv.value("store-url").map(Names.url))
    }

    static let add: Command = Command(
        "add", abstract: "Add a platform to the project.",
        arguments: [nameArgument],
        options: [bundleID, appStoreID, minOS, storeURL],
        examples: [Example("relctl platform add ios --bundle-id com.example.shop --app-store-id 1088280260", "Add the iOS app."),
                   Example("relctl platform add android --bundle-id com.example.shop", "Add the Android app.")]
    ) { inv in
        let name = try Names.platform(inv.arg("PLATFORM")!)
        let f = try fields(inv)
        guard let bundle = f.bundle else {
            throw RelctlError.usage("--bundle-id is required", hint: "give the bundle id or package name, like --bundle-id com.example.shop")
        }
        if f.store != nil && !Names.applePlatforms.contains(name) {
            throw RelctlError.usage("--app-store-id is for Apple platforms, not \(name)", hint: "leave it out for \(name)")
        }
        let store = try inv.store()
        let project = try inv.project(in: store)
        try store.change(project: project.slug, "platform add \(name) bundle=\(bundle)", now: inv.now) {
            if try store.platforms(project: project.id).contains(where: { $0.name == name }) {
                throw RelctlError.failure("project '\(project.slug)' already has platform \(name)", hint: "change it with 'relctl platform edit \(name)'")
            }
            try store.db.run("INSERT INTO platform(project_id, name, bundle_id, app_store_id, min_os, store_url) VALUES (?, ?, ?, ?, ?, ?)",
                             [.int(project.id), .text(name), .text(bundle), SQLValue(f.store), SQLValue(f.minOS), SQLValue(f.url)])
        }
        if Names.applePlatforms.contains(name) && f.store == nil {
            inv.warn("no --app-store-id: publishing the AndVersion manifest needs one; add it with 'relctl platform edit \(name) --app-store-id ID'")
        }
        inv.info("added platform \(name) to \(project.slug)")
    }

    static let list: Command = Command("list", abstract: "List the project's platforms.") { inv in
        let store = try inv.store(.read)
        let (project, platforms, counts) = try store.read {
            let p = try inv.project(in: store)
            return (p, try store.platforms(project: p.id), try ProjectCommands.versionCounts(store))
        }
        inv.render(.object(["project": .string(project.slug), "platforms": .array(platforms.map { json($0, versions: counts[$0.id] ?? 0) })])) {
            Table.render(["PLATFORM", "BUNDLE ID", "APP STORE ID", "MIN OS", "VERSIONS"], platforms.map {
                [$0.name, $0.bundleID ?? "-", $0.appStoreID ?? "-", $0.minOS ?? "-", String(counts[$0.id] ?? 0)]
            })
        }
    }

    /// PLATFORM when given as an argument, else --platform, else the only one.
    static func named(_ inv: Invocation, _ store: Store, _ project: ProjectRecord) throws -> PlatformRecord {
        if let name = inv.arg("PLATFORM") {
            let all = try store.platforms(project: project.id)
            guard let p = all.first(where: { $0.name == name.lowercased() }) else {
                throw RelctlError.failure("project '\(project.slug)' has no platform '\(name)'",
                                          hint: all.isEmpty ? "add one with 'relctl platform add \(name) --bundle-id ID'" : "its platforms: \(all.map(\.name).joined(separator: ", "))")
            }
            return p
        }
        return try inv.platform(in: store, project: project)
    }

    static let optionalName: Argument = Argument("PLATFORM", help: "The platform; not needed when the project has one.", optional: true,
                                       completion: .dynamic(.platforms))

    static let show: Command = Command("show", abstract: "Show a platform.", arguments: [optionalName]) { inv in
        let store = try inv.store(.read)
        let (project, p, count) = try store.read {
            let project = try inv.project(in: store)
            let p = try named(inv, store, project)
            return (project, p, try store.versions(platform: p.id, withNotes: false).count)
        }
        inv.render(json(p, versions: count)) {
            """
            project:      \(project.slug)
            platform:     \(p.name)
            bundle id:    \(p.bundleID ?? "-")
            app store id: \(p.appStoreID ?? "-")
            min OS:       \(p.minOS ?? "-")
            update URL:   \(p.updateURL ?? "-")
            versions:     \(count)

            """
        }
    }

    static let edit: Command = Command(
        "edit", abstract: "Change a platform's ids, minimum OS or store URL.",
        arguments: [optionalName], options: [bundleID, appStoreID, minOS, storeURL]
    ) { inv in
        let f = try fields(inv)
        guard f.bundle != nil || f.store != nil || f.minOS != nil || f.url != nil else {
            throw RelctlError.usage("nothing to change", hint: "give --bundle-id, --app-store-id, --min-os or --store-url")
        }
        let store = try inv.store()
        let project = try inv.project(in: store)
        let p = try named(inv, store, project)
        if f.store != nil && !p.isApple {
            throw RelctlError.usage("--app-store-id is for Apple platforms, not \(p.name)", hint: "leave it out for \(p.name)")
        }
        try store.change(project: project.slug, "platform edit \(p.name)", now: inv.now) {
            try store.db.run("UPDATE platform SET bundle_id = ?, app_store_id = ?, min_os = ?, store_url = ? WHERE id = ?",
                             [SQLValue(f.bundle ?? p.bundleID), SQLValue(f.store ?? p.appStoreID), SQLValue(f.minOS ?? p.minOS),
                              SQLValue(f.url ?? p.storeURL), .int(p.id)])
        }
        inv.info("updated platform \(p.name)")
    }

    static let rm: Command = Command(
        "rm", abstract: "Remove a platform with its versions.",
        arguments: [Argument("PLATFORM", help: "The platform to remove.", completion: .dynamic(.platforms))],
        options: [Shared.yes]
    ) { inv in
        let store = try inv.store()
        let project = try inv.project(in: store)
        let p = try named(inv, store, project)
        try inv.confirm("Remove platform \(p.name) of '\(project.slug)' with all its versions?")
        try store.change(project: project.slug, "platform rm \(p.name)", now: inv.now) {
            try store.db.run("DELETE FROM platform WHERE id = ?", [.int(p.id)])
        }
        inv.info("removed platform \(p.name) from \(project.slug)")
    }
}
