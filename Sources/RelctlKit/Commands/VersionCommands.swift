enum VersionCommands {
    static let build: Option = Option("build", value: "N", help: "The build number (required on Android, where it is the versionCode).")
    static let released: Option = Option("released", value: "TIME", help: "When the version was released (default now).")
    static let unreleased: Option = Option("unreleased", help: "The version is not released yet; release it later with 'relctl version release'.")
    static let notes: Option = Option("notes", value: "LINE", help: "A line of release notes.", repeatable: true)
    static let notesFile: Option = Option("notes-file", value: "FILE", help: "Read release notes from FILE, one line each ('-' for stdin).", completion: .file)
    static let notesLocale: Option = Option("locale", value: "LOCALE", help: "The locale of the notes (default the project's default locale).",
                                    completion: .dynamic(.locales))

    static let command: Command = Command(
        "version", abstract: "Manage the versions shipped on each platform.",
        subcommands: [add, list, show, edit, release, rm]
    )

    static let add: Command = Command(
        "add", abstract: "Record a version of the app.",
        discussion: "The version is stored exactly as typed: it must be what the app reports (CFBundleShortVersionString or versionName), since some clients match it literally.",
        arguments: [Argument("VERSION", help: "The marketing version, 1 to 4 numbers separated by dots, like 2.1.0.")],
        options: [Shared.platform, build, released, unreleased, PlatformCommands.minOS, notes, notesFile, notesLocale],
        examples: [Example("relctl version add 2.1.0 --platform ios --build 210 --notes \"Faster checkout\"", "Record iOS 2.1.0, released now."),
                   Example("relctl version add 2.2.0 --platform android --build 220 --unreleased", "Record a version before it ships.")]
    ) { inv in
        let version = try Version(inv.arg("VERSION")!)
        let buildNumber = try inv.value("build").map(parseBuild)
        if inv.given("released") && inv.flag("unreleased") {
            throw RelctlError.usage("--released and --unreleased contradict each other", hint: "give one of them")
        }
        let releasedAt: Int64? = inv.flag("unreleased") ? nil : try inv.value("released").map(inv.time) ?? inv.now
        let minOS = try inv.value("min-os").map(Names.osVersion)
        let noteText = try NotesInput.read(inv, lines: inv.values("notes"), file: inv.value("notes-file"))
        let locale = try inv.locale(inv.value("locale"))
        let store = try inv.store()
        let project = try inv.project(in: store)
        let platform = try inv.platform(in: store, project: project)
        if platform.isAndroid && buildNumber == nil {
            throw RelctlError.usage("Android versions need --build: it is the versionCode the app reports", hint: "add --build N")
        }
        var warnings: [String] = []
        try store.change(project: project.slug, "version add \(platform.name) \(version.text)\(buildNumber.map { " build \($0)" } ?? "")", now: inv.now) {
            let existing = try store.versions(platform: platform.id, withNotes: false)
            if existing.contains(where: { $0.version.text == version.text }) {
                throw RelctlError.failure("\(platform.name) already has version \(version.text)", hint: "change it with 'relctl version edit \(version.text)'")
            }
            if let b = buildNumber, let other = existing.first(where: { $0.build == b }) {
                throw RelctlError.failure("build \(b) is already version \(other.version.text) on \(platform.name)", hint: "each build number is used once per platform")
            }
            for other in existing where other.version == version {
                warnings.append(Hazards.trailingZero(version.text, other.version.text, platform: platform.name))
            }
            try store.db.run("INSERT INTO version(platform_id, version, build, released_at, min_os) VALUES (?, ?, ?, ?, ?)",
                             [.int(platform.id), .text(version.text), SQLValue(buildNumber), SQLValue(releasedAt), SQLValue(minOS)])
            if let noteText {
                try store.db.run("INSERT INTO note(version_id, locale, body) VALUES (?, ?, ?)",
                                 [.int(store.db.lastInsertRowID), .text(locale ?? project.defaultLocale), .text(noteText)])
            }
        }
        warnings.forEach(inv.warn)
        inv.info("added \(platform.name) \(version.text)\(releasedAt == nil ? " (unreleased)" : "")")
    }

    static func json(_ v: VersionRecord, platform: String, now: Int64) -> JSON {
        .ordered([
            "build": .optional(v.build), "minOs": .optional(v.minOS),
            "notes": notesJSON(v.notes),
            "platform": .string(platform), "policy": .optional(v.policy),
            "released": .bool(v.isReleased(at: now)), "releasedAt": .time(v.releasedAt), "version": .string(v.version.text),
        ])
    }

    /// Notes by locale, each a list of lines, written straight to bytes: a
    /// listing carries every note of every version.
    static func notesJSON(_ notes: [String: String]) -> JSON {
        var out: [UInt8] = [123]
        for (i, locale) in notes.keys.sorted(by: JSON.keyOrder).enumerated() {
            if i > 0 { out.append(44) }
            JSON.quoteBytes(locale, into: &out)
            out.append(58)
            JSON.quoteLines(notes[locale]!, into: &out)
        }
        out.append(125)
        return .raw(out)
    }

    static let list: Command = Command(
        "list", abstract: "List versions, newest first.",
        discussion: "Without --platform, every platform of the project is listed.",
        options: [Shared.platform]
    ) { inv in
        let store = try inv.store(.read)
        let now = inv.now
        let rows: [(PlatformRecord, VersionRecord)] = try store.read {
            let project = try inv.project(in: store)
            let platforms = inv.given("platform") ? [try inv.platform(in: store, project: project)] : try store.platforms(project: project.id)
            return try platforms.flatMap { p in try store.versions(platform: p.id).reversed().map { (p, $0) } }
        }
        inv.render(.object(["versions": .array(rows.map { json($0.1, platform: $0.0.name, now: now) })])) {
            Table.render(["PLATFORM", "VERSION", "BUILD", "RELEASED", "MIN OS", "PIN", "NOTES"], rows.map { p, v in
                [p.name, v.version.text, v.build.map(String.init) ?? "-",
                 v.releasedAt.map { (v.isReleased(at: now) ? "" : "at ") + Time.format($0) } ?? "unreleased",
                 v.minOS ?? "-", v.policy ?? "-", v.notes.keys.sorted().joined(separator: ",")]
            })
        }
    }

    static let show: Command = Command(
        "show", abstract: "Show one version with its notes.",
        arguments: [Shared.version], options: [Shared.platform]
    ) { inv in
        let store = try inv.store(.read)
        let (p, v) = try store.read {
            let project = try inv.project(in: store)
            let p = try inv.platform(in: store, project: project)
            return (p, try inv.versionRecord(in: store, platform: p, text: inv.arg("VERSION")!))
        }
        inv.render(json(v, platform: p.name, now: inv.now)) {
            var s = "platform: \(p.name)\nversion:  \(v.version.text)\nbuild:    \(v.build.map(String.init) ?? "-")\n"
            s += "released: \(v.releasedAt.map(Time.format) ?? "not yet")\nmin OS:   \(v.minOS ?? "-")\npin:      \(v.policy ?? "-")\n"
            for locale in v.notes.keys.sorted() {
                s += "\nnotes (\(locale)):\n" + v.notes[locale]!.lines.map { "  \($0)\n" }.joined()
            }
            return s
        }
    }

    static let edit: Command = Command(
        "edit", abstract: "Change a version's build, minimum OS or release time.",
        arguments: [Shared.version], options: [Shared.platform, build, released, unreleased, PlatformCommands.minOS]
    ) { inv in
        let newBuild = try inv.value("build").map(parseBuild)
        let minOS = try inv.value("min-os").map(Names.osVersion)
        let releasedAt = try inv.value("released").map(inv.time)
        if releasedAt != nil && inv.flag("unreleased") {
            throw RelctlError.usage("--released and --unreleased contradict each other", hint: "give one of them")
        }
        guard newBuild != nil || minOS != nil || releasedAt != nil || inv.flag("unreleased") else {
            throw RelctlError.usage("nothing to change", hint: "give --build, --min-os, --released or --unreleased")
        }
        let store = try inv.store()
        let project = try inv.project(in: store)
        let p = try inv.platform(in: store, project: project)
        try store.change(project: project.slug, "version edit \(p.name) \(inv.arg("VERSION")!)", now: inv.now) {
            let v = try inv.versionRecord(in: store, platform: p, text: inv.arg("VERSION")!)
            if let b = newBuild, let other = try store.versions(platform: p.id, withNotes: false).first(where: { $0.build == b && $0.id != v.id }) {
                throw RelctlError.failure("build \(b) is already version \(other.version.text) on \(p.name)", hint: "each build number is used once per platform")
            }
            let released: Int64? = inv.flag("unreleased") ? nil : (releasedAt ?? v.releasedAt)
            try store.db.run("UPDATE version SET build = ?, min_os = ?, released_at = ? WHERE id = ?",
                             [SQLValue(newBuild ?? v.build), SQLValue(minOS ?? v.minOS), SQLValue(released), .int(v.id)])
        }
        inv.info("updated \(p.name) \(inv.arg("VERSION")!)")
    }

    static let release: Command = Command(
        "release", abstract: "Mark a version released, now or at a time.",
        arguments: [Shared.version],
        options: [Shared.platform, Option("at", value: "TIME", help: "The release time (default now).")]
    ) { inv in
        let at = try inv.value("at").map(inv.time) ?? inv.now
        let store = try inv.store()
        let project = try inv.project(in: store)
        let p = try inv.platform(in: store, project: project)
        try store.change(project: project.slug, "version release \(p.name) \(inv.arg("VERSION")!) at \(Time.format(at))", now: inv.now) {
            let v = try inv.versionRecord(in: store, platform: p, text: inv.arg("VERSION")!)
            try store.db.run("UPDATE version SET released_at = ? WHERE id = ?", [.int(at), .int(v.id)])
        }
        inv.info("\(p.name) \(inv.arg("VERSION")!) released at \(Time.format(at))")
    }

    static let rm: Command = Command(
        "rm", abstract: "Remove a version and its notes.",
        arguments: [Shared.version], options: [Shared.platform, Shared.yes]
    ) { inv in
        let store = try inv.store()
        let project = try inv.project(in: store)
        let p = try inv.platform(in: store, project: project)
        let v = try inv.versionRecord(in: store, platform: p, text: inv.arg("VERSION")!)
        try inv.confirm("Remove \(p.name) \(v.version.text) and its notes?")
        try store.change(project: project.slug, "version rm \(p.name) \(v.version.text)", now: inv.now) {
            try store.db.run("DELETE FROM version WHERE id = ?", [.int(v.id)])
        }
        inv.info("removed \(p.name) \(v.version.text)")
    }
}

/// Version pairs that clients disagree about (clients.md, "Version hazards").
enum Hazards {
    static func trailingZero(_ new: String, _ old: String, platform: String) -> String {
        "\(new) and \(old) on \(platform) differ only by trailing zeros: Siren 7 and Sparkle treat them as the same version, while Retired (exact match), AndVersion on iOS (which ranks the longer one newer) and Siren 6 treat them as different; make sure \(new) is exactly what the app reports"
    }
}
