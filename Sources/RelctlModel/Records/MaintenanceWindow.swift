/// A maintenance window of a project, or of one of its platforms.
public struct MaintenanceWindow: Sendable {
    /// Ids stay below 2^53, so that JavaScript clients read them exactly
    /// (control.json) and the ids after them never overflow.
    public static let maxID: Int64 = 9_007_199_254_740_991

    public var id: Int64
    public var projectID: Int64
    public var platformID: Int64?
    public var platformName: String?
    public var startsAt: Int64
    public var endsAt: Int64?
    /// When it was cancelled, before it began; a cancelled window never applies.
    public var cancelledAt: Int64?
    /// locale -> (title, message)
    public var copy: [String: (title: String?, message: String?)]

    public init(id: Int64, projectID: Int64, platformID: Int64?, platformName: String?, startsAt: Int64, endsAt: Int64?,
                cancelledAt: Int64? = nil, copy: [String: (title: String?, message: String?)]) {
        self.id = id; self.projectID = projectID; self.platformID = platformID; self.platformName = platformName
        self.startsAt = startsAt; self.endsAt = endsAt; self.cancelledAt = cancelledAt; self.copy = copy
    }

    public var isCancelled: Bool { cancelledAt != nil }
    public func isActive(at t: Int64) -> Bool { !isCancelled && startsAt <= t && (endsAt.map { t < $0 } ?? true) }
    public func isUpcoming(at t: Int64) -> Bool { !isCancelled && startsAt > t }
    /// Over, or cancelled: it will never apply again.
    public func isOver(at t: Int64) -> Bool { isCancelled || (endsAt.map { $0 <= t } ?? false) }
    public func applies(to platform: Int64) -> Bool { platformID == nil || platformID == platform }
}
