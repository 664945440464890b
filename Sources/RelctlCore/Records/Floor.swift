/// "Versions below this must (force) or should (recommend) update".
public struct Floor: Sendable, Equatable {
    public var version: Version
    public var build: Int64?

    public init(version: Version, build: Int64?) { self.version = version; self.build = build }

    public var release: Release { Release(version, build: build) }
    public var text: String { build.map { "\(version.text) (build \($0))" } ?? version.text }
    public var json: JSON { .object(["version": .string(version.text), "build": .optional(build)]) }
}
