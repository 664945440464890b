import RelctlCore

/// Publishes and deploys in the audit trail: when, by whom, which revision,
/// how many files changed, and where. Not a change of the data: `revision()`
/// leaves these rows out, so logging one never makes the next publish differ.
/// Each is a session of its own.
extension Store {
    public func logPublish(dir: String, revision: Int64, added: Int, changed: Int, removed: Int, now: Int64) throws {
        try write { try $0.record(Change(.publish, project: nil, "publish \(dir) revision \(revision): \(added) added, \(changed) changed, \(removed) removed"), now: now) }
        // The publish's own read-only connection cannot fold the log back
        // into the database when it closes: do it now, not in whichever
        // command opens the database next.
        try db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    }

    public func logDeploy(dir: String, remote: String, revision: Int64, uploaded: Int, deleted: Int, now: Int64) throws {
        try write { try $0.record(Change(.deploy, project: nil, "deploy \(dir) to \(remote) revision \(revision): \(uploaded) uploaded, \(deleted) deleted"), now: now) }
    }
}
