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
        for start in stride(from: 0, to: notes.count, by: slice) {
            let rows = notes[start..<min(start + slice, notes.count)]
            var args: [SQLValue] = []
            args.reserveCapacity(rows.count * 3)
            for n in rows {
                args.append(.int(n.version))
                args.append(.text(n.locale))
                args.append(.text(n.body))
            }
            // A whole slice's statement made once: made for each slice, it was 7 % of writing them.
            try db.run(rows.count == slice ? upsertSlice : upsertSQL(rows.count), args)
        }
    }

    private static func upsertSQL(_ count: Int) -> String {
        "INSERT INTO note(version_id, locale, body) VALUES \(values(count, width: 3)) ON CONFLICT(version_id, locale) DO UPDATE SET body = excluded.body"
    }
    private static let upsertSlice = upsertSQL(slice)

    /// Inserts versions a platform does not have, in the order given; returns their ids in that order.
    static func insert(_ db: Connection, platform: Int64, _ versions: [VersionRecord]) throws -> [Int64] {
        var ids: [Int64] = []
        ids.reserveCapacity(versions.count)
        for start in stride(from: 0, to: versions.count, by: versionSlice) {
            let rows = versions[start..<min(start + versionSlice, versions.count)]
            var args: [SQLValue] = []
            args.reserveCapacity(rows.count * 6)
            for w in rows {
                args += [.int(platform), .text(w.version.text), SQLValue(w.build), SQLValue(w.releasedAt), SQLValue(w.minOS), SQLValue(w.policy?.rawValue)]
            }
            // RETURNING's order is SQLite's to choose: the ids are matched by version text, unique on a platform.
            var made: [String: Int64] = [:]
            for row in try db.query("INSERT INTO version(platform_id, version, build, released_at, min_os, policy) VALUES \(values(rows.count, width: 6)) RETURNING id, version", args) {
                if let id = row[0].intValue, case .text(let text) = row[1] { made[text] = id }
            }
            for w in rows {
                guard let id = made[w.version.text] else {
                    throw StoreError("version \(w.version.text) was inserted but SQLite returned no id for it", hint: "this is a defect of relctl; please report it")
                }
                ids.append(id)
            }
        }
        return ids
    }

    /// A VALUES list of `count` rows of `width` placeholders each.
    static func values(_ count: Int, width: Int) -> String {
        let row = "(" + Array(repeating: "?", count: width).joined(separator: ", ") + ")"
        return Array(repeating: row, count: count).joined(separator: ", ")
    }
}
