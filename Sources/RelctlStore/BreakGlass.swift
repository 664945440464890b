import RelctlCore
import SQLite

/// An apply made with fewer approvals than it required (`apply
/// --break-glass --reason`): the plan's token, who, when and why, and where
/// its approvals are to be found, so that status and verify name it until
/// enough are added afterwards.
public struct BreakGlass: Sendable, Equatable {
    public var token: String
    public var at: Int64
    public var user: String
    public var reason: String
    public var required: Int64
    /// The approvals folder and the allowed-signers file, as the apply was given them.
    public var approvals: String
    public var signers: String

    public init(token: String, at: Int64, user: String, reason: String, required: Int64, approvals: String, signers: String) {
        self.token = token; self.at = at; self.user = user; self.reason = reason; self.required = required
        self.approvals = approvals; self.signers = signers
    }
}

extension Session {
    /// Records a break-glass apply: bookkeeping in the apply's session, no change users see.
    public func recordBreakGlass(_ b: BreakGlass) throws {
        guard isOpen else { throw StoreError("this session is already committed or dropped") }
        try db.write {
            try db.run("INSERT INTO break_glass(token, at, user, reason, required, approvals, signers) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT(token) DO NOTHING",
                       [.text(b.token), .int(b.at), .text(b.user), .text(b.reason), .int(b.required), .text(b.approvals), .text(b.signers)])
        }
    }
}

extension Store {
    /// Every break-glass apply, oldest first.
    public func breakGlasses() throws -> [BreakGlass] {
        try db.query("SELECT token, at, user, reason, required, approvals, signers FROM break_glass ORDER BY at, token").map { r in
            let what = "break_glass row \(r.text(0))"
            guard let required = r.int(4), (1...100).contains(required) else { throw badRow(what, "its required count is not 1 to 100") }
            return BreakGlass(token: r.text(0), at: try instant(r.int(1), what, "at")!, user: r.text(2), reason: r.text(3), required: required,
                              approvals: r.text(5), signers: r.text(6))
        }
    }
}
