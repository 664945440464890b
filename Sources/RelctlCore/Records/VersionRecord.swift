/// A version shipped on a platform, spelled exactly as the app reports it.
///
/// A value, whose fields live in one shared object until a copy is changed:
/// a publish copies every record many times (a verdict and its target per
/// version, a row per client and page), and a copy of the fields themselves
/// costs a retain and a release of each string and list in them.
public struct VersionRecord: Sendable {
    private final class Fields: @unchecked Sendable {
        // Changed only through a VersionRecord holding the sole reference (`fields()`).
        var id: Int64
        var platformID: Int64
        var version: Version
        var build: Int64?
        var releasedAt: Int64?
        var minOS: String?
        var policy: String?
        var notes: [String: String]
        var notesRead = true

        init(id: Int64, platformID: Int64, version: Version, build: Int64?, releasedAt: Int64?, minOS: String?,
             policy: String?, notes: [String: String]) {
            self.id = id; self.platformID = platformID; self.version = version; self.build = build
            self.releasedAt = releasedAt; self.minOS = minOS; self.policy = policy; self.notes = notes
        }

        func copy() -> Fields {
            let c = Fields(id: id, platformID: platformID, version: version, build: build, releasedAt: releasedAt,
                           minOS: minOS, policy: policy, notes: notes)
            c.notesRead = notesRead
            return c
        }
    }
    private var stored: Fields

    /// The fields, made this record's own before a change.
    private mutating func fields() -> Fields {
        if !isKnownUniquelyReferenced(&stored) { stored = stored.copy() }
        return stored
    }

    public var id: Int64 { get { stored.id } set { fields().id = newValue } }
    public var platformID: Int64 { get { stored.platformID } set { fields().platformID = newValue } }
    public var version: Version { get { stored.version } set { fields().version = newValue } }
    public var build: Int64? { get { stored.build } set { fields().build = newValue } }
    public var releasedAt: Int64? { get { stored.releasedAt } set { fields().releasedAt = newValue } }
    public var minOS: String? { get { stored.minOS } set { fields().minOS = newValue } }
    /// A pin: an explicit policy for this version alone.
    public var policy: String? { get { stored.policy } set { fields().policy = newValue } }
    /// Its notes by locale. Reading them from a record the store read without
    /// its notes (a publish reads only the notes its files show) is a
    /// programming error, stopped here, never an empty list.
    public var notes: [String: String] {
        get {
            precondition(stored.notesRead, "the notes of version \(version.text) (#\(id)) were not read from the database")
            return stored.notes
        }
        set {
            let f = fields()
            f.notes = newValue
            f.notesRead = true
        }
    }
    /// False for a record read without its notes.
    public var notesRead: Bool { stored.notesRead }

    /// The policies a pin can hold.
    public static let policies = ["force", "recommend", "none"]

    public init(id: Int64, platformID: Int64, version: Version, build: Int64?, releasedAt: Int64?, minOS: String?,
                policy: String?, notes: [String: String]) {
        stored = Fields(id: id, platformID: platformID, version: version, build: build, releasedAt: releasedAt,
                        minOS: minOS, policy: policy, notes: notes)
    }

    /// The same record, its notes not read.
    public func withoutNotes() -> VersionRecord {
        var v = self
        let f = v.fields()
        f.notes = [:]
        f.notesRead = false
        return v
    }

    public var release: Release { Release(version, build: build) }
    public func isReleased(at t: Int64) -> Bool { releasedAt.map { $0 <= t } ?? false }
    public var label: String { build.map { "\(version.text) (\($0))" } ?? version.text }
}
