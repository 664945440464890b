import RelctlCore
import RelctlStore

/// How a row change reads for people (`relctl log`, the preview of undo
/// and revert): the row by its names ("version ios 2.1.0"), and each column
/// that changed, before → after, times in the reader's zone.
struct ChangeWords {
    private var platforms: [Int64: String] = [:]
    private var versions: [Int64: (platform: Int64, text: String)] = [:]
    private let time: (Int64) -> String
    /// The captured tables' declarations, whose words name the columns.
    private let tables: [CapturedTable]

    /// Names come from the rows the changes hold (a platform removed is still named), then from the database.
    init(_ changes: [RowChange], store: Store, time: @escaping (Int64) -> String, tables: [CapturedTable] = CapturedTable.all) throws {
        self.time = time
        self.tables = tables
        var wantPlatforms = Set<Int64>(), wantVersions = Set<Int64>()
        for c in changes {
            for image in [c.before, c.after].compactMap({ $0 }) {
                switch c.table {
                case "platform":
                    if case .int(let id)? = image["id"], case .string(let name)? = image["name"] { platforms[id] = name }
                case "version":
                    if case .int(let id)? = image["id"], case .int(let p)? = image["platform_id"], case .string(let text)? = image["version"] {
                        versions[id] = (p, text)
                        wantPlatforms.insert(p)
                    }
                case "note":
                    if case .int(let v)? = image["version_id"] { wantVersions.insert(v) }
                default: break
                }
            }
        }
        let found = try store.rowNames(platforms: wantPlatforms.subtracting(platforms.keys), versions: wantVersions.subtracting(versions.keys))
        platforms.merge(found.platforms) { old, _ in old }
        versions.merge(found.versions) { old, _ in old }
    }

    /// "+ version ios 2.1.0", "- note tr of ios 2.1.0", "~ platform ios: force version 1.0 → 2.0".
    func line(_ c: RowChange) -> String {
        let sign = c.before == nil ? "+" : c.after == nil ? "-" : "~"
        guard c.before != nil && c.after != nil else { return "\(sign) \(row(c))" }
        let fields = c.changedColumns.map { name in
            let column = CapturedTable.column(c.table, name, in: tables)
            return "\(column.words) \(value(column, c.before?[name])) → \(value(column, c.after?[name]))"
        }
        return "\(sign) \(row(c)): " + fields.joined(separator: ", ")
    }

    func row(_ c: RowChange) -> String {
        let image = c.after ?? c.before ?? [:]
        func int(_ k: String) -> Int64? { if case .int(let n)? = image[k] { return n } else { return nil } }
        func text(_ k: String) -> String { if case .string(let s)? = image[k] { return s } else { return "?" } }
        func platform(_ id: Int64?) -> String { id.flatMap { platforms[$0] } ?? id.map { "platform #\($0)" } ?? "every platform" }
        func version(_ id: Int64?) -> String {
            guard let id, let v = versions[id] else { return id.map { "version #\($0)" } ?? "?" }
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
