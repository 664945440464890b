/// One line of the audit trail.
public struct AuditEntry: Sendable {
    public var id: Int64
    public var at: Int64
    public var user: String
    public var project: String?
    public var action: String
}
