import RelctlCore
import RelctlStore

/// The third phase of writing a tree, and a pure one (given the facts and
/// the `isIntact` it is handed, which looks at files): which projects a
/// publish renders and which it keeps as the old index lists them, from what
/// the database says of each (its revision and edit stamp) and what the tree
/// says (its record, its run of the file list, whether its files are intact).
/// A project is kept when the index records it at the same revision and
/// edits, with no disagreement, for a span holding `at`, its status page
/// published as wanted, and its files as published; -p renders that project
/// only and keeps the others whatever they are.
package struct IncrementalPlan {
    /// What the plan is made from.
    package struct Facts {
        /// Every project in the database, in order.
        package var projects: [String]
        package var revisions: Revisions
        /// The old index, when it may be gone by (PreviousTree.reusable).
        package var previous: PublishedIndex?
        /// The old file list in runs, by key (a project's "slug/").
        package var runs: [String: IndexFileRun]
        /// Folders found changed or too recent to vouch for their files; nil: look at each file.
        package var folders: (changed: Set<String>, unsure: Set<String>)?
        package var at: Int64
        /// Render everything, trusting nothing recorded.
        package var full: Bool
        /// Whether status pages are published.
        package var pages: Bool
        /// The one project to render (-p), or nil.
        package var only: String?
        /// Projects to render whatever their record says: signed by other keys than those given now.
        package var resign: Set<String> = []
    }

    /// The projects to render, in order.
    package private(set) var render: [String] = []
    /// The records of the projects kept, as the old index has them, with their bytes there.
    package private(set) var kept: [String: PublishedProject] = [:]
    package private(set) var verbatim: [String: ArraySlice<UInt8>] = [:]
    /// Their runs of the old file list, copied whole into the new one.
    package private(set) var carried: [String: IndexFileRun] = [:]
    /// How many files the carried runs list.
    package private(set) var unchanged = 0
    /// The projects kept that were not found current (-p keeps the others
    /// whatever they are): the tree's state records them unvouched, so the
    /// next publish renders them.
    package private(set) var unvouched: Set<String> = []
    /// The entries of the old runs not carried: what the files staged now
    /// are compared with, and what is removed when not written again.
    package private(set) var replaced: [String: (size: Int, sha256: String)] = [:]

    /// `isIntact(path, size)`: a file the old index lists is still as published.
    package init(_ facts: Facts, isIntact: (String, Int) -> Bool) {
        for slug in facts.projects {
            let revision = facts.revisions.revision(slug), edits = facts.revisions.edits[slug]
            let record = facts.previous?.projects[slug]
            let key = slug + "/"
            let files = facts.runs[key]
            // A page published or left out as this publish wants it (--no-pages) is part of being current.
            let pageAsWanted = (files?.contains(key + "status.html") ?? false) == facts.pages
            // Its files as published: by its folders' times where the state vouches for them, else file by file.
            var intact: Bool {
                if let folders = facts.folders, folders.changed.contains(slug) { return false }
                if let folders = facts.folders, !folders.unsure.contains(slug) { return true }
                return files?.allIntact(isIntact) ?? false
            }
            let recorded = record.map { $0.vouched && $0.revision == revision && $0.edits == edits && $0.disagreements == 0 && $0.holds(at: facts.at) } ?? false
            let current = !facts.full && !facts.resign.contains(slug) && recorded && pageAsWanted && files != nil && intact
            if (facts.only == nil && !current) || slug == facts.only {
                render.append(slug)
                continue
            }
            if !current { unvouched.insert(slug) }
            // Its files stay as the old index lists them. With -p over a tree with no
            // record of this project (another relctl wrote it, or a publish was cut
            // short) too: never removed; the next full publish renders it.
            if let record {
                kept[slug] = record
                verbatim[slug] = facts.previous?.verbatim[slug]
            }
            if let files, record != nil || facts.only != nil {
                carried[key] = files
                unchanged += files.count
            }
        }
        for (key, run) in facts.runs where carried[key] == nil {
            for entry in run.entries() { replaced[entry.path] = (entry.size, entry.sha256) }
        }
    }

    /// What the old index and an unfinished publish's journal name, and the new index does not:
    /// the files to remove once the new ones are in place (a run's paths are
    /// read once for all the paths under its key, not searched for each).
    package func stale(for index: PublishedIndex, unfinished: Set<String>) throws -> [String] {
        let candidates = Set(replaced.keys).union(unfinished).filter { index.files[$0] == nil }
        var out: [String] = []
        for (key, paths) in Dictionary(grouping: candidates, by: IndexFileRun.key(of:)) {
            guard let run = try index.run(key) else { out += paths; continue }
            let entries = run.entries()
            // A run whose bytes do not read as its entries is searched, as before.
            guard entries.count == run.count else { out += paths.filter { !run.contains($0) }; continue }
            let listed = Set(entries.map(\.path))
            out += paths.filter { !listed.contains($0) }
        }
        return out.sorted()
    }
}
