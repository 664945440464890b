import RelctlCore
import SQLite

/// Bringing an existing file into a project: one transaction with its audit row.
extension Session {
    /// Applies an import plan to one platform: missing versions created
    /// (released at `releasedAt` unless the file says when), pins, floors,
    /// the platform's ids, message overrides and notes. Refused when the
    /// database holds something different (the plan's conflicts), unless `replace`.
    public func importPlan(_ plan: ImportPlan, format: String, file: String, on platform: PlatformRecord, of project: ProjectRecord,
                           releasedAt: Int64, replace: Bool, now: Int64) throws {
        try change(Change(format == "andversion" ? .importAndVersion : .importRetired, project: project.slug, platforms: [platform.name], "import \(format) \(platform.name) \(file)"), now: now) {
            // Checked inside the transaction, against what is there now.
            let current = try store.snapshot(project)
            guard let fresh = current.platforms.first(where: { $0.id == platform.id }) else {
                throw StoreError("platform \(platform.name) was removed meanwhile", fix: .run(["platform", "add", platform.name], "add it again with"))
            }
            let conflicts = plan.conflicts(against: current, platform: fresh)
            if let first = conflicts.first, !replace {
                throw StoreError("\(file) conflicts with the database in \(conflicts.count) place\(conflicts.count == 1 ? "" : "s"), first: \(first)",
                                 fix: .also(.run(["import", format, file, "--dry-run"], "see them all with"), .flag("--replace", "to take the file's values")))
            }
            // A file the database already matches changes nothing: no write, no log entry.
            if plan.changes(against: current, platform: fresh).isEmpty { return }
            try apply(plan, to: fresh, of: project, releasedAt: releasedAt)
        }
    }

    /// Imports a control document: the project (created when missing, its
    /// settings taken from the file), its platforms, versions, floors, pins,
    /// text and windows, in one transaction. Conflicts are refused unless `replace`.
    public func importControl(_ plan: ControlPlan, into slug: String, file: String, replace: Bool, now: Int64) throws {
        try change(Change(.importControl, project: slug, platforms: plan.platforms.map(\.0).sorted(), "import control \(file)"), now: now) {
            var project: ProjectRecord
            let f = plan.project
            if let existing = try store.project(slug: slug) {
                let current = try store.snapshot(existing)
                let conflicts = plan.conflicts(against: current)
                if let first = conflicts.first, !replace {
                    throw StoreError("\(file) conflicts with the database in \(conflicts.count) place\(conflicts.count == 1 ? "" : "s"), first: \(first)",
                                     fix: .also(.run(["import", "control", file, "--dry-run"], "see them all with"), .flag("--replace", "to take the file's values")))
                }
                if plan.changes(against: current).isEmpty { return }
                project = existing
                try db.run("""
                    UPDATE project SET name = ?, default_locale = ?, locales = ?, time_zone = ?, rules = ?, release_delay_days = ?,
                        remind_hours = ?, outdated = ?, whatsnew_limit = ? WHERE id = ?
                    """, [.text(f.name), .text(f.defaultLocale), .text(f.locales.joined(separator: ",")), .text(f.timeZone), .text(f.rules.stored),
                          .int(f.releaseDelayDays), .int(f.remindHours), .text(f.outdated.rawValue), .int(f.whatsNewLimit), .int(existing.id)])
            } else {
                try db.run("""
                    INSERT INTO project(slug, name, default_locale, locales, time_zone, rules, release_delay_days, remind_hours, outdated, whatsnew_limit)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """, [.text(slug), .text(f.name), .text(f.defaultLocale), .text(f.locales.joined(separator: ",")), .text(f.timeZone),
                          .text(f.rules.stored), .int(f.releaseDelayDays), .int(f.remindHours), .text(f.outdated.rawValue), .int(f.whatsNewLimit)])
                project = try store.project(slug: slug)!
            }
            let before = try store.snapshot(project)
            for (name, one) in plan.platforms {
                if !before.platforms.contains(where: { $0.name == name }) {
                    try db.run("INSERT INTO platform(project_id, name) VALUES (?, ?)", [.int(project.id), .text(name)])
                }
                let platform = try store.platforms(project: project.id).first { $0.name == name }!
                try apply(one, to: platform, of: project, releasedAt: now)
            }
            try apply(plan.texts, to: nil, of: project, releasedAt: now)
            for w in plan.newWindows(against: before) {
                let platformID = try w.platformName.map { name in try store.platforms(project: project.id).first { $0.name == name }!.id }
                // The file's id when it is still free, so apps that remember a window see the same one.
                let id = try insertWindow(project: project, platformID: platformID, from: w.startsAt, until: w.endsAt, preferring: w.id)
                for (locale, c) in w.copy { try setCopy(id, locale: locale, title: c.title, message: c.message) }
            }
        }
    }

    /// Writes what a plan gives into one platform (nil: project text only).
    func apply(_ plan: ImportPlan, to platform: PlatformRecord?, of project: ProjectRecord, releasedAt: Int64) throws {
        if let platform {
            // Ids by text and version texts by build, kept as versions are added: reading the
            // versions again after each insert made an import of 20,000 take minutes.
            let recorded = ImportPlan.byText(try store.versions(platform: platform.id, withNotes: false))
            var ids = recorded.mapValues(\.id), builds: [Int64: String] = [:]
            for e in recorded.values { if let b = e.build { builds[b] = e.version.text } }
            for v in plan.versions {
                if let e = recorded[v.version.text] {
                    try db.run("UPDATE version SET build = ?, released_at = ?, min_os = ? WHERE id = ?",
                               [SQLValue(v.build ?? e.build), SQLValue(v.releasedAt ?? e.releasedAt), SQLValue(v.minOS ?? e.minOS), .int(e.id)])
                    if let b = v.build { builds[b] = e.version.text }
                    continue
                }
                if let b = v.build, let other = builds[b] {
                    throw StoreError("build \(b) is already version \(other) on \(platform.name)", hint: "each build number is used once per platform")
                }
                try db.run("INSERT INTO version(platform_id, version, build, released_at, min_os) VALUES (?, ?, ?, ?, ?)",
                           [.int(platform.id), .text(v.version.text), SQLValue(v.build), SQLValue(v.releasedAt ?? releasedAt), SQLValue(v.minOS ?? nil)])
                ids[v.version.text] = db.lastInsertRowID
                if let b = v.build { builds[b] = v.version.text }
            }
            for (text, policy) in plan.pins {
                try db.run("UPDATE version SET policy = ? WHERE platform_id = ? AND version = ?", [.text(policy), .int(platform.id), .text(text)])
            }
            if let force = plan.force {
                try db.run("UPDATE platform SET force_version = ?, force_build = ?, force_deadline = ? WHERE id = ?",
                           [SQLValue(force?.version.text), SQLValue(force?.build), SQLValue(force?.deadline), .int(platform.id)])
            }
            if let recommend = plan.recommend {
                try db.run("UPDATE platform SET recommend_version = ?, recommend_build = ? WHERE id = ?",
                           [SQLValue(recommend?.version.text), SQLValue(recommend?.build), .int(platform.id)])
            }
            if let staged = plan.rollout { try db.run(Session.rolloutUpdate, Session.rolloutValues(staged, platform.id)) }
            if let id = plan.appStoreID { try db.run("UPDATE platform SET app_store_id = ? WHERE id = ?", [.text(id), .int(platform.id)]) }
            if let b = plan.bundleID { try db.run("UPDATE platform SET bundle_id = ? WHERE id = ?", [.text(b), .int(platform.id)]) }
            if let m = plan.minOS { try db.run("UPDATE platform SET min_os = ? WHERE id = ?", [SQLValue(m), .int(platform.id)]) }
            if let u = plan.storeURL { try db.run("UPDATE platform SET store_url = ? WHERE id = ?", [SQLValue(u), .int(platform.id)]) }
            // A version's notes in one statement (NoteRows), in the order given: a later note of the same locale wins.
            var run: (id: Int64, notes: [(locale: String, body: String)])? = nil
            for n in plan.notes {
                guard let id = ids[n.version] else { continue }
                if run?.id != id {
                    if let r = run { try NoteRows.upsert(db, version: r.id, r.notes) }
                    run = (id, [])
                }
                run?.notes.append((n.locale, n.text))
            }
            if let r = run { try NoteRows.upsert(db, version: r.id, r.notes) }
        }
        for m in plan.messages {
            try db.run("INSERT INTO message(project_id, kind, locale, field, value) VALUES (?, ?, ?, ?, ?) ON CONFLICT(project_id, kind, locale, field) DO UPDATE SET value = excluded.value",
                       [.int(project.id), .text(m.kind), .text(m.locale), .text(m.field), .text(m.text)])
        }
    }
}
