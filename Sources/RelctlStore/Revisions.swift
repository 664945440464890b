/// What names the state each project's published files came from.
public struct Revisions: Sendable {
    /// The last change to the whole database in the audit trail (init, a
    /// change naming no project): the revision of a project with none of its own.
    public var everyProject: Int64
    /// Each project's last change in the audit trail, or the whole database's when later.
    public var bySlug: [String: Int64] = [:]
    /// Each project's edit stamp: the database's edit stamp (random since schema 8) at the last
    /// change to one of its rows, relctl's or one made by hand (no audit
    /// row); none for a project not changed since the stamps began (schema 6).
    public var edits: [String: Int64] = [:]

    public init(everyProject: Int64) { self.everyProject = everyProject }

    /// The project's revision: the number `relctl log` shows for its last change.
    public func revision(_ slug: String) -> Int64 { bySlug[slug] ?? everyProject }
}
