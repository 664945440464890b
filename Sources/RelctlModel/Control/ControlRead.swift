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
        /// What a signed document says of itself (its "signed" member); nil in a plain one.
        public var seal: SignedDocument.Seal?
    }

    /// `texts` false: the update messages and window copy are not read (a
    /// client deciding what installs see needs none of them, and checking
    /// every locale's text was most of the reading).
    public static func read(_ bytes: [UInt8], texts: Bool = true) throws(ImportProblem) -> File {
        // Bytes that are not UTF-8 the parse would take (as U+FFFD). A lone surrogate or a fractional
        // number it refuses: they are looked for, to be named, only when it does (verify reads every
        // project's control.json this way, and the two walks over it were a fifth of that reading).
        try ImportProblem.checkUTF8(bytes)
        guard let top = try? JSONReader.parse(bytes) else {
            try ImportProblem.checkText(bytes)
            throw ImportProblem("not valid JSON")
        }
        let doc = Node(top, "")
        guard case .int(let schema)? = doc.member("schemaVersion")?.json else {
            throw ImportProblem("schemaVersion is missing: not a relctl control document")
        }
        guard schema == ControlDocument.schemaVersion else {
            throw ImportProblem("schemaVersion \(schema) is not \(ControlDocument.schemaVersion), the version this relctl reads")
        }
        var seal: SignedDocument.Seal? = nil
        if let signed = doc.member("signed") {
            seal = SignedDocument.Seal(signed.json)
            guard seal != nil else { throw ImportProblem("signed must hold project (a slug), revision (a whole number up to 2^53-1), issuedAt and expiresAt") }
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
                                          force: try node.floor("force"), recommend: try node.floor("recommend"), rollout: try node.rollout("rollout"))
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
                    messages[tag, default: [:]][kind, default: [:]][field] = try fields.text(ControlDocument.camel(field), kind: kind)
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
                    windowMessages[id, default: [:]][tag, default: [:]][field] = try copy.text(ControlDocument.camel(field), kind: "maintenance")
                }
            }
        }
        // In id order, so that each keeps its id in a database that has used none of them.
        windows.sort { $0.id < $1.id }
        let bare = ProjectSnapshot(project: project, platforms: platforms, versions: versions, windows: windows,
                                   messages: MessageResolver(overrides: [:], defaultLocale: defaultLocale))
        return File(bare: bare, updateURLs: updateURLs, pins: pins, messages: messages, windowMessages: windowMessages, seal: seal)
    }
}
