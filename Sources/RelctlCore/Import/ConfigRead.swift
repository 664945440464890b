/// One project as a configuration file (ConfigFormat) wants it: the state
/// `relctl apply` makes the database hold.
public struct ConfigProject: Sendable {
    /// Ids are the file's own: platforms -1, -2, … in name order, versions
    /// and windows counted from 1; the store matches by name, text and time.
    public var snapshot: ProjectSnapshot
    /// The project's message overrides: kind → locale → field → text.
    public var messages: [String: [String: [String: String]]]
    /// Each part's history of changes, newest first (`lineage`): which changes it holds, for deploy.
    public var lineage: [String: [Int64]] = [:]
    /// The parts whose content in the file is not the one their history was given to: edited in the file itself.
    public var edited: Set<String> = []

    public var slug: String { snapshot.project.slug }
}

extension ConfigFormat {
    static let projectKeys = ["defaultLocale", "formats", "lineage", "locales", "maintenance", "messages", "name", "outdated", "platforms",
                              "releaseDelayDays", "remindHours", "rules", "timeZone", "trustedKeys", "whatsNewLimit"]
    static let platformKeys = ["appStoreId", "bundleId", "force", "minOs", "recommend", "rollout", "storeUrl", "storefronts", "versions"]
    static let versionKeys = ["build", "minOs", "notes", "pin", "released"]
    static let windowKeys = ["copy", "from", "id", "platform", "until"]

    /// Reads a configuration file strictly: every value checked as the
    /// command that sets it checks it, every key known (a typo must not
    /// silently drop a floor), every problem named by its path. By slug.
    public static func read(_ bytes: [UInt8]) throws(ImportProblem) -> [ConfigProject] { try readFile(bytes).projects }

    /// The same, with the histories of the projects the file lists as removed (`removed`), by slug.
    /// `forEach`: how the projects are read (`Parallel.serial`, or on every core: a fleet's
    /// file is a hundred projects, each read from its part of the document alone).
    public static func readFile(_ bytes: [UInt8], forEach: @escaping ForEachIndex = Parallel.serial) throws(ImportProblem) -> (projects: [ConfigProject], removed: [String: [String: [Int64]]]) {
        try readFile(bytes, cut: ConfigSections(bytes), forEach: forEach)
    }

    /// The same, of a file already cut at its projects (nil: it cannot be).
    static func readFile(_ bytes: [UInt8], cut sections: ConfigSections?, forEach: @escaping ForEachIndex) throws(ImportProblem) -> (projects: [ConfigProject], removed: [String: [String: [Int64]]]) {
        var projects: [ConfigProject] = []
        let removed = try eager { () throws in try readFile(bytes, cut: sections, forEach: forEach) { projects.append($0) } }
        return (projects, removed)
    }

    /// The file's projects given to `each` one at a time, in slug order,
    /// and let go when it returns: a first plan of a fleet's file of 1,000
    /// projects held them all at once (1.45 GB beside its 600 MB). They are
    /// read `chunk` bytes of the file at a time, each on its own core, from
    /// its part of the document alone, as deep as it lies there. Left out:
    /// those in `skipping` (unread: their section is one the database holds,
    /// `unread(_:_:known:forEach:)`), and with `only`, every project but
    /// that one (each still read, to check it). Gives the histories of the
    /// projects the file lists as removed.
    ///
    /// Whenever it is found, a problem of the file is the one the whole
    /// document read at once names, as if it were found before any project
    /// was given: once one is known, no more are given. Then `check`'s
    /// first in slug order (the caller's own checks of the projects to give,
    /// like a time zone this machine must know), then what `each` threw:
    /// once it throws, the rest of the file is read for those that come first.
    /// The chunk read next is read on other threads meanwhile (`ahead`).
    public static func readFile(_ bytes: [UInt8], cut sections: ConfigSections?, forEach: @escaping ForEachIndex, ahead: StartEach? = nil, skipping: Set<String> = [],
                                only: String? = nil, chunk: Int = 8 << 20, check: (ConfigProject) throws -> Void = { _ in },
                                each: (ConfigProject) throws -> Void) throws -> [String: [String: [Int64]]] {
        // A section left unread is one a full read accepted, which its digest proves.
        let unread = (sections?.projects ?? []).filter { skipping.contains($0.slug) }.map(\.range)
        // Bytes that are not UTF-8 the parse would take (as U+FFFD). A lone surrogate or a fractional
        // number it refuses: they are looked for, to be named first, only once the read fails (the
        // two walks over a fleet's 60 MB were a tenth of a second before any project was read).
        // So such a problem in a large file's later part is named once the projects before it are
        // given (as any other problem there is), and what `each` made of them is the caller's to drop.
        try ImportProblem.checkUTF8(bytes, in: ImportProblem.parts(of: bytes, skipping: unread))
        do {
            return try readChecked(bytes, cut: sections, forEach: forEach, ahead: ahead, skipping: skipping, only: only, chunk: chunk, check: check, each: each)
        } catch {
            try ImportProblem.checkText(bytes, skipping: unread)
            throw error
        }
    }

    private static func readChecked(_ bytes: [UInt8], cut sections: ConfigSections?, forEach: @escaping ForEachIndex, ahead: StartEach?, skipping: Set<String>,
                            only: String?, chunk: Int, check: (ConfigProject) throws -> Void,
                            each: (ConfigProject) throws -> Void) throws -> [String: [String: [Int64]]] {
        var given = false
        let ahead = ahead ?? { count, body in forEach(count, body); return {} }
        if let sections, let removed = try bySection(bytes, sections, ahead: ahead, skipping: skipping, only: only, chunk: chunk, given: &given, check: check, each: each) {
            return removed
        }
        // What is not JSON that read takes (or holds a key twice), the whole read names.
        let read = try whole(bytes, forEach: forEach)
        guard !given else {
            throw ImportProblem("it could not be read a project at a time, yet it can be read whole; please report it (relctl's reads disagree)")
        }
        let taken = read.projects.filter { !skipping.contains($0.slug) && (only == nil || $0.slug == only) }
        for p in taken { try check(p) }
        for p in taken { try each(p) }
        return read.removed
    }

    /// Runs a read whose `each` throws nothing: the only problem it can throw is the file's.
    static func eager<T>(_ read: () throws -> T) throws(ImportProblem) -> T {
        do { return try read() } catch let problem as ImportProblem { throw problem } catch { throw ImportProblem("\(error)") }
    }

    /// The document read whole (its text checked already): what names a problem.
    static func whole(_ bytes: [UInt8], forEach: ForEachIndex) throws(ImportProblem) -> (projects: [ConfigProject], removed: [String: [String: [Int64]]]) {
        var twice = false
        guard let top = try? JSONReader.parse(bytes, repeated: &twice) else {
            throw ImportProblem("not valid JSON (a missing comma or quote, or a merge conflict left in it?)")
        }
        if twice, let repeated = JSONReader.repeatedKey(bytes) {
            throw ImportProblem("line \(repeated.line): \(repeated.path) holds \"\(repeated.key)\" twice (a merge that kept both sides?); keep one")
        }
        let doc = Node(top, "")
        try header(doc)
        let members = try doc.object("projects").members()
        let read = Parallel.map(members.count, forEach) { i -> Result<ConfigProject, ImportProblem> in
            do throws(ImportProblem) { return .success(try project(members[i].0, members[i].1)) } catch { return .failure(error) }
        }
        // The first project's problem in the file's order, as one read after another finds it.
        let projects = try read.map { r throws(ImportProblem) in try r.get() }
        return (projects, try removedHistories(doc, Set(projects.map(\.slug))))
    }

    /// The document read a project at a time (`readFile(_:cut:forEach:ahead:skipping:only:chunk:check:each:)`):
    /// the rest of it (the projects left out) read as the whole read reads
    /// it, then each project's value alone, as deep as in place, in the
    /// order the whole read takes them. Nil when a part is not JSON the
    /// whole read takes, or holds a key twice: that read names it (`given`:
    /// whether a project was given before). Else the document is such JSON,
    /// and the problems the whole read would name are named here, in its order.
    static func bySection(_ bytes: [UInt8], _ sections: ConfigSections, ahead: StartEach, skipping: Set<String> = [], only: String? = nil,
                          chunk: Int = 8 << 20, given: inout Bool, check: (ConfigProject) throws -> Void = { _ in },
                          each: (ConfigProject) throws -> Void) throws -> [String: [String: [Int64]]]? {
        var twice = false
        let slugs = Set(sections.projects.map(\.slug))
        guard let rest = try? JSONReader.parse(sections.without(slugs, bytes), repeated: &twice), !twice else { return nil }
        let doc = Node(rest, "")
        let path = doc.name("projects")
        let members = sections.projects.filter { !skipping.contains($0.slug) }.sorted { $0.slug < $1.slug }
        var chunks: [Range<Int>] = []
        while (chunks.last?.upperBound ?? 0) < members.count {
            let start = chunks.last?.upperBound ?? 0
            var end = start, size = 0
            repeat { size += members[end].range.count; end += 1 } while end < members.count && size < chunk
            chunks.append(start..<end)
        }
        /// Starts reading a chunk's projects, each on its own core; gives what waits for them.
        /// `checking`: the file's problem is known, and only a part that is not JSON could be named before it.
        func start(_ chunk: Range<Int>, checking: Bool) -> () -> [Part] {
            let parts = Parts(chunk.count)
            let wait = ahead(chunk.count) { k in
                var twice = false
                let (slug, range) = members[chunk.lowerBound + k]
                // The document, "projects", then the project: two levels above it.
                guard let value = try? JSONReader.parse(bytes, range, depth: 2, repeated: &twice), !twice else { return parts.set(k, .notJSON) }
                if checking { return parts.set(k, .checked) }
                do throws(ImportProblem) { parts.set(k, .read(try project(slug, Node(value, "\(path).\(slug)")))) } catch { parts.set(k, .refused(error)) }
            }
            return { wait(); return parts.taken() }
        }
        // The file's first problem in the whole read's order (its own members before any project's),
        // `check`'s first, and what `each` threw.
        var problem: ImportProblem? = nil, checked: (any Error)? = nil, failed: (any Error)? = nil
        do throws(ImportProblem) { try header(doc) } catch { problem = error }
        // While this thread takes a chunk's projects, the next is read on the other cores.
        var next = chunks.first.map { start($0, checking: problem != nil) }
        for n in chunks.indices {
            let read = next!()
            next = n + 1 < chunks.count ? start(chunks[n + 1], checking: problem != nil) : nil
            if read.contains(where: { if case .notJSON = $0 { true } else { false } }) {
                _ = next?()
                return nil
            }
            for part in read {
                switch part {
                case .refused(let error): problem = problem ?? error
                case .read(let p) where problem == nil && checked == nil && (only == nil || p.slug == only):
                    do { try check(p) } catch { checked = error; continue }
                    guard failed == nil else { continue }
                    given = true
                    do { try each(p) } catch { failed = error }
                default: break
                }
            }
        }
        if let problem { throw problem }
        let removed = try removedHistories(doc, slugs)
        if let error = checked ?? failed { throw error }
        return removed
    }

    /// What reading one project's part of the document gave.
    enum Part: Sendable { case notJSON, checked, read(ConfigProject), refused(ImportProblem) }

    /// The parts of a chunk, each set by the call that read it (on its own
    /// thread, at its own index), taken once all are set.
    final class Parts: @unchecked Sendable {
        private var parts: UnsafeMutableBufferPointer<Part?>
        init(_ count: Int) { parts = .allocate(capacity: count); parts.initialize(repeating: nil) }
        func set(_ k: Int, _ part: Part) { parts[k] = part }
        func taken() -> [Part] { parts.map { $0! } }
        deinit { parts.deinitialize(); parts.deallocate() }
    }

    /// The document's own members: an object of those `export` writes, in this format.
    static func header(_ doc: Node) throws(ImportProblem) {
        guard case .object = doc.json else { throw ImportProblem("the document must be an object, as 'relctl export' writes it") }
        try doc.only(["$schema", "format", "projects", "removed"])
        if let schema = doc.member("$schema"), case .string = schema.json {} else if doc.member("$schema") != nil {
            throw ImportProblem("$schema must be a string")
        }
        guard let format = doc.member("format") else { throw ImportProblem("format is missing: not a file 'relctl export' wrote") }
        guard case .int(version) = format.json else {
            throw ImportProblem("format must be \(version), the format this relctl reads; export the file again with this relctl")
        }
    }

    /// The histories of the projects the file lists as removed, by slug.
    static func removedHistories(_ doc: Node, _ slugs: Set<String>) throws(ImportProblem) -> [String: [String: [Int64]]] {
        var removed: [String: [String: [Int64]]] = [:]
        if let list = doc.member("removed") {
            guard case .object = list.json else { throw ImportProblem("removed must be an object of projects' histories") }
            for (slug, node) in list.members() {
                guard (try? Names.slug(slug)) != nil, !slugs.contains(slug) else {
                    throw ImportProblem("\(node.path): '\(slug)' is a project of the file, or not a slug")
                }
                removed[slug] = try lineage(node).mapValues(\.chain)
            }
        }
        return removed
    }

    /// The projects whose section's digest is the one `known` gives (the
    /// database holds what they say: they need not be read), in the file's order.
    public static func unread(_ bytes: [UInt8], _ sections: ConfigSections, known: [String: String], forEach: ForEachIndex) -> [String] {
        let candidates = sections.projects.filter { known[$0.slug] != nil }
        let digests = Parallel.map(candidates.count, forEach) { ConfigSections.digest(bytes, candidates[$0].range) }
        return zip(candidates, digests).filter { known[$0.0.slug] == $0.1 }.map(\.0.slug)
    }

    static func project(_ key: String, _ n: Node) throws(ImportProblem) -> ConfigProject {
        guard case .object = n.json else { throw ImportProblem("\(n.path) must be an object") }
        try n.only(projectKeys)
        let slug: String
        do { slug = try Names.slug(key) } catch { throw ImportProblem("\(n.path): \(Node.reason(error))") }
        let defaultLocale = try n.locale("defaultLocale")
        let locales = try n.locales("locales")
        var p = ProjectRecord(id: -1, slug: slug, name: try n.checked("name", Names.appName), defaultLocale: defaultLocale, locales: locales,
                              rules: try rules(try n.object("rules")), releaseDelayDays: try n.count("releaseDelayDays", max: ProjectRecord.maxReleaseDelayDays),
                              remindHours: try n.count("remindHours", max: ProjectRecord.maxRemindHours),
                              outdated: try n.oneOf("outdated", ProjectRecord.Outdated.self))
        p.timeZone = try n.checked("timeZone", Names.timeZoneName)
        p.whatsNewLimit = try n.count("whatsNewLimit", max: ProjectRecord.maxWhatsNewLimit)
        if let formats = n.member("formats") {
            guard case .array(let items) = formats.json, !items.isEmpty,
                  let served = ServedFormats(stored: items.map { if case .string(let name) = $0, !name.contains(","), name != "all" { return name } else { return "?" } }.joined(separator: ",")) else {
                throw ImportProblem("\(formats.path) must be a list of formats, each once: \(ServedFormat.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            p.formats = served
        }
        if let keys = n.member("trustedKeys") {
            guard case .array(let items) = keys.json, !items.isEmpty else { throw ImportProblem("\(keys.path) must be a list of public keys (base64 of 32 bytes)") }
            for (i, item) in items.enumerated() {
                guard case .string(let key) = item, Ed25519.publicKey(key) != nil else {
                    throw ImportProblem("\(keys.path)[\(i)] is not an Ed25519 public key (base64 of 32 bytes, as relctl keys generate prints it)")
                }
                guard !p.trustedKeys.contains(key) else { throw ImportProblem("\(keys.path)[\(i)] lists a key twice") }
                p.trustedKeys.append(key)
            }
        }

        var platforms: [PlatformRecord] = []
        var versions: [Int64: [VersionRecord]] = [:]
        var nextVersion: Int64 = 1
        for (i, (name, node)) in try n.object("platforms").members().enumerated() {
            guard (try? Names.platform(name)) == name else {
                throw ImportProblem("\(node.path): '\(name)' is not a platform relctl knows\(Suggest.didYouMean(name, Names.knownPlatforms))")
            }
            guard case .object = node.json else { throw ImportProblem("\(node.path) must be an object") }
            try node.only(platformKeys)
            let id = Int64(-(i + 1))
            var platform = PlatformRecord(id: id, projectID: -1, name: name, bundleID: try node.optional("bundleId", Names.bundleID),
                                          appStoreID: try node.optional("appStoreId", Names.appStoreID), storeURL: try node.optional("storeUrl", Names.url),
                                          minOS: try node.optional("minOs", Names.osVersion),
                                          force: try floor(node, "force"), recommend: try floor(node, "recommend"))
            if let list = node.member("storefronts") {
                guard case .array(let items) = list.json, items.count <= Names.countryCount else {
                    throw ImportProblem("\(list.path) must be a list of ISO 3166 country codes, like [\"us\", \"de\"]")
                }
                var codes: [String] = []
                for (i, item) in items.enumerated() {
                    guard case .string(let code) = item, let checked = try? Names.storefront(code), checked == code else {
                        throw ImportProblem("\(list.path)[\(i)] is not a lower-case ISO 3166 country code, like \"us\"")
                    }
                    guard !codes.contains(code) else { throw ImportProblem("\(list.path)[\(i)] lists \(code) twice") }
                    codes.append(code)
                }
                platform.storefronts = codes.sorted()
            }
            if let n = node.member("rollout") { platform.rollout = try rollout(n) }
            if let r = platform.recommend, r.deadline != nil {
                throw ImportProblem("\(node.path).recommend.deadline: a recommend floor has no deadline (only force does); write null")
            }
            var list: [VersionRecord] = [], builds: [Int64: String] = [:]
            for (text, v) in try node.object("versions").members() {
                guard case .object = v.json else { throw ImportProblem("\(v.path) must be an object") }
                try v.only(versionKeys)
                let version: Version
                do { version = try Version(text) } catch { throw ImportProblem("\(v.path): \(Node.reason(error))") }
                let build = try v.build("build")
                if let b = build {
                    if let other = builds[b] { throw ImportProblem("\(v.path).build: build \(b) is already \(name) \(other); each build is used once per platform") }
                    builds[b] = text
                }
                var notes: [String: String] = [:]
                // A fleet's file holds millions of notes: each one's path is spelled only for its error.
                let given = try v.object("notes")
                guard case .object(let bodies) = given.json else { throw ImportProblem("\(given.path) must be an object") }
                for locale in bodies.keys.sorted() {
                    let tag = try Node.normalizedLocale(locale, given.name(locale))
                    guard case .string(let body) = bodies[locale]! else { throw ImportProblem("\(given.name(locale)) must be a string") }
                    if let problem = UserText.storedNotesProblem(body) ?? (body.isEmpty ? "it is empty" : nil) ?? UserText.notesTooLong(body) {
                        throw ImportProblem("\(given.name(locale)): \(problem)")
                    }
                    notes[tag] = body
                }
                let pin = try v.required("pin")
                var policy: VersionRecord.Pin? = nil
                if case .null = pin.json {} else { policy = try v.oneOf("pin", VersionRecord.Pin.self) }
                list.append(VersionRecord(id: nextVersion, platformID: id, version: version, build: build, releasedAt: try v.time("released"),
                                          minOS: try v.optional("minOs", Names.osVersion), policy: policy, notes: notes))
                nextVersion += 1
            }
            list.sort(by: VersionRecord.isOlder)
            versions[id] = list
            platforms.append(platform)
        }

        var windows: [MaintenanceWindow] = []
        for node in try n.array("maintenance") {
            guard case .object = node.json else { throw ImportProblem("\(node.path) must be an object") }
            try node.only(windowKeys)
            let platformName = try node.optional("platform") { $0 }
            var platformID: Int64? = nil
            if let name = platformName {
                guard let p = platforms.first(where: { $0.name == name }) else {
                    throw ImportProblem("\(node.path).platform: '\(name)' is not one of the project's platforms (\(platforms.map(\.name).joined(separator: ", ")))")
                }
                platformID = p.id
            }
            guard let start = try node.time("from") else { throw ImportProblem("\(node.path).from: a window needs a start") }
            let end = try node.time("until")
            if let end, end <= start { throw ImportProblem("\(node.path).until: the window ends at \(Time.format(end)), not after its start") }
            var copy: [String: (title: String?, message: String?)] = [:]
            for (locale, c) in try node.object("copy").members() {
                let tag = try Node.normalizedLocale(locale, c.path)
                guard case .object = c.json else { throw ImportProblem("\(c.path) must be an object") }
                try c.only(["message", "title"])
                let title = try c.optional("title") { s in try storedText(s, kind: "maintenance") }
                let message = try c.optional("message") { s in try storedText(s, kind: "maintenance") }
                guard title != nil || message != nil else { throw ImportProblem("\(c.path): give a title or a message, or leave the locale out") }
                copy[tag] = (title, message)
            }
            // The window's id, or 0: a new window, numbered by the database.
            var id: Int64 = 0
            switch node.member("id")?.json {
            case nil, .null?: break
            case .int(let n)? where n >= 1 && n <= MaintenanceWindow.maxID:
                guard !windows.contains(where: { $0.id == n }) else { throw ImportProblem("\(node.path).id: window #\(n) is listed twice") }
                id = n
            default: throw ImportProblem("\(node.path).id must be a window id (a whole number from 1 to 2^53-1) or null")
            }
            windows.append(MaintenanceWindow(id: id, projectID: -1, platformID: platformID, platformName: platformName,
                                             startsAt: start, endsAt: end, copy: copy))
        }

        var messages: [String: [String: [String: String]]] = [:]
        for (kind, byLocale) in try n.object("messages").members() {
            guard let fields = Catalog.fields[kind] else {
                throw ImportProblem("\(byLocale.path): '\(kind)' is not a message kind (\(Catalog.kinds.joined(separator: ", ")))\(Suggest.didYouMean(kind, Catalog.kinds))")
            }
            guard case .object = byLocale.json else { throw ImportProblem("\(byLocale.path) must be an object") }
            for (locale, node) in byLocale.members() {
                let tag = try Node.normalizedLocale(locale, node.path)
                guard case .object = node.json else { throw ImportProblem("\(node.path) must be an object") }
                try node.only(fields)
                for (field, _) in node.members() {
                    messages[kind, default: [:]][tag, default: [:]][field] = try node.checked(field) { s in try storedText(s, kind: kind) }
                }
            }
        }
        let snapshot = ProjectSnapshot(project: p, platforms: platforms, versions: versions, windows: windows,
                                       messages: MessageResolver(overrides: messages, defaultLocale: defaultLocale))
        var out = ConfigProject(snapshot: snapshot, messages: messages)
        // A part's revision holds for the content it was given to: one edited in the file
        // itself (a revert in git, a hand's fix) is a change of its own, counted when applied.
        let now = digests(snapshot, overrides: messages, windows: windows)
        let read = try n.member("lineage").map { (node) throws(ImportProblem) in try lineage(node) } ?? [:]
        out.lineage = read.mapValues(\.chain)
        out.edited = Set(read.filter { part, entry in entry.digest != (now[part] ?? absent) }.keys)
        // A part in the file with no history at all (added by hand) is edited too.
        out.edited.formUnion(now.keys.filter { read[$0] == nil })
        return out
    }

    /// Each part's history, newest first, with the digest of its content then
    /// (optional: a file from before them has none).
    static func lineage(_ node: Node) throws(ImportProblem) -> [String: (chain: [Int64], digest: String)] {
        guard case .object = node.json else { throw ImportProblem("\(node.path) must be an object of histories") }
        var out: [String: (chain: [Int64], digest: String)] = [:]
        // Passed over, so a file an earlier relctl exported with it still applies.
        for (part, value) in node.members() where part != unnumberedWindow {
            guard isPart(part) else { throw ImportProblem("\(value.path): '\(part)' is not a part of a project relctl names") }
            guard case .array(let pair) = value.json, pair.count == 2, case .array(let list) = pair[0], case .string(let digest) = pair[1],
                  digest == absent || (digest.utf8.count == 16 && digest.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }) else {
                throw ImportProblem("\(value.path) must be [[revisions, newest first], digest] as relctl export writes it")
            }
            var chain: [Int64] = []
            for case .int(let rev) in list where rev >= 1 && rev <= lineageMaximum { chain.append(rev) }
            guard chain.count == list.count, !chain.isEmpty, chain.count <= 16, zip(chain, chain.dropFirst()).allSatisfy({ $0 > $1 }) else {
                throw ImportProblem("\(value.path) must hold 1 to 16 revisions from 1 to \(lineageMaximum), newest first")
            }
            out[part] = (chain, digest)
        }
        return out
    }

    /// Below Lineage.maximum (the store's), so that a file cannot bring a database to its end.
    static let lineageMaximum: Int64 = 1 << 48

    /// A part as Lineage names one: "", a platform, "platform/version", "window/ID", "messages/kind/locale".
    static func isPart(_ part: String) -> Bool {
        guard part.utf8.count <= 200, !UserText.hasControls(part) else { return false }
        if part.isEmpty { return true }
        let pieces = part.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        switch pieces.count {
        case 1: return Names.knownPlatforms.contains(pieces[0])
        case 2 where pieces[0] == "window": return Int64(pieces[1]).map { $0 > 0 } ?? false
        case 2: return Names.knownPlatforms.contains(pieces[0]) && (try? Version(pieces[1])) != nil
        case 3: return pieces[0] == "messages" && !pieces[1].isEmpty && !pieces[2].isEmpty
        default: return false
        }
    }

    /// Text as the database may hold it (UserText's stored rule), and not empty.
    static func storedText(_ s: String, kind: String) throws -> String {
        if let problem = UserText.storedMessageProblem(s, kind: kind) ?? (s.trimmingSpaces().isEmpty ? "it is empty" : nil) {
            throw InputError(problem)
        }
        return s
    }

    /// A staged recommend as `export` writes it (ConfigFormat.rollout), each value in range.
    static func rollout(_ n: Node) throws(ImportProblem) -> Rollout {
        guard case .object = n.json else { throw ImportProblem("\(n.path) must be an object") }
        try n.only(["build", "every", "haltedAt", "salt", "since", "start", "steps", "unstaged", "version"])
        var steps: [Int] = []
        for step in try n.array("steps") {
            guard case .int(let bp) = step.json, bp >= 1, bp <= Int64(Rollout.unit) else {
                throw ImportProblem("\(step.path) must be basis points, a whole number from 1 to \(Rollout.unit)")
            }
            steps.append(Int(bp))
        }
        guard case .int(let every)? = n.member("every")?.json else { throw ImportProblem("\(n.name("every")) must be a whole number of seconds") }
        guard let start = try n.time("start") else { throw ImportProblem("\(n.name("start")) must be a time") }
        let floor = Floor(version: try n.version("version"), build: try n.build("build"))
        let salt = try n.string("salt"), halted = try n.time("haltedAt"), unstaged = try n.oneOf("unstaged", Rollout.Unstaged.self)
        let since = n.member("since") == nil ? start : try n.time("since") ?? start
        do { return try Rollout(floor: floor, salt: salt, steps: steps, every: every, start: start, haltedAt: halted, unstaged: unstaged, since: since) }
        catch { throw ImportProblem("\(n.path): \(error.message)") }
    }

    static func floor(_ n: Node, _ key: String) throws(ImportProblem) -> Floor? {
        let f = try n.required(key)
        if case .object = f.json { try f.only(["build", "deadline", "version"]) }
        return try n.floor(key)
    }

    static func rules(_ n: Node) throws(ImportProblem) -> Rules {
        try n.only(Rules.types)
        var list: [Rule] = []
        for type in Rules.types {
            let text = try n.string(type)
            let parts = text.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
            guard parts.count == 2, let alert = Rule.Alert(rawValue: parts[0]), let frequency = Rule.Frequency(rawValue: parts[1]) else {
                throw ImportProblem("\(n.name(type)): '\(text)' is not ALERT/FREQUENCY with ALERT one of \(Rule.alerts.joined(separator: ", ")) and FREQUENCY one of \(Rule.frequencies.joined(separator: ", ")), like skip/daily")
            }
            list.append(Rule(alert: alert, frequency: frequency))
        }
        return Rules(byType: list)
    }
}

extension Node {
    /// Refuses a key the format does not have, naming the nearest it does.
    func only(_ keys: [String]) throws(ImportProblem) {
        guard case .object(let o) = json else { return }
        for key in o.keys.sorted() where !keys.contains(key) {
            throw ImportProblem("\(name(key)): no such key\(Suggest.didYouMean(key, keys)) (\(path.isEmpty ? "the document" : path) takes \(keys.joined(separator: ", ")))")
        }
    }
}
