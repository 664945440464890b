import RelctlCore
import SQLite

/// Typed reads. Every statement binds its values; every row is decoded into
/// core types or reported as a bad row.
extension Store {
    public func meta(_ key: String) throws -> String? {
        try db.scalar("SELECT value FROM meta WHERE key = ?", [.text(key)]).stringValue
    }

    public var defaultProject: String? { get throws { try meta("default_project") } }

    static let projectColumns = "id, slug, name, default_locale, locales, rules, release_delay_days, remind_hours, outdated"

    func project(_ r: Row) throws -> ProjectRecord {
        let slug = r.text(1)
        let rules: Rules
        do { rules = try Rules(stored: r.text(5)) } catch let e as InputError {
            throw badRow("project '\(slug)'", "its rules: \(e.message)")
        }
        do { _ = try Names.appName(r.text(2)) } catch let e as InputError {
            throw badRow("project '\(slug)'", "its name: \(e.message)")
        }
        return ProjectRecord(id: r.int(0)!, slug: slug, name: r.text(2), defaultLocale: r.text(3),
                             locales: r.text(4).split(separator: ",").map(String.init), rules: rules,
                             releaseDelayDays: r.int(6) ?? 1, remindHours: r.int(7) ?? 24, outdated: r.text(8))
    }

    public func projects() throws -> [ProjectRecord] {
        try db.query("SELECT \(Store.projectColumns) FROM project ORDER BY slug").map(project)
    }

    public func project(slug: String) throws -> ProjectRecord? {
        try db.query("SELECT \(Store.projectColumns) FROM project WHERE slug = ?", [.text(slug)]).first.map(project)
    }

    public func projectSlugs() throws -> [String] {
        try db.query("SELECT slug FROM project ORDER BY slug").map { $0.text(0) }
    }

    static let platformColumns = "id, project_id, name, bundle_id, app_store_id, store_url, min_os, force_version, force_build, recommend_version, recommend_build"

    func platform(_ r: Row) throws -> PlatformRecord {
        let name = r.text(2)
        func floor(_ v: Int, _ b: Int, _ kind: String) throws -> Floor? {
            guard let text = r.string(v) else { return nil }
            do { return Floor(version: try Version(text), build: r.int(b)) } catch let e as InputError {
                throw badRow("platform \(name) of project #\(r.int(1)!)", "its \(kind) floor: \(e.message)")
            }
        }
        return PlatformRecord(id: r.int(0)!, projectID: r.int(1)!, name: name, bundleID: r.string(3),
                              appStoreID: r.string(4), storeURL: r.string(5), minOS: r.string(6),
                              force: try floor(7, 8, "force"), recommend: try floor(9, 10, "recommend"))
    }

    public func platforms(project: Int64) throws -> [PlatformRecord] {
        try db.query("SELECT \(Store.platformColumns) FROM platform WHERE project_id = ? ORDER BY name", [.int(project)]).map(platform)
    }

    public func allPlatforms() throws -> [PlatformRecord] {
        try db.query("SELECT \(Store.platformColumns) FROM platform ORDER BY project_id, name").map(platform)
    }

    func versionRecord(_ r: Row) throws -> VersionRecord {
        let version: Version
        do { version = try Version(r.text(2)) } catch let e as InputError {
            throw badRow("version #\(r.int(0)!) of platform #\(r.int(1)!)", e.message)
        }
        return VersionRecord(id: r.int(0)!, platformID: r.int(1)!, version: version, build: r.int(3),
                             releasedAt: r.int(4), minOS: r.string(5), policy: r.string(6), notes: [:])
    }

    public func notes(version: Int64) throws -> [String: String] {
        var notes: [String: String] = [:]
        for r in try db.query("SELECT locale, body FROM note WHERE version_id = ?", [.int(version)]) { notes[r.text(0)] = r.text(1) }
        return notes
    }

    /// Every version of a platform, oldest first by the version ordering,
    /// with its notes unless they are not wanted.
    public func versions(platform: Int64, withNotes: Bool = true) throws -> [VersionRecord] {
        var list = try db.query("SELECT id, platform_id, version, build, released_at, min_os, policy FROM version WHERE platform_id = ?",
                                [.int(platform)]).map(versionRecord)
        if withNotes {
            var index: [Int64: Int] = [:]
            for (i, v) in list.enumerated() { index[v.id] = i }
            try db.each("SELECT n.version_id, n.locale, n.body FROM note n JOIN version v ON v.id = n.version_id WHERE v.platform_id = ?", [.int(platform)]) { c in
                if let id = c.int(0), let i = index[id], let locale = c.text(1), let body = c.text(2) { list[i].notes[locale] = body }
            }
        }
        return Store.sorted(list)
    }

    static func sorted(_ list: [VersionRecord]) -> [VersionRecord] {
        list.sorted {
            if Release.isBelow($0.release, $1.release) { return true }
            if Release.isBelow($1.release, $0.release) { return false }
            return $0.version.text < $1.version.text
        }
    }

    /// The version spelled exactly `text` on a platform, with its notes; the
    /// error says which spellings the platform does have.
    public func version(_ text: String, on platform: PlatformRecord) throws -> VersionRecord {
        let wanted = try Version(text)
        let all = try versions(platform: platform.id, withNotes: false)
        if var exact = all.first(where: { $0.version.text == text }) {
            exact.notes = try notes(version: exact.id)
            return exact
        }
        let equal = all.filter { $0.version == wanted }
        let hint = equal.isEmpty
            ? "see 'relctl version list --platform \(platform.name)'"
            : "the platform has \(equal.map(\.version.text).joined(separator: ", ")); versions are matched exactly as the app reports them"
        throw StoreError("no version \(text) on \(platform.name)\(Suggest.didYouMean(text, all.map(\.version.text)))", hint: hint)
    }

    /// How many versions each platform has, by platform id.
    public func versionCounts() throws -> [Int64: Int] {
        var counts: [Int64: Int] = [:]
        for r in try db.query("SELECT platform_id, count(*) FROM version GROUP BY platform_id") {
            counts[r.int(0)!] = Int(r.int(1)!)
        }
        return counts
    }

    public func maintenanceWindows(project: Int64) throws -> [MaintenanceWindow] {
        var windows = try db.query("""
            SELECT m.id, m.project_id, m.platform_id, p.name, m.starts_at, m.ends_at, m.cancelled_at
            FROM maintenance m LEFT JOIN platform p ON p.id = m.platform_id
            WHERE m.project_id = ? ORDER BY m.starts_at, m.id
            """, [.int(project)]).map {
            MaintenanceWindow(id: $0.int(0)!, projectID: $0.int(1)!, platformID: $0.int(2), platformName: $0.string(3),
                              startsAt: $0.int(4)!, endsAt: $0.int(5), cancelledAt: $0.int(6), copy: [:])
        }
        var index: [Int64: Int] = [:]
        for (i, w) in windows.enumerated() { index[w.id] = i }
        for r in try db.query("SELECT c.window_id, c.locale, c.title, c.message FROM maintenance_copy c JOIN maintenance m ON m.id = c.window_id WHERE m.project_id = ?", [.int(project)]) {
            if let i = index[r.int(0)!] { windows[i].copy[r.text(1)] = (r.string(2), r.string(3)) }
        }
        return windows
    }

    /// Project message overrides: kind -> locale -> field -> value.
    public func messageOverrides(project: Int64) throws -> [String: [String: [String: String]]] {
        var result: [String: [String: [String: String]]] = [:]
        for r in try db.query("SELECT kind, locale, field, value FROM message WHERE project_id = ?", [.int(project)]) {
            result[r.text(0), default: [:]][r.text(1), default: [:]][r.text(2)] = r.text(3)
        }
        return result
    }

    /// Everything about one project: the input of the evaluator and of every
    /// publisher. Call inside `read {}` for one consistent state.
    public func snapshot(_ project: ProjectRecord) throws -> ProjectSnapshot {
        let platforms = try platforms(project: project.id)
        var versions: [Int64: [VersionRecord]] = [:]
        for p in platforms { versions[p.id] = try self.versions(platform: p.id) }
        return ProjectSnapshot(project: project, platforms: platforms, versions: versions,
                               windows: try maintenanceWindows(project: project.id),
                               messages: MessageResolver(overrides: try messageOverrides(project: project.id),
                                                         defaultLocale: project.defaultLocale))
    }

    /// The newest audit entries, newest first.
    public func auditEntries(limit: Int64) throws -> [AuditEntry] {
        try db.query("SELECT id, at, user, project, action FROM audit ORDER BY id DESC LIMIT ?", [.int(limit)]).map {
            AuditEntry(id: $0.int(0)!, at: $0.int(1)!, user: $0.text(2), project: $0.string(3), action: $0.text(4))
        }
    }
}
