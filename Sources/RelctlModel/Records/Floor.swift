/// "Versions below this must (force) or should (recommend) update".
public struct Floor: Sendable, Equatable {
    public var version: Version
    public var build: Int64?
    /// A force floor with a deadline is a grace period: below it the update
    /// is optional (the message names the deadline) until this instant and
    /// required from it on. Always nil on a recommend floor.
    public var deadline: Int64?

    public init(version: Version, build: Int64?, deadline: Int64? = nil) {
        self.version = version; self.build = build; self.deadline = deadline
    }

    public var release: Release { Release(version, build: build) }
    public var text: String { build.map { "\(version.text) (build \($0))" } ?? version.text }
    public var json: JSON { .object(["version": .string(version.text), "build": .optional(build), "deadline": .time(deadline)]) }

    /// Whether the grace period is still running at `t` (the floor then acts
    /// as an optional update).
    public func isPending(at t: Int64) -> Bool { deadline.map { t < $0 } ?? false }
}
