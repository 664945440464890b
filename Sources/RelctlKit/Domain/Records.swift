/// Rows of the database as the domain sees them.
public struct ProjectRecord: Sendable {
    public var id: Int64
    public var slug: String
    public var name: String
    public var defaultLocale: String
    /// Locales the project publishes; empty means "derive from the data".
    public var locales: [String]
    public var rules: Rules
    public var releaseDelayDays: Int64
    public var remindHours: Int64
    public var outdated: String
}

public struct Floor: Sendable, Equatable {
    public var version: Version
    public var build: Int64?

    public var release: Release { Release(version, build: build) }
    public var text: String { build.map { "\(version.text) (build \($0))" } ?? version.text }
    public var json: JSON { .object(["version": .string(version.text), "build": .optional(build)]) }
}

public struct PlatformRecord: Sendable {
    public var id: Int64
    public var projectID: Int64
    public var name: String
    public var bundleID: String?
    public var appStoreID: String?
    public var storeURL: String?
    public var minOS: String?
    public var force: Floor?
    public var recommend: Floor?

    public var isApple: Bool { Names.applePlatforms.contains(name) }
    public var isAndroid: Bool { name == "android" }

    /// Where users are sent to update.
    public var updateURL: String? {
        if let storeURL { return storeURL }
        if isApple, let id = appStoreID { return "https://apps.apple.com/app/id\(id)" }
        if isAndroid, let b = bundleID { return "https://play.google.com/store/apps/details?id=\(b)" }
        return nil
    }
}

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

    public var release: Release { Release(version, build: build) }
    public func isReleased(at t: Int64) -> Bool { releasedAt.map { $0 <= t } ?? false }
    public var label: String { build.map { "\(version.text) (\($0))" } ?? version.text }
}

public struct MaintenanceWindow: Sendable {
    public var id: Int64
    public var projectID: Int64
    public var platformID: Int64?
    public var platformName: String?
    public var startsAt: Int64
    public var endsAt: Int64?
    /// locale -> (title, message)
    public var copy: [String: (title: String?, message: String?)]

    public func isActive(at t: Int64) -> Bool { startsAt <= t && (endsAt.map { t < $0 } ?? true) }
    public func isUpcoming(at t: Int64) -> Bool { startsAt > t }
    public func isOver(at t: Int64) -> Bool { endsAt.map { $0 <= t } ?? false }
    public func applies(to platform: Int64) -> Bool { platformID == nil || platformID == platform }
}
