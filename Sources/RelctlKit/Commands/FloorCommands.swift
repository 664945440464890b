/// `relctl force` and `relctl recommend`: the floors below which versions
/// must or should update.
enum FloorCommands {
    static let build: Option = Option("build", value: "N", help: "With a version equal to the floor, builds below N are below the floor too.")
    static let clear: Option = Option("clear", help: "Remove the floor.")
    static let floorArgument: Argument = Argument("VERSION", help: "The floor: versions below it are affected.", optional: true,
                                                  completion: .dynamic(.versions))

    static let force: Command = Command(
        "force", abstract: "Make every version below VERSION update (required update).",
        discussion: "Refused when no released version at or above VERSION exists on the platform, since users would be sent to an update they cannot install; --allow-unreleased overrides that with a warning.",
        arguments: [floorArgument],
        options: [Shared.platform, build, Option("allow-unreleased", help: "Set the floor even though no released version reaches it."), clear],
        examples: [Example("relctl force 2.0 --platform ios", "Everything below 2.0 on iOS must update."),
                   Example("relctl force --clear --platform ios", "Remove the iOS force floor.")]
    ) { inv in try setFloor(inv, column: "force", word: "force") }

    static let recommend: Command = Command(
        "recommend", abstract: "Ask every version below VERSION to update (optional update).",
        discussion: "Refused when VERSION is above the newest released version on the platform.",
        arguments: [floorArgument],
        options: [Shared.platform, build, clear],
        examples: [Example("relctl recommend 2.1 --platform android", "Everything below 2.1 on Android should update.")]
    ) { inv in try setFloor(inv, column: "recommend", word: "recommend") }

    static func setFloor(_ inv: Invocation, column: String, word: String) throws {
        let clearing = inv.flag("clear")
        if clearing && (inv.arg("VERSION") != nil || inv.given("build")) {
            throw RelctlError.usage("--clear takes no version or build", hint: "run 'relctl \(word) --clear' alone")
        }
        if !clearing && inv.arg("VERSION") == nil {
            throw RelctlError.usage("missing VERSION", hint: "give the floor, like 'relctl \(word) 2.0', or --clear to remove it")
        }
        let version = try inv.arg("VERSION").map { try Version($0) }
        let buildNumber = try inv.value("build").map(parseBuild)
        let store = try inv.store()
        let project = try inv.project(in: store)
        let p = try inv.platform(in: store, project: project)
        let action = clearing ? "\(word) clear \(p.name)" : "\(word) \(p.name) \(version!.text)\(buildNumber.map { " build \($0)" } ?? "")"
        var warning: String? = nil
        try store.change(project: project.slug, action, now: inv.now) {
            // Checked inside the transaction: a release removed meanwhile counts.
            if let version {
                let floor = Release(version, build: buildNumber)
                let reached = try store.versions(platform: p.id, withNotes: false)
                    .contains { $0.isReleased(at: inv.now) && !Release.isBelow($0.release, floor) }
                if !reached {
                    let floorText = Floor(version: version, build: buildNumber).text
                    if word == "force" && inv.flag("allow-unreleased") {
                        warning = "no released version of \(p.name) is at or above \(floorText): users below it are forced to an update they cannot install yet"
                    } else {
                        throw RelctlError.failure(
                            "no released version of \(p.name) is at or above \(floorText): users would be sent to an update they cannot install",
                            hint: "release one first ('relctl version add \(version.text) --platform \(p.name)' or 'relctl version release \(version.text)')" + (word == "force" ? ", or add --allow-unreleased" : ""))
                    }
                }
            }
            try store.db.run("UPDATE platform SET \(column)_version = ?, \(column)_build = ? WHERE id = ?",
                             [SQLValue(version?.text), SQLValue(buildNumber), .int(p.id)])
        }
        warning.map(inv.warn)
        inv.info(clearing ? "cleared the \(word) floor of \(p.name)" : "\(p.name): versions below \(Floor(version: version!, build: buildNumber).text) \(word == "force" ? "must" : "should") update")
    }
}

/// `relctl policy`: pin one version's policy.
enum PolicyCommands {
    static let policies = ["force", "recommend", "none"]

    static let command: Command = Command(
        "policy", abstract: "Pin the policy of single versions, overriding the floors.",
        subcommands: [set, clear, list]
    )

    static let set: Command = Command(
        "set", abstract: "Pin one version to force, recommend or none.",
        arguments: [Shared.version, Argument("POLICY", help: "What that version gets.", allowed: policies)],
        options: [Shared.platform],
        examples: [Example("relctl policy set 1.4.2 force --platform ios", "1.4.2 has a security bug: it must update.")]
    ) { inv in
        let policy = inv.arg("POLICY")!
        let store = try inv.store()
        let project = try inv.project(in: store)
        let p = try inv.platform(in: store, project: project)
        try store.change(project: project.slug, "policy set \(p.name) \(inv.arg("VERSION")!) \(policy)", now: inv.now) {
            let v = try inv.versionRecord(in: store, platform: p, text: inv.arg("VERSION")!)
            if policy != "none" {
                let newer = try store.versions(platform: p.id, withNotes: false)
                    .contains { $0.isReleased(at: inv.now) && Release.isBelow(v.release, $0.release) }
                guard newer else {
                    throw RelctlError.failure("no released version of \(p.name) is newer than \(v.version.text), so it cannot \(policy == "force" ? "be forced" : "be asked") to update",
                                              hint: "release a newer version first")
                }
            }
            try store.db.run("UPDATE version SET policy = ? WHERE id = ?", [.text(policy), .int(v.id)])
        }
        inv.info("\(p.name) \(inv.arg("VERSION")!) pinned to \(policy)")
    }

    static let clear: Command = Command(
        "clear", abstract: "Remove a version's pin.",
        arguments: [Shared.version], options: [Shared.platform]
    ) { inv in
        let store = try inv.store()
        let project = try inv.project(in: store)
        let p = try inv.platform(in: store, project: project)
        try store.change(project: project.slug, "policy clear \(p.name) \(inv.arg("VERSION")!)", now: inv.now) {
            let v = try inv.versionRecord(in: store, platform: p, text: inv.arg("VERSION")!)
            guard v.policy != nil else {
                throw RelctlError.failure("\(p.name) \(v.version.text) has no pin", hint: "see 'relctl policy list'")
            }
            try store.db.run("UPDATE version SET policy = NULL WHERE id = ?", [.int(v.id)])
        }
        inv.info("cleared the pin of \(p.name) \(inv.arg("VERSION")!)")
    }

    static let list: Command = Command(
        "list", abstract: "List floors and pins.",
        options: [Shared.platform]
    ) { inv in
        let store = try inv.store(.read)
        let rows: [(PlatformRecord, [VersionRecord])] = try store.read {
            let project = try inv.project(in: store)
            let platforms = inv.given("platform") ? [try inv.platform(in: store, project: project)] : try store.platforms(project: project.id)
            return try platforms.map { ($0, try store.versions(platform: $0.id, withNotes: false).filter { $0.policy != nil }) }
        }
        inv.render(.object(["platforms": .array(rows.map { p, pins in
            .object(["platform": .string(p.name), "force": p.force?.json ?? .null, "recommend": p.recommend?.json ?? .null,
                     "pins": .array(pins.map { .object(["version": .string($0.version.text), "build": .optional($0.build), "policy": .string($0.policy!)]) })])
        })])) {
            Table.render(["PLATFORM", "KIND", "VERSION", "POLICY"], rows.flatMap { p, pins in
                var r: [[String]] = []
                if let f = p.force { r.append([p.name, "floor", f.text, "force below"]) }
                if let f = p.recommend { r.append([p.name, "floor", f.text, "recommend below"]) }
                r += pins.map { [p.name, "pin", $0.label, $0.policy!] }
                return r
            })
        }
    }
}
