/// One line of the audit trail.
public struct AuditEntry: Sendable {
    public var id: Int64
    public var at: Int64
    public var user: String
    public var project: String?
    public var action: String
}

/// Which audit entries `relctl log` shows; nil lets everything through.
public struct AuditFilter: Sendable {
    public var project: String?
    public var platform: String?
    /// The action's first words, like "force" or "version add".
    public var action: String?
    public var since: Int64?

    public init(project: String? = nil, platform: String? = nil, action: String? = nil, since: Int64? = nil) {
        self.project = project; self.platform = platform; self.action = action; self.since = since
    }
}
