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

    /// The most pushes a project is sent in an hour: Apple asks for no more
    /// than two or three background pushes an hour. A push no service took
    /// ("push failed") gives its turn back.
    public static let pushesPerHour = 2

    /// Logs a push about to be sent, in one transaction with the count it
    /// is held to, so two deploys at once cannot both take the last turn.
    /// Returns nil when logged, else the pushes of the last hour that hold it back.
    public func logPush(project: String, _ action: String, urgent: Bool, now: Int64) throws -> Int? {
        try write { s in
            let recent = try recentPushes(project: project, now: now)
            if !urgent && recent >= Store.pushesPerHour { return recent }
            try s.record(Change(.push, project: project, action), now: now)
            return nil
        }
    }

    /// The project's pushes in the hour before `now` that a service took (or may have).
    public func recentPushes(project: String, now: Int64) throws -> Int {
        let n = try db.scalar("SELECT coalesce(sum(kind = 'push') - sum(kind = 'push failed'), 0) FROM audit WHERE project = ? AND kind IN ('push', 'push failed') AND at > ?",
                              [.text(project), .int(now - 3600)]).intValue ?? 0
        return Int(max(0, min(n, 1_000_000)))
    }

    /// Logs that no service took a push logged with `logPush`.
    public func logPushFailed(project: String, _ action: String, now: Int64) throws {
        try write { try $0.record(Change(.pushFailed, project: project, action), now: now) }
    }
}
