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

    /// The folder the last publish that wrote files wrote into, as it was given
    /// ("publish DIR revision N: …"): where status looks for the live files.
    public func lastPublishDir() throws -> String? {
        guard let action = try db.scalar("SELECT action FROM audit WHERE kind = 'publish' ORDER BY id DESC LIMIT 1").stringValue else { return nil }
        let text = Array(action.utf8), prefix = Array("publish ".utf8), marker = Array(" revision ".utf8)
        guard text.starts(with: prefix) else { return nil }
        var i = text.count - marker.count
        while i >= prefix.count {
            if Array(text[i..<(i + marker.count)]) == marker { return String(decoding: text[prefix.count..<i], as: UTF8.self) }
            i -= 1
        }
        return nil
    }

    public func logDeploy(dir: String, remote: String, revision: Int64, uploaded: Int, deleted: Int, now: Int64) throws {
        try write { try $0.record(Change(.deploy, project: nil, "deploy \(dir) to \(remote) revision \(revision): \(uploaded) uploaded, \(deleted) deleted"), now: now) }
    }
}
