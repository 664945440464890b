/// The one answer to "what does a client at version V (build B, locale L)
/// see at time T?". `check`, `status` and every publisher ask it.
public struct Evaluator: Sendable {
    public let snapshot: ProjectSnapshot

    public init(_ snapshot: ProjectSnapshot) { self.snapshot = snapshot }

    /// Precedence: an active maintenance window, then the update decision.
    /// `os`: the device's OS (nil: one that can install every version).
    /// `install`: the install's id, which a staged recommend decides by
    /// (nil: an install outside the rollout, as files that cannot stage see it).
    public func evaluate(_ platform: PlatformRecord, _ client: Release, at t: Int64, os: String? = nil, install: String? = nil) -> Verdict {
        maintenance(platform, at: t) ?? update(platform.seen(install: install, at: t), client, at: t, os: os)
    }

    /// The verdict of every version while a window blocks the platform, nil when none does.
    package func maintenance(_ platform: PlatformRecord, at t: Int64) -> Verdict? {
        guard let w = snapshot.activeWindow(platform, at: t) else { return nil }
        let scope = w.platformName.map { "\($0) maintenance" } ?? "maintenance"
        let until = w.endsAt.map { "until \(Time.format($0))" } ?? "until stopped"
        return Verdict(kind: .maintenance, decidedBy: .maintenance,
                       why: "\(scope) window #\(w.id) is active since \(Time.format(w.startsAt)), \(until)",
                       target: nil, window: w)
    }

    /// The update decision alone (pin, force floor, recommend floor or the
    /// outdated default, then none), for an install outside any rollout.
    /// Retired's per-version policy is this.
    public func update(_ platform: PlatformRecord, _ client: Release, at t: Int64, os: String? = nil) -> Verdict {
        update(platform, client, at: t, facts: PlatformFacts(snapshot, platform, at: t, os: os))
    }

    /// What every verdict of a platform at one instant (and device OS) looks
    /// up, found once (a publish asks for every recorded version: each
    /// lookup is a scan). A device is only ever sent to a version its OS
    /// can install: `released` and `announced` are the newest it can.
    package struct PlatformFacts {
        package let released: VersionRecord?
        package let announced: VersionRecord?
        /// What is announced to an install a rollout withholds from (`withholding`): the newest it does not hide.
        package let announcedWithheld: VersionRecord?
        package let withholding: PlatformRecord.Withholding?
        package let pinned: [VersionRecord]
        /// The device's OS (nil: one that installs every version).
        package let os: String?
        /// The newest release, when the device's OS is too old for it.
        package let beyond: VersionRecord?

        package init(_ snapshot: ProjectSnapshot, _ platform: PlatformRecord, at t: Int64, os: String? = nil) {
            let newest = snapshot.newestReleased(platform, at: t)
            pinned = snapshot.versions(of: platform).filter { $0.policy != nil }
            self.os = os
            let withholding = platform.withholding(at: t)
            self.withholding = withholding
            let delay = snapshot.delaySeconds
            let shown = { (v: VersionRecord) in !(withholding?.hides(v, delay: delay) ?? false) }
            guard let os else {
                released = newest
                announced = snapshot.newestAnnounced(platform, at: t)
                announcedWithheld = withholding == nil ? announced : snapshot.newestAnnounced(platform, at: t, where: shown)
                beyond = nil
                return
            }
            // Minimums need not rise with the version: every target is one this OS installs.
            let fits = { (v: VersionRecord) in OSBands.installable(v, on: os, platform) }
            released = snapshot.newestReleased(platform, at: t, where: fits)
            announced = snapshot.newestAnnounced(platform, at: t, where: fits)
            announcedWithheld = withholding == nil ? announced : snapshot.newestAnnounced(platform, at: t, where: { fits($0) && shown($0) })
            beyond = newest.flatMap { fits($0) ? nil : $0 }
        }
    }

    package func update(_ platform: PlatformRecord, _ client: Release, at t: Int64, facts: PlatformFacts) -> Verdict {
        // A rollout still to decide: the platform as an install outside it sees it.
        let platform = platform.rollout == nil ? platform : platform.seen(inRollout: false, at: t)
        let released = facts.released
        // Floors and pins are explicit decisions and act at once; only the
        // automatic "outdated" announcement waits for the release delay.
        func newer(than c: Release) -> VersionRecord? {
            guard let r = released, Release.isBelow(c, r.release) else { return nil }
            return r
        }
        // Nothing newer the device's OS can install, while a newer release exists.
        func tooOld() -> Verdict? {
            guard let beyond = facts.beyond, let os = facts.os, Release.isBelow(client, beyond.release) else { return nil }
            return Verdict(kind: .none, decidedBy: .osTooOld,
                           why: "\(Evaluator.osWords(platform, os)) cannot install any version newer than \(Evaluator.label(client)) (\(beyond.version.text) needs \(Evaluator.osWords(platform, OSBands.minimum(beyond, platform)!))): nothing to update to")
        }
        func ruleInfo(_ target: VersionRecord) -> (String, Rule) {
            let index = client.version.firstDifference(from: target.version) ?? 3
            return (Rules.types[min(index, 3)], snapshot.project.rules.rule(forDifference: index))
        }
        // A pin or floor decides the kind; the rule only says how often an
        // optional update asks and whether it may be skipped, and never
        // contradicts the kind.
        func decided(_ kind: Verdict.Kind, _ target: VersionRecord) -> (String, Rule) {
            let (type, rule) = ruleInfo(target)
            if kind == .required { return (type, Rule(alert: .force, frequency: .immediately)) }
            switch rule.alert {
            case .option, .skip: return (type, rule)
            // What a floor or pin decides over a rule that would force or show nothing: a recommendation.
            case .force, .none: return (type, Rule(alert: .option, frequency: rule.frequency))
            }
        }

        if let pinned = Evaluator.pin(facts.pinned, client) {
            let policy = pinned.policy!
            if policy == VersionRecord.Pin.none {
                return Verdict(kind: .none, decidedBy: .pin, why: "\(pinned.version.text) is pinned to none on \(platform.name)")
            }
            guard let target = newer(than: client) else {
                if let verdict = tooOld() { return verdict }
                return Verdict(kind: .none, decidedBy: .pin,
                               why: "\(pinned.version.text) is pinned to \(policy.rawValue), but no newer version is released on \(platform.name)")
            }
            let kind: Verdict.Kind = policy == .force ? .required : .optional
            let (type, rule) = decided(kind, target)
            return Verdict(kind: kind, decidedBy: .pin,
                           why: "\(pinned.version.text) is pinned to \(policy.rawValue) on \(platform.name)",
                           target: target, updateType: type, rule: rule)
        }
        // A force floor with a deadline acts as an optional update until the
        // deadline and as a required one from it on: the same instant for
        // check, status and every file.
        let floors: [(Floor?, Verdict.Kind, Verdict.Cause)] = [(platform.requiredFloor(at: t), .required, .forceFloor),
                                                               (platform.pendingFloor(at: t), .optional, .forceDeadline),
                                                               (platform.recommend, .optional, .recommendFloor)]
        for case let (floor?, kind, name) in floors where Release.isBelow(client, floor.release) {
            guard let target = newer(than: client) else {
                if let verdict = tooOld() { return verdict }
                continue
            }
            // A device whose OS cannot install a version at the floor is not
            // blocked: it is offered the newest it can install.
            // Before a deadline too: it would not be required when the deadline comes.
            if kind == .required || name == .forceDeadline, let beyond = facts.beyond, Release.isBelow(target.release, floor.release) {
                let (type, rule) = decided(.optional, target)
                let snapshot = self.snapshot, os = facts.os!
                let reaching = snapshot.versions(of: platform).first { $0.isReleased(at: t) && !Release.isBelow($0.release, floor.release) } ?? beyond
                return Verdict(kind: .optional, decidedBy: .osTooOld,
                               why: "\(Evaluator.belowFloor(client, floor, name, platform.name)), but \(Evaluator.osWords(platform, os)) cannot install \(reaching.version.text) or newer (\(reaching.version.text) needs \(OSBands.minimum(reaching, platform).map { Evaluator.osWords(platform, $0) } ?? "a newer OS")): offered \(target.version.text), the newest it can install",
                               target: target, updateType: type, rule: rule)
            }
            let (type, rule) = decided(kind, target)
            var verdict = Verdict(kind: kind, decidedBy: name, why: Evaluator.belowFloor(client, floor, name, platform.name),
                                  target: target, updateType: type, rule: rule)
            if name == .forceDeadline { verdict.deadline = floor.deadline }
            return verdict
        }
        let withheld = facts.withholding.flatMap { $0.applies(to: client) ? $0 : nil }
        guard let announced = withheld == nil ? facts.announced : facts.announcedWithheld, Release.isBelow(client, announced.release) else {
            if let w = withheld, let r = released, Release.isBelow(client, r.release), w.hides(r, delay: snapshot.delaySeconds) {
                let whom = w.fromAll ? "files that cannot stage offer it to no install" : "an install outside it is not offered it"
                return Verdict(kind: .none, decidedBy: .rollout,
                               why: "\(r.version.text) is held back by the rollout of the staged recommend \(Evaluator.label(w.line)) on \(platform.name) until it reaches every install: \(whom)")
            }
            if let r = released, Release.isBelow(client, r.release), let at = r.releasedAt {
                let days = snapshot.project.releaseDelayDays
                return Verdict(kind: .none, decidedBy: .releaseDelay,
                               why: "\(r.version.text) was released at \(Time.format(at)) and is announced after the \(days)-day release delay, at \(Time.format(at + snapshot.delaySeconds))",
                               target: nil)
            }
            if let verdict = tooOld() { return verdict }
            return Verdict(kind: .none, decidedBy: .upToDate, why: "\(Evaluator.label(client)) is the newest released version on \(platform.name) or newer")
        }
        if snapshot.project.outdated == ProjectRecord.Outdated.none {
            return Verdict(kind: .none, decidedBy: .outdated,
                           why: "\(Evaluator.label(client)) is older than \(announced.version.text), and the project's policy for outdated versions is none")
        }
        let (type, rule) = ruleInfo(announced)
        let kind: Verdict.Kind
        switch rule.alert {
        case .force: kind = .required
        case .none: kind = .none
        case .option, .skip: kind = .optional
        }
        return Verdict(kind: kind, decidedBy: .rule,
                       why: "\(Evaluator.label(client)) is older than \(announced.version.text); outdated versions are recommended to update and the \(type) rule is \(rule.name) (\(rule.alert.rawValue), \(rule.frequency.rawValue))",
                       target: kind == .none ? nil : announced, updateType: type, rule: rule)
    }

    package static func belowFloor(_ client: Release, _ floor: Floor, _ name: Verdict.Cause, _ platform: String) -> String {
        var why = "\(label(client)) is below the \(name == .recommendFloor ? "recommend" : "force") floor \(floor.text) on \(platform)"
        if let d = floor.deadline { why += name == .forceDeadline ? ", required from \(Time.format(d))" : ", required since \(Time.format(d))" }
        return why
    }

    /// A device's OS as the sentences name it: "iOS 15.0".
    package static func osWords(_ platform: PlatformRecord, _ os: String) -> String { "\(OSBands.osName(platform.name)) \(os)" }

    /// A client's version as the sentences name it.
    package static func label(_ client: Release) -> String {
        client.build.map { "\(client.version.text) (build \($0))" } ?? client.version.text
    }

    /// The pinned version record (of `pinned`, a platform's pins) matching the client: its exact text first,
    /// then an equal version (same build when both have one).
    package static func pin(_ pinned: [VersionRecord], _ client: Release) -> VersionRecord? {
        if let exact = pinned.first(where: { $0.version.text == client.version.text && (client.build == nil || $0.build == nil || $0.build == client.build) }) {
            return exact
        }
        return pinned.first { v in
            v.version == client.version && (client.build == nil || v.build == nil || v.build == client.build)
        }
    }

    /// The message a client sees for a verdict, in its locale.
    public func message(_ verdict: Verdict, locale: String) -> [String: ResolvedText]? {
        let base = ["app": snapshot.project.name]
        switch verdict.kind {
        case .none: return nil
        case .maintenance:
            let w = verdict.window!
            var values = base
            values["until"] = w.endsAt.map { snapshot.localDate($0, locale: locale) } ?? ""
            var copy: [String: [String: String]] = [:]
            for (locale, c) in w.copy {
                copy[locale] = [:]
                if let t = c.title { copy[locale]!["title"] = t }
                if let m = c.message { copy[locale]!["message"] = m }
            }
            return snapshot.messages.message("maintenance", locale: locale, values: values, window: copy)
        case .required, .optional:
            var values = base
            values["version"] = verdict.target?.version.text ?? ""
            var m = snapshot.messages.message(verdict.kind.rawValue, locale: locale, values: values)
            if let d = verdict.deadline { m = Evaluator.withDeadline(m, snapshot.localDate(d, locale: locale)) }
            // What the user sees is the message; the deadline copy is in it when it applies.
            m["deadline_message"] = nil
            return m
        }
    }

    /// An optional message during a grace period: its message is the
    /// deadline copy, with {deadline} filled in.
    package static func withDeadline(_ m: [String: ResolvedText], _ deadline: String) -> [String: ResolvedText] {
        var m = m
        if var text = m["deadline_message"] {
            text.value = MessageResolver.fill(text.value, ["deadline": deadline])
            m["message"] = text
            m["deadline_message"] = text
        }
        return m
    }

    /// Notes of a version in a locale, along the locale chain: (locale used, text).
    public func notes(_ v: VersionRecord, locale: String) -> (String, String)? {
        notes(v, chain: chain(locale))
    }

    /// The order in which a user in `locale` is given notes: the project's
    /// messages remember it for the published locales (ProjectFiles).
    public func chain(_ locale: String) -> [String] {
        let defaultLocale = snapshot.project.defaultLocale
        return snapshot.messages.defaultLocale == defaultLocale ? snapshot.messages.chain(locale) : Catalog.chain(locale, defaultLocale: defaultLocale)
    }

    /// The same with the chain worked out once, for callers that ask for many versions.
    public func notes(_ v: VersionRecord, chain: [String]) -> (String, String)? {
        for candidate in chain {
            if let text = v.notes[candidate] { return (candidate, text) }
        }
        return nil
    }
}
