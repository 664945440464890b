import RelctlCore
import RelctlStore

/// `relctl publish DIR --watch`: publishes now, after every committed change
/// to the database, and at each next-change instant, until SIGINT/SIGTERM.
///
/// Change detection polls SQLite's data version (Store.dataVersion) on the
/// open connection four times a second: it changes when any other connection (any
/// process) commits, costs one tiny query, and needs no inotify. The clock
/// is checked at the same rate, so a next-change instant is published within
/// a quarter second of it. Signals only set a flag: a publish in progress
/// finishes (journal closed, no temporary file left) before the loop exits.
enum PublishWatch {
    static let pollSeconds = 0.25

    static func run(_ inv: Invocation, dir: String) throws {
        if inv.flag("at") { throw RelctlError.usage("--watch publishes at the current time", hint: "drop --at, or publish --at TIME once without --watch") }
        if inv.flag("dry-run") { throw RelctlError.usage("--watch writes files; --dry-run writes none", hint: "drop one of them") }
        if let cmd = inv.value("exec"), cmd.trimmingSpaces().isEmpty {
            throw RelctlError.usage("--exec is empty", hint: "give a command, like --exec 'rclone copy \(dir) remote:updates'")
        }
        let store = try inv.store(.read)
        StopSignals.install()
        defer { StopSignals.restore() }
        var seen = try store.dataVersion()
        var due: NextChange? = nil
        var reason = "start"
        var failedAt: Int64? = nil
        var warned = Set<String>()
        // What --exec has yet to be handed. It runs after the first publish
        // whatever it changed (a deploy a stopped watcher left unfinished is
        // finished), and after each one that changed files; a failed run keeps
        // its paths and is tried again at the next trigger, at the latest in a minute.
        let exec = inv.value("exec")
        var unsent: Set<String> = []
        var execOwed = exec != nil
        var execFailedAt: Int64? = nil
        // The state the last publish made its files from: a commit that leaves it
        // as it was (this publish's own log row, another publish's) is no change.
        var published: (revision: Int64, edits: Int64)? = nil
        while true {
            let now = inv.context.clock()
            seen = (try? store.dataVersion()) ?? seen
            do {
                let o = try PublishCommand.publishOnce(inv, store: store, dir: dir, at: now, dryRun: false)
                due = o.next
                published = (o.revision, o.edits)
                // Each warning once, not at every publish.
                for w in o.warnings where !warned.contains(w) { inv.warn(w) }
                warned = Set(o.warnings)
                failedAt = nil
                let next = o.next.map { "next change at \(PeopleTime.format($0.at, now: now, timeZone: inv.timeZone)) (\($0.because))" } ?? "no change ahead"
                inv.info("\(PeopleTime.local(now, timeZone: inv.timeZone)) published (\(reason)), revision \(o.revision): \(o.added.count) added, \(o.changed.count) changed, \(o.removed.count) removed, \(o.unchanged) unchanged; \(next)")
                if inv.json { inv.context.stdout.write(bytes: publishJSON(o, dir: dir, at: now).compactBytes()) }
                inv.context.stdout.flush()
                inv.context.stderr.flush()
                if let exec {
                    if o.changedPaths.contains(where: { $0 != "index.json" }) { execOwed = true }
                    unsent.formUnion(o.changedPaths)
                    if execOwed {
                        if runExec(inv, exec, dir: dir, paths: unsent.sorted(), reason: reason) {
                            unsent = []; execOwed = false; execFailedAt = nil
                        } else {
                            execFailedAt = now
                        }
                    }
                }
            } catch {
                failedAt = now
                let e = RelctlError.from(error)
                inv.context.stderr.write("\(PeopleTime.local(now, timeZone: inv.timeZone)) publish failed (\(reason)): \(Runner.oneLine(e.message))\(e.hint.map { " — \(Runner.oneLine($0))" } ?? ""); retrying at the next change\n")
                inv.context.stderr.flush()
            }
            // Wait for a trigger: a committed write, the next-change instant, or a signal.
            reason = ""
            while reason.isEmpty {
                if StopSignals.pending != 0 {
                    inv.info("stopped (\(StopSignals.name(StopSignals.pending)))")
                    return
                }
                StopSignals.sleep(pollSeconds)
                if StopSignals.pending != 0 { continue }
                let now = inv.context.clock()
                if let v = try? store.dataVersion(), v != seen {
                    if let p = published, let state = try? store.read({ (try store.revision(), try store.edits()) }), state == p { seen = v } else { reason = "database changed" }
                }
                else if let d = due, now >= d.at { reason = d.because }
                // A failed publish whose cause is outside the database (a full
                // disk, a locked DIR) is retried once a minute as well.
                else if let f = failedAt, now - f >= 60 { reason = "retry" }
                else if let f = execFailedAt, now - f >= 60 { reason = "retry --exec" }
            }
        }
    }

    static func publishJSON(_ o: PublishCommand.Outcome, dir: String, at: Int64) -> JSON {
        .object(["dir": .string(dir), "publishedAt": .time(at), "revision": .int(o.revision),
                 "added": .int(o.added.count), "changed": .int(o.changed.count), "removed": .int(o.removed.count), "unchanged": .int(o.unchanged),
                 "changedPaths": .array(o.changedPaths.map { .string($0) }), "nextChange": IndexFormat.json(o.next)])
    }

    /// Whether CMD exited 0; a failure is warned about, and its paths stay owed.
    static func runExec(_ inv: Invocation, _ cmd: String, dir: String, paths: [String], reason: String) -> Bool {
        var env = inv.context.env
        env["RELCTL_DIR"] = dir
        // "start" for the run after the first publish, which may have changed nothing.
        env["RELCTL_REASON"] = reason
        env["RELCTL_CHANGED"] = paths.joined(separator: "\n")
        let status = Spawn.shell(cmd, arguments: paths, env: env)
        let retry = "; it runs again with these \(paths.count) paths at the next change, at the latest in a minute"
        switch status {
        case nil: inv.warn("--exec could not start /bin/sh" + retry)
        case 0?: break
        case let s? where s < 0: inv.warn("--exec was killed by signal \(-s)" + retry)
        case let s?: inv.warn("--exec exited with status \(s)" + retry)
        }
        inv.context.stderr.flush()
        return status == 0
    }
}
