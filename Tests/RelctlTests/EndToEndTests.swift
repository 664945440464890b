import Foundation
import XCTest
@testable import RelctlCLI
@testable import RelctlCore
@testable import RelctlModel
@testable import RelctlPublish
@testable import RelctlStore
@testable import SQLite

/// Runs the built binary as a user would.
final class EndToEndTests: XCTestCase {
    var dir: String!
    var env: [String: String]!

    override func setUp() {
        dir = NSTemporaryDirectory() + "relctl-e2e-" + UUID().uuidString
        try! FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        env = ["PATH": "/usr/bin:/bin", "TZ": "UTC", "RELCTL_DB": dir + "/relctl.db", "HOME": dir]
    }

    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    @discardableResult
    func relctl(_ args: String..., stdin: String? = nil) throws -> Proc {
        try Proc.run(Package.binary, args, env: env, cwd: dir, stdin: stdin)
    }

    func testExitStatusesAndStreams() throws {
        var r = try relctl("project", "list")
        XCTAssertEqual(r.status, 1)
        XCTAssertEqual(r.out, "")
        XCTAssertTrue(r.err.hasPrefix("relctl: no relctl database"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir + "/relctl.db"))
        r = try relctl("versoin")
        XCTAssertEqual(r.status, 2)
        XCTAssertTrue(r.err.contains("did you mean 'version'?"))
        XCTAssertTrue(r.err.contains("usage: relctl"))
        XCTAssertEqual(try relctl("init").status, 0)
        XCTAssertEqual(try relctl("project", "add", "shop", "--name", "Shop").status, 0)
        r = try relctl("--json", "project", "list")
        XCTAssertEqual(r.status, 0)
        XCTAssertEqual(r.err, "")
        XCTAssertNotNil(try JSONSerialization.jsonObject(with: Data(r.out.utf8)))
        r = try relctl("-q", "platform", "add", "ios", "--bundle-id", "com.example.shop", "--app-store-id", "1")
        XCTAssertEqual(r.status, 0)
        XCTAssertEqual(r.err, "")
        r = try relctl("--version")
        XCTAssertTrue(r.out.hasPrefix("relctl "))
        r = try relctl("--help")
        XCTAssertEqual(r.status, 0)
        XCTAssertTrue(r.out.contains("EXIT STATUS"))
        r = try relctl("notes", "set", "1.0", "--file", "-", stdin: "x\n")
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.err.contains("no version 1.0"))
        XCTAssertFalse(r.err.contains("Fatal"))
    }

    /// Several processes adding versions at once: all succeed, nothing is lost.
    func testConcurrentWritersLoseNothing() throws {
        XCTAssertEqual(try relctl("init").status, 0)
        XCTAssertEqual(try relctl("project", "add", "shop").status, 0)
        XCTAssertEqual(try relctl("platform", "add", "android", "--bundle-id", "a.b").status, 0)
        let writers = 8, each = 12
        var shells: [Process] = []
        for w in 0..<writers {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: "/bin/sh")
            // Each writer adds its versions one process at a time; the writers race each other.
            p.arguments = ["-c", "set -e; i=0; while [ $i -lt \(each) ]; do \"$0\" version add 1.\(w).$i --build $((\(w * 100) + i + 1)) -q; i=$((i + 1)); done",
                           Package.binary]
            p.environment = env
            _ = FileManager.default.createFile(atPath: dir + "/writer-\(w).err", contents: nil)
            p.standardError = FileHandle(forWritingAtPath: dir + "/writer-\(w).err")
            try p.run()
            shells.append(p)
        }
        for p in shells { p.waitUntilExit() }
        let errors = (0..<writers).compactMap { try? String(contentsOfFile: dir + "/writer-\($0).err", encoding: .utf8) }.joined()
        XCTAssertEqual(shells.map(\.terminationStatus), Array(repeating: 0, count: writers), "a writer failed: \(errors)")
        XCTAssertEqual(errors, "")
        let list = try relctl("--json", "version", "list")
        let versions = (try JSONSerialization.jsonObject(with: Data(list.out.utf8)) as! [String: Any])["versions"] as! [Any]
        XCTAssertEqual(versions.count, writers * each)
        let log = try relctl("--json", "log", "--limit", "1000")
        let entries = (try JSONSerialization.jsonObject(with: Data(log.out.utf8)) as! [String: Any])["entries"] as! [Any]
        XCTAssertEqual(entries.count, writers * each + 3)
    }

    func fill(_ db: String, projects: Int, versions: Int, locales: Int) throws {
        var sql = Package.read("bench/fleet.sql")
        sql = sql.replacing("{{PROJECTS}}", with: String(projects)).replacing("{{VERSIONS}}", with: String(versions))
            .replacing("{{LOCALES}}", with: String(locales))
        let c = try Connection(path: db, readOnly: false, create: false)
        try c.execute(sql)
    }

    /// Killed at any instant, publish leaves every file entirely old or new.
    func testAKilledPublishLeavesEveryFileWhole() throws {
        XCTAssertEqual(try relctl("init").status, 0)
        try fill(dir + "/relctl.db", projects: 15, versions: 60, locales: 8)
        let a = dir + "/a", b = dir + "/b", live = dir + "/live"
        let at = "2026-11-29T12:00:00Z"
        XCTAssertEqual(try relctl("publish", a, "--at", at, "-q").status, 0)
        let c = try Connection(path: dir + "/relctl.db", readOnly: false, create: false)
        func flip() throws { try c.execute("UPDATE note SET body = CASE WHEN body LIKE '%!' THEN substr(body, 1, length(body) - 1) ELSE body || '!' END") }
        try flip()
        XCTAssertEqual(try relctl("publish", b, "--at", at, "-q").status, 0)
        try flip()
        func contents(_ root: String) -> [String: Data] {
            var out: [String: Data] = [:]
            let e = FileManager.default.enumerator(atPath: root)!
            while let p = e.nextObject() as? String {
                if p != publishState, let d = FileManager.default.contents(atPath: root + "/" + p), !p.hasSuffix("/") {
                    var isDir: ObjCBool = false
                    _ = FileManager.default.fileExists(atPath: root + "/" + p, isDirectory: &isDir)
                    if !isDir.boolValue { out[p] = d }
                }
            }
            return out
        }
        let old = contents(a), new = contents(b)
        XCTAssertGreaterThan(old.count, 500)
        // A first publish into a new folder (its files written in the background) killed part
        // way: no file a client fetches is half written, and the next publish completes the tree.
        let fresh = dir + "/fresh"
        try FileManager.default.createDirectory(atPath: fresh, withIntermediateDirectories: false)
        var landed = 0
        for delay: useconds_t in [60_000, 150_000, 300_000] {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: Package.binary)
            p.arguments = ["publish", fresh, "--at", at, "-q"]
            p.environment = env
            try p.run()
            usleep(delay)
            if p.isRunning { kill(p.processIdentifier, SIGKILL) }
            p.waitUntilExit()
            if try FileManager.default.contentsOfDirectory(atPath: fresh).contains(where: { $0.hasPrefix(".relctl-") && $0 != publishState }) { landed += 1 }
            for (path, data) in contents(fresh) where !path.split(separator: "/").contains(where: { $0.hasPrefix(".relctl-") }) && path != "index.json" {
                XCTAssertEqual(data, old[path], "after a kill \(delay / 1000) ms in: \(path)")
            }
        }
        XCTAssertGreaterThan(landed, 0, "no kill landed while the first publish staged its folders")
        XCTAssertEqual(try relctl("publish", fresh, "--at", at, "-q").status, 0)
        XCTAssertEqual(contents(fresh).filter { $0.key != "index.json" }, old.filter { $0.key != "index.json" })
        var state = false  // false: the database matches tree a
        var interrupted = 0
        for round in 0..<12 {
            try flip(); state.toggle()
            let p = Process()
            p.executableURL = URL(fileURLWithPath: Package.binary)
            p.arguments = ["publish", live, "--at", at, "-q"]
            p.environment = env
            try p.run()
            usleep(useconds_t(20_000 + round * 25_000))
            if p.isRunning { kill(p.processIdentifier, SIGKILL); interrupted += 1 }
            p.waitUntilExit()
            // Temporaries, staging folders and the journal: never a client's URL.
            for (path, data) in contents(live) where !path.split(separator: "/").contains(where: { $0.hasPrefix(".relctl-") }) {
                if path == "index.json" { XCTAssertNoThrow(try JSONReader.parse(Array(data))); continue }
                XCTAssertTrue(data == old[path] || data == new[path], "round \(round): \(path) is neither the old nor the new file")
            }
        }
        XCTAssertGreaterThan(interrupted, 0, "no publish was interrupted; the fleet is too small to test this")
        // The next publish completes and clears what the killed ones left.
        XCTAssertEqual(try relctl("publish", live, "--at", at, "-q").status, 0)
        let final = contents(live)
        XCTAssertTrue(final.keys.allSatisfy { !$0.contains(".relctl-tmp.") })
        XCTAssertEqual(final.filter { $0.key != "index.json" }, state ? new.filter { $0.key != "index.json" } : old.filter { $0.key != "index.json" })
    }

    /// The published tree served by a real web server, every file fetched over HTTP.
    func testServedByNginx() throws {
        guard let nginx = ["/usr/sbin/nginx", "/usr/bin/nginx"].first(where: FileManager.default.isExecutableFile) else {
            return XCTFail("nginx is not installed; .ci/run installs it (apt-get install nginx-light)")
        }
        XCTAssertEqual(try relctl("init").status, 0)
        try fill(dir + "/relctl.db", projects: 2, versions: 5, locales: 3)
        let out = dir + "/out"
        XCTAssertEqual(try relctl("publish", out, "-q").status, 0)
        let port = 20000 + Int.random(in: 0..<20000)
        let conf = dir + "/nginx.conf"
        // The server block the README gives, as written, on a local port.
        let readme = Package.read("README.md")
        let block = try XCTUnwrap(readme.components(separatedBy: "\nnginx:\n\n").dropFirst().first?.components(separatedBy: "\n    }\n").first)
        let server = block.replacingOccurrences(of: "listen 443 ssl;", with: "listen 127.0.0.1:\(port);")
            .replacingOccurrences(of: "root /srv/relctl/out;", with: "root \(out);")
        XCTAssertTrue(server.contains("listen 127.0.0.1:") && server.contains("root \(out);"), "the README's nginx block changed shape:\n\(block)")
        try """
        daemon off;
        master_process off;
        pid \(dir!)/nginx.pid;
        error_log \(dir!)/nginx-error.log;
        events { worker_connections 64; }
        http {
            access_log off;
        \(server)
            }
        }
        """.write(toFile: conf, atomically: true, encoding: .utf8)
        let nginxProcess = Process()
        nginxProcess.executableURL = URL(fileURLWithPath: nginx)
        nginxProcess.arguments = ["-c", conf, "-p", dir]
        try nginxProcess.run()
        defer { nginxProcess.terminate(); nginxProcess.waitUntilExit() }
        let base = "http://127.0.0.1:\(port)/"
        var ready = false
        for _ in 0..<50 where !ready {
            usleep(100_000)
            ready = (try? Proc.run("/usr/bin/curl", ["-sf", base + "index.json", "-o", "/dev/null"]))?.status == 0
        }
        XCTAssertTrue(ready, "nginx did not answer: \((try? String(contentsOfFile: dir + "/nginx-error.log", encoding: .utf8)) ?? "")")
        let index = try JSONReader.parse(Array(FileManager.default.contents(atPath: out + "/index.json")!))
        let files = index["files"]!.object!
        XCTAssertGreaterThan(files.count, 20)
        for (path, entry) in files.sorted(by: { $0.key < $1.key }) {
            let fetched = try Proc.run("/usr/bin/curl", ["-sf", "-D", dir + "/headers", base + path])
            XCTAssertEqual(fetched.status, 0, path)
            XCTAssertEqual(SHA256.hex(Array(fetched.out.utf8)), entry["sha256"]?.string, path)
            let headers = (try? String(contentsOfFile: dir + "/headers", encoding: .utf8)) ?? ""
            // What the table of published files says, served by the README's block as written.
            guard let kind = FileKinds.of(path) else { XCTFail("\(path) is no kind of published file"); continue }
            let type = kind.contentType.prefix { $0 != ";" }
            XCTAssertTrue(headers.lowercased().contains("content-type: " + type), path)
            XCTAssertTrue(headers.lowercased().contains("cache-control: public, max-age=\(kind.maxAge)\r\n"), "\(path): \(headers)")
        }
        // relctl's own files in DIR are not served.
        XCTAssertTrue(FileManager.default.fileExists(atPath: out + "/" + publishState))
        XCTAssertEqual(try Proc.run("/usr/bin/curl", ["-s", "-o", "/dev/null", "-w", "%{http_code}", base + publishState]).out, "404")
    }
}
