import RelctlCore
import SQLite

/// Writes to platforms and their floors, each one change of a session with its audit row.
extension Session {
    public func addPlatform(to project: ProjectRecord, name: String, bundleID: String, appStoreID: String?, minOS: String?,
                            storeURL: String?, storefronts: [String] = [], now: Int64) throws {
        try change(Change(.platformAdd, project: project.slug, platforms: [name], "platform add \(name) bundle=\(bundleID)"), now: now) {
            if try store.platforms(project: project.id).contains(where: { $0.name == name }) {
                var typed = ["--bundle-id", bundleID]
                if let appStoreID { typed += ["--app-store-id", appStoreID] }
                if let minOS { typed += ["--min-os", minOS] }
                if let storeURL { typed += ["--store-url", storeURL] }
                if !storefronts.isEmpty { typed += ["--storefronts", storefronts.joined(separator: ",")] }
                throw StoreError("project '\(project.slug)' already has platform \(name)", fix: .run(["platform", "edit", name] + typed, "change it with"))
            }
            try db.run("INSERT INTO platform(project_id, name, bundle_id, app_store_id, min_os, store_url, storefronts) VALUES (?, ?, ?, ?, ?, ?, ?)",
                       [.int(project.id), .text(name), .text(bundleID), SQLValue(appStoreID), SQLValue(minOS), SQLValue(storeURL),
                        .text(storefronts.joined(separator: ","))])
        }
    }

    /// Changes what is given; nil keeps the current value.
    public func editPlatform(_ platform: PlatformRecord, of project: ProjectRecord, bundleID: String?, appStoreID: String?,
                             minOS: String?, storeURL: String?, storefronts: [String]? = nil, now: Int64) throws {
        try change(Change(.platformEdit, project: project.slug, platforms: [platform.name], "platform edit \(platform.name)"), now: now) {
            try db.run("""
                UPDATE platform SET bundle_id = coalesce(?, bundle_id), app_store_id = coalesce(?, app_store_id),
                    min_os = coalesce(?, min_os), store_url = coalesce(?, store_url), storefronts = coalesce(?, storefronts) WHERE id = ?
                """, [SQLValue(bundleID), SQLValue(appStoreID), SQLValue(minOS), SQLValue(storeURL),
                      SQLValue(storefronts?.joined(separator: ",")), .int(platform.id)])
        }
    }

    public func removePlatform(_ platform: PlatformRecord, of project: ProjectRecord, now: Int64) throws {
        try change(Change(.platformRemove, project: project.slug, platforms: [platform.name], "platform rm \(platform.name)"), now: now) {
            try db.run("DELETE FROM platform WHERE id = ?", [.int(platform.id)])
        }
    }

    public typealias FloorKind = WriteRules.FloorKind

    /// Sets (or with nil clears) a floor. Refused when no released version
    /// reaches it, since users would be sent to an update they cannot
    /// install, unless `allowUnreleased` (force only): then the answer is
    /// false and the caller warns.
    @discardableResult
    public func setFloor(_ kind: FloorKind, of platform: PlatformRecord, in project: ProjectRecord, to floor: Floor?,
                         allowUnreleased: Bool, allowLockout: Bool = false, now: Int64) throws -> Bool {
        try setFloor(kind, of: [platform], in: project, to: floor, allowUnreleased: allowUnreleased, allowLockout: allowLockout, now: now)[0]
    }

    /// Moves the deadline of each platform's own force floor (nil: required
    /// at once), in one transaction and one audit row, so one undo takes it back.
    public func moveDeadline(of platforms: [PlatformRecord], in project: ProjectRecord, to deadline: Int64?, now: Int64) throws {
        let names = platforms.map(\.name).joined(separator: ",")
        try change(Change(.force, project: project.slug, platforms: platforms.map(\.name), "force deadline \(names) \(deadline.map(Time.format) ?? "none")"), now: now) {
            let current = try store.platforms(project: project.id).filter { p in platforms.contains { $0.id == p.id } }
            for p in current {
                guard p.force != nil else {
                    throw StoreError("\(p.name) has no force floor to move the deadline of", fix: .run(["force", "VERSION", "--platform", p.name, "--after", "7d"], "set one with a deadline, like"))
                }
                try db.run("UPDATE platform SET force_deadline = ? WHERE id = ?", [SQLValue(deadline), .int(p.id)])
            }
        }
    }

    /// The same floor on several platforms in one transaction (one audit
    /// row naming them all): either every platform gets it or none does.
    /// The answer says, per platform, whether a released version reaches it.
    /// A floor some OS band cannot reach is refused unless `allowLockout` (WriteRules.floorLocksOut).
    @discardableResult
    public func setFloor(_ kind: FloorKind, of platforms: [PlatformRecord], in project: ProjectRecord, to floor: Floor?,
                         allowUnreleased: Bool, allowLockout: Bool = false, now: Int64) throws -> [Bool] {
        let word = kind.rawValue
        let names = platforms.map(\.name).joined(separator: ",")
        let action = floor.map { "\(word) \(names) \($0.version.text)\($0.build.map { " build \($0)" } ?? "")\($0.deadline.map { " deadline \(Time.format($0))" } ?? "")" } ?? "\(word) clear \(names)"
        return try change(Change(kind == .force ? .force : .recommend, project: project.slug, platforms: platforms.map(\.name), action), now: now) {
            let current = try store.platforms(project: project.id).filter { p in platforms.contains { $0.id == p.id } }
            return try platforms.map { platform in
                var reached = true
                // Checked inside the transaction: a release removed meanwhile counts.
                if let floor {
                    let all = try store.versions(platform: platform.id, withNotes: false)
                    if let refused = WriteRules.floorReached(floor, kind: kind, on: platform, versions: all, now: now) {
                        // A force floor set ahead of its release, asked for, goes in unreached.
                        guard kind == .force && allowUnreleased else { throw refused }
                        reached = false
                    }
                    let record = current.first { $0.id == platform.id } ?? platform
                    if !allowLockout, let refused = WriteRules.floorLocksOut(floor, kind: kind, on: record, versions: all, now: now) {
                        throw refused
                    }
                }
                try db.run("UPDATE platform SET \(word)_version = ?, \(word)_build = ? WHERE id = ?",
                           [SQLValue(floor?.version.text), SQLValue(floor?.build), .int(platform.id)])
                if kind == .force {
                    try db.run("UPDATE platform SET force_deadline = ? WHERE id = ?", [SQLValue(floor?.deadline), .int(platform.id)])
                }
                return reached
            }
        }
    }
}
