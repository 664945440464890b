/// Everything about one project, read by the store in one transaction: the input of the
/// evaluator and of every publisher.
public struct ProjectSnapshot: Sendable {
    public var project: ProjectRecord
    public var platforms: [PlatformRecord]
    /// Per platform id, ordered oldest to newest.
    public var versions: [Int64: [VersionRecord]]
    public var windows: [MaintenanceWindow]
    public var messages: MessageResolver
    /// The project's time zone, read where the zone database is (the
    /// command line, ZoneOffsets); nil: messages and pages show UTC, and say so.
    public var zone: ZoneRules?
    /// The locales of every version's notes, when the store read only some
    /// versions' notes (nil: taken from the versions).
    public var noteLocales: Set<String>?
    /// What the stores were seen to serve, per platform id (none for a platform without evidence).
    public var store: [Int64: StoreEvidence] = [:]

    /// An instant as a user in `locale` reads it in a message.
    public func localDate(_ t: Int64, locale: String) -> String {
        LocalDate.render(t, offset: zone?.offset(at: t), locale: locale, defaultLocale: project.defaultLocale)
    }

    public init(project: ProjectRecord, platforms: [PlatformRecord], versions: [Int64: [VersionRecord]],
                windows: [MaintenanceWindow], messages: MessageResolver) {
        self.project = project; self.platforms = platforms; self.versions = versions
        self.windows = windows; self.messages = messages
    }

    public func versions(of platform: PlatformRecord) -> [VersionRecord] { versions[platform.id] ?? [] }

    /// The newest version released at or before `t` (of those `where` accepts).
    public func newestReleased(_ platform: PlatformRecord, at t: Int64, where accepts: (VersionRecord) -> Bool = { _ in true }) -> VersionRecord? {
        versions(of: platform).last { $0.isReleased(at: t) && accepts($0) }
    }

    public var delaySeconds: Int64 { project.releaseDelayDays * 86400 }

    /// The newest version whose release delay has passed at `t`: what clients are told about.
    /// On a view that withholds from every install (the files that cannot
    /// stage), a version a rollout withholds is not announced.
    public func newestAnnounced(_ platform: PlatformRecord, at t: Int64, where accepts: (VersionRecord) -> Bool = { _ in true }) -> VersionRecord? {
        let delay = delaySeconds
        let hidden = platform.withheld.flatMap { $0.fromAll ? $0 : nil }
        return versions(of: platform).last { v in
            (v.releasedAt.map { $0 + delay <= t } ?? false) && accepts(v) && !(hidden?.hides(v, delay: delay) ?? false)
        }
    }

    /// Overlapping windows block as their union; the one whose copy users
    /// see is the newest (highest id): the engineer's latest word, such as
    /// an emergency started over a planned window.
    public func activeWindow(_ platform: PlatformRecord, at t: Int64) -> MaintenanceWindow? {
        windows.filter { $0.applies(to: platform.id) && $0.isActive(at: t) }.max { $0.id < $1.id }
    }

    public func upcomingWindows(_ platform: PlatformRecord?, at t: Int64) -> [MaintenanceWindow] {
        windows.filter { w in w.isUpcoming(at: t) && (platform.map { w.applies(to: $0.id) } ?? true) }
    }

    /// Locales to publish: the project's list, else its default locale and
    /// every locale that notes or messages use.
    public var publishedLocales: [String] {
        if !project.locales.isEmpty { return project.locales }
        var set: Set<String> = [project.defaultLocale]
        if let noteLocales { set.formUnion(noteLocales) } else {
            for list in versions.values { for v in list { set.formUnion(v.notes.keys) } }
        }
        for byLocale in messages.overrides.values { set.formUnion(byLocale.keys) }
        for w in windows { set.formUnion(w.copy.keys) }
        return set.sorted()
    }
}
