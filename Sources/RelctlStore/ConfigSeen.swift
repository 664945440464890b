#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import RelctlCore
import SQLite

/// Which projects a plan or apply found already holding their section of a
/// configuration file (ConfigSections), so that the next plan of a file with
/// the same section leaves it unread: CI plans a fleet's 60 MB file after
/// every merge, and a merge changes a project or two.
///
/// A note holds while nothing could make the same section plan otherwise:
/// - the project's edit stamp is the one it had (every change of its rows
///   moves it, relctl's and sqlite3's alike);
/// - the schema and this relctl's reading are the ones that found it
///   (`reader`);
/// - the instant is not before the plan that found it, nor at or past the
///   next start or end of one of the project's windows: a window is the
///   only part of a project whose plan depends on the instant (one over is
///   left out on both sides). A project whose file lists a window still to
///   end is not noted at all: its windows are matched by rules that read
///   other projects' window ids.
/// Only a plan or apply that read the section in full, changed nothing of
/// the project and said nothing of it takes notes. The histories the
/// section brings (its lineage, and the parts it counts as edited) are
/// noted with it: they are what applying it writes besides rows
/// (`adoptLineage`), a pure function of the section, so an apply that
/// leaves the section unread still writes them as a full read would.
public enum ConfigSeen {
    /// Moves when reading a file or applying it could answer otherwise for the same bytes and rows.
    /// 2: a window a file adds without an id is no part ("window/0") of the histories a note keeps.
    static let revision = 2

    /// Which relctl took a note: its schema, its reading (`revision`, the
    /// contract: moved by whoever changes what a section reads as or how
    /// apply compares it), and on Linux its build as the executable's size
    /// and time. The build mark is a second guard, not a proof: it reads
    /// every project again after most upgrades and rebuilds, but an install
    /// that keeps size and time (a reproducible build, `cp -p`) passes it.
    static let reader: String = {
        var build = ""
        #if os(Linux)
        var st = stat()
        if stat("/proc/self/exe", &st) == 0 { build = ", build \(st.st_size) \(st.st_mtim.tv_sec).\(st.st_mtim.tv_nsec)" }
        #endif
        return "schema \(Store.schemaVersion), reader \(revision)\(build)"
    }()

    static let schema = """
        CREATE TABLE config_seen(
            project_id INTEGER PRIMARY KEY REFERENCES project(id) ON DELETE CASCADE,
            stamp INTEGER,
            digest TEXT NOT NULL,
            lineage TEXT NOT NULL,
            reader TEXT NOT NULL,
            seen_at INTEGER NOT NULL,
            until INTEGER
        ) STRICT;
        """

    /// A project found holding its section: its slug, its edit stamp then, the section's digest
    /// and the histories it brings (ConfigProject's lineage and edited parts).
    public struct Note: Sendable {
        public var slug: String
        public var stamp: Int64?
        public var digest: String
        public var lineage: [String: [Int64]]
        public var edited: Set<String>
        public init(slug: String, stamp: Int64?, digest: String, lineage: [String: [Int64]], edited: Set<String>) {
            self.slug = slug; self.stamp = stamp; self.digest = digest; self.lineage = lineage; self.edited = edited
        }

        /// The histories as the table holds them: {"chains": {part: [revisions]}, "edited": [parts]}.
        var histories: String {
            var out: [UInt8] = []
            JSON.object(["chains": .object(lineage.mapValues { .array($0.map(JSON.int)) }), "edited": .array(edited.sorted().map(JSON.string))]).writeCompact(to: &out)
            return String(decoding: out, as: UTF8.self)
        }

        /// Nil when the text is not histories as `histories` writes them (a hand's edit): no hint then.
        static func histories(_ text: String) -> (lineage: [String: [Int64]], edited: Set<String>)? {
            guard case .object(let o)? = try? JSONReader.parse(Array(text.utf8)), o.count == 2,
                  case .object(let chains)? = o["chains"], case .array(let edited)? = o["edited"] else { return nil }
            var lineage: [String: [Int64]] = [:]
            for (part, value) in chains {
                guard case .array(let items) = value else { return nil }
                let chain = items.compactMap { if case .int(let n) = $0, n >= 1, n <= Lineage.maximum { return n } else { return nil } }
                guard chain.count == items.count, !chain.isEmpty, chain.count <= Lineage.chainLength, zip(chain, chain.dropFirst()).allSatisfy({ $0 > $1 }) else { return nil }
                lineage[part] = chain
            }
            let parts = edited.compactMap { if case .string(let s) = $0 { return s } else { return nil } }
            guard parts.count == edited.count else { return nil }
            return (lineage, Set(parts))
        }
    }

    /// What a note says of a project: its section's digest, its time zone,
    /// and the histories the section brings.
    public struct Seen: Sendable {
        public var digest: String
        public var timeZone: String
        public var lineage: [String: [Int64]]
        public var edited: Set<String>
    }
}

extension Store {
    /// The sections the database is known to hold at `now`, by slug, with
    /// the project's time zone (the read checks it is installed, as for any
    /// project of the file), and the histories the section brings. A note
    /// that does not hold is no hint: the project is read in full.
    public func configSeen(now: Int64) throws -> [String: ConfigSeen.Seen] {
        var out: [String: ConfigSeen.Seen] = [:]
        try db.each("""
            SELECT p.slug, p.time_zone, s.digest, s.lineage FROM config_seen s JOIN project p ON p.id = s.project_id
                LEFT JOIN project_edit e ON e.project_id = s.project_id
            WHERE s.stamp IS e.edits AND s.reader = ? AND s.seen_at <= ? AND (s.until IS NULL OR ? < s.until)
            """, [.text(ConfigSeen.reader), .int(now), .int(now)]) { row in
            guard let slug = try row.text(0), let zone = try row.text(1), let digest = try row.text(2),
                  let brought = try row.text(3).flatMap(ConfigSeen.Note.histories) else { return }
            out[slug] = ConfigSeen.Seen(digest: digest, timeZone: zone, lineage: brought.lineage, edited: brought.edited)
        }
        return out
    }

    /// A project's edit stamp: nil when nothing stamped it since stamps began.
    public func editStamp(project: Int64) throws -> Int64? {
        try db.query("SELECT edits FROM project_edit WHERE project_id = ?", [.int(project)]).first?.int(0)
    }

    /// Notes that each project held its section at its stamp, found at
    /// `now` (a plan's or apply's instant): a project whose stamp moved since is not noted.
    public func noteConfigSeen(_ notes: [ConfigSeen.Note], now: Int64) throws {
        guard !notes.isEmpty else { return }
        try db.write {
            for n in notes {
                try db.run("""
                    INSERT INTO config_seen(project_id, stamp, digest, lineage, reader, seen_at, until)
                    SELECT p.id, e.edits, ?, ?, ?, ?,
                        (SELECT min(t) FROM (SELECT starts_at AS t FROM maintenance WHERE project_id = p.id AND starts_at > ?
                                             UNION ALL SELECT ends_at FROM maintenance WHERE project_id = p.id AND ends_at > ?))
                    FROM project p LEFT JOIN project_edit e ON e.project_id = p.id WHERE p.slug = ? AND e.edits IS ?
                    ON CONFLICT(project_id) DO UPDATE SET stamp = excluded.stamp, digest = excluded.digest, lineage = excluded.lineage, reader = excluded.reader,
                        seen_at = excluded.seen_at, until = excluded.until
                    """, [.text(n.digest), .text(n.histories), .text(ConfigSeen.reader), .int(now), .int(now), .int(now), .text(n.slug), SQLValue(n.stamp)])
            }
        }
    }
}
