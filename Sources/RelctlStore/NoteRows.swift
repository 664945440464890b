import SQLite

/// Notes written many at a time. Each statement is a savepoint of its own
/// inside a session (the capture and stamp triggers can fail part-way), and
/// every page a statement touches is copied to the savepoint's journal
/// first: one statement per note copied the same few pages once per note,
/// gigabytes for a fleet's file. One statement per version's notes, in
/// slices of at most `slice`, copies them once per slice.
enum NoteRows {
    static let slice = 200

    /// Inserts each note of `version`, or replaces the body of one it has.
    static func upsert(_ db: Connection, version: Int64, _ notes: [(locale: String, body: String)]) throws {
        var start = notes.startIndex
        while start < notes.endIndex {
            let end = min(start + slice, notes.endIndex)
            let rows = notes[start..<end]
            var args: [SQLValue] = [.int(version)]
            args.reserveCapacity(rows.count * 2 + 1)
            for n in rows { args += [.text(n.locale), .text(n.body)] }
            let values = (0..<rows.count).map { i in "(?1, ?\(i * 2 + 2), ?\(i * 2 + 3))" }.joined(separator: ", ")
            try db.run("INSERT INTO note(version_id, locale, body) VALUES \(values) ON CONFLICT(version_id, locale) DO UPDATE SET body = excluded.body", args)
            start = end
        }
    }
}
