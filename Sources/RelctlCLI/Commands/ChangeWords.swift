import RelctlCore
import RelctlStore

/// How a row change reads for people (`relctl log`, the preview of undo
/// and revert): the row by its names ("version ios 2.1.0"), and each column
/// that changed, before → after, times in the reader's zone.
struct ChangeWords {
    private let rows: [RowChange]
    /// Where each change's rows begin, and the names each change's rows go by.
    private let starts: [Int]
    private let names: [Names]
    private let time: (Int64) -> String
    /// The captured tables' declarations, whose words name the columns.
    private let tables: [CapturedTable]

    /// The platforms and versions rows name by id. A change names them by its own rows first:
    /// SQLite gives a removed row's id to the next row made (the highest id is given again), so
    /// one id may be two versions in two changes, or in the two images of one logged before
    /// apply removed last. A row removed is named by the images before; any other, by those after.
    private struct Names {
        var platforms: [Int64: String] = [:], platformsBefore: [Int64: String] = [:]
        var versions: [Int64: (platform: Int64, text: String)] = [:], versionsBefore: [Int64: (platform: Int64, text: String)] = [:]
    }

    /// `rows`: the rows of one change, or of several, each starting at an index of `changes`
    /// (a session's, in order). Names come from the change's rows (a platform removed is still
    /// named), then from the database, or, with `logged` (each change's audit entry, as
    /// `relctl log` shows them), from the log as it stood at that entry (Store.rowNames).
    init(_ rows: [RowChange], changes: [Int] = [], logged: [Int64]? = nil, store: Store, time: @escaping (Int64) -> String,
         tables: [CapturedTable] = CapturedTable.all) throws {
        // The log's changes start at 0, so each is the change of its index.
        precondition(logged.map { $0.count == changes.count && (changes.isEmpty || changes[0] == 0) } ?? true, "an audit entry for each change")
        self.rows = rows
        self.time = time
        self.tables = tables
        let starts = changes.first == 0 ? changes : [0] + changes.filter { $0 > 0 }
        self.starts = starts
        var names: [Names] = []
        for (k, from) in starts.enumerated() {
            var n = Names()
            var wantPlatforms = Set<Int64>(), wantVersions = Set<Int64>()
            for c in rows[from..<(k + 1 < starts.count ? starts[k + 1] : rows.count)] {
                for (image, after) in [(c.before, false), (c.after, true)] {
                    guard let image else { continue }
                    switch c.table {
                    case "platform":
                        if case .int(let id)? = image["id"], case .string(let name)? = image["name"] {
                            if after { n.platforms[id] = name } else { n.platformsBefore[id] = name }
                        }
                    case "version":
                        if case .int(let id)? = image["id"], case .int(let p)? = image["platform_id"], case .string(let text)? = image["version"] {
                            if after { n.versions[id] = (p, text) } else { n.versionsBefore[id] = (p, text) }
                            wantPlatforms.insert(p)
                        }
                    case "note":
                        if case .int(let v)? = image["version_id"] { wantVersions.insert(v) }
                    default: break
                    }
                }
            }
            let found = try store.rowNames(platforms: wantPlatforms.subtracting(n.platforms.keys).subtracting(n.platformsBefore.keys),
                                           versions: wantVersions.subtracting(n.versions.keys).subtracting(n.versionsBefore.keys),
                                           asOf: logged.flatMap { k < $0.count ? $0[k] : nil })
            n.platforms.merge(found.platforms) { old, _ in old }
            n.versions.merge(found.versions) { old, _ in old }
            names.append(n)
        }
        self.names = names
    }

    /// Row `i`: "+ version ios 2.1.0", "- note tr of ios 2.1.0", "~ platform ios: force version 1.0 → 2.0".
    func line(_ i: Int) -> String {
        let c = rows[i]
        let sign = c.before == nil ? "+" : c.after == nil ? "-" : "~"
        guard c.before != nil && c.after != nil else { return "\(sign) \(row(i))" }
        let fields = c.changedColumns.map { name in
            let column = CapturedTable.column(c.table, name, in: tables)
            return "\(column.words) \(value(column, c.before?[name])) → \(value(column, c.after?[name]))"
        }
        return "\(sign) \(row(i)): " + fields.joined(separator: ", ")
    }

    func row(_ i: Int) -> String {
        let c = rows[i]
        // The last change starting at or before i (a change without rows starts where the next does).
        var change = 0, high = starts.count - 1
        while change < high {
            let mid = (change + high + 1) / 2
            if starts[mid] <= i { change = mid } else { high = mid - 1 }
        }
        let n = names[change], removed = c.after == nil
        let image = c.after ?? c.before ?? [:]
        func int(_ k: String) -> Int64? { if case .int(let n)? = image[k] { return n } else { return nil } }
        func text(_ k: String) -> String { if case .string(let s)? = image[k] { return s } else { return "?" } }
        func platform(_ id: Int64?) -> String {
            guard let id else { return "every platform" }
            return (removed ? n.platformsBefore[id] ?? n.platforms[id] : n.platforms[id] ?? n.platformsBefore[id]) ?? "platform #\(id)"
        }
        func version(_ id: Int64?) -> String {
            guard let id, let v = removed ? n.versionsBefore[id] ?? n.versions[id] : n.versions[id] ?? n.versionsBefore[id] else {
                return id.map { "version #\($0)" } ?? "?"
            }
            return "\(platform(v.platform)) \(v.text)"
        }
        switch c.table {
        case "project": return "project \(text("slug"))"
        case "platform": return "platform \(text("name"))"
        case "version": return "version \(platform(int("platform_id"))) \(text("version"))"
        case "note": return "note \(text("locale")) of \(version(int("version_id")))"
        case "maintenance": return "maintenance #\(int("id") ?? 0) (\(platform(int("platform_id"))))"
        case "maintenance_copy": return "copy \(text("locale")) of maintenance #\(int("window_id") ?? 0)"
        case "message": return "message \(text("kind")) \(text("locale")) \(text("field"))"
        default: return c.table
        }
    }

    func value(_ column: CapturedColumn, _ v: JSON?) -> String {
        switch v {
        case nil, .null?: return "none"
        case .int(let n)? where column.isTime: return time(n)
        // A rollout's step length and steps as people give them, not as stored.
        case .int(let n)? where column.name == "rollout_every" && n > 0: return Time.formatDuration(n)
        case .string(let s)? where column.name == "rollout_steps" && s.split(separator: ",").allSatisfy({ Int($0).map { (1...Rollout.unit).contains($0) } ?? false }):
            return s.split(separator: ",").map { Rollout.percent(Int($0)!) }.joined(separator: ", ")
        case .int(let n)?: return String(n)
        case .string(let s)?:
            let flat = s.split(whereSeparator: \.isNewline).joined(separator: " ")
            return "'" + (flat.count > 40 ? flat.prefix(39) + "…" : flat) + "'"
        case let other?: return String(decoding: other.compactBytes(), as: UTF8.self)
        }
    }
}
