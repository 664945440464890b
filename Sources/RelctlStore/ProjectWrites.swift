import RelctlCore
import SQLite

extension Store {
    /// The project with this slug, or an error that names the known ones.
    public func requireProject(_ slug: String) throws -> ProjectRecord {
        if let p = try project(slug: slug) { return p }
        let all = try projectSlugs()
        throw StoreError("no project '\(slug)'\(Suggest.didYouMean(slug, all))",
                         fix: all.isEmpty ? .run(["project", "add", slug, "--name", "NAME"], "add one with") : .advice("known projects: \(Suggest.few(all))"))
    }
}

/// Writes to projects, each one change of a session with its audit row.
extension Session {
    public func addProject(slug: String, name: String, defaultLocale: String, locales: [String], formats: ServedFormats = .all, now: Int64) throws {
        try change(Change(.projectAdd, project: slug, "project add \(slug) name=\(name)"), now: now) {
            if try store.project(slug: slug) != nil {
                throw StoreError("project '\(slug)' already exists", fix: .either(.advice("choose another slug"), .run(["project", "edit", slug, "--name", "NAME"], "change it with")))
            }
            try db.run("INSERT INTO project(slug, name, default_locale, locales, rules, formats) VALUES (?, ?, ?, ?, ?, ?)",
                       [.text(slug), .text(name), .text(defaultLocale), .text(locales.joined(separator: ",")), .text(Rules.standard.stored), .text(formats.stored)])
        }
    }

    /// Changes what is given; nil keeps the current value.
    public func editProject(_ slug: String, name: String?, defaultLocale: String?, locales: [String]?, timeZone: String? = nil, formats: ServedFormats? = nil,
                            now: Int64) throws {
        try change(Change(.projectEdit, project: slug, "project edit \(slug)\(timeZone.map { " time-zone \($0)" } ?? "")"), now: now) {
            let p = try store.requireProject(slug)
            try db.run("UPDATE project SET name = ?, default_locale = ?, locales = ?, time_zone = ?, formats = ? WHERE id = ?",
                       [.text(name ?? p.name), .text(defaultLocale ?? p.defaultLocale),
                        .text((locales ?? p.locales).joined(separator: ",")), .text(timeZone ?? p.timeZone), .text((formats ?? p.formats).stored), .int(p.id)])
        }
    }

    /// The project's apps trust `key` (base64 of an Ed25519 public key): from now on
    /// its files are published signed, by a trusted key only.
    public func trustKey(_ key: String, project slug: String, now: Int64) throws {
        try change(Change(.keysTrust, project: slug, "keys trust \(Ed25519.keyID(Ed25519.publicKey(key) ?? []))"), now: now) {
            let p = try store.requireProject(slug)
            guard !p.trustedKeys.contains(key) else { return }
            try db.run("UPDATE project SET trusted_keys = ? WHERE id = ?", [.text((p.trustedKeys + [key]).joined(separator: ",")), .int(p.id)])
        }
    }

    /// Publish no longer signs with `key` (its base64 or key id). The last
    /// key is retired only `allowingUnsigned`: the project's files go back to unsigned.
    public func retireKey(_ key: String, project slug: String, allowingUnsigned: Bool, now: Int64) throws {
        let p = try store.requireProject(slug)
        guard let held = p.trustedKeys.first(where: { $0 == key || Ed25519.keyID(Ed25519.publicKey($0) ?? []) == key }) else {
            throw StoreError("project '\(slug)' does not trust key \(key)", fix: .run(["keys", "list"], "see the keys it trusts with"))
        }
        let left = p.trustedKeys.filter { $0 != held }
        if left.isEmpty && !allowingUnsigned {
            throw StoreError("\(Ed25519.keyID(Ed25519.publicKey(held) ?? [])) is the last key project '\(slug)' trusts: without it, its files are published unsigned, and apps that pin keys refuse them",
                             fix: .either(.run(["keys", "trust", "KEY"], "trust the next key first with"), .advice("to stop signing on purpose, add --unsigned")))
        }
        try change(Change(.keysRetire, project: slug, "keys retire \(Ed25519.keyID(Ed25519.publicKey(held) ?? []))"), now: now) {
            try db.run("UPDATE project SET trusted_keys = ? WHERE id = ?", [.text(left.joined(separator: ",")), .int(p.id)])
        }
    }

    public func removeProject(_ slug: String, now: Int64) throws {
        try change(Change(.projectRemove, project: slug, "project rm \(slug)"), now: now) {
            let p = try store.requireProject(slug)
            try db.run("DELETE FROM project WHERE id = ?", [.int(p.id)])
            if try store.defaultProject == slug { try db.run("DELETE FROM meta WHERE key = 'default_project'") }
        }
    }

    /// The default project is a preference, not configuration: no rows are
    /// captured, and the log has a line only when it moves.
    public func useProject(_ slug: String, now: Int64) throws {
        _ = try store.requireProject(slug)
        guard try store.defaultProject != slug else { return }
        try db.write {
            try db.run("INSERT INTO meta(key, value) VALUES ('default_project', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value", [.text(slug)])
            try record(Change(.projectUse, project: slug, "project use \(slug)"), now: now)
        }
    }

    /// Rules, release delay, reminder interval, outdated policy and what's-new length, as given.
    public func setRules(of project: ProjectRecord, to updated: ProjectRecord, now: Int64) throws {
        let action = "rules set \(updated.rules.stored) delay=\(updated.releaseDelayDays)d remind=\(updated.remindHours)h outdated=\(updated.outdated.rawValue) whatsnew=\(updated.whatsNewLimit)"
        try change(Change(.rulesSet, project: project.slug, action), now: now) {
            try db.run("UPDATE project SET rules = ?, release_delay_days = ?, remind_hours = ?, outdated = ?, whatsnew_limit = ? WHERE id = ?",
                       [.text(updated.rules.stored), .int(updated.releaseDelayDays), .int(updated.remindHours), .text(updated.outdated.rawValue),
                        .int(updated.whatsNewLimit), .int(project.id)])
        }
    }

    /// Project text that overrides the built-in catalog, one field at a time.
    public func setMessages(of project: ProjectRecord, kind: String, locale: String, fields: [(field: String, text: String)], now: Int64) throws {
        try change(Change(.messageSet, project: project.slug, "message set \(kind) \(locale) \(fields.map(\.field).joined(separator: ","))"), now: now) {
            for (field, text) in fields {
                try db.run("INSERT INTO message(project_id, kind, locale, field, value) VALUES (?, ?, ?, ?, ?) ON CONFLICT(project_id, kind, locale, field) DO UPDATE SET value = excluded.value",
                           [.int(project.id), .text(kind), .text(locale), .text(field), .text(text)])
            }
        }
    }

    public func removeMessages(of project: ProjectRecord, kind: String, locale: String, now: Int64) throws {
        try change(Change(.messageRemove, project: project.slug, "message rm \(kind) \(locale)"), now: now) {
            try db.run("DELETE FROM message WHERE project_id = ? AND kind = ? AND locale = ?", [.int(project.id), .text(kind), .text(locale)])
            if db.changes == 0 {
                throw StoreError("no \(kind) overrides for \(locale)", fix: .run(["message", "show", "--locale", locale], "see"))
            }
        }
    }
}
