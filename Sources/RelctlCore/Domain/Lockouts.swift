/// A floor some devices cannot reach: their OS cannot install any release
/// at or above it. relctl's own answer (check --os) and the files that know
/// the device's OS offer them the newest version they can install; the
/// files that cannot tell the OS (Retired, AndVersion) would block them
/// with nothing to install.
public struct Lockout: Sendable, Equatable {
    public var platform: String
    /// What sends the users to the update: "the force floor 2.0", "the force pin of 1.5".
    public var intent: String
    /// Whether it blocks them (force) or asks them (recommend).
    public var blocks: Bool
    public var band: OSBand
    /// The newest release the band's devices can install.
    public var reach: VersionRecord
    /// The lowest release the intent sends them to, which the band cannot install.
    public var needed: VersionRecord
    /// What that release needs.
    public var neededOS: String

    /// "ios: users on iOS 15.x cannot install 2.0 or newer (it needs iOS 17.0; the newest they can install is 1.5): …"
    public var sentence: String {
        "\(platform): users on \(band.label(platform)) cannot install \(needed.version.text) or newer (it needs \(OSBands.osName(platform)) \(neededOS); the newest they can install is \(reach.version.text)): "
            + Lockout.consequence(intent, blocks: blocks)
    }

    static func consequence(_ intent: String, blocks: Bool) -> String {
        "apps that cannot tell the OS (Retired, AndVersion) would \(blocks ? "block them with nothing to install" : "ask them for an update they cannot install") (\(intent))"
    }

    public static func == (a: Lockout, b: Lockout) -> Bool {
        a.platform == b.platform && a.intent == b.intent && a.band == b.band && a.reach.id == b.reach.id
    }
}

public enum Lockouts {
    /// Every lockout of a platform's floors and pins at `t`.
    public static func of(_ platform: PlatformRecord, _ versions: [VersionRecord], at t: Int64) -> [Lockout] {
        let floors = [(platform.force, WriteRules.FloorKind.force), (platform.recommend, .recommend), (platform.rollout?.floor, .recommend)].flatMap { floor, kind in
            floor.map { of($0, kind, platform, versions, at: t) } ?? []
        }
        return floors + versions.flatMap { v in v.policy.map { of(pin: v, $0, platform, versions, at: t) } ?? [] }
    }

    /// The bands a floor would lock out: bands whose devices run a release
    /// and can install none at or above the floor, or, for a floor no
    /// release reaches yet (force --allow-unreleased), not the newest
    /// release, which the newest OS is sent to.
    public static func of(_ floor: Floor, _ kind: WriteRules.FloorKind, _ platform: PlatformRecord, _ versions: [VersionRecord], at t: Int64) -> [Lockout] {
        let released = versions.filter { $0.isReleased(at: t) }
        guard let newest = released.last else { return [] }
        let line = Release.isBelow(newest.release, floor.release) ? newest.release : floor.release
        return lockouts(platform, versions, released, intent: "the \(kind.rawValue) floor \(floor.text)", blocks: kind == .force) { os in
            guard let reach = released.last(where: { OSBands.installable($0, on: os, platform) }), Release.isBelow(reach.release, line) else { return nil }
            return (reach, released.first { !Release.isBelow($0.release, line) && !OSBands.installable($0, on: os, platform) })
        }
    }

    /// The bands a pin would lock out: bands where the pinned version runs
    /// and nothing newer installs. A pin no release is newer than is
    /// another refusal (WriteRules.pinReachesARelease).
    public static func of(pin v: VersionRecord, _ policy: VersionRecord.Pin, _ platform: PlatformRecord, _ versions: [VersionRecord], at t: Int64) -> [Lockout] {
        guard policy != VersionRecord.Pin.none else { return [] }
        let released = versions.filter { $0.isReleased(at: t) }
        guard released.contains(where: { Release.isBelow(v.release, $0.release) }) else { return [] }
        return lockouts(platform, versions, released, intent: "the \(policy.rawValue) pin of \(v.version.text)", blocks: policy == .force) { os in
            guard OSBands.installable(v, on: os, platform) else { return nil }
            let reach = released.last { OSBands.installable($0, on: os, platform) } ?? v
            guard !Release.isBelow(v.release, reach.release) else { return nil }
            return (reach, released.first { Release.isBelow(v.release, $0.release) && !OSBands.installable($0, on: os, platform) })
        }
    }

    /// Per older band: nil when it is not locked out, else the newest
    /// release it can install and the first it would need and cannot.
    private static func lockouts(_ platform: PlatformRecord, _ versions: [VersionRecord], _ released: [VersionRecord], intent: String, blocks: Bool,
                                 _ locked: (String) -> (reach: VersionRecord, needed: VersionRecord?)?) -> [Lockout] {
        OSBands.of(platform, versions).dropFirst().compactMap { band in
            guard let os = band.os, let (reach, needed) = locked(os), let needed else { return nil }
            return Lockout(platform: platform.name, intent: intent, blocks: blocks, band: band, reach: reach, needed: needed,
                           neededOS: OSBands.minimum(needed, platform) ?? "?")
        }
    }

    /// The highest release every band that runs the app can install: the
    /// floor that locks nobody out.
    public static func reachable(_ platform: PlatformRecord, _ versions: [VersionRecord], at t: Int64) -> VersionRecord? {
        let released = versions.filter { $0.isReleased(at: t) }
        var best = released.last
        for band in OSBands.of(platform, versions).dropFirst() {
            guard let os = band.os, let reach = released.last(where: { OSBands.installable($0, on: os, platform) }) else { continue }
            if let b = best, Release.isBelow(reach.release, b.release) { best = reach }
        }
        return best
    }
}
