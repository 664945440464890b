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
    public var notes: [String: String]

    /// The policies a pin can hold.
    public static let policies = ["force", "recommend", "none"]

    public init(id: Int64, platformID: Int64, version: Version, build: Int64?, releasedAt: Int64?, minOS: String?,
                policy: String?, notes: [String: String]) {
        self.id = id; self.platformID = platformID; self.version = version; self.build = build
        self.releasedAt = releasedAt; self.minOS = minOS; self.policy = policy; self.notes = notes
    }

    public var release: Release { Release(version, build: build) }
    public func isReleased(at t: Int64) -> Bool { releasedAt.map { $0 <= t } ?? false }
    public var label: String { build.map { "\(version.text) (\($0))" } ?? version.text }
}
