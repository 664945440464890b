#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import RelctlCore
import RelctlPublish
import RelctlStore

/// `relctl publish DIR --watch`: publishes now, after every committed change
/// to the database, and at each next-change instant, until SIGINT, SIGTERM or SIGHUP.
///
/// Change detection polls SQLite's data version (Store.dataVersion) on the
/// open connection four times a second: it changes when any other connection (any
/// process) commits, costs one tiny query, and needs no inotify. The clock
/// is checked at the same rate, so a next-change instant is published within
/// a quarter second of it. The database's path is looked at too: a file
/// put in its place (a backup restored with `mv`) is opened and published
/// from, never the unlinked old one. Signals only set a flag: a publish in
/// progress finishes (journal closed, no temporary file left) before the loop exits.
///
/// --exec runs beside the loop, never in it: a stuck upload must not hold
/// back a deadline or a window's start. It gets --exec-timeout, and is told
/// to stop (SIGTERM to its process group, SIGKILL after a grace) when it
/// runs past it or when the watcher stops.
enum PublishWatch {
    static let pollSeconds = 0.25
    /// How long a command told to stop has before it is killed: well inside
    /// the 90 s a service manager waits after its own SIGTERM. Debug builds
    /// take RELCTL_EXEC_GRACE (seconds), so a test of the kill need not wait 5 s.
    static let graceSeconds: Double = {
        #if DEBUG
        if let s = getenv("RELCTL_EXEC_GRACE").flatMap({ Double(String(cString: $0)) }), s > 0 && s <= 5 { return s }
        #endif
        return 5.0
    }()

    static func run(_ inv: Invocation, dir: String) throws {
        if inv.flag("at") { throw RelctlError.usage("--watch publishes at the current time", hint: "drop --at, or publish --at TIME once without --watch") }
        if inv.flag("dry-run") { throw RelctlError.usage("--watch writes files; --dry-run writes none", hint: "drop one of them") }
        if let cmd = inv.value("exec"), cmd.trimmingSpaces().isEmpty {
            throw RelctlError.usage("--exec is empty", hint: "give a command, like --exec 'rclone copy \(dir) remote:updates'")
        }
        let timeout = try execTimeout(inv)
        var database = try Database(inv)
        let lockWait = inv.context.publishLockWait
        StopSignals.install()
        defer { StopSignals.restore() }
        var due: NextChange? = nil
        var reason = "start"
        var failedAt: Int64? = nil
        var warned = Set<String>()
        var exec = inv.value("exec").map { Exec(command: $0, timeout: timeout) }
        // What --exec starts and orphans is handed to the watcher, which stops it when it stops.
        if exec != nil { Spawn.becomeSubreaper() }
        // The state the last publish made its files from: a commit that leaves it
        // as it was (this publish's own log row, another publish's) is no change.
        var published: (revision: Int64, edits: Int64)? = nil
        while true {
            let now = inv.context.clock()
            if let store = database.store {
                database.seen = (try? store.dataVersion()) ?? database.seen
                // While --exec runs it may hold DIR (deploy takes the publish lock): no long wait for it here.
                inv.context.publishLockWait = exec?.running != nil ? pollSeconds : lockWait
                do {
                    let o = try PublishCommand.publishOnce(inv, store: store, dir: dir, at: now, dryRun: false)
                    due = o.next
                    published = (o.revision, o.edits)
                    // Each warning once, not at every publish.
                    for w in o.warnings where !warned.contains(w) { inv.warn(w) }
                    warned = Set(o.warnings)
                    failedAt = nil
                    let next = o.next.map { "next change at \(PeopleTime.format($0.at, now: now, timeZone: inv.timeZone)) (\($0.briefly))" } ?? "no change ahead"
                    inv.info("\(PeopleTime.local(now, timeZone: inv.timeZone)) published (\(reason)), revision \(o.revision): \(o.added.count) added, \(o.changed.count) changed, \(o.removed.count) removed, \(o.unchanged) unchanged; \(next)")
                    if inv.json { inv.context.stdout.write(bytes: publishJSON(o, dir: dir, at: now).compactBytes()) }
                    inv.context.stdout.flush()
                    inv.context.stderr.flush()
                    exec?.owe(o.changedPaths)
                } catch {
                    failedAt = now
                    // Told to stop while it waited: the "stopped" line below says so.
                    if StopSignals.pending == 0 {
                        let e = RelctlError.from(error)
                        let retry = exec?.running != nil ? "retrying when --exec ends or at the next change" : "retrying at the next change"
                        inv.context.stderr.write("\(PeopleTime.local(now, timeZone: inv.timeZone)) publish failed (\(reason)): \(Runner.oneLine(e.message))\(e.hint.map { " — \(Runner.oneLine($0))" } ?? ""); \(retry)\n")
                        inv.context.stderr.flush()
                    }
                }
            }
            if StopSignals.pending == 0 { exec?.startIfOwed(inv, dir: dir, reason: reason) }
            // Wait for a trigger: a committed write, the next-change instant, a new database file, --exec ending, or a signal.
            reason = ""
            while reason.isEmpty {
                if StopSignals.pending != 0 {
                    let stopped = exec?.stop(inv, because: "the watcher is stopping") ?? ""
                    inv.info("stopped (\(StopSignals.name(StopSignals.pending)))" + stopped)
                    return
                }
                StopSignals.sleep(pollSeconds)
                if StopSignals.pending != 0 { continue }
                let now = inv.context.clock()
                if exec?.reap(inv) == true {
                    // A publish it held DIR from goes now; a run that failed waits for the next trigger.
                    if failedAt != nil { reason = "retry after --exec"; break }
                    if exec?.failedAt == nil { exec?.startIfOwed(inv, dir: dir, reason: "changed while --exec ran") }
                }
                if database.replaced(inv) { reason = "database replaced"; continue }
                guard let store = database.store else { continue }
                if let v = try? store.dataVersion(), v != database.seen {
                    if let p = published, let state = try? store.read({ (try store.revision(), try store.edits()) }), state == p { database.seen = v } else { reason = "database changed" }
                }
                else if let d = due, now >= d.at { reason = d.because }
                // A failed publish whose cause is outside the database (a full
                // disk, a locked DIR) is retried once a minute as well.
                else if let f = failedAt, now - f >= 60 { reason = "retry" }
                else if let f = exec?.failedAt, now - f >= 60, exec?.running == nil { exec?.failedAt = nil; exec?.startIfOwed(inv, dir: dir, reason: "retry --exec") }
            }
        }
    }

    /// --exec-timeout in seconds.
    static func execTimeout(_ inv: Invocation) throws -> Int64 {
        let text = inv.value("exec-timeout") ?? "10m"
        if inv.flag("exec-timeout") && !inv.flag("exec") {
            throw RelctlError.usage("--exec-timeout limits the command of --exec", hint: "add --exec CMD, or drop --exec-timeout")
        }
        do { return try Time.parseDuration(text) } catch let e as InputError { throw RelctlError.usage("--exec-timeout: " + e.message, hint: e.hint) }
    }

    static func publishJSON(_ o: Publisher.Outcome, dir: String, at: Int64) -> JSON {
        .object(["dir": .string(dir), "publishedAt": .time(at), "revision": .int(o.revision),
                 "added": .int(o.added.count), "changed": .int(o.changed.count), "removed": .int(o.removed.count), "unchanged": .int(o.unchanged),
                 "changedPaths": .array(o.changedPaths.map { .string($0) }), "nextChange": NextChange.json(o.next)])
    }

    /// The database the watcher publishes from, and the file it was opened as.
    struct Database {
        let path: String
        var store: Store?
        var identity: (device: UInt64, inode: UInt64)?
        /// The data version seen at the last publish.
        var seen: Int64 = 0
        /// What the path held when it last could not be opened: said once, not four times a second.
        /// Known by its content's signature too, not by its inode alone: a file
        /// fixed in place (`cp good.db` over it) or a new one on a reused inode is tried again.
        var refused: Signature?? = nil

        /// A file as stat(2) tells it apart: where it is, and when and how its content last changed.
        struct Signature: Equatable {
            var device: UInt64, inode: UInt64, size: Int64, modified: timespec, changed: timespec

            static func == (a: Signature, b: Signature) -> Bool {
                a.device == b.device && a.inode == b.inode && a.size == b.size
                    && a.modified.tv_sec == b.modified.tv_sec && a.modified.tv_nsec == b.modified.tv_nsec
                    && a.changed.tv_sec == b.changed.tv_sec && a.changed.tv_nsec == b.changed.tv_nsec
            }

            init?(of path: String) {
                var st = stat()
                guard stat(path, &st) == 0 else { return nil }
                (device, inode, size, modified, changed) = (UInt64(st.st_dev), UInt64(st.st_ino), Int64(st.st_size), st.st_mtim, st.st_ctim)
            }
        }

        init(_ inv: Invocation) throws {
            path = inv.dbPath
            identity = Database.identity(of: path)
            store = try inv.store(.read)
            seen = try store!.dataVersion()
        }

        static func identity(of path: String) -> (device: UInt64, inode: UInt64)? {
            var st = stat()
            guard stat(path, &st) == 0 else { return nil }
            return (UInt64(st.st_dev), UInt64(st.st_ino))
        }

        /// Whether another file now stands at the path and was opened: a
        /// restored backup. A file that cannot be opened (or none at all) is
        /// said once, and nothing is published until a usable one is there.
        mutating func replaced(_ inv: Invocation) -> Bool {
            let now = Database.identity(of: path)
            if let now, let was = identity, now == was { return false }
            let signature = Signature(of: path)
            if let r = refused, r == signature { return false }
            let time = PeopleTime.local(inv.context.clock(), timeZone: inv.timeZone)
            let wasRefused = refused != nil
            store = nil
            identity = nil
            guard now != nil else {
                refused = .some(nil)
                inv.context.stderr.write("\(time) the database \(path) is gone; publishing again when a database is there\n")
                inv.context.stderr.flush()
                return false
            }
            do {
                let opened = try inv.store(.read)
                seen = try opened.dataVersion()
                (store, identity, refused) = (opened, now, nil)
                if wasRefused { inv.context.stderr.write("\(time) the database \(path) can be read again\n") }
                return true
            } catch {
                refused = .some(signature)
                let e = RelctlError.from(error)
                inv.context.stderr.write("\(time) the database \(path) was replaced by one that cannot be read: \(Runner.oneLine(e.message)); publishing again when a database is there\n")
                inv.context.stderr.flush()
                return false
            }
        }
    }

    /// --exec: what it is owed, and the run in progress.
    struct Exec {
        let command: String
        let timeout: Int64
        /// Paths changed since the last run that succeeded, not yet handed to a run.
        var unsent: Set<String> = []
        /// It runs after the first publish whatever that changed (a deploy a
        /// stopped watcher left unfinished is finished), and after each one
        /// that changed files; a failed run keeps its paths and is tried again
        /// at the next trigger, at the latest in a minute.
        var owed = true
        var failedAt: Int64?
        var running: (process: Spawn.Running, paths: [String], started: Double, stopping: Double?)?
        var lastSwept: Double = 0

        mutating func owe(_ changed: [String]) {
            if changed.contains(where: { $0 != "index.json" }) { owed = true }
            unsent.formUnion(changed)
        }

        /// Starts the command when it is owed and none runs.
        mutating func startIfOwed(_ inv: Invocation, dir: String, reason: String) {
            guard owed, running == nil else { return }
            let paths = unsent.sorted()
            var env = inv.context.env
            env["RELCTL_DIR"] = dir
            // "start" for the run after the first publish, which may have changed nothing.
            env["RELCTL_REASON"] = reason
            env["RELCTL_CHANGED"] = paths.joined(separator: "\n")
            inv.context.stdout.flush()
            inv.context.stderr.flush()
            guard let process = Spawn.Running.shell(command, arguments: paths, env: env) else {
                failed(inv, "--exec could not start /bin/sh", paths: paths)
                return
            }
            running = (process, paths, Exec.seconds(), nil)
            owed = false
            unsent = []
        }

        /// Looks at the run in progress: true when it has ended (its outcome
        /// said). One that ran past the timeout is told to stop, and killed
        /// after the grace.
        mutating func reap(_ inv: Invocation) -> Bool {
            // What an earlier run left behind and the kernel handed here is reaped as it ends (a second at a time: /proc is read).
            if Exec.seconds() - lastSwept >= 1 {
                lastSwept = Exec.seconds()
                _ = Spawn.descendants(of: running?.process.pid ?? -1)
            }
            guard let run = running else { return false }
            if let status = run.process.status() {
                running = nil
                switch status {
                case 0 where run.stopping == nil: failedAt = nil
                case _ where run.stopping != nil: failed(inv, "--exec ran longer than --exec-timeout \(Exec.duration(timeout)) and was stopped", paths: run.paths)
                case let s where s < 0: failed(inv, "--exec was killed by signal \(-s)", paths: run.paths)
                default: failed(inv, "--exec exited with status \(status)", paths: run.paths)
                }
                return true
            }
            let now = Exec.seconds()
            if let stopping = run.stopping {
                if now - stopping >= PublishWatch.graceSeconds { run.process.signal(SIGKILL) }
            } else if now - run.started >= Double(timeout) {
                run.process.signal(SIGTERM)
                running?.stopping = now
            }
            return false
        }

        /// Tells a run in progress to stop, and what runs on below it (a
        /// process that left its group, one it orphaned), and waits for them,
        /// the grace at most, then kills them; what to add to the "stopped" line.
        mutating func stop(_ inv: Invocation, because: String) -> String {
            let run = running
            let root = run?.process.pid ?? -1
            guard run != nil || Spawn.descendants(of: root).isEmpty == false else { return "" }
            if let run { run.process.signal(SIGTERM) } else { for p in Spawn.descendants(of: root) { kill(p, SIGTERM) } }
            let start = Exec.seconds()
            var ended = run == nil
            while true {
                if !ended, run?.process.status() != nil { ended = true }
                if ended && Spawn.descendants(of: root).isEmpty { break }
                if Exec.seconds() - start >= PublishWatch.graceSeconds {
                    if let run, !ended {
                        run.process.signal(SIGKILL)
                        _ = run.process.status(wait: true)
                    }
                    for p in Spawn.descendants(of: root) { kill(p, SIGKILL) }
                    running = nil
                    let grace = PublishWatch.graceSeconds
                    return "; --exec did not stop within \(grace == grace.rounded() ? String(Int(grace)) : String(grace)) s of SIGTERM and was killed"
                }
                usleep(20_000)
            }
            running = nil
            return run == nil ? "; what --exec left running was told to stop (SIGTERM) and did" : "; --exec was told to stop (SIGTERM) and did"
        }

        /// A run that did not succeed keeps its paths for the next.
        mutating func failed(_ inv: Invocation, _ what: String, paths: [String]) {
            unsent.formUnion(paths)
            owed = true
            failedAt = inv.context.clock()
            inv.warn(what + "; it runs again with these \(unsent.count) paths at the next change, at the latest in a minute")
            inv.context.stderr.flush()
        }

        static func seconds() -> Double {
            var ts = timespec()
            clock_gettime(CLOCK_MONOTONIC, &ts)
            return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
        }

        static func duration(_ seconds: Int64) -> String {
            seconds % 3600 == 0 ? "\(seconds / 3600)h" : seconds % 60 == 0 ? "\(seconds / 60)m" : "\(seconds)s"
        }
    }
}
