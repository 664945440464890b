import RelctlCore
import RelctlStore

/// `relctl policy`: pin one version's policy.
enum PolicyCommands {
    static let policies = VersionRecord.policies

    static let command: RunnableCommand = RunnableCommand(
        "policy", abstract: "Pin the policy of single versions, overriding the floors.",
        subcommands: [set, clear, list],
        examples: [Example("relctl policy list", "Floors and pins of every platform."), Example("relctl policy set 1.1 force --platform ios", "iOS 1.1 must update.")]
    )

    static let set: RunnableCommand = RunnableCommand(
        "set", abstract: "Pin one version to force, recommend or none.",
        discussion: "Refused when no released version is newer, and when the version runs on an OS that can install nothing newer: apps that cannot tell the OS would block its users there with nothing to install (--allow-lockout overrides that).",
        arguments: [Shared.version, Argument("POLICY", help: "What that version gets.", allowed: policies)],
        options: [Shared.platforms, Option("allow-lockout", help: "Pin it even though the version runs on an OS that can install nothing newer."), Shared.allowStoreRisk, Shared.dryRun, Shared.yes],
        examples: [Example("relctl policy set 1.4.2 force --platform ios", "1.4.2 has a security bug: it must update.")]
    ) { inv in
        // The parser allows only the policies' words.
        let policy = VersionRecord.Pin(rawValue: inv.arg("POLICY")!)!
        let (store, project, platforms) = try inv.targets()
        try inv.write(store, project, asking: "pinning \(inv.arg("VERSION")!) to \(policy.rawValue)") { s in
            try s.setPin(of: inv.arg("VERSION")!, to: policy, on: platforms, of: project, allowLockout: inv.flag("allow-lockout"), now: inv.now)
        }
        for p in platforms { inv.info("\(p.name) \(inv.arg("VERSION")!) pinned to \(policy.rawValue)") }
        try inv.printWritten { try document(store, platforms, project: project) }
    }

    static let clear: RunnableCommand = RunnableCommand(
        "clear", abstract: "Remove a version's pin.",
        arguments: [Shared.version], options: [Shared.platforms, Shared.dryRun, Shared.yes],
        examples: [Example("relctl policy clear 1.4.2 --platform ios --yes", "1.4.2 follows the floors again.")]
    ) { inv in
        let (store, project, platforms) = try inv.targets()
        try inv.write(store, project, asking: "clearing the pin of \(inv.arg("VERSION")!)") { s in
            try s.setPin(of: inv.arg("VERSION")!, to: nil, on: platforms, of: project, now: inv.now)
        }
        for p in platforms { inv.info("cleared the pin of \(p.name) \(inv.arg("VERSION")!)") }
        try inv.printWritten { try document(store, platforms, project: project) }
    }

    static func json(_ rows: [(PlatformRecord, [VersionRecord])]) -> JSON {
        .object(["platforms": .array(rows.map { p, pins in
            .object(["platform": .string(p.name), "force": p.force?.json ?? .null, "recommend": p.recommend?.json ?? .null,
                     "rollout": p.rollout.map { r in .object(["version": .string(r.floor.version.text), "build": .optional(r.floor.build), "haltedAt": .time(r.haltedAt),
                                                               "steps": .array(r.steps.map { .int($0) }), "every": .int(r.every), "start": .time(r.start)]) } ?? .null,
                     "pins": .array(pins.map { .object(["version": .string($0.version.text), "build": .optional($0.build), "policy": .string($0.policy!.rawValue)]) })])
        })])
    }

    /// The floors and pins of these platforms as they are now, in the shape of 'policy list'.
    static func document(_ store: Store, _ platforms: [PlatformRecord], project: ProjectRecord) throws -> JSON {
        try store.read {
            let current = try store.platforms(project: project.id).filter { p in platforms.contains { $0.id == p.id } }
            return json(try current.map { ($0, try store.versions(platform: $0.id, withNotes: false).filter { $0.policy != nil }) })
        }
    }

    static let list: RunnableCommand = RunnableCommand(
        "list", abstract: "List floors and pins.",
        options: [Shared.platform],
        examples: [Example("relctl policy list --platform ios --json", "iOS floors and pins as JSON.")]
    ) { inv in
        let store = try inv.store(.read)
        let rows: [(PlatformRecord, [VersionRecord])] = try store.read {
            let project = try inv.project(in: store)
            let platforms = inv.flag("platform") ? [try inv.platform(in: store, project: project)] : try store.platforms(project: project.id)
            return try platforms.map { ($0, try store.versions(platform: $0.id, withNotes: false).filter { $0.policy != nil }) }
        }
        inv.render(json(rows)) {
            Table.render(["PLATFORM", "KIND", "VERSION", "POLICY"], rows.flatMap { p, pins in
                var r: [[String]] = []
                if let f = p.force { r.append([p.name, "floor", f.text, "force below"]) }
                if let f = p.recommend { r.append([p.name, "floor", f.text, "recommend below"]) }
                if let s = p.rollout { r.append([p.name, "staged", s.floor.text, "recommend below, to \(Rollout.percent(s.basisPoints(at: inv.now))) of installs\(s.haltedAt == nil ? "" : " (halted)")"]) }
                r += pins.map { [p.name, "pin", $0.label, $0.policy!.rawValue] }
                return r
            })
        }
    }
}
