extension ControlImport {
    /// What importing the file into a project would do. `file.bare` must
    /// carry the zone offsets of the project's time zone (dates in
    /// maintenance messages): the text the file shows where relctl would
    /// write something else becomes project text or window copy.
    public static func plan(_ file: File) -> ControlPlan {
        let bare = file.bare
        var plan = ControlPlan(project: bare.project)
        let app = ["app": bare.project.name]
        for (locale, kinds) in file.messages.sorted(by: { $0.key < $1.key }) {
            for (kind, fields) in kinds.sorted(by: { $0.key < $1.key }) {
                let ours = bare.messages.message(kind, locale: locale, values: app)
                for (field, text) in fields.sorted(by: { $0.key < $1.key }) where ours[field]?.value != text {
                    plan.texts.messages.append((kind, locale, field, text))
                }
            }
        }
        let evaluator = Evaluator(bare)
        for var w in bare.windows {
            let verdict = Verdict(kind: .maintenance, decidedBy: .maintenance, why: "", target: nil, window: w)
            for (locale, fields) in (file.windowMessages[w.id] ?? [:]).sorted(by: { $0.key < $1.key }) {
                let ours = evaluator.message(verdict, locale: locale) ?? [:]
                let title = fields["title"].flatMap { ours["title"]?.value == $0 ? nil : $0 }
                let message = fields["message"].flatMap { ours["message"]?.value == $0 ? nil : $0 }
                if title != nil || message != nil { w.copy[locale] = (title, message) }
            }
            plan.windows.append(w)
        }
        for p in bare.platforms {
            var one = ImportPlan()
            one.versions = bare.versions(of: p).map { ImportedVersion($0.version, build: $0.build, releasedAt: .some($0.releasedAt), minOS: .some($0.minOS)) }
            one.pins = file.pins[p.name] ?? []
            one.force = .some(p.force)
            one.recommend = .some(p.recommend)
            one.rollout = .some(p.rollout)
            one.bundleID = p.bundleID
            one.appStoreID = p.appStoreID
            one.minOS = .some(p.minOS)
            // The update URL is derived from the ids unless the platform sets its own.
            let url = file.updateURLs[p.name]
            one.storeURL = .some(url == p.updateURL ? nil : url)
            plan.platforms.append((p.name, one))
        }
        return plan
    }
}

/// What importing a control.json would bring into a project (created when missing).
public struct ControlPlan: Sendable {
    /// The file's settings: name, locales, time zone, rules, delay, reminder, outdated policy.
    public var project: ProjectRecord
    public var platforms: [(name: String, plan: ImportPlan)] = []
    /// The project's message text (only `messages` is used).
    public var texts = ImportPlan()
    /// Active and upcoming windows with the file's ids, the copy where it differs from relctl's text.
    public var windows: [MaintenanceWindow] = []

    public init(project: ProjectRecord) { self.project = project }

    /// What control.json cannot carry, for the user.
    public static let notCarried = "release notes (what's new), past and cancelled maintenance windows, and project text for locales the file does not publish"

    /// The project's settings where the database holds others: (what, database's, file's).
    func settingDifferences(_ existing: ProjectSnapshot) -> [(String, String, String)] {
        let f = project, p = existing.project
        var out: [(String, String, String)] = []
        if p.name != f.name { out.append(("the name", p.name, f.name)) }
        if p.defaultLocale != f.defaultLocale { out.append(("the default locale", p.defaultLocale, f.defaultLocale)) }
        // A project that derives its locales from its data published the file's list: that is no difference.
        if p.locales != f.locales && !(p.locales.isEmpty && existing.publishedLocales == f.locales) {
            out.append(("the locales", p.locales.isEmpty ? "derived from the data" : p.locales.joined(separator: ","), f.locales.joined(separator: ",")))
        }
        if p.timeZone != f.timeZone { out.append(("the time zone", p.timeZone, f.timeZone)) }
        if p.rules != f.rules { out.append(("the rules", p.rules.stored, f.rules.stored)) }
        if p.releaseDelayDays != f.releaseDelayDays { out.append(("the release delay", "\(p.releaseDelayDays) days", "\(f.releaseDelayDays) days")) }
        if p.remindHours != f.remindHours { out.append(("the reminder interval", "\(p.remindHours) hours", "\(f.remindHours) hours")) }
        if p.outdated != f.outdated { out.append(("the outdated policy", p.outdated.rawValue, f.outdated.rawValue)) }
        if p.whatsNewLimit != f.whatsNewLimit { out.append(("the what's-new limit", "\(p.whatsNewLimit) versions", "\(f.whatsNewLimit) versions")) }
        return out
    }

    /// A platform the project does not have yet: everything the file says is new.
    static func blank(_ name: String) -> PlatformRecord {
        PlatformRecord(id: -1, projectID: -1, name: name, bundleID: nil, appStoreID: nil, storeURL: nil, minOS: nil, force: nil, recommend: nil)
    }

    /// Windows the project already has (same platform, start and end) are not imported again.
    public func newWindows(against existing: ProjectSnapshot?) -> [MaintenanceWindow] {
        windows.filter { w in
            !(existing?.windows ?? []).contains { !$0.isCancelled && $0.platformName == w.platformName && $0.startsAt == w.startsAt && $0.endsAt == w.endsAt }
        }
    }

    /// One line per change; `existing` nil: the project is created.
    public func changes(against existing: ProjectSnapshot?) -> [String] {
        guard let existing else {
            return ["add project \(project.slug) (\(project.name)) with \(platforms.count) platform\(platforms.count == 1 ? "" : "s")"]
                + details(against: ProjectSnapshot(project: project, platforms: [], versions: [:], windows: [], messages: MessageResolver(overrides: [:], defaultLocale: project.defaultLocale)))
        }
        return settingDifferences(existing).map { "set \($0.0) of \(project.slug) to \($0.2)" } + details(against: existing)
    }

    func details(against existing: ProjectSnapshot) -> [String] {
        var out: [String] = []
        for (name, plan) in platforms {
            let platform = existing.platforms.first { $0.name == name }
            if platform == nil { out.append("add platform \(name)") }
            out += plan.changes(against: existing, platform: platform ?? ControlPlan.blank(name))
        }
        out += texts.changes(against: existing, platform: ControlPlan.blank(""))
        out += newWindows(against: existing).map { w in
            "add maintenance window #\(w.id) for \(w.platformName ?? "all platforms") from \(Time.format(w.startsAt)) to \(w.endsAt.map(Time.format) ?? "stop")"
        }
        return out
    }

    /// What the project already holds differently (nothing when it is created).
    public func conflicts(against existing: ProjectSnapshot?) -> [String] {
        guard let existing else { return [] }
        var out = settingDifferences(existing).map { "\($0.0) of \(project.slug) is \($0.1) in the database, \($0.2) in the file" }
        for (name, plan) in platforms {
            guard let platform = existing.platforms.first(where: { $0.name == name }) else { continue }
            out += plan.conflicts(against: existing, platform: platform)
        }
        return out + texts.conflicts(against: existing, platform: ControlPlan.blank(""))
    }
}

