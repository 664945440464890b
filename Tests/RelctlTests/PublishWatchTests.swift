import Foundation
import XCTest
@testable import RelctlCLI
@testable import SQLite

/// `publish --watch` as a real process: republishes after a write from
/// another process and at a scheduled instant, runs --exec with the changed
/// paths, survives a failed publish, and exits cleanly on SIGTERM.
final class PublishWatchTests: XCTestCase {
    final class Watcher {
        let process = Process()
        let errPath: String

        /// `env`: more of the watcher's environment (RELCTL_EXEC_GRACE, say).
        init(_ h: Harness, _ args: [String], env: [String: String] = [:]) throws {
            errPath = h.dir + "/watch.err"
            _ = FileManager.default.createFile(atPath: errPath, contents: nil)
            process.executableURL = URL(fileURLWithPath: Package.binary)
            process.arguments = ["--db", h.db, "publish", h.dir + "/out", "--watch"] + args
            process.environment = ["TZ": "UTC", "PATH": "/usr/bin:/bin"].merging(env) { $1 }
            process.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
            process.standardError = FileHandle(forWritingAtPath: errPath)
            try process.run()
        }

        var log: String { String(decoding: FileManager.default.contents(atPath: errPath) ?? Data(), as: UTF8.self) }

        /// Waits (polling, up to `seconds`) until the log has `count` lines containing `text`.
        @discardableResult
        func wait(for text: String, count: Int = 1, seconds: Double = 10) -> Bool {
            let deadline = Date().addingTimeInterval(seconds)
            while Date() < deadline {
                if log.components(separatedBy: "\n").filter({ $0.contains(text) }).count >= count { return true }
                Thread.sleep(forTimeInterval: 0.05)
            }
            XCTFail("no '\(text)' (×\(count)) within \(seconds) s in:\n\(log)")
            return false
        }

        func stop() -> Int32 {
            if process.isRunning { process.terminate() }  // SIGTERM
            process.waitUntilExit()
            return process.terminationStatus
        }

        deinit { if process.isRunning { process.interrupt(); process.waitUntilExit() } }
    }

    func relctl(_ h: Harness, _ args: [String]) throws {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: Package.binary)
        p.arguments = ["--db", h.db, "-q"] + args
        p.environment = ["TZ": "UTC"]
        try p.run()
        p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 0, "\(args)")
    }

    func entries(_ dir: String) -> [String] {
        (FileManager.default.enumerator(atPath: dir)?.allObjects as? [String] ?? []).sorted()
    }

    func utc(_ offset: TimeInterval) -> String {
        let f = ISO8601DateFormatter()
        return f.string(from: Date().addingTimeInterval(offset))
    }

    func testRepublishesAfterAWriteFromAnotherProcessAndAtTheNextChange() throws {
        let h = Harness()
        h.sample()
        let w = try Watcher(h, [])
        w.wait(for: "published (start)")
        // Another process writes: a window starting in 2 s, for 2 s.
        try relctl(h, ["maintenance", "schedule", "--from", utc(2), "--for", "2s", "--yes"])
        w.wait(for: "published (database changed)")
        XCTAssertTrue(w.log.contains("next change at"), w.log)
        // No write now: the window's start and end are published on their own.
        w.wait(for: "published (maintenance window #1 (all platforms) starts)", seconds: 6)
        let control = try JSONSerialization.jsonObject(with: FileManager.default.contents(atPath: h.dir + "/out/shop/control.json")!) as? [String: Any]
        XCTAssertEqual(((control?["maintenance"] as? [String: Any])?["active"] as? [Any])?.count, 1, "the active window reached control.json without a write")
        w.wait(for: "published (maintenance window #1 (all platforms) ends)", seconds: 6)
        XCTAssertEqual(w.stop(), 0)
        XCTAssertTrue(w.log.contains("stopped (SIGTERM)"), w.log)
        XCTAssertFalse(entries(h.dir + "/out").contains { $0.contains(".relctl-") && $0 != publishState }, "no temporary file or journal left: \(entries(h.dir + "/out"))")
        // Each warning once, not at every publish.
        XCTAssertEqual(w.log.components(separatedBy: "only control.json carries it").count - 1, 2, "one warning per platform, once: \(w.log)")
    }

    /// What --exec wrote to `path`, once `done` says it is all there (or after 5 s).
    func recorded(_ path: String, until done: (String) -> Bool) -> String {
        let deadline = Date().addingTimeInterval(5)
        var text = ""
        while Date() < deadline {
            text = String(decoding: FileManager.default.contents(atPath: path) ?? Data(), as: UTF8.self)
            if done(text) { break }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return text
    }

    func testExecGetsTheChangedPaths() throws {
        let h = Harness()
        h.sample()
        let record = h.dir + "/exec.txt"
        let w = try Watcher(h, ["--exec", "printf '%s\\n' \"$RELCTL_DIR\" \"$@\" >> \(record); printf '%s\\n--\\n' \"$RELCTL_CHANGED\" >> \(record)"])
        w.wait(for: "published (start)")
        try relctl(h, ["notes", "set", "2.0", "--platform", "ios", "--locale", "en", "Brand new look"])
        w.wait(for: "published (database changed)")
        // --exec runs after the publish line; give it a moment.
        let text = recorded(record) { $0.components(separatedBy: "--").count >= 3 }
        // The publish logs itself, a commit too: it does not wake the watcher for a publish of nothing.
        Thread.sleep(forTimeInterval: 1)
        XCTAssertEqual(w.log.components(separatedBy: "\n").filter { $0.contains("published (") }.count, 2, w.log)
        XCTAssertEqual(w.stop(), 0)
        let runs = text.components(separatedBy: "--\n").filter { !$0.isEmpty }
        XCTAssertEqual(runs.count, 2, text)
        XCTAssertTrue(runs[0].hasPrefix(h.dir + "/out\n"), "RELCTL_DIR first: \(text)")
        XCTAssertTrue(runs[1].contains("shop/ios/whatsnew/en.json") && runs[1].contains("index.json"), text)
        XCTAssertFalse(runs[1].contains("shop/android/"), "only what changed: \(text)")
    }

    /// A CMD that fails (a deploy to a store that is down) keeps what it was
    /// owed: the next run gets those paths too, so the remote catches up.
    func testAFailedExecIsRunAgainWithWhatItMissed() throws {
        let h = Harness()
        h.sample()
        let record = h.dir + "/exec.txt", down = h.dir + "/down"
        XCTAssertTrue(FileManager.default.createFile(atPath: down, contents: Data()))
        let w = try Watcher(h, ["--exec", "test ! -e \(down) && printf '%s\n' \"$@\" >> \(record)"])
        w.wait(for: "--exec exited with status 1")
        try FileManager.default.removeItem(atPath: down)
        try relctl(h, ["notes", "set", "2.0", "--platform", "ios", "--locale", "en", "Brand new look"])
        w.wait(for: "published (database changed)")
        let text = recorded(record) { $0.contains("shop/ios/whatsnew/en.json") }
        XCTAssertEqual(w.stop(), 0)
        XCTAssertTrue(text.contains("shop/ios/whatsnew/en.json"), "the new change: \(text)")
        XCTAssertTrue(text.contains("shop/android/retired/en.json"), "and what the failed run at the start was owed: \(text)")
        XCTAssertTrue(w.log.contains("it runs again with these"), w.log)
    }

    func testSurvivesAFailedPublish() throws {
        let h = Harness()
        h.sample()
        let w = try Watcher(h, [])
        w.wait(for: "published (start)")
        try relctl(h, ["rules", "set", "--release-delay", "2", "--yes"])
        w.wait(for: "published (database changed)")
        // Damage the database from outside: the publish fails, the watcher stays.
        func sql(_ statement: String) throws {
            try Connection(path: h.db, readOnly: false, create: false).execute(statement)
        }
        try sql("UPDATE project SET outdated = 'sometimes'")
        w.wait(for: "publish failed (database changed)")
        XCTAssertTrue(w.process.isRunning)
        try sql("UPDATE project SET outdated = 'none'")
        w.wait(for: "published (database changed)", count: 2)
        XCTAssertEqual(w.stop(), 0)
    }

    func testRefusals() {
        let h = Harness()
        h.sample()
        h.fails("publish \(h.dir)/out --watch --at 2026-12-01T00:00:00Z", status: 2, "--watch publishes at the current time")
        h.fails("publish \(h.dir)/out --watch --dry-run", status: 2, "--dry-run writes none")
        h.fails("publish \(h.dir)/out --exec true", status: 2, "--exec runs after each publish of --watch")
        h.fails("publish \(h.dir)/out --watch --exec \" \"", status: 2, "--exec is empty")
    }
}
