import Foundation
import XCTest
@testable import RelctlCLI
@testable import RelctlCore
@testable import RelctlModel
import RelctlPublish

/// `relctl deploy` through the real rclone: to a local path, and to a real
/// S3 API (moto's server, started here, scripts/s3-test-server.py) whose
/// request log says, from the server's side, what was written with which
/// headers and in which order.
final class DeployTests: XCTestCase {
    /// rclone with no user configuration; `t:` is the local S3 server when one runs.
    func rcloneEnv(_ h: Harness, port: Int? = nil) -> [String: String] {
        var env = h.env
        env["PATH"] = "/usr/local/bin:/usr/bin:/bin"
        env["HOME"] = h.dir
        env["RCLONE_CONFIG"] = "/dev/null"
        if let port {
            for (k, v) in ["TYPE": "s3", "PROVIDER": "Other", "ENDPOINT": "http://127.0.0.1:\(port)", "ACCESS_KEY_ID": "test",
                           "SECRET_ACCESS_KEY": "test", "REGION": "us-east-1"] { env["RCLONE_CONFIG_T_" + k] = v }
        }
        return env
    }

    func published(_ h: Harness, _ out: String) -> [String: Any] {
        let r = h.run(["publish", out, "--json"])
        XCTAssertEqual(r.status, 0, r.err)
        return (r.json as? [String: Any]) ?? [:]
    }

    func changedPaths(_ publish: [String: Any]) -> [String] {
        ["added", "changed", "removed"].flatMap { (publish[$0] as? [String]) ?? [] }.sorted()
    }

    func testDeployToALocalPathSendsWhatChangedAndDeletesWhatNoLongerBelongs() throws {
        let h = PublishTests.scenario()
        h.env = rcloneEnv(h)
        let out = h.dir + "/out", remote = h.dir + "/remote", list = h.dir + "/changed.txt"
        try FileManager.default.createDirectory(atPath: remote, withIntermediateDirectories: true)
        _ = published(h, out)
        // An environment that would have rclone send nothing, or not every file, and say it did.
        let plain = h.env
        let elsewhere = h.dir + "/elsewhere", other = h.dir + "/other.list"
        try FileManager.default.createDirectory(atPath: elsewhere, withIntermediateDirectories: true)
        try "blog/post.html\n".write(toFile: other, atomically: true, encoding: .utf8)
        for (k, v) in ["RCLONE_DRY_RUN": "true", "RCLONE_MAX_DEPTH": "1", "RCLONE_IGNORE_EXISTING": "true", "RCLONE_UPDATE": "true", "RCLONE_SIZE_ONLY": "true",
                       "RCLONE_BACKUP_DIR": elsewhere, "RCLONE_FILES_FROM_RAW": other, "RCLONE_ERROR_ON_NO_TRANSFER": "true"] { h.env[k] = v }
        let first = h.ok("deploy \(out) \(remote) --changed-list \(list)")
        XCTAssertEqual(fileTree(remote), fileTree(out))
        XCTAssertEqual(first.out.split(separator: "\n").count, fileTree(out).count, "a first deploy sends every file")
        // One change: exactly the paths the publish changed go up, and are listed.
        h.ok("notes set 2.0 --platform ios --locale tr \"Başka\"")
        let publish = published(h, out)
        let second = h.ok("deploy \(out) \(remote) --changed-list \(list) --json")
        let report = try XCTUnwrap(second.json as? [String: Any])
        XCTAssertEqual(report["changed"] as? [String], changedPaths(publish))
        XCTAssertEqual(try String(contentsOfFile: list, encoding: .utf8), changedPaths(publish).map { $0 + "\n" }.joined())
        XCTAssertEqual(fileTree(remote), fileTree(out))
        // Nothing changed: nothing sent.
        let idle = h.ok("deploy \(out) \(remote) --json")
        XCTAssertEqual((idle.json as? [String: Any])?["changed"] as? [String], [])
        // A platform removed: its files are deleted from the remote too.
        h.ok("platform rm android --yes")
        let removal = published(h, out)
        let third = h.ok("deploy \(out) \(remote) --json")
        XCTAssertEqual((third.json as? [String: Any])?["deleted"] as? [String], (removal["removed"] as? [String])?.sorted())
        XCTAssertEqual(fileTree(remote), fileTree(out))
        XCTAssertEqual(fileTree(elsewhere), [:], "nothing was moved aside")
        h.env = plain
        XCTAssertEqual(try SchemaValidator(path: Package.root + "/schema/json/deploy.schema.json").validate(try JSONReader.parse(Array(third.out.utf8))), [])
        // A remote index of an older relctl (publishedAt, no generator, no projects) still names what is there: stale files go.
        let stale = "shop/android/retired/en.json"
        try FileManager.default.createDirectory(atPath: remote + "/shop/android/retired", withIntermediateDirectories: true)
        try "{}".write(toFile: remote + "/" + stale, atomically: true, encoding: .utf8)
        let listed = fileTree(remote).filter { $0.key != "index.json" && $0.key != stale }.map { #""\#($0.key)":{"sha256":"\#(SHA256.hex(Array($0.value)))","size":\#($0.value.count)}"# }
        try #"{"files":{\#(listed.sorted().joined(separator: ",")),"\#(stale)":{"sha256":"00","size":2}},"publishedAt":"2026-11-29T12:00:00Z","revision":1}"#
            .write(toFile: remote + "/index.json", atomically: true, encoding: .utf8)
        let old = h.ok("deploy \(out) \(remote) --json")
        XCTAssertEqual((old.json as? [String: Any])?["deleted"] as? [String], [stale])
        XCTAssertEqual(fileTree(remote), fileTree(out))
    }

    func testDeployRefusesClearly() throws {
        let h = PublishTests.scenario()
        h.env = rcloneEnv(h)
        let out = h.dir + "/out"
        h.fails("deploy \(out) \(h.dir)/remote", "has no index.json")
        _ = published(h, out)
        h.fails("deploy \(out) nope:bucket/updates", "cannot reach the remote nope:bucket/updates")
        h.fails("deploy \(out) \(h.dir)/missing/folder/deeper", "cannot reach the remote")
        h.env["PATH"] = h.dir + "/no-such-bin"
        h.fails("deploy \(out) \(h.dir)/remote", "rclone is not installed")
        h.fails("deploy \(out) \"\"", status: 2, "REMOTE is empty")
        // An index.json there that rclone cannot read: what the remote holds is unknown, so nothing is sent.
        h.env = rcloneEnv(h)
        let bin = h.dir + "/bin", remote = h.dir + "/unreadable"
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: remote, withIntermediateDirectories: true)
        try Data("{}".utf8).write(to: URL(fileURLWithPath: remote + "/index.json"))
        try "#!/bin/sh\n[ \"$1\" = cat ] && { echo 'ERROR : read refused by the test' >&2; exit 1; }\nexec /usr/bin/rclone \"$@\"\n".write(toFile: bin + "/rclone", atomically: true, encoding: .utf8)
        XCTAssertEqual(chmod(bin + "/rclone", 0o755), 0)
        h.env["PATH"] = bin + ":/usr/bin:/bin"
        h.fails("deploy \(out) \(remote)", "cannot read \(remote)/index.json: ERROR : read refused by the test; nothing was uploaded")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: remote), ["index.json"])
        // A file edited after the publish is not sent.
        h.env = rcloneEnv(h)
        try Data("{}".utf8).write(to: URL(fileURLWithPath: out + "/shop/control.json"))
        let edited = h.fails("deploy \(out) \(h.dir)", "differs from")
        XCTAssertTrue(edited.err.contains("relctl publish \(out) --full"), "a plain publish trusts the folder times: \(edited.err)")
    }

    /// A remote may hold files relctl did not deploy (a site): deploy sends
    /// only over files a relctl index.json there lists, or a deploy cut short
    /// recorded sending, and refuses, naming the file, before sending anything.
    func testDeployNeverReplacesFilesItDidNotDeploy() throws {
        let h = PublishTests.scenario()
        h.env = rcloneEnv(h)
        let out = h.dir + "/out", remote = h.dir + "/remote"
        try FileManager.default.createDirectory(atPath: remote + "/blog", withIntermediateDirectories: true)
        _ = published(h, out)
        XCTAssertNotNil(fileTree(out)["index.html"], "the tree holds the status page a site's index.html would meet")
        // A site: its home page is at a path the tree holds, its blog is not.
        try "<html>my site</html>".write(toFile: remote + "/index.html", atomically: true, encoding: .utf8)
        try "<html>post</html>".write(toFile: remote + "/blog/post.html", atomically: true, encoding: .utf8)
        let site = fileTree(remote)
        let refused = h.fails("deploy \(out) \(remote)", "\(remote)/index.html is not a file relctl deployed, and deploy does not replace it; nothing was uploaded")
        XCTAssertTrue(refused.err.contains("rclone deletefile \(remote)/index.html"), refused.err)
        h.fails("deploy \(out) \(remote) --dry-run", "\(remote)/index.html is not a file relctl deployed")
        XCTAssertEqual(fileTree(remote), site)
        XCTAssertFalse(FileManager.default.fileExists(atPath: remote + "/" + releasesRecord), "nothing was written, not even the record")
        // Someone else's index.json: neither replaced nor read for files to delete.
        try FileManager.default.removeItem(atPath: remote + "/index.html")
        try #"{"pages":["blog/post.html"],"files":{"blog/post.html":{"sha256":"00","size":2}}}"#.write(toFile: remote + "/index.json", atomically: true, encoding: .utf8)
        let search = fileTree(remote)
        h.fails("deploy \(out) \(remote)", "\(remote)/index.json is not an index relctl wrote, and deploy does not replace it; nothing was uploaded")
        XCTAssertEqual(fileTree(remote), search)
        try FileManager.default.removeItem(atPath: remote + "/index.json")
        // A folder of the tree's that is a link to one outside: nothing is written through it,
        // however quiet the user's rclone is set to be, or whichever links it skips.
        let outside = h.dir + "/outside"
        try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: true)
        try "theirs".write(toFile: outside + "/control.json", atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: remote + "/shop", withDestinationPath: outside)
        let quiet = h.env
        h.env["RCLONE_LOG_LEVEL"] = "ERROR"
        h.env["RCLONE_SKIP_LINKS"] = "true"
        h.env["RCLONE_LOCAL_SKIP_LINKS"] = "true"
        h.env["RCLONE_MAX_DEPTH"] = "1"
        h.fails("deploy \(out) \(remote)", "\(remote)/shop/")
        h.env = quiet
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: outside), ["control.json"])
        XCTAssertEqual(try String(contentsOfFile: outside + "/control.json", encoding: .utf8), "theirs")
        try FileManager.default.removeItem(atPath: remote + "/shop")
        // Beside files at paths the tree does not hold, it deploys, and leaves them be.
        h.ok("deploy \(out) \(remote)")
        XCTAssertEqual(fileTree(remote), fileTree(out).merging(["blog/post.html": site["blog/post.html"]!]) { a, _ in a })
        // A later release's new path where someone put a file: refused, the live release as it was.
        h.ok("project edit shop --locales en,tr,he,de")
        let added = (published(h, out)["added"] as? [String] ?? []).sorted()
        let taken = try XCTUnwrap(added.first { $0.hasSuffix("/de.json") }, "\(added)")
        try FileManager.default.createDirectory(atPath: remote + "/" + (taken as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try "{\"theirs\":true}".write(toFile: remote + "/" + taken, atomically: true, encoding: .utf8)
        let live = fileTree(remote), record = try Data(contentsOf: URL(fileURLWithPath: remote + "/" + releasesRecord))
        h.fails("deploy \(out) \(remote)", "\(remote)/\(taken) is not a file relctl deployed")
        XCTAssertEqual(fileTree(remote), live)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: remote + "/" + releasesRecord)), record, "not even the record of what it would send")
        // A link there (a local remote) is someone's too, whether it leads anywhere or not; one beside the tree's paths is no matter.
        try FileManager.default.removeItem(atPath: remote + "/" + taken)
        try FileManager.default.createSymbolicLink(atPath: remote + "/" + taken, withDestinationPath: remote + "/blog/post.html")
        try FileManager.default.createSymbolicLink(atPath: remote + "/" + taken + ".old", withDestinationPath: "/nonexistent")
        h.fails("deploy \(out) \(remote)", "\(remote)/\(taken) is not a file relctl deployed")
        try FileManager.default.removeItem(atPath: remote + "/" + taken)
        try FileManager.default.createSymbolicLink(atPath: remote + "/" + taken, withDestinationPath: "/nonexistent")
        h.fails("deploy \(out) \(remote)", "\(remote)/\(taken) is not a file relctl deployed")
        for link in [taken, taken + ".old"] { try FileManager.default.removeItem(atPath: remote + "/" + link) }
        h.ok("deploy \(out) \(remote)")
        XCTAssertEqual(fileTree(remote)["index.json"], fileTree(out)["index.json"])
        XCTAssertEqual(fileTree(remote)["blog/post.html"], site["blog/post.html"])
    }

    /// A first deploy cut short after some files arrived: its record of what
    /// it was sending makes them relctl's, for the next deploy to replace, or
    /// to delete when its tree no longer holds them.
    func testFilesADeployCutShortSentAreStillRelctls() throws {
        let h = PublishTests.scenario()
        h.env = rcloneEnv(h)
        let out = h.dir + "/out", remote = h.dir + "/remote", bin = h.dir + "/bin", failing = h.dir + "/failing"
        try FileManager.default.createDirectory(atPath: remote, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        // While `failing` exists, the copy of the control.json files sends them and then fails, as a connection lost at its end would.
        try "#!/bin/sh\nif [ \"$1\" = copy ] && [ -e \(failing) ] && grep -q control.json \"$5\"; then /usr/bin/rclone \"$@\"; echo 'ERROR : cut by the test' >&2; exit 1; fi\nexec /usr/bin/rclone \"$@\"\n"
            .write(toFile: bin + "/rclone", atomically: true, encoding: .utf8)
        XCTAssertEqual(chmod(bin + "/rclone", 0o755), 0)
        h.env["PATH"] = bin + ":/usr/bin:/bin"
        _ = published(h, out)
        XCTAssertTrue(FileManager.default.createFile(atPath: failing, contents: Data()))
        h.fails("deploy \(out) \(remote)", "index.json was not replaced")
        XCTAssertNil(fileTree(remote)["index.json"])
        let arrived = Set(fileTree(remote).keys)
        XCTAssertTrue(arrived.contains("shop/control.json"), "every file but index.json arrived: \(arrived.sorted())")
        // The tree changes before the next deploy: the android files that arrived no longer belong.
        h.ok("platform rm android --yes")
        let removed = Set((published(h, out)["removed"] as? [String]) ?? [])
        XCTAssertFalse(arrived.intersection(removed).isEmpty, "some of the files that arrived are gone from the tree: \(arrived.sorted())")
        try FileManager.default.removeItem(atPath: failing)
        let finished = h.ok("deploy \(out) \(remote) --json")
        XCTAssertEqual(fileTree(remote), fileTree(out), "the files that arrived were replaced or deleted, nothing else refused")
        XCTAssertEqual(Set((finished.json as? [String: Any])?["deleted"] as? [String] ?? []), arrived.intersection(removed))
        // A locale removed, its files' deletion cut short, then added back: the files owed for deletion are relctl's.
        try "#!/bin/sh\n[ \"$1\" = delete ] && { echo 'ERROR : refused by the test' >&2; exit 1; }\nexec /usr/bin/rclone \"$@\"\n".write(toFile: bin + "/rclone", atomically: true, encoding: .utf8)
        XCTAssertEqual(chmod(bin + "/rclone", 0o755), 0)
        h.ok("project edit shop --locales en,tr")
        let dropped = (published(h, out)["removed"] as? [String]) ?? []
        XCTAssertTrue(dropped.contains { $0.hasSuffix("/he.json") }, "\(dropped)")
        h.fails("deploy \(out) \(remote)", "that no longer belong may still be there")
        try "#!/bin/sh\nexec /usr/bin/rclone \"$@\"\n".write(toFile: bin + "/rclone", atomically: true, encoding: .utf8)
        XCTAssertEqual(chmod(bin + "/rclone", 0o755), 0)
        h.ok("project edit shop --locales en,tr,he")
        _ = published(h, out)
        h.ok("deploy \(out) \(remote)")
        XCTAssertEqual(fileTree(remote), fileTree(out))
        // An index.json cut short where relctl's record names a release (a backend that writes in place,
        // stopped): nothing tells relctl's files apart, and the remote is relctl's alone.
        let index = try Data(contentsOf: URL(fileURLWithPath: remote + "/index.json"))
        try index.prefix(index.count / 2).write(to: URL(fileURLWithPath: remote + "/index.json"))
        h.ok("deploy \(out) \(remote)")
        XCTAssertEqual(fileTree(remote), fileTree(out))
        // Removed by hand beside that record: the same.
        try FileManager.default.removeItem(atPath: remote + "/index.json")
        h.ok("deploy \(out) \(remote)")
        XCTAssertEqual(fileTree(remote), fileTree(out))
        // Without such a record, the same bytes are nobody's to replace.
        let bare = h.dir + "/bare"
        try FileManager.default.createDirectory(atPath: bare, withIntermediateDirectories: true)
        try index.prefix(index.count / 2).write(to: URL(fileURLWithPath: bare + "/index.json"))
        h.fails("deploy \(out) \(bare)", "\(bare)/index.json is not an index relctl wrote")
    }

    /// What must not go out does not: a tree gone stale, a tree older than
    /// the remote's release (unless --allow-older), anything before a
    /// --changed-list that cannot be written. After a failed step the list
    /// names what was sent, for the CDN.
    func testDeployRefusesStaleOrOlderTreesAndListsWhatWasSent() throws {
        let h = PublishTests.scenario()
        h.env = rcloneEnv(h)
        let out = h.dir + "/out", older = h.dir + "/older", remote = h.dir + "/remote", list = h.dir + "/changed.txt"
        try FileManager.default.createDirectory(atPath: remote, withIntermediateDirectories: true)
        _ = published(h, older)
        // The database as it was when `older` was published: a backup restored later.
        let backup = h.dir + "/backup.db"
        try FileManager.default.copyItem(atPath: h.db, toPath: backup)
        // A minute later, the change the backup misses.
        h.now += 60
        h.ok("notes set 2.0 --platform ios --locale tr \"Başka\"")
        _ = published(h, out)
        // The list is checked before anything is sent.
        h.fails("deploy \(out) \(remote) --changed-list \(h.dir)/no-such-folder/c.txt", "cannot write")
        XCTAssertEqual(fileTree(remote), [:], "nothing was sent")
        let first = h.ok("deploy \(out) \(remote) --json")
        XCTAssertEqual((first.json as? [String: Any])?["unchanged"] as? Int, 0)
        let idle = h.ok("deploy \(out) \(remote) --json")
        XCTAssertEqual((idle.json as? [String: Any])?["unchanged"] as? Int, fileTree(out).count, "index.json counts as unchanged too")
        // A tree the database has moved on from is not the release.
        let behind = h.fails("deploy \(older) \(remote)", "no longer says what the database says")
        XCTAssertTrue(behind.err.contains("the files were published from revision"), behind.err)
        XCTAssertEqual(fileTree(remote), fileTree(out))
        // An older release does not replace a newer one by accident (a database restored from a backup).
        let refused = h.run(["deploy", older, remote], database: backup)
        XCTAssertEqual(refused.status, 1)
        XCTAssertTrue(refused.err.contains("holds a release made from changes this database does not hold: shop: ios 2.0 (revision"), refused.err)
        XCTAssertEqual(fileTree(remote), fileTree(out))
        XCTAssertEqual(h.run(["deploy", older, remote, "--allow-older"], database: backup).status, 0)
        XCTAssertEqual(fileTree(remote), fileTree(older))
        // Every deploy that sent files is in the log of the database it went from.
        let logged = h.run(["log", "--action", "deploy", "--json"], database: backup).json as? [String: Any]
        let entries = logged?["entries"] as? [[String: Any]] ?? []
        XCTAssertEqual(entries.count, 1)
        XCTAssertEqual((entries.first?["action"] as? String)?.hasPrefix("deploy \(older) to \(remote) revision "), true, "\(entries)")
        XCTAssertEqual((h.ok("--json log --action deploy").json as? [String: Any])?["entries"].map { ($0 as? [Any])?.count }, 1, "the first deploy of out; the idle one sent nothing")
        // Past the next change (the window at 12:30) the files no longer say what check says.
        let now = h.now
        h.now = now + 3600
        h.fails("deploy \(out) \(remote)", "went stale at 2026-11-29 12:30 UTC")
        XCTAssertEqual(fileTree(remote), fileTree(older), "a stale tree is not sent")
        // Sent at the instant it was published for (a tree published --at), it goes.
        h.ok("deploy \(out) \(remote) --at \(Time.format(now))")
        XCTAssertEqual(fileTree(remote), fileTree(out))
        h.now = now
        // A deletion that fails after the upload: the list names everything sent, deletions included.
        let bin = h.dir + "/bin"
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        try "#!/bin/sh\n[ \"$1\" = delete ] && { echo 'ERROR : refused by the test' >&2; exit 1; }\nexec /usr/bin/rclone \"$@\"\n".write(toFile: bin + "/rclone", atomically: true, encoding: .utf8)
        XCTAssertEqual(chmod(bin + "/rclone", 0o755), 0)
        h.env["PATH"] = bin + ":/usr/bin:/bin"
        h.ok("platform rm android --yes")
        let removal = published(h, out)
        let r = h.fails("deploy \(out) \(remote) --changed-list \(list)", "failed while deleting files that no longer belong: ERROR : refused by the test")
        XCTAssertTrue(r.err.contains("sent so far are in \(list)"), r.err)
        let listed = try String(contentsOfFile: list, encoding: .utf8).split(separator: "\n").map(String.init)
        for path in (removal["removed"] as? [String]) ?? [] { XCTAssertTrue(listed.contains(path), path) }
        XCTAssertTrue(listed.contains("index.json"), "\(listed)")
        // A tree published for a later instant would say early what check says then.
        let future = h.dir + "/future"
        XCTAssertEqual(h.run(["publish", future, "--at", "2026-11-29T13:00:00Z"]).status, 0)
        h.fails("deploy \(future) \(remote)", "was published for 2026-11-29 12:30 UTC (in 29 min) or later, not for now")
        // A bare relative folder is a local path under the working directory.
        XCTAssertEqual(Rclone(path: "", env: [:], remote: "mirror").parentOfRemote(), ".")
        XCTAssertEqual(Rclone(path: "", env: [:], remote: "s3:bucket").parentOfRemote(), nil)
        XCTAssertEqual(Rclone(path: "", env: [:], remote: "s3:bucket/a/b").parentOfRemote(), "s3:bucket/a")
    }

    /// moto's S3 server with a request log; stopped when the test ends.
    final class S3Server {
        let server: LocalServer
        let dir: String
        let log: String
        let failFile: String
        var port: Int { server.port }

        init(dir: String) throws {
            self.dir = dir
            log = dir + "/s3.log"
            failFile = dir + "/s3.fail"
            try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
            var env = ProcessInfo.processInfo.environment
            env.removeValue(forKey: "AWS_CA_BUNDLE")
            do {
                server = try LocalServer(script: "s3-test-server.py", [log, failFile], environment: env,
                                         what: "the S3 test server (python3 with moto[server]: scripts/deps.sh test installs it)")
            } catch {
                try? FileManager.default.removeItem(atPath: dir)
                throw error
            }
        }

        // Its log goes with it (the server itself is stopped as `server` goes).
        deinit { try? FileManager.default.removeItem(atPath: dir) }

        /// The requests that changed the bucket so far, in order.
        func requests() -> [[String: Any]] {
            guard let text = try? String(contentsOfFile: log, encoding: .utf8) else { return [] }
            return text.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        }
    }

    func testDeployToS3HeadersOrderRetryAsTheServerSawThem() throws {
        let server = try S3Server(dir: NSTemporaryDirectory() + "relctl-s3-" + UUID().uuidString.prefix(8))
        let h = PublishTests.scenario()
        h.env = rcloneEnv(h, port: server.port)
        // rclone gives up fast on the failure this test injects.
        h.env["RCLONE_RETRIES"] = "1"
        h.env["RCLONE_LOW_LEVEL_RETRIES"] = "1"
        XCTAssertEqual(try Proc.run("/usr/bin/rclone", ["mkdir", "t:bucket"], env: h.env).status, 0)
        // rclone as relctl runs it, each copy's arguments one line in a log.
        let bin = h.dir + "/bin", copies = h.dir + "/copies.log"
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        try "#!/bin/sh\n[ \"$1\" = copy ] && echo \"$*\" >> \(copies)\nexec /usr/bin/rclone \"$@\"\n".write(toFile: bin + "/rclone", atomically: true, encoding: .utf8)
        XCTAssertEqual(chmod(bin + "/rclone", 0o755), 0)
        h.env["PATH"] = bin + ":/usr/bin:/bin"
        func copyLines() -> [String] { ((try? String(contentsOfFile: copies, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init) }
        let out = h.dir + "/out"
        _ = published(h, out)
        h.fails("deploy \(out) t:nobucket/prod", "cannot reach the remote t:nobucket/prod")
        // A site's pages at paths the tree holds, found through S3's listing: refused, nothing written.
        let page = h.dir + "/page.html"
        try "<html>my site</html>".write(toFile: page, atomically: true, encoding: .utf8)
        XCTAssertEqual(try Proc.run("/usr/bin/rclone", ["copyto", page, "t:bucket/site/index.html"], env: h.env).status, 0)
        XCTAssertEqual(try Proc.run("/usr/bin/rclone", ["copyto", page, "t:bucket/site/shop/status.html"], env: h.env).status, 0)
        let mark0 = server.requests().count
        h.fails("deploy \(out) t:bucket/site", "t:bucket/site/index.html, t:bucket/site/shop/status.html are not files relctl deployed")
        XCTAssertEqual(server.requests().count, mark0, "nothing was written")

        func puts(from: Int) -> [[String: Any]] {
            server.requests().dropFirst(from).filter { ($0["method"] as? String) == "PUT" && ($0["path"] as? String)?.hasPrefix("/bucket/prod/") == true }
        }
        func key(_ r: [String: Any]) -> String { String((r["path"] as! String).dropFirst("/bucket/prod/".count)) }
        // The record of the release goes just before index.json; it is no file of the tree.
        func treePuts(from: Int) -> [[String: Any]] { puts(from: from).filter { key($0) != releasesRecord } }

        // A failed upload: index.json stays away, the next run sends only what is missing.
        try "whatsnew/tr".write(toFile: server.failFile, atomically: true, encoding: .utf8)
        h.fails("deploy \(out) t:bucket/prod", "index.json was not replaced")
        let failed = puts(from: 0).map(key)
        XCTAssertFalse(failed.contains("index.json"))
        XCTAssertFalse(failed.isEmpty, "the files before the failure arrived")
        // Into the empty remote, each file was sent without asking about it first.
        let first = copyLines()
        XCTAssertFalse(first.isEmpty)
        XCTAssertTrue(first.allSatisfy { $0.contains("--no-check-dest --retries 1") && !$0.contains("--checksum") }, "never retried whole, sending all again: \(first)")
        try FileManager.default.removeItem(atPath: server.failFile)
        let mark = server.requests().count
        h.ok("deploy \(out) t:bucket/prod")
        let retried = puts(from: mark).map(key)
        XCTAssertEqual(Set(retried).intersection(failed), [releasesRecord], "nothing that arrived is sent twice, but the record")
        let again = copyLines().dropFirst(first.count)
        XCTAssertTrue(!again.isEmpty && again.allSatisfy { $0.contains("--checksum") && !$0.contains("--no-check-dest") }, "a remote holding files is asked: \(again)")
        XCTAssertEqual(Set(failed + retried), Set(fileTree(out).keys).union([releasesRecord]))

        // Headers and order, as the server got them.
        let all = treePuts(from: 0)
        let order = all.map(key)
        XCTAssertEqual(order.last, "index.json", "index.json last")
        let sent = puts(from: 0).map(key)
        XCTAssertEqual(sent.lastIndex(of: releasesRecord).map { $0 + 1 }, sent.lastIndex(of: "index.json"), "the record just before index.json: \(sent)")
        XCTAssertEqual(sent.firstIndex(of: releasesRecord), 0, "the record of what the first deploy sends, before its first file: \(sent)")
        let lastData = order.lastIndex { !$0.hasSuffix("control.json") && $0 != "index.json" }!
        XCTAssertTrue(order.enumerated().allSatisfy { !$0.element.hasSuffix("control.json") || $0.offset > lastData }, "control.json after every data file: \(order)")
        for r in all {
            let k = key(r), type = r["contentType"] as? String, cache = r["cacheControl"] as? String
            let expected: (String, String)
            switch k {
            case "index.json", "shop/control.json": expected = ("application/json", "public, max-age=60")
            case "index.html", "shop/status.html": expected = ("text/html; charset=utf-8", "public, max-age=60")
            case let p where p.hasSuffix("appcast.xml"): expected = ("application/rss+xml", "public, max-age=300")
            // An hour by class, cut to the 1800 s left until the window starts at 12:30.
            case let p where p.contains("/whatsnew/") || p.contains("/lookup/"): expected = ("application/json", "public, max-age=1800")
            default: expected = ("application/json", "public, max-age=300")
            }
            XCTAssertEqual(type, expected.0, k)
            XCTAssertEqual(cache, expected.1, k)
        }

        // One change: only its files, then the index; a removal: deleted after the index.
        h.ok("notes set 2.0 --platform ios --locale tr \"Başka\"")
        let change = published(h, out)
        let before = server.requests().count
        h.ok("deploy \(out) t:bucket/prod")
        XCTAssertEqual(treePuts(from: before).map(key).sorted(), changedPaths(change))
        XCTAssertEqual(puts(from: before).map(key).last, "index.json")
        h.ok("platform rm android --yes")
        let removal = published(h, out)
        let start = server.requests().count
        h.ok("deploy \(out) t:bucket/prod")
        let tail = server.requests().dropFirst(start).filter { ($0["path"] as? String)?.hasPrefix("/bucket/prod/") == true }
        let indexAt = tail.firstIndex { ($0["path"] as? String) == "/bucket/prod/index.json" && ($0["method"] as? String) == "PUT" }!
        let deletes = tail.enumerated().filter { ($0.element["method"] as? String) == "DELETE" }
        XCTAssertEqual(deletes.map { String(($0.element["path"] as! String).dropFirst("/bucket/prod/".count)) }.sorted(), (removal["removed"] as? [String])?.sorted())
        XCTAssertTrue(deletes.allSatisfy { $0.offset > tail.distance(from: tail.startIndex, to: indexAt) }, "deletions after index.json")
        let remoteIndex = try Proc.run("/usr/bin/rclone", ["cat", "t:bucket/prod/index.json"], env: h.env)
        XCTAssertEqual(remoteIndex.out, try String(contentsOfFile: out + "/index.json", encoding: .utf8))

        // A deletion that fails: the new release is in place, the deletions stay
        // recorded in DIR, and the command the hint gives (deploy again) makes them.
        h.ok("platform rm ios --yes")
        let gone = ((published(h, out)["removed"] as? [String]) ?? []).sorted()
        XCTAssertFalse(gone.isEmpty)
        // Only some deletions fail: the what's-new files.
        try "shop/ios/whatsnew/".write(toFile: server.failFile, atomically: true, encoding: .utf8)
        let refused = h.fails("deploy \(out) t:bucket/prod", "that no longer belong may still be there")
        XCTAssertTrue(refused.err.contains("run 'relctl deploy \(out) t:bucket/prod") && refused.err.contains("again: it deletes them"), refused.err)
        XCTAssertEqual(try Proc.run("/usr/bin/rclone", ["cat", "t:bucket/prod/index.json"], env: h.env).out,
                       try String(contentsOfFile: out + "/index.json", encoding: .utf8), "the new release is in place")
        func remoteFiles() throws -> [String] {
            try Proc.run("/usr/bin/rclone", ["lsf", "-R", "--files-only", "t:bucket/prod"], env: h.env).out.split(separator: "\n").map(String.init)
                .filter { $0 != releasesRecord }.sorted()
        }
        let left = Set(try remoteFiles()).intersection(gone).sorted()
        XCTAssertEqual(left, gone.filter { $0.hasPrefix("shop/ios/whatsnew/") }, "only those deletions failed")
        XCTAssertFalse(left.isEmpty)
        try FileManager.default.removeItem(atPath: server.failFile)
        h.ok("deploy \(out) t:bucket/prod")
        XCTAssertEqual(try remoteFiles(), fileTree(out).keys.sorted(), "the next deploy made the deletions owed, and left the release alone")
    }
}
