/// A project (an app) and its settings.
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
    /// What versions below the newest get when no floor or pin applies; the raw value is the word stored and typed.
    public enum Outdated: String, Sendable, CaseIterable { case recommend, none }
    public var outdated: Outdated
    /// The zone app messages show instants in ({until}, {deadline}).
    public var timeZone: String = "UTC"
    /// How many released versions, newest first, whatsnew/<locale>.json
    /// lists (0: every one). Apps show the notes of the release they
    /// offer, and a few before it for users who skipped some; a complete
    /// history costs every user on every launch (160 of 177 MiB of the
    /// benchmark fleet's files before this limit).
    public var whatsNewLimit: Int64 = ProjectRecord.defaultWhatsNewLimit
    /// The formats its apps read: publish writes, proves and warns about only these.
    public var formats: ServedFormats = .all
    /// The Ed25519 public keys (base64 of 32 bytes) its apps pin: when any,
    /// its control.json and appcasts are published signed, by one of them only.
    public var trustedKeys: [String] = []

    /// The largest release delay and reminder interval relctl takes or reads:
    /// bounds that keep the evaluator's date arithmetic far from overflow.
    public static let maxReleaseDelayDays: Int64 = 365
    public static let maxRemindHours: Int64 = 24 * 365
    public static let outdatedPolicies = Outdated.allCases.map(\.rawValue)
    /// Ten: at a release every two weeks, the notes of the last four months.
    public static let defaultWhatsNewLimit: Int64 = 10
    public static let maxWhatsNewLimit: Int64 = 1000

    public init(id: Int64, slug: String, name: String, defaultLocale: String, locales: [String], rules: Rules,
                releaseDelayDays: Int64, remindHours: Int64, outdated: Outdated) {
        self.id = id; self.slug = slug; self.name = name; self.defaultLocale = defaultLocale; self.locales = locales
        self.rules = rules; self.releaseDelayDays = releaseDelayDays; self.remindHours = remindHours; self.outdated = outdated
    }
}
