import RelctlCore

/// One line of the audit trail.
public struct AuditEntry: Sendable {
    public var id: Int64
    public var at: Int64
    public var user: String
    public var project: String?
    public var action: String
    /// The command's words ("force", "version release"): what --action
    /// matches. A String, not a ChangeKind: rows written before schema 7
    /// hold the words their action began with.
    public var kind: String
    /// The platforms the change names (none: the whole project); nil for
    /// rows written before schema 10, which recorded none.
    public var platforms: [String]?
    /// The entries this one took back (relctl undo, revert), oldest first.
    public var reverts: [Int64] = []
    /// The rows it changed, in the order first changed (none for entries older than schema 7).
    public var changes: [RowChange] = []
}

/// One row a change touched: its table, its key, and the whole row before
/// and after (nil: not there), each column by its name in the schema.
public struct RowChange: Sendable, Equatable {
    public var table: String
    /// The primary key's values, in the key's order.
    public var key: [JSON]
    public var before: [String: JSON]?
    public var after: [String: JSON]?

    public init(table: String, key: [JSON], before: [String: JSON]?, after: [String: JSON]?) {
        self.table = table; self.key = key; self.before = before; self.after = after
    }

    /// The columns whose values differ, in name order (every column of a row added or removed).
    public var changedColumns: [String] {
        let names = Set((before ?? [:]).keys).union((after ?? [:]).keys)
        return names.filter { before?[$0] != after?[$0] }.sorted()
    }
}

/// Which audit entries `relctl log` shows; nil lets everything through.
public struct AuditFilter: Sendable {
    public var project: String?
    public var platform: String?
    /// A kind of change, or its first word: "force", "version add", "maintenance".
    public var action: String?
    public var since: Int64?

    public init(project: String? = nil, platform: String? = nil, action: String? = nil, since: Int64? = nil) {
        self.project = project; self.platform = platform; self.action = action; self.since = since
    }
}
