import RelctlCore
import SQLite

/// What applying a project's file did besides its rows.
public struct ConfigApplied: Sendable {
    /// What the new state breaks of the rules the commands keep (a floor no
    /// release reaches, an Android build out of order): a file may hold what
    /// the database held, so they warn.
    public var warnings: [String]
    /// Windows on now that the file does not list, left on.
    public var keptWindows: [Int64]
    /// The file's window ids that are another's here, by the id the window
    /// was made or matched as: its history goes on under that id too (`Lineage.Adopting.renumbering`).
    public var renumbered: [Int64: Int64] = [:]
}

/// `relctl apply`: making a project hold what its configuration file says.
extension Session {
    /// Makes the project match `desired`, created when missing, as one change
    /// with one audit row ("apply SLUG"); a project that already matches is not
    /// written and logs nothing. Only what differs is written, so the log and
    /// `undo` show exactly the rows the file changed.
    ///
    /// Windows: the file lists the active and upcoming ones. A file window
    /// already over at `now` is left out (the file was exported before it
    /// ended). A window of the database is the file's when it has the file's
    /// id, or else the same platform and start, or platform and (a set) end; one the
    /// file no longer lists is cancelled when upcoming, as `maintenance
    /// cancel` would; one that is on is left on (most likely an on-call's
    /// emergency window, started after the file was exported), and named in
    /// `kept`, unless `endingActiveWindows`: then it is ended now, as `stop`
    /// would. Past and cancelled windows stay on record.
    ///
    /// `windowsGiven`: the last window id given before the apply began
    /// (`lastWindowID`): a file's window takes its id when it is above that
    /// and still free, whichever project's window took ids before it.
    @discardableResult
    public func applyConfig(_ desired: ConfigProject, windowsGiven: Int64? = nil, endingActiveWindows: Bool = false, note: String? = nil,
                            now: Int64) throws -> ConfigApplied {
        // The platforms it names: the file's, and those it removes.
        let had = try store.project(slug: desired.slug).map { try store.platforms(project: $0.id).map(\.name) } ?? []
        let named = Set(had + desired.snapshot.platforms.map(\.name)).sorted()
        // Known once the windows are matched and made: the histories are named by the ids they have here.
        var renumbered: [Int64: Int64] = [:]
        let adopting = Lineage.Adopting(slug: desired.slug, chains: desired.lineage, edited: desired.edited)
        let action = "apply \(desired.slug)" + (note.map { " (\($0))" } ?? "")
        return try change(Change(.apply, project: desired.slug, platforms: named, action), now: now, adopting: adopting.renumbering(renumbered)) {
            func run(_ sql: String, _ args: [SQLValue]) throws { try db.run(sql, args) }
            let want = desired.snapshot, f = want.project
            let settings: [SQLValue] = [.text(f.name), .text(f.defaultLocale), .text(f.locales.joined(separator: ",")), .text(f.timeZone), .text(f.rules.stored),
                                        .int(f.releaseDelayDays), .int(f.remindHours), .text(f.outdated.rawValue), .int(f.whatsNewLimit), .text(f.formats.stored),
                                        .text(f.trustedKeys.joined(separator: ","))]
            let project: ProjectRecord
            if let p = try store.project(slug: f.slug) {
                project = p
                // As `keys retire` of the last key: signing stops only on purpose, never by a key left out of a file.
                if !p.trustedKeys.isEmpty && f.trustedKeys.isEmpty {
                    throw StoreError("the file trusts no key for project '\(f.slug)', which signs its files: applied, it would publish them unsigned, and apps that pin keys refuse them",
                                     fix: .either(.run(["export", "-p", f.slug], "put its trustedKeys back in the file: they are in what this writes:"),
                                                  .run(["keys", "retire", "KEY", "--unsigned", "-p", f.slug], "to stop signing on purpose, first run")))
                }
                if p.name != f.name || p.defaultLocale != f.defaultLocale || p.locales != f.locales || p.timeZone != f.timeZone || p.rules != f.rules
                    || p.releaseDelayDays != f.releaseDelayDays || p.remindHours != f.remindHours || p.outdated != f.outdated || p.whatsNewLimit != f.whatsNewLimit
                    || p.formats != f.formats || p.trustedKeys != f.trustedKeys {
                    try run("""
                        UPDATE project SET name = ?, default_locale = ?, locales = ?, time_zone = ?, rules = ?, release_delay_days = ?,
                            remind_hours = ?, outdated = ?, whatsnew_limit = ?, formats = ?, trusted_keys = ? WHERE id = ?
                        """, settings + [.int(p.id)])
                }
            } else {
                try run("""
                    INSERT INTO project(name, default_locale, locales, time_zone, rules, release_delay_days, remind_hours, outdated, whatsnew_limit, formats, trusted_keys, slug)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """, settings + [.text(f.slug)])
                project = try store.project(slug: f.slug)!
            }

            var warnings: [String] = [], kept: [Int64] = [], removedVersions: [Int64] = []
            let had = try store.platforms(project: project.id)
            // Platform ids of the database by name, for the windows.
            var ids: [String: Int64] = [:]
            for w in want.platforms {
                var current = had.first { $0.name == w.name }
                if current == nil {
                    try run("INSERT INTO platform(project_id, name) VALUES (?, ?)", [.int(project.id), .text(w.name)])
                    current = PlatformRecord(id: db.lastInsertRowID, projectID: project.id, name: w.name, bundleID: nil, appStoreID: nil,
                                             storeURL: nil, minOS: nil, force: nil, recommend: nil)
                }
                let c = current!
                ids[w.name] = c.id
                if c.bundleID != w.bundleID || c.appStoreID != w.appStoreID || c.storeURL != w.storeURL || c.minOS != w.minOS || c.storefronts != w.storefronts {
                    try run("UPDATE platform SET bundle_id = ?, app_store_id = ?, store_url = ?, min_os = ?, storefronts = ? WHERE id = ?",
                            [SQLValue(w.bundleID), SQLValue(w.appStoreID), SQLValue(w.storeURL), SQLValue(w.minOS),
                             .text(w.storefronts.joined(separator: ",")), .int(c.id)])
                }
                let (all, touched, notesTooLong, gone) = try applyVersions(want.versions(of: w), to: c, run: run)
                warnings += notesTooLong
                removedVersions += gone
                if c.force != w.force {
                    try run("UPDATE platform SET force_version = ?, force_build = ?, force_deadline = ? WHERE id = ?",
                            [SQLValue(w.force?.version.text), SQLValue(w.force?.build), SQLValue(w.force?.deadline), .int(c.id)])
                    if let floor = w.force, let refused = WriteRules.floorReached(floor, kind: .force, on: w, versions: all, now: now) { warnings.append(refused.message) }
                }
                if c.recommend != w.recommend {
                    try run("UPDATE platform SET recommend_version = ?, recommend_build = ? WHERE id = ?",
                            [SQLValue(w.recommend?.version.text), SQLValue(w.recommend?.build), .int(c.id)])
                    if let floor = w.recommend, let refused = WriteRules.floorReached(floor, kind: .recommend, on: w, versions: all, now: now) { warnings.append(refused.message) }
                }
                if let h = w.rollout?.haltedAt, h > now {
                    throw StoreError("\(f.slug)'s \(w.name) rollout is halted at \(Time.format(h)), which is still to come: a halt is an instant that has passed",
                                     hint: "write the instant it was halted, or null (rollout halt halts one now)")
                }
                if c.rollout != w.rollout {
                    try run(Session.rolloutUpdate, Session.rolloutValues(w.rollout, c.id))
                    if let r = w.rollout, let refused = WriteRules.floorReached(r.floor, kind: .recommend, on: w, versions: all, now: now) { warnings.append(refused.message) }
                }
                let (outOfOrder, count) = WriteRules.androidBuildOrder(of: touched, on: w, among: all)
                warnings += outOfOrder.map(\.message)
                if count > outOfOrder.count {
                    // As the lines above, a message without its fix: the store spells no command.
                    warnings.append("and \(count - outOfOrder.count) more \(w.name) versions of \(f.slug) with builds out of order")
                }
            }
            // Removed once every platform and version the file adds is made: removed first, the
            // highest id would be given again to a row the change makes (SQLite gives it out again),
            // whose row the log and the preview would show as the removed one edited
            // ("version '2.1' → '1.0'"), on its platform or another.
            for id in removedVersions { try run("DELETE FROM version WHERE id = ?", [.int(id)]) }
            for gone in had where !want.platforms.contains(where: { $0.name == gone.name }) {
                try run("DELETE FROM platform WHERE id = ?", [.int(gone.id)])
            }

            // Windows: the file's still to come or on, matched to the database's live ones.
            let live = try store.maintenanceWindows(project: project.id).filter { !$0.isOver(at: now) }
            var unmatched = live
            var pairs: [(want: MaintenanceWindow, platformID: Int64?, have: MaintenanceWindow?)] =
                want.windows.filter { !$0.isOver(at: now) }.map { w in (w, w.platformName.flatMap { ids[$0] }, nil) }
            // The file's id first; then the same platform and start, or end (a window edited by hand, or copied from
            // another project). A file window whose id no window has is new: it gets that id, never another's.
            let sameWindow: [(MaintenanceWindow, MaintenanceWindow) -> Bool] = [
                { $0.id != 0 && $0.id == $1.id }, { $0.startsAt == $1.startsAt && $0.endsAt == $1.endsAt }, { $0.startsAt == $1.startsAt },
                { $0.endsAt != nil && $0.endsAt == $1.endsAt }]
            let taken = Set(try db.query("SELECT id FROM maintenance", []).compactMap { $0.int(0) })
            for (rule, same) in sameWindow.enumerated() {
                for i in pairs.indices where pairs[i].have == nil && (rule == 0 || pairs[i].want.id == 0 || taken.contains(pairs[i].want.id)) {
                    if let j = unmatched.firstIndex(where: { (rule == 0 || $0.platformID == pairs[i].platformID) && same(pairs[i].want, $0) }) {
                        pairs[i].have = unmatched.remove(at: j)
                    }
                }
            }
            for gone in unmatched {
                if gone.isUpcoming(at: now) {
                    try run("UPDATE maintenance SET cancelled_at = ? WHERE id = ?", [.int(now), .int(gone.id)])
                } else if endingActiveWindows {
                    try run("UPDATE maintenance SET ends_at = ? WHERE id = ?", [.int(now), .int(gone.id)])
                } else {
                    // Ending it would take maintenance off every app at once: only when asked.
                    kept.append(gone.id)
                }
            }
            // New windows in the order of their ids in the file, so that each takes its id when it is free (ids only grow).
            for pair in pairs.sorted(by: { ($0.want.id == 0 ? Int64.max : $0.want.id, $0.want.startsAt) < ($1.want.id == 0 ? Int64.max : $1.want.id, $1.want.startsAt) }) {
                let w = pair.want
                let id: Int64
                if let have = pair.have {
                    id = have.id
                    if have.startsAt != w.startsAt || have.endsAt != w.endsAt || have.platformID != pair.platformID {
                        try run("UPDATE maintenance SET platform_id = ?, starts_at = ?, ends_at = ? WHERE id = ?",
                                [SQLValue(pair.platformID), .int(w.startsAt), SQLValue(w.endsAt), .int(id)])
                    }
                } else {
                    id = try insertWindow(project: project, platformID: pair.platformID, from: w.startsAt, until: w.endsAt, preferring: w.id == 0 ? nil : w.id, freeAbove: windowsGiven)
                }
                if w.id != 0 && w.id != id { renumbered[w.id] = id }
                let had = pair.have?.copy ?? [:]
                for locale in had.keys where w.copy[locale] == nil {
                    try run("DELETE FROM maintenance_copy WHERE window_id = ? AND locale = ?", [.int(id), .text(locale)])
                }
                for (locale, c) in w.copy where had[locale]?.title != c.title || had[locale]?.message != c.message || had[locale] == nil {
                    try run("""
                        INSERT INTO maintenance_copy(window_id, locale, title, message) VALUES (?, ?, ?, ?)
                        ON CONFLICT(window_id, locale) DO UPDATE SET title = excluded.title, message = excluded.message
                        """, [.int(id), .text(locale), SQLValue(c.title), SQLValue(c.message)])
                }
            }

            let overrides = try store.messageOverrides(project: project.id)
            for (kind, byLocale) in overrides {
                for (locale, fields) in byLocale {
                    for field in fields.keys where desired.messages[kind]?[locale]?[field] == nil {
                        try run("DELETE FROM message WHERE project_id = ? AND kind = ? AND locale = ? AND field = ?",
                                [.int(project.id), .text(kind), .text(locale), .text(field)])
                    }
                }
            }
            for (kind, byLocale) in desired.messages {
                for (locale, fields) in byLocale {
                    for (field, text) in fields where overrides[kind]?[locale]?[field] != text {
                        try run("""
                            INSERT INTO message(project_id, kind, locale, field, value) VALUES (?, ?, ?, ?, ?)
                            ON CONFLICT(project_id, kind, locale, field) DO UPDATE SET value = excluded.value
                            """, [.int(project.id), .text(kind), .text(locale), .text(field), .text(text)])
                    }
                }
            }
            return ConfigApplied(warnings: warnings, keptWindows: kept, renumbered: renumbered)
        }
    }

    /// Makes a platform's versions, their pins and notes, what the file
    /// lists; returns them as they now are, the ids of those added or given
    /// another build, a warning for each note written that is longer than the store allows,
    /// and the ids of the versions the file does not list, which the caller removes.
    private func applyVersions(_ wanted: [VersionRecord], to platform: PlatformRecord,
                               run: (String, [SQLValue]) throws -> Void) throws -> ([VersionRecord], Set<Int64>, [String], [Int64]) {
        let had = try store.versions(platform: platform.id, withNotes: true)
        var byText: [String: VersionRecord] = [:]
        for v in had { byText[v.version.text] = v }
        let wantedTexts = Set(wanted.map(\.version.text))
        // The versions the file does not list: the caller removes them, once every platform's are made.
        let gone = had.filter { !wantedTexts.contains($0.version.text) }
        // A build moving from one version to another would meet itself in the
        // unique index half-way: the builds that change, or go with a version
        // removed, are cleared first.
        let wantedBuilds = Set(wanted.compactMap(\.build))
        for v in gone where v.build.map(wantedBuilds.contains) == true {
            try run("UPDATE version SET build = NULL WHERE id = ?", [.int(v.id)])
        }
        for w in wanted {
            if let v = byText[w.version.text], v.build != w.build, v.build != nil {
                try run("UPDATE version SET build = NULL WHERE id = ?", [.int(v.id)])
            }
        }
        var out: [VersionRecord] = [], touched = Set<Int64>(), warnings: [String] = []
        func noted(_ w: VersionRecord, had: [String: String]) -> [(locale: String, body: String)] {
            var notes: [(locale: String, body: String)] = []
            for (locale, body) in w.notes.sorted(by: { $0.key < $1.key }) where had[locale] != body {
                if let warning = UserText.notesSizeWarning(body, platform: platform.name, version: w.version.text, locale: locale) { warnings.append(warning) }
                notes.append((locale, body))
            }
            return notes
        }
        // A run of versions the platform does not have (all of them, for a
        // platform the file creates) is made a slice at a time, then their
        // notes: the same rows, ids and order of ids as one by one. The log
        // lists the rows a change notes in the order made: the versions get ids
        // above the change's mark, so none is noted (ChangeCapture.begin), or
        // they are made one by one, as before (no marks: an orphan row; ids at
        // or below it, had the highest been removed earlier in the change, which
        // the removals coming last keep from happening).
        func inRuns() throws -> Bool {
            try db.scalar("SELECT version_mark IS NOT NULL AND (SELECT coalesce(max(id), 0) FROM version) >= version_mark FROM capture_on").intValue == 1
        }
        var fresh: [VersionRecord] = [], batching = false
        func makeFresh() throws {
            guard !fresh.isEmpty else { return }
            let ids = try NoteRows.insert(db, platform: platform.id, fresh)
            var notes: [(version: Int64, locale: String, body: String)] = []
            for (w, id) in zip(fresh, ids) {
                notes += noted(w, had: [:]).map { (id, $0.locale, $0.body) }
                var v = w
                v.id = id
                v.platformID = platform.id
                out.append(v)
                touched.insert(id)
            }
            try db.withoutTriggers(when: ChangeCapture.leftAlone(db, notesOf: ids)) { try NoteRows.upsert(db, notes) }
            fresh = []
        }
        for w in wanted {
            guard let v = byText[w.version.text] else {
                if fresh.isEmpty { batching = try inRuns() }
                fresh.append(w)
                if !batching { try makeFresh() }
                continue
            }
            try makeFresh()
            let id = v.id
            if v.build != w.build || v.releasedAt != w.releasedAt || v.minOS != w.minOS || v.policy != w.policy {
                try run("UPDATE version SET build = ?, released_at = ?, min_os = ?, policy = ? WHERE id = ?",
                        [SQLValue(w.build), SQLValue(w.releasedAt), SQLValue(w.minOS), SQLValue(w.policy?.rawValue), .int(id)])
            }
            if v.build != w.build { touched.insert(id) }
            for locale in v.notes.keys where w.notes[locale] == nil {
                try run("DELETE FROM note WHERE version_id = ? AND locale = ?", [.int(id), .text(locale)])
            }
            try NoteRows.upsert(db, version: id, noted(w, had: v.notes))
            var made = w
            made.id = id
            made.platformID = platform.id
            out.append(made)
        }
        try makeFresh()
        return (out, touched, warnings, gone.map(\.id))
    }
}

extension Store {
    /// The last window id given out: ids above it were never seen by an app.
    public func lastWindowID() throws -> Int64 {
        let recorded = try meta("maintenance_last_id").flatMap { Int64($0) } ?? 0
        let found = try db.scalar("SELECT coalesce(max(id), 0) FROM maintenance").intValue ?? 0
        return max(recorded, found)
    }
}
