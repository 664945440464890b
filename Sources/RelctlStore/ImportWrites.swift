import RelctlCore
import SQLite

/// Bringing an existing file into a project: one transaction with its audit row.
extension Store {
    /// Applies an import plan to one platform: missing versions created
    /// (released at `releasedAt`), pins, the force floor, the App Store id,
    /// message overrides and notes. Refused when the database holds
    /// something different (the plan's conflicts), unless `replace`.
    public func importPlan(_ plan: ImportPlan, format: String, file: String, on platform: PlatformRecord, of project: ProjectRecord,
                           releasedAt: Int64, replace: Bool, now: Int64) throws {
        try change(project: project.slug, "import \(format) \(platform.name) \(file)", now: now) {
            // Checked inside the transaction, against what is there now.
            let current = try snapshot(project)
            guard let fresh = current.platforms.first(where: { $0.id == platform.id }) else {
                throw StoreError("platform \(platform.name) was removed meanwhile", hint: "add it again with 'relctl platform add \(platform.name)'")
            }
            let conflicts = plan.conflicts(against: current, platform: fresh)
            if let first = conflicts.first, !replace {
                throw StoreError("\(file) conflicts with the database in \(conflicts.count) place\(conflicts.count == 1 ? "" : "s"), first: \(first)",
                                 hint: "see them all with 'relctl import \(format) \(file) --dry-run'; add --replace to take the file's values")
            }
            var existing = try versions(platform: platform.id, withNotes: false)
            for v in plan.versions {
                if let e = existing.first(where: { $0.version.text == v.version.text }) {
                    if let b = v.build, e.build != b { try db.run("UPDATE version SET build = ? WHERE id = ?", [.int(b), .int(e.id)]) }
                    continue
                }
                if let b = v.build, let other = existing.first(where: { $0.build == b }) {
                    throw StoreError("build \(b) is already version \(other.version.text) on \(platform.name)", hint: "each build number is used once per platform")
                }
                try db.run("INSERT INTO version(platform_id, version, build, released_at, min_os) VALUES (?, ?, ?, ?, NULL)",
                           [.int(platform.id), .text(v.version.text), SQLValue(v.build), .int(releasedAt)])
                existing = try versions(platform: platform.id, withNotes: false)
            }
            for (text, policy) in plan.pins {
                try db.run("UPDATE version SET policy = ? WHERE platform_id = ? AND version = ?", [.text(policy), .int(platform.id), .text(text)])
            }
            if let force = plan.force {
                try db.run("UPDATE platform SET force_version = ?, force_build = ? WHERE id = ?",
                           [SQLValue(force?.version.text), SQLValue(force?.build), .int(platform.id)])
            }
            if let id = plan.appStoreID {
                try db.run("UPDATE platform SET app_store_id = ? WHERE id = ?", [.text(id), .int(platform.id)])
            }
            for m in plan.messages {
                try db.run("INSERT INTO message(project_id, kind, locale, field, value) VALUES (?, ?, ?, ?, ?) ON CONFLICT(project_id, kind, locale, field) DO UPDATE SET value = excluded.value",
                           [.int(project.id), .text(m.kind), .text(m.locale), .text(m.field), .text(m.text)])
            }
            for n in plan.notes {
                guard let v = existing.first(where: { $0.version.text == n.version }) else { continue }
                try db.run("INSERT INTO note(version_id, locale, body) VALUES (?, ?, ?) ON CONFLICT(version_id, locale) DO UPDATE SET body = excluded.body",
                           [.int(v.id), .text(n.locale), .text(n.text)])
            }
        }
    }
}
