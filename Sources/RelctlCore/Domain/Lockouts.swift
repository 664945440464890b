/// A floor some devices cannot reach: their OS cannot install any release
/// at or above it. relctl's own answer (check --os) and the files that know
/// the device's OS offer them the newest version they can install; the
/// files that cannot tell the OS (Retired, AndVersion) would block them
/// with nothing to install.
public struct Lockout: Sendable, Equatable {
    public var platform: String
    public var kind: WriteRules.FloorKind
    public var floor: Floor
    public var band: OSBand
    /// The newest release the band's devices can install.
    public var reach: VersionRecord
    /// The lowest release at or above the floor, which the band cannot install.
    public var needed: VersionRecord
    /// What that release needs.
    public var neededOS: String

    /// "users on iOS 15.x cannot install 2.0 or newer (2.0 needs iOS 17.0; the newest they can install is 1.5): …"
    public var sentence: String {
        let os = OSBands.osName(platform)
        return "\(platform): users on \(band.label(platform)) cannot install \(needed.version.text) or newer (it needs \(os) \(neededOS); the newest they can install is \(reach.version.text)): "
            + (kind == .force ? "apps that cannot tell the OS (Retired, AndVersion) would block them with nothing to install"
                : "apps that cannot tell the OS (Retired, AndVersion) would ask them for an update they cannot install")
    }

    public static func == (a: Lockout, b: Lockout) -> Bool {
        a.platform == b.platform && a.kind == b.kind && a.floor.text == b.floor.text && a.band == b.band && a.reach.id == b.reach.id
    }
}

public enum Lockouts {
    /// Every lockout of a platform's floors at `t`.
    public static func of(_ platform: PlatformRecord, _ versions: [VersionRecord], at t: Int64) -> [Lockout] {
        [(platform.force, WriteRules.FloorKind.force), (platform.recommend, .recommend)].flatMap { floor, kind in
            floor.map { of($0, kind, platform, versions, at: t) } ?? []
        }
    }

    /// The bands a floor would lock out: bands whose devices run a release
    /// and can install none at or above the floor. A floor no release
    /// reaches at all is another refusal (WriteRules.floorReached).
    public static func of(_ floor: Floor, _ kind: WriteRules.FloorKind, _ platform: PlatformRecord, _ versions: [VersionRecord], at t: Int64) -> [Lockout] {
        let released = versions.filter { $0.isReleased(at: t) }
        guard let needed = released.first(where: { !Release.isBelow($0.release, floor.release) }) else { return [] }
        return OSBands.of(platform, versions).dropFirst().compactMap { band in
            guard let os = band.os, let reach = released.last(where: { OSBands.installable($0, on: os, platform) }),
                  Release.isBelow(reach.release, floor.release) else { return nil }
            // The lowest release at the floor this band cannot install, and what it needs.
            let first = released.first { !Release.isBelow($0.release, floor.release) && !OSBands.installable($0, on: os, platform) } ?? needed
            return Lockout(platform: platform.name, kind: kind, floor: floor, band: band, reach: reach, needed: first,
                           neededOS: OSBands.minimum(first, platform) ?? "?")
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
