import Foundation
import XCTest
@testable import RelctlCLI
@testable import RelctlCore

/// A two-person rule without a server, with real OpenSSH keys: an approval
/// signs exactly one plan, and anything that makes another plan voids it.
final class ApprovalTests: XCTestCase {
    var h: Harness!
    var file = "", signers = ""
    var keys: [String: String] = [:]

    // XCTest keeps every test case until the run ends: let go of the harness, and its folder with it.
    override func tearDown() { h = nil }

    override func setUpWithError() throws {
        let tool = try XCTUnwrap(Proc.which("ssh-keygen"), "ssh-keygen is needed (scripts/deps.sh test installs openssh-client)")
        h = Harness()
        h.sample()
        var allowed = ""
        for name in ["alice", "bob", "mallory"] {
            let path = h.dir + "/\(name)_ed25519"
            XCTAssertEqual(try Proc.run(tool, ["-q", "-t", "ed25519", "-N", "", "-C", name, "-f", path]).status, 0)
            keys[name] = path
            if name != "mallory" {
                let pub = try String(contentsOfFile: path + ".pub", encoding: .utf8).split(separator: " ").prefix(2).joined(separator: " ")
                allowed += "\(name)@example.com namespaces=\"relctl-approve\" \(pub)\n"
            }
        }
        signers = h.dir + "/allowed_signers"
        try allowed.write(toFile: signers, atomically: true, encoding: .utf8)
        file = h.dir + "/shop.relctl.json"
        h.ok("export -o \(file)")
        try edit(#""releaseDelayDays": 1"#, #""releaseDelayDays": 3"#)
    }

    func edit(_ from: String, _ to: String) throws {
        let text = try String(contentsOfFile: file, encoding: .utf8)
        XCTAssertTrue(text.contains(from), from)
        try text.replacingOccurrences(of: from, with: to).write(toFile: file, atomically: true, encoding: .utf8)
    }

    @discardableResult
    func approve(_ who: String, _ extra: [String] = []) -> Harness.Result {
        let r = h.run(["approve", file, "--key", keys[who]!] + extra)
        XCTAssertEqual(r.status, 0, r.err)
        return r
    }

    func apply(_ extra: [String] = []) -> Harness.Result {
        h.run(["apply", file, "--require-approvals", "2", "--allowed-signers", signers, "--yes"] + extra)
    }


    func testTwoDistinctAllowedSignersOfTheExactPlanAreNeeded() throws {
        let before = h.ok("export").out
        var r = apply()
        XCTAssertEqual(r.status, 1, r.err)
        XCTAssertTrue(r.err.contains("has 0 of the 2 approvals it needs; nothing was applied"), r.err)
        let document = approve("alice", ["--json"])
        XCTAssertEqual(try SchemaValidator(path: Package.root + "/schema/json/approve.schema.json").validate(try JSONReader.parse(Array(document.out.utf8))), [],
                       document.out)
        approve("alice")
        r = apply()
        XCTAssertTrue(r.err.contains("has 1 of the 2 approvals it needs (alice@example.com)"), "the same principal twice counts once: \(r.err)")
        approve("mallory")
        r = apply()
        XCTAssertTrue(r.err.contains("its key is no allowed signer's"), "an unknown key approves nothing: \(r.err)")
        // A signature of the plan in another namespace is no approval.
        let token = try XCTUnwrap((h.ok("plan \(file) --json").json as? [String: Any])?["expect"] as? String)
        let message = h.dir + "/message"
        try "relctl-approve plan \(token)\n".write(toFile: message, atomically: true, encoding: .utf8)
        XCTAssertEqual(try Proc.run(Proc.which("ssh-keygen")!, ["-Y", "sign", "-f", keys["bob"]!, "-n", "git", message]).status, 0)
        try FileManager.default.moveItem(atPath: message + ".sig", toPath: file + ".approvals/\(token).0000000000000000.sig")
        r = apply()
        XCTAssertTrue(r.err.contains("not a relctl-approve signature of this plan by bob@example.com"), r.err)
        XCTAssertEqual(h.ok("export").out, before, "nothing was applied")
        approve("bob")
        r = apply()
        XCTAssertEqual(r.status, 0, r.err)
        XCTAssertTrue(h.ok("export").out.contains(#""releaseDelayDays": 3"#))
    }

    /// An edit to the file after the approvals, or a change to the database, makes another plan: the approvals void.
    func testAnEditOrAChangeAfterApprovalVoidsIt() throws {
        approve("alice")
        approve("bob")
        try edit(#""releaseDelayDays": 3"#, #""releaseDelayDays": 5"#)
        var r = apply()
        XCTAssertTrue(r.err.contains("has 0 of the 2 approvals it needs"), "an edit after approval ships unapproved no more: \(r.err)")
        try edit(#""releaseDelayDays": 5"#, #""releaseDelayDays": 3"#)
        h.ok("force 1.1 --platform ios --yes")
        r = apply()
        XCTAssertTrue(r.err.contains("has 0 of the 2 approvals it needs"), "a stale token approves nothing: \(r.err)")
    }

    /// Break-glass applies with fewer, logged, and status and verify say so until the approvals are added.
    func testBreakGlassIsLoggedAndOwedUntilApproved() throws {
        h.fails("apply \(file) --require-approvals 2 --allowed-signers \(signers) --break-glass --yes", status: 2, "--break-glass needs --reason")
        h.fails("apply \(file) --break-glass --reason x --yes", status: 2, "goes with --require-approvals")
        approve("alice")
        // Refused (off a terminal, no --yes): no break-glass is said, none recorded.
        let refused = h.run(["apply", file, "--require-approvals", "2", "--allowed-signers", signers, "--break-glass", "--reason", "payments outage"])
        XCTAssertEqual(refused.status, 2, refused.err)
        XCTAssertFalse(refused.err.contains("break-glass:"), refused.err)
        XCTAssertFalse(h.ok("status").err.contains("break-glass"), "nothing applied, nothing owed")
        let r = apply(["--break-glass", "--reason", "payments outage"])
        XCTAssertEqual(r.status, 0, r.err)
        XCTAssertTrue(r.err.contains("warning: break-glass: applied the plan"), r.err)
        let log = h.ok("log --limit 1").out
        XCTAssertTrue(log.contains("apply shop (break-glass, 2 approvals needed: payments outage)"), log)
        let token = try XCTUnwrap(r.err.components(separatedBy: "applied the plan ").last?.prefix(16)).description
        XCTAssertTrue(h.ok("status").err.contains("was applied with break-glass by tester"), "status names it")
        h.ok("publish \(h.dir)/out")
        let verified = h.run(["verify", h.dir + "/out"])
        XCTAssertTrue(verified.err.contains("has 1 of its 2 approvals"), "verify names it: \(verified.err)")
        approve("bob", ["--token", token])
        XCTAssertFalse(h.ok("status").err.contains("break-glass"), "approved afterwards, it is no longer named")
    }
}
