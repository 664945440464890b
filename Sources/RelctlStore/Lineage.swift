import RelctlCore
import SQLite

/// Which changes a database holds, so that a deploy never takes the remote
/// back to a state that lacks one (a colleague's copy that missed CI's
/// change, a restored backup).
///
/// Each part of a project's configuration that a file line holds (the
/// project's settings, a platform with its floors, a version with its
/// notes and pin, a window with its copy, a kind's messages in a locale) has
/// a revision: the Lamport clock of the last change that touched it. A
/// change takes the database's highest revision plus one; a configuration
/// file carries the revisions of its project (`lineage`), and `apply` takes
/// them, raising its own clock past them: a database built afresh from the
/// file holds what the one it was exported from held, and a change made
/// after it counts above it. A part removed keeps its revision, as the
/// change that removed it. Database B holds every change a release from A
/// was made from when no part has a higher revision in A than in B.
///
/// A row changed by hand (sqlite3) moves no revision: like the log, the
/// lineage knows only relctl's changes.
public enum Lineage {
    /// A project's parts, by name ("" the settings, "ios", "ios/2.0", "window/4", "messages/optional/tr").
    typealias Revisions = [String: Int64]

    /// A part as people name it: "settings", "ios", "ios 2.0", "window #4", "messages optional tr".
    public static func describe(_ part: String) -> String {
        if part.isEmpty { return "settings" }
        if part.hasPrefix("window/") { return "window #" + part.dropFirst(7) }
        return String(part.map { $0 == "/" ? " " : $0 })
    }

    /// Far below Int64's end: a file's revision is checked against it before it is counted on.
    static let maximum: Int64 = 1 << 53

    static let schema = """
        CREATE TABLE lineage(project TEXT NOT NULL, part TEXT NOT NULL, rev INTEGER NOT NULL, PRIMARY KEY(project, part)) STRICT, WITHOUT ROWID;
        """

    /// What `apply` brings from a file: its project's revisions, taken for
    /// the parts the file made the database hold (set on the store for the
    /// one change that applies it).
    struct Adopting {
        var slug: String
        var revisions: Revisions
    }

    /// Gives every part the change `audit` touched the change's revision.
    static func stamp(_ store: Store, _ db: Connection, audit: Int64, adopting: Adopting?) throws {
        let changes = try store.rowChanges(of: audit)
        let parts = try touched(changes, db)
        guard !parts.isEmpty || adopting != nil else { return }
        var clock = try db.scalar("SELECT max(rev) FROM lineage").intValue ?? 0
        if let adopting { clock = max(clock, adopting.revisions.values.max() ?? 0) }
        guard clock < maximum else { throw StoreError("the database's lineage has reached its highest revision", hint: "restore the database from a backup") }
        let rev = clock + 1
        func current(_ project: String, _ part: String) throws -> Int64 {
            try db.query("SELECT rev FROM lineage WHERE project = ? AND part = ?", [.text(project), .text(part)]).first?.int(0) ?? 0
        }
        func set(_ project: String, _ part: String, _ value: Int64) throws {
            try db.run("INSERT INTO lineage(project, part, rev) VALUES (?, ?, ?) ON CONFLICT(project, part) DO UPDATE SET rev = excluded.rev",
                       [.text(project), .text(part), .int(value)])
        }
        for (project, part) in parts {
            // A part the file made the database hold has the file's revision when the file's is the later.
            if let a = adopting, a.slug == project, let theirs = a.revisions[part], theirs > (try current(project, part)) {
                try set(project, part, theirs)
            } else {
                try set(project, part, rev)
            }
        }
        // The file's other parts: what it knows of them is known here too.
        if let a = adopting {
            let made = Set(parts.filter { $0.0 == a.slug }.map(\.1))
            for (part, theirs) in a.revisions where !made.contains(part) {
                if theirs > (try current(a.slug, part)) { try set(a.slug, part, theirs) }
            }
        }
    }

    /// The parts the rows of one change belong to, by project slug.
    static func touched(_ changes: [RowChange], _ db: Connection) throws -> [(String, String)] {
        var resolver = Resolver(db: db, changes: changes)
        var out: [(String, String)] = [], seen = Set<String>()
        for change in changes {
            for image in [change.before, change.after].compactMap({ $0 }) {
                guard let part = try resolver.part(change.table, image), seen.insert(part.0 + "\u{0}" + part.1).inserted else { continue }
                out.append(part)
            }
        }
        return out
    }

    /// Finds the project and part of a row from its image: its parents are
    /// read from the database, or, when the change removed them too, from
    /// their images in the same change.
    struct Resolver {
        let db: Connection
        var images: [String: [Int64: [String: JSON]]] = [:]
        /// Parents already looked up: an apply touches thousands of versions of a few platforms.
        var slugs: [Int64: String] = [:], platforms: [Int64: (slug: String, name: String)] = [:]

        init(db: Connection, changes: [RowChange]) {
            self.db = db
            for c in changes { if let image = c.before ?? c.after, case .int(let id)? = image["id"] { images[c.table, default: [:]][id] = image } }
        }

        func row(_ table: String, _ id: Int64?, _ columns: String) throws -> [String: JSON]? {
            guard let id else { return nil }
            if let found = try db.query("SELECT \(columns) FROM \(table) WHERE id = ?", [.int(id)]).first {
                var out: [String: JSON] = [:]
                for (i, name) in columns.split(separator: ",").map({ $0.trimmingSpaces() }).enumerated() {
                    if let n = found.int(i) { out[name] = .int(n) } else if let s = found.string(i) { out[name] = .string(s) }
                }
                return out
            }
            return images[table]?[id]
        }

        static func int(_ image: [String: JSON]?, _ column: String) -> Int64? {
            if case .int(let n)? = image?[column] { return n } else { return nil }
        }

        static func text(_ image: [String: JSON]?, _ column: String) -> String? {
            if case .string(let s)? = image?[column] { return s } else { return nil }
        }

        mutating func slug(_ project: Int64?) throws -> String? {
            guard let project else { return nil }
            if let known = slugs[project] { return known }
            let found = Resolver.text(try row("project", project, "slug"), "slug")
            slugs[project] = found
            return found
        }

        mutating func platform(_ id: Int64?) throws -> (slug: String, name: String)? {
            guard let id else { return nil }
            if let known = platforms[id] { return known }
            let p = try row("platform", id, "project_id, name")
            guard let slug = try slug(Resolver.int(p, "project_id")), let name = Resolver.text(p, "name") else { return nil }
            platforms[id] = (slug, name)
            return (slug, name)
        }

        mutating func version(_ id: Int64?) throws -> (String, String)? {
            let v = try row("version", id, "platform_id, version")
            guard let p = try platform(Resolver.int(v, "platform_id")), let text = Resolver.text(v, "version") else { return nil }
            return (p.slug, "\(p.name)/\(text)")
        }

        mutating func part(_ table: String, _ image: [String: JSON]) throws -> (String, String)? {
            let int = { (c: String) in Resolver.int(image, c) }, text = { (c: String) in Resolver.text(image, c) }
            switch table {
            case "project": return text("slug").map { ($0, "") }
            case "platform": return try slug(int("project_id")).flatMap { s in text("name").map { (s, $0) } }
            case "version":
                guard let p = try platform(int("platform_id")), let v = text("version") else { return nil }
                return (p.slug, "\(p.name)/\(v)")
            case "note": return try version(int("version_id"))
            case "maintenance": return try slug(int("project_id")).flatMap { s in int("id").map { (s, "window/\($0)") } }
            case "maintenance_copy":
                guard let id = int("window_id") else { return nil }
                let window = try row("maintenance", id, "project_id")
                guard let s = try slug(Resolver.int(window, "project_id")) else { return nil }
                return (s, "window/\(id)")
            case "message":
                guard let s = try slug(int("project_id")), let kind = text("kind"), let locale = text("locale") else { return nil }
                return (s, "messages/\(kind)/\(locale)")
            default: return nil
            }
        }
    }
}

extension Store {
    /// Each project's revisions (Lineage), by slug: every project's, or one's.
    public func lineage(project: String? = nil) throws -> [String: [String: Int64]] {
        var out: [String: [String: Int64]] = [:]
        let rows = try project.map { try db.query("SELECT project, part, rev FROM lineage WHERE project = ?", [.text($0)]) }
            ?? db.query("SELECT project, part, rev FROM lineage")
        for r in rows {
            let (slug, part) = (r.text(0), r.text(1))
            guard let rev = r.int(2), rev > 0, rev <= Lineage.maximum else {
                throw badRow("lineage row \(slug) \(part)", "its rev is not a whole number from 1 to \(Lineage.maximum)")
            }
            out[slug, default: [:]][part] = rev
        }
        return out
    }
}
