import Foundation
import XCTest
@testable import RelctlCLI
@testable import RelctlCore
@testable import RelctlModel
@testable import RelctlPublish
@testable import RelctlStore
@testable import SQLite

/// Issue 29, the second hardening round: one defect per test, each failed before its fix.
final class HardeningRoundTwoTests: XCTestCase {
    let at = "2026-11-29T12:00:00Z"
    let fm = FileManager.default

    // 1. A link planted at any fixed name relctl writes in DIR (the state, its
    // old temporary name, the journal, deploy's pending deletions) never
    // leads a write outside DIR: each is replaced through a fresh temporary.
    func testALinkAtAFixedNameInDIRIsReplacedNotWrittenThrough() throws {
        let h = PublishTests.scenario()
        let out = h.dir + "/out", victim = h.dir + "/victim"
        let names = [".relctl-state", ".relctl-state.new", ".relctl-journal"]
        for name in names {
            for kind in ["hardlink", "symlink"] {
                for changing in [false, true] {
                    try Data("victim\n".utf8).write(to: URL(fileURLWithPath: victim))
                    XCTAssertEqual(h.run(["publish", out, "--at", at]).status, 0)
                    if changing { h.ok("notes set 2.0 --platform ios --locale tr \"Değişti \(name) \(kind)\"") }
                    try? fm.removeItem(atPath: out + "/" + name)
                    if kind == "symlink" { try fm.createSymbolicLink(atPath: out + "/" + name, withDestinationPath: victim) }
                    else { try fm.linkItem(atPath: victim, toPath: out + "/" + name) }
                    let r = h.run(["publish", out, "--at", at])
                    XCTAssertEqual(r.status, 0, "\(kind) at \(name): \(r.err)")
                    XCTAssertEqual(fm.contents(atPath: victim), Data("victim\n".utf8), "\(kind) at \(name), changing \(changing)")
                    // And the next publish still goes by a state of its own.
                    XCTAssertEqual(h.run(["publish", out, "--at", at]).status, 0)
                    XCTAssertEqual(fm.contents(atPath: victim), Data("victim\n".utf8), "\(kind) at \(name), second publish")
                }
            }
        }
        let left = try fm.contentsOfDirectory(atPath: out).filter { $0.hasPrefix(".relctl-tmp.") }
        XCTAssertEqual(left, [], "no temporary left at DIR's root")
    }

    /// rclone with no user configuration, and `bin` first on PATH (a wrapper of the test's);
    /// TMPDIR in the harness, so the path list a killed deploy leaves goes with it.
    func deployEnv(_ h: Harness, bin: String) -> [String: String] {
        ["TZ": "UTC", "PATH": bin + ":/usr/local/bin:/usr/bin:/bin", "HOME": h.dir, "RCLONE_CONFIG": "/dev/null", "TMPDIR": h.dir]
    }

    /// Whether process `pid` has ended within five seconds: gone, or a zombie nobody has reaped yet.
    func ended(_ pid: pid_t) -> Bool {
        for _ in 0..<50 {
            guard let stat = fm.contents(atPath: "/proc/\(pid)/stat"), let close = stat.lastIndex(of: UInt8(ascii: ")")),
                  close + 2 < stat.count else { return true }
            if stat[close + 2] == UInt8(ascii: "Z") { return true }
            usleep(100_000)
        }
        return false
    }

    func wrapper(_ path: String, _ body: String) throws {
        try ("#!/bin/sh\n" + body + "\nexec /usr/bin/rclone \"$@\"\n").write(toFile: path, atomically: true, encoding: .utf8)
        XCTAssertEqual(chmod(path, 0o755), 0)
    }

    // 2. Killed (a real SIGKILL) after index.json went up and before its
    // deletions, deploy left files on the remote that no later deploy removed.
    func testADeployKilledBeforeItsDeletionsIsFinishedByTheNext() throws {
        let h = PublishTests.scenario()
        let out = h.dir + "/out", remote = h.dir + "/remote", bin = h.dir + "/bin"
        for d in [remote, bin] { try fm.createDirectory(atPath: d, withIntermediateDirectories: true) }
        try wrapper(bin + "/rclone", "")
        let env = deployEnv(h, bin: bin)
        func relctl(_ args: [String]) throws -> Proc { try Proc.run(Package.binary, ["--db", h.db] + args, env: env) }
        XCTAssertEqual(try relctl(["publish", out]).status, 0)
        let first = try relctl(["deploy", out, remote])
        XCTAssertEqual(first.status, 0, first.err)
        h.ok("platform rm android --yes")
        XCTAssertEqual(try relctl(["publish", out]).status, 0)
        let stale = fileTree(remote).keys.filter { $0.hasPrefix("shop/android/") }
        XCTAssertFalse(stale.isEmpty)
        // The wrapper kills the deploy that runs it as it is about to delete.
        try wrapper(bin + "/rclone", "[ \"$1\" = delete ] && { kill -9 $PPID; sleep 5; exit 1; }")
        let killed = try relctl(["deploy", out, remote])
        XCTAssertNotEqual(killed.status, 0)
        XCTAssertEqual(fm.contents(atPath: remote + "/index.json"), fm.contents(atPath: out + "/index.json"), "killed after index.json")
        XCTAssertTrue(fm.fileExists(atPath: remote + "/" + stale[0]), "and before the deletions")
        try wrapper(bin + "/rclone", "")
        // A dry run names the deletions owed, and makes none.
        let dry = try relctl(["deploy", out, remote, "--dry-run", "--json"])
        XCTAssertEqual(dry.status, 0, dry.err)
        XCTAssertEqual(((try JSONSerialization.jsonObject(with: Data(dry.out.utf8)) as? [String: Any])?["deleted"] as? [String])?.sorted(), stale.sorted())
        XCTAssertTrue(fm.fileExists(atPath: remote + "/" + stale[0]))
        let next = try relctl(["deploy", out, remote])
        XCTAssertEqual(next.status, 0, next.err)
        XCTAssertTrue(next.err.contains("deleted \(stale.count)"), next.err)
        XCTAssertEqual(fileTree(remote), fileTree(out), "the stale files are gone")
        XCTAssertFalse(try String(contentsOfFile: remote + "/" + releasesRecord, encoding: .utf8).contains("shop/android"), "nothing is owed any more")
        // A failed deletion stays owed too, and a deploy to another remote owes nothing of it.
        h.ok("platform rm ios --yes")
        h.ok("platform add ios --bundle-id com.example.shop")
        XCTAssertEqual(try relctl(["publish", out]).status, 0)
        try wrapper(bin + "/rclone", "[ \"$1\" = delete ] && { echo 'ERROR : refused by the test' >&2; exit 1; }")
        let failed = try relctl(["deploy", out, remote + "/"])
        XCTAssertEqual(failed.status, 1)
        XCTAssertTrue(failed.err.contains("recorded in \(remote)/\(releasesRecord) for the next deploy"), failed.err)
        try wrapper(bin + "/rclone", "")
        let other = h.dir + "/other"
        try fm.createDirectory(atPath: other, withIntermediateDirectories: true)
        XCTAssertEqual(try relctl(["deploy", out, other]).status, 0)
        XCTAssertEqual(fileTree(other), fileTree(out))
        XCTAssertEqual(try relctl(["deploy", out, remote]).status, 0, "the same remote, spelled without the slash")
        XCTAssertEqual(fileTree(remote), fileTree(out))
    }

    // rclone got the files that capture another program's output twice: as its
    // stdout and stderr, and again under the numbers relctl opened them by. It runs
    // in relctl's process group: a terminal's Ctrl-C and Ctrl-Z, and a group's SIGKILL,
    // reach it with relctl, and what runs under it can still ask the terminal.
    func testRcloneHoldsOnlyItsOwnOutputInRelctlsGroup() throws {
        let h = PublishTests.scenario()
        let out = h.dir + "/out", remote = h.dir + "/remote", bin = h.dir + "/bin", seen = h.dir + "/seen"
        for d in [remote, bin] { try fm.createDirectory(atPath: d, withIntermediateDirectories: true) }
        let env = deployEnv(h, bin: bin)
        // Listed by find into a file of its own: a redirection in the wrapper would keep a copy of its stdout.
        try fm.createDirectory(atPath: seen, withIntermediateDirectories: true)
        let groups = h.dir + "/groups"
        try wrapper(bin + "/rclone", """
            find /proc/$$/fd/ -mindepth 1 -fprintf \(seen)/$$ '%f %l\\n'
            echo "$(cut -d' ' -f5 /proc/$$/stat) $(cut -d' ' -f5 /proc/$PPID/stat)" >> \(groups)
            """)
        XCTAssertEqual(try Proc.run(Package.binary, ["--db", h.db, "publish", out], env: env).status, 0)
        XCTAssertEqual(try Proc.run(Package.binary, ["--db", h.db, "deploy", out, remote], env: env).status, 0)
        let lines = try fm.contentsOfDirectory(atPath: seen).flatMap { String(decoding: fm.contents(atPath: seen + "/" + $0) ?? Data(), as: UTF8.self).split(separator: "\n") }
        let captures = lines.filter { $0.contains("/relctl-spawn.") }
        XCTAssertFalse(captures.isEmpty, "the wrapper ran")
        XCTAssertEqual(captures.filter { !$0.hasPrefix("1 ") && !$0.hasPrefix("2 ") }, [], "only as its stdout and stderr")
        let pairs = String(decoding: fm.contents(atPath: groups) ?? Data(), as: UTF8.self).split(separator: "\n")
        XCTAssertFalse(pairs.isEmpty)
        for pair in pairs { XCTAssertEqual(Set(pair.split(separator: " ")).count, 1, "rclone's group is relctl's: \(pair)") }
    }

    // Ctrl-C during a deploy ended relctl at once: the path list of the step it
    // was in stayed in TMPDIR for ever, and nothing said what the remote held.
    // It now stops the step (the signal is passed on to rclone, whoever was
    // signalled) or before the next, says where, and the next deploy finishes.
    func testADeployStoppedByCtrlCSaysWhereAndLeavesNoList() throws {
        let h = PublishTests.scenario()
        let out = h.dir + "/out", remote = h.dir + "/remote", bin = h.dir + "/bin", tmp = h.dir + "/tmp", mark = h.dir + "/signalled"
        for d in [remote, bin, tmp] { try fm.createDirectory(atPath: d, withIntermediateDirectories: true) }
        var env = deployEnv(h, bin: bin)
        env["TMPDIR"] = tmp
        func relctl(_ args: [String]) throws -> Proc { try Proc.run(Package.binary, ["--db", h.db] + args, env: env) }
        // The wrapper signals relctl alone (as `kill PID` would) the first time `when` holds, then does
        // `then`; ":" goes on to rclone once the signal relctl passes on has come and gone, ignored:
        // a step that finishes all the same.
        func signalling(_ signal: String, when: String, then: String) throws {
            if fm.fileExists(atPath: mark) { try fm.removeItem(atPath: mark) }
            try wrapper(bin + "/rclone", """
                prev=""; for a in "$@"; do [ "$prev" = --files-from-raw ] && list="$a"; prev="$a"; done
                if \(when) && [ ! -e \(mark) ]; then touch \(mark); \(then == ":" ? "trap '' INT TERM HUP; " : "")kill -\(signal) $PPID; \(then == ":" ? "sleep 1" : then); fi
                """)
        }
        // Stopped, said where, and ended by the signal, as a shell script running it expects.
        func stopped(_ p: Proc, _ signal: Int32, _ words: String..., file: StaticString = #filePath, line: UInt = #line) {
            XCTAssertTrue(p.bySignal && p.status == signal, "\(p.status) \(p.bySignal): \(p.err)", file: file, line: line)
            for w in words { XCTAssertTrue(p.err.contains(w), p.err, file: file, line: line) }
        }
        XCTAssertEqual(try relctl(["publish", out]).status, 0)
        // The first upload finishes after the signal: relctl stops before the next step.
        try signalling("INT", when: "[ \"$1\" = copy ]", then: ":")
        stopped(try relctl(["deploy", out, remote]), SIGINT, "stopped (SIGINT) before ", "index.json was not replaced, so readers still get the previous release")
        XCTAssertFalse(fm.fileExists(atPath: remote + "/index.json"))
        XCTAssertEqual(try fm.contentsOfDirectory(atPath: tmp), [], "no path list left")
        // An upload that would take half a minute is stopped with relctl: the signal is passed on.
        try signalling("TERM", when: "[ \"$1\" = copy ]", then: "exec sleep 30")
        let started = Date()
        let during = try relctl(["deploy", out, remote])
        XCTAssertLessThan(Date().timeIntervalSince(started), 20, "not after the step would have ended")
        stopped(during, SIGTERM, "stopped (SIGTERM) while uploading")
        XCTAssertEqual(try fm.contentsOfDirectory(atPath: tmp), [], "no path list left")
        // A wrapper that does not `exec` (the shell waits for what it started): the signal reached the
        // shell alone, which ended, and the upload it started went on after relctl said it had stopped.
        let upload = h.dir + "/upload.pid"
        try wrapper(bin + "/rclone", """
            [ "$1" = copy ] && sh -c 'echo $$ > \(upload); kill -TERM '$PPID'; exec sleep 30'
            """)
        let wrapped = Date()
        stopped(try relctl(["deploy", out, remote]), SIGTERM, "stopped (SIGTERM) while uploading")
        XCTAssertLessThan(Date().timeIntervalSince(wrapped), 20, "not after the upload would have ended")
        let uploading = try XCTUnwrap(pid_t(String(decoding: fm.contents(atPath: upload) ?? Data(), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)))
        XCTAssertTrue(ended(uploading), "what the wrapper started was told to stop too")
        // One the wrapper left behind (started in the background, its parent gone) is relctl's to tell too.
        try fm.removeItem(atPath: upload)
        try wrapper(bin + "/rclone", """
            [ "$1" = copy ] && { ( sh -c 'echo $$ > \(upload); exec sleep 30' & ); sleep 0.3; kill -TERM $PPID; sleep 1; }
            """)
        let behind = Date()
        stopped(try relctl(["deploy", out, remote]), SIGTERM, "stopped (SIGTERM) while uploading")
        XCTAssertLessThan(Date().timeIntervalSince(behind), 20, "not after what was left behind would have ended")
        let leftBehind = try XCTUnwrap(pid_t(String(decoding: fm.contents(atPath: upload) ?? Data(), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)))
        XCTAssertTrue(ended(leftBehind), "what the wrapper left behind was told to stop too")
        // The next deploy finishes: the remote is the tree.
        try wrapper(bin + "/rclone", "")
        XCTAssertEqual(try relctl(["deploy", out, remote]).status, 0)
        XCTAssertEqual(fileTree(remote), fileTree(out))
        // Stopped once index.json is up, before the deletions: the release is in place, the deletions owed.
        h.ok("platform rm android --yes")
        XCTAssertEqual(try relctl(["publish", out]).status, 0)
        try signalling("INT", when: "[ \"$1\" = copy ] && grep -qx index.json \"$list\"", then: ":")
        stopped(try relctl(["deploy", out, remote]), SIGINT, "stopped (SIGINT) before deleting",
                "the new release is in place, and the files that no longer belong are recorded in")
        XCTAssertEqual(fm.contents(atPath: remote + "/index.json"), fm.contents(atPath: out + "/index.json"))
        XCTAssertTrue(fileTree(remote).keys.contains { $0.hasPrefix("shop/android/") }, "not deleted yet")
        // The next deploy has only those deletions to make; stopped in them (the terminal closed), the release is still said to be in place.
        try signalling("HUP", when: "[ \"$1\" = delete ]", then: "exec sleep 30")
        stopped(try relctl(["deploy", out, remote]), SIGHUP, "stopped (SIGHUP) while deleting files that no longer belong: the new release is in place")
        XCTAssertEqual(try fm.contentsOfDirectory(atPath: tmp), [], "no path list left")
        try wrapper(bin + "/rclone", "")
        XCTAssertEqual(try relctl(["deploy", out, remote]).status, 0)
        XCTAssertEqual(fileTree(remote), fileTree(out))
        // Signalled during the last step, which finishes all the same: stopped after it, not carried on.
        h.ok("project edit --name \"Shop Two\"")
        XCTAssertEqual(try relctl(["publish", out]).status, 0)
        try signalling("INT", when: "[ \"$1\" = copy ] && grep -qx index.json \"$list\"", then: ":")
        stopped(try relctl(["deploy", out, remote]), SIGINT, "stopped (SIGINT) after its last step: the new release is in place")
        XCTAssertEqual(fileTree(remote), fileTree(out))
        // Started ignoring SIGINT (a job a script put in the background), it goes on ignoring it.
        h.ok("project edit --name \"Shop Three\"")
        XCTAssertEqual(try relctl(["publish", out]).status, 0)
        try signalling("INT", when: "[ \"$1\" = copy ]", then: ":")
        let deaf = try Proc.run("/bin/sh", ["-c", "trap '' INT; exec \"$0\" \"$@\"", Package.binary, "--db", h.db, "deploy", out, remote], env: env)
        XCTAssertEqual(deaf.status, 0, deaf.err)
        XCTAssertEqual(fileTree(remote), fileTree(out))
        XCTAssertEqual(try fm.contentsOfDirectory(atPath: tmp), [], "no path list or record copy left")
    }

    // 9. A remote index.json of any size was read whole (60 MB took 523 MB).
    func testAHugeRemoteIndexIsRefusedUnread() throws {
        let h = PublishTests.scenario()
        let out = h.dir + "/out", remote = h.dir + "/remote", bin = h.dir + "/bin"
        for d in [remote, bin] { try fm.createDirectory(atPath: d, withIntermediateDirectories: true) }
        XCTAssertEqual(h.run(["publish", out]).status, 0)
        // rclone's --count stops the read: the wrapper records how much it was asked for.
        try wrapper(bin + "/rclone", "[ \"$1\" = cat ] && echo \"$3\" > \(h.dir)/count")
        try Data(count: 17 << 20).write(to: URL(fileURLWithPath: remote + "/index.json"))
        h.env = deployEnv(h, bin: bin)
        h.fails("deploy \(out) \(remote)", "holds more than 16 MiB")
        XCTAssertEqual(try String(contentsOfFile: h.dir + "/count", encoding: .utf8), "\((16 << 20) + 1)\n")
        XCTAssertEqual(fm.contents(atPath: remote + "/index.json")?.count, 17 << 20, "nothing was sent")
    }

    // 8. Switching a new database to WAL met another process reading it and
    // failed at once ("stayed locked for 15 s" after 20 ms, 1 init in 800):
    // SQLite's busy timeout does not cover that lock.
    func testTheWALSwitchWaitsForAReader() throws {
        let h = Harness()
        let path = h.dir + "/race.db"
        let setup = try Connection(path: path, readOnly: false, create: true)
        try setup.execute("CREATE TABLE t(x)")
        let reader = try Connection(path: path, readOnly: true, create: false)
        try reader.execute("BEGIN")
        _ = try reader.query("SELECT count(*) FROM t")
        XCTAssertThrowsError(try setup.execute("PRAGMA journal_mode = WAL"), "without the retry, busy at once")
        // The reader lets go on another thread while the switch is retried.
        nonisolated(unsafe) let held = reader
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.3) { try? held.execute("COMMIT"); done.signal() }
        XCTAssertNoThrow(try setup.execute("PRAGMA journal_mode = WAL", retryingBusyFor: 15_000))
        done.wait()
        XCTAssertEqual(try setup.scalar("PRAGMA journal_mode"), .text("wal"))
        // And through relctl: 10 rounds of three racing inits, none refused.
        for round in 0..<10 {
            let db = h.dir + "/init\(round).db"
            let procs = try (0..<3).map { _ -> Process in
                let p = Process()
                p.executableURL = URL(fileURLWithPath: Package.binary)
                p.arguments = ["--db", db, "-q", "init"]
                p.environment = ["TZ": "UTC"]
                p.standardError = FileHandle.nullDevice
                try p.run()
                return p
            }
            for p in procs { p.waitUntilExit(); XCTAssertEqual(p.terminationStatus, 0, "round \(round)") }
        }
    }

    func utc(_ offset: TimeInterval) -> String { ISO8601DateFormatter().string(from: Date().addingTimeInterval(offset)) }

    func relctl(_ h: Harness, _ args: [String]) throws {
        let r = try Proc.run(Package.binary, ["--db", h.db, "-q"] + args, env: ["TZ": "UTC"])
        XCTAssertEqual(r.status, 0, "\(args): \(r.err)")
    }

    // 3. A hanging --exec (a stuck upload) held the watcher: nothing was
    // published, not even a window's start, and SIGTERM waited for it.
    func testAHangingExecNeitherHoldsPublishingNorTheStop() throws {
        let h = Harness()
        h.sample()
        let pidFile = h.dir + "/exec.pid"
        let w = try PublishWatchTests.Watcher(h, ["--exec", "echo $$ > \(pidFile); sleep 60"])
        w.wait(for: "published (start)")
        try relctl(h, ["maintenance", "schedule", "--from", utc(2), "--for", "2s", "--yes"])
        w.wait(for: "published (database changed)")
        w.wait(for: "published (maintenance window #1 (all platforms) starts)", seconds: 6)
        let control = try JSONSerialization.jsonObject(with: fm.contents(atPath: h.dir + "/out/shop/control.json")!) as? [String: Any]
        XCTAssertEqual(((control?["maintenance"] as? [String: Any])?["active"] as? [Any])?.count, 1, "published while --exec still ran")
        let pid = try XCTUnwrap(Int32(String(decoding: fm.contents(atPath: pidFile) ?? Data(), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)))
        XCTAssertEqual(kill(pid, 0), 0, "the command still runs")
        let asked = Date()
        XCTAssertEqual(w.stop(), 0)
        XCTAssertLessThan(Date().timeIntervalSince(asked), 3, "SIGTERM does not wait for the command: \(w.log)")
        XCTAssertTrue(w.log.contains("--exec was told to stop (SIGTERM) and did"), w.log)
        XCTAssertNotEqual(kill(pid, 0), 0, "the command's process group was stopped")
    }

    // 3. The timeout: a command past it is stopped, counted as failed, and a
    // command that ignores SIGTERM is killed after the grace.
    func testExecPastItsTimeoutIsStoppedThenKilled() throws {
        let h = Harness()
        h.sample()
        // The kill comes after the grace, shortened here from 5 s (debug builds only).
        let w = try PublishWatchTests.Watcher(h, ["--exec-timeout", "1s", "--exec", "trap '' TERM; sleep 60"], env: ["RELCTL_EXEC_GRACE": "0.5"])
        w.wait(for: "published (start)")
        // 1 s, then SIGTERM (ignored), then SIGKILL half a second later: well before the 5 s grace would end.
        w.wait(for: "--exec ran longer than --exec-timeout 1s and was stopped", seconds: 4)
        XCTAssertTrue(w.log.contains("it runs again with these"), w.log)
        XCTAssertEqual(w.stop(), 0)
        h.fails("publish \(h.dir)/out --exec-timeout 5m", status: 2, "--exec runs after each publish of --watch")
        h.fails("publish \(h.dir)/out --watch --exec true --exec-timeout 0s", status: 2, "--exec-timeout: the duration '0s' is zero")
        h.fails("publish \(h.dir)/out --watch --exec true --exec-timeout soon", status: 2, "invalid duration")
        h.fails("publish \(h.dir)/out --watch --exec-timeout 5m", status: 2, "--exec-timeout limits the command of --exec")
    }

    // 4. A backup restored under a running watcher (cp, then mv over the
    // database) was never noticed: it kept polling the unlinked old file.
    func testARestoredDatabaseIsPublishedFrom() throws {
        let h = Harness()
        h.sample()
        let backup = h.dir + "/backup.db"
        try fm.copyItem(atPath: h.db, toPath: backup)
        let w = try PublishWatchTests.Watcher(h, [])
        w.wait(for: "published (start)")
        try relctl(h, ["notes", "set", "2.0", "--platform", "ios", "--locale", "en", "Not in the backup"])
        w.wait(for: "published (database changed)")
        try fm.copyItem(atPath: backup, toPath: h.db + ".new")
        XCTAssertEqual(rename(h.db + ".new", h.db), 0)
        w.wait(for: "published (database replaced)")
        let notes = { String(decoding: self.fm.contents(atPath: h.dir + "/out/shop/ios/whatsnew/en.json") ?? Data(), as: UTF8.self) }
        XCTAssertFalse(notes().contains("Not in the backup"), "the restored database's files")
        // And what is written to the new file from then on.
        try relctl(h, ["notes", "set", "2.0", "--platform", "ios", "--locale", "en", "After the restore"])
        w.wait(for: "published (database changed)", count: 2)
        XCTAssertTrue(notes().contains("After the restore"), notes())
        // A file that is not a database in its place is said once, and the watcher waits for a good one.
        try Data("not a database".utf8).write(to: URL(fileURLWithPath: h.db + ".new"))
        XCTAssertEqual(rename(h.db + ".new", h.db), 0)
        w.wait(for: "was replaced by one that cannot be read")
        try fm.copyItem(atPath: backup, toPath: h.db + ".new")
        XCTAssertEqual(rename(h.db + ".new", h.db), 0)
        w.wait(for: "published (database replaced)", count: 2)
        XCTAssertEqual(w.log.components(separatedBy: "cannot be read").count - 1, 1, w.log)
        XCTAssertEqual(w.stop(), 0)
    }

    /// `text` with the bytes of `marker` (ASCII) replaced by `bytes` that are not UTF-8.
    func withBadBytes(_ text: String, _ marker: String, _ bytes: [UInt8] = [0xC3, 0x28, 0xFF]) -> Data {
        let parts = text.components(separatedBy: marker)
        XCTAssertEqual(parts.count, 2, "the marker \(marker) is in the text once")
        return Data(Array(parts[0].utf8) + bytes + Array(parts[1].utf8))
    }

    // 5. Bytes that are not UTF-8 inside a string were stored as U+FFFD (in a key they were refused).
    func testImportRefusesBytesThatAreNotUTF8WithTheValuesPath() throws {
        let h = Harness()
        h.ok("init")
        h.ok("project add shop --name Shop --locales en,tr")
        h.ok("platform add ios --bundle-id com.example.shop --app-store-id 1088280260")
        h.ok("platform add android --bundle-id com.example.shop")
        h.ok("version add 2.0 --platform android --build 200")
        let messaging = #""messaging":{"forced":{"title":"T","message":"M","continueButtonText":"U"},"recommended":{"title":"T","message":"M","continueButtonText":"U","cancelButtonText":"L"}}"#
        let retired = "{\(messaging),\"versions\":[{\"version\":\"1.0\",\"policy\":\"force\"},{\"version\":\"2.0\",\"policy\":\"none\"}]}"
        // Each text holds one X, where the bad bytes go.
        let cases: [(format: String, platform: String, text: String, place: String)] = [
            ("retired", "ios", retired.replacingOccurrences(of: #""message":"M","continueButtonText":"U","c"#, with: #""message":"MX","continueButtonText":"U","c"#), "messaging.recommended.message"),
            ("retired", "ios", retired.replacingOccurrences(of: "\"policy\":\"none\"", with: "\"policy\":\"nonX\""), "versions[1].policy"),
            ("retired", "ios", retired.replacingOccurrences(of: "\"versions\"", with: "\"versXons\""), "a member name in the top-level object"),
            ("andversion", "ios", #"{"AndVersion":{"CurrentVersion":"2.0","MinVersion":"1.0","AppStoreId":"1088280260","WhatsNew":{"tr":["Yeni X"]}}}"#, "AndVersion.WhatsNew.tr[0]"),
            ("andversion", "android", #"{"AndVersion":{"CurrentVersion":200,"MinVersion":200,"WhatsNew":{"en":["New X"]}}}"#, "AndVersion.WhatsNew.en[0]"),
        ]
        for (i, c) in cases.enumerated() {
            let path = h.dir + "/bad\(i).json"
            try withBadBytes(c.text, "X").write(to: URL(fileURLWithPath: path))
            h.fails("import \(c.format) \(path) --platform \(c.platform)", "cannot import \(path): \(c.place): holds bytes that are not UTF-8 text")
            // The same file with good bytes there is not refused for its text.
            try withBadBytes(c.text, "X", Array("ü".utf8)).write(to: URL(fileURLWithPath: path))
            XCTAssertFalse(h.run("import \(c.format) \(path) --platform \(c.platform) --dry-run").err.contains("UTF-8"))
        }
        // control.json: a project's name.
        let src = PublishTests.scenario()
        XCTAssertEqual(src.run(["publish", src.dir + "/out", "--at", at]).status, 0)
        let control = try String(contentsOfFile: src.dir + "/out/shop/control.json", encoding: .utf8).replacingOccurrences(of: "\"name\":\"Shop\"", with: "\"name\":\"ShXp\"")
        let path = h.dir + "/control.json"
        try withBadBytes(control, "ShXp", Array("Sh".utf8) + [0xE2, 0x82] + Array("p".utf8)).write(to: URL(fileURLWithPath: path))
        h.fails("import control \(path) -p copy --yes", "cannot import \(path): project.name: holds bytes that are not UTF-8 text")
        XCTAssertEqual(JSONReader.invalidUTF8(Array("{\"a\":[1,{\"b\":\"ok\"},\"".utf8) + [0x80] + Array("\"]}".utf8)), "a[2]")
        XCTAssertNil(JSONReader.invalidUTF8(Array("{\"a\":\"\u{FFFD} is a character like any\"}".utf8)))
        // Checked a megabyte at a time: characters of 2, 3 and 4 bytes across each piece's end, with
        // ASCII between them or none for megabytes; a bad byte in a later piece is found and placed.
        for text in [String(repeating: "é€😀a", count: 300_000), String(repeating: "é€😀", count: 300_000)] {
            let good = Array("{\"a\":\"x\",\"b\":\"\(text)\"}".utf8)
            XCTAssertGreaterThan(good.count, 5 << 19)
            XCTAssertNil(JSONReader.invalidUTF8(good))
            for at in [good.count - 5, (2 << 20) + 1] {
                var bad = good
                bad[at] = 0xFF
                XCTAssertEqual(JSONReader.invalidUTF8(bad), "b", "\(at)")
            }
        }
    }

    // 6, 9. An import of thousands of versions (quadratic before: 20,000 took
    // over 5 minutes, holding the write lock) lands whole, in one audit row;
    // importing the same file again changes nothing and logs nothing.
    func testALargeImportLandsInOneRowAndAnUnchangedOneInNone() throws {
        let h = Harness()
        h.ok("init")
        h.ok("project add shop --name Shop")
        h.ok("platform add ios --bundle-id com.example.shop --app-store-id 1088280260")
        let n = 1500
        let versions = (0..<n).map { "{\"version\":\"1.\($0 / 100).\($0 % 100)\",\"policy\":\"\($0 < 200 ? "force" : $0 % 7 == 0 ? "recommend" : "none")\"}" }
        let text = #"{"messaging":{"forced":{"title":"T","message":"M","continueButtonText":"U"},"recommended":{"title":"T","message":"M","continueButtonText":"U","cancelButtonText":"L"}},"versions":["# + versions.joined(separator: ",") + "]}"
        let path = h.dir + "/many.json"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        func auditRows() throws -> Int64? { try Connection(path: h.db, readOnly: true, create: false).query("SELECT count(*) FROM audit")[0].int(0) }
        let before = try auditRows()
        h.ok("import retired \(path) --platform ios --yes")
        XCTAssertEqual(try auditRows(), before.map { $0 + 1 })
        let listed = (h.ok("version list --platform ios --json").json as? [String: Any])?["versions"] as? [Any]
        XCTAssertEqual(listed?.count, n)
        XCTAssertEqual((h.ok("check 1.1.99 --platform ios --json").json as? [String: Any])?["verdict"] as? String, "required")
        let again = h.ok("import retired \(path) --platform ios --yes")
        XCTAssertTrue(again.err.contains("unchanged (nothing written or logged)"), again.err)
        XCTAssertEqual(try auditRows(), before.map { $0 + 1 }, "an import that changes nothing logs nothing")
        // The same for a control document.
        let out = h.dir + "/out"
        XCTAssertEqual(h.run(["publish", out]).status, 0)
        let rows = try auditRows()
        h.ok("import control \(out)/shop/control.json --yes")
        XCTAssertEqual(try auditRows(), rows, "a control import that changes nothing logs nothing")
    }

    // 7. Text in an integer column of a table that lost STRICT: `log` died
    // with SIGILL on audit.at; elsewhere it read as NULL, so a cancelled
    // window came back and a deadline vanished. Each is now a bad row, named.
    func testTextInAnIntegerColumnIsABadRowNamed() throws {
        let cases: [(table: String, sql: String, names: String, by: [String])] = [
            ("audit", "UPDATE audit SET at = 'yesterday' WHERE id = 2", "audit.at of row id 2 holds the text 'yesterday'", ["log", "log --json"]),
            ("maintenance", "UPDATE maintenance SET cancelled_at = 'soon'", "maintenance.cancelled_at of row id 1 holds the text 'soon'", ["status", "check 1.0 --platform ios", "publish OUT"]),
            ("platform", "UPDATE platform SET force_deadline = '2026-12-08' WHERE name = 'ios'", "platform.force_deadline of row id 1 holds the text '2026-12-08'", ["check 1.0 --platform ios", "status", "publish OUT"]),
            ("version", "UPDATE version SET build = 1.5 WHERE version = '1.1'", "version.build of row id 2 holds the number '1.5'", ["version list --platform ios", "publish OUT"]),
            ("version", "UPDATE version SET released_at = 'today' WHERE version = '2.0'", "version.released_at of row id 3 holds the text 'today'", ["check 1.0 --platform ios", "publish OUT"]),
        ]
        for c in cases {
            let h = Harness()
            h.sample()
            h.ok("maintenance schedule --platform ios --from 2026-12-05T02:00:00Z --until 2026-12-05T03:00:00Z --yes")
            h.ok("maintenance cancel 1 --yes")
            h.ok("force 1.1 --platform ios --after 7d --yes")
            // The table as a foreign writer would leave it: without STRICT, and a value of the wrong type.
            try sqlite3(h, "PRAGMA writable_schema = ON; UPDATE sqlite_schema SET sql = replace(replace(sql, 'STRICT, ', ''), ') STRICT', ')') WHERE name = '\(c.table)'; PRAGMA writable_schema = OFF;")
            try sqlite3(h, "PRAGMA foreign_keys = OFF; " + c.sql)
            for line in c.by.map({ $0.replacingOccurrences(of: "OUT", with: h.dir + "/out") }) {
                let r = h.fails(line, "has a bad row: ")
                XCTAssertTrue(r.err.contains(c.names), "\(c.sql) → \(line): \(r.err)")
            }
            XCTAssertFalse(fm.fileExists(atPath: h.dir + "/out/index.json"), "no publish over a bad row")
        }
    }

    // 9. An unbalanced right-to-left override in a project's name reversed the
    // rest of the status page's title and headings: user text is isolated.
    func testUserTextCannotTurnThePageRightToLeft() throws {
        let h = Harness()
        h.sample()
        // An override in a name is refused (issue 44): every message shows the name.
        h.fails("project edit shop --name \"Shop \u{202E}evil\"", status: 2, "direction override")
        h.ok("project edit shop --name \"Shop שופ\"")
        h.ok("message set required --locale en --message \"\u{202E}Update now\"")
        h.ok("force 1.1 --platform ios --yes")
        h.ok("notes set 2.0 --platform ios --locale en \"\u{202B}Faster\"")
        XCTAssertEqual(h.run(["publish", h.dir + "/out", "--at", at]).status, 0)
        let page = String(decoding: fm.contents(atPath: h.dir + "/out/shop/status.html") ?? Data(), as: UTF8.self)
        XCTAssertTrue(page.contains("<title>\u{2068}Shop שופ\u{2069} — release status</title>"), "the title's name is isolated")
        XCTAssertTrue(page.contains("<h1><bdi>Shop שופ</bdi> <span class=\"mut\">(shop)</span></h1>"), "the heading's name is isolated")
        XCTAssertTrue(page.contains("<bdi>Update required — \u{202E}Update now</bdi>"), "a message is isolated")
        XCTAssertTrue(page.contains("<bdi>\u{202B}Faster</bdi>"), "notes are isolated")
        let index = String(decoding: fm.contents(atPath: h.dir + "/out/index.html") ?? Data(), as: UTF8.self)
        XCTAssertTrue(index.contains("<bdi>Shop שופ</bdi></a>"), "and on the index page")
        // ASCII text has no direction of its own: it stays bare.
        XCTAssertFalse(page.contains("<bdi>2.0"))
    }
}
