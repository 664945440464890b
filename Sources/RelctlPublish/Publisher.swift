import Dispatch
import RelctlCore
import RelctlStore

/// One publish of a database into DIR, what `relctl publish` does and
/// `publish --watch` at each change: the projects whose files are not
/// current (or the one asked for) are rendered on every core, what each
/// client does with them is checked, and the tree is written.
public enum Publisher {
    /// What a publish is asked to do.
    public struct Request {
        public var dir: String
        /// The instant the files are for.
        public var at: Int64
        public var dryRun = false
        /// Render and compare everything, trusting no recorded state.
        public var full = false
        /// The status pages (DIR/index.html, DIR/PROJECT/status.html).
        public var pages = true
        /// One project to render (its slug as given); the others stay as published.
        public var project: String? = nil
        /// Write the files though a client would differ from `check` (an emergency).
        public var despiteDisagreements = false
        /// How long to wait for another publish writing DIR, in seconds.
        public var lockWait = 10.0
        /// Asked while waiting for that publish: true gives up at once (a watcher told to stop).
        public var stopWaiting: @Sendable () -> Bool = { false }
        /// Who writes the tree ("relctl 1.2.3"): a tree another relctl wrote is rendered anew.
        public var generator: String
        /// The database's own log of publishes, written after the files are in place (nil: none).
        public var log: (path: String, user: String, now: Int64)? = nil
        /// Told of each project as it is taken (its index, the count and its slug), and
        /// once more with no slug when all are.
        public var progress: ((Int, Int, String?) -> Void)? = nil
        /// The private keys to sign with: each project that trusts keys is signed by those of them it trusts, and refused when none.
        public var signingKeys: [SigningKey] = []
        /// The clock signatures are issued at, whatever instant the files are for (--at); nil: `at`.
        public var now: Int64? = nil
        /// Gives a snapshot the UTC offsets its messages need (the system's zone database).
        public var fillZone: (inout ProjectSnapshot) -> Void = { _ in }
        /// The size of the pieces index.json is written in (tests make them small, to cut a small tree's index).
        package var indexPiece = 1 << 20

        public init(dir: String, at: Int64, generator: String) { self.dir = dir; self.at = at; self.generator = generator }
    }

    /// A publish refused: a client would do something other than `check` says
    /// (a relctl bug). Nothing was written.
    public struct Refused: Error {
        public var disagreements: [Finding]
    }

    /// What one publish did.
    public struct Outcome: Sendable {
        /// For stderr, each as "warning: …".
        public var warnings: [String]
        public var revision: Int64
        /// The database's edit count the files were made from (Store.edits).
        public var edits: Int64
        public var added: PathList, changed: PathList, removed: [String]
        public var unchanged: Int
        /// The limits as an array (publish --json's "limits").
        public var limits: JSON, disagreements: [JSON]
        public var next: NextChange?
        /// The projects rendered; the others' files were left as the index records them.
        public var rendered: [String] = []
        public var changedPaths: [String] { (added.paths + changed.paths + removed).sorted() }
    }

    /// DIR made if need be and locked, its state read, and (but with --full,
    /// which trusts no recorded state) the folders that state records looked
    /// at on another core: the first phase of `publish`, which a caller may
    /// take before it opens the database (PublishCommand.earlyLock).
    public static func lock(_ request: Request) throws -> TreeLock {
        let lock = try TreeLock(root: request.dir, dryRun: request.dryRun, lockWait: request.lockWait, stopWaiting: request.stopWaiting)
        if !request.full { lock.lookAtFolders() }
        return lock
    }

    /// Renders the projects whose files are not current (or the one of -p),
    /// checks what each client would do, and writes the tree; a project whose
    /// revision and span in the old index still hold is left as it is, so a
    /// publish costs what changed. Warnings go to stderr.
    /// `lock`: DIR as `lock(_:)` took it (the database opened meanwhile); taken here when nil.
    public static func publish(_ request: Request, store: Store, lock: TreeLock? = nil) throws -> Outcome {
        let (dir, at, dryRun, generator) = (request.dir, request.at, request.dryRun, request.generator)
        precondition(lock.map { $0.dryRun == dryRun && $0.root == TreeLock.root(of: dir) } ?? true, "a lock taken for another publish")
        let lock = try lock ?? Publisher.lock(request)
        // The status pages: each project's from its own revision, DIR/index.html from every project's summary.
        let pages = request.pages
        // Projects that trust keys are signed on the cores that render them, each file hashed once.
        let signing = Signing.Request(keys: request.signingKeys, dir: dir, now: request.now ?? at, dryRun: dryRun)
        let full = request.full
        var staging: Staging?
        do {
            // Projects signed by other keys than those given now (a move to the backup key): rendered again.
            let resign = request.signingKeys.isEmpty ? [] : Signing.resigned(try store.read { try store.projects() }, keys: request.signingKeys, dir: dir)
            if request.project == nil && !full && resign.isEmpty,
               let outcome = try nothingToDo(lock, store: store, at: at, pages: pages, generator: generator) { return outcome }
            var index = PublishedIndex(generator: generator, revision: 0, validFrom: nil, nextChange: nil)
            var added = PathList(), changed = PathList(), unchanged = 0
            var findings: [Finding] = []
            var rendered: [String] = []
            func tally(_ outcome: Staging.Outcome, _ path: String) {
                switch outcome {
                case .added: added.append(path)
                case .changed: changed.append(path)
                case .unchanged: unchanged += 1
                }
            }
            var order: [String] = []
            var plan: IncrementalPlan!
            try store.read {
                // A project's snapshot, read on the connection's thread.
                func snapshot(_ slug: String) throws -> ProjectSnapshot {
                    var s = try store.snapshot(try store.requireProject(slug), notesShownAt: at)
                    request.fillZone(&s)
                    return s
                }
                // The revision the last publish recorded, when this one may go by it.
                let lastRevision = full || request.project != nil ? nil : lock.state?.revision
                // The old index is read while the database is.
                let (previous, (all, revisions, only, prefetched)) = try lock.readPrevious(thorough: full) {
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
                        let alone = changed.count < ParallelRender.cores
                        early[slug] = (s, Pending { ParallelRender.render(s, at: at, page: pages, alone: alone, signing: signing) })
                    }
                    return (all, revisions, try request.project.map { try store.requireProject($0).slug }, early)
                }
                var early = prefetched
                order = all
                plan = IncrementalPlan(.init(projects: all, revisions: revisions, previous: previous.reusable(generator: generator, unfinished: lock.unfinished),
                                             runs: previous.runs, folders: previous.folders, at: at, full: full, pages: pages, only: only, resign: resign),
                                       isIntact: { previous.isIntact($0, size: $1) })
                index.projects = plan.kept
                // Kept without being found current (-p): the state keeps their stamps and does not vouch for them.
                for slug in plan.unvouched { index.projects[slug]?.vouched = false }
                index.verbatim = plan.verbatim
                index.carried = plan.carried
                unchanged += plan.unchanged
                let toRender = plan.render
                let stage = Staging(previous: previous, plan: plan)
                staging = stage
                // Someone else's index.json or page refuses it before anything is staged; the staging
                // is made first so that the abort still sweeps what a publish cut short left.
                try previous.refuseForeign(pages: pages)
                // The runs of the projects rendered wait on the disk, not in memory (a dry run writes nothing in DIR).
                if !dryRun { index.spill = RunSpill(in: lock.root) }
                // Snapshots are read here, on the connection's thread, rendered on the
                // other cores, and their files staged here in project order.
                // Fewer projects than cores: each one's platforms are rendered at once.
                let alone = toRender.count < ParallelRender.cores
                try ParallelRender.pipeline(count: toRender.count, window: ParallelRender.window, weight: { $0.files.reduce(0) { $0 + $1.bytes.count } }, read: { i in
                    let slug = toRender[i]
                    if let (s, started) = early.removeValue(forKey: slug) { return (s, started) }
                    return (try snapshot(slug), nil)
                }, work: { ParallelRender.render($0, at: at, page: pages, alone: alone, signing: signing) }, take: { i, snapshot, result in
                    let slug = snapshot.project.slug
                    request.progress?(i, toRender.count, slug)
                    rendered.append(slug)
                    findings += result.disagreements
                    var next = NextChange.after(snapshot, at: at)
                    precondition(snapshot.project.trustedKeys.isEmpty || result.signed != nil, "a project that trusts keys rendered without signing")
                    if let seal = try result.signed?.get() {
                        // Signed again before the signature lapses.
                        let renew = max(at, seal.issuedAt) + Signing.renewAfter, cause = "the signature of \(slug)'s files is renewed"
                        if next == nil || renew < next!.at { next = NextChange(at: renew, causes: [cause]) }
                        else if renew == next!.at { next!.causes.append(cause) }
                    }
                    index.projects[slug] = PublishedProject(
                        revision: revisions.revision(slug), edits: revisions.edits[slug],
                        validFrom: NextChange.since(snapshot, at: at), nextChange: next,
                        disagreements: result.disagreements.count, warnings: result.warnings, limits: result.limits, summary: result.summary)
                    var listed: [String: (size: Int, sha256: String)] = [:]
                    for file in result.files {
                        // --full compares every file's bytes, whatever its size and time say.
                        tally(try stage.stage(file.path, file.bytes, sha256: full ? nil : file.sha256), file.path)
                        listed[file.path] = (file.bytes.count, file.sha256)
                    }
                    try index.list(listed)
                    // While more projects render, and the index is made, the disk writes these out.
                    stage.flushAhead()
                    if rendered.count % 64 == 0 { FreedMemory.handBack() }
                })
                request.progress?(toRender.count, toRender.count, nil)
            }
            guard let stage = staging else { preconditionFailure("staging begins inside the read") }
            index.settleSpan(projectOrder: order)
            // Files at DIR's root rendered from every project go here, after the
            // projects and before index.json (staged last, apart): staged on
            // every publish, since only project folders are kept from the old index.
            if pages {
                let html = StatusIndex.render(order.compactMap { index.projects[$0]?.summary })
                let sha = SHA256.hex(html)
                tally(try stage.stage("index.html", html, sha256: sha), "index.html")
                index.files["index.html"] = (html.count, sha)
            }
            let stale = try plan.stale(for: index, unfinished: lock.unfinished)
            let disagreements = findings.filter(\.isDisagreement)
            if !disagreements.isEmpty, !dryRun && !request.despiteDisagreements { throw Refused(disagreements: disagreements) }
            // Staged last, so renamed last: a reader of the new index finds every file it lists.
            if rendered.count > 64 && rendered.count % 64 != 0 { FreedMemory.handBack() }
            let (indexOutcome, indexFile) = try stage.stageIndex { try IndexFormat.write(&index, piece: request.indexPiece, to: $0) }
            tally(indexOutcome, "index.json")
            // Closed before the commit flushes the disk: the pages of a file nobody names are dropped, not written.
            index.spill = nil
            // What the runs left, handed back before the state is worked out beside the commit.
            if rendered.count > 64 { FreedMemory.handBack() }
            // What the publish says, and records for the next one, is worked out while the commit waits for the disk.
            nonisolated(unsafe) let tree = index
            // Limits the tree's last index already announced are not said again (--json and verify carry them all).
            // A project not rendered keeps that index's entry, so only those rendered can say a new one.
            let old = stage.previous.index?.projects ?? [:]
            let known = Set(rendered.flatMap { slug in (old[slug]?.limits ?? []).map { limitKey(slug, $0) } })
            let saying = Pending { [order, rendered] in
                let (warnings, limits) = said(tree, order: order, known: known, fresh: Set(rendered), dir: dir)
                return (warnings: warnings, limits: limits,
                        last: LastPublish(of: tree, generator: generator, warnings: warnings, limits: limits, indexSha256: indexFile.sha256).bytes)
            }
            let committed = try stage.commit(removing: stale)
            let removed = committed.removed
            // The files are in place: the log is written while the tree's state is recorded.
            let logged = DispatchGroup()
            if !dryRun && !(added.isEmpty && changed.isEmpty && removed.isEmpty), let (path, user, now) = request.log {
                let revision = index.revision
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
            // The state vouches for the projects found current: not those kept without looking (-p).
            committed.finish(index: index, fileList: indexFile.fileList, runs: indexFile.runs, last: words.last)
            logged.wait()
            // Written anyway (Request.despiteDisagreements): `disagreements` says so, and the caller how it was asked.
            if !disagreements.isEmpty && dryRun { warnings += disagreements.map { "would differ from 'relctl check': " + FindingsReport.disagreementLine($0) } }
            return Outcome(warnings: warnings, revision: index.revision, edits: index.edits, added: added, changed: changed, removed: removed, unchanged: unchanged,
                           limits: .raw(limits), disagreements: disagreements.map(FindingsReport.json), next: index.nextChange, rendered: rendered)
        } catch {
            staging?.abort()
            lock.takeBack()
            throw error
        }
    }

    /// What every project in the tree says, rendered now or before, in
    /// project order: its warnings, and the limits of its formats (a
    /// compact JSON array).
    /// `known`: limits (limitKey) said before, by the publish that wrote the tree's last index: only new
    /// and changed ones are said, each once per cause and tree revision.
    /// `fresh`: the projects whose entries this publish made; the others' limits were all said before.
    package static func said(_ index: PublishedIndex, order: [String], known: Set<String>, fresh: Set<String>, dir: String) -> (warnings: [String], limits: [UInt8]) {
        let published = order.compactMap { slug in index.projects[slug].map { (slug, $0) } }
        let limits = published.flatMap { slug, p in p.limits.map { (project: slug, limit: $0) } }
        let new = limits.filter { fresh.contains($0.project) && !known.contains(limitKey($0.project, $0.limit)) }
        let seeAll = "each project's: relctl status -p SLUG; every one: relctl verify \(dir.shellWord) --json"
        // The array written a limit at a time: for a thousand projects, the whole
        // array as JSON values at once was megabytes of a publish's peak.
        var bytes: [UInt8] = [91]
        for (i, l) in limits.enumerated() {
            if i > 0 { bytes.append(44) }
            FindingsReport.json(project: l.project, l.limit).writeCompact(to: &bytes)
        }
        bytes.append(93)
        return (published.flatMap(\.1.warnings) + FindingsReport.limitLines(new, seeAll: seeAll).map { "not carried: " + $0 }, bytes)
    }

    /// The outcome of a publish with nothing to do, found without rendering
    /// or reading index.json (but the runs of projects whose folders were
    /// written just before the state was recorded: TreeState.filesHold): the
    /// tree is as the last publish recorded it (its state names this
    /// index.json, no publish was cut short, no folder changed, no temporary
    /// at DIR's root), that publish was this relctl's, with the pages as
    /// wanted and no disagreement, the database has had no change since, and
    /// `at` is inside the span the files hold for. It says what that
    /// publish said (LastPublish). Nil: publish as usual.
    package static func nothingToDo(_ lock: TreeLock, store: Store, at: Int64, pages: Bool, generator: String) throws -> Outcome? {
        guard let state = lock.state, let recorded = state.last, (state.rootFiles["index.html"] != nil) == pages,
              let last = LastPublish(bytes: recorded), last.generator == generator,
              // A project kept without being looked at (-p), or whose files differed from check, is rendered.
              last.projects.values.allSatisfy(\.vouched) else { return nil }
        let tree = TreeCurrency.Record(state: state, last: last)
        // A database at another revision is not the one the tree was made from: read no further.
        guard let db = try store.read({ try store.revision() == state.revision ? try TreeCurrency.Database.current(store) : nil }) else { return nil }
        guard TreeCurrency.staleness(tree, database: db, at: at).isEmpty, lock.asRecorded else { return nil }
        lock.recordAgain()
        let (revision, edits) = (db.revision, db.edits)
        // Limits were said by the publish that wrote the tree; --json still carries them.
        return Outcome(warnings: last.warnings.filter { !$0.hasPrefix("not carried: ") }, revision: revision, edits: edits, added: PathList(), changed: PathList(), removed: [], unchanged: state.files,
                       limits: .raw(last.limits), disagreements: [], next: last.nextChange)
    }

    package static func limitKey(_ project: String, _ l: Limit) -> String { "\(project)\u{0}\(l.platform)\u{0}\(l.client.rawValue)\u{0}\(l.intent)\u{0}\(l.reason)" }
}
