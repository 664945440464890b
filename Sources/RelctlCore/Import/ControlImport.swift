/// Reading relctl's own control.json (schema/control.schema.json) back into
/// a project, for moving a project between databases. The file carries the
/// project's settings, every platform with its versions (builds, release
/// times, minimum OS), floors and pins, the resolved update messages of each
/// locale and the active and upcoming maintenance windows. It does not carry
/// release notes, past or cancelled windows, or the project text of locales
/// it does not publish: `ControlPlan.notCarried` says so to the user.
public enum ControlImport {
    /// The file, read and checked value by value; messages and window copy are
    /// compared with the catalog later (`plan`), once the caller has the zone
    /// offsets that dates in messages need.
    public struct File: Sendable {
        /// The project as the file has it, with no text of its own and no window copy.
        public var bare: ProjectSnapshot
        public var updateURLs: [String: String]
        public var pins: [String: [(String, String)]]
        /// locale → kind → field → text, as published ({app} filled in).
        public var messages: [String: [String: [String: String]]]
        /// window id → locale → field → text.
        public var windowMessages: [Int64: [String: [String: String]]]
    }

    /// `texts` false: the update messages and window copy are not read (a
    /// client deciding what installs see needs none of them, and checking
    /// every locale's text was most of the reading).
    public static func read(_ bytes: [UInt8], texts: Bool = true) throws(ImportProblem) -> File {
        try ImportProblem.checkText(bytes)
        guard let top = try? JSONReader.parse(bytes) else { throw ImportProblem("not valid JSON") }
        let doc = Node(top, "")
        guard case .int(let schema)? = doc.member("schemaVersion")?.json else {
            throw ImportProblem("schemaVersion is missing: not a relctl control document")
        }
        guard schema == ControlFormat.schemaVersion else {
            throw ImportProblem("schemaVersion \(schema) is not \(ControlFormat.schemaVersion), the version this relctl reads")
        }
        let p = try doc.object("project")
        let defaultLocale = try p.locale("defaultLocale")
        let locales = try p.locales("locales")
        var project = ProjectRecord(id: -1, slug: try p.checked("slug", Names.slug), name: try p.checked("name", Names.appName),
                                    defaultLocale: defaultLocale, locales: locales, rules: .standard, releaseDelayDays: 1, remindHours: 24, outdated: .recommend)
        project.timeZone = try p.checked("timeZone", Names.timeZoneName)
        project.whatsNewLimit = try p.count("whatsNewVersions", max: ProjectRecord.maxWhatsNewLimit)

        var platforms: [PlatformRecord] = []
        var versions: [Int64: [VersionRecord]] = [:]
        var updateURLs: [String: String] = [:]
        var pins: [String: [(String, String)]] = [:]
        var settings: (rules: Rules, delay: Int64, remind: Int64, outdated: ProjectRecord.Outdated, from: String)? = nil
        let platformNodes = try doc.object("platforms").members()
        for (i, (name, node)) in platformNodes.enumerated() {
            let id = Int64(-(i + 1))
            guard (try? Names.platform(name)) == name else { throw ImportProblem("\(node.path): '\(name)' is not a platform relctl knows") }
            let platform = PlatformRecord(id: id, projectID: -1, name: name, bundleID: try node.optional("bundleId", Names.bundleID),
                                          appStoreID: try node.optional("appStoreId", Names.appStoreID), storeURL: nil,
                                          minOS: try node.optional("minOs", Names.osVersion),
                                          force: try node.floor("force"), recommend: try node.floor("recommend"))
            if let url = try node.optional("updateUrl", Names.url) { updateURLs[name] = url }
            // The project's settings, repeated on every platform: they must agree.
            let here = (rules: try node.rules("rules"), delay: try node.count("releaseDelayDays", max: ProjectRecord.maxReleaseDelayDays),
                        remind: try node.count("remindAfterHours", max: ProjectRecord.maxRemindHours),
                        outdated: try node.oneOf("outdated", ProjectRecord.Outdated.self), from: name)
            if let s = settings, s.rules != here.rules || s.delay != here.delay || s.remind != here.remind || s.outdated != here.outdated {
                throw ImportProblem("platforms \(s.from) and \(name) disagree on the project's rules, release delay, reminder or outdated policy")
            }
            settings = here
            var list: [VersionRecord] = []
            // By text and by build: a linear search per version made a long file's import quadratic.
            var texts = Set<String>(), builds: [Int64: String] = [:]
            for v in try node.array("versions") {
                let version = try v.version("version")
                guard texts.insert(version.text).inserted else { throw ImportProblem("\(v.path): \(name) \(version.text) is listed twice") }
                let build = try v.build("build")
                if let b = build {
                    if let other = builds[b] { throw ImportProblem("\(v.path): build \(b) is already \(name) \(other)") }
                    builds[b] = version.text
                }
                list.append(VersionRecord(id: Int64(list.count + 1), platformID: id, version: version, build: build,
                                          releasedAt: try v.time("releasedAt"), minOS: try v.optional("minOs", Names.osVersion),
                                          policy: nil, notes: [:]))
            }
            list.sort { $0.version < $1.version }
            for pin in try node.array("pins") {
                let version = try pin.version("version")
                guard let i = list.firstIndex(where: { $0.version.text == version.text }) else {
                    throw ImportProblem("\(pin.path): \(name) \(version.text) is pinned but not in the versions list")
                }
                list[i].policy = try pin.oneOf("policy", VersionRecord.Pin.self)
                pins[name, default: []].append((version.text, list[i].policy!.rawValue))
            }
            versions[id] = list
            platforms.append(platform)
        }
        if let s = settings {
            project.rules = s.rules; project.releaseDelayDays = s.delay; project.remindHours = s.remind; project.outdated = s.outdated
        }

        var messages: [String: [String: [String: String]]] = [:]
        for (locale, node) in texts ? try doc.object("messages").members() : [] {
            let tag = try Node.normalizedLocale(locale, node.path)
            for kind in ["required", "optional"] {
                let fields = try node.object(kind)
                for field in Catalog.fields[kind]! {
                    messages[tag, default: [:]][kind, default: [:]][field] = try fields.text(ControlFormat.camel(field), kind: kind)
                }
            }
        }

        var windows: [MaintenanceWindow] = []
        var windowMessages: [Int64: [String: [String: String]]] = [:]
        let m = try doc.object("maintenance")
        for node in try m.array("active") + m.array("upcoming") {
            guard case .int(let id)? = node.member("id")?.json, id >= 1, id <= MaintenanceWindow.maxID else {
                throw ImportProblem("\(node.path).id: not a window id (a whole number from 1 to 2^53-1)")
            }
            guard !windows.contains(where: { $0.id == id }) else { throw ImportProblem("\(node.path): window #\(id) is listed twice") }
            var platformID: Int64? = nil
            let platformName = try node.optional("platform") { $0 }
            if let name = platformName {
                guard let p = platforms.first(where: { $0.name == name }) else { throw ImportProblem("\(node.path).platform: '\(name)' is not one of the file's platforms") }
                platformID = p.id
            }
            guard let start = try node.time("startsAt") else { throw ImportProblem("\(node.path).startsAt: a window needs a start") }
            let end = try node.time("endsAt")
            if let end, end <= start { throw ImportProblem("\(node.path): the window ends at \(Time.format(end)), not after its start") }
            windows.append(MaintenanceWindow(id: id, projectID: -1, platformID: platformID, platformName: platformName, startsAt: start, endsAt: end, copy: [:]))
            for (locale, copy) in texts ? try node.object("messages").members() : [] {
                let tag = try Node.normalizedLocale(locale, copy.path)
                for field in Catalog.fields["maintenance"]! {
                    windowMessages[id, default: [:]][tag, default: [:]][field] = try copy.text(ControlFormat.camel(field), kind: "maintenance")
                }
            }
        }
        // In id order, so that each keeps its id in a database that has used none of them.
        windows.sort { $0.id < $1.id }
        let bare = ProjectSnapshot(project: project, platforms: platforms, versions: versions, windows: windows,
                                   messages: MessageResolver(overrides: [:], defaultLocale: defaultLocale))
        return File(bare: bare, updateURLs: updateURLs, pins: pins, messages: messages, windowMessages: windowMessages)
    }

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

/// A value of the control document with the path that names it in errors.
struct Node {
    var json: JSON
    var path: String

    init(_ json: JSON, _ path: String) { self.json = json; self.path = path }

    func name(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    func member(_ key: String) -> Node? {
        guard case .object(let o) = json, let v = o[key] else { return nil }
        return Node(v, name(key))
    }

    func required(_ key: String) throws(ImportProblem) -> Node {
        guard let n = member(key) else { throw ImportProblem("\(name(key)) is missing") }
        return n
    }

    func object(_ key: String) throws(ImportProblem) -> Node {
        let n = try required(key)
        guard case .object = n.json else { throw ImportProblem("\(n.path) must be an object") }
        return n
    }

    func members() -> [(String, Node)] {
        guard case .object(let o) = json else { return [] }
        return o.keys.sorted().map { ($0, Node(o[$0]!, name($0))) }
    }

    func array(_ key: String) throws(ImportProblem) -> [Node] {
        let n = try required(key)
        guard case .array(let items) = n.json else { throw ImportProblem("\(n.path) must be an array") }
        return items.enumerated().map { Node($1, "\(n.path)[\($0)]") }
    }

    func string(_ key: String) throws(ImportProblem) -> String {
        let n = try required(key)
        guard case .string(let s) = n.json else { throw ImportProblem("\(n.path) must be a string") }
        return s
    }

    /// A string checked by one of relctl's own input checks.
    func checked(_ key: String, _ check: (String) throws -> String) throws(ImportProblem) -> String {
        let s = try string(key)
        do { return try check(s) } catch { throw ImportProblem("\(name(key)): \(Node.reason(error))") }
    }

    /// null or a string checked like input.
    func optional(_ key: String, _ check: (String) throws -> String) throws(ImportProblem) -> String? {
        let n = try required(key)
        if case .null = n.json { return nil }
        return try checked(key, check)
    }

    func oneOf(_ key: String, _ allowed: [String]) throws(ImportProblem) -> String {
        let s = try string(key)
        guard allowed.contains(s) else { throw ImportProblem("\(name(key)): '\(s)' is not one of \(allowed.joined(separator: ", "))") }
        return s
    }

    /// One of an enum's words.
    func oneOf<E: RawRepresentable & CaseIterable>(_ key: String, _: E.Type) throws(ImportProblem) -> E where E.RawValue == String {
        let s = try string(key)
        guard let value = E(rawValue: s) else { throw ImportProblem("\(name(key)): '\(s)' is not one of \(E.allCases.map(\.rawValue).joined(separator: ", "))") }
        return value
    }

    /// A list of locale tags, each once.
    func locales(_ key: String) throws(ImportProblem) -> [String] {
        var tags: [String] = []
        for node in try array(key) {
            let tag = try node.locale(nil)
            guard !tags.contains(tag) else { throw ImportProblem("\(node.path): '\(tag)' is listed twice") }
            tags.append(tag)
        }
        return tags
    }

    func locale(_ key: String?) throws(ImportProblem) -> String {
        guard let key else {
            guard case .string(let s) = json else { throw ImportProblem("\(path) must be a locale string") }
            return try Node.normalizedLocale(s, path)
        }
        return try Node.normalizedLocale(try string(key), name(key))
    }

    /// Locales are stored as relctl spells them; another spelling would publish other file names.
    static func normalizedLocale(_ s: String, _ path: String) throws(ImportProblem) -> String {
        guard let tag = try? LocaleTag.normalize(s), tag == s else { throw ImportProblem("\(path): '\(s)' is not a locale tag in its normal spelling (like en, pt-BR)") }
        return tag
    }

    func version(_ key: String) throws(ImportProblem) -> Version {
        let s = try string(key)
        do { return try Version(s) } catch { throw ImportProblem("\(name(key)): \(Node.reason(error))") }
    }

    func build(_ key: String) throws(ImportProblem) -> Int64? {
        let n = try required(key)
        switch n.json {
        case .null: return nil
        case .int(let b):
            do { return try parseBuild(String(b)) } catch { throw ImportProblem("\(n.path): \(Node.reason(error))") }
        default: throw ImportProblem("\(n.path) must be a whole number or null")
        }
    }

    func count(_ key: String, max: Int64) throws(ImportProblem) -> Int64 {
        let n = try required(key)
        guard case .int(let v) = n.json, v >= 0, v <= max else { throw ImportProblem("\(n.path) must be a whole number from 0 to \(max)") }
        return v
    }

    func time(_ key: String) throws(ImportProblem) -> Int64? {
        let n = try required(key)
        if case .null = n.json { return nil }
        guard case .string(let s) = n.json, let t = Time.parseUTC(s), Time.isInRange(t) else {
            throw ImportProblem("\(n.path) must be a UTC time between the years 0001 and 9999, like 2026-12-01T02:00:00Z, or null")
        }
        return t
    }

    func floor(_ key: String) throws(ImportProblem) -> Floor? {
        let n = try required(key)
        if case .null = n.json { return nil }
        guard case .object = n.json else { throw ImportProblem("\(n.path) must be an object or null") }
        return Floor(version: try n.version("version"), build: try n.build("build"), deadline: try n.time("deadline"))
    }

    func rules(_ key: String) throws(ImportProblem) -> Rules {
        let n = try object(key)
        var list: [Rule] = []
        for type in Rules.types {
            let r = try n.object(type)
            list.append(Rule(alert: try r.oneOf("alert", Rule.Alert.self), frequency: try r.oneOf("frequency", Rule.Frequency.self)))
        }
        return Rules(byType: list)
    }

    /// Message text, as `message set` takes it (UserText).
    func text(_ key: String, kind: String) throws(ImportProblem) -> String {
        let s = try string(key)
        if let problem = UserText.messageProblem(s, kind: kind) { throw ImportProblem("\(name(key)): \(problem)") }
        return s
    }

    static func reason(_ error: any Error) -> String { (error as? InputError)?.message ?? "\(error)" }
}
