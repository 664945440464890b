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
    public static let schema = "https://relctl.invalid/schema/config.schema.json"
    /// Moves when the document's shape changes incompatibly.
    public static let version: Int64 = 1

    /// The document for these projects (slug order), as of `now` (which windows are still ahead or on).
    public static func render(_ snapshots: [ProjectSnapshot], overrides: [String: [String: [String: [String: String]]]], at now: Int64) -> [UInt8] {
        var w = Writer()
        w.open("{")
        w.member("$schema", .string(schema))
        w.member("format", .int(version))
        w.key("projects")
        w.open("{")
        for s in snapshots.sorted(by: { JSON.keyOrder($0.project.slug, $1.project.slug) }) {
            w.key(s.project.slug)
            project(s, overrides: overrides[s.project.slug] ?? [:], at: now, into: &w)
        }
        w.close("}")
        w.close("}")
        w.out.append(10)
        return w.out
    }

    static func project(_ s: ProjectSnapshot, overrides: [String: [String: [String: String]]], at now: Int64, into w: inout Writer) {
        let p = s.project
        w.open("{")
        w.member("defaultLocale", .string(p.defaultLocale))
        w.member("locales", .array(p.locales.map { .string($0) }))
        w.key("maintenance")
        let windows = s.windows.filter { !$0.isCancelled && !$0.isOver(at: now) }
            .sorted { ($0.startsAt, $0.platformName ?? "", $0.id) < ($1.startsAt, $1.platformName ?? "", $1.id) }
        w.list(windows.map(window))
        w.key("messages")
        w.open("{")
        for kind in overrides.keys.sorted(by: JSON.keyOrder) {
            w.key(kind)
            w.open("{")
            for locale in overrides[kind]!.keys.sorted(by: JSON.keyOrder) {
                w.member(locale, .object(overrides[kind]![locale]!.mapValues { .string($0) }))
            }
            w.close("}")
        }
        w.close("}")
        w.member("name", .string(p.name))
        w.member("outdated", .string(p.outdated.rawValue))
        w.key("platforms")
        w.open("{")
        for platform in s.platforms.sorted(by: { JSON.keyOrder($0.name, $1.name) }) {
            w.key(platform.name)
            w.open("{")
            w.member("appStoreId", .optional(platform.appStoreID))
            w.member("bundleId", .optional(platform.bundleID))
            w.member("force", platform.force?.json ?? .null)
            w.member("minOs", .optional(platform.minOS))
            w.member("recommend", platform.recommend?.json ?? .null)
            w.member("storeUrl", .optional(platform.storeURL))
            w.key("versions")
            w.open("{")
            // Oldest first, as people read a release history.
            for v in s.versions(of: platform).sorted(by: { Release.isBelow($0.release, $1.release) || (!Release.isBelow($1.release, $0.release) && JSON.keyOrder($0.version.text, $1.version.text)) }) {
                w.member(v.version.text, .object([
                    "build": .optional(v.build), "released": .time(v.releasedAt), "minOs": .optional(v.minOS),
                    "pin": v.policy.map { .string($0.rawValue) } ?? .null,
                    "notes": .object(v.notes.mapValues { .string($0) }),
                ]))
            }
            w.close("}")
            w.close("}")
        }
        w.close("}")
        w.member("releaseDelayDays", .int(p.releaseDelayDays))
        w.member("remindHours", .int(p.remindHours))
        w.member("rules", .object(Dictionary(uniqueKeysWithValues: zip(Rules.types, p.rules.byType.map { JSON.string("\($0.alert.rawValue)/\($0.frequency.rawValue)") }))))
        w.member("timeZone", .string(p.timeZone))
        w.member("whatsNewLimit", .int(p.whatsNewLimit))
        w.close("}")
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
