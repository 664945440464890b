import RelctlCore

/// `relctl check`: what one client sees, and why.
enum CheckCommand {
    static let command: RunnableCommand = RunnableCommand(
        "check", abstract: "Show what a user at VERSION sees now (or --at a time), and why.",
        discussion: "Precedence: an active maintenance window, then a pin, then the force floor, then the recommend floor or the outdated default, then nothing. Updates announced by the outdated default wait for the release delay. A device is only sent to a version its OS can install (the version's minimum OS, else the platform's): with --os the answer is for that OS, a device below a floor it cannot reach is offered the newest version it can install, and one that can install nothing newer is told nothing (os-too-old); without --os the answer is for the newest OS, followed by the OS bands whose answer differs.",
        arguments: [Argument("VERSION", help: "The version the user's app reports.", completion: .dynamic(.versions))],
        options: [Shared.platform, Shared.build("The user's build number."),
                  Shared.locale("The user's locale (default the project's default locale)."),
                  Option("os", value: "VERSION", help: "The device's OS version, like 15.4 (an API level, like 26, on Android)."),
                  Option("country", value: "CODE", help: "The user's storefront (an ISO 3166 code, like de): whether that store serves the update the user is sent to, by the store evidence ('relctl store show')."),
                  Option("install-id", value: "ID", help: "The install's id (RelctlClient's installId): whether it is in the platform's rollout at the instant, its bucket, and the answer it gets."),
                  Shared.at],
        examples: [Example("relctl check 1.9.4 --platform ios --locale tr", "What a Turkish iOS user on 1.9.4 sees now."),
                   Example("relctl check 2.0 --platform ios --at 2026-12-01T05:00:00Z", "What 2.0 sees during a scheduled window."),
                   Example("relctl check 1.0 --platform ios --os 15.4", "What 1.0 sees on an iPhone that cannot go past iOS 15."),
                   Example("relctl check 2.0 --platform ios --country de", "What 2.0 sees in Germany, and whether the German App Store offers its update."),
                   Example("relctl check 2.0 --platform ios --install-id 7F1C2A90-3B4D-4E5F-8A6B-1C2D3E4F5A6B --at 2026-12-08T09:00:00Z", "Whether that install is in the iOS rollout then, and what it sees.")]
    ) { inv in
        let client = Release(try Version(inv.arg("VERSION")!), build: try inv.value("build").map(parseBuild))
        let at = try inv.value("at").map(inv.time) ?? inv.now
        let store = try inv.store(.read)
        let (snapshot, platform) = try store.read {
            let project = try inv.project(in: store)
            let platform = try inv.platform(in: store, project: project)
            return (try store.zonedSnapshot(project), platform)
        }
        let locale = try inv.locale(inv.value("locale")) ?? snapshot.project.defaultLocale
        let os = try inv.value("os").map(deviceOS)
        let country = try inv.value("country").map { text in
            do { return try Names.storefront(text) } catch let e as InputError { throw RelctlError.usage(e.message, hint: e.hint ?? "") }
        }
        let install = try inv.value("install-id").map(installID)
        let evaluator = Evaluator(snapshot)
        let verdict = evaluator.evaluate(platform, client, at: at, os: os, install: install)
        // The platform as this install sees it: a staged floor is its recommend floor when it is in.
        let seenPlatform = platform.seen(install: install, at: at)
        let others = os == nil ? otherBands(evaluator, seenPlatform, client, at: at, than: verdict) : []
        let rollout = platform.rollout.map { rolloutLine($0, evaluator, platform, client, at: at, os: os, install: install, than: verdict) }
            ?? install.map { _ in (text: "none on \(platform.name): the install id decides nothing here", json: JSON.null) }
        let message = evaluator.message(verdict, locale: locale)
        let notes = verdict.target.flatMap { evaluator.notes($0, locale: locale) }
        let doc = json(verdict, message: message, notes: notes, snapshot: snapshot, platform: seenPlatform, at: at)
        let storeCheck = country.map { storeLine($0, verdict, seenPlatform, snapshot, client: client, now: inv.now, at: at) }
        var full = doc
        if case .object(var o) = doc {
            if let storeCheck { o["store"] = storeCheck.json }
            o["rollout"] = rollout?.json ?? .null
            o["platform"] = .string(platform.name); o["version"] = .string(client.version.text); o["build"] = .optional(client.build)
            o["locale"] = .string(locale); o["at"] = .time(at); o["os"] = .optional(os)
            o["otherOs"] = .array(others.map { band, v in
                .object(["from": .optional(band.from), "below": .optional(band.below), "label": .string(band.label(platform.name)),
                         "verdict": .string(v.kind.rawValue), "decidedBy": .string(v.decidedBy.rawValue), "why": .string(v.why),
                         "target": .optional(v.target?.version.text)])
            })
            full = .object(o)
        }
        inv.render(full) {
            var s = CheckCommand.line("verdict", verdict.kind.rawValue) + CheckCommand.line("why", "\(inv.people(in: verdict.why)) [\(verdict.decidedBy.rawValue)]")
            if let os { s += CheckCommand.line("device OS", "\(OSBands.osName(platform.name)) \(os)") }
            if let t = verdict.target { s += CheckCommand.line("target", t.label) }
            if let r = verdict.rule, verdict.kind == .optional || verdict.kind == .required {
                s += CheckCommand.line("rule", "\(verdict.updateType ?? "-") update: \(r.name) (\(r.alert.rawValue), \(r.frequency.rawValue))\(r.skipAllowed && verdict.kind == .optional ? ", skip allowed" : "")")
            }
            if verdict.kind == .optional { s += CheckCommand.line("remind", "after \(snapshot.project.remindHours) hours") }
            if let message {
                for field in Catalog.fields[verdict.kind == .maintenance ? "maintenance" : verdict.kind.rawValue]! {
                    if verdict.kind == .optional && field == "skip_button" && verdict.rule?.skipAllowed != true { continue }
                    // The deadline copy is already the message when it applies.
                    guard let r = message[field] else { continue }
                    s += CheckCommand.line(String(field.map { $0 == "_" ? " " : $0 }), "\(r.value)  [\(r.source)]")
                }
            }
            if let (l, text) = notes {
                s += "notes (\(l)):\n" + text.lines.map { "  \($0)\n" }.joined()
            }
            if let storeCheck { s += CheckCommand.line("store", inv.people(in: storeCheck.text)) }
            if let rollout { s += CheckCommand.line("rollout", inv.people(in: rollout.text)) }
            for (i, (band, v)) in others.enumerated() {
                let answer = v.kind.rawValue + (v.target.map { " update to \($0.label)" } ?? "")
                s += CheckCommand.line(i == 0 ? "on older OS" : "", "\(band.label(platform.name)): \(answer) [\(v.decidedBy.rawValue)] (--os \(band.os!))")
            }
            return s
        }
    }

    /// What the store of `country` serves, by the evidence, and whether it offers the update the verdict sends the user to.
    /// The evidence is as old as it is `now`; at a later `at`, the release delay is judged then.
    static func storeLine(_ country: String, _ verdict: Verdict, _ platform: PlatformRecord, _ snapshot: ProjectSnapshot, client release: Release,
                          now: Int64, at: Int64) -> (text: String, json: JSON) {
        var here = platform
        here.storefronts = [country]
        let versions = snapshot.versions(of: platform)
        let evidence = snapshot.store[platform.id]
        let named = platform.storefronts.contains(country) ? "" : " (not one of \(platform.name)'s storefronts, so its floors are not checked there)"
        let seen = platform.isAndroid ? "" : evidence?.lookups.first { $0.storefront == country }.map { l in
            "the lookup shows \(l.version?.text ?? "no result"), fetched \(Time.format(l.fetchedAt))" } ?? "never fetched"
        guard let sentTo = verdict.target, verdict.kind == .optional || verdict.kind == .required else {
            let text = "\(country): \(platform.isAndroid ? (evidence?.play == nil ? "no Play tracks imported" : "Play tracks imported") : seen)\(named)"
            return (text, .object(["country": .string(country), "sentTo": .null, "served": .null, "problems": .array([])]))
        }
        // What the store must serve for the prompt to be answered: the floor that decided it (updating to it
        // ends a required update), the lowest release above a pinned version, else the version announced.
        let client = versions.first { $0.version == release.version && ($0.build == nil || release.build == nil || $0.build == release.build) }
        let floor: Floor? = verdict.decidedBy == .forceFloor || verdict.decidedBy == .forceDeadline ? platform.force
            : verdict.decidedBy == .recommendFloor ? platform.recommend : nil
        let needed: StoreGuard.Target
        if let floor {
            needed = StoreGuard.Target(version: floor.version, build: floor.build, what: "an update to \(floor.text) or later")
        } else if verdict.decidedBy == .pin, let client, let above = StoreGuard.Target.pin(client, among: versions, at: at) {
            needed = StoreGuard.Target(version: above.version, build: above.build, what: "an update above \(client.version.text)")
        } else {
            needed = StoreGuard.Target(version: sentTo.version, build: sentTo.build, what: "the update to \(sentTo.version.text)")
        }
        let findings = StoreGuard.unserved(needed, on: here, versions: versions, evidence: evidence, delay: snapshot.delaySeconds, now: now, at: at)
        let text = findings.isEmpty
            ? "\(country): the store offers \(needed.what)\(seen.isEmpty ? "" : " (\(seen))")\(named)"
            : "\(country): the store may not offer \(needed.what): " + findings.map(\.reason).joined(separator: "; ") + named
        return (text, .object(["country": .string(country), "sentTo": .string(sentTo.version.text), "served": .bool(findings.isEmpty),
                               "problems": .array(findings.map { .string($0.reason) })]))
    }

    /// The rollout as one install, or every install, meets it at `at`: the
    /// share in, the install's bucket, and what installs on the other side see.
    static func rolloutLine(_ r: Rollout, _ evaluator: Evaluator, _ platform: PlatformRecord, _ client: Release, at: Int64, os: String?,
                            install: String?, than verdict: Verdict) -> (text: String, json: JSON) {
        let bp = r.basisPoints(at: at)
        var text = "\(r.floor.text) staged to \(Rollout.percent(bp)) of installs\(r.haltedAt.map { " (halted since \(Time.format($0)))" } ?? "")"
        var o: [String: JSON] = ["version": .string(r.floor.version.text), "build": .optional(r.floor.build), "basisPoints": .int(bp),
                                 "salt": .string(r.salt), "haltedAt": .time(r.haltedAt), "bucket": .null, "in": .null, "others": .null]
        let inside = r.isComplete(at: at) ? nil : install.map { r.includes($0, at: at) }
        if let install {
            let bucket = r.bucket(install)
            o["bucket"] = .int(bucket); o["in"] = .bool(bucket < bp)
            text += bucket < bp ? "; this install is in (bucket \(bucket), below \(bp))" : "; this install is not in (bucket \(bucket), not below \(bp))"
            if !Release.isBelow(client, r.floor.release) { text += ", which matters only to installs below \(r.floor.text)" }
        }
        if r.unstaged == .everyone && !r.isComplete(at: at) { text += "; files that cannot stage ask every install below \(r.floor.text) at once (--unstaged everyone)" }
        // What the installs on the other side of the line see, when it differs (none are in before the first step).
        if !r.isComplete(at: at) && (bp > 0 || inside == true) {
            let other = evaluator.evaluate(platform.seen(inRollout: !(inside ?? false), at: at), client, at: at, os: os)
            if other.kind != verdict.kind || other.target?.id != verdict.target?.id {
                let side = inside ?? false ? "installs not in it" : "installs in it"
                text += "; \(side) see \(other.kind.rawValue)\(other.target.map { " (update to \($0.label))" } ?? "")"
                if install == nil { text += "; this answer is for installs not in it (--install-id ID for one install)" }
                o["others"] = .object(["verdict": .string(other.kind.rawValue), "target": .optional(other.target?.version.text), "inRollout": .bool(!(inside ?? false))])
            }
        }
        return (text, .object(o))
    }

    static func installID(_ text: String) throws -> String {
        do { return try Rollout.checkInstallID(text) } catch { throw RelctlError.usage(error.message, hint: error.hint ?? "") }
    }

    /// A device's OS from the command line.
    static func deviceOS(_ text: String) throws -> String {
        guard (try? Version(text)) != nil else {
            throw RelctlError.usage("invalid OS version '\(text)'", hint: "give the device's OS as numbers separated by dots, like 15.4, or an API level like 26 on Android")
        }
        return text
    }

    /// The OS bands (below the newest) where a device running `client` can
    /// be, and is told otherwise than `verdict`, newest band first.
    static func otherBands(_ evaluator: Evaluator, _ platform: PlatformRecord, _ client: Release, at: Int64, than verdict: Verdict) -> [(OSBand, Verdict)] {
        let versions = evaluator.snapshot.versions(of: platform)
        // A recorded version runs only where it installs; one nobody recorded may run anywhere.
        let record = versions.first { $0.version.text == client.version.text && (client.build == nil || $0.build == client.build) }
        return OSBands.of(platform, versions).dropFirst().compactMap { band in
            guard let os = band.os, OSBands.populated(band, platform, versions), record.map({ OSBands.installable($0, on: os, platform) }) ?? true else { return nil }
            let v = evaluator.evaluate(platform, client, at: at, os: os)
            return v.kind != verdict.kind || v.target?.id != verdict.target?.id ? (band, v) : nil
        }
    }

    /// One style of label, in words, values in one column.
    static func line(_ label: String, _ value: String) -> String { (label + ":").padding(15) + value + "\n" }

    /// The evaluator's answer as JSON.
    static func json(_ verdict: Verdict, message: [String: ResolvedText]?, notes: (String, String)?,
                     snapshot: ProjectSnapshot, platform: PlatformRecord, at: Int64) -> JSON {
        let o: [String: JSON] = [
            "verdict": .string(verdict.kind.rawValue), "decidedBy": .string(verdict.decidedBy.rawValue), "why": .string(verdict.why),
            "target": verdict.target.map { .object(["version": .string($0.version.text), "build": .optional($0.build), "releasedAt": .time($0.releasedAt)]) } ?? .null,
            "updateType": .optional(verdict.updateType),
            "deadline": .time(verdict.deadline),
            "alert": .optional(verdict.rule?.alert.rawValue), "frequency": .optional(verdict.rule?.frequency.rawValue),
            "skipAllowed": .bool(verdict.kind == .optional && verdict.rule?.skipAllowed == true),
            "remindAfterHours": verdict.kind == .optional ? .int(snapshot.project.remindHours) : .null,
            "window": verdict.window.map { MaintenanceCommands.json($0, now: at) } ?? .null,
            "updateUrl": verdict.kind == .required || verdict.kind == .optional ? .optional(platform.updateURL) : .null,
            "message": message.map { m in .object(Dictionary(uniqueKeysWithValues: m.map { (JSONKey.camel($0.key), JSON.object(["text": .string($0.value.value), "source": .string($0.value.source)])) })) } ?? .null,
            "notes": notes.map { .object(["locale": .string($0.0), "lines": .array($0.1.lines.map { .string($0) })]) } ?? .null,
        ]
        return .object(o)
    }
}

extension String {
    func padding(_ width: Int) -> String { count >= width ? self + " " : self + String(repeating: " ", count: width - count) }
}
