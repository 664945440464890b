import RelctlCore
import RelctlStore

/// The one answer to "is this tree current for this database, at this
/// instant": publish asks it before doing nothing, verify before trusting
/// what it proves, deploy before uploading.
package enum TreeCurrency {
    /// What a published tree was made from, as the tree's state (TreeState,
    /// LastPublish) records it; index.json records only the span, since it
    /// names no database.
    package struct Record {
        package var revision: Int64
        /// The database's edit count then; nil: an index from before edit counts.
        package var edits: Int64?
        /// The span the files hold for (nil ends: since ever, until a change).
        package var validFrom: Int64?
        package var nextChange: NextChange?
        /// Each project's revision and edit stamp, by slug.
        package var projects: [String: (revision: Int64?, edits: Int64?)]

        package init(revision: Int64, edits: Int64?, validFrom: Int64?, nextChange: NextChange?, projects: [String: (revision: Int64?, edits: Int64?)]) {
            self.revision = revision; self.edits = edits; self.validFrom = validFrom; self.nextChange = nextChange; self.projects = projects
        }

        /// The span alone, as index.json has it: what a tree holds for, whatever database it came from.
        package init(span index: PublishedIndex) {
            self.init(revision: 0, edits: nil, validFrom: index.validFrom, nextChange: index.nextChange, projects: [:])
        }

        /// As the state of the tree at `root` records it, when it describes
        /// the index.json there (nothing rewrote that since the publish).
        package static func recorded(root: String) -> Record? {
            guard let state = TreeState.read(root: root), TreeState.Stamp(root + "/index.json") == state.index else { return nil }
            return Record(state: state)
        }

        /// As the tree's state records it; nil when it records no publish
        /// (a tree published despite disagreements, or by a relctl before the record).
        package init?(state: TreeState) {
            guard let recorded = state.last, let last = LastPublish(bytes: recorded) else { return nil }
            self.init(state: state, last: last)
        }

        /// The same from the record already read (a publish with nothing to do reads it once).
        package init(state: TreeState, last: LastPublish) {
            self.init(revision: state.revision, edits: last.edits, validFrom: last.validFrom, nextChange: last.nextChange,
                      projects: last.projects.mapValues { ($0.revision, $0.edits) })
        }
    }

    /// The database now.
    package struct Database {
        package var revision: Int64
        package var edits: Int64
        package var projects: Revisions
        package var slugs: [String]

        package init(revision: Int64, edits: Int64, projects: Revisions, slugs: [String]) {
            self.revision = revision; self.edits = edits; self.projects = projects; self.slugs = slugs
        }

        /// As the store holds it: call inside `store.read {}`, for one consistent state.
        package static func current(_ store: Store) throws -> Database {
            Database(revision: try store.revision(), edits: try store.edits(), projects: try store.projectRevisions(), slugs: try store.projectSlugs())
        }
    }

    /// Why a tree does not say what the database says.
    package enum Staleness: Equatable {
        /// The database moved on by a relctl change.
        case databaseRevision(database: Int64, tree: Int64)
        /// The database was changed without relctl (sqlite3 by hand): its edit count moved, its revision did not.
        case editedByHand
        /// One project changed since: a newer revision, or (same revision) a new edit stamp.
        case project(String, tree: Int64?, database: Int64, byHand: Bool)
        /// Published in the tree, gone from the database.
        case projectRemoved(String)
        /// In the database, not in the tree.
        case projectAdded(String)
        /// The files are for a later instant (published with --at ahead).
        case notYet(validFrom: Int64)
        /// A change came since (a deadline, a window's end): the files no longer hold.
        case wentStale(NextChange)
    }

    /// Every reason, in this order: the span (when `at` is given), the
    /// database (when given), the projects by slug. Empty: current.
    package static func staleness(_ tree: Record, database: Database?, at: Int64?) -> [Staleness] {
        var out: [Staleness] = []
        if let at {
            if let from = tree.validFrom, from > at { out.append(.notYet(validFrom: from)) }
            if let next = tree.nextChange, next.at <= at { out.append(.wentStale(next)) }
        }
        guard let db = database else { return out }
        if db.revision != tree.revision { out.append(.databaseRevision(database: db.revision, tree: tree.revision)) }
        if let edits = tree.edits, edits != db.edits, db.revision == tree.revision { out.append(.editedByHand) }
        let present = Set(db.slugs)
        for (slug, recorded) in tree.projects.sorted(by: { $0.key < $1.key }) {
            guard present.contains(slug) else { out.append(.projectRemoved(slug)); continue }
            let now = db.projects.revision(slug)
            if recorded.revision != now { out.append(.project(slug, tree: recorded.revision, database: now, byHand: false)) }
            else if recorded.edits != db.projects.edits[slug] { out.append(.project(slug, tree: recorded.revision, database: now, byHand: true)) }
        }
        for slug in db.slugs.sorted() where tree.projects[slug] == nil { out.append(.projectAdded(slug)) }
        return out
    }
}
