import RelctlCore
import RelctlStore

/// `relctl publish DIR`: the static files client libraries download.
enum PublishCommand {
    static let command: RunnableCommand = RunnableCommand(
        "publish", abstract: "Write the static files for web servers: Retired, AndVersion, what's new, lookup, Siren, Prince of Versions, appcast and control files.",
        discussion: "Publishes every project, or only the one given with -p/--project. Files are replaced atomically, unchanged files are left untouched, and files of an earlier publish that no longer belong are removed. DIR/index.json lists every file with its size and SHA-256.",
        arguments: [Argument("DIR", help: "The directory to publish into; created when missing.", completion: .directory)],
        options: [Shared.at, Option("dry-run", short: "n", help: "List what would be added, changed and removed, and write nothing."),
                  Option("watch", help: "Keep running: publish now, after every change to the database (from any process), and at each next-change instant; one line per publish; stop with Ctrl-C or SIGTERM."),
                  Option("exec", value: "CMD", help: "With --watch: run CMD with /bin/sh after each publish that changed files; the changed paths (relative to DIR) are its arguments and, one per line, in RELCTL_CHANGED; RELCTL_DIR is DIR."),
                  Option("no-pages", help: "Do not write the status pages for people (DIR/index.html and DIR/PROJECT/status.html); ones written before are removed."),
                  Option(overrideFlag, help: "Write the files even though a client would do something other than 'relctl check' says (a relctl bug: report it). For emergencies only.")],
        examples: [Example("relctl publish ./out", "Publish every project into ./out."),
                   Example("relctl publish ./out --dry-run", "See what a publish would change."),
                   Example("relctl publish ./out --watch --exec \"rclone copy ./out remote:updates\"", "Keep ./out current and sync it after each change.")]
    ) { inv in
        let dir = inv.arg("DIR")!
        if inv.flag("watch") {
            try PublishWatch.run(inv, dir: dir)
            return
        }
        if inv.flag("exec") {
            throw RelctlError.usage("--exec runs after each publish of --watch", hint: "add --watch, or run the command after 'relctl publish \(dir)' yourself")
        }
        let at = try inv.value("at").map(inv.time) ?? inv.now
        let dryRun = inv.flag("dry-run")
        let store = try inv.store(.read)
        let o = try publishOnce(inv, store: store, dir: dir, at: at, dryRun: dryRun)
        o.warnings.forEach(inv.warn)
        report(inv, dir: dir, dryRun: dryRun, revision: o.revision, at: at, next: o.next, added: o.added, changed: o.changed, removed: o.removed,
               unchanged: o.unchanged, limits: o.limits, disagreements: o.disagreements)
    }

    /// What one publish did.
    struct Outcome {
        /// For stderr, each as "warning: …".
        var warnings: [String]
        var revision: Int64
        var added: [String], changed: [String], removed: [String]
        var unchanged: Int
        var limits: [JSON], disagreements: [JSON]
        var next: NextChange?
        var changedPaths: [String] { (added + changed + removed).sorted() }
    }

    /// Renders every project (or the one of -p) at `at`, checks what each
    /// client would do, and writes the tree; warnings go to stderr.
    static func publishOnce(_ inv: Invocation, store: Store, dir: String, at: Int64, dryRun: Bool) throws -> Outcome {
        let writer = try TreeWriter(root: dir, dryRun: dryRun, lockWait: inv.context.publishLockWait)
        var entries: [String: (size: Int, sha256: String)] = [:]
        var added: [String] = [], changed: [String] = [], unchanged = 0
        var warnings: [String] = []
        var findings: [Finding] = []
        let progress = inv.context.stderrIsTerminal && inv.context.env["TERM"] != "dumb" && !inv.quiet && !inv.json && !inv.flag("watch")
        func tally(_ outcome: TreeWriter.Outcome, _ path: String) {
            switch outcome {
            case .added: added.append(path)
            case .changed: changed.append(path)
            case .unchanged: unchanged += 1
            }
        }
        let revision: Int64
        var next: NextChange? = nil
        // The status pages: each project's from its own revision, DIR/index.html from every project's summary.
        let pages = !inv.flag("no-pages")
        var summaries: [StatusSummary] = []
        do {
            revision = try store.read {
                let all = try store.projects()
                var projects = all
                func noteNext(_ snapshot: ProjectSnapshot) {
                    let n = NextChange.after(snapshot, at: at)
                    next = NextChange.earliest(next, all.count > 1 ? n?.naming(snapshot.project.slug) : n)
                }
                if inv.flag("project") {
                    let slug = inv.value("project")!
                    projects = [try store.requireProject(slug)]
                    entries = writer.previousIndex.filter { !$0.key.hasPrefix(slug + "/") }
                    // The index speaks for the whole tree: the others' next changes count too.
                    for other in all where other.slug != slug {
                        let snapshot = try store.zonedSnapshot(other)
                        noteNext(snapshot)
                        if pages { summaries.append(StatusSummary(snapshot, at: at)) }
                    }
                }
                // Snapshots are read here, on the connection's thread; a batch
                // renders in parallel; its files are staged in order.
                let revisions = pages ? try store.projectRevisions() : nil
                let batchSize = 8
                for start in stride(from: 0, to: projects.count, by: batchSize) {
                    let batch = projects[start..<min(start + batchSize, projects.count)]
                    if progress { inv.context.stderr.write("\rpublishing \(start + batch.count)/\(projects.count) \(batch.last!.slug)\u{1B}[K"); inv.context.stderr.flush() }
                    let snapshots = try batch.map { try store.zonedSnapshot($0) }
                    snapshots.forEach(noteNext)
                    for rendered in try ParallelRender.render(snapshots, at: at, revisions: revisions) {
                        warnings += rendered.warnings
                        if let summary = rendered.summary { summaries.append(summary) }
                        findings += rendered.findings
                        for file in rendered.files {
                            tally(try writer.stage(file.path, file.bytes, sha256: file.sha256), file.path)
                            entries[file.path] = (file.bytes.count, file.sha256)
                        }
                    }
                }
                if progress { inv.context.stderr.write("\r\u{1B}[K") }
                return try store.revision()
            }
            if pages {
                let html = StatusIndex.render(summaries, revision: revision)
                let sha = SHA256.hex(html)
                tally(try writer.stage("index.html", html, sha256: sha), "index.html")
                entries["index.html"] = (html.count, sha)
            }
            // What the previous index and an unfinished publish's journal name, and this tree does not.
            let stale = Set(writer.previousIndex.keys).union(writer.unfinished).filter { entries[$0] == nil }.sorted()
            // Staged last, so renamed last: a reader of the new index finds every file it lists.
            let disagreements = findings.filter(\.isDisagreement)
            if let first = disagreements.first, !dryRun && !inv.flag(overrideFlag) {
                throw RelctlError.failure("refusing to publish: \(disagreements.count) client decision\(disagreements.count == 1 ? "" : "s") would differ from 'relctl check', first \(FindingsReport.disagreementLine(first)); nothing was written",
                                          hint: "'relctl publish \(dir) --dry-run' lists them all; this is a relctl bug, please report it; --\(overrideFlag) writes the files anyway")
            }
            tally(try writer.stage("index.json", IndexFormat.render(revision: revision, at: at, nextChange: next, entries: entries)), "index.json")
            let removed = try writer.commit(removing: stale)
            let limits = FindingsReport.limits(findings)
            warnings += FindingsReport.limitLines(limits).map { "not carried: " + $0 }
            if !disagreements.isEmpty {
                if dryRun { warnings += disagreements.map { "would differ from 'relctl check': " + FindingsReport.disagreementLine($0) } }
                else { warnings.append("\(disagreements.count) client decisions differ from 'relctl check'; written anyway (--\(overrideFlag))") }
            }
            if !dryRun && !(added.isEmpty && changed.isEmpty && removed.isEmpty) {
                // The log is a courtesy: a database this user may only read still publishes.
                if let log = try? Store(path: inv.dbPath, mode: .write, user: inv.context.user) {
                    try? log.logPublish(dir: dir, revision: revision, added: added.count, changed: changed.count, removed: removed.count, now: inv.now)
                }
            }
            return Outcome(warnings: warnings, revision: revision, added: added, changed: changed, removed: removed, unchanged: unchanged,
                           limits: limits.map { FindingsReport.json(project: $0.project, $0.limit) }, disagreements: disagreements.map(FindingsReport.json),
                           next: next)
        } catch {
            writer.abort()
            throw error
        }
    }

    /// Named so that nobody types it by accident.
    static let overrideFlag = "publish-despite-disagreements"

    static func report(_ inv: Invocation, dir: String, dryRun: Bool, revision: Int64, at: Int64, next: NextChange?,
                       added: [String], changed: [String], removed: [String], unchanged: Int, limits: [JSON], disagreements: [JSON]) {
        let total = added.count + changed.count + unchanged
        // One shape for a publish and its dry run: the paths added, changed and removed, and counts.
        let document: JSON = .object(["dir": .string(dir), "dryRun": .bool(dryRun), "revision": .int(revision), "files": .int(total),
                                      "added": .array(added.sorted().map { .string($0) }), "changed": .array(changed.sorted().map { .string($0) }),
                                      "removed": .array(removed.map { .string($0) }), "unchanged": .int(unchanged), "limits": .array(limits),
                                      "disagreements": .array(disagreements), "nextChange": IndexFormat.json(next)])
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
        inv.info("published \(total) files to \(dir) (revision \(revision)): \(added.count) added, \(changed.count) changed, \(removed.count) removed, \(unchanged) unchanged")
        inv.info(nextLine(next, at: at, inv: inv))
    }

    /// When the files go stale by themselves, and what to do then.
    static func nextLine(_ next: NextChange?, at: Int64, inv: Invocation) -> String {
        guard let next else { return "no change ahead: the files stay current until the database changes" }
        return "next change at \(PeopleTime.format(next.at, now: at, timeZone: inv.timeZone)) (\(next.because)): publish again then"
    }
}
