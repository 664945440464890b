/// A version shipped on a platform, spelled exactly as the app reports it.
/// Its fields are shared between copies until one is changed (CopyOnWrite).
public struct VersionRecord: Sendable {
    private struct Fields {
        var id: Int64
        var platformID: Int64
        var version: Version
        var build: Int64?
        var releasedAt: Int64?
        var minOS: String?
        var policy: Pin?
        var notes: [String: String]
        var notesRead = true
    }
    private var stored: CopyOnWrite<Fields>

    public var id: Int64 { get { stored.fields.id } set { stored.update { $0.id = newValue } } }
    public var platformID: Int64 { get { stored.fields.platformID } set { stored.update { $0.platformID = newValue } } }
    public var version: Version { get { stored.fields.version } set { stored.update { $0.version = newValue } } }
    public var build: Int64? { get { stored.fields.build } set { stored.update { $0.build = newValue } } }
    public var releasedAt: Int64? { get { stored.fields.releasedAt } set { stored.update { $0.releasedAt = newValue } } }
    public var minOS: String? { get { stored.fields.minOS } set { stored.update { $0.minOS = newValue } } }
    /// A pin: an explicit policy for this version alone.
    public var policy: Pin? { get { stored.fields.policy } set { stored.update { $0.policy = newValue } } }
    /// Its notes by locale. Reading them from a record the store read without
    /// its notes (a publish reads only the notes its files show) is a
    /// programming error, stopped here, never an empty list.
    public var notes: [String: String] {
        get {
            precondition(stored.fields.notesRead, "the notes of version \(version.text) (#\(id)) were not read from the database")
            return stored.fields.notes
        }
        set { stored.update { $0.notes = newValue; $0.notesRead = true } }
    }
    /// False for a record read without its notes.
    public var notesRead: Bool { stored.fields.notesRead }

    /// What a pin holds; the raw value is the word stored and typed.
    /// (Spelled out as `Pin.none` beside an optional: `.none` alone is nil.)
    public enum Pin: String, Sendable, CaseIterable { case force, recommend, none }

    /// The policies a pin can hold.
    public static let policies = Pin.allCases.map(\.rawValue)

    /// `notesRead` false: a record read without its notes, as `withoutNotes` makes one, made so at once rather than copied.
    public init(id: Int64, platformID: Int64, version: Version, build: Int64?, releasedAt: Int64?, minOS: String?,
                policy: Pin?, notes: [String: String], notesRead: Bool = true) {
        stored = CopyOnWrite(Fields(id: id, platformID: platformID, version: version, build: build, releasedAt: releasedAt,
                                    minOS: minOS, policy: policy, notes: notes, notesRead: notesRead))
    }

    /// The same record, its notes not read.
    public func withoutNotes() -> VersionRecord {
        var v = self
        v.stored.update { $0.notes = [:]; $0.notesRead = false }
        return v
    }

    public var release: Release { Release(version, build: build) }
    public func isReleased(at t: Int64) -> Bool { releasedAt.map { $0 <= t } ?? false }
    public var label: String { build.map { "\(version.text) (\($0))" } ?? version.text }
}

extension VersionRecord {
    /// The one order of a platform's versions, oldest first (reads, export,
    /// import, the published files): Release.isBelow, and of one rank a
    /// build after none, then the text. Release.isBelow alone leaves a
    /// spelling without a build level with every build of its version, which
    /// is no strict order: the order a list came in decided between them.
    package static func isOlder(_ a: VersionRecord, _ b: VersionRecord) -> Bool {
        let (x, y) = (a.orderKey, b.orderKey)
        return x != y ? x < y : a.version.text < b.version.text
    }

    /// All of `isOlder` but the text: the rank (Version.sortKey), then the build, none first.
    package var orderKey: (UInt64, UInt64, Int64) {
        let k = version.sortKey
        return (k.0, k.1, build ?? -1)
    }
}
