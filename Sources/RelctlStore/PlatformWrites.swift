import RelctlCore
import SQLite

/// Writes to platforms and their floors, each one transaction with its audit row.
extension Store {
    public func addPlatform(to project: ProjectRecord, name: String, bundleID: String, appStoreID: String?, minOS: String?,
                            storeURL: String?, now: Int64) throws {
        try change(project: project.slug, "platform add \(name) bundle=\(bundleID)", now: now) {
            if try platforms(project: project.id).contains(where: { $0.name == name }) {
                throw StoreError("project '\(project.slug)' already has platform \(name)", hint: "change it with 'relctl platform edit \(name)'")
            }
            try db.run("INSERT INTO platform(project_id, name, bundle_id, app_store_id, min_os, store_url) VALUES (?, ?, ?, ?, ?, ?)",
                       [.int(project.id), .text(name), .text(bundleID), SQLValue(appStoreID), SQLValue(minOS), SQLValue(storeURL)])
        }
    }

    /// Changes what is given; nil keeps the current value.
    public func editPlatform(_ platform: PlatformRecord, of project: ProjectRecord, bundleID: String?, appStoreID: String?,
                             minOS: String?, storeURL: String?, now: Int64) throws {
        try change(project: project.slug, "platform edit \(platform.name)", now: now) {
            try db.run("""
                UPDATE platform SET bundle_id = coalesce(?, bundle_id), app_store_id = coalesce(?, app_store_id),
                    min_os = coalesce(?, min_os), store_url = coalesce(?, store_url) WHERE id = ?
                """, [SQLValue(bundleID), SQLValue(appStoreID), SQLValue(minOS), SQLValue(storeURL), .int(platform.id)])
        }
    }

    public func removePlatform(_ platform: PlatformRecord, of project: ProjectRecord, now: Int64) throws {
        try change(project: project.slug, "platform rm \(platform.name)", now: now) {
            try db.run("DELETE FROM platform WHERE id = ?", [.int(platform.id)])
        }
    }

    public enum FloorKind: String, Sendable { case force, recommend }

    /// Sets (or with nil clears) a floor. Refused when no released version
    /// reaches it, since users would be sent to an update they cannot
    /// install, unless `allowUnreleased` (force only): then the answer is
    /// false and the caller warns.
    @discardableResult
    public func setFloor(_ kind: FloorKind, of platform: PlatformRecord, in project: ProjectRecord, to floor: Floor?,
                         allowUnreleased: Bool, now: Int64) throws -> Bool {
        let word = kind.rawValue
        let action = floor.map { "\(word) \(platform.name) \($0.version.text)\($0.build.map { " build \($0)" } ?? "")\($0.deadline.map { " deadline \(Time.format($0))" } ?? "")" } ?? "\(word) clear \(platform.name)"
        return try change(project: project.slug, action, now: now) {
            var reached = true
            // Checked inside the transaction: a release removed meanwhile counts.
            if let floor {
                reached = try versions(platform: platform.id, withNotes: false)
                    .contains { $0.isReleased(at: now) && !Release.isBelow($0.release, floor.release) }
                if !reached && !(kind == .force && allowUnreleased) {
                    throw StoreError(
                        "no released version of \(platform.name) is at or above \(floor.text): users would be sent to an update they cannot install",
                        hint: "release one first ('relctl version add \(floor.version.text) --platform \(platform.name)' or 'relctl version release \(floor.version.text)')" + (kind == .force ? ", or add --allow-unreleased" : ""))
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
