import RelctlCore
import RelctlPublish
import RelctlStore

/// `relctl import`: bring a file a team already hosts into a project.
enum ImportCommands {
    static let file: Argument = Argument("FILE", help: "The file to import ('-' for standard input).", completion: .file)
    static let dryRun: Option = Option("dry-run", short: "n", help: "List what would be created or changed, and any conflicts; change nothing.")
    static let replace: Option = Option("replace", help: "Take the file's values where the database holds different ones.")

    static let command: RunnableCommand = RunnableCommand(
        "import", abstract: "Bring an existing Retired, AndVersion or relctl control file into a project.",
        discussion: "Versions a Retired or AndVersion file lists are created when missing, released one release delay ago (the file is live, so they are announced). A file a client would crash on or ignore is refused with the reason. Values the database already holds differently are conflicts: listed by --dry-run, refused unless --replace.",
        subcommands: [retired, andVersion, control],
        examples: [Example("relctl import retired versions-en.json --platform ios --locale en --dry-run", "See what importing a Retired file would create or change.")]
    )

    static let retired: RunnableCommand = RunnableCommand(
        "retired", abstract: "Import a Retired versions file: versions, their policies (leading forced versions as the force floor, the rest as pins) and messaging.",
        arguments: [file], options: [Shared.platform, Shared.locale, dryRun, replace, Shared.allowStoreRisk, Shared.yes],
        examples: [Example("relctl import retired versions-en.json --platform ios --locale en", "Move a hand-edited Retired file in.")]
    ) { inv in
        try run(inv, format: "retired") { bytes, snapshot, platform in
            let locale = try inv.locale(inv.value("locale")) ?? snapshot.project.defaultLocale
            return try FileImport.retired(bytes, snapshot: snapshot, platform: platform, locale: locale)
        }
    }

    static let andVersion: RunnableCommand = RunnableCommand(
        "andversion", abstract: "Import an AndVersion manifest: the current version, MinVersion as the force floor, WhatsNew as notes, the App Store id.",
        discussion: "On Android CurrentVersion and MinVersion are versionCodes: they must be builds of recorded versions.",
        arguments: [file], options: [Shared.platform, dryRun, replace, Shared.allowStoreRisk, Shared.yes],
        examples: [Example("relctl import andversion andversion.json --platform ios", "Move a hand-edited AndVersion manifest in.")]
    ) { inv in
        try run(inv, format: "andversion") { bytes, snapshot, platform in
            try FileImport.andVersion(bytes, snapshot: snapshot, platform: platform)
        }
    }

    static let control: RunnableCommand = RunnableCommand(
        "control", abstract: "Import a control.json that relctl published: a whole project, to move it between databases.",
        discussion: "Creates the project named in the file (or the one given with -p) when it is missing, with its settings (the what's-new limit among them), platforms, versions (builds, release times, minimum OS), floors, pins, the update messages where they differ from the built-in text, and the active and upcoming maintenance windows (keeping their ids when free). control.json does not carry release notes, past or cancelled windows, or text for locales the project does not publish: copy those separately. Publishing the imported project gives the same control.json.",
        arguments: [file], options: [dryRun, replace, Shared.allowStoreRisk, Shared.yes],
        examples: [Example("relctl --db new.db import control out/shop/control.json", "Move the project shop into new.db."),
                   Example("relctl import control shop-control.json -p shop-staging --dry-run", "See what a copy of shop named shop-staging would hold.")]
    ) { inv in
        let path = inv.arg("FILE")!
        let slugOption = try inv.value("project").map(Names.slug)
        var bytes = path == "-" ? try inv.context.readStdin() : try FileSystem.readFile(path, limit: FileSystem.inputLimit)
        // A signed one is the document inside: the keys that signed it are not in it (export carries them).
        if SignedDocument.isEnvelope(bytes) {
            do { bytes = try SignedDocument.unpack(bytes).payload } catch let refusal as SignedDocument.Refusal {
                throw RelctlError.failure("cannot import \(path): \(refusal.message)", hint: "give a DIR/<project>/control.json as relctl publish writes it")
            }
            inv.warn("\(path) is signed: its document is imported, not the keys the project trusts; trust them again with 'relctl keys trust KEY' (export and apply carry them)")
        }
        var file: ControlImport.File
        do { file = try ControlImport.read(bytes) } catch let error as ImportProblem {
            throw RelctlError.failure("cannot import \(path): \(error.message)", hint: "give a DIR/<project>/control.json as relctl publish writes it")
        }
        let slug = slugOption ?? file.bare.project.slug
        file.bare.project.slug = slug
        do { try ZoneOffsets.check(file.bare.project.timeZone) } catch let e as InputError {
            throw RelctlError.failure("cannot import \(path): project.timeZone: \(e.message)", hint: "install the zone database (tzdata), or set project.timeZone to UTC")
        }
        ZoneOffsets.fill(&file.bare)
        let plan = ControlImport.plan(file)
        let store = try inv.store()
        let existing = try store.read { try store.project(slug: slug).map { try store.snapshot($0) } }
        let changes = plan.changes(against: existing)
        let conflicts = plan.conflicts(against: existing)
        let document = JSON.object(["project": .string(slug), "changes": .array(changes.map { .string($0) }), "conflicts": .array(conflicts.map { .string($0) }),
                                    "dryRun": .bool(inv.flag("dry-run")), "notCarried": .string(ControlPlan.notCarried)])
        if inv.flag("dry-run") {
            inv.render(document) {
                (changes.isEmpty ? "nothing to change\n" : changes.map { "would \($0)\n" }.joined()) + conflicts.map { "conflict: \($0)\n" }.joined()
            }
            return
        }
        // Into a project that exists, floors and pins change what users see: the one --yes rule.
        let write = { (s: Session) in try s.importControl(plan, into: slug, file: path, replace: inv.flag("replace"), now: inv.now) }
        if let project = try store.project(slug: slug) { try inv.write(store, project, asking: "importing \(path)", write) } else { try inv.write(store, projects: [slug], write) }
        inv.render(document) { changes.map { "\($0)\n" }.joined() }
        inv.info("imported \(path) into \(slug): \(changes.count) change\(changes.count == 1 ? "" : "s")\(conflicts.isEmpty ? "" : ", \(conflicts.count) conflict\(conflicts.count == 1 ? "" : "s") replaced")")
        inv.info("not in control.json, so not imported: \(ControlPlan.notCarried)")
    }

    static func run(_ inv: Invocation, format: String, plan make: ([UInt8], ProjectSnapshot, PlatformRecord) throws -> ImportPlan) throws {
        let path = inv.arg("FILE")!
        let bytes = path == "-" ? try inv.context.readStdin() : try FileSystem.readFile(path, limit: FileSystem.inputLimit)
        let (store, project, platform) = try inv.target()
        let snapshot = try store.read { try store.snapshot(project) }
        let plan: ImportPlan
        do { plan = try make(bytes, snapshot, platform) } catch let e as ImportProblem {
            throw RelctlError.failure("cannot import \(path): \(e.message)", hint: "fix the file, or publish it from relctl instead")
        }
        let changes = plan.changes(against: snapshot, platform: platform)
        let conflicts = plan.conflicts(against: snapshot, platform: platform)
        for warning in plan.warnings { inv.warn(warning) }
        if inv.flag("dry-run") {
            inv.render(.object(["changes": .array(changes.map { .string($0) }), "conflicts": .array(conflicts.map { .string($0) }), "dryRun": .bool(true)])) {
                (changes.isEmpty ? "nothing to change\n" : changes.map { "would \($0)\n" }.joined())
                    + conflicts.map { "conflict: \($0)\n" }.joined()
            }
            return
        }
        try inv.write(store, project, asking: "importing \(path)") { s in
            try s.importPlan(plan, format: format, file: path, on: platform, of: project,
                                 releasedAt: FileImport.releaseTime(project, now: inv.now), replace: inv.flag("replace"), now: inv.now)
        }
        inv.render(.object(["changes": .array(changes.map { .string($0) }), "conflicts": .array(conflicts.map { .string($0) }), "dryRun": .bool(false)])) {
            changes.map { "\($0)\n" }.joined()
        }
        inv.info("imported \(path) into \(project.slug)/\(platform.name): \(changes.count) change\(changes.count == 1 ? "" : "s")\(conflicts.isEmpty ? "" : ", \(conflicts.count) conflict\(conflicts.count == 1 ? "" : "s") replaced")")
    }
}
