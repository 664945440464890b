/// A platform of a project, with its store ids and floors.
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
    /// Where the app sells: ISO 3166 country codes, lower case, sorted. None:
    /// floors are not checked against the stores (StoreGuard).
    public var storefronts: [String]
    /// A staged recommend above `recommend`: the floor asked of the installs
    /// in its rollout (`seen`); the others keep `recommend`.
    public var rollout: Rollout?

    public init(id: Int64, projectID: Int64, name: String, bundleID: String?, appStoreID: String?, storeURL: String?,
                minOS: String?, force: Floor?, recommend: Floor?, storefronts: [String] = [], rollout: Rollout? = nil) {
        self.id = id; self.projectID = projectID; self.name = name; self.bundleID = bundleID; self.appStoreID = appStoreID
        self.storeURL = storeURL; self.minOS = minOS; self.force = force; self.recommend = recommend; self.storefronts = storefronts
        self.rollout = rollout
    }

    /// The platform as one install sees it at `t`, with no rollout left to
    /// decide: in the rollout (or once it reaches every install) its
    /// recommend floor is the staged one, else its own, and the staged
    /// version is withheld from it (`Withholding`).
    public func seen(inRollout: Bool, at t: Int64) -> PlatformRecord {
        guard let r = rollout else { return self }
        var p = self
        p.rollout = nil
        if inRollout || r.isComplete(at: t) {
            if recommend.map({ Release.isBelow($0.release, r.floor.release) }) ?? true { p.recommend = r.floor }
        } else {
            p.withheld = Withholding(line: r.floor.release, since: r.since, fromAll: false)
        }
        return p
    }

    /// What a rollout still staging keeps from the installs outside it: the
    /// outdated rules do not offer them the staged version, or any newer one
    /// not announced before the rollout started (a fix shipped meanwhile).
    /// `fromAll`: from every install (the files that cannot stage, which
    /// name one newest version for all), else only from installs below the line.
    public struct Withholding: Sendable {
        public var line: Release
        public var since: Int64
        public var fromAll: Bool

        /// Whether `v` is kept from the installs it applies to (`delay`: the project's release delay in seconds).
        public func hides(_ v: VersionRecord, delay: Int64) -> Bool {
            guard !Release.isBelow(v.release, line) else { return false }
            guard let released = v.releasedAt else { return true }
            return released > since - delay
        }

        /// Whether it applies to an install of `client`.
        public func applies(to client: Release) -> Bool { fromAll || Release.isBelow(client, line) }
    }

    /// Set on a view (`seen`, `unstaged`), never stored.
    public var withheld: Withholding?

    /// The withholding in force at `t`: the view's, else, on a platform as
    /// recorded, its rollout's while it stages (from installs below it).
    public func withholding(at t: Int64) -> Withholding? {
        if let withheld { return withheld }
        guard let r = rollout, !r.isComplete(at: t) else { return nil }
        return Withholding(line: r.floor.release, since: r.since, fromAll: false)
    }

    /// As the install `installID` sees it (nil: an install not in the rollout).
    public func seen(install installID: String?, at t: Int64) -> PlatformRecord {
        seen(inRollout: installID.map { rollout?.includes($0, at: t) ?? false } ?? false, at: t)
    }

    /// As files that cannot stage show it: withheld from every install until
    /// every install is in, or offered to all (Rollout.Unstaged).
    public func unstaged(at t: Int64) -> PlatformRecord {
        guard rollout != nil else { return self }
        var p = seen(inRollout: rollout?.unstaged == .everyone, at: t)
        p.withheld?.fromAll = true
        return p
    }

    /// Whether the rollout still divides installs at `t`: its views differ.
    public func isStaging(at t: Int64) -> Bool { rollout.map { !$0.isComplete(at: t) } ?? false }

    /// The force floor in effect at `t`: nil while its deadline lies ahead.
    public func requiredFloor(at t: Int64) -> Floor? { force.flatMap { $0.isPending(at: t) ? nil : $0 } }
    /// The force floor while its grace period runs (optional until the deadline).
    public func pendingFloor(at t: Int64) -> Floor? { force.flatMap { $0.isPending(at: t) ? $0 : nil } }

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
