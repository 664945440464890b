/// A maintenance window of a project, or of one of its platforms.
public struct MaintenanceWindow: Sendable {
    public var id: Int64
    public var projectID: Int64
    public var platformID: Int64?
    public var platformName: String?
    public var startsAt: Int64
    public var endsAt: Int64?
    /// locale -> (title, message)
    public var copy: [String: (title: String?, message: String?)]

    public init(id: Int64, projectID: Int64, platformID: Int64?, platformName: String?, startsAt: Int64, endsAt: Int64?,
                copy: [String: (title: String?, message: String?)]) {
        self.id = id; self.projectID = projectID; self.platformID = platformID; self.platformName = platformName
        self.startsAt = startsAt; self.endsAt = endsAt; self.copy = copy
    }

    public func isActive(at t: Int64) -> Bool { startsAt <= t && (endsAt.map { t < $0 } ?? true) }
    public func isUpcoming(at t: Int64) -> Bool { startsAt > t }
    public func isOver(at t: Int64) -> Bool { endsAt.map { $0 <= t } ?? false }
    public func applies(to platform: Int64) -> Bool { platformID == nil || platformID == platform }
}
