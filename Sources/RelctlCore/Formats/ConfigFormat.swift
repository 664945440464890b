/// `relctl export`: a project's whole configuration as one reviewable
/// document, the file a team keeps in git (schema/config.schema.json).
/// Complete (settings, platforms, every version with its build, release
/// time, minimum OS, pin and notes in every locale, floors with deadlines,
/// rules, message overrides, the active and upcoming maintenance windows
/// with their copy) and deterministic: keys sorted, versions oldest first,
/// no revision, row id or instant of the export, so the same configuration
/// gives the same bytes from any database. Windows keep their ids: apps
/// see them (control.json), and apply gives a window its id again. One item per line where a
/// reviewer reads a diff: a version, a window, a locale's messages.
public enum ConfigFormat {
    /// Moves when the document's shape changes incompatibly.
    public static let version: Int64 = 1

    /// The document for these projects (in slug order), as of `now` (which
    /// windows are still ahead or on), made a project at a time: each is read
    /// by `project` (its snapshot, message overrides and lineage: each part's
    /// revisions, Store.lineage) only when it is written, and the bytes go to
    /// `emit` a `piece` (a mebibyte) or so at a time, so a fleet's export is never held
    /// whole, nor its projects. `schema`: the file's `$schema`, where an
    /// editor finds schema/config.schema.json (a path beside the file, or an
    /// address the team serves); none by default, as relctl has no address
    /// of its own to give.
    public static func render(_ slugs: [String], project load: (String) throws -> (ProjectSnapshot, [String: [String: [String: String]]], [String: [Int64]]),
                              removed: [String: [String: [Int64]]] = [:], schema: String? = nil, at now: Int64,
                              piece: Int = 1 << 20, emit: ([UInt8]) throws -> Void) rethrows {
        var w = Writer()
        w.open("{")
        if let schema { w.member("$schema", .string(schema)) }
        w.member("format", .int(version))
        w.key("projects")
        w.open("{")
        for slug in slugs.sorted(by: JSON.keyOrder) {
            let (snapshot, overrides, lineage) = try load(slug)
            w.key(slug)
            project(snapshot, overrides: overrides, lineage: lineage, at: now, into: &w)
            if w.out.count >= piece {
                try emit(w.out)
                w.out.removeAll(keepingCapacity: true)
            }
        }
        w.close("}")
        // Projects removed from the database: what they went through, so a database built from
        // the file knows the removal (a remote's release made before it names them).
        if !removed.isEmpty {
            w.key("removed")
            w.open("{")
            for slug in removed.keys.sorted(by: JSON.keyOrder) {
                w.key(slug)
                lineageBlock(removed[slug]!, digests: [:], into: &w)
            }
            w.close("}")
        }
        w.close("}")
        w.out.append(10)
        try emit(w.out)
    }

    static func lineageBlock(_ chains: [String: [Int64]], digests: [String: String], into w: inout Writer) {
        w.open("{")
        for part in chains.keys.sorted(by: JSON.keyOrder) { w.member(part, .array([.array(chains[part]!.map { .int($0) }), .string(digests[part] ?? absent)])) }
        w.close("}")
    }

    static func project(_ s: ProjectSnapshot, overrides: [String: [String: [String: String]]], lineage: [String: [Int64]], at now: Int64, into w: inout Writer) {
        let p = s.project
        let windows = exported(s.windows, at: now)
        let settings = settingsMembers(p)
        w.open("{")
        w.member("defaultLocale", settings["defaultLocale"]!)
        // Every format when the key is absent: a file of a project that serves them all reads as before.
        if let formats = settings["formats"] { w.member("formats", formats) }
        // Which changes the configuration holds (deploy compares them), a part a line: its
        // revision, and a digest of its content then, so that an edit made to the file
        // itself (a revert in git) is known as one when the file is applied.
        if !lineage.isEmpty {
            w.key("lineage")
            lineageBlock(lineage, digests: digests(s, overrides: overrides, windows: windows), into: &w)
        }
        w.member("locales", settings["locales"]!)
        w.key("maintenance")
        w.list(windows.map(window))
        w.key("messages")
        w.open("{")
        for kind in overrides.keys.sorted(by: JSON.keyOrder) {
            w.key(kind)
            w.open("{")
            for locale in overrides[kind]!.keys.sorted(by: JSON.keyOrder) {
                w.member(locale, messages(overrides[kind]![locale]!))
            }
            w.close("}")
        }
        w.close("}")
        w.member("name", settings["name"]!)
        w.member("outdated", settings["outdated"]!)
        w.key("platforms")
        w.open("{")
        for platform in s.platforms.sorted(by: { JSON.keyOrder($0.name, $1.name) }) {
            w.key(platform.name)
            w.open("{")
            for (key, value) in platformMembers(platform).sorted(by: { $0.key < $1.key }) { w.member(key, value) }
            w.key("versions")
            w.open("{")
            // Oldest first, as people read a release history.
            for v in s.versions(of: platform).sorted(by: VersionRecord.isOlder) {
                w.member(v.version.text, version(v))
            }
            w.close("}")
            w.close("}")
        }
        w.close("}")
        // trustedKeys only when the project signs: a file of one that does not reads as before.
        for key in ["releaseDelayDays", "remindHours", "rules", "timeZone", "trustedKeys", "whatsNewLimit"] {
            if let value = settings[key] { w.member(key, value) }
        }
        w.close("}")
    }

    /// The windows a file lists: those not cancelled and not over, by start.
    static func exported(_ windows: [MaintenanceWindow], at now: Int64) -> [MaintenanceWindow] {
        windows.filter { !$0.isCancelled && !$0.isOver(at: now) }
            .sorted { ($0.startsAt, $0.platformName ?? "", $0.id) < ($1.startsAt, $1.platformName ?? "", $1.id) }
    }

    static func settingsMembers(_ p: ProjectRecord) -> [String: JSON] {
        var members = settingsOfEveryProject(p)
        if !p.formats.isAll { members["formats"] = .array(p.formats.names.map { .string($0) }) }
        if !p.trustedKeys.isEmpty { members["trustedKeys"] = .array(p.trustedKeys.map { .string($0) }) }
        return members
    }

    private static func settingsOfEveryProject(_ p: ProjectRecord) -> [String: JSON] {
        ["defaultLocale": .string(p.defaultLocale), "locales": .array(p.locales.map { .string($0) }), "name": .string(p.name),
         "outdated": .string(p.outdated.rawValue), "releaseDelayDays": .int(p.releaseDelayDays), "remindHours": .int(p.remindHours),
         "rules": .object(Dictionary(uniqueKeysWithValues: zip(Rules.types, p.rules.byType.map { JSON.string("\($0.alert.rawValue)/\($0.frequency.rawValue)") }))),
         "timeZone": .string(p.timeZone), "whatsNewLimit": .int(p.whatsNewLimit)]
    }

    static func platformMembers(_ platform: PlatformRecord) -> [String: JSON] {
        var members: [String: JSON] = [
            "appStoreId": .optional(platform.appStoreID), "bundleId": .optional(platform.bundleID), "force": platform.force?.json ?? .null,
            "minOs": .optional(platform.minOS), "recommend": platform.recommend?.json ?? .null, "storeUrl": .optional(platform.storeURL)]
        // Only when it has some: a file from before storefronts reads (and digests) as it always did.
        if !platform.storefronts.isEmpty { members["storefronts"] = .array(platform.storefronts.map { .string($0) }) }
        // The same for a staged recommend: its salt too, so who is in stays who is in.
        if let r = platform.rollout { members["rollout"] = rollout(r) }
        return members
    }

    static func rollout(_ r: Rollout) -> JSON {
        .object(["version": .string(r.floor.version.text), "build": .optional(r.floor.build), "salt": .string(r.salt),
                 "steps": .array(r.steps.map { .int($0) }), "every": .int(r.every), "start": .time(r.start), "haltedAt": .time(r.haltedAt),
                 "unstaged": .string(r.unstaged.rawValue), "since": .time(r.since)])
    }

    static func version(_ v: VersionRecord) -> JSON {
        .object(["build": .optional(v.build), "released": .time(v.releasedAt), "minOs": .optional(v.minOS),
                 "pin": v.policy.map { .string($0.rawValue) } ?? .null, "notes": .object(v.notes.mapValues { .string($0) })])
    }

    static func messages(_ fields: [String: String]) -> JSON { .object(fields.mapValues { .string($0) }) }

    /// Each part of a project (Lineage's names: "" the settings, a platform,
    /// "platform/version", "window/id", "messages/kind/locale") and the
    /// digest of its content as the file writes it: 64-bit FNV-1a, in hex.
    /// The writer and the reader of a file both work them out, so an edit to
    /// the file's text shows as a part whose digest no longer matches. It
    /// tells an edit from the content a history was given to, not a forgery
    /// (the file is what a team reviews). A version, most of a file, is
    /// hashed field by field; the few other parts as their compact JSON.
    public static func digests(_ s: ProjectSnapshot, overrides: [String: [String: [String: String]]], windows: [MaintenanceWindow]) -> [String: String] {
        var out: [String: String] = ["": digest(settings: s.project)]
        for platform in s.platforms {
            out[platform.name] = digest(platform: platform)
            for v in s.versions(of: platform) { out["\(platform.name)/\(v.version.text)"] = digest(version: v) }
        }
        // A window a file adds (no id) is no part until the database numbers it; made, it is stamped under its number.
        for w in windows where w.id > 0 { out["window/\(w.id)"] = digest(window: w) }
        for (kind, locales) in overrides { for (locale, fields) in locales { out["messages/\(kind)/\(locale)"] = digest(messages: fields) } }
        return out
    }

    /// Each kind of part's digest, as `digests` gives it.
    package static func digest(settings p: ProjectRecord) -> String { Digest(JSON.object(settingsMembers(p)).compactBytes()).hex }
    package static func digest(platform: PlatformRecord) -> String { Digest(JSON.object(platformMembers(platform)).compactBytes()).hex }
    package static func digest(window w: MaintenanceWindow) -> String { Digest(window(w).compactBytes()).hex }
    package static func digest(messages fields: [String: String]) -> String { Digest(messages(fields).compactBytes()).hex }
    package static func digest(version v: VersionRecord) -> String {
        var d = Digest()
        d.add(v.build.map(String.init)); d.add(v.releasedAt.map(String.init)); d.add(v.minOS); d.add(v.policy?.rawValue)
        for locale in v.notes.keys.sorted() { d.add(locale); d.add(v.notes[locale]) }
        return d.hex
    }

    /// The digest a file's lineage gives a part that is not in the file (removed, a window past).
    public static let absent = "-"

    /// The part an earlier relctl gave windows a file added without an id, before their number:
    /// no window's. Passed over wherever a history is read (a file, the database, a remote's record).
    public static let unnumberedWindow = "window/0"

    /// 64-bit FNV-1a over fields, each ended by a byte no UTF-8 text holds.
    package struct Digest {
        package var h: UInt64 = 0xcbf29ce484222325

        package init() {}
        init(_ bytes: [UInt8]) { for b in bytes { byte(b) } }

        mutating func byte(_ b: UInt8) { h = (h ^ UInt64(b)) &* 0x100000001b3 }

        /// A field: its text, or none (nil), then the end of the field.
        package mutating func add(_ text: String?) {
            if var t = text { t.withUTF8 { for b in $0 { byte(b) } } } else { byte(0xFE) }
            byte(0xFF)
        }

        var hex: String {
            let digits = String(h, radix: 16)
            return String(repeating: "0", count: 16 - digits.count) + digits
        }
    }

    static func window(_ w: MaintenanceWindow) -> JSON {
        .object(["id": .int(w.id), "platform": .optional(w.platformName), "from": .time(w.startsAt), "until": .time(w.endsAt),
                 "copy": .object(w.copy.mapValues { c in .object(["title": .optional(c.title), "message": .optional(c.message)]) })])
    }

    /// Indented members, each value either opened further or written on one line.
    struct Writer {
        var out: [UInt8] = []
        private var depth = 0
        private var first = true

        mutating func open(_ bracket: String) {
            out.append(contentsOf: bracket.utf8)
            depth += 1
            first = true
        }

        mutating func close(_ bracket: String) {
            depth -= 1
            if !first { newline() }
            out.append(contentsOf: bracket.utf8)
            first = false
        }

        private mutating func newline() {
            out.append(10)
            out.append(contentsOf: repeatElement(32, count: depth * 2))
        }

        mutating func key(_ name: String) {
            if !first { out.append(44) }
            newline()
            JSON.quoteBytes(name, into: &out)
            out.append(contentsOf: ": ".utf8)
            first = true
        }

        /// A member whose value is written on one line.
        mutating func member(_ name: String, _ value: JSON) {
            key(name)
            value.writeCompact(to: &out)
            first = false
        }

        /// An array of one-line items, one a line.
        mutating func list(_ items: [JSON]) {
            guard !items.isEmpty else { out.append(contentsOf: "[]".utf8); first = false; return }
            open("[")
            for item in items {
                if !first { out.append(44) }
                newline()
                item.writeCompact(to: &out)
                first = false
            }
            close("]")
        }
    }
}
