import RelctlCore
import SQLite

/// Writes to maintenance windows, each one transaction with its audit row.
extension Store {
    /// Opens (or schedules) a window and returns its id. Refused when it
    /// overlaps a window of the same scope that is not over.
    public func openWindow(in project: ProjectRecord, platform: PlatformRecord?, from start: Int64, until end: Int64?,
                           copy: (locale: String, title: String?, message: String?)?, now: Int64) throws -> Int64 {
        let scope = platform?.name ?? "all platforms"
        let span = "\(Time.format(start)) to \(end.map(Time.format) ?? "stop")"
        return try change(project: project.slug, "maintenance \(scope) \(span)", now: now) {
            for w in try maintenanceWindows(project: project.id) where !w.isOver(at: now) {
                let sameScope = w.platformID == nil || platform == nil || w.platformID == platform!.id
                let overlaps = start < (w.endsAt ?? Int64.max) && w.startsAt < (end ?? Int64.max)
                if sameScope && overlaps {
                    throw StoreError("this window overlaps window #\(w.id) (\(w.platformName ?? "all platforms"), \(Time.format(w.startsAt)) to \(w.endsAt.map(Time.format) ?? "stop"))",
                                     hint: w.isActive(at: now) ? "stop it first with 'relctl maintenance stop'" : "cancel it with 'relctl maintenance cancel \(w.id)' or choose other times")
                }
            }
            // Ids only grow, across projects and cancellations: apps may remember them.
            let last = try db.scalar("""
                SELECT max(coalesce((SELECT CAST(value AS INTEGER) FROM meta WHERE key = 'maintenance_last_id'), 0),
                           coalesce((SELECT max(id) FROM maintenance), 0))
                """).intValue ?? 0
            let id = last + 1
            try db.run("INSERT INTO maintenance(id, project_id, platform_id, starts_at, ends_at) VALUES (?, ?, ?, ?, ?)",
                       [.int(id), .int(project.id), SQLValue(platform?.id), .int(start), SQLValue(end)])
            try db.run("INSERT INTO meta(key, value) VALUES ('maintenance_last_id', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                       [.text(String(id))])
            if let copy {
                try db.run("INSERT INTO maintenance_copy(window_id, locale, title, message) VALUES (?, ?, ?, ?)",
                           [.int(id), .text(copy.locale), SQLValue(copy.title), SQLValue(copy.message)])
            }
            return id
        }
    }

    /// Ends the active windows (of one platform, or all) now; returns their ids.
    public func stopWindows(in project: ProjectRecord, platform: PlatformRecord?, now: Int64) throws -> [Int64] {
        try change(project: project.slug, "maintenance stop", now: now) {
            let active = try maintenanceWindows(project: project.id).filter {
                $0.isActive(at: now) && (platform == nil || $0.platformID == platform!.id)
            }
            guard !active.isEmpty else {
                throw StoreError("no maintenance window is active", hint: "see 'relctl maintenance list'")
            }
            for w in active { try db.run("UPDATE maintenance SET ends_at = ? WHERE id = ?", [.int(now), .int(w.id)]) }
            return active.map(\.id)
        }
    }

    /// Cancels a window that has not begun; it stays on record as cancelled.
    public func cancelWindow(_ id: Int64, in project: ProjectRecord, now: Int64) throws {
        try change(project: project.slug, "maintenance cancel #\(id)", now: now) {
            try db.run("UPDATE maintenance SET cancelled_at = ? WHERE id = ? AND starts_at > ? AND cancelled_at IS NULL", [.int(now), .int(id), .int(now)])
            if db.changes == 0 { throw StoreError("window #\(id) began meanwhile; it was not cancelled") }
        }
    }
}
