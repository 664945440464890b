import Foundation
import XCTest

/// SplitMix64: a small seeded generator, the same sequence everywhere, so a
/// failing seed (scenarios, fuzzing, random publishes) replays exactly.
struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
    mutating func chance(_ percent: Int) -> Bool { below(100) < percent }
    mutating func pick<T>(_ list: [T]) -> T { list[below(list.count)] }
}

/// Every regular file under `dir`, by path relative to it.
/// The files under `dir` but the state a publish records for the next one
/// (`.relctl-state`: inode numbers and times, never equal between two trees).
func fileTree(_ dir: String) -> [String: Data] {
    var out: [String: Data] = [:]
    let e = FileManager.default.enumerator(atPath: dir)!
    while let relative = e.nextObject() as? String {
        // The tree's state, and a remote's record of its release (deploy): neither is part of the release.
        if relative == publishState || relative == releasesRecord { continue }
        var isDir: ObjCBool = false
        _ = FileManager.default.fileExists(atPath: dir + "/" + relative, isDirectory: &isDir)
        if !isDir.boolValue { out[relative] = FileManager.default.contents(atPath: dir + "/" + relative)! }
    }
    return out
}

/// The name of the state file a publish leaves at the top of DIR.
let publishState = ".relctl-state"
/// The record of its release a deploy leaves at the top of REMOTE.
let releasesRecord = "relctl-releases.json"

/// The bytes of the file at `path` with one near its end changed and the
/// size kept: an edit behind relctl's back.
func alteredAtSameSize(_ path: String) -> Data {
    var bytes = Array(FileManager.default.contents(atPath: path)!)
    bytes[bytes.count - 3] = bytes[bytes.count - 3] == UInt8(ascii: "x") ? UInt8(ascii: "y") : UInt8(ascii: "x")
    return Data(bytes)
}

/// Runs SQL on the harness's database through the sqlite3 shell, as a person
/// at a terminal would: no audit row, and foreign keys off unless it says so.
func sqlite3(_ h: Harness, _ sql: String, file: StaticString = #filePath, line: UInt = #line) throws {
    let shell = try XCTUnwrap(Proc.which("sqlite3"), "the sqlite3 shell is needed (scripts/deps.sh test installs it); a test that uses it belongs in the Makefile's TOOLS, which make test leaves out", file: file, line: line)
    let r = try Proc.run(shell, [h.db, sql])
    XCTAssertEqual(r.status, 0, "\(sql): \(r.err)", file: file, line: line)
}

/// The sample project and two more (blog, cafe) with one iOS platform each.
func threeProjects() -> Harness {
    let h = Harness()
    h.sample()
    for slug in ["blog", "cafe"] {
        h.ok("project add \(slug) --name \(slug.capitalized)")
        h.ok("platform add ios -p \(slug) --bundle-id com.example.\(slug) --app-store-id 1088280261 --min-os 15.0")
        h.ok("version add 1.0 -p \(slug) --platform ios --build 100 --released 2026-01-01T00:00:00Z --notes \"First\"")
        h.ok("version add 1.1 -p \(slug) --platform ios --build 110 --released 2026-11-29T06:00:00Z --notes \"Second\"")
    }
    return h
}

/// `publish DIR --json`, asserted to succeed: its report.
func publishJSON(_ h: Harness, _ dir: String, _ extra: [String] = [], file: StaticString = #filePath, line: UInt = #line) -> [String: Any] {
    let r = h.run(["publish", dir, "--json"] + extra)
    XCTAssertEqual(r.status, 0, r.err, file: file, line: line)
    return (r.json as? [String: Any]) ?? [:]
}

/// An exported configuration without what says which changes the database
/// holds (each project's `lineage`, the `removed` projects' histories): the
/// configuration itself, as two histories that reach it write it alike.
func withoutLineage(_ export: String) -> String {
    guard var top = (try? JSONSerialization.jsonObject(with: Data(export.utf8))) as? [String: Any] else { return export }
    top["removed"] = nil
    if var projects = top["projects"] as? [String: Any] {
        for (slug, value) in projects { if var p = value as? [String: Any] { p["lineage"] = nil; projects[slug] = p } }
        top["projects"] = projects
    }
    let data = (try? JSONSerialization.data(withJSONObject: top, options: [.sortedKeys, .prettyPrinted])) ?? Data()
    return String(decoding: data, as: UTF8.self)
}

/// A local test server from scripts/: started with its arguments, its port
/// read from the first line it prints; stopped when released.
/// nginx serving `root` on a loopback port, for the client's downloads; stopped when released.
final class LocalNginx {
    let process = Process()
    let port = 20000 + Int.random(in: 0..<20000)

    /// `dir`: where its configuration, pid and error log go; `probe`: a path under root it must serve before it counts as started.
    init(root: String, dir: String, probe: String) throws {
        guard let nginx = ["/usr/sbin/nginx", "/usr/bin/nginx"].first(where: FileManager.default.isExecutableFile) else {
            throw NSError(domain: "nginx is not installed; .ci/run installs it (apt-get install nginx-light)", code: 1)
        }
        try """
        daemon off;
        master_process off;
        pid \(dir)/nginx.pid;
        error_log \(dir)/nginx-error.log;
        events { worker_connections 64; }
        http { access_log off; server { listen 127.0.0.1:\(port); root \(root); } }
        """.write(toFile: dir + "/nginx.conf", atomically: true, encoding: .utf8)
        process.executableURL = URL(fileURLWithPath: nginx)
        process.arguments = ["-c", dir + "/nginx.conf", "-p", dir]
        try process.run()
        for _ in 0..<50 {
            if (try? Data(contentsOf: url(probe))) != nil { return }
            usleep(100_000)
        }
        throw NSError(domain: "nginx did not answer", code: 1)
    }

    func url(_ path: String) -> URL { URL(string: "http://127.0.0.1:\(port)/\(path)")! }

    deinit { process.terminate(); process.waitUntilExit() }
}

final class LocalServer {
    let process = Process()
    let port: Int

    init(script: String, _ arguments: [String], environment: [String: String]? = nil, what: String) throws {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", Package.root + "/scripts/" + script] + arguments
        if let environment { process.environment = environment }
        let stdout = Pipe()
        process.standardOutput = stdout
        process.standardError = FileHandle.nullDevice
        try process.run()
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = stdout.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line += chunk
        }
        guard let p = Int(String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) else {
            process.terminate()
            throw XCTSkip("\(what) did not start")
        }
        port = p
    }

    deinit { process.terminate(); process.waitUntilExit() }
}
