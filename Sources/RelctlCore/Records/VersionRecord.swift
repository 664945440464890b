/// A version shipped on a platform, spelled exactly as the app reports it.
public struct VersionRecord: Sendable {
    public var id: Int64
    public var platformID: Int64
    public var version: Version
    public var build: Int64?
    public var releasedAt: Int64?
    public var minOS: String?
    /// A pin: an explicit policy for this version alone.
    public var policy: String?
    /// Its notes by locale. Reading them from a record the store read without
    /// its notes (a publish reads only the notes its files show) is a
    /// programming error, stopped here, never an empty list.
    public var notes: [String: String] {
        get {
            precondition(notesRead, "the notes of version \(version.text) (#\(id)) were not read from the database")
            return storedNotes
        }
        set { storedNotes = newValue; notesRead = true }
    }
    private var storedNotes: [String: String]
    /// False for a record read without its notes.
    public private(set) var notesRead = true

    /// The policies a pin can hold.
    public static let policies = ["force", "recommend", "none"]

    public init(id: Int64, platformID: Int64, version: Version, build: Int64?, releasedAt: Int64?, minOS: String?,
                policy: String?, notes: [String: String]) {
        self.id = id; self.platformID = platformID; self.version = version; self.build = build
        self.releasedAt = releasedAt; self.minOS = minOS; self.policy = policy; self.storedNotes = notes
    }

    /// The same record, its notes not read.
    public func withoutNotes() -> VersionRecord {
        var v = self
        v.storedNotes = [:]
        v.notesRead = false
        return v
    }

    public var release: Release { Release(version, build: build) }
    public func isReleased(at t: Int64) -> Bool { releasedAt.map { $0 <= t } ?? false }
    public var label: String { build.map { "\(version.text) (\($0))" } ?? version.text }
}
