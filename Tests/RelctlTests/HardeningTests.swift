import Foundation
import XCTest
@testable import RelctlCLI
@testable import RelctlCore
@testable import RelctlModel
@testable import RelctlPublish
@testable import RelctlStore
@testable import SQLite

/// Issue 11, one defect per test: each failed before the fix.
final class HardeningTests: XCTestCase {
    let at = "2026-11-29T12:00:00Z"

    func binary(_ args: [String], env: [String: String] = ["TZ": "UTC", "PATH": "/usr/bin:/bin"], cwd: String? = nil) throws -> Proc {
        try Proc.run(Package.binary, args, env: env, cwd: cwd)
    }

    func files(_ dir: String) -> [String: Data] {
        var out: [String: Data] = [:]
        guard let e = FileManager.default.enumerator(atPath: dir) else { return out }
        while let p = e.nextObject() as? String {
            var isDir: ObjCBool = false
            if p != publishState, FileManager.default.fileExists(atPath: dir + "/" + p, isDirectory: &isDir), !isDir.boolValue {
                out[p] = FileManager.default.contents(atPath: dir + "/" + p) ?? Data()
            }
        }
        return out
    }

    // 1. An empty path is refused everywhere a path is taken.
    func testAnEmptyPathIsRefused() {
        let h = Harness()
        h.sample()
        let r = h.fails("publish \"\"", status: 2, "DIR is empty")
        XCTAssertFalse(r.err.contains("published"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: "/index.json"), "published into the filesystem root")
        let context = Context(env: ["TZ": "UTC"])
        XCTAssertEqual(Runner.run(["--db", "", "init"], context: context, tree: Relctl.tree), 2)
        XCTAssertTrue(context.stderr.text.contains("--db is empty"), context.stderr.text)
        XCTAssertThrowsError(try Store(path: "", mode: .create, user: "t"), "the store refuses it too")
    }

    // 2. Hand-edited rows whose values overflow date arithmetic or break
    // the control document are bad rows, named, for every reading command.
    func testRowsThatWouldOverflowOrCollideAreBadRows() throws {
        let cases: [(sql: String, names: String, commands: [String])] = [
            ("UPDATE project SET locales = 'en,tr,en'", "locale list names 'en' twice", ["status", "publish out", "project show shop"]),
            ("UPDATE project SET locales = 'en,EN'", "locale list", ["status", "publish out"]),
            ("UPDATE project SET locales = 'en,../../x'", "locale list", ["publish out"]),
            ("UPDATE project SET release_delay_days = 9223372036854775807", "release_delay_days", ["status", "check 1.0 --platform ios", "publish out", "rules show"]),
            ("UPDATE project SET release_delay_days = -1", "release_delay_days", ["status"]),
            ("UPDATE project SET remind_hours = 9223372036854775807", "remind_hours", ["status", "publish out"]),
            ("UPDATE version SET released_at = 9223372036854775807 WHERE version = '1.0'", "released_at", ["status", "check 1.0 --platform ios", "publish out", "version list --platform ios"]),
            ("UPDATE version SET released_at = -9223372036854775808 WHERE version = '1.0'", "released_at", ["status", "publish out"]),
            ("UPDATE version SET released_at = 253402300800 WHERE version = '2.0'", "released_at", ["status", "publish out"]),
            ("INSERT INTO maintenance(project_id, starts_at, ends_at) VALUES (1, 0, 9223372036854775807)", "ends_at", ["status", "maintenance list", "maintenance status", "publish out"]),
            ("INSERT INTO maintenance(project_id, starts_at) VALUES (1, 99999999999999)", "starts_at", ["status", "maintenance list", "publish out"]),
            ("UPDATE audit SET at = 9223372036854775807 WHERE id = 2", "audit entry #2", ["log"]),
            ("UPDATE version SET policy = 'maybe' WHERE version = '1.0'", "policy 'maybe'", ["status", "publish out"]),
            ("UPDATE project SET outdated = 'sometimes'", "outdated policy", ["status", "publish out"]),
            ("UPDATE platform SET name = 'iOS/../x' WHERE name = 'ios'", "is not a known platform", ["status", "publish out"]),
            ("UPDATE project SET time_zone = '../../etc'", "its time zone", ["status", "publish out"]),
            ("UPDATE platform SET force_deadline = 1800000000 WHERE name = 'ios'", "force deadline but no force floor", ["status", "publish out", "check 1.0 --platform ios"]),
            ("UPDATE platform SET force_version = '2.0', force_deadline = 253402300800 WHERE name = 'ios'", "force deadline", ["status", "publish out"]),
            ("INSERT INTO message VALUES (1, 'required', 'x/y', 'title', 't')", "locale 'x/y'", ["publish out", "message show"]),
            ("INSERT INTO message VALUES (1, 'bogus', 'en', 'title', 't')", "'bogus.title'", ["publish out"]),
            ("INSERT INTO note SELECT id, '../../etc', 'x' FROM version WHERE version = '1.0'", "locale '../../etc'", ["publish out", "status"]),
        ]
        for (sql, names, commands) in cases {
            let h = Harness()
            h.sample()
            try Connection(path: h.db, readOnly: false, create: false).execute(sql)
            for line in commands {
                let r = h.fails(line.replacingOccurrences(of: "out", with: h.dir + "/out"), "has a bad row")
                XCTAssertTrue(r.err.contains(names), "\(sql) → \(line): \(r.err)")
                XCTAssertFalse(FileManager.default.fileExists(atPath: h.dir + "/out/index.json"))
            }
        }
    }

    // 2, 5. A --for past year 9999 (or 2^31-1) is refused, never printed as a broken date.
    func testDurationsAndTimesStopAtYear9999() {
        let h = Harness()
        h.sample()
        for d in ["99999999w", "5000000w", "3000000d", "9999999w9999999w9999999w"] {
            h.fails("maintenance start --for \(d) --yes", status: 2, "9999")
        }
        h.fails("maintenance schedule --from 9999-12-31T23:00:00Z --until 9999-12-31T23:59:59-01:00 --yes", status: 2, "0001 to 9999")
        let ok = h.run(["maintenance", "start", "--for", "52w", "--json", "--yes"])
        XCTAssertEqual(ok.status, 0, ok.err)
        XCTAssertTrue(ok.out.contains("\"endsAt\":\"2027-11-28T12:00:00Z\""), ok.out)
        XCTAssertThrowsError(try Time.adding(Time.latest, to: 1, what: "x"))
        XCTAssertThrowsError(try Time.adding(Int64.max, to: 1, what: "x"))
        XCTAssertEqual(Time.format(Time.latest), "9999-12-31T23:59:59Z")
        XCTAssertEqual(Time.format(Time.earliest), "0001-01-01T00:00:00Z")
    }

    // 6. Concurrent init: one winner, the others told, one audit row.
    func testConcurrentInitCreatesOnce() throws {
        let h = Harness()
        let path = h.dir + "/new.db"
        var procs: [(Process, Pipe, Pipe)] = []
        for _ in 0..<8 {
            let p = Process(), out = Pipe(), err = Pipe()
            p.executableURL = URL(fileURLWithPath: Package.binary)
            p.arguments = ["--db", path, "--json", "init"]
            p.environment = ["TZ": "UTC"]
            p.standardOutput = out; p.standardError = err
            procs.append((p, out, err))
        }
        for (p, _, _) in procs { try p.run() }
        var created = 0
        for (p, out, err) in procs {
            let o = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            let e = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            p.waitUntilExit()
            XCTAssertEqual(p.terminationStatus, 0, e)
            if o.contains("\"created\":true") { created += 1 } else { XCTAssertTrue(e.contains("already a relctl database"), e) }
        }
        XCTAssertEqual(created, 1)
        let rows = try Connection(path: path, readOnly: true, create: false).query("SELECT count(*) FROM audit WHERE action = 'init'")
        XCTAssertEqual(rows.first?.int(0), 1)
    }

    // 6, 12. Tables without a schema version: damage, not "table meta already exists".
    func testTablesWithoutASchemaVersionAreReportedAsSuch() throws {
        let h = Harness()
        h.sample()
        try Connection(path: h.db, readOnly: false, create: false).execute("PRAGMA user_version = 0")
        for line in ["status", "init", "project add x"] { h.fails(line, "has tables but no schema version") }
    }

    // 7. A reader who may not write the database's folder, and a read-only file system.
    func testReadsWorkInAReadOnlyFolder() throws {
        let h = Harness()
        h.sample()
        let folder = h.dir + "/ro"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: h.db, toPath: folder + "/relctl.db")
        chmod(folder, 0o555)
        chmod(h.dir, 0o755)
        defer { chmod(folder, 0o755) }
        guard getuid() == 0, let setpriv = Proc.which("setpriv") else {
            throw XCTSkip("needs root and setpriv to run relctl as a user who cannot write the folder")
        }
        func asNobody(_ args: [String]) throws -> Proc {
            try Proc.run(setpriv, ["--reuid=65534", "--regid=65534", "--clear-groups", Package.binary, "--db", folder + "/relctl.db"] + args,
                         env: ["TZ": "UTC"], cwd: "/")
        }
        for args in [["status"], ["log"], ["--json", "project", "list"], ["check", "1.0", "--platform", "ios"]] {
            let r = try asNobody(args)
            XCTAssertEqual(r.status, 0, "\(args): \(r.err)")
            XCTAssertFalse(r.err.contains("readonly database"), r.err)
        }
        let write = try asNobody(["project", "add", "x"])
        XCTAssertEqual(write.status, 1)
        XCTAssertTrue(write.err.hasPrefix("relctl: "), write.err)
        // A write-ahead log holding changes cannot be merged by such a reader: say so.
        try Data(repeating: 1, count: 4096).write(to: URL(fileURLWithPath: h.dir + "/wal-copy"))
        chmod(folder, 0o755)
        try FileManager.default.copyItem(atPath: h.dir + "/wal-copy", toPath: folder + "/relctl.db-wal")
        chmod(folder, 0o555)
        let wal = try asNobody(["status"])
        XCTAssertEqual(wal.status, 1)
        XCTAssertTrue(wal.err.contains("-wal"), wal.err)
        XCTAssertEqual(wal.err.split(separator: "\n").count, 1)
    }

    /// A small tmpfs, or a skip that says why.
    func mountTmpfs(_ path: String, size: String) throws {
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        guard getuid() == 0, let mount = Proc.which("mount") ?? ["/usr/bin/mount", "/bin/mount"].first(where: FileManager.default.isExecutableFile),
              (try? Proc.run(mount, ["-t", "tmpfs", "-o", "size=\(size)", "tmpfs", path]))?.status == 0 else {
            print("skipping: cannot mount a tmpfs here (needs root and CAP_SYS_ADMIN)")
            throw XCTSkip("cannot mount a tmpfs here (needs root and CAP_SYS_ADMIN)")
        }
    }

    /// Fills what is left of the file system at `mnt` (a file "filler" there).
    func fillUp(_ mnt: String) {
        _ = FileManager.default.createFile(atPath: mnt + "/filler", contents: nil)
        let filler = FileHandle(forWritingAtPath: mnt + "/filler")
        let chunk = Data(repeating: 7, count: 4096)
        while (try? filler?.write(contentsOf: chunk)) != nil {}
        try? filler?.close()
    }

    func unmount(_ path: String) { _ = try? Proc.run(Proc.which("umount") ?? "/bin/umount", ["-l", path]) }

    func testReadsWorkOnAReadOnlyFileSystem() throws {
        let h = Harness()
        h.sample()
        let mnt = h.dir + "/mnt"
        try mountTmpfs(mnt, size: "4m")
        defer { unmount(mnt) }
        try FileManager.default.copyItem(atPath: h.db, toPath: mnt + "/relctl.db")
        XCTAssertEqual(try Proc.run(Proc.which("mount") ?? "/bin/mount", ["-o", "remount,ro", mnt]).status, 0)
        let db = mnt + "/relctl.db"
        for args in [["status"], ["log"], ["version", "list", "--platform", "ios"], ["publish", h.dir + "/out", "--at", at]] {
            let r = h.run(args, database: db)
            XCTAssertEqual(r.status, 0, "\(args): \(r.err)")
        }
        let write = h.run(["project", "add", "x"], database: db)
        XCTAssertEqual(write.status, 1)
        XCTAssertTrue(write.err.hasPrefix("relctl: "), write.err)
        let publish = h.run(["publish", mnt + "/out"], database: h.db)
        XCTAssertEqual(publish.status, 1)
        XCTAssertEqual(publish.err.split(separator: "\n").count, 1, publish.err)
    }

    /// An export to a full disk: the first piece that cannot be written
    /// stops it, named in one line, with nothing at the path and no
    /// temporary beside it; the file there before is kept whole.
    func testAnExportToAFullDiskIsNamedAndLeavesNothing() throws {
        let h = Harness()
        h.sample()
        let mnt = h.dir + "/mnt"
        try mountTmpfs(mnt, size: "1m")
        defer { unmount(mnt) }
        let path = mnt + "/shop.relctl.json"
        h.ok("export -o \(path)")
        let before = FileManager.default.contents(atPath: path)
        fillUp(mnt)
        for target in [path, mnt + "/new.relctl.json"] {
            let r = h.run(["export", "-o", target])
            XCTAssertEqual(r.status, 1, r.err)
            XCTAssertTrue(r.err.contains("cannot write \(target): No space left"), r.err)
            XCTAssertEqual(r.err.split(separator: "\n").count, 1, r.err)
        }
        XCTAssertEqual(FileManager.default.contents(atPath: path), before)
        XCTAssertFalse(FileManager.default.fileExists(atPath: mnt + "/new.relctl.json"))
        // The piece that cannot be written throws from put: nothing after it is made.
        var madeMore = false
        XCTAssertThrowsError(try FileSystem.writeFile(mnt + "/pieces") { put in
            try put([UInt8](repeating: 1, count: 1 << 16)[...])
            madeMore = true
        }) { XCTAssertTrue("\($0)".contains("No space left"), "\($0)") }
        XCTAssertFalse(madeMore)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: mnt).filter { $0.hasPrefix(TreeFiles.tempMarker) }, [])
    }

    // 12. A full disk says so, for the database and for a publish.
    func testAFullDiskIsNamed() throws {
        let h = Harness()
        h.sample()
        let mnt = h.dir + "/mnt"
        try mountTmpfs(mnt, size: "1m")
        defer { unmount(mnt) }
        let db = mnt + "/relctl.db"
        XCTAssertEqual(h.run(["init"], database: db).status, 0)
        XCTAssertEqual(h.run(["project", "add", "shop"], database: db).status, 0)
        let out = mnt + "/out"
        XCTAssertEqual(h.run(["publish", out, "--at", at]).status, 0)
        let before = files(out)
        fillUp(mnt)
        let dbBefore = FileManager.default.contents(atPath: db)
        // A name at its limit, and a window's copy: the change needs pages the disk no longer has.
        let r = h.run(["project", "add", "blog", "--name", String(repeating: "B", count: Names.appNameMaximum)], database: db)
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.err.contains("the disk holding \(db) is full"), r.err)
        XCTAssertEqual(FileManager.default.contents(atPath: db), dbBefore)
        h.ok("notes set 2.0 --platform ios --locale tr \(String(repeating: "uzun ", count: 3000))")
        let p = h.run(["publish", out, "--at", at])
        XCTAssertEqual(p.status, 1)
        XCTAssertTrue(p.err.contains("No space left"), p.err)
        XCTAssertEqual(p.err.split(separator: "\n").count, 1, p.err)
        XCTAssertEqual(files(out), before, "a publish that ran out of space leaves the tree as it was")
        // Into a new folder, whose files are written in the background: the same, and the folder
        // taken back, whether the disk is full at once or fills during the background writes.
        let fresh = mnt + "/fresh"
        let q = h.run(["publish", fresh, "--at", at])
        XCTAssertEqual(q.status, 1)
        XCTAssertTrue(q.err.contains("No space left"), q.err)
        XCTAssertEqual(q.err.split(separator: "\n").count, 1, q.err)
        XCTAssertFalse(FileManager.default.fileExists(atPath: fresh), "a publish that ran out of space takes back the folder it made")
        let filled = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: mnt + "/filler")[.size] as? Int)
        XCTAssertEqual(truncate(mnt + "/filler", off_t(filled - 6 * 4096)), 0, "room for the journal and a few files")
        let w = h.run(["publish", fresh, "--at", at])
        XCTAssertEqual(w.status, 1)
        XCTAssertTrue(w.err.contains("cannot write \(fresh)/shop/") && w.err.contains("No space left"), w.err)
        XCTAssertEqual(w.err.split(separator: "\n").count, 1, w.err)
        XCTAssertFalse(FileManager.default.fileExists(atPath: fresh), "a publish that ran out of space takes back the folder it made")
    }

    // 8. A FIFO as the database is refused at once.
    func testAFIFOIsNotOpened() {
        let h = Harness()
        XCTAssertEqual(mkfifo(h.dir + "/fifo", 0o644), 0)
        for line in ["status", "init", "log"] {
            let r = h.run(Harness.split(line), database: h.dir + "/fifo")
            XCTAssertEqual(r.status, 1)
            XCTAssertTrue(r.err.contains("is not a regular file"), r.err)
        }
    }

    // 9. A publish refused while making DIR takes back the folders it made.
    func testARefusedDIRLeavesNoFolder() throws {
        let h = Harness()
        let long = String(repeating: "n", count: 300)
        XCTAssertThrowsError(try TreeLock(root: h.dir + "/made/deeper/" + long + "/out", dryRun: false))
        XCTAssertFalse(FileManager.default.fileExists(atPath: h.dir + "/made"), "folders made before the failure stay behind")
        // The command line refuses such a name before making anything.
        h.sample()
        h.fails("publish \(h.dir)/a/b/\(long)/out", status: 2, "more than the 255")
        XCTAssertFalse(FileManager.default.fileExists(atPath: h.dir + "/a"))
        // A first publish refused after staging began (a project with a bad row,
        // read after shop was staged) takes back its staging folders, its journal and the DIR it made.
        h.ok("project add terra --name Terra")
        h.ok("platform add ios --bundle-id com.example.terra --app-store-id 1 -p terra")
        h.ok("version add 1.0 --platform ios --build 1 --released 2026-01-01T00:00:00Z -p terra")
        try Connection(path: h.db, readOnly: false, create: false).execute(
            "UPDATE version SET version = '1..0' WHERE platform_id = (SELECT p.id FROM platform p JOIN project j ON j.id = p.project_id WHERE j.slug = 'terra')")
        h.fails("publish \(h.dir)/first/out --at 2026-11-29T12:00:00Z", "has a bad row")
        XCTAssertFalse(FileManager.default.fileExists(atPath: h.dir + "/first"), "a refused first publish leaves nothing")
    }

    // 9b. A file or stream handed to relctl is read up to a limit: /dev/zero,
    // a video or a runaway pipe end in one line, the database unchanged.
    func testAnEndlessInputIsRefusedNotRead() throws {
        let h = Harness()
        h.sample()
        h.fails("notes set 2.0 --platform ios --locale de --file /dev/zero", "more than 16 MiB")
        h.fails("import retired /dev/zero --platform ios --locale en --yes", "more than 16 MiB")
        h.fails("import andversion /dev/zero --platform ios --yes", "more than 16 MiB")
        let big = h.dir + "/big.json"
        try Data(count: (16 << 20) + 1).write(to: URL(fileURLWithPath: big))
        h.fails("import control \(big) --yes", "more than 16 MiB")
        let p = Process(), err = Pipe()
        p.executableURL = URL(fileURLWithPath: Package.binary)
        p.arguments = ["--db", h.db, "notes", "set", "2.0", "--platform", "ios", "--locale", "de", "--file", "-"]
        p.environment = ["TZ": "UTC"]
        p.standardInput = FileHandle(forReadingAtPath: "/dev/zero")
        p.standardError = err
        try p.run()
        p.waitUntilExit()
        let text = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        XCTAssertEqual(p.terminationStatus, 1, text)
        XCTAssertTrue(text.contains("cannot read standard input: it holds more than 16 MiB"), text)
    }

    // 9c. An error is one line, whatever it quotes.
    func testAnErrorIsOneLineWhateverItQuotes() throws {
        let h = Harness()
        h.sample()
        for value in ["1.0\nrm -rf /", "1.0\u{1B}[2J", String(repeating: "9", count: 100_000)] {
            let r = h.run(["version", "add", value, "--platform", "ios"])
            XCTAssertEqual(r.status, 2, r.err)
            let lines = r.err.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.isEmpty && !$0.hasPrefix("usage:") }
            XCTAssertEqual(lines.count, 1, r.err)
            XCTAssertFalse(r.err.contains("\u{1B}"), "a control character reaches the terminal")
            XCTAssertLessThan(r.err.count, 3000, "a huge value is cut")
        }
        // A floor spelled the same, with a deadline now, moved, or dropped: said as such, not as a respelling.
        h.ok("force 2.0 --platform ios --yes")
        let added = h.ok("force 2.0 --platform ios --deadline 2026-12-10T00:00:00Z --yes")
        XCTAssertTrue(added.err.contains("keeps the force floor of ios at 2.0, with a deadline at 2026-12-10 00:00 UTC") && !added.err.contains("respells"), added.err)
        let moved = h.ok("force 2.0 --platform ios --deadline 2026-12-12T00:00:00Z --yes")
        XCTAssertTrue(moved.err.contains("its deadline moved from 2026-12-10 00:00 UTC (in 10 d 12 h) to 2026-12-12 00:00 UTC (in 12 d 12 h)"), moved.err)
        var floor = Floor(version: try Version("2.0"), build: nil)
        floor.deadline = 1_796_083_200
        XCTAssertEqual(Impact.floorMove("force", platform: "ios", from: floor, to: Floor(version: try Version("2.0"), build: nil)),
                       "keeps the force floor of ios at 2.0, dropping its deadline of 2026-12-01T00:00:00Z: required at once")
    }

    // 10. Output that cannot be written is a failure.
    func testAFailedWriteToStdoutIsAFailure() throws {
        let h = Harness()
        h.sample()
        // A listing past the output buffer (64 KiB) goes out in one write of its own: refused the same.
        try Connection(path: h.db, readOnly: false, create: false).execute("""
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 400)
            INSERT INTO version(platform_id, version, build) SELECT 1, '5.' || i, 5000 + i FROM n;
            INSERT INTO note(version_id, locale, body) SELECT id, 'en', printf('%.300c', 'x') FROM version WHERE version LIKE '5.%';
            """)
        XCTAssertGreaterThan(h.ok("--json version list --platform ios").out.utf8.count, 1 << 16, "the listing is past the buffer")
        for args in [["project", "list", "--json"], ["version", "list", "--platform", "ios"], ["version", "list", "--platform", "ios", "--json"], ["__spec"]] {
            let p = Process(), err = Pipe()
            p.executableURL = URL(fileURLWithPath: Package.binary)
            p.arguments = ["--db", h.db] + args
            p.environment = ["TZ": "UTC"]
            p.standardOutput = FileHandle(forWritingAtPath: "/dev/full")
            p.standardError = err
            try p.run()
            let text = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            p.waitUntilExit()
            XCTAssertEqual(p.terminationStatus, 1, "\(args)")
            XCTAssertEqual(text, "relctl: cannot write to standard output: No space left on device — check where the output goes (a full disk, a closed pipe)\n")
        }
    }

    // 11. One publish at a time per DIR.
    func testASecondPublishWaitsThenRefuses() throws {
        let h = Harness()
        h.sample()
        let out = h.dir + "/out"
        h.ok("publish \(out)")
        let fd = open(out, O_RDONLY | O_DIRECTORY)
        XCTAssertEqual(flock(fd, LOCK_EX), 0)
        let context = Context(env: ["TZ": "UTC"])
        context.publishLockWait = 0.3
        let start = Date()
        XCTAssertEqual(Runner.run(["--db", h.db, "publish", out], context: context, tree: Relctl.tree), 1)
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(start), 0.3, "it waits briefly first")
        XCTAssertEqual(context.stderr.text, "relctl: another relctl publish is writing to \(out) — wait until it has finished, then publish again\n")
        // A database that is not there is said at once, before any wait for DIR (PublishCommand.earlyLock).
        let other = Context(env: ["TZ": "UTC"])
        other.publishLockWait = 5
        let begun = Date()
        XCTAssertEqual(Runner.run(["--db", h.dir + "/none.db", "publish", out], context: other, tree: Relctl.tree), 1)
        XCTAssertLessThan(Date().timeIntervalSince(begun), 2)
        XCTAssertTrue(other.stderr.text.hasPrefix("relctl: no relctl database at \(h.dir)/none.db"), other.stderr.text)
        close(fd)
        h.ok("publish \(out)")
    }

    func testConcurrentPublishesLeaveOneWholeTree() throws {
        let h = PublishTests.scenario()
        let out = h.dir + "/out", fresh = h.dir + "/fresh"
        XCTAssertEqual(h.run(["publish", fresh, "--at", at]).status, 0)
        var procs: [(Process, Pipe)] = []
        for _ in 0..<6 {
            let p = Process(), err = Pipe()
            p.executableURL = URL(fileURLWithPath: Package.binary)
            p.arguments = ["--db", h.db, "publish", out, "--at", at, "-q"]
            p.environment = ["TZ": "UTC"]
            p.standardError = err
            procs.append((p, err))
        }
        for (p, _) in procs { try p.run() }
        for (p, err) in procs {
            let text = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            p.waitUntilExit()
            XCTAssertEqual(p.terminationStatus, 0, text)
        }
        XCTAssertEqual(files(out), files(fresh))
    }

    // 3, 4. Links at every position of the tree, hard and symbolic, never lead a write or removal outside DIR.
    func testLinkTrapsAtEveryPosition() throws {
        let h = PublishTests.scenario()
        let out = h.dir + "/out", outside = h.dir + "/outside"
        XCTAssertEqual(h.run(["publish", out, "--at", at]).status, 0)
        let published = files(out).keys.sorted()
        var folders = Set<String>()
        for p in published { var parts = p.split(separator: "/").dropLast(); while !parts.isEmpty { folders.insert(parts.joined(separator: "/")); parts = parts.dropLast() } }
        let fm = FileManager.default
        func resetOutside() throws {
            try? fm.removeItem(atPath: outside)
            try fm.createDirectory(atPath: outside + "/dir", withIntermediateDirectories: true)
            try Data("victim\n".utf8).write(to: URL(fileURLWithPath: outside + "/victim"))
        }
        func assertOutsideUntouched(_ what: String) {
            XCTAssertEqual(fm.contents(atPath: outside + "/victim"), Data("victim\n".utf8), what)
            XCTAssertEqual((try? fm.contentsOfDirectory(atPath: outside).sorted()) ?? [], ["dir", "victim"], what)
            XCTAssertEqual((try? fm.contentsOfDirectory(atPath: outside + "/dir")) ?? ["?"], [], what)
        }
        var traps = 0
        h.ok("notes set 2.0 --platform ios --locale tr \"Değişti\"")  // every publish below changes files
        for path in published {
            let name = (path as NSString).lastPathComponent, parent = (path as NSString).deletingLastPathComponent
            let tempName = (parent.isEmpty ? "" : parent + "/") + ".relctl-tmp.\(name).0123456789abcdef"
            for (position, kind) in [(path, "symlink"), (path, "hardlink"), (tempName, "symlink"), (tempName, "hardlink")] {
                try resetOutside()
                XCTAssertEqual(h.run(["publish", out, "--at", at]).status, 0)
                try? fm.removeItem(atPath: out + "/" + position)
                if kind == "symlink" { try fm.createSymbolicLink(atPath: out + "/" + position, withDestinationPath: outside + "/victim") }
                else { try fm.linkItem(atPath: outside + "/victim", toPath: out + "/" + position) }
                let r = h.run(["publish", out, "--at", at])
                XCTAssertTrue(r.status == 0 || (r.status == 1 && r.err.split(separator: "\n").count == 1), "\(kind) at \(position): \(r.err)")
                assertOutsideUntouched("\(kind) at \(position)")
                traps += 1
            }
        }
        for folder in folders.sorted() {
            try resetOutside()
            try? fm.removeItem(atPath: out)
            XCTAssertEqual(h.run(["publish", out, "--at", at]).status, 0)
            try fm.removeItem(atPath: out + "/" + folder)
            try fm.createSymbolicLink(atPath: out + "/" + folder, withDestinationPath: outside + "/dir")
            let r = h.run(["publish", out, "--at", at])
            XCTAssertEqual(r.status, 1, "symlink for folder \(folder)")
            XCTAssertTrue(r.err.contains("symbolic link"), r.err)
            assertOutsideUntouched("symlink for folder \(folder)")
            traps += 1
        }
        print("link traps: \(traps)")
    }

    // 12. Smaller ones.
    func testIndexEntriesRelctlRefusesAreNotCountedAsRemoved() throws {
        let h = Harness()
        h.sample()
        let out = h.dir + "/out"
        h.ok("publish \(out)")
        var index = try String(contentsOfFile: out + "/index.json", encoding: .utf8)
        index = index.replacingOccurrences(of: "\"files\":{", with: "\"files\":{\"../outside.json\":{\"sha256\":\"x\",\"size\":1},\"/etc/hostname\":{\"sha256\":\"x\",\"size\":1},")
        try index.write(toFile: out + "/index.json", atomically: false, encoding: .utf8)
        let r = h.run(["publish", out, "--json"])
        XCTAssertEqual(r.status, 0, r.err)
        XCTAssertEqual(((r.json as? [String: Any])?["removed"] as? [Any])?.count, 0, r.out)
    }

    func testAnUnknownTimeZoneIsAnError() {
        let h = Harness()
        h.sample()
        h.env["TZ"] = "Mars/Phobos"
        h.fails("status --at 12:00", status: 2, "unknown time zone TZ='Mars/Phobos'")
        h.fails("maintenance schedule --from \"2026-12-01 02:00\" --until \"2026-12-01 04:00\" --yes", status: 2, "TZ='Mars/Phobos'")
        h.ok("status --at 2026-12-01T02:00:00Z")  // no local time involved
        for zone in ["Europe/Istanbul", "UTC", "EST5EDT", ":Europe/Berlin", ""] {
            h.env["TZ"] = zone
            h.ok("status --at 12:00")
        }
    }
}
