/// What the stores were seen to serve for one platform: dated evidence,
/// fetched (the iTunes lookup, per storefront) or imported (Google Play's
/// tracks). It is observation, not configuration: never exported, never
/// undone, and a day after it was taken it counts as none (`maxAge`), since
/// a store moves on and an old answer proves nothing about today.
public struct StoreEvidence: Sendable, Equatable {
    /// One per storefront, the latest answer, in storefront order.
    public var lookups: [StoreLookup]
    public var play: PlayTracks?

    public init(lookups: [StoreLookup] = [], play: PlayTracks? = nil) { self.lookups = lookups; self.play = play }

    public static let maxAge: Int64 = 86_400

    public var isEmpty: Bool { lookups.isEmpty && play == nil }

    /// Whether evidence taken at `taken` still counts at `now` (not older
    /// than a day, and not from the future: a clock set wrong proves nothing).
    public static func counts(_ taken: Int64, at now: Int64) -> Bool { taken <= now && now - taken <= maxAge }
}

/// The iTunes lookup's answer for one storefront.
public struct StoreLookup: Sendable, Equatable {
    /// An ISO 3166 country code, lower case.
    public var storefront: String
    public var fetchedAt: Int64
    /// The version the lookup serves; nil: no result (not sold there, or not yet).
    public var version: Version?
    /// `currentVersionReleaseDate`: when that version reached the store.
    public var releasedAt: Int64?
    /// `minimumOsVersion`.
    public var minOS: String?

    public init(storefront: String, fetchedAt: Int64, version: Version?, releasedAt: Int64?, minOS: String?) {
        self.storefront = storefront; self.fetchedAt = fetchedAt; self.version = version; self.releasedAt = releasedAt; self.minOS = minOS
    }
}

/// Google Play's tracks as `edits.tracks.list` returned them, imported at one instant.
public struct PlayTracks: Sendable, Equatable {
    public var importedAt: Int64
    public var releases: [PlayRelease]

    public init(importedAt: Int64, releases: [PlayRelease]) { self.importedAt = importedAt; self.releases = releases }
}

public struct PlayRelease: Sendable, Equatable {
    public enum Status: String, Sendable, CaseIterable { case completed, inProgress, halted, draft }

    public var track: String
    public var name: String?
    public var status: Status
    /// The fraction of users offered an inProgress release (0 < f < 1 per the API); nil otherwise.
    public var userFraction: Double?
    public var versionCodes: [Int64]
    /// `countryTargeting`: the countries (lower case) offered the release; nil: every country.
    public var countries: [String]?
    /// `countryTargeting.includeRestOfWorld`.
    public var restOfWorld: Bool

    public init(track: String, name: String?, status: Status, userFraction: Double?, versionCodes: [Int64], countries: [String]?, restOfWorld: Bool) {
        self.track = track; self.name = name; self.status = status; self.userFraction = userFraction
        self.versionCodes = versionCodes; self.countries = countries; self.restOfWorld = restOfWorld
    }

    /// Whether users in `country` may be offered it at all.
    public func offered(in country: String) -> Bool {
        guard let countries else { return true }
        return restOfWorld || countries.contains(country)
    }

    /// "2.1 (versionCode 210), 20 % rollout": how it reads in a reason.
    public var percent: String {
        guard let f = userFraction else { return countries == nil ? "an unknown fraction" : "100 % in its countries" }
        let tenths = Int64((f * 1000).rounded())
        return tenths % 10 == 0 ? "\(tenths / 10) %" : "\(tenths / 10).\(tenths % 10) %"
    }
}
