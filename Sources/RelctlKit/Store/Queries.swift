/// Typed reads and writes. Every statement binds its values.
extension Store {
    public func meta(_ key: String) throws -> String? {
        try db.scalar("SELECT value FROM meta WHERE key = ?", [.text(key)]).stringValue
    }

    public func setMeta(_ key: String, _ value: String?) throws {
        if let value {
            try db.run("INSERT INTO meta(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value", [.text(key), .text(value)])
        } else {
            try db.run("DELETE FROM meta WHERE key = ?", [.text(key)])
        }
    }

    static let projectColumns = "id, slug, name, default_locale, locales, rules, release_delay_days, remind_hours, outdated"

    static func project(_ r: Row) -> ProjectRecord {
        ProjectRecord(id: r.int(0)!, slug: r.text(1), name: r.text(2), defaultLocale: r.text(3),
                      locales: r.text(4).split(separator: ",").map(String.init), rules: Rules(stored: r.text(5)),
                      releaseDelayDays: r.int(6) ?? 1, remindHours: r.int(7) ?? 24, outdated: r.text(8))
    }

    public func projects() throws -> [ProjectRecord] {
        try db.query("SELECT \(Store.projectColumns) FROM project ORDER BY slug").map(Store.project)
    }

    public func project(slug: String) throws -> ProjectRecord? {
        try db.query("SELECT \(Store.projectColumns) FROM project WHERE slug = ?", [.text(slug)]).first.map(Store.project)
    }

    public func projectSlugs() throws -> [String] {
        try db.query("SELECT slug FROM project ORDER BY slug").map { $0.text(0) }
    }

    static let platformColumns = "id, project_id, name, bundle_id, app_store_id, store_url, min_os, force_version, force_build, recommend_version, recommend_build"

    static func platform(_ r: Row) -> PlatformRecord {
        func floor(_ v: Int, _ b: Int) -> Floor? {
            guard let text = r.string(v), let version = try? Version(text) else { return nil }
            return Floor(version: version, build: r.int(b))
        }
        return PlatformRecord(id: r.int(0)!, projectID: r.int(1)!, name: r.text(2), bundleID: r.string(3),
                              appStoreID: r.string(4), storeURL: r.string(5), minOS: r.string(6),
                              force: floor(7, 8), recommend: floor(9, 10))
    }

    public func platforms(project: Int64) throws -> [PlatformRecord] {
        try db.query("SELECT \(Store.platformColumns) FROM platform WHERE project_id = ? ORDER BY name", [.int(project)]).map(Store.platform)
    }

    public func allPlatforms() throws -> [PlatformRecord] {
        try db.query("SELECT \(Store.platformColumns) FROM platform ORDER BY project_id, name").map(Store.platform)
    }

    static func versionRecord(_ r: Row) -> VersionRecord? {
        guard let version = try? Version(r.text(2)) else { return nil }
        return VersionRecord(id: r.int(0)!, platformID: r.int(1)!, version: version, build: r.int(3),
                             releasedAt: r.int(4), minOS: r.string(5), policy: r.string(6), notes: [:])
    }

    public func notes(version: Int64) throws -> [String: String] {
        var notes: [String: String] = [:]
        for r in try db.query("SELECT locale, body FROM note WHERE version_id = ?", [.int(version)]) { notes[r.text(0)] = r.text(1) }
        return notes
    }

    /// Every version of a platform with its notes, oldest first by the version ordering.
    public func versions(platform: Int64, withNotes: Bool = true) throws -> [VersionRecord] {
        var list = try db.query("SELECT id, platform_id, version, build, released_at, min_os, policy FROM version WHERE platform_id = ?",
                                [.int(platform)]).compactMap(Store.versionRecord)
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

    public func maintenanceWindows(project: Int64) throws -> [MaintenanceWindow] {
        var windows = try db.query("""
            SELECT m.id, m.project_id, m.platform_id, p.name, m.starts_at, m.ends_at
            FROM maintenance m LEFT JOIN platform p ON p.id = m.platform_id
            WHERE m.project_id = ? ORDER BY m.starts_at, m.id
            """, [.int(project)]).map {
            MaintenanceWindow(id: $0.int(0)!, projectID: $0.int(1)!, platformID: $0.int(2), platformName: $0.string(3),
                              startsAt: $0.int(4)!, endsAt: $0.int(5), copy: [:])
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
}
