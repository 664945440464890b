import RelctlCore
import SQLite

/// Writes to maintenance windows, each one transaction with its audit row.
extension Session {
    /// Opens (or schedules) a window and returns its id. Overlapping windows
    /// are allowed (an emergency must never wait for a planned window): the
    /// union of the windows blocks, and the newest window's copy is shown
    /// (MaintenanceWindow.shown).
    public func openWindow(in project: ProjectRecord, platform: PlatformRecord?, from start: Int64, until end: Int64?,
                           copy: (locale: String, title: String?, message: String?)?, now: Int64) throws -> Int64 {
        let scope = platform?.name ?? "all platforms"
        let span = "\(Time.format(start)) to \(end.map(Time.format) ?? "stop")"
        let names = try platform.map { [$0.name] } ?? store.platforms(project: project.id).map(\.name)
        return try change(now: now) {
            let id = try insertWindow(project: project, platformID: platform?.id, from: start, until: end)
            if let copy { try setCopy(id, locale: copy.locale, title: copy.title, message: copy.message) }
            return (id, Change(start > now ? .maintenanceSchedule : .maintenanceStart, project: project.slug, platforms: names,
                               "maintenance \(start > now ? "schedule" : "start") #\(id) \(scope) \(span)"))
        }
    }

    /// A new window row with the next id. Ids only grow, across projects and
    /// cancellations: apps may remember them.
    /// `preferring`: an id to take when it is above every id given so far (an imported window keeps its id),
    /// or above `freeAbove` (every id given before a change that gives several: apply) and not taken since.
    func insertWindow(project: ProjectRecord, platformID: Int64?, from start: Int64, until end: Int64?, preferring: Int64? = nil,
                      freeAbove: Int64? = nil) throws -> Int64 {
        // The last id given out, as recorded and as found: ids are never reused, and both are checked before adding one.
        let recorded = try store.meta("maintenance_last_id").map { text -> Int64 in
            guard let n = Int64(text), (0...MaintenanceWindow.maxID).contains(n) else {
                throw store.badRow("meta maintenance_last_id", "'\(text)' is not a window id from 0 to \(MaintenanceWindow.maxID)")
            }
            return n
        } ?? 0
        let found = try db.scalar("SELECT max(id) FROM maintenance").intValue ?? 0
        guard (0...MaintenanceWindow.maxID).contains(found) else {
            throw store.badRow("maintenance window #\(found)", "its id is outside 1...\(MaintenanceWindow.maxID)")
        }
        let last = max(recorded, found)
        guard last < MaintenanceWindow.maxID else {
            throw StoreError("every maintenance window id up to \(MaintenanceWindow.maxID) is used", hint: "correct the ids in the maintenance table (sqlite3 \(store.path))")
        }
        let id = try preferring.map { p in
            if p > last { return p }
            if let floor = freeAbove, p > floor, try db.scalar("SELECT count(*) FROM maintenance WHERE id = ?", [.int(p)]) == .int(0) { return p }
            return last + 1
        } ?? last + 1
        try db.run("INSERT INTO maintenance(id, project_id, platform_id, starts_at, ends_at) VALUES (?, ?, ?, ?, ?)",
                   [.int(id), .int(project.id), SQLValue(platformID), .int(start), SQLValue(end)])
        try db.run("INSERT INTO meta(key, value) VALUES ('maintenance_last_id', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                   [.text(String(max(id, last)))])
        return id
    }

    /// Sets a window's title and/or message in one locale (nil keeps what is there).
    func setCopy(_ id: Int64, locale: String, title: String?, message: String?) throws {
        try db.run("""
            INSERT INTO maintenance_copy(window_id, locale, title, message) VALUES (?, ?, ?, ?)
            ON CONFLICT(window_id, locale) DO UPDATE SET title = coalesce(excluded.title, title), message = coalesce(excluded.message, message)
            """, [.int(id), .text(locale), SQLValue(title), SQLValue(message)])
    }

    /// What `stop` did to one active window.
    public struct Stopped: Sendable {
        public var id: Int64
        /// A project-wide window stopped for one platform goes on for the
        /// others as new windows (platform, new id), with the same end and copy.
        public var continuedAs: [(platform: String, id: Int64)]
    }

    /// Ends the active windows that apply to one platform (or all) now. A
    /// project-wide window stopped for one platform ends, and continues for
    /// each other platform as a window of its own, so every client format
    /// (control.json's `platform` field) can carry it.
    public func stopWindows(in project: ProjectRecord, platform: PlatformRecord?, now: Int64) throws -> [Stopped] {
        let all = try store.platforms(project: project.id)
        return try change(now: now) {
            let active = try store.maintenanceWindows(project: project.id).filter { w in
                w.isActive(at: now) && (platform.map { w.applies(to: $0.id) } ?? true)
            }
            guard !active.isEmpty else {
                throw StoreError(platform.map { "no maintenance window is active for \($0.name)" } ?? "no maintenance window is active",
                                 fix: .run(["maintenance", "list"], "see"))
            }
            var stopped: [Stopped] = []
            for w in active {
                try db.run("UPDATE maintenance SET ends_at = ? WHERE id = ?", [.int(now), .int(w.id)])
                var continued: [(platform: String, id: Int64)] = []
                for other in WriteRules.continuing(w, stoppedFor: platform, platforms: all) {
                    let id = try insertWindow(project: project, platformID: other.id, from: now, until: w.endsAt)
                    for (locale, c) in w.copy { try setCopy(id, locale: locale, title: c.title, message: c.message) }
                    continued.append((other.name, id))
                }
                stopped.append(Stopped(id: w.id, continuedAs: continued))
            }
            let words = stopped.map { s in "#\(s.id)" + (s.continuedAs.isEmpty ? "" : " (continued as \(s.continuedAs.map { "#\($0.id) \($0.platform)" }.joined(separator: ", ")))") }
            // The platforms whose maintenance ended: the one given, or every one a stopped window covered.
            let ended = platform.map { [$0.name] } ?? all.filter { p in active.contains { $0.applies(to: p.id) } }.map(\.name)
            return (stopped, Change(.maintenanceStop, project: project.slug, platforms: ended,
                                    "maintenance stop\(platform.map { " \($0.name)" } ?? "") \(words.joined(separator: ", "))"))
        }
    }

    /// Sets a window's copy in one locale; refused for a window that is over or cancelled.
    public func setWindowCopy(_ id: Int64, in project: ProjectRecord, locale: String, title: String?, message: String?, now: Int64) throws {
        let w = try liveWindow(id, in: project, now: now)
        try change(Change(.maintenanceMessage, project: project.slug, platforms: try windowPlatforms(w, of: project), "maintenance message #\(id) \(locale)"), now: now) {
            try setCopy(w.id, locale: locale, title: title, message: message)
        }
    }

    /// Moves a planned or active window: a new start (only before it began)
    /// and/or a new end (after now and after the start).
    public func moveWindow(_ id: Int64, in project: ProjectRecord, from start: Int64?, until end: Int64?, now: Int64) throws -> MaintenanceWindow {
        let names = try windowPlatforms(try liveWindow(id, in: project, now: now), of: project)
        return try change(now: now) {
            var w = try liveWindow(id, in: project, now: now)
            if let start {
                guard w.isUpcoming(at: now) else {
                    throw StoreError("window #\(id) began at \(Time.format(w.startsAt)); its start cannot move", fix: .either(.advice("move its end with --until"), .run(["maintenance", "stop"], "stop it with")))
                }
                w.startsAt = start
            }
            if let end { w.endsAt = end }
            if let e = w.endsAt, e <= w.startsAt {
                throw StoreError("window #\(id) would end at \(Time.format(e)), not after its start at \(Time.format(w.startsAt))", hint: "give an end after the start")
            }
            if let e = w.endsAt, e <= now, end != nil {
                throw StoreError("the end \(Time.format(e)) is in the past", fix: .either(.advice("give a future time"), .run(["maintenance", "stop"], "stop the window with")))
            }
            try db.run("UPDATE maintenance SET starts_at = ?, ends_at = ? WHERE id = ?", [.int(w.startsAt), SQLValue(w.endsAt), .int(id)])
            return (w, Change(.maintenanceEdit, project: project.slug, platforms: names, "maintenance edit #\(id) \(Time.format(w.startsAt)) to \(w.endsAt.map(Time.format) ?? "stop")"))
        }
    }

    /// A window of the project that is neither cancelled nor over.
    func liveWindow(_ id: Int64, in project: ProjectRecord, now: Int64) throws -> MaintenanceWindow {
        guard let w = try store.maintenanceWindows(project: project.id).first(where: { $0.id == id }) else {
            throw StoreError("no maintenance window #\(id) in '\(project.slug)'", fix: .run(["maintenance", "list"], "see"))
        }
        if w.isCancelled { throw StoreError("window #\(id) is cancelled", fix: .run(["maintenance", "schedule"], "schedule a new one with")) }
        if w.isOver(at: now) { throw StoreError("window #\(id) is over", fix: .also(.advice("past windows stay in the record"), .run(["maintenance", "schedule"], "schedule a new one with"))) }
        return w
    }

    /// Cancels a window that has not begun; it stays on record as cancelled.
    public func cancelWindow(_ id: Int64, in project: ProjectRecord, now: Int64) throws {
        let names = try store.maintenanceWindows(project: project.id).first { $0.id == id }.map { try windowPlatforms($0, of: project) } ?? []
        try change(Change(.maintenanceCancel, project: project.slug, platforms: names, "maintenance cancel #\(id)"), now: now) {
            try db.run("UPDATE maintenance SET cancelled_at = ? WHERE id = ? AND starts_at > ? AND cancelled_at IS NULL", [.int(now), .int(id), .int(now)])
            if db.changes == 0 { throw StoreError("window #\(id) began meanwhile; it was not cancelled") }
        }
    }

    /// The platforms a window covers: its own, or every platform of the project.
    func windowPlatforms(_ w: MaintenanceWindow, of project: ProjectRecord) throws -> [String] {
        let all = try store.platforms(project: project.id)
        return all.filter { w.applies(to: $0.id) }.map(\.name)
    }
}
