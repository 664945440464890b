import RelctlCore
import SQLite

/// Which changes a database holds, so that a deploy never takes the remote
/// back to a state that lacks one (a colleague's copy that missed CI's
/// change, a restored backup).
///
/// Each part of a project's configuration that a file line holds (the
/// project's settings, a platform with its floors, a version with its
/// notes and pin, a window with its copy, a kind's messages in a locale) has
/// a history: the revisions of the last changes that made it what it is,
/// newest first (`chainLength` of them). A change counts one above the
/// database's highest revision (a Lamport clock), so a change made after
/// another counts above it. A count alone is not the change: two copies of a
/// database that each edit a platform from the same state would give the
/// two edits one number, and each would take the other's release for one it
/// holds. So a revision is the count with a digest of what the part holds
/// after the change in its low bits (`next`): two edits to different
/// content are two revisions, and the same content reached the same way
/// (CI applying one file to two databases alike) is one.
/// A configuration file carries each part's
/// history (`lineage`), and `apply` takes it: a database built afresh from
/// the file holds what the one it was exported from held. A part removed
/// keeps its history, the removal first. A database holds the change a
/// remote's release made a part from when that revision is in its history
/// of the part: an edit of its own made without it (a colleague's, to the
/// same platform) is not enough, since its history lacks the revision.
///
/// A row changed by hand (sqlite3) moves no history: like the log, the
/// lineage knows only relctl's changes.
public enum Lineage {
    /// A project's parts, by name ("" the settings, "ios", "ios/2.0", "window/4", "messages/optional/tr").
    typealias Chains = [String: [Int64]]

    /// How many revisions of a part are kept: a release is replaced only by a
    /// database whose last 16 changes to each part include the release's.
    public static let chainLength = 16

    /// Far below Int64's end: a file's revision is checked against it before it is counted on.
    public static let maximum: Int64 = 1 << 50

    /// A revision's low bits: the digest of the part's content after its change. The count
    /// above them goes to 2^26 - 1 in a database, and to 2^24 in a file (ConfigRead's bound):
    /// 16 million changes; two changes to different content at one count are one revision by
    /// a chance of one in 2^24.
    package static let digestBits = 24

    /// The revision after `clock` (a database's highest, or a file's) of a part whose content is
    /// now `digest` (ConfigFormat.digests, `absent` for a part removed); nil past `maximum`. The
    /// revisions from before the digests (1, 2, 3, ...) count below every one after them.
    static func next(after clock: Int64, content digest: String) -> Int64? {
        let count = (clock >> digestBits) + 1
        guard clock >= 0, count < maximum >> digestBits else { return nil }
        var salt = ConfigFormat.Digest()
        salt.add(digest)
        return count << digestBits | Int64(salt.h & (1 << digestBits - 1))
    }

    /// Whether `revision` counts a change with its content digested (not a count from before
    /// the digests) that left content, not a part removed: the digest of "absent" is one
    /// constant, shared by every part removed at one count.
    package static func holdsContent(_ revision: Int64) -> Bool {
        revision >> digestBits > 0 && revision & (1 << digestBits - 1) != next(after: 0, content: ConfigFormat.absent)! & (1 << digestBits - 1)
    }

    static let exhausted = StoreError("the database's lineage has reached its highest revision", hint: "restore the database from a backup")

    /// A part as people name it: "settings", "ios", "ios 2.0", "window #4", "messages optional tr".
    public static func describe(_ part: String) -> String {
        if part.isEmpty { return "settings" }
        if part.hasPrefix("window/") { return "window #" + part.dropFirst(7) }
        return String(part.map { $0 == "/" ? " " : $0 })
    }

    /// The table, and every part a database already holds as revision 1: the
    /// one change that made them, as far as the lineage knows (a database built
    /// afresh from a file without lineage makes them all in its first change, 1 too).
    static let schema = """
        CREATE TABLE lineage(project TEXT NOT NULL, part TEXT NOT NULL, head INTEGER NOT NULL, chain TEXT NOT NULL, PRIMARY KEY(project, part)) STRICT, WITHOUT ROWID;
        CREATE INDEX lineage_head ON lineage(head);
        INSERT INTO lineage(project, part, head, chain) SELECT slug, '', 1, '1' FROM project;
        INSERT INTO lineage(project, part, head, chain) SELECT p.slug, f.name, 1, '1' FROM platform f JOIN project p ON p.id = f.project_id;
        INSERT OR IGNORE INTO lineage(project, part, head, chain) SELECT p.slug, f.name || '/' || v.version, 1, '1'
            FROM version v JOIN platform f ON f.id = v.platform_id JOIN project p ON p.id = f.project_id;
        INSERT OR IGNORE INTO lineage(project, part, head, chain) SELECT p.slug, 'window/' || m.id, 1, '1' FROM maintenance m JOIN project p ON p.id = m.project_id;
        INSERT OR IGNORE INTO lineage(project, part, head, chain) SELECT p.slug, 'messages/' || m.kind || '/' || m.locale, 1, '1'
            FROM message m JOIN project p ON p.id = m.project_id;
        """

    /// What `apply` brings from a file for one project: each part's history,
    /// and the parts edited in the file itself (their content no longer the
    /// one their history was given to).
    struct Adopting {
        var slug: String
        var chains: [String: [Int64]]
        var edited: Set<String> = []

        /// The file's histories with its windows' parts named also by the ids
        /// they have here (`ConfigApplied.renumbered`): a window whose id is
        /// another's here continues the file's history of it under its own
        /// id. The history stays under the file's id too, as a name only: a
        /// remote's record made from the file's database names it so, and a
        /// deploy from here holds that change. The file's history or edit of
        /// another window under an id a window here now has is not this one's.
        func renumbering(_ windows: [Int64: Int64]) -> Adopting {
            guard !windows.isEmpty else { return self }
            func here(_ part: String) -> String? {
                guard part.hasPrefix("window/"), let id = Int64(part.dropFirst(7)), let here = windows[id] else { return nil }
                return "window/\(here)"
            }
            let taken = Set(windows.values.map { "window/\($0)" })
            var out = self
            for part in chains.keys where taken.contains(part) && here(part) == nil { out.chains[part] = nil }
            for (part, chain) in chains { if let name = here(part) { out.chains[name] = chain } }
            out.edited = Set(edited.compactMap { part in here(part) ?? (taken.contains(part) ? nil : part) })
            return out
        }
    }

    static func encode(_ chain: [Int64]) -> String { chain.map(String.init).joined(separator: " ") }

    /// A chain as the table holds it; nil when it is not one relctl wrote.
    static func decode(_ text: String) -> [Int64]? {
        let chain = text.split(separator: " ").compactMap { Int64($0) }
        guard !chain.isEmpty, chain.count <= chainLength, chain.count == text.split(separator: " ").count,
              chain.allSatisfy({ $0 >= 1 && $0 <= maximum }), zip(chain, chain.dropFirst()).allSatisfy({ $0 > $1 }) else { return nil }
        return chain
    }

    /// Whether a part's history `ours`, in a database whose part holds what
    /// a file edited it to, has counted that edit: its newest revision is
    /// later than the file's newest, which it holds (or, full, is too old to
    /// keep), or the file gives the part no history at all. The change that
    /// made the newest revision made the content the part holds, as every
    /// change through relctl is stamped (a hand edit with sqlite3 moves no
    /// history, so one back to the file's content is not told apart).
    static func counted(_ ours: [Int64], after theirs: [Int64]) -> Bool {
        guard let head = ours.first else { return false }
        guard let newest = theirs.first else { return true }
        return head > newest && (ours.contains(newest) || (ours.count >= chainLength && newest < ours.last!))
    }

    /// `revision` first, then what the part went through before it, newest first.
    static func joined(_ revision: Int64?, _ histories: [Int64]...) -> [Int64] {
        Array(Set(histories.joined() + (revision.map { [$0] } ?? [])).sorted(by: >).prefix(chainLength))
    }

    /// The database's clock: its highest revision (each part's newest is kept apart, indexed, for this).
    static func clock(_ db: Connection) throws -> Int64 {
        let high = try db.scalar("SELECT coalesce(max(head), 0) FROM lineage").intValue ?? 0
        guard high >= 0 && high <= maximum else {
            throw StoreError("the database has a bad row: lineage: a revision \(high) is not from 1 to \(maximum)", hint: "correct that row (sqlite3) or restore the database from a backup")
        }
        return high
    }

    static func set(_ db: Connection, _ project: String, _ part: String, _ chain: [Int64]) throws {
        try db.run("INSERT INTO lineage(project, part, head, chain) VALUES (?, ?, ?, ?) ON CONFLICT(project, part) DO UPDATE SET head = excluded.head, chain = excluded.chain",
                   [.text(project), .text(part), .int(chain.first ?? 0), .text(encode(chain))])
    }

    /// Gives every part the change touched the change's revision. A
    /// part `apply` made hold what its file says takes the file's history
    /// when that history is the later one and holds the database's, as a
    /// change merged from elsewhere; otherwise (the file older, or edited
    /// apart from it) the change is one of this database's own, on top of both.
    /// `rows`: the change's rows as recorded (ChangeCapture.record), already read.
    static func stamp(_ store: Store, rows: [RowChange], adopting: Adopting?) throws {
        let db = store.db
        let parts = try touched(rows, db)
        guard !parts.isEmpty else { return }
        var clock = try self.clock(db)
        if let a = adopting { clock = max(clock, a.chains.values.compactMap(\.first).max() ?? 0) }
        guard next(after: clock, content: ConfigFormat.absent) != nil else { throw exhausted }
        let held = try chains(db, parts)
        var stamped: [(project: String, part: String, chain: [Int64])] = []
        stamped.reserveCapacity(parts.count)
        var own: [(project: String, part: String)] = []
        for (project, part) in parts {
            let ours = held[project]?[part] ?? []
            if let a = adopting, a.slug == project, !a.edited.contains(part), let theirs = a.chains[part], let head = theirs.first,
               head > (ours.first ?? 0), ours.first.map(theirs.contains) ?? true {
                stamped.append((project, part, theirs))
            } else {
                own.append((project, part))
            }
        }
        let contents = try store.partDigests(own)
        for (project, part) in own {
            let revision = next(after: clock, content: contents[project]?[part] ?? ConfigFormat.absent)!
            stamped.append((project, part, joined(revision, held[project]?[part] ?? [], adopting.flatMap { $0.slug == project ? $0.chains[part] : nil } ?? [])))
        }
        try set(db, stamped)
    }

    /// The chains of these parts (each named once), read many at a time: an
    /// apply into an empty database stamps a part per version, and a statement
    /// per part read or written was a fifth of its statements.
    static func chains(_ db: Connection, _ parts: [(String, String)]) throws -> [String: Chains] {
        var out: [String: Chains] = [:]
        var byProject: [String: [String]] = [:], order: [String] = []
        for (project, part) in parts {
            if byProject[project] == nil { order.append(project) }
            byProject[project, default: []].append(part)
        }
        for project in order {
            let wanted = byProject[project]!
            for start in stride(from: 0, to: wanted.count, by: slice) {
                let some = wanted[start..<min(start + slice, wanted.count)]
                let marks = Array(repeating: "?", count: some.count).joined(separator: ", ")
                for row in try db.query("SELECT part, chain FROM lineage WHERE project = ? AND part IN (\(marks))", [.text(project)] + some.map { .text($0) }) {
                    let part = row.text(0)
                    guard let chain = decode(row.text(1)) else {
                        throw StoreError("the database has a bad row: lineage row \(project) \(part): its chain is not up to \(chainLength) revisions from 1 to \(maximum), newest first",
                                         hint: "correct that row (sqlite3) or restore the database from a backup")
                    }
                    out[project, default: [:]][part] = chain
                }
            }
        }
        return out
    }

    /// Parts read or written in one statement: four values each, well under SQLite's limit of variables.
    static let slice = 200

    /// Sets each part's chain, many in one statement.
    static func set(_ db: Connection, _ chains: [(project: String, part: String, chain: [Int64])]) throws {
        for start in stride(from: 0, to: chains.count, by: slice) {
            let some = chains[start..<min(start + slice, chains.count)]
            var args: [SQLValue] = []
            args.reserveCapacity(some.count * 4)
            for c in some { args += [.text(c.project), .text(c.part), .int(c.chain.first ?? 0), .text(encode(c.chain))] }
            try db.run("INSERT INTO lineage(project, part, head, chain) VALUES \(NoteRows.values(some.count, width: 4)) ON CONFLICT(project, part) DO UPDATE SET head = excluded.head, chain = excluded.chain", args)
        }
    }

    /// The parts the rows of one change belong to, by project slug.
    static func touched(_ rows: [RowChange], _ db: Connection) throws -> [(String, String)] {
        // The rows were recorded from the database just now: what they are after is what it holds.
        var resolver = Resolver(db: db, rows: rows, afterIsCurrent: true)
        var out: [(String, String)] = [], seen = Set<String>()
        var notesOf = Set<Int64>(), copiesOf = Set<Int64>()
        func add(_ table: String, _ image: [String: JSON]) throws {
            // A version's notes, and a window's copies, are one part: one of them names it
            // (an apply into an empty database records 800,000 notes).
            if table == "note", case .int(let version)? = image["version_id"], !notesOf.insert(version).inserted { return }
            if table == "maintenance_copy", case .int(let window)? = image["window_id"], !copiesOf.insert(window).inserted { return }
            guard let part = try resolver.part(table, image), seen.insert(part.0 + "\u{0}" + part.1).inserted else { return }
            out.append(part)
        }
        for row in rows {
            if let before = row.before { try add(row.table, before) }
            if let after = row.after { try add(row.table, after) }
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
        var slugs: [Int64: String] = [:], platforms: [Int64: (slug: String, name: String)] = [:], versions: [Int64: (String, String)] = [:]

        /// Rows as the change left them, by table and id, when they are what the database holds now.
        var current: [String: [Int64: [String: JSON]?]] = [:]
        /// A parent as it was when an older change was made (its image in the log), asked before
        /// the database: an id removed since may be another row's now. Nil: none logged.
        var logged: ((String, Int64) throws -> [String: JSON]?)? = nil

        /// `rows`: the change's rows, whose images stand in for parents it removed.
        /// `afterIsCurrent`: the rows were recorded by the session just now, so the last
        /// after image of each is the row as the database holds it, and is read instead of
        /// it: the notes of an apply into an empty database name 40,000 versions it made.
        init(db: Connection, rows: some Sequence<RowChange>, afterIsCurrent: Bool = false) {
            self.db = db
            for row in rows {
                // Only a parent is looked up (`row`): the notes of an apply into an empty database,
                // most of its rows, were each asked for an id they do not have.
                guard Resolver.parents.contains(row.table) else { continue }
                if case .int(let id)? = row.before?["id"] { images[row.table, default: [:]][id] = row.before }
                if case .int(let id)? = row.after?["id"] { images[row.table, default: [:]][id] = row.after }
                guard afterIsCurrent, case .int(let id)? = (row.after ?? row.before)?["id"] else { continue }
                // The last change of a row in the rows is what it is now; removed, the database is asked (as without).
                current[row.table, default: [:]][id] = row.after
            }
        }

        func row(_ table: String, _ id: Int64?, _ columns: String) throws -> [String: JSON]? {
            assert(Resolver.parents.contains(table), "\(table) is looked up as a parent: add it to Resolver.parents")
            guard let id else { return nil }
            if let now = current[table]?[id] ?? nil { return now }
            if let then = try logged?(table, id) { return then }
            if let found = try db.query("SELECT \(columns) FROM \(table) WHERE id = ?", [.int(id)]).first {
                var out: [String: JSON] = [:]
                for (i, name) in columns.split(separator: ",").map({ $0.trimmingSpaces() }).enumerated() {
                    if let n = found.int(i) { out[name] = .int(n) } else if let s = found.string(i) { out[name] = .string(s) }
                }
                return out
            }
            return images[table]?[id]
        }

        /// The tables `row` reads a parent from.
        static let parents: Set<String> = ["project", "platform", "version", "maintenance"]

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
            guard let id else { return nil }
            if let known = versions[id] { return known }
            let v = try row("version", id, "platform_id, version")
            guard let p = try platform(Resolver.int(v, "platform_id")), let text = Resolver.text(v, "version") else { return nil }
            versions[id] = (p.slug, "\(p.name)/\(text)")
            return versions[id]
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
    /// Each project's histories of its parts (Lineage), by slug: every project's, or one's.
    public func lineage(project: String? = nil) throws -> [String: [String: [Int64]]] {
        var out: [String: [String: [Int64]]] = [:]
        let rows = try project.map { try db.query("SELECT project, part, head, chain FROM lineage WHERE project = ?", [.text($0)]) }
            ?? db.query("SELECT project, part, head, chain FROM lineage")
        // Passed over: the history of no part (ConfigFormat.unnumberedWindow).
        for r in rows where r.text(1) != ConfigFormat.unnumberedWindow {
            let (slug, part) = (r.text(0), r.text(1))
            guard let chain = Lineage.decode(r.text(3)), r.int(2) == chain.first else {
                throw badRow("lineage row \(slug) \(part)", "its chain is not up to \(Lineage.chainLength) revisions from 1 to \(Lineage.maximum), newest first")
            }
            out[slug, default: [:]][part] = chain
        }
        return out
    }
}

extension Session {
    /// What a configuration file knows of a project that no change of this
    /// apply touched: a part's later history is taken (the content is alike,
    /// or the part is not here: a window past, a part removed), a part edited
    /// in the file itself counts as a change of this database's (unless its
    /// history here already went past the file's: `Lineage.counted`), and a
    /// project the file lists as removed is known removed. Bookkeeping in the
    /// apply's session: no log entry, no change users see. `windows`: the
    /// file's window ids that are another's here (`ConfigApplied.renumbered`).
    public func adoptLineage(_ slug: String, chains: [String: [Int64]], edited: Set<String> = [], windows: [Int64: Int64] = [:]) throws {
        let file = Lineage.Adopting(slug: slug, chains: chains, edited: edited).renumbering(windows)
        let (chains, edited) = (file.chains, file.edited)
        guard !chains.isEmpty || !edited.isEmpty else { return }
        guard isOpen else { throw StoreError("this session is already committed or dropped") }
        try db.write {
            let clock = max(try Lineage.clock(db), chains.values.compactMap(\.first).max() ?? 0)
            let known = try store.lineage(project: slug)[slug] ?? [:]
            for (part, theirs) in chains where !edited.contains(part) {
                let ours = known[part] ?? []
                if let head = theirs.first, head > (ours.first ?? 0) { try Lineage.set(db, slug, part, Lineage.joined(nil, theirs, ours)) }
            }
            var own: [String] = []
            for part in edited.sorted() {
                let ours = known[part] ?? [], theirs = chains[part] ?? []
                // Untouched, the part holds what the file says (but a window kept on). A history here
                // already past the file's has counted the edit (a change of this apply made it, or an
                // earlier one): the same file applied again moves no history, as it changes nothing.
                // Only the file's older revisions it lacks are taken.
                if Lineage.counted(ours, after: theirs) {
                    let merged = Lineage.joined(nil, ours, theirs)
                    if merged != ours { try Lineage.set(db, slug, part, merged) }
                } else {
                    own.append(part)
                }
            }
            guard !own.isEmpty else { return }
            // One count for them all, as for the parts of one change: a database built afresh from the
            // file, where these edits are no rows, counts them as one made by rows elsewhere does.
            guard Lineage.next(after: clock, content: ConfigFormat.absent) != nil else { throw Lineage.exhausted }
            let contents = try store.partDigests(own.map { (slug, $0) })[slug] ?? [:]
            for part in own {
                let revision = Lineage.next(after: clock, content: contents[part] ?? ConfigFormat.absent)!
                try Lineage.set(db, slug, part, Lineage.joined(revision, known[part] ?? [], chains[part] ?? []))
            }
        }
    }
}

extension Store {
    /// What each part holds now, as a configuration file's digest of it
    /// (ConfigFormat.digests; no entry for a part that is gone, or a window
    /// cancelled, which no file lists): what a new revision of it is told
    /// apart by (Lineage.next). Only the rows of those parts are read.
    func partDigests(_ parts: [(project: String, part: String)]) throws -> [String: [String: String]] {
        var out: [String: [String: String]] = [:]
        var byProject: [String: [String]] = [:], order: [String] = []
        for (project, part) in parts {
            if byProject[project] == nil { order.append(project) }
            byProject[project, default: []].append(part)
        }
        for slug in order {
            // Each kind of row read once, when a part needs it: a version added reads that version alone.
            var project: ProjectRecord?? = nil, platforms: [String: PlatformRecord]? = nil
            var windows: [Int64: MaintenanceWindow]? = nil, messages: [String: [String: [String: String]]]? = nil
            func record() throws -> ProjectRecord? {
                if project == nil { project = .some(try self.project(slug: slug)) }
                return project!
            }
            func platform(_ name: String) throws -> PlatformRecord? {
                if platforms == nil { platforms = try record().map { p in Dictionary(try self.platforms(project: p.id).map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a }) } ?? [:] }
                return platforms![name]
            }
            func marks(_ n: Int) -> String { Array(repeating: "?", count: n).joined(separator: ", ") }
            var found: [String: String] = [:]
            var versions: [String: [String]] = [:]
            for part in byProject[slug]! {
                if part.isEmpty {
                    if let p = try record() { found[part] = ConfigFormat.digest(settings: p) }
                } else if part.hasPrefix("window/") {
                    if windows == nil { windows = try record().map { p in Dictionary(try maintenanceWindows(project: p.id).map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a }) } ?? [:] }
                    if let id = Int64(part.dropFirst(7)), let w = windows![id], !w.isCancelled { found[part] = ConfigFormat.digest(window: w) }
                } else if part.hasPrefix("messages/") {
                    if messages == nil { messages = try record().map { try messageOverrides(project: $0.id) } ?? [:] }
                    let names = part.split(separator: "/", maxSplits: 2).map(String.init)
                    if names.count == 3, let fields = messages![names[1]]?[names[2]] { found[part] = ConfigFormat.digest(messages: fields) }
                } else if let slash = part.firstIndex(of: "/") {
                    versions[String(part[..<slash]), default: []].append(String(part[part.index(after: slash)...]))
                } else if let p = try platform(part) {
                    found[part] = ConfigFormat.digest(platform: p)
                }
            }
            // Those versions alone, many to a statement, with their notes (a version added: two reads).
            let columns = Store.versionColumns.split(separator: ",").map { "v." + $0.trimmingSpaces() }.joined(separator: ", ")
            for (name, texts) in versions {
                var rows: [VersionRecord] = []
                for start in stride(from: 0, to: texts.count, by: Lineage.slice) {
                    let some = Array(texts[start..<min(start + Lineage.slice, texts.count)])
                    var made = try db.query("""
                        SELECT \(columns) FROM version v JOIN platform f ON f.id = v.platform_id JOIN project p ON p.id = f.project_id
                        WHERE p.slug = ? AND f.name = ? AND v.version IN (\(marks(some.count)))
                        """, [.text(slug), .text(name)] + some.map { .text($0) }).map { try versionRecord($0) }
                    var index: [Int64: Int] = [:]
                    for (i, v) in made.enumerated() { index[v.id] = i }
                    if !made.isEmpty {
                        for r in try db.query("SELECT version_id, locale, body FROM note WHERE version_id IN (\(marks(made.count)))", made.map { .int($0.id) }) {
                            guard let id = r.int(0), let i = index[id] else { continue }
                            made[i].notes[try locale(r.text(1), "a note of version #\(id)", "its locale")] = try noteBody(r.text(2), version: id)
                        }
                    }
                    rows += made
                }
                for v in rows { found["\(name)/\(v.version.text)"] = ConfigFormat.digest(version: v) }
            }
            out[slug] = found
        }
        return out
    }
}
