import RelctlCore
import SQLite

/// The values the shell completion offers, read without any check beyond
/// opening the file: completion must never fail loudly.
extension Store {
    /// The project named on the line, else the default one; nil means all.
    /// An unknown name scopes to nothing.
    public func completionScope(project: String?) throws -> Int64? {
        if let project { return try db.scalar("SELECT id FROM project WHERE slug = ?", [.text(project)]).intValue ?? -1 }
        return try db.scalar("SELECT p.id FROM project p JOIN meta m ON m.key = 'default_project' AND m.value = p.slug").intValue
    }

    public func platformNames(scope: Int64?) throws -> [String] {
        try db.query("SELECT DISTINCT name FROM platform WHERE ?1 IS NULL OR project_id = ?1 ORDER BY name", [SQLValue(scope)]).map { $0.text(0) }
    }

    public func versionTexts(scope: Int64?, platform: String?) throws -> [String] {
        try db.query("""
            SELECT DISTINCT v.version FROM version v JOIN platform p ON p.id = v.platform_id
            WHERE (?1 IS NULL OR p.project_id = ?1) AND (?2 IS NULL OR p.name = ?2) ORDER BY v.version
            """, [SQLValue(scope), SQLValue(platform)]).map { $0.text(0) }
    }

    /// Windows that have not begun, with their times (shown beside the ids).
    /// Windows that have not begun; with `active`, the ones running now too (edit, message).
    public func upcomingWindows(scope: Int64?, active: Bool = false) throws -> [(id: Int64, start: Int64, end: Int64?)] {
        let when = active ? "(ends_at IS NULL OR ends_at > CAST(strftime('%s','now') AS INTEGER))" : "starts_at > CAST(strftime('%s','now') AS INTEGER)"
        return try db.query("SELECT id, starts_at, ends_at FROM maintenance WHERE (?1 IS NULL OR project_id = ?1) AND \(when) AND cancelled_at IS NULL ORDER BY id",
                            [SQLValue(scope)]).compactMap { r in
            guard let id = r.int(0), let start = r.int(1), Time.isInRange(start) else { return nil }
            let end = r.int(2).flatMap { Time.isInRange($0) ? $0 : nil }
            return (id, start, end)
        }
    }

    /// Locales that notes, messages and default locales use.
    public func localesInUse(scope: Int64?) throws -> [String] {
        try db.query("""
            SELECT n.locale FROM note n JOIN version v ON v.id = n.version_id JOIN platform p ON p.id = v.platform_id WHERE ?1 IS NULL OR p.project_id = ?1
            UNION SELECT locale FROM message WHERE ?1 IS NULL OR project_id = ?1
            UNION SELECT default_locale FROM project WHERE ?1 IS NULL OR id = ?1
            """, [SQLValue(scope)]).map { $0.text(0) }
    }
}
