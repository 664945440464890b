import RelctlCore
import RelctlStore

/// `relctl version`: the versions shipped on each platform.
enum VersionCommands {
    static let build: Option = Shared.build("The build number (required on Android, where it is the versionCode).")
    static let released: Option = Option("released", value: "TIME", help: "When the version was released (default now): " + TimeInput.forms + ".")
    static let unreleased: Option = Option("unreleased", help: "The version is not released yet; release it later with 'relctl version release'.")
    static let notes: Option = Option("notes", value: "LINE", help: "A line of release notes.", repeatable: true)
    static let notesFile: Option = Option("notes-file", value: "FILE", help: "Read release notes from FILE, one line each ('-' for stdin).", completion: .file)
    static let notesLocale: Option = Shared.locale("The locale of the notes (default the project's default locale).")

    static let command: RunnableCommand = RunnableCommand(
        "version", abstract: "Manage the versions shipped on each platform.",
        subcommands: [add, list, show, edit, release, rm],
        examples: [Example("relctl version list", "Every version, newest first."), Example("relctl version add 2.1.0 --platform ios --build 210", "Record a version released now.")]
    )

    static let add: RunnableCommand = RunnableCommand(
        "add", abstract: "Record a version of the app.",
        discussion: "The version is stored exactly as typed: it must be what the app reports (CFBundleShortVersionString or versionName), since some clients match it literally. With several platforms it is recorded on each, with the same build, release time, minimum OS and notes, in one change (every platform takes it, or none does); --json then prints {\"versions\": [...]}.",
        arguments: [Argument("VERSION", help: "The marketing version, 1 to 4 numbers separated by dots, like 2.1.0.")],
        options: [Shared.platforms, build, released, unreleased, PlatformCommands.minOS, notes, notesFile, notesLocale, Shared.allowStoreRisk, Shared.dryRun],
        examples: [Example("relctl version add 2.1.0 --platform ios --build 210 --notes \"Faster checkout\"", "Record iOS 2.1.0, released now."),
                   Example("relctl version add 2.2.0 --platform android --build 220 --unreleased", "Record a version before it ships.")]
    ) { inv in
        let version = try Version(inv.arg("VERSION")!)
        let buildNumber = try inv.value("build").map(parseBuild)
        if inv.flag("released") && inv.flag("unreleased") {
            throw RelctlError.usage("--released and --unreleased contradict each other", hint: "give one of them")
        }
        let releasedAt: Int64? = inv.flag("unreleased") ? nil : try inv.value("released").map(inv.releaseTime) ?? inv.now
        let minOS = try inv.value("min-os").map(Names.osVersion)
        let noteText = try NotesInput.read(inv, lines: inv.values("notes"), file: inv.value("notes-file"))
        let locale = try inv.locale(inv.value("locale"))
        let (store, project, platforms) = try inv.targets()
        if buildNumber == nil, platforms.contains(where: \.isAndroid) {
            throw RelctlError.usage("Android versions need --build: it is the versionCode the app reports", hint: "add --build N")
        }
        // A version older than a floor, for an OS no release at the floor runs on, shows a lockout.
        let siblings = try inv.write(store, projects: [project.slug]) { s in
            try s.addVersion(version, build: buildNumber, releasedAt: releasedAt, minOS: minOS,
                                 notes: noteText.map { (locale: locale ?? project.defaultLocale, text: $0) },
                                 on: platforms, of: project, now: inv.now)
        }
        for (platform, others) in siblings {
            for other in others { inv.warn(Hazards.trailingZero(version.text, other, platform: platform)) }
            inv.info("added \(platform) \(version.text)\(releasedAt == nil ? " (unreleased)" : "")")
        }
        if let t = releasedAt { noteFutureRelease(inv, version.text, at: t) }
        NotesInput.warnSize(inv, noteText, platforms: platforms, version: version.text, locale: locale ?? project.defaultLocale)
        try inv.printWritten {
            let written = try platforms.map { json(try store.version(version.text, on: $0), platform: $0.name, now: inv.now) }
            return platforms.count == 1 ? written[0] : .object(["versions": .array(written)])
        }
    }

    /// A release recorded ahead of now is said to be: until then it is offered to nobody and reaches no floor.
    static func noteFutureRelease(_ inv: Invocation, _ version: String, at t: Int64) {
        guard t > inv.now else { return }
        inv.info("note: \(version) is recorded as released \(inv.people(t)): until then no app is offered it and no floor counts it as released")
    }

    static func json(_ v: VersionRecord, platform: String, now: Int64) -> JSON {
        var order: [String] = []
        return json(v, platform: platform, now: now, order: &order)
    }

    /// `order`: the last version's locales in key order, reused when this one's are the same.
    static func json(_ v: VersionRecord, platform: String, now: Int64, order: inout [String]) -> JSON {
        .ordered([
            "build": .optional(v.build), "minOs": .optional(v.minOS),
            "notes": notesJSON(v.notes, order: &order),
            "platform": .string(platform), "policy": .optional(v.policy?.rawValue),
            "released": .bool(v.isReleased(at: now)), "releasedAt": .time(v.releasedAt), "version": .string(v.version.text),
        ])
    }

    /// Notes by locale, each a list of lines, written straight to bytes: a
    /// listing carries every note of every version.
    ///
    /// Most versions have notes in the same locales: their key order, sorted
    /// once (`order`), is reused while a version has a note in each of them and no other.
    static func notesJSON(_ notes: [String: String], order: inout [String]) -> JSON {
        var out: [UInt8] = []
        writeNotes(notes, order: &order, into: &out)
        return .raw(out)
    }

    /// `notesJSON`'s bytes, appended to `out`.
    static func writeNotes(_ notes: [String: String], order: inout [String], into out: inout [UInt8]) {
        let start = out.count
        out.append(123)
        func write(_ locales: [String]) -> Bool {
            out.removeSubrange((start + 1)...)
            for (i, locale) in locales.enumerated() {
                guard let text = notes[locale] else { return false }
                if i > 0 { out.append(44) }
                JSON.quoteBytes(locale, into: &out)
                out.append(58)
                JSON.quoteLines(text, into: &out)
            }
            return true
        }
        if order.count != notes.count || !write(order) {
            order = notes.keys.sorted(by: JSON.keyOrder)
            _ = write(order)
        }
        out.append(125)
    }

    /// The listing as `--json` writes it off a terminal, straight to bytes: what
    /// `{"versions": [json(...)]}` writes, without a value per version (a listing
    /// of a platform's every note spent a sixth of its time building and copying them).
    static func listBytes(_ rows: [(PlatformRecord, VersionRecord)], now: Int64) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(rows.reduce(64) { total, row in row.1.notes.reduce(total + 200) { $0 + $1.key.utf8.count + $1.value.utf8.count + 16 } })
        out += #"{"versions":["#.utf8
        var order: [String] = []
        func text(_ s: String?) { if let s { JSON.quoteBytes(s, into: &out) } else { out += "null".utf8 } }
        for (i, (p, v)) in rows.enumerated() {
            if i > 0 { out.append(44) }
            out += #"{"build":"#.utf8
            if let b = v.build { out += String(b).utf8 } else { out += "null".utf8 }
            out += #","minOs":"#.utf8; text(v.minOS)
            out += #","notes":"#.utf8; writeNotes(v.notes, order: &order, into: &out)
            out += #","platform":"#.utf8; text(p.name)
            out += #","policy":"#.utf8; text(v.policy?.rawValue)
            out += #","released":"#.utf8; out += (v.isReleased(at: now) ? "true" : "false").utf8
            out += #","releasedAt":"#.utf8; text(v.releasedAt.map(Time.format))
            out += #","version":"#.utf8; text(v.version.text)
            out.append(125)
        }
        out += "]}\n".utf8
        return out
    }

    static let list: RunnableCommand = RunnableCommand(
        "list", abstract: "List versions, newest first.",
        discussion: "Without --platform, every platform of the project is listed.",
        options: [Shared.platform],
        examples: [Example("relctl version list --platform ios", "iOS versions, newest first.")]
    ) { inv in
        let store = try inv.store(.read)
        let now = inv.now
        let rows: [(PlatformRecord, VersionRecord)] = try store.read {
            let project = try inv.project(in: store)
            let platforms = inv.flag("platform") ? [try inv.platform(in: store, project: project)] : try store.platforms(project: project.id)
            return try platforms.flatMap { p in try store.versions(platform: p.id).reversed().map { (p, $0) } }
        }
        if inv.json && !inv.context.stdoutIsTerminal { return inv.context.stdout.write(bytes: listBytes(rows, now: now)) }
        var order: [String] = []
        inv.render(.object(["versions": .array(rows.map { json($0.1, platform: $0.0.name, now: now, order: &order) })])) {
            Table.render(["PLATFORM", "VERSION", "BUILD", "RELEASED", "MIN OS", "PIN", "NOTES"], rows.map { p, v in
                [p.name, v.version.text, v.build.map(String.init) ?? "-",
                 v.releasedAt.map { (v.isReleased(at: now) ? "" : "at ") + inv.people($0) } ?? "unreleased",
                 v.minOS ?? "-", v.policy?.rawValue ?? "-", v.notes.keys.sorted().joined(separator: ",")]
            })
        }
    }

    static let show: RunnableCommand = RunnableCommand(
        "show", abstract: "Show one version with its notes.",
        arguments: [Shared.version], options: [Shared.platform],
        examples: [Example("relctl version show 2.0 --platform ios", "iOS 2.0 with its notes.")]
    ) { inv in
        let store = try inv.store(.read)
        let (p, v) = try store.read {
            let project = try inv.project(in: store)
            let p = try inv.platform(in: store, project: project)
            return (p, try store.version(inv.arg("VERSION")!, on: p))
        }
        inv.render(json(v, platform: p.name, now: inv.now)) {
            var s = "platform: \(p.name)\nversion:  \(v.version.text)\nbuild:    \(v.build.map(String.init) ?? "-")\n"
            s += "released: \(v.releasedAt.map(inv.people) ?? "not yet")\nmin OS:   \(v.minOS ?? "-")\npin:      \(v.policy?.rawValue ?? "-")\n"
            for locale in v.notes.keys.sorted() {
                s += "\nnotes (\(locale)):\n" + v.notes[locale]!.lines.map { "  \($0)\n" }.joined()
            }
            return s
        }
    }

    static let edit: RunnableCommand = RunnableCommand(
        "edit", abstract: "Change a version's build, minimum OS or release time.",
        discussion: "Moving the release time of a version already released (--released, --unreleased) restarts or withdraws its release delay: like 'relctl version release', it shows its impact, asks on a terminal and needs --yes elsewhere.",
        arguments: [Shared.version], options: [Shared.platform, build, released, unreleased, PlatformCommands.minOS, Shared.allowStoreRisk, Shared.dryRun, Shared.yes],
        examples: [Example("relctl version edit 2.0 --platform ios --min-os 16.0", "iOS 2.0 needs iOS 16.")]
    ) { inv in
        let newBuild = try inv.value("build").map(parseBuild)
        let minOS = try inv.value("min-os").map(Names.osVersion)
        let releasedAt = try inv.value("released").map(inv.releaseTime)
        if releasedAt != nil && inv.flag("unreleased") {
            throw RelctlError.usage("--released and --unreleased contradict each other", hint: "give one of them")
        }
        guard newBuild != nil || minOS != nil || releasedAt != nil || inv.flag("unreleased") else {
            throw RelctlError.usage("nothing to change", hint: "give --build, --min-os, --released or --unreleased")
        }
        let (store, project, p) = try inv.target()
        let release: Session.ReleaseChange = inv.flag("unreleased") ? .unreleased : releasedAt.map { .at($0) } ?? .keep
        let edit = { (s: Session) in try s.editVersion(inv.arg("VERSION")!, build: newBuild, minOS: minOS, release: release, on: p, of: project, now: inv.now) }
        let v = try store.version(inv.arg("VERSION")!, on: p)
        if let was = v.releasedAt, was <= inv.now, release != .keep, releasedAt != was {
            let to = releasedAt.map { "moves its release to \(inv.people($0)), restarting its release delay" } ?? "withdraws its release"
            try inv.write(store, project, asking: "moving a release", moves: ["\(p.name) \(v.version.text) released \(inv.people(was)): \(to)"], edit)
        } else {
            try inv.write(store, projects: [project.slug], edit)
        }
        inv.info("updated \(p.name) \(inv.arg("VERSION")!)")
        if let t = releasedAt { noteFutureRelease(inv, inv.arg("VERSION")!, at: t) }
        try inv.printWritten { json(try store.version(inv.arg("VERSION")!, on: p), platform: p.name, now: inv.now) }
    }

    static let release: RunnableCommand = RunnableCommand(
        "release", abstract: "Mark a version released, now or at a time.",
        arguments: [Shared.version],
        options: [Shared.platforms, Option("at", value: "TIME", help: "The release time (default now): " + TimeInput.forms + "."), Shared.allowStoreRisk, Shared.dryRun,
                  Shared.yes],
        examples: [Example("relctl version release 2.2.0 --platform ios,android", "2.2.0 shipped on both stores now.")]
    ) { inv in
        let at = try inv.value("at").map(inv.time) ?? inv.now
        let (store, project, platforms) = try inv.targets()
        // Moving a release that happened restarts its release delay (the
        // "outdated" announcement waits again): asked, never done quietly.
        let moved = try platforms.compactMap { p -> String? in
            let v = try store.version(inv.arg("VERSION")!, on: p)
            guard let was = v.releasedAt, was != at, was <= inv.now else { return nil }
            return "\(p.name) \(v.version.text) released \(inv.people(was))"
        }
        let release = { (s: Session) in try s.releaseVersion(inv.arg("VERSION")!, at: at, on: platforms, of: project, now: inv.now) }
        if moved.isEmpty { try inv.write(store, projects: [project.slug], release) } else {
            try inv.write(store, project, asking: "moving a release", moves: moved.map { "\($0): moves its release to \(inv.people(at)), restarting its release delay" }, release)
        }
        for p in platforms { inv.info("\(p.name) \(inv.arg("VERSION")!) released at \(inv.people(at))") }
        try inv.printWritten {
            .object(["versions": .array(try platforms.map { json(try store.version(inv.arg("VERSION")!, on: $0), platform: $0.name, now: inv.now) })])
        }
    }

    static let rm: RunnableCommand = RunnableCommand(
        "rm", abstract: "Remove a version and its notes.",
        discussion: "With several platforms the version is removed from each in one change: every platform must have it, or nothing changes.",
        arguments: [Shared.version], options: [Shared.platforms, Shared.allowStoreRisk, Shared.yes, Shared.dryRun],
        examples: [Example("relctl version rm 1.0 --platform ios --yes", "Forget iOS 1.0.")]
    ) { inv in
        let (store, project, platforms) = try inv.targets()
        // Each platform's record, found before asking: the question names what exists.
        let found = try platforms.map { (platform: $0, version: try store.version(inv.arg("VERSION")!, on: $0)) }
        let text = found[0].version.version.text
        try inv.confirm("Remove \(found.map { "\($0.platform.name) \($0.version.version.text)" }.joined(separator: " and ")) and \(found.count == 1 ? "its" : "their") notes?")
        try inv.write(store, projects: [project.slug]) { try $0.removeVersion(text, on: platforms, of: project, now: inv.now) }
        for (p, v) in found { inv.info("removed \(p.name) \(v.version.text)") }
    }
}

/// Version pairs that clients disagree about (docs/clients.md, "Version hazards").
enum Hazards {
    static func trailingZero(_ new: String, _ old: String, platform: String) -> String {
        "\(new) and \(old) on \(platform) differ only by trailing zeros: Siren 7 and Sparkle treat them as the same version, while Retired (exact match), AndVersion on iOS (which ranks the longer one newer) and Siren 6 treat them as different; make sure \(new) is exactly what the app reports"
    }
}
