#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import RelctlCore
import RelctlPublish
import RelctlStore

/// `relctl deploy DIR REMOTE`: hands a published tree to rclone, which
/// speaks to every object store (S3, R2, GCS, Azure, …) and to local paths.
/// relctl decides what to send and in which order; rclone sends it.
///
/// What changed is what DIR/index.json lists differently from the remote's
/// index.json (size and SHA-256), so nothing is listed or hashed remotely
/// beyond the files named. The order keeps a reader from ever seeing half a
/// release: data files first, then control.json files, then index.json, and
/// files that no longer belong only after that. A failed step stops there,
/// before index.json: the remote still names the previous release, and the
/// same command again uploads what is still missing (rclone compares
/// checksums, so what arrived is not sent twice).
enum DeployCommand {
    static let command: RunnableCommand = RunnableCommand(
        "deploy", abstract: "Upload a published tree to object storage or a folder with rclone: changed files first, index.json last, with cache headers.",
        discussion: "DIR is a tree 'relctl publish' wrote; REMOTE is anything rclone takes (s3:bucket/updates, r2:bucket, a local path). The files that differ from the remote's index.json are uploaded (checked against the remote's checksums, unless it is empty), data files first, then control.json files, then index.json, and files that no longer belong are deleted last. Each file gets Content-Type (application/json; application/rss+xml for appcasts; text/html for the status pages) and a Cache-Control max-age by class: control.json, index.json and the status pages 60 s, Retired, AndVersion, Siren, Prince of Versions and appcast files 300 s, what's-new and lookup files 3600 s, never past the next change index.json names. The changed paths are printed (and written with --changed-list) for a CDN invalidation. A failed upload leaves the remote's index.json as it was; run the same command again to finish. Ctrl-C, SIGTERM or SIGHUP stops it, and the rclone step it is in, leaving the remote as a failure there would; it says where it stopped, then ends by that signal. Stopped while pushing, it first lists the changed paths and finishes the remote's record, the pushes not sent owed to the next deploy --push. The deletions are recorded in the remote's relctl-releases.json before index.json is sent, so a deploy that fails or is killed after index.json leaves them to the next deploy to that remote, from any folder on any machine, which makes them. Files at the remote that relctl did not deploy are never replaced: an index.json there that a relctl did not write, or a file at a path this tree holds that the remote's index.json does not list (a site's index.html) and no deploy recorded sending or deleting, refuses the deploy, named, before anything is sent (an index.json cut short where relctl's record names a release, or none there beside such a record, leaves nothing to tell files by: the remote is then taken as relctl's). rclone's settings from the environment that would have it send nothing, less or elsewhere and succeed are overridden (RCLONE_DRY_RUN, RCLONE_MAX_DEPTH, RCLONE_IGNORE_EXISTING, RCLONE_UPDATE, RCLONE_SIZE_ONLY, RCLONE_INTERACTIVE) or left out (RCLONE_BACKUP_DIR, RCLONE_SUFFIX, RCLONE_COMPARE_DEST, RCLONE_COPY_DEST, RCLONE_FILES_FROM, RCLONE_DISCARD, RCLONE_ERROR_ON_NO_TRANSFER). The paths a deploy sends that the remote's index.json does not list are recorded in relctl-releases.json before the first of them, so files a deploy cut short left are the next one's to replace, or to delete when its tree lacks them. A tree past its next change or published for a later instant is not sent, nor one from a database that lacks a change the remote's release was made from. The remote keeps a record (relctl-releases.json, sent just before index.json) of the releases it served and of the revision of every part of the configuration its release was made from (each change to a project's settings, a platform, a version, a window or a locale's messages counts one up from the highest its database knew, with a digest of what the part then holds, so two copies' different edits of one part are two revisions); a database whose history of a part (its last 16 changes to it) lacks that revision (one restored from a backup, a colleague's that missed a change CI deployed, even after an edit of its own to the same part) does not replace the release without --allow-older. The configuration file carries the histories (relctl export), so a database built afresh from it (relctl apply) holds what the one it was exported from held, and a part edited in the file itself counts as a change of its own. With --push, the record also keeps a digest of what each project's users saw at its last push (every recorded install's answer, as 'relctl check' gives it, on each OS band and rollout side, and the floors): a project whose digest now differs (a window starting or ending, a floor, pin, rule or rollout step, an undo) gets a push once index.json is in place, within the limit 'relctl push' keeps; one held back, failed or reached by no service given stays owed to the next deploy --push. The first deploy --push to a remote that recorded none pushes every project.",
        arguments: [Argument("DIR", help: "A directory written by 'relctl publish'.", completion: .directory),
                    Argument("REMOTE", help: "Where to upload: an rclone remote and path (s3:bucket/updates) or a local path.")],
        options: [Option("changed-list", value: "FILE", help: "Also write the changed paths (uploaded and deleted, relative to DIR), one per line, to FILE; after a failed step, the paths sent so far.", completion: .file),
                  Option("dry-run", short: "n", help: "List what would be uploaded and deleted, and send nothing."),
                  Shared.at,
                  Option("allow-older", help: "Upload even when the remote's release was made from a change this database does not hold (a database restored from a backup, a rollback on purpose): without it, deploy refuses to take the remote back."),
                  Option("push", help: "Once the remote holds the files, send a silent push (see 'relctl push') for each project whose users now see something else than at its last push to REMOTE.")]
                  + PushSetup.options,
        examples: [Example("relctl deploy ./out s3:updates-bucket/prod", "Upload what changed to S3 (configure the remote with 'rclone config')."),
                   Example("relctl deploy ./out s3:bucket/prod --changed-list changed.txt", "Also write the changed paths for a CDN invalidation."),
                   Example("relctl deploy ./out /srv/mirror/updates", "Copy what changed to a folder (a mounted share, a test mirror)."),
                   Example("relctl deploy ./out s3:bucket/prod --push --fcm-credentials sa.json", "Upload, then tell the apps of each project whose users see something new to fetch it now.")]
    ) { inv in
        let dir = inv.arg("DIR")!, remote = inv.arg("REMOTE")!
        let now = try inv.value("at").map(inv.time) ?? inv.now
        guard !remote.trimmingSpaces().isEmpty else { throw RelctlError.usage("REMOTE is empty", hint: "give an rclone remote like s3:bucket/updates, or a path") }
        // rclone would read it as one of its options.
        guard !remote.hasPrefix("-") else { throw RelctlError.usage("REMOTE '\(remote)' starts with '-'", hint: "for a folder of that name write ./\(remote)") }
        let pushSetup = try DeployCommand.pushSetup(inv)
        let changedList = inv.value("changed-list")
        if let list = changedList { try PathInput.check(list, for: "--changed-list") }
        let given = dir.count > 1 && dir.hasSuffix("/") ? String(dir.dropLast()) : dir
        // Never an argument rclone could take for an option.
        let root = given.hasPrefix("-") ? "./" + given : given
        guard FileSystem.kind(of: root + "/index.json", followLinks: false) == .file else {
            throw RelctlError.failure("\(dir) has no index.json, so it is not a tree 'relctl publish' wrote", hint: "publish into it first: relctl publish \(dir)")
        }
        // The publish lock: a publish writing DIR now would hand rclone half of two releases.
        var lock: TreeLock? = try TreeLock(root: root, dryRun: false, lockWait: inv.context.publishLockWait)
        guard lock?.unfinished.isEmpty == true else {
            throw RelctlError.failure("a publish into \(dir) did not finish, so its files are not one release", hint: "publish again: relctl publish \(dir)")
        }
        let indexBytes = try FileSystem.readFile(root + "/index.json")
        guard let local = IndexFormat.parse(indexBytes) else {
            throw RelctlError.failure("\(root)/index.json is not an index this relctl wrote", hint: "publish again: relctl publish \(dir)")
        }
        // Files that no longer say what check says (a window that ended, a deadline that passed) must not go out as the release.
        // The database is not read: a tree is released as published, for the span its files hold for.
        switch TreeCurrency.staleness(TreeCurrency.Record(span: local), database: nil, at: now).first {
        case .notYet(let from)?:
            throw RelctlError.failure("\(dir) was published for \(Time.format(from)) or later, not for now: its files would say early what 'relctl check' says then; nothing was uploaded",
                                      hint: "publish for now, then deploy: relctl publish \(dir)")
        case .wentStale(let next)?:
            throw RelctlError.failure("\(dir) went stale at \(Time.format(next.at)) (\(next.briefly)): its files no longer say what 'relctl check' says; nothing was uploaded",
                                      hint: "publish, then deploy: relctl publish \(dir)")
        default: break
        }
        // A tree the database has moved on from (a change since the publish, a project added or removed) is not the release.
        let store: Store
        do { store = try inv.store(.read) } catch {
            let e = RelctlError.from(error)
            throw RelctlError.failure(e.message, hint: "deploy reads the database DIR was published from, to send only a tree that says what it says: give it with --db or RELCTL_DB")
        }
        // With --push, what each project's users see now, read with the state the tree is checked against (next).
        let (database, projects) = try store.read {
            (try TreeCurrency.Database.current(store), pushSetup == nil ? [] : try store.projects().map { ($0, try store.snapshot($0, withNotes: false)) })
        }
        // What the tree was published from is the tree's state's record (index.json names no database).
        guard let recorded = TreeCurrency.Record.recorded(root: root) else {
            throw RelctlError.failure("\(dir) holds no record of the database state it was published from (\(root)/\(TreeState.name) is missing, or describes another index.json); nothing was uploaded",
                                      hint: "publish into it, then deploy: relctl publish \(dir)")
        }
        if let reason = TreeCurrency.staleness(recorded, database: database, at: nil).compactMap(VerifyCommand.words).first {
            throw RelctlError.failure("\(dir) no longer says what the database says (\(reason)); nothing was uploaded",
                                      hint: "publish, then deploy: relctl publish \(dir)")
        }
        guard let rclone = Spawn.find("rclone", env: inv.context.env) else {
            throw RelctlError.failure("rclone is not installed (or not on PATH): relctl deploys through it", hint: "install it (apt-get install rclone) and configure the remote with 'rclone config'")
        }
        let tool = Rclone(path: rclone, env: Rclone.environment(inv.context.env), remote: remote)
        let seen = Dictionary(uniqueKeysWithValues: projects.map { ($0.0.slug, Impact.seen($0.1, at: now)) })
        // Resolved before anything is sent (targets, curl, the database the pushes are logged in):
        // what stops a push is said now, not once the files are live.
        var push: (sender: PushSender, log: Store, targets: [PushSetup.Target])?
        if let setup = pushSetup {
            let targets: [PushSetup.Target]
            do { targets = try projects.map { try setup.target($0.0, platforms: $0.1.platforms, lenient: true) } } catch {
                var e = RelctlError.from(error)
                e.message += "; nothing was uploaded"
                throw e
            }
            // One tokens file for several apps would send each app's push to every app's devices.
            if let file = setup.apnsTokens, !file.contains("{project}"), targets.filter({ $0.apnsTopic != nil }).count > 1 {
                throw RelctlError.usage("--apns-tokens \(file) would be every project's devices: each app has its own; nothing was uploaded",
                                        hint: "name each project's file with {project}, as in --apns-tokens 'tokens/{project}.txt'")
            }
            let log: Store
            do { log = inv.dryRun ? store : try inv.store(.write) } catch {
                throw RelctlError.failure("deploy --push logs each push in the database, which cannot be written: \(RelctlError.from(error).message); nothing was uploaded",
                                          hint: "deploy from a database you can write, or without --push")
            }
            push = (PushSender(setup: setup, curl: inv.dryRun ? nil : try Curl.find(inv.context.env), now: { inv.now }, dryRun: inv.dryRun), log, targets)
        }

        let remoteIndex = try tool.remoteIndex(limit: max(FileSystem.inputLimit, 2 * indexBytes.count))
        // Read even without an index.json there: a first deploy cut short left its record of what it was sending.
        let record = remoteIndex.empty ? Rclone.Record() : try tool.record()
        // Someone else's index.json (a site's search index) is neither replaced nor read for files to delete.
        // One cut short (not JSON: a backend that writes in place, stopped) where relctl's record names a
        // release leaves nothing to tell relctl's files by: the remote is taken as relctl's alone.
        var remoteIsRelctls = false
        if let bytes = remoteIndex.bytes {
            let author = IndexFormat.author(of: bytes, parsed: remoteIndex.index)
            if author == .other || (author == .unknown && record.releases.isEmpty) {
                throw RelctlError.failure("\(tool.target("index.json")) is not an index relctl wrote, and deploy does not replace it; nothing was uploaded",
                                          hint: "deploy to a folder or prefix only relctl deploys to (s3:bucket/updates), or remove that file if it is not needed: rclone deletefile \(tool.target("index.json"))")
            }
            remoteIsRelctls = author == .unknown
        } else if !record.releases.isEmpty {
            // None there (removed) beside a record of releases: as one cut short.
            remoteIsRelctls = true
        }
        let ours = local.treeSha256 ?? SHA256.hex(indexBytes)
        let theirs = remoteIndex.index?.treeSha256
        // Releases are told apart by what they hold (index.json's treeSha256), so a database built
        // afresh from the configuration file deploys like the one it was exported from; and a
        // release is replaced only from a database that holds every change it was made from
        // (Lineage): a colleague's copy that missed a change, or a backup, does not take it back.
        let lineage = try store.read { try store.lineage() }
        let missing = DeployCommand.missing(from: lineage, in: record.lineage)
        if theirs != ours, !missing.isEmpty, !inv.flag("allow-older") {
            let named = missing.prefix(3).map { "\($0.slug): \(Lineage.describe($0.part)) (revision \($0.theirs) there, " + ($0.ours.isEmpty ? "unknown here)" : "not among its changes here, \($0.ours.map(String.init).joined(separator: ", ")))") }
            throw RelctlError.failure("\(remote) holds a release made from changes this database does not hold: " + named.joined(separator: ", ")
                                      + (missing.count > 3 ? " and \(missing.count - 3) more" : "") + "; nothing was uploaded",
                                      hint: "bring the database up to date (apply the team's configuration file, or use the database that made them), publish, then deploy; to take the remote back to this release on purpose, add --allow-older")
        }
        // Deletions a deploy cut short owes this remote are in the remote's record, so any DIR on any machine finishes them.
        // Files an earlier deploy was sending and its release does not list are relctl's too: replaced, or deleted when this tree lacks them.
        let plan = DeployPlan(local: local, localIndex: indexBytes, remote: (remoteIndex.index, remoteIndex.bytes), owed: record.deleting + record.sending, now: now)
        // A path the remote's index.json does not list, nor the record of a deploy cut short, is new
        // to the remote: a file already there is someone else's (a site's index.html), never replaced.
        // Deletions owed are of relctl's files too (a locale removed, its deletion cut short, added back).
        let journaled = Set(record.sending).union(record.deleting)
        let fresh = plan.unlisted.filter { !journaled.contains($0) }
        if !remoteIndex.empty, !remoteIsRelctls, !fresh.isEmpty {
            let there = try tool.existing(fresh)
            if let first = there.first {
                let named = Suggest.few(there.map(tool.target))
                throw RelctlError.failure(there.count == 1 ? "\(named) is not a file relctl deployed, and deploy does not replace it; nothing was uploaded"
                                                           : "\(named) are not files relctl deployed, and deploy does not replace them; nothing was uploaded",
                                          hint: "deploy to a folder or prefix only relctl deploys to (s3:bucket/updates), or remove what is not needed there: rclone deletefile \(tool.target(first))")
            }
        }
        let changed = plan.changedPaths
        // What goes up must be what index.json says: a file edited since the publish is not sent.
        for path in plan.uploads where path != "index.json" {
            let full = root + "/" + path
            guard FileSystem.kind(of: full, followLinks: false) == .file, let bytes = try? FileSystem.readFile(full),
                  let entry = local.files[path], bytes.count == entry.size, SHA256.hex(bytes) == entry.sha256 else {
                // A file edited in place keeps its folder's time, which a plain publish trusts: --full compares every file.
                throw RelctlError.failure("\(full) is missing or differs from \(root)/index.json (changed since the publish); nothing was uploaded",
                                          hint: "publish again, every file compared, then deploy: relctl publish \(dir) --full")
            }
        }
        // Checked before anything is sent: a list that cannot be written after the upload would lose what a CDN must invalidate.
        if let list = changedList { try FileSystem.writeFile(list, []) }
        // What was sent, written to --changed-list when a step fails: those paths changed at the remote all the same.
        var sent: [String] = []
        func listSent() -> String {
            guard let list = changedList else { return "" }
            guard (try? FileSystem.writeFile(list, Array(sent.sorted().map { $0 + "\n" }.joined().utf8))) != nil else { return "" }
            return "; the \(sent.count) path\(sent.count == 1 ? "" : "s") sent so far \(sent.count == 1 ? "is" : "are") in \(list)"
        }
        // The record as it goes: deletions owed and what users see are updated after the steps.
        var pending = record
        // Ctrl-C, SIGTERM or SIGHUP stops the deploy: the rclone step, or the curl of a push, is stopped
        // with it (StopSignals passes the signal on); after the steps, the record and the changed
        // list are still written, and then it says where it stopped and ends by the signal.
        if !inv.dryRun { StopSignals.install() }
        defer {
            if !inv.dryRun {
                // One that came after the last look still ends relctl by it (once restored, one ends it at once).
                StopSignals.restore()
                if StopSignals.pending != 0 { StopSignals.endByIt(StopSignals.pending) }
            }
        }
        if !inv.dryRun {
            // The record goes just before index.json, which readers go by: it names the new release
            // and the deletions it owes, which only this record names once index.json is replaced.
            pending.deleting = plan.deletions
            pending.sending = plan.unlisted
            if theirs != ours {
                pending.releases = Rclone.Record.adding(Rclone.Release(digest: ours, at: inv.now), to: record.releases)
                // What the remote's release is now made from: each part's newest revision here
                // (which holds the one the remote had, unless taken back on purpose).
                pending.lineage = lineage.mapValues { $0.compactMapValues(\.first) }
            }
            // Stopped in a step, the remote is left as a failure there would leave it (the next deploy
            // finishes it), with the step's path list removed and the state said.
            // Without an index.json to send (only deletions owed), the release is in place already.
            var indexSent = !plan.steps.contains(where: \.isIndex)
            // The record as the remote holds it.
            var written = record
            func stopped(_ what: String, during: Bool, indexMayBeSent: Bool = false) -> RelctlError {
                let state = indexSent
                    ? "the new release is in place, and the files that no longer belong are recorded in \(tool.target(Rclone.releasesName)) for the next deploy to it"
                    : indexMayBeSent ? "index.json may have been replaced or not, so readers get the previous release or the new one"
                    : "index.json was not replaced, so readers still get the previous release"
                let sig = StopSignals.pending
                StopSignals.endByIt(sig)
                return .failure("deploying to \(remote) stopped (\(StopSignals.name(sig))) \(during ? "while" : "before") \(what): \(state)" + listSent(),
                                hint: "run 'relctl deploy \(dir) \(remote)' again: it finishes what is left")
            }
            // Before the first file at a path the remote's index.json does not list: the record of what
            // is being sent, by which the next deploy knows those files for relctl's should this one be cut short.
            if !Set(plan.unlisted).isSubset(of: journaled) {
                var journal = record
                journal.sending = Array(Set(record.sending).union(plan.unlisted)).sorted()
                if StopSignals.pending != 0 { throw stopped("recording what it sends in \(tool.target(Rclone.releasesName))", during: false) }
                do { try tool.write(journal) } catch {
                    if StopSignals.pending != 0 { throw stopped("recording what it sends in \(tool.target(Rclone.releasesName))", during: true) }
                    throw RelctlError.failure("deploying to \(remote) failed while recording what it sends in \(tool.target(Rclone.releasesName)): \(RelctlError.from(error).message); nothing was uploaded",
                                              hint: "fix the cause and run 'relctl deploy \(dir) \(remote)' again")
                }
                written = journal
            }
            for step in plan.steps {
                if StopSignals.pending != 0 { throw stopped(step.what, during: false) }
                if (step.isIndex || (step.isDeletion && !plan.steps.contains(where: \.isIndex))) && pending != written {
                    do { try tool.write(pending) } catch {
                        if StopSignals.pending != 0 { throw stopped("recording the release in \(tool.target(Rclone.releasesName))", during: true) }
                        throw RelctlError.failure("deploying to \(remote) failed while recording the release in \(tool.target(Rclone.releasesName)): \(RelctlError.from(error).message); index.json was not replaced, so readers still get the previous release" + listSent(),
                                                  hint: "fix the cause and run 'relctl deploy \(dir) \(remote)' again: it uploads what is still missing")
                    }
                    // Recorded and not sent: as a failure to send index.json leaves it, which the next deploy mends.
                    if StopSignals.pending != 0 { throw stopped(step.what, during: false) }
                }
                let outcome: Spawn.Captured
                do { outcome = try tool.run(step, from: root, intoEmpty: remoteIndex.empty) } catch {
                    let e = RelctlError.from(error)
                    throw RelctlError.failure(e.message + listSent(), hint: e.hint)
                }
                // A failed step may have sent some of its files: all of them count as changed.
                sent += step.paths
                if outcome.status != 0 && StopSignals.pending != 0 { throw stopped(step.what, during: true, indexMayBeSent: step.isIndex) }
                if outcome.status == 0 && step.isIndex { indexSent = true }
                if outcome.status != 0 && step.isDeletion {
                    // index.json is already replaced: only the remote's record still names these files.
                    throw RelctlError.failure("deploying to \(remote) failed while \(step.what): \(outcome.lastErrorLine); the new release is in place, but some of the \(step.paths.count) file\(step.paths.count == 1 ? "" : "s") that no longer belong may still be there, recorded in \(tool.target(Rclone.releasesName)) for the next deploy to it, from any folder" + listSent(),
                                              hint: "fix the cause and run 'relctl deploy \(dir) \(remote)' again: it deletes them")
                }
                if outcome.status != 0 {
                    throw RelctlError.failure("deploying to \(remote) failed while \(step.what): \(outcome.lastErrorLine)"
                                              + (step.isIndex ? "" : "; index.json was not replaced, so readers still get the previous release") + listSent(),
                                              hint: "fix the cause and run 'relctl deploy \(dir) \(remote)' again: it uploads what is still missing")
                }
            }
            // Stopped during the last step, which finished all the same: every file is sent.
            if StopSignals.pending != 0 {
                let sig = StopSignals.pending
                StopSignals.endByIt(sig)
                throw RelctlError.failure("deploying to \(remote) stopped (\(StopSignals.name(sig))) after its last step: the new release is in place; "
                                          + "its record in \(tool.target(Rclone.releasesName)) is finished by the next deploy to it" + (pushSetup == nil ? "" : ", and nothing was pushed") + listSent(),
                                          hint: "run 'relctl deploy \(dir) \(remote)' again: it finishes what is left")
            }
        }
        // Pushed only now: a push that arrives before the files makes apps fetch the old ones.
        var pushed: [PushCommand.Outcome] = []
        // What users see, as the record keeps it: only a deploy --push moves it (slug → the digest now,
        // or nil for a project gone), for the projects whose push was sent; one held back, failed or
        // reached by nobody keeps the digest of its last push, so the next deploy --push sends it.
        var seenMoves: [String: String?] = [:]
        // Projects whose users see something new that no service given reaches: owed to a later deploy --push.
        var unreached: [(project: String, why: String)] = []
        // Projects whose push a stop signal kept from being sent (or sent to some services only): owed to the next deploy --push.
        var unsent: [String] = []
        var recordFinished = true
        if let push {
            // Worked out while DIR is still held (a signed file's revision is read from it); then publishes may go on.
            var owed: [(PushHint, PushSetup.Target, first: Bool)] = []
            for ((project, _), target) in zip(projects, push.targets) where record.seen[project.slug] != seen[project.slug] {
                if target.reachesNobody {
                    unreached.append((project.slug, target.skipped ?? "no service given reaches it"))
                    continue
                }
                if let why = target.skipped { inv.info("\(project.slug): \(why)") }
                // A signed file's own revision, else this instant (the real one, not --at: revisions only grow).
                owed.append((PushHint(project: project.slug, revision: Signing.liveRevision(root, project: project) ?? inv.now,
                                      sha256: local.files[FileKinds.control.path(project: project.slug)]?.sha256), target, record.seen[project.slug] == nil))
            }
            lock = nil
            for (i, (hint, target, first)) in owed.enumerated() {
                if StopSignals.pending != 0 {
                    unsent = owed[i...].map(\.0.project)
                    break
                }
                var outcome: PushCommand.Outcome
                do {
                    outcome = try PushCommand.send(inv, push.log, push.sender, hint, target,
                                                   why: first ? "deploy to \(remote), no earlier record of what users saw" : "deploy to \(remote), what users see changed")
                } catch {
                    // The files are live: the record is still finished, and the failure said with the others.
                    outcome = PushCommand.Outcome(hint: hint, target: target, dryRun: inv.dryRun)
                    outcome.report.failures = [RelctlError.from(error).message]
                }
                if outcome.sent { seenMoves[hint.project] = .some(seen[hint.project]) }
                pushed.append(outcome)
                // Cut short by the signal (curl got it too): this push and the rest are owed.
                if StopSignals.pending != 0 {
                    unsent = (outcome.sent ? [] : [hint.project]) + owed[(i + 1)...].map(\.0.project)
                    break
                }
            }
            // Projects gone from the database are forgotten.
            for slug in record.seen.keys where seen[slug] == nil { seenMoves[slug] = .some(nil) }
        }
        // A stop during the pushes is taken now, its flag cleared: the record and the changed list are
        // still written (Spawn stops at once what it starts while a stop is pending); a second stop cuts them short.
        let stoppedBy = StopSignals.take()
        if stoppedBy != 0 {
            StopSignals.endByIt(stoppedBy)
            inv.info("stopping (\(StopSignals.name(stoppedBy))): the changed paths and the remote's record are still written; a second \(StopSignals.name(stoppedBy)) leaves the record to the next deploy")
        }
        if !inv.dryRun, !pending.deleting.isEmpty || !seenMoves.isEmpty {
            // Made: the record no longer owes the deletions (left, the next deploy would only find them gone),
            // and says what users saw at the pushes sent. Once DIR was let go, another deploy may have
            // written the record since: then only what this one pushed is changed in theirs.
            var final = pending
            if lock == nil, let latest = try? tool.record(), latest != pending { final = latest } else { final.deleting = []; final.sending = [] }
            for (slug, digest) in seenMoves { final.seen[slug] = digest }
            do { try tool.write(final) } catch {
                recordFinished = false
                inv.warn("cannot update \(tool.target(Rclone.releasesName)): \(RelctlError.from(error).message); the files are live, and the next deploy finishes the record")
            }
        }
        if let list = changedList {
            try FileSystem.writeFile(list, Array(changed.map { $0 + "\n" }.joined().utf8))
        }
        inv.render(.object(["dir": .string(dir), "remote": .string(remote), "dryRun": .bool(inv.dryRun),
                            "uploaded": .array(plan.uploads.map { .string($0) }), "deleted": .array(plan.deletions.map { .string($0) }),
                            "changed": .array(changed.map { .string($0) }), "unchanged": .int(plan.unchanged)]
                            .merging(pushSetup == nil ? [:] : ["pushes": .array(pushed.map(\.json)),
                                                               "unreached": .array(unreached.map { .fields([("project", .string($0.project)), ("why", .string($0.why))]) })]) { a, _ in a })) {
            changed.map { $0 + "\n" }.joined()
        }
        // Every deploy that sent something is in the log, as publishes are; the log is a
        // courtesy: a database this user may only read still deploys.
        if !inv.dryRun && !(plan.uploads.isEmpty && plan.deletions.isEmpty), let log = push?.log ?? (try? Store(path: inv.dbPath, mode: .write, user: inv.context.user)) {
            try? log.logDeploy(dir: dir, remote: remote, revision: recorded.revision, uploaded: plan.uploads.count, deleted: plan.deletions.count, now: inv.now)
        }
        let verb = inv.dryRun ? "would upload" : "uploaded"
        inv.info("\(verb) \(plan.uploads.count) file\(plan.uploads.count == 1 ? "" : "s") to \(remote), \(inv.dryRun ? "would delete" : "deleted") \(plan.deletions.count), \(plan.unchanged) unchanged"
                 + (plan.capped ? "; cache lifetimes cut to \(plan.capSeconds) s, the next change" : ""))
        if pushSetup != nil {
            for o in pushed {
                if let n = o.heldBack { inv.info("\(o.hint.project): no push: \(n) in the last hour already (at most \(Store.pushesPerHour); --urgent sends anyway)") }
                else if inv.dryRun { inv.info("\(o.hint.project): would push (\(o.target.words))") }
                else { o.report.lines.forEach { inv.info("\(o.hint.project): push: \($0)") } }
            }
            for u in unreached { inv.warn("\(u.project): users see something new, and no push was sent: \(u.why); the next deploy --push that reaches it sends it") }
            if pushed.isEmpty && unreached.isEmpty { inv.info("no push: what users see is what the last deploy to \(remote) recorded") }
            if let warning = push?.sender.cacheWarning { inv.warn(warning) }
        }
        // The lock is held to the end (without --push): a publish waits until the upload is done.
        withExtendedLifetime(lock) {}
        if stoppedBy != 0 || StopSignals.pending != 0 {
            let sig = stoppedBy != 0 ? stoppedBy : StopSignals.pending
            StopSignals.endByIt(sig)
            // With those that failed before the signal (said above with the others).
            let failed = pushed.filter(\.failed).map(\.hint.project)
            let owed = failed + unsent.filter { !failed.contains($0) }
            let named = owed.map { p in pushed.first { $0.hint.project == p }?.report.reachedAny == true ? "\(p) (sent to some of its services)" : p }
            let owedWords = owed.isEmpty ? "" : "; the push\(owed.count == 1 ? "" : "es") to \(Suggest.few(named)) \(owed.count == 1 ? "was" : "were") not sent in full, owed to the next deploy --push to it"
            throw RelctlError.failure("deploying to \(remote) stopped (\(StopSignals.name(sig))) after its files: the new release is in place"
                                      + (recordFinished ? "" : ", and its record is finished by the next deploy to it") + owedWords,
                                      hint: owed.isEmpty && unreached.isEmpty && recordFinished ? "nothing is left to do" : "run the same deploy again: it finishes what is left")
        }
        if let failed = pushed.first(where: \.failed) {
            throw RelctlError.failure("the files are live on \(remote), but the push to \(failed.hint.project) was not " + (failed.report.reachedAny ? "sent to all: " : "sent: ") + (failed.report.failures.first ?? "no service took it"),
                                      hint: "apps fetch the files at their next poll; to tell them now, fix the cause and run the same deploy again: it sends the push it owes")
        }
    }
}

extension DeployCommand {
    /// --push's setup; push options typed without --push are a mistake said so (from the environment they wait for --push).
    static func pushSetup(_ inv: Invocation) throws -> PushSetup? {
        guard inv.flag("push") else {
            if let typed = PushSetup.options.first(where: { inv.parsed.values[$0.long] != nil }) {
                throw RelctlError.usage("--\(typed.long) is for a push, and deploy sends none without --push", hint: "add --push to send one once the files are live")
            }
            return nil
        }
        guard let setup = try PushSetup.read(inv) else {
            throw RelctlError.usage("--push names no service to send through",
                                    hint: "give --fcm-credentials FILE (or RELCTL_FCM_CREDENTIALS), or --apns-key, --apns-key-id, --apns-team-id and --apns-tokens")
        }
        return setup
    }

    /// The parts whose revision in the remote's release is not in this database's history of them: changes it does not hold.
    /// A window is also held under another id: `apply` numbers a file's window anew where its id is
    /// another's (Lineage.Adopting.renumbering), so the database that deployed may name this one's
    /// window #1 as its #2, with this one's history of it. A revision with a content digest
    /// (Lineage.next) that is in the history of a window here is that history's: another window's
    /// edit would match it by a chance of one in 2^24 (a window's digest holds its id). Not a removal:
    /// every part removed at one count has the same revision. Nor one from before the digests, a count alone.
    static func missing(from ours: [String: [String: [Int64]]], in theirs: [String: [String: Int64]]) -> [(slug: String, part: String, theirs: Int64, ours: [Int64])] {
        var out: [(slug: String, part: String, theirs: Int64, ours: [Int64])] = []
        for (slug, parts) in theirs.sorted(by: { $0.key < $1.key }) {
            let windows = Set((ours[slug] ?? [:]).lazy.filter { $0.key.hasPrefix("window/") }.flatMap(\.value).filter(Lineage.holdsContent))
            // A remote's record of it (an earlier relctl's deploy) names no part to hold.
            for (part, rev) in parts.sorted(by: { $0.key < $1.key }) where part != ConfigFormat.unnumberedWindow && !(ours[slug]?[part] ?? []).contains(rev) {
                if part.hasPrefix("window/") && windows.contains(rev) { continue }
                out.append((slug, part, rev, ours[slug]?[part] ?? []))
            }
        }
        return out
    }
}

/// rclone, as deploy runs it.
struct Rclone {
    var path: String
    var env: [String: String]
    var remote: String

    /// The remote path of a file under REMOTE.
    func target(_ relative: String) -> String {
        remote.hasSuffix("/") || remote.hasSuffix(":") ? remote + relative : remote + "/" + relative
    }

    /// The remote's index.json (bytes and parsed), or nothing when it has
    /// none yet; an error when the remote itself cannot be reached, or when
    /// its index.json holds more than `limit` bytes (read no further: a 60 MB
    /// one took half a gigabyte to parse).
    /// `empty`: nothing at all is there yet (a first deploy, not a retry of one that failed).
    func remoteIndex(limit: Int) throws -> (index: PublishedIndex?, bytes: [UInt8]?, empty: Bool) {
        guard let cat = Spawn.capture(path, ["cat", "--count", String(limit + 1), target("index.json")], env: env) else {
            throw RelctlError.failure("cannot start \(path)", hint: "check that rclone runs: rclone version")
        }
        guard cat.stdout.count <= limit else {
            throw RelctlError.failure("\(target("index.json")) holds more than \(limit >> 20) MiB, far more than an index relctl writes for this tree; nothing was uploaded",
                                      hint: "check REMOTE names the folder of this tree, and remove that file if it is not relctl's: rclone deletefile \(target("index.json"))")
        }
        // rclone cat of a path that is not there prints nothing and succeeds.
        if cat.status == 0 && !cat.stdout.isEmpty { return (IndexFormat.parse(cat.stdout), cat.stdout, false) }
        // No index there: a first deploy, if the remote exists at all.
        guard let list = Spawn.capture(path, ["lsf", "--max-depth", "1", remote], env: env) else {
            throw RelctlError.failure("cannot start \(path)", hint: "check that rclone runs: rclone version")
        }
        if list.status == 0 {
            // index.json is there, but could not be read: what the remote holds is unknown.
            if cat.status != 0, String(decoding: list.stdout, as: UTF8.self).split(separator: "\n").contains("index.json") {
                throw RelctlError.failure("cannot read \(target("index.json")): \(cat.lastErrorLine); nothing was uploaded",
                                          hint: "check the remote and its permissions ('rclone cat \(target("index.json"))'), then deploy again")
            }
            return (nil, nil, list.stdout.isEmpty)
        }
        // A prefix with nothing under it yet is fine when its bucket or folder exists.
        if let parent = parentOfRemote(), let up = Spawn.capture(path, ["lsf", "--max-depth", "1", "--dirs-only", parent], env: env), up.status == 0 {
            // Empty only as rclone's "directory not found" (exit 3), not after a listing that failed otherwise.
            return (nil, nil, list.status == 3)
        }
        throw RelctlError.failure("cannot reach the remote \(remote): \(list.lastErrorLine)",
                                  hint: "check its name ('rclone listremotes') and that the bucket or folder exists ('rclone lsf \(remote)')")
    }

    /// The remote's record (beside index.json, listed in no index, so never
    /// deleted by a deploy): the releases it served, newest first, and the
    /// deletions the last deploy owes it until it has made them.
    static let releasesName = DeployPlan.recordName
    static let releasesKept = 100
    static let recordLimit = 16 << 20

    /// A release as the record keeps it: what it holds, when it was deployed.
    struct Release: Equatable { var digest: String; var at: Int64 }

    struct Record: Equatable {
        var releases: [Release] = []
        var deleting: [String] = []
        /// What a deploy was sending to paths the remote's index.json did not list (written before
        /// the first of them): relctl's files, should that deploy be cut short before index.json.
        var sending: [String] = []
        /// The revisions of every part the remote's release was made from (Lineage), by project.
        var lineage: [String: [String: Int64]] = [:]
        /// What each project's users saw at its last push, by slug (Impact.seen; only deploy --push writes it).
        var seen: [String: String] = [:]

        /// `release` first, keeping the newest others.
        static func adding(_ release: Release, to earlier: [Release]) -> [Release] {
            Array(([release] + earlier.filter { $0.digest != release.digest }).prefix(Rclone.releasesKept))
        }
    }

    /// The record, or none when there is none yet; one that cannot be read is an error.
    func record() throws -> Record {
        guard let cat = Spawn.capture(path, ["cat", "--count", String(Rclone.recordLimit + 1), target(Rclone.releasesName)], env: env) else {
            throw RelctlError.failure("cannot start \(path)", hint: "check that rclone runs: rclone version")
        }
        // A record that is not there is none (some backends fail cat for that, others print nothing);
        // one that cannot be read is no reason to skip the check, or to write over it.
        if cat.status != 0, let list = Spawn.capture(path, ["lsf", "--files-only", "--max-depth", "1", remote], env: env), list.status == 0,
           !list.stdout.split(separator: 10).contains(where: { $0.elementsEqual(Rclone.releasesName.utf8) }) {
            return Record()
        }
        guard cat.status == 0 else {
            throw RelctlError.failure("cannot read \(target(Rclone.releasesName)): \(cat.lastErrorLine); nothing was uploaded", hint: "check the remote ('rclone lsf \(remote)') and run the deploy again")
        }
        guard cat.stdout.count <= Rclone.recordLimit else {
            throw RelctlError.failure("\(target(Rclone.releasesName)) holds more than \(Rclone.recordLimit >> 20) MiB, far more than the record relctl keeps; nothing was uploaded",
                                      hint: "remove it if it is not relctl's: rclone deletefile \(target(Rclone.releasesName))")
        }
        // rclone cat of a path that is not there prints nothing and succeeds: no record yet.
        if cat.stdout.isEmpty { return Record() }
        // One that is not relctl's is no reason to skip the check, or to forget the deletions it owes.
        guard case .object(let top)? = try? JSONReader.parse(cat.stdout) else {
            throw RelctlError.failure("\(target(Rclone.releasesName)) is not a record relctl wrote (not a JSON object); nothing was uploaded",
                                      hint: "restore it, or remove it to deploy without the check it keeps: rclone deletefile \(target(Rclone.releasesName))")
        }
        var out = Record()
        if case .array(let list)? = top["releases"] {
            out.releases = list.compactMap { item in
                guard case .object(let o) = item, case .string(let digest)? = o["treeSha256"], case .string(let when)? = o["deployedAt"],
                      let at = Time.parseUTC(when) else { return nil }
                return Release(digest: digest, at: at)
            }
        }
        if case .object(let projects)? = top["lineage"] {
            for (slug, parts) in projects {
                guard case .object(let list) = parts else { continue }
                for case let (part, .int(rev)) in list where rev > 0 { out.lineage[slug, default: [:]][part] = rev }
            }
        }
        if case .object(let projects)? = top["seen"] {
            for case let (slug, .string(digest)) in projects where digest.utf8.count == 64 { out.seen[slug] = digest }
        }
        if case .array(let list)? = top["deleting"] {
            out.deleting = list.compactMap { if case .string(let p) = $0 { return p } else { return nil } }
        }
        if case .array(let list)? = top["sending"] {
            out.sending = list.compactMap { if case .string(let p) = $0, TreeFiles.isSafe(p) { return p } else { return nil } }
        }
        return out
    }

    /// Replaces the record. A stop signal while it goes ends relctl once its temporary copy is removed
    /// (StopSignals.holding; in deploy's steps, a flag the step loop reads).
    func write(_ record: Record) throws {
        try StopSignals.holding("replacing \(target(Rclone.releasesName)); the files are live, and the next deploy finishes the record") { try send(record) }
    }

    private func send(_ record: Record) throws {
        let doc = JSON.object(["releases": .array(record.releases.map { .object(["treeSha256": .string($0.digest), "deployedAt": .time($0.at)]) }),
                               "deleting": .array(record.deleting.map { .string($0) }),
                               "sending": .array(record.sending.map { .string($0) }),
                               "lineage": .object(record.lineage.mapValues { .object($0.mapValues { .int($0) }) }),
                               "seen": .object(record.seen.mapValues(JSON.string))])
        let local = Spawn.temporaryFolder(env) + "/relctl-releases.\(getpid()).\(UInt32.random(in: .min ... .max)).json"
        try FileSystem.writeFile(local, doc.compactBytes())
        defer { unlink(local) }
        // --ignore-times: replaced whatever its size and time (a record of the same size, a remote keeping no times).
        guard let copy = Spawn.capture(path, ["copyto", local, target(Rclone.releasesName)] + Rclone.asTold + ["--ignore-times", "--header-upload", "Content-Type: application/json",
                                              "--header-upload", "Cache-Control: no-store"], env: env) else {
            throw RelctlError.failure("cannot start \(path)", hint: "check that rclone runs: rclone version")
        }
        guard copy.status == 0 else { throw RelctlError.failure(copy.lastErrorLine) }
    }

    /// "s3:bucket/a/b" → "s3:bucket/a"; "/srv/x" → "/srv"; nil at a bucket or root.
    func parentOfRemote() -> String? {
        var r = remote
        while r.count > 1 && r.hasSuffix("/") { r.removeLast() }
        let colon = r.firstIndex(of: ":").flatMap { r[r.startIndex..<$0].contains("/") ? nil : $0 }
        let pathStart = colon.map { r.index(after: $0) } ?? r.startIndex
        // A bare relative folder ("mirror"): rclone takes it from the working directory.
        guard let slash = r[pathStart...].lastIndex(of: "/") else { return colon == nil ? "." : nil }
        let parent = String(r[..<slash])
        if colon != nil && r[pathStart..<slash].isEmpty { return nil }
        return parent.isEmpty ? "/" : parent
    }

    /// Which of `paths` (under REMOTE) are there: rclone lists only the folders that hold them.
    /// A link (a local remote's) is not listed but said, "NOTICE: a/b: Can't follow symlink …",
    /// and a copy would write through one: a link at a path, or at a folder above it, counts as
    /// there. The folders go in the list so that rclone says so of a linked one, and the call
    /// runs with rclone's defaults for what it logs, how it takes links and how deep it lists,
    /// whatever the user's environment sets (a quiet CI, RCLONE_LOCAL_SKIP_LINKS); a remote
    /// configured to skip links (`skip_links`) still hides them.
    func existing(_ paths: [String]) throws -> [String] {
        var asked = Set(paths)
        for p in paths {
            var folder = Substring(p)
            while let slash = folder.lastIndex(of: "/") {
                folder = folder[..<slash]
                guard asked.insert(String(folder)).inserted else { break }
            }
        }
        let listPath = try writeList(asked.sorted())
        defer { unlink(listPath) }
        // Flags beat the environment (RCLONE_LOCAL_SKIP_LINKS, RCLONE_MAX_DEPTH); logging is left to its defaults.
        let logging = ["RCLONE_LOG_LEVEL", "RCLONE_QUIET", "RCLONE_VERBOSE", "RCLONE_LOG_FILE", "RCLONE_USE_JSON_LOG", "RCLONE_SYSLOG"]
        guard let list = Spawn.capture(path, ["lsf", "--files-only", "-R", "--copy-links=false", "--links=false", "--skip-links=false", "--max-depth=-1",
                                              "--files-from-raw", listPath, remote], env: env.filter { !logging.contains($0.key) }) else {
            throw RelctlError.failure("cannot start \(path)", hint: "check that rclone runs: rclone version")
        }
        guard list.status == 0 else {
            throw RelctlError.failure("cannot list \(remote) for files that are not relctl's: \(list.lastErrorLine); nothing was uploaded",
                                      hint: "check the remote and its permissions ('rclone lsf \(remote)'), then deploy again")
        }
        let links = String(decoding: list.stderr, as: UTF8.self).split(separator: "\n").compactMap { line -> String? in
            let tail = ": Can't follow symlink without -L/--copy-links"
            guard line.hasSuffix(tail), let start = line.firstRange(of: "NOTICE: ") else { return nil }
            let end = line.index(line.endIndex, offsetBy: -tail.count)
            return start.upperBound <= end ? String(line[start.upperBound..<end]) : nil
        }
        let listed = Set(String(decoding: list.stdout, as: UTF8.self).split(separator: "\n").map(String.init))
        return paths.filter { p in listed.contains(p) || links.contains { p == $0 || p.hasPrefix($0 + "/") } }.sorted()
    }

    /// What a transfer is told whatever the environment sets (RCLONE_DRY_RUN, RCLONE_MAX_DEPTH,
    /// RCLONE_IGNORE_EXISTING, RCLONE_SIZE_ONLY, …): each made rclone exit 0 having sent nothing,
    /// or not every file, and deploy then sent an index.json naming files the remote does not hold.
    static let asTold = ["--dry-run=false", "--interactive=false", "--max-depth=-1", "--ignore-existing=false", "--update=false", "--size-only=false"]

    /// The user's environment less what no flag takes back and would have rclone send or read less,
    /// or elsewhere, and succeed: a second file list, another folder to compare or copy from,
    /// backups of what is replaced (index.json gone between the two), `cat` printing nothing.
    /// What tunes how it sends (retries, transfers, a bandwidth limit) and the remotes' settings stay.
    static func environment(_ env: [String: String]) -> [String: String] {
        let changesWhat: Set<String> = ["RCLONE_COMPARE_DEST", "RCLONE_COPY_DEST", "RCLONE_FILES_FROM", "RCLONE_FILES_FROM_RAW", "RCLONE_SUFFIX",
                                        "RCLONE_SUFFIX_KEEP_EXTENSION", "RCLONE_BACKUP_DIR", "RCLONE_DISCARD", "RCLONE_ERROR_ON_NO_TRANSFER"]
        return env.filter { !changesWhat.contains($0.key) }
    }

    /// A list of paths for rclone's --files-from-raw, one a line, in a file of its own (the caller removes it):
    /// a long list needs no long command line.
    private func writeList(_ paths: [String]) throws -> String {
        let listPath = Spawn.temporaryFolder(env) + "/relctl-deploy.\(getpid()).\(UInt32.random(in: .min ... .max)).list"
        try FileSystem.writeFile(listPath, Array(paths.map { $0 + "\n" }.joined().utf8))
        return listPath
    }

    /// Runs one step: the list of paths goes to rclone in a file, so a long list needs no long command line.
    func run(_ step: DeployPlan.Step, from root: String, intoEmpty: Bool) throws -> Spawn.Captured {
        let listPath = try writeList(step.paths)
        defer { unlink(listPath) }
        var args: [String]
        switch step.kind {
        case .upload(let contentType, let maxAge):
            // --checksum: a "2.0.1" that became "2.0.2" keeps its size and may keep its mtime;
            // a file that arrived before a deploy failed is not sent again. Into an empty remote
            // nothing is asked first: asking about each of 10,803 files (a HEAD each, or a listing
            // of its folder per step) made a first deploy 1.4 times a plain `rclone copy`.
            // Retried whole, such a copy would send every file again: a failure ends it, and the next deploy asks.
            args = ["copy", root, remote, "--files-from-raw", listPath] + (intoEmpty ? ["--no-check-dest", "--retries", "1"] : ["--checksum", "--no-traverse"]) + [
                    "--header-upload", "Content-Type: \(contentType)", "--header-upload", "Cache-Control: public, max-age=\(maxAge)"]
        case .delete:
            args = ["delete", remote, "--files-from-raw", listPath]
        }
        guard let outcome = Spawn.capture(path, args + Rclone.asTold, env: env) else {
            throw RelctlError.failure("cannot start \(path)", hint: "check that rclone runs: rclone version")
        }
        return outcome
    }
}
