import RelctlCore
import RelctlStore

/// `relctl platform`: the platforms of a project and their store ids.
enum PlatformCommands {
    static let nameArgument: Argument = Argument("PLATFORM", help: "The platform: \(Names.knownPlatforms.joined(separator: ", ")).",
                                       allowed: Names.knownPlatforms)
    static let bundleID: Option = Option("bundle-id", value: "ID", help: "The bundle id (Apple) or package name (Android), like com.example.shop.")
    static let appStoreID: Option = Option("app-store-id", value: "ID", help: "The numeric App Store id, like 1088280260 (Apple platforms).")
    static let minOS: Option = Option("min-os", value: "VERSION", help: "The minimum OS version the app supports, like 15.0.")
    static let storeURL: Option = Option("store-url", value: "URL", help: "Where users update; defaults to the App Store or Google Play page.")
    static let storefronts: Option = Option("storefronts", value: "CODES",
                                            help: "Where the app sells: ISO 3166 country codes, like us,de,tr ('' for none). Floors and pins are then checked against what each storefront's store serves ('relctl store').")

    static let command: RunnableCommand = RunnableCommand(
        "platform", abstract: "Manage the platforms of a project.",
        subcommands: [add, list, show, edit, rm],
        examples: [Example("relctl platform list", "The project's platforms."), Example("relctl platform add android --bundle-id com.example.shop", "Add the Android app.")]
    )

    /// A platform as 'platform show --json' prints it, read back after a change.
    static func written(_ store: Store, _ project: ProjectRecord, _ name: String) throws -> JSON {
        try store.read {
            let p = try store.platforms(project: project.id).first { $0.name == name }!
            return json(p, versions: try store.versions(platform: p.id, withNotes: false).count, project: project.slug)
        }
    }

    static func json(_ p: PlatformRecord, versions: Int? = nil, project: String? = nil) -> JSON {
        var o: [String: JSON] = [
            "name": .string(p.name), "bundleId": .optional(p.bundleID), "appStoreId": .optional(p.appStoreID),
            "storeUrl": .optional(p.storeURL), "minOs": .optional(p.minOS), "updateUrl": .optional(p.updateURL),
            "storefronts": .array(p.storefronts.map { .string($0) }),
        ]
        if let versions { o["versions"] = .int(versions) }
        if let project { o["project"] = .string(project) }
        return .object(o)
    }

    static func fields(_ inv: Invocation) throws -> (bundle: String?, store: String?, minOS: String?, url: String?, storefronts: [String]?) {
        (try inv.value("bundle-id").map(Names.bundleID), try inv.value("app-store-id").map(Names.appStoreID),
         try inv.value("min-os").map(Names.osVersion), try inv.value("store-url").map(Names.url), try inv.value("storefronts").map(Names.storefronts))
    }

    static let add: RunnableCommand = RunnableCommand(
        "add", abstract: "Add a platform to the project.",
        arguments: [nameArgument],
        options: [bundleID, appStoreID, minOS, storeURL, storefronts, Shared.dryRun],
        examples: [Example("relctl platform add ios --bundle-id com.example.shop --app-store-id 1088280260 --storefronts us,de", "Add the iOS app, sold in the US and Germany."),
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
        try inv.write(store) {
            try $0.addPlatform(to: project, name: name, bundleID: bundle, appStoreID: f.store, minOS: f.minOS, storeURL: f.url,
                               storefronts: f.storefronts ?? [], now: inv.now)
        }
        if Names.applePlatforms.contains(name) && f.store == nil {
            inv.warn("no --app-store-id: publishing the AndVersion manifest needs one; add it with 'relctl platform edit \(name) --app-store-id ID -p \(project.slug)'")
        }
        inv.info("added platform \(name) to \(project.slug)")
        try inv.printWritten { try written(store, project, name) }
    }

    static let list: RunnableCommand = RunnableCommand("list", abstract: "List the project's platforms.", examples: [Example("relctl platform list --json", "The platforms as JSON.")]) { inv in
        let store = try inv.store(.read)
        let (project, platforms, counts) = try store.read {
            let p = try inv.project(in: store)
            return (p, try store.platforms(project: p.id), try store.versionCounts())
        }
        inv.render(.object(["project": .string(project.slug), "platforms": .array(platforms.map { json($0, versions: counts[$0.id] ?? 0) })])) {
            Table.render(["PLATFORM", "BUNDLE ID", "APP STORE ID", "MIN OS", "STOREFRONTS", "VERSIONS"], platforms.map {
                [$0.name, $0.bundleID ?? "-", $0.appStoreID ?? "-", $0.minOS ?? "-", $0.storefronts.isEmpty ? "-" : $0.storefronts.joined(separator: ","), String(counts[$0.id] ?? 0)]
            })
        }
    }

    /// PLATFORM when given as an argument, else --platform, else the only one.
    static func named(_ inv: Invocation, _ store: Store, _ project: ProjectRecord) throws -> PlatformRecord {
        try inv.platform(in: store, project: project, named: inv.arg("PLATFORM"))
    }

    static let optionalName: Argument = Argument("PLATFORM", help: "The platform; not needed when the project has one.", optional: true,
                                       completion: .dynamic(.platforms))

    static let show: RunnableCommand = RunnableCommand("show", abstract: "Show a platform.", arguments: [optionalName],
        examples: [Example("relctl platform show ios", "The iOS app's ids, floors and store URL.")]) { inv in
        let store = try inv.store(.read)
        let (project, p, count) = try store.read {
            let project = try inv.project(in: store)
            let p = try named(inv, store, project)
            return (project, p, try store.versions(platform: p.id, withNotes: false).count)
        }
        inv.render(json(p, versions: count, project: project.slug)) {
            """
            project:      \(project.slug)
            platform:     \(p.name)
            bundle id:    \(p.bundleID ?? "-")
            app store id: \(p.appStoreID ?? "-")
            min OS:       \(p.minOS ?? "-")
            update URL:   \(p.updateURL ?? "-")
            storefronts:  \(p.storefronts.isEmpty ? "- (floors are not checked against the stores)" : p.storefronts.joined(separator: ","))
            versions:     \(count)

            """
        }
    }

    static let edit: RunnableCommand = RunnableCommand(
        "edit", abstract: "Change a platform's ids, minimum OS, store URL or storefronts.",
        arguments: [optionalName], options: [bundleID, appStoreID, minOS, storeURL, storefronts, Shared.dryRun],
        examples: [Example("relctl platform edit ios --min-os 16.0", "iOS 16 or later from now on."),
                   Example("relctl platform edit ios --storefronts us,de,tr", "The iOS app sells in the US, Germany and Turkey: floors are checked against those stores.")]
    ) { inv in
        let f = try fields(inv)
        guard f.bundle != nil || f.store != nil || f.minOS != nil || f.url != nil || f.storefronts != nil else {
            throw RelctlError.usage("nothing to change", hint: "give --bundle-id, --app-store-id, --min-os, --store-url or --storefronts")
        }
        let store = try inv.store()
        let project = try inv.project(in: store)
        let p = try named(inv, store, project)
        if f.store != nil && !p.isApple {
            throw RelctlError.usage("--app-store-id is for Apple platforms, not \(p.name)", hint: "leave it out for \(p.name)")
        }
        try inv.write(store, projects: [project.slug]) { s in
            try s.editPlatform(p, of: project, bundleID: f.bundle, appStoreID: f.store, minOS: f.minOS, storeURL: f.url, storefronts: f.storefronts, now: inv.now)
        }
        inv.info("updated platform \(p.name)")
        if let fronts = f.storefronts, fronts.isEmpty, !p.storefronts.isEmpty {
            inv.warn("\(p.name) names no storefronts now: its floors and pins are no longer checked against the stores")
        }
        // Storefronts named: the floors already live are checked now, and said when the stores do not serve them.
        if let fronts = f.storefronts, !fronts.isEmpty, !inv.dryRun {
            let snapshot = try store.read { try store.snapshot(project, notesShownAt: inv.now) }
            if let now = snapshot.platforms.first(where: { $0.id == p.id }) {
                for line in StoreCommands.targetLines(now, snapshot, now: inv.now, at: inv.now) where line.hasPrefix("not served") { inv.warn(line) }
            }
        }
        try inv.printWritten { try written(store, project, p.name) }
    }

    static let rm: RunnableCommand = RunnableCommand(
        "rm", abstract: "Remove a platform with its versions.",
        arguments: [Argument("PLATFORM", help: "The platform to remove.", completion: .dynamic(.platforms))],
        options: [Shared.yes, Shared.dryRun],
        examples: [Example("relctl platform rm android --yes", "Remove the Android app and its versions.")]
    ) { inv in
        let store = try inv.store()
        let project = try inv.project(in: store)
        let p = try named(inv, store, project)
        try inv.confirm("Remove platform \(p.name) of '\(project.slug)' with all its versions?")
        try inv.write(store) { try $0.removePlatform(p, of: project, now: inv.now) }
        inv.info("removed platform \(p.name) from \(project.slug)")
    }
}
