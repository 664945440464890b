import RelctlCore
import SQLite

/// Rows written many at a time. Each statement is a savepoint of its own
/// inside a session (the capture and stamp triggers can fail part-way), and
/// every page a statement touches that was there before it is copied to
/// the savepoints' journal first, which an outer savepoint keeps until the
/// session's change ends: one statement per note, and then one per
/// version, copied the same few pages once each, gigabytes for a fleet's
/// file. So notes go in slices of at most `slice`, across versions, and a
/// run of versions a platform does not have goes in `versionSlice` at a time.
enum NoteRows {
    static let slice = 200
    static let versionSlice = 100

    /// Inserts each note of `version`, or replaces the body of one it has.
    static func upsert(_ db: Connection, version: Int64, _ notes: [(locale: String, body: String)]) throws {
        try upsert(db, notes.map { (version, $0.locale, $0.body) })
    }

    /// Inserts each note, or replaces the body of one its version has, in the order given.
    static func upsert(_ db: Connection, _ notes: [(version: Int64, locale: String, body: String)]) throws {
        var start = notes.startIndex
        while start < notes.endIndex {
            let end = min(start + slice, notes.endIndex)
            let rows = notes[start..<end]
            var args: [SQLValue] = []
            args.reserveCapacity(rows.count * 3)
            for n in rows { args += [.int(n.version), .text(n.locale), .text(n.body)] }
            let values = Array(repeating: "(?, ?, ?)", count: rows.count).joined(separator: ", ")
            try db.run("INSERT INTO note(version_id, locale, body) VALUES \(values) ON CONFLICT(version_id, locale) DO UPDATE SET body = excluded.body", args)
            start = end
        }
    }

    /// Inserts versions a platform does not have, in the order given; returns their ids in that order.
    static func insert(_ db: Connection, platform: Int64, _ versions: [VersionRecord]) throws -> [Int64] {
        var ids: [Int64] = []
        ids.reserveCapacity(versions.count)
        var start = versions.startIndex
        while start < versions.endIndex {
            let end = min(start + versionSlice, versions.endIndex)
            let rows = versions[start..<end]
            var args: [SQLValue] = []
            args.reserveCapacity(rows.count * 6)
            for w in rows {
                args += [.int(platform), .text(w.version.text), SQLValue(w.build), SQLValue(w.releasedAt), SQLValue(w.minOS), SQLValue(w.policy?.rawValue)]
            }
            let values = Array(repeating: "(?, ?, ?, ?, ?, ?)", count: rows.count).joined(separator: ", ")
            // RETURNING's order is SQLite's to choose: the ids are matched by version text, unique on a platform.
            var made: [String: Int64] = [:]
            for row in try db.query("INSERT INTO version(platform_id, version, build, released_at, min_os, policy) VALUES \(values) RETURNING id, version", args) {
                if let id = row[0].intValue, case .text(let text) = row[1] { made[text] = id }
            }
            for w in rows {
                guard let id = made[w.version.text] else {
                    throw StoreError("version \(w.version.text) was inserted but SQLite returned no id for it", hint: "this is a defect of relctl; please report it")
                }
                ids.append(id)
            }
            start = end
        }
        return ids
    }
}
