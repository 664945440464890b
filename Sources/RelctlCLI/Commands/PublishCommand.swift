import Dispatch
import RelctlCore
import RelctlPublish
import RelctlStore

/// `relctl publish DIR`: the static files client libraries download.
enum PublishCommand {
    static let command: RunnableCommand = RunnableCommand(
        "publish", abstract: "Write the static files for web servers: Retired, AndVersion, what's new, lookup, Siren, Prince of Versions, appcast and control files.",
        discussion: "Publishes every project, or only the one given with -p/--project. Files are replaced atomically, unchanged files are left untouched, and files of an earlier publish that no longer belong are removed. DIR/index.json lists every file with its size and SHA-256, the tree's digest and the span of time the files hold for, each project's too; the tree's state (DIR/.relctl-state) records the database revision and edit stamp each project was published from (a stamp moves with any change to its rows, one made with sqlite3 by hand included). A project whose revision, stamp and span still hold and whose folders are as the last publish left them is not rendered again, so a publish costs what changed, and one with nothing to do returns at once. Folder times show a file added, removed, renamed or replaced, not one edited in place: 'relctl verify' finds it, and --full renders and checks everything. Before anything is written, each client's reading of the files is compared with 'relctl check' for every install, recorded or not, now and at each coming instant the answer changes (up to 90 days, as 'relctl verify' does): a difference no declared limit explains refuses the publish when it is in force now, and is warned of, with its instant, when it comes later.",
        arguments: [Argument("DIR", help: "The directory to publish into; created when missing. A file in it that relctl did not publish there is not replaced: the publish refuses instead.", completion: .directory)],
        options: [Shared.at, Option("dry-run", short: "n", help: "List what would be added, changed and removed, and write nothing."),
                  Option("watch", help: "Keep running: publish now, after every change to the database (from any process), and at each next-change instant; one line per publish; stop with Ctrl-C, SIGTERM or SIGHUP."),
                  Option("exec", value: "CMD", help: "With --watch: run CMD with /bin/sh after the first publish (RELCTL_REASON=start; it may have changed nothing) and after each one that changed files; the changed paths (relative to DIR) are its arguments and, one per line, in RELCTL_CHANGED; RELCTL_DIR is DIR. A CMD that fails is run again, with every path since its last success, at the next change and at the latest a minute later. CMD runs beside the watcher, which goes on publishing meanwhile (files changed while it runs are handed to its next run); it runs in a process group of its own, which is sent SIGTERM when it runs past --exec-timeout or the watcher stops, and SIGKILL 5 s later."),
                  Option("exec-timeout", value: "DURATION", help: "With --exec: how long CMD may run before it is stopped and counted as failed.", defaultValue: "10m"),
                  Option("full", help: "Render every project and compare every file with what it should be, whatever the last publish recorded: after a file was edited in place, or the database by hand. Files are still written only where they differ."),
                  Option("no-pages", help: "Do not write the status pages for people (DIR/index.html and DIR/PROJECT/status.html); ones written before are removed."),
                  signingKey,
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
        // In a scope of its own: DIR's lock ends with the publish, not after the report.
        let o = try {
            let early = earlyLock(inv, dir: dir, dryRun: dryRun)
            do { return try publishOnce(inv, store: try inv.store(.read), dir: dir, at: at, dryRun: dryRun, lock: early) } catch {
                // Nothing, unless DIR went between the look and the lock and was made again.
                early?.takeBack()
                throw error
            }
        }()
        o.warnings.forEach(inv.warn)
        report(inv, dir: dir, dryRun: dryRun, revision: o.revision, at: at, next: o.next, added: o.added, changed: o.changed, removed: o.removed,
               unchanged: o.unchanged, limits: o.limits, disagreements: o.disagreements, rendered: o.rendered)
    }

    static let signingKey = Option("signing-key", value: "FILE", help: "An Ed25519 private key (PEM, as keys generate writes it) to sign the files of projects that trust its public key; repeat during a rotation. A project that trusts keys is never published unsigned.",
                                   repeatable: true, env: "RELCTL_SIGNING_KEY", completion: .file)

    /// The keys of --signing-key (or RELCTL_SIGNING_KEY), read at each publish: a watcher takes a replaced key file.
    static func signingKeys(_ inv: Invocation) throws -> [SigningKey] {
        let paths = inv.values("signing-key").isEmpty ? inv.value("signing-key").map { [$0] } ?? [] : inv.values("signing-key")
        return try paths.map { path in
            do { return try SigningKey.read(path) } catch let e as PublishError { throw RelctlError.usage(e.message, hint: e.hint) }
        }
    }

    /// DIR locked, and the folders its state records looked at on another
    /// core, while the database opens (SQLite parses the schema first; a
    /// publish with nothing to do was mostly those two, one after the
    /// other). Only where that changes nothing the publish does or says, nor
    /// how long DIR is held: DIR is there (a publish that fails on the
    /// database makes no DIR), the database opens without writing or
    /// waiting (no upgrade, WAL mode: Store.opensWithoutWriting), no signing
    /// key is read meanwhile, and no other publish or deploy holds DIR (a
    /// wait for it would come before the database's error); else nil, and
    /// the publish locks DIR after the database opened, as always.
    static func earlyLock(_ inv: Invocation, dir: String, dryRun: Bool) -> TreeLock? {
        guard locksEarly(dir: dir, database: inv.dbPath, full: inv.flag("full"), signingKey: inv.value("signing-key")) else { return nil }
        var request = Publisher.Request(dir: dir, at: 0, generator: generator)
        request.dryRun = dryRun
        request.lockWait = 0
        return try? Publisher.lock(request)
    }

    /// Whether `earlyLock` may try the lock: all but whether it is free.
    static func locksEarly(dir: String, database: String, full: Bool, signingKey: String?) -> Bool {
        !full && signingKey == nil && FileSystem.kind(of: dir) == .directory && Store.opensWithoutWriting(database)
    }

    /// Who wrote a tree: a tree another relctl wrote is rendered anew, whole.
    static let generator = FormatRevision.generator(version: Runner.version)

    /// One publish as the command line asks for it (Publisher.publish), a
    /// progress line on a terminal, and a refusal spelled with its fix.
    /// `lock`: DIR as `earlyLock` took it; the publish takes it when nil.
    static func publishOnce(_ inv: Invocation, store: Store, dir: String, at: Int64, dryRun: Bool, lock: TreeLock? = nil) throws -> Publisher.Outcome {
        var request = Publisher.Request(dir: dir, at: at, generator: generator)
        request.dryRun = dryRun
        // A stop signal to a watcher (which only sets a flag) ends a wait for the lock at once.
        request.stopWaiting = { StopSignals.pending != 0 }
        request.full = inv.flag("full")
        request.pages = !inv.flag("no-pages")
        request.project = inv.flag("project") ? inv.value("project") : nil
        request.despiteDisagreements = inv.flag(overrideFlag)
        request.lockWait = inv.context.publishLockWait
        request.log = (inv.dbPath, inv.context.user, inv.now)
        request.fillZone = { ZoneOffsets.fill(&$0) }
        request.signingKeys = try signingKeys(inv)
        request.now = inv.now
        // A key no project trusts (a retired one) is said at once, whether or not anything is to be signed.
        if !request.signingKeys.isEmpty {
            let trusted = Set(try store.read { try store.projects() }.flatMap(\.trustedKeys))
            for key in request.signingKeys where !trusted.contains(key.publicKeyText) {
                throw RelctlError.failure("the signing key \(key.path) (key \(key.keyID)) is trusted by no project: a file signed with it would be refused",
                                          hint: "sign with a key 'relctl keys list' shows, or trust this one with 'relctl keys trust \(key.publicKeyText)'")
            }
        }
        if inv.context.stderrIsTerminal && inv.context.env["TERM"] != "dumb" && !inv.quiet && !inv.json && !inv.flag("watch") {
            let stderr = inv.context.stderr
            request.progress = { i, count, slug in
                stderr.write(slug.map { "\rpublishing \(i + 1)/\(count) \($0)\u{1B}[K" } ?? "\r\u{1B}[K")
                stderr.flush()
            }
        }
        do {
            var o = try Publisher.publish(request, store: store, lock: lock)
            if !dryRun && !o.disagreements.isEmpty {
                o.warnings.append("\(o.disagreements.count) client decisions differ from 'relctl check'; written anyway (--\(overrideFlag))")
            }
            return o
        } catch let refused as Publisher.Refused {
            let n = refused.disagreements.count
            throw RelctlError.failure("refusing to publish: \(n) client decision\(n == 1 ? "" : "s") would differ from 'relctl check', first \(FindingsReport.disagreementLine(refused.disagreements[0])); nothing was written",
                                      hint: "'relctl publish \(dir) --dry-run' lists them all; this is a relctl bug, please report it; --\(overrideFlag) writes the files anyway")
        }
    }

    /// Named so that nobody types it by accident.
    static let overrideFlag = "publish-despite-disagreements"

    static func report(_ inv: Invocation, dir: String, dryRun: Bool, revision: Int64, at: Int64, next: NextChange?,
                       added: PathList, changed: PathList, removed: [String], unchanged: Int, limits: JSON, disagreements: [JSON], rendered: [String]) {
        let total = added.count + changed.count + unchanged
        // One shape for a publish and its dry run: the paths added, changed and removed, and counts.
        // Made only for --json: a fleet's first publish adds a hundred thousand paths.
        func document() -> JSON {
            .object(["dir": .string(dir), "dryRun": .bool(dryRun), "revision": .int(revision), "files": .int(total),
                     "added": .array(added.paths.sorted().map { .string($0) }), "changed": .array(changed.paths.sorted().map { .string($0) }),
                     "removed": .array(removed.map { .string($0) }), "unchanged": .int(unchanged), "limits": limits,
                     "disagreements": .array(disagreements), "nextChange": NextChange.json(next),
                     "rendered": .array(rendered.map { .string($0) })])
        }
        if dryRun {
            inv.render(document()) {
                added.paths.sorted().map { "add     \($0)\n" }.joined() + changed.paths.sorted().map { "change  \($0)\n" }.joined()
                    + removed.map { "remove  \($0)\n" }.joined()
            }
            inv.info("dry run: \(added.count) to add, \(changed.count) to change, \(removed.count) to remove, \(unchanged) unchanged; nothing written")
            inv.info(nextLine(next, at: at, inv: inv))
            return
        }
        inv.render(document()) { "" }
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
        return "next change at \(PeopleTime.format(next.at, now: at, timeZone: inv.timeZone)) (\(next.briefly)): publish again then"
    }
}

