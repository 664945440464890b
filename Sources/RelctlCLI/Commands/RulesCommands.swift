import RelctlCore
import RelctlStore

/// `relctl rules`: Siren-compatible alert rules, release delay, reminders
/// and the policy for outdated versions.
enum RulesCommands {
    static let presetHelp = "A Siren preset (\(Rule.presets.map(\.0).joined(separator: ", "))) or ALERT/FREQUENCY like skip/weekly."

    static let command: RunnableCommand = RunnableCommand(
        "rules", abstract: "Show or change how updates are announced.",
        subcommands: [show, set],
        examples: [Example("relctl rules show", "The project's rules."), Example("relctl rules set --major critical", "Force major updates.")]
    )

    static func json(_ p: ProjectRecord) -> JSON {
        .object(["rules": p.rules.json, "releaseDelayDays": .int(p.releaseDelayDays),
                 "remindAfterHours": .int(p.remindHours), "outdated": .string(p.outdated.rawValue), "whatsNewVersions": .int(p.whatsNewLimit),
                 "timeZone": .string(p.timeZone)])
    }

    static func text(_ p: ProjectRecord) -> String {
        var s = Table.render(["UPDATE", "PRESET", "ALERT", "FREQUENCY", "SKIP"], Rules.types.enumerated().map { i, t in
            let r = p.rules.byType[i]
            return [t, r.name, r.alert.rawValue, r.frequency.rawValue, r.skipAllowed ? "allowed" : "no"]
        })
        s += "\nrelease delay:  \(p.releaseDelayDays) day\(p.releaseDelayDays == 1 ? "" : "s")\nremind after:   \(p.remindHours) hours\noutdated:       \(p.outdated)\nwhat's new:     \(p.whatsNewLimit == 0 ? "every released version" : "the \(p.whatsNewLimit) newest released versions")\ntime zone:      \(p.timeZone) (the dates in messages)\n"
        return s
    }

    static let show: RunnableCommand = RunnableCommand("show", abstract: "Show the project's rules.", examples: [Example("relctl rules show --json", "The rules as JSON.")]) { inv in
        let store = try inv.store(.read)
        let p = try inv.project(in: store)
        inv.render(json(p)) { text(p) }
    }

    static func presetOption(_ name: String, _ help: String) -> Option {
        Option(name, value: "PRESET", help: help, suggested: Rule.presets.map(\.0))
    }

    static let set: RunnableCommand = RunnableCommand(
        "set", abstract: "Change the rules.",
        discussion: "Update types follow Siren: the first component that differs between the user's version and the new one (major, minor, patch, revision). \(presetHelp)",
        options: [
            presetOption("all", "The rule for every update type."),
            presetOption("major", "The rule for major updates (1.x to 2.x)."),
            presetOption("minor", "The rule for minor updates (1.1 to 1.2)."),
            presetOption("patch", "The rule for patch updates (1.1.1 to 1.1.2)."),
            presetOption("revision", "The rule for revision updates (1.1.1.1 to 1.1.1.2)."),
            Option("release-delay", value: "DAYS", help: "Announce an update only this many days after its release (default 1)."),
            Option("remind-after", value: "HOURS", help: "Ask again this many hours after a user postponed an optional update (default 24)."),
            Option("outdated", value: "POLICY", help: "What versions below the newest get when no floor or pin applies.", allowed: ProjectRecord.outdatedPolicies),
            Option("whats-new", value: "COUNT", help: "How many released versions, newest first, whatsnew/<locale>.json lists; 0 lists every one (default \(ProjectRecord.defaultWhatsNewLimit), at most \(ProjectRecord.maxWhatsNewLimit))."),
            Shared.dryRun, Shared.yes,
        ],
        examples: [Example("relctl rules set --all default --major critical --yes", "Force major updates, suggest the rest daily with skip."),
                   Example("relctl rules set --release-delay 0 --yes", "Announce updates as soon as they are released."),
                   Example("relctl rules set --whats-new 5 --yes", "List the five newest releases in the what's-new files.")]
    ) { inv in
        let delay = try inv.value("release-delay").map { try count($0, "--release-delay", max: ProjectRecord.maxReleaseDelayDays) }
        let remind = try inv.value("remind-after").map { try count($0, "--remind-after", max: ProjectRecord.maxRemindHours) }
        let whatsNew = try inv.value("whats-new").map { try count($0, "--whats-new", max: ProjectRecord.maxWhatsNewLimit) }
        // Parse everything before touching the database.
        var parsed: [(String, Rule)] = []
        for name in ["all", "major", "minor", "patch", "revision"] {
            if let text = inv.value(name) { parsed.append((name, try Rule.parse(text))) }
        }
        guard !parsed.isEmpty || delay != nil || remind != nil || whatsNew != nil || inv.flag("outdated") else {
            throw RelctlError.usage("nothing to change", hint: "give --all, --major, --minor, --patch, --revision, --release-delay, --remind-after, --outdated or --whats-new")
        }
        let store = try inv.store()
        let project = try inv.project(in: store)
        var updated = project
        for (name, rule) in parsed {
            if name == "all" { updated.rules.byType = Array(repeating: rule, count: 4) }
            else { updated.rules.byType[Rules.types.firstIndex(of: name)!] = rule }
        }
        updated.releaseDelayDays = delay ?? project.releaseDelayDays
        updated.remindHours = remind ?? project.remindHours
        // The parser allows only the policies' words.
        updated.outdated = inv.value("outdated").map { ProjectRecord.Outdated(rawValue: $0)! } ?? project.outdated
        updated.whatsNewLimit = whatsNew ?? project.whatsNewLimit
        try inv.write(store, project, asking: "changing the rules") { try $0.setRules(of: project, to: updated, now: inv.now) }
        if inv.session?.isEmpty == true { inv.info("the rules of \(project.slug) are already as given") }
        if inv.json { try inv.printWritten { json(updated) } } else { inv.out(text(updated)) }
    }

    static func count(_ text: String, _ name: String, max: Int64) throws -> Int64 {
        guard let n = Int64(text), n >= 0, n <= max else {
            throw RelctlError.usage("invalid \(name) '\(text)'", hint: "give a whole number from 0 to \(max)")
        }
        return n
    }
}
