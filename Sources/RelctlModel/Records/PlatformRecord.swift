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

    public init(id: Int64, projectID: Int64, name: String, bundleID: String?, appStoreID: String?, storeURL: String?,
                minOS: String?, force: Floor?, recommend: Floor?, storefronts: [String] = []) {
        self.id = id; self.projectID = projectID; self.name = name; self.bundleID = bundleID; self.appStoreID = appStoreID
        self.storeURL = storeURL; self.minOS = minOS; self.force = force; self.recommend = recommend; self.storefronts = storefronts
    }

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
