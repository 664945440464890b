import RelctlCore
import SQLite

/// Writes to versions, their notes and pins, each one change of a session with its audit row.
extension Session {
    /// Records a version (with notes in one locale, if given) on each
    /// platform, in one transaction: every platform takes it, or none does.
    /// Returns, per platform, its other spellings of an equal version ("2.0"
    /// beside "2.0.0"), which clients disagree about.
    public func addVersion(_ version: Version, build: Int64?, releasedAt: Int64?, minOS: String?, notes: (locale: String, text: String)?,
                           on platforms: [PlatformRecord], of project: ProjectRecord, now: Int64) throws -> [(platform: String, siblings: [String])] {
        let names = platforms.map(\.name).joined(separator: ",")
        // Taken by the lockout check once the change is made, not by a change rolled back.
        var withoutMinOS: [Int64] = []
        let added = try change(Change(.versionAdd, project: project.slug, platforms: platforms.map(\.name), "version add \(names) \(version.text)\(build.map { " build \($0)" } ?? "")"), now: now) {
            try platforms.map { platform in
                // Every version read whole, once: the spellings, the builds and Android's build order are
                // checked on them, and a row damaged by hand stops the write before anything is written.
                // The lockout check then reads the platform again only when a version names a minimum OS
                // (Session.lockoutsTouched): reading them twice was a third of the command.
                let existing = try store.versions(platform: platform.id, withNotes: false)
                if !existing.contains(where: { $0.minOS != nil }) { withoutMinOS.append(platform.id) }
                if existing.contains(where: { $0.version.text == version.text }) {
                    // The values typed, so the fix pastes as it is; "--build N" only when none was.
                    // Not the release time: `version add` defaults it to now, and pasted it would move the release.
                    var typed = build.map { ["--build", String($0)] } ?? []
                    if let minOS { typed += ["--min-os", minOS] }
                    throw StoreError("\(platform.name) already has version \(version.text)\(platforms.count > 1 ? "; nothing was added" : "")",
                                     fix: .run(["version", "edit", version.text, "--platform", platform.name] + (typed.isEmpty ? ["--build", "N"] : typed), "change it with"))
                }
                try checkBuildFree(build, on: platform, among: existing, except: nil)
                if platform.isAndroid && build != nil { try checkBuildOrder(version, build, on: platform, among: existing, except: nil) }
                // Other spellings of the same version (2.1 beside 2.1.0), in the platform's order.
                let siblings = existing.filter { $0.version == version }.map(\.version.text)
                try db.run("INSERT INTO version(platform_id, version, build, released_at, min_os) VALUES (?, ?, ?, ?, ?)",
                           [.int(platform.id), .text(version.text), SQLValue(build), SQLValue(releasedAt), SQLValue(minOS)])
                if let notes {
                    try db.run("INSERT INTO note(version_id, locale, body) VALUES (?, ?, ?)",
                               [.int(db.lastInsertRowID), .text(notes.locale), .text(notes.text)])
                }
                return (platform.name, siblings)
            }
        }
        versionsWithoutMinOS.formUnion(withoutMinOS)
        return added
    }

    private func checkBuildFree(_ build: Int64?, on platform: PlatformRecord, among existing: [VersionRecord], except id: Int64?) throws {
        if let b = build, let other = existing.first(where: { $0.build == b && $0.id != id }) {
            throw StoreError("build \(b) is already version \(other.version.text) on \(platform.name)", hint: "each build number is used once per platform")
        }
    }

    private func checkBuildOrder(_ version: Version, _ build: Int64?, on platform: PlatformRecord, among existing: [VersionRecord], except id: Int64?) throws {
        if let refused = WriteRules.androidBuildOrder(version, build: build, on: platform, among: existing, except: id) { throw refused }
    }

    /// What becomes of a version's release time.
    public enum ReleaseChange: Sendable, Equatable { case keep, at(Int64), unreleased }

    /// Changes what is given; nil keeps the current value.
    public func editVersion(_ text: String, build: Int64?, minOS: String?, release: ReleaseChange,
                            on platform: PlatformRecord, of project: ProjectRecord, now: Int64) throws {
        try change(Change(.versionEdit, project: project.slug, platforms: [platform.name], "version edit \(platform.name) \(text)"), now: now) {
            // Reads the platform's every version (a row damaged by hand is named first), then every
            // version again only for Android's build order; elsewhere a build is looked up by its index.
            let v = try store.version(text, on: platform)
            if platform.isAndroid && (build ?? v.build) != nil {
                let existing = try store.versions(platform: platform.id, withNotes: false)
                try checkBuildFree(build, on: platform, among: existing, except: v.id)
                try checkBuildOrder(v.version, build ?? v.build, on: platform, among: existing, except: v.id)
            } else if let b = build {
                try checkBuildFree(b, on: platform, among: try store.version(build: b, platform: platform.id).map { [$0] } ?? [], except: v.id)
            }
            let released: Int64?
            switch release {
            case .keep: released = v.releasedAt
            case .at(let t): released = t
            case .unreleased: released = nil
            }
            try db.run("UPDATE version SET build = ?, min_os = ?, released_at = ? WHERE id = ?",
                       [SQLValue(build ?? v.build), SQLValue(minOS ?? v.minOS), SQLValue(released), .int(v.id)])
        }
    }

    public func releaseVersion(_ text: String, at: Int64, on platform: PlatformRecord, of project: ProjectRecord, now: Int64) throws {
        try releaseVersion(text, at: at, on: [platform], of: project, now: now)
    }

    /// Releases the version on several platforms in one transaction: every
    /// platform must have it, or nothing changes.
    public func releaseVersion(_ text: String, at: Int64, on platforms: [PlatformRecord], of project: ProjectRecord, now: Int64) throws {
        try change(Change(.versionRelease, project: project.slug, platforms: platforms.map(\.name), "version release \(platforms.map(\.name).joined(separator: ",")) \(text) at \(Time.format(at))"), now: now) {
            for platform in platforms {
                let v = try store.version(text, on: platform)
                try db.run("UPDATE version SET released_at = ? WHERE id = ?", [.int(at), .int(v.id)])
            }
        }
    }

    /// Removes the version from each platform in one transaction: every platform must have it, or nothing changes.
    public func removeVersion(_ text: String, on platforms: [PlatformRecord], of project: ProjectRecord, now: Int64) throws {
        try change(Change(.versionRemove, project: project.slug, platforms: platforms.map(\.name), "version rm \(platforms.map(\.name).joined(separator: ",")) \(text)"), now: now) {
            for platform in platforms {
                try db.run("DELETE FROM version WHERE id = ?", [.int(try store.version(text, on: platform).id)])
            }
        }
    }

    public func setNotes(of text: String, locale: String, to body: String, on platform: PlatformRecord, of project: ProjectRecord, now: Int64) throws {
        try setNotes(of: text, locale: locale, to: body, on: [platform], of: project, now: now)
    }

    /// The same notes on several platforms in one transaction.
    public func setNotes(of text: String, locale: String, to body: String, on platforms: [PlatformRecord], of project: ProjectRecord, now: Int64) throws {
        try change(Change(.notesSet, project: project.slug, platforms: platforms.map(\.name), "notes set \(platforms.map(\.name).joined(separator: ",")) \(text) \(locale)"), now: now) {
            for platform in platforms {
                let v = try store.version(text, on: platform)
                try db.run("INSERT INTO note(version_id, locale, body) VALUES (?, ?, ?) ON CONFLICT(version_id, locale) DO UPDATE SET body = excluded.body",
                           [.int(v.id), .text(locale), .text(body)])
            }
        }
    }

    /// Removes one locale's notes of the version on each platform in one transaction: each must have them, or nothing changes.
    public func removeNotes(of text: String, locale: String, on platforms: [PlatformRecord], of project: ProjectRecord, now: Int64) throws {
        try change(Change(.notesRemove, project: project.slug, platforms: platforms.map(\.name), "notes rm \(platforms.map(\.name).joined(separator: ",")) \(text) \(locale)"), now: now) {
            for platform in platforms {
                let v = try store.version(text, on: platform)
                try db.run("DELETE FROM note WHERE version_id = ? AND locale = ?", [.int(v.id), .text(locale)])
                if db.changes == 0 {
                    let on = platforms.count > 1 ? " on \(platform.name)" : ""
                    throw StoreError("\(v.version.text) has no \(locale) notes\(on)", fix: .run(["notes", "show", v.version.text, "--platform", platform.name], "see"))
                }
            }
        }
    }

    /// Pins one version's policy (force, recommend or none), or with nil removes the pin.
    public func setPin(of text: String, to policy: VersionRecord.Pin?, on platform: PlatformRecord, of project: ProjectRecord, now: Int64) throws {
        try setPin(of: text, to: policy, on: [platform], of: project, now: now)
    }

    /// The same pin on several platforms in one transaction.
    /// A pin some OS band cannot follow is refused unless `allowLockout` (WriteRules.pinLocksOut).
    public func setPin(of text: String, to policy: VersionRecord.Pin?, on platforms: [PlatformRecord], of project: ProjectRecord,
                       allowLockout: Bool = false, now: Int64) throws {
        let names = platforms.map(\.name).joined(separator: ",")
        let action = policy.map { "policy set \(names) \(text) \($0.rawValue)" } ?? "policy clear \(names) \(text)"
        try change(Change(policy == nil ? .policyClear : .policySet, project: project.slug, platforms: platforms.map(\.name), action), now: now) {
            for platform in platforms {
                let v = try store.version(text, on: platform)
                if policy == nil && v.policy == nil {
                    throw StoreError("\(platform.name) \(v.version.text) has no pin", fix: .run(["policy", "list", "--platform", platform.name], "see"))
                }
                let all = try store.versions(platform: platform.id, withNotes: false)
                if let policy, let refused = WriteRules.pinReachesARelease(v, policy, on: platform, versions: all, now: now) {
                    throw refused
                }
                if let policy, !allowLockout, let record = try store.platforms(project: project.id).first(where: { $0.id == platform.id }),
                   let refused = WriteRules.pinLocksOut(v, policy, on: record, versions: all, now: now) {
                    throw refused
                }
                try db.run("UPDATE version SET policy = ? WHERE id = ?", [SQLValue(policy?.rawValue), .int(v.id)])
            }
        }
    }
}
