import Foundation
import XCTest
@testable import RelctlCLI
@testable import RelctlCore
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
        let names = [".relctl-state", ".relctl-state.new", ".relctl-journal", DeployJournal.name]
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

    /// rclone with no user configuration, and `bin` first on PATH (a wrapper of the test's).
    func deployEnv(_ h: Harness, bin: String) -> [String: String] {
        ["TZ": "UTC", "PATH": bin + ":/usr/local/bin:/usr/bin:/bin", "HOME": h.dir, "RCLONE_CONFIG": "/dev/null"]
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
        XCTAssertFalse(fm.fileExists(atPath: out + "/" + DeployJournal.name), "nothing is owed any more")
        // A failed deletion stays owed too, and a deploy to another remote owes nothing of it.
        h.ok("platform rm ios --yes")
        h.ok("platform add ios --bundle-id com.example.shop")
        XCTAssertEqual(try relctl(["publish", out]).status, 0)
        try wrapper(bin + "/rclone", "[ \"$1\" = delete ] && { echo 'ERROR : refused by the test' >&2; exit 1; }")
        let failed = try relctl(["deploy", out, remote + "/"])
        XCTAssertEqual(failed.status, 1)
        XCTAssertTrue(failed.err.contains("recorded in \(out)/\(DeployJournal.name) for the next deploy"), failed.err)
        try wrapper(bin + "/rclone", "")
        let other = h.dir + "/other"
        try fm.createDirectory(atPath: other, withIntermediateDirectories: true)
        XCTAssertEqual(try relctl(["deploy", out, other]).status, 0)
        XCTAssertEqual(fileTree(other), fileTree(out).filter { $0.key != DeployJournal.name })
        XCTAssertEqual(try relctl(["deploy", out, remote]).status, 0, "the same remote, spelled without the slash")
        XCTAssertEqual(fileTree(remote), fileTree(out))
    }
}
