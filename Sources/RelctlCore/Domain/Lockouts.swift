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
        // Worked out once for every floor and pin: three floors each made the bands and asked each band
        // of every release again (a `version add`'s check did it twice, 0.6 M instructions at 200 versions).
        let scene = Scene(platform, versions, at: t)
        let floors = [(platform.force, WriteRules.FloorKind.force), (platform.recommend, .recommend), (platform.rollout?.floor, .recommend)].flatMap { floor, kind in
            floor.map { of($0, kind, scene) } ?? []
        }
        return floors + versions.flatMap { v in v.policy.map { of(pin: v, $0, scene) } ?? [] }
    }

    /// The bands a floor would lock out: bands whose devices run a release
    /// and can install none at or above the floor, or, for a floor no
    /// release reaches yet (force --allow-unreleased), not the newest
    /// release, which the newest OS is sent to.
    public static func of(_ floor: Floor, _ kind: WriteRules.FloorKind, _ platform: PlatformRecord, _ versions: [VersionRecord], at t: Int64) -> [Lockout] {
        of(floor, kind, Scene(platform, versions, at: t))
    }

    /// The bands a pin would lock out: bands where the pinned version runs
    /// and nothing newer installs. A pin no release is newer than is
    /// another refusal (WriteRules.pinReachesARelease).
    public static func of(pin v: VersionRecord, _ policy: VersionRecord.Pin, _ platform: PlatformRecord, _ versions: [VersionRecord], at t: Int64) -> [Lockout] {
        of(pin: v, policy, Scene(platform, versions, at: t))
    }

    /// What a platform's floors and pins are checked against: its releases at
    /// the instant and, for each band below the newest, which of them it can install.
    private struct Scene {
        let platform: PlatformRecord
        let released: [VersionRecord]
        let bands: [(band: OSBand, os: String, installs: [Bool])]

        init(_ platform: PlatformRecord, _ versions: [VersionRecord], at t: Int64) {
            self.platform = platform
            let released = versions.filter { $0.isReleased(at: t) }
            self.released = released
            bands = OSBands.of(platform, versions).dropFirst().compactMap { band in
                band.os.map { os in (band, os, OSBands.installable(released, on: os, platform)) }
            }
        }
    }

    private static func of(_ floor: Floor, _ kind: WriteRules.FloorKind, _ scene: Scene) -> [Lockout] {
        let released = scene.released
        guard let newest = released.last else { return [] }
        let line = Release.isBelow(newest.release, floor.release) ? newest.release : floor.release
        return lockouts(scene, intent: "the \(kind.rawValue) floor \(floor.text)", blocks: kind == .force) { _, installs in
            guard let reach = installs.lastIndex(of: true), Release.isBelow(released[reach].release, line) else { return nil }
            return (released[reach], released.indices.first { !Release.isBelow(released[$0].release, line) && !installs[$0] }.map { released[$0] })
        }
    }

    private static func of(pin v: VersionRecord, _ policy: VersionRecord.Pin, _ scene: Scene) -> [Lockout] {
        guard policy != VersionRecord.Pin.none else { return [] }
        let released = scene.released
        guard released.contains(where: { Release.isBelow(v.release, $0.release) }) else { return [] }
        return lockouts(scene, intent: "the \(policy.rawValue) pin of \(v.version.text)", blocks: policy == .force) { os, installs in
            guard OSBands.installable(v, on: os, scene.platform) else { return nil }
            let reach = installs.lastIndex(of: true).map { released[$0] } ?? v
            guard !Release.isBelow(v.release, reach.release) else { return nil }
            return (reach, released.indices.first { Release.isBelow(v.release, released[$0].release) && !installs[$0] }.map { released[$0] })
        }
    }

    /// Per older band (its OS, and which releases it can install): nil when
    /// it is not locked out, else the newest release it can install and the first it would need and cannot.
    private static func lockouts(_ scene: Scene, intent: String, blocks: Bool,
                                 _ locked: (String, [Bool]) -> (reach: VersionRecord, needed: VersionRecord?)?) -> [Lockout] {
        scene.bands.compactMap { band, os, installs in
            guard let (reach, needed) = locked(os, installs), let needed else { return nil }
            return Lockout(platform: scene.platform.name, intent: intent, blocks: blocks, band: band, reach: reach, needed: needed,
                           neededOS: OSBands.minimum(needed, scene.platform) ?? "?")
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
