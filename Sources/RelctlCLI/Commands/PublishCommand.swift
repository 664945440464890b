import Dispatch
import RelctlCore
import RelctlStore

/// `relctl publish DIR`: the static files client libraries download.
enum PublishCommand {
    static let command: RunnableCommand = RunnableCommand(
        "publish", abstract: "Write the static files for web servers: Retired, AndVersion, what's new, lookup, Siren, Prince of Versions, appcast and control files.",
        discussion: "Publishes every project, or only the one given with -p/--project. Files are replaced atomically, unchanged files are left untouched, and files of an earlier publish that no longer belong are removed. DIR/index.json lists every file with its size and SHA-256, the span of time the files hold for, and per project its revision and edit stamp (moved by any change to its rows, one made with sqlite3 by hand included); a project whose revision, stamp and span still hold and whose folders are as the last publish left them is not rendered again, so a publish costs what changed, and one with nothing to do returns at once. Folder times show a file added, removed, renamed or replaced, not one edited in place: 'relctl verify' finds it, and --full renders and checks everything. Before anything is written, each client's reading of the files is compared with 'relctl check' for every install, recorded or not, now and at each coming instant the answer changes (up to 90 days, as 'relctl verify' does): a difference no declared limit explains refuses the publish when it is in force now, and is warned of, with its instant, when it comes later.",
        arguments: [Argument("DIR", help: "The directory to publish into; created when missing.", completion: .directory)],
        options: [Shared.at, Option("dry-run", short: "n", help: "List what would be added, changed and removed, and write nothing."),
                  Option("watch", help: "Keep running: publish now, after every change to the database (from any process), and at each next-change instant; one line per publish; stop with Ctrl-C or SIGTERM."),
                  Option("exec", value: "CMD", help: "With --watch: run CMD with /bin/sh after the first publish (RELCTL_REASON=start; it may have changed nothing) and after each one that changed files; the changed paths (relative to DIR) are its arguments and, one per line, in RELCTL_CHANGED; RELCTL_DIR is DIR. A CMD that fails is run again, with every path since its last success, at the next change and at the latest a minute later. CMD runs beside the watcher, which goes on publishing meanwhile (files changed while it runs are handed to its next run); it runs in a process group of its own, which is sent SIGTERM when it runs past --exec-timeout or the watcher stops, and SIGKILL 5 s later."),
                  Option("exec-timeout", value: "DURATION", help: "With --exec: how long CMD may run before it is stopped and counted as failed.", defaultValue: "10m"),
                  Option("full", help: "Render every project and compare every file with what it should be, whatever the last publish recorded: after a file was edited in place, or the database by hand. Files are still written only where they differ."),
                  Option("no-pages", help: "Do not write the status pages for people (DIR/index.html and DIR/PROJECT/status.html); ones written before are removed."),
                  Option(overrideFlag, help: "Write the files even though a client would do something other than 'relctl check' says (a relctl bug: report it). For emergencies only.")],
        examples: [Example("relctl publish ./out", "Publish every project into ./out."),
                   Example("relctl publish ./out --dry-run", "See what a publish would change."),
                   Example("relctl publish ./out --watch --exec \"relctl deploy ./out s3:bucket/updates\"", "Keep ./out current and upload what changed after each change.")]
    ) { inv in
        let dir = inv.arg("DIR")!
        if inv.flag("watch") {
            try PublishWatch.run(inv, dir: dir)
            return
        }
        if inv.flag("exec") || inv.flag("exec-timeout") {
            throw RelctlError.usage("--exec runs after each publish of --watch", hint: "add --watch, or run the command after 'relctl publish \(dir)' yourself")
        }
        let at = try inv.value("at").map(inv.time) ?? inv.now
        let dryRun = inv.flag("dry-run")
        let store = try inv.store(.read)
        let o = try publishOnce(inv, store: store, dir: dir, at: at, dryRun: dryRun)
        o.warnings.forEach(inv.warn)
        report(inv, dir: dir, dryRun: dryRun, revision: o.revision, at: at, next: o.next, added: o.added, changed: o.changed, removed: o.removed,
               unchanged: o.unchanged, limits: o.limits, disagreements: o.disagreements, rendered: o.rendered)
    }

    /// What one publish did.
    struct Outcome {
        /// For stderr, each as "warning: …".
        var warnings: [String]
        var revision: Int64
        /// The database's edit count the files were made from (Store.edits).
        var edits: Int64
        var added: [String], changed: [String], removed: [String]
        var unchanged: Int
        /// The limits as an array (publish --json's "limits").
        var limits: JSON, disagreements: [JSON]
        var next: NextChange?
        /// The projects rendered; the others' files were left as the index records them.
        var rendered: [String] = []
        var changedPaths: [String] { (added + changed + removed).sorted() }
    }

    /// Who wrote a tree: a tree another relctl wrote is rendered anew, whole.
    static let generator = "relctl \(Runner.version)"

    /// Renders the projects whose files are not current (or the one of -p),
    /// checks what each client would do, and writes the tree; a project whose
    /// revision and span in the old index still hold is left as it is, so a
    /// publish costs what changed. Warnings go to stderr.
    static func publishOnce(_ inv: Invocation, store: Store, dir: String, at: Int64, dryRun: Bool) throws -> Outcome {
        let writer = try TreeWriter(root: dir, dryRun: dryRun, lockWait: inv.context.publishLockWait)
        // The status pages: each project's from its own revision, DIR/index.html from every project's summary.
        let pages = !inv.flag("no-pages")
        let full = inv.flag("full")
        // --full trusts no recorded state.
        if !full { writer.lookAtFolders() }
        if !inv.flag("project") && !full, let outcome = try nothingToDo(writer, store: store, at: at, pages: pages) { return outcome }
        var index = PublishedIndex(generator: generator, revision: 0, validFrom: nil, nextChange: nil)
        var added: [String] = [], changed: [String] = [], unchanged = 0
        var findings: [Finding] = []
        var rendered: [String] = []
        let progress = inv.context.stderrIsTerminal && inv.context.env["TERM"] != "dumb" && !inv.quiet && !inv.json && !inv.flag("watch")
        func tally(_ outcome: TreeWriter.Outcome, _ path: String) {
            switch outcome {
            case .added: added.append(path)
            case .changed: changed.append(path)
            case .unchanged: unchanged += 1
            }
        }
        var order: [String] = []
        // Whether every project this publish leaves alone was found current:
        // only then may the tree's state vouch for it (-p keeps the others whatever they are).
        var vouched = true
        do {
            try store.read {
                // A project's snapshot, read on the connection's thread.
                func snapshot(_ slug: String) throws -> ProjectSnapshot {
                    try store.zonedSnapshot(try store.requireProject(slug), notesShownAt: at)
                }
                // The revision the last publish recorded, when this one may go by it.
                let lastRevision = full || inv.flag("project") ? nil : writer.state?.revision
                // The old index is read while the database is.
                let (all, revisions, only, prefetched) = try writer.readPrevious(thorough: full) {
                    // Slugs only: a project's row is read and checked when it is rendered, and
                    // any change to it, by hand too, moves its edit stamp, so it is rendered.
                    let all = try store.projectSlugs()
                    index.revision = try store.revision()
                    index.edits = try store.edits()
                    let revisions = try store.projectRevisions()
                    // And the projects changed since the last publish (a revision after the one its
                    // state recorded), which are rendered whatever that index says: their snapshots
                    // are read, and rendered on the other cores while the index is read.
                    var early: [String: (ProjectSnapshot, Pending<RenderedProject>)] = [:]
                    // A few: after a change to many, the pipeline below reads them while others render.
                    let changed = lastRevision.map { r in all.filter { revisions.revision($0) > r }.prefix(ParallelRender.cores) } ?? []
                    for slug in changed {
                        let s = try snapshot(slug)
                        let (page, alone) = (pages ? revisions.revision(slug) : nil, changed.count < ParallelRender.cores)
                        early[slug] = (s, Pending { ParallelRender.render(s, at: at, pageRevision: page, alone: alone) })
                    }
                    return (all, revisions, inv.flag("project") ? try store.requireProject(inv.value("project")!).slug : nil, early)
                }
                var early = prefetched
                order = all
                // The old index, when this relctl wrote it and no publish was cut short since.
                let previous = writer.previous.flatMap { $0.generator == generator && writer.unfinished.isEmpty ? $0 : nil }
                var toRender: [String] = []
                // With the state the last publish recorded, a project's files are intact when
                // its folders are; without it, each file is looked at.
                let folders = writer.folders
                for slug in all {
                    let revision = revisions.revision(slug), edits = revisions.edits[slug]
                    let record = previous?.projects[slug]
                    // Its folder's run of the old file list: kept whole, or read again when rendered.
                    let key = slug + "/"
                    let files = writer.previousRuns[key]
                    // A page published or left out as this publish wants it (--no-pages) is part of being current.
                    let pageAsWanted = (files?.contains(key + "status.html") ?? false) == pages
                    // Its files as published: by its folders' times where the state vouches for them, else file by file.
                    var intact: Bool {
                        if let folders, folders.changed.contains(slug) { return false }
                        if let folders, !folders.unsure.contains(slug) { return true }
                        // Every entry read (a run recorded over bytes that are not entries gives fewer).
                        guard let files else { return false }
                        let entries = files.entries()
                        return entries.count == files.count && entries.allSatisfy { writer.isIntact($0.path, size: $0.size) }
                    }
                    let recorded = record.map { $0.revision == revision && $0.edits == edits && $0.disagreements == 0 && $0.holds(at: at) } ?? false
                    let current = !full && recorded && pageAsWanted && files != nil && intact
                    // -p renders that project only: the others stay as published, current or not.
                    if (only == nil && !current) || slug == only {
                        toRender.append(slug)
                        continue
                    }
                    if !current { vouched = false }
                    // Its files stay as the old index lists them. With -p over a tree with no
                    // record of this project (another relctl wrote it, or a publish was cut
                    // short) too: never removed; the next full publish renders it.
                    if let record {
                        index.projects[slug] = record
                        index.verbatim[slug] = previous?.verbatim[slug]
                    }
                    if let files, record != nil || only != nil {
                        index.carried[key] = files
                        unchanged += files.count
                    }
                }
                // What is not kept whole is read, to compare the files staged now with, and to remove what is not staged again.
                writer.settlePrevious(keeping: Set(index.carried.keys))
                // Snapshots are read here, on the connection's thread, rendered on the
                // other cores, and their files staged here in project order.
                try ParallelRender.pipeline(count: toRender.count, window: ParallelRender.window, at: at, read: { i in
                    let slug = toRender[i]
                    if let (s, started) = early.removeValue(forKey: slug) { return (s, nil, started) }
                    return (try snapshot(slug), pages ? revisions.revision(slug) : nil, nil)
                }, take: { i, snapshot, result in
                    let slug = snapshot.project.slug
                    if progress { inv.context.stderr.write("\rpublishing \(i + 1)/\(toRender.count) \(slug)\u{1B}[K"); inv.context.stderr.flush() }
                    rendered.append(slug)
                    findings += result.disagreements
                    index.projects[slug] = PublishedProject(
                        revision: revisions.revision(slug), edits: revisions.edits[slug],
                        validFrom: NextChange.since(snapshot, at: at), nextChange: NextChange.after(snapshot, at: at),
                        disagreements: result.disagreements.count, warnings: result.warnings, limits: result.limits, summary: result.summary)
                    for file in result.files {
                        // --full compares every file's bytes, whatever its size and time say.
                        tally(try writer.stage(file.path, file.bytes, sha256: full ? nil : file.sha256), file.path)
                        index.files[file.path] = (file.bytes.count, file.sha256)
                    }
                    // While more projects render, and the index is made, the disk writes these out.
                    writer.flushAhead()
                })
                if progress { inv.context.stderr.write("\r\u{1B}[K") }
            }
            index.settleSpan(projectOrder: order)
            // Files at DIR's root rendered from every project go here, after the
            // projects and before index.json (staged last, apart): staged on
            // every publish, since only project folders are kept from the old index.
            if pages {
                let html = StatusIndex.render(order.compactMap { index.projects[$0]?.summary }, revision: index.revision)
                let sha = SHA256.hex(html)
                tally(try writer.stage("index.html", html, sha256: sha), "index.html")
                index.files["index.html"] = (html.count, sha)
            }
            // What the previous index and an unfinished publish's journal name, and this tree does not.
            let stale = Set(writer.previousIndex.keys.filter { index.files[$0] == nil }).union(writer.unfinished.filter { !index.lists($0) }).sorted()
            let disagreements = findings.filter(\.isDisagreement)
            if let first = disagreements.first, !dryRun && !inv.flag(overrideFlag) {
                throw RelctlError.failure("refusing to publish: \(disagreements.count) client decision\(disagreements.count == 1 ? "" : "s") would differ from 'relctl check', first \(FindingsReport.disagreementLine(first)); nothing was written",
                                          hint: "'relctl publish \(dir) --dry-run' lists them all; this is a relctl bug, please report it; --\(overrideFlag) writes the files anyway")
            }
            // Staged last, so renamed last: a reader of the new index finds every file it lists.
            let indexFile = IndexFormat.located(index)
            tally(try writer.stage("index.json", indexFile.bytes), "index.json")
            // What the publish says, and records for the next one, is worked out while the commit waits for the disk.
            nonisolated(unsafe) let tree = index
            // Limits the tree's last index already announced are not said again (--json and verify carry them all).
            let known = Set((writer.previous?.projects ?? [:]).flatMap { slug, p in p.limits.map { limitKey(slug, $0) } })
            let saying = Pending { [order] in
                let (warnings, limits) = said(tree, order: order, known: known)
                return (warnings: warnings, limits: limits, last: LastPublish(of: tree, generator: generator, warnings: warnings, limits: limits)?.bytes)
            }
            let removed = try writer.commit(removing: stale)
            // The files are in place: the log is written while the tree's state is recorded.
            let logged = DispatchGroup()
            if !dryRun && !(added.isEmpty && changed.isEmpty && removed.isEmpty) {
                let (path, user, now, revision) = (inv.dbPath, inv.context.user, inv.now, index.revision)
                let line = (added: added.count, changed: changed.count, removed: removed.count)
                DispatchQueue.global().async(group: logged) {
                    // The log is a courtesy: a database this user may only read still publishes.
                    if let log = try? Store(path: path, mode: .write, user: user) {
                        try? log.logPublish(dir: dir, revision: revision, added: line.added, changed: line.changed, removed: line.removed, now: now)
                    }
                }
            }
            let words = saying.value
            var (warnings, limits) = (words.warnings, words.limits)
            writer.finish(index: index, fileList: indexFile.fileList, runs: indexFile.runs, last: words.last, vouched: vouched)
            logged.wait()
            if !disagreements.isEmpty {
                if dryRun { warnings += disagreements.map { "would differ from 'relctl check': " + FindingsReport.disagreementLine($0) } }
                else { warnings.append("\(disagreements.count) client decisions differ from 'relctl check'; written anyway (--\(overrideFlag))") }
            }
            return Outcome(warnings: warnings, revision: index.revision, edits: index.edits, added: added, changed: changed, removed: removed, unchanged: unchanged,
                           limits: .raw(limits), disagreements: disagreements.map(FindingsReport.json), next: index.nextChange, rendered: rendered)
        } catch {
            writer.abort()
            throw error
        }
    }

    /// What every project in the tree says, rendered now or before, in
    /// project order: its warnings, and the limits of its formats (a
    /// compact JSON array).
    /// `known`: limits (limitKey) said before, by the publish that wrote the tree's last index: only new
    /// and changed ones are said, each once per cause and tree revision.
    static func said(_ index: PublishedIndex, order: [String], known: Set<String> = []) -> (warnings: [String], limits: [UInt8]) {
        let published = order.compactMap { slug in index.projects[slug].map { (slug, $0) } }
        let limits = published.flatMap { slug, p in p.limits.map { (project: slug, limit: $0) } }
        let new = limits.filter { !known.contains(limitKey($0.project, $0.limit)) }
        return (published.flatMap(\.1.warnings) + FindingsReport.limitLines(new).map { "not carried: " + $0 },
                Array(JSON.array(limits.map { FindingsReport.json(project: $0.project, $0.limit) }).compactBytes().dropLast()))
    }

    /// The outcome of a publish with nothing to do, found without reading
    /// index.json or rendering: the tree is as the last publish recorded
    /// it (its state names this index.json, no publish was cut short, no
    /// folder changed), that publish was this relctl's, with the pages as
    /// wanted and no disagreement, the database has had no change since, and
    /// `at` is inside the span the files hold for. It says what that
    /// publish said (LastPublish). Nil: publish as usual.
    static func nothingToDo(_ writer: TreeWriter, store: Store, at: Int64, pages: Bool) throws -> Outcome? {
        guard let state = writer.state, let recorded = state.last, (state.rootFiles["index.html"] != nil) == pages else { return nil }
        // Slugs only, as a publish that renders reads them.
        let read: (Int64, Int64, [String], Revisions)? = try store.read {
            let revision = try store.revision()
            return revision == state.revision ? (revision, try store.edits(), try store.projectSlugs(), try store.projectRevisions()) : nil
        }
        guard let (revision, edits, order, revisions) = read, let last = LastPublish(bytes: recorded), last.generator == generator, last.edits == edits,
              PublishedProject.span(last.validFrom, last.nextChange, contains: at), Set(order) == Set(last.projects.keys),
              // Each project as recorded: another database at the same revision is not this one.
              last.projects.allSatisfy({ $0.value.revision == revisions.revision($0.key) && $0.value.edits == revisions.edits[$0.key] })
        else { return nil }
        guard writer.asRecorded else { return nil }
        // Limits were said by the publish that wrote the tree; --json still carries them.
        return Outcome(warnings: last.warnings.filter { !$0.hasPrefix("not carried: ") }, revision: revision, edits: edits, added: [], changed: [], removed: [], unchanged: state.files,
                       limits: .raw(last.limits), disagreements: [], next: last.nextChange)
    }

    static func limitKey(_ project: String, _ l: Limit) -> String { "\(project)\u{0}\(l.platform)\u{0}\(l.client.rawValue)\u{0}\(l.intent)\u{0}\(l.reason)" }

    /// Named so that nobody types it by accident.
    static let overrideFlag = "publish-despite-disagreements"

    static func report(_ inv: Invocation, dir: String, dryRun: Bool, revision: Int64, at: Int64, next: NextChange?,
                       added: [String], changed: [String], removed: [String], unchanged: Int, limits: JSON, disagreements: [JSON], rendered: [String]) {
        let total = added.count + changed.count + unchanged
        // One shape for a publish and its dry run: the paths added, changed and removed, and counts.
        let document: JSON = .object(["dir": .string(dir), "dryRun": .bool(dryRun), "revision": .int(revision), "files": .int(total),
                                      "added": .array(added.sorted().map { .string($0) }), "changed": .array(changed.sorted().map { .string($0) }),
                                      "removed": .array(removed.map { .string($0) }), "unchanged": .int(unchanged), "limits": limits,
                                      "disagreements": .array(disagreements), "nextChange": IndexFormat.json(next),
                                      "rendered": .array(rendered.map { .string($0) })])
        if dryRun {
            inv.render(document) {
                added.sorted().map { "add     \($0)\n" }.joined() + changed.sorted().map { "change  \($0)\n" }.joined()
                    + removed.map { "remove  \($0)\n" }.joined()
            }
            inv.info("dry run: \(added.count) to add, \(changed.count) to change, \(removed.count) to remove, \(unchanged) unchanged; nothing written")
            inv.info(nextLine(next, at: at, inv: inv))
            return
        }
        inv.render(document) { "" }
        if added.isEmpty && changed.isEmpty && removed.isEmpty {
            inv.info("nothing written: the \(total) files in \(dir) are already what this publish makes (revision \(revision))")
        } else {
            inv.info("published \(total) files to \(dir) (revision \(revision)): \(added.count) added, \(changed.count) changed, \(removed.count) removed, \(unchanged) unchanged")
        }
        inv.info(nextLine(next, at: at, inv: inv))
    }

    /// When the files go stale by themselves, and what to do then.
    static func nextLine(_ next: NextChange?, at: Int64, inv: Invocation) -> String {
        guard let next else { return "no change ahead: the files stay current until the database changes" }
        return "next change at \(PeopleTime.format(next.at, now: at, timeZone: inv.timeZone)) (\(next.because)): publish again then"
    }
}

