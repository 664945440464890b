/// The rules a change must keep, as pure functions of the records the
/// store holds: the store calls them inside the change's transaction, and
/// tests call them without a database. Each returns nil when the change
/// may go ahead, else why not and the fix.
public enum WriteRules {
    /// A floor must be reached by a released version (at `now`): else users
    /// would be sent to an update they cannot install. `allowUnreleased`: a
    /// force floor set ahead of its release, asked for.
    public static func floorReached(_ floor: Floor, kind: FloorKind, on platform: PlatformRecord, versions: [VersionRecord], now: Int64,
                                    allowUnreleased: Bool = false) -> Refusal? {
        if versions.contains(where: { $0.isReleased(at: now) && !Release.isBelow($0.release, floor.release) }) { return nil }
        if kind == .force && allowUnreleased { return nil }
        // Release the floor's version when it is recorded, else record it.
        let recorded = versions.contains { $0.version.text == floor.version.text }
        let release: Fix = recorded
            ? .run(["version", "release", floor.version.text, "--platform", platform.name], "release one first with")
            : .run(["version", "add", floor.version.text, "--platform", platform.name] + (platform.isAndroid ? ["--build", "N"] : []), "release one first with")
        return Refusal("no released version of \(platform.name) is at or above \(floor.text): users would be sent to an update they cannot install",
                       fix: kind == .force ? .either(release, .flag("--allow-unreleased")) : release)
    }

    public enum FloorKind: String, Sendable { case force, recommend }

    /// A floor that some OS band running the app cannot reach (Lockouts):
    /// the apps that cannot tell the OS would block those users, or ask
    /// them for an update they cannot install. Refused unless asked for.
    public static func floorLocksOut(_ floor: Floor, kind: FloorKind, on platform: PlatformRecord, versions: [VersionRecord], now: Int64) -> Refusal? {
        let fix = Lockouts.reachable(platform, versions, at: now).map { Fix.run([kind.rawValue, $0.version.text, "--platform", platform.name], "set a floor every supported OS can reach with") }
        return refusal(Lockouts.of(floor, kind, platform, versions, at: now), platform, fix)
    }

    /// The same for a pin whose version runs on an OS that can install nothing newer.
    public static func pinLocksOut(_ version: VersionRecord, _ policy: VersionRecord.Pin, on platform: PlatformRecord, versions: [VersionRecord], now: Int64) -> Refusal? {
        refusal(Lockouts.of(pin: version, policy, platform, versions, at: now), platform, nil)
    }

    private static func refusal(_ lockouts: [Lockout], _ platform: PlatformRecord, _ fix: Fix?) -> Refusal? {
        guard let first = lockouts.first else { return nil }
        let bands = lockouts.map { "\($0.band.label(platform.name)) (newest they can install: \($0.reach.version.text))" }.joined(separator: ", ")
        let message = "users on \(bands) cannot install \(first.needed.version.text) or newer (it needs \(OSBands.osName(platform.name)) \(first.neededOS)): "
            + Lockout.consequence(first.intent, blocks: first.blocks)
        let allow = Fix.flag("--allow-lockout", "to set it anyway (check --os and the files that know the OS offer them what they can install)")
        return Refusal(message, fix: fix.map { .either($0, allow) } ?? allow)
    }

    /// On Android the build is the versionCode, which clients compare and
    /// Google Play requires to grow with every release: a build that would
    /// rank a version below an older one (or above a newer one) is refused.
    /// `except`: the record being changed.
    public static func androidBuildOrder(_ version: Version, build: Int64?, on platform: PlatformRecord, among existing: [VersionRecord],
                                         except id: Int64? = nil) -> Refusal? {
        guard platform.isAndroid, let b = build else { return nil }
        let others = existing.filter { $0.id != id && $0.build != nil }
        let lower = others.filter { $0.version < version }
        let higher = others.filter { version < $0.version }
        let range = [lower.map { $0.build! }.max().map { "above \($0)" }, higher.map { $0.build! }.min().map { "below \($0)" }]
            .compactMap { $0 }.joined(separator: " and ")
        let fix = Fix.advice("give \(version.text) a build \(range)")
        if let older = lower.last(where: { $0.build! >= b }) {
            return Refusal("build \(b) would rank \(version.text) below \(older.version.text) (build \(older.build!)) on android: Android compares versionCodes, and Google Play requires a higher one for every newer version", fix: fix)
        }
        if let newer = higher.first(where: { $0.build! <= b }) {
            return Refusal("build \(b) would rank \(version.text) above \(newer.version.text) (build \(newer.build!)) on android: Android compares versionCodes, so newer versions need higher builds", fix: fix)
        }
        return nil
    }

    /// `androidBuildOrder` for each of `checked` (ids) among all of a
    /// platform's versions, in one pass over them sorted (a file of 200,000
    /// versions must not cost their square): the refusals in the order of
    /// `versions`, at most `limit` of them spelled out, and how many there are.
    public static func androidBuildOrder(of checked: Set<Int64>, on platform: PlatformRecord, among versions: [VersionRecord],
                                         limit: Int = 10) -> (refusals: [Refusal], count: Int) {
        guard platform.isAndroid, !checked.isEmpty else { return ([], 0) }
        let sorted = versions.filter { $0.build != nil }.sorted { $0.version < $1.version }
        // For each record, the highest build of the strictly lower versions and the lowest of the strictly higher.
        var below = [Int64](repeating: .min, count: sorted.count), above = [Int64](repeating: .max, count: sorted.count)
        var start = 0, highest = Int64.min
        while start < sorted.count {
            var end = start + 1
            while end < sorted.count && !(sorted[start].version < sorted[end].version) { end += 1 }
            for i in start..<end { below[i] = highest }
            for i in start..<end { highest = max(highest, sorted[i].build!) }
            start = end
        }
        var end = sorted.count, lowest = Int64.max
        while end > 0 {
            var first = end - 1
            while first > 0 && !(sorted[first - 1].version < sorted[end - 1].version) { first -= 1 }
            for i in first..<end { above[i] = lowest }
            for i in first..<end { lowest = min(lowest, sorted[i].build!) }
            end = first
        }
        var wrong = Set<Int64>()
        for (i, v) in sorted.enumerated() where checked.contains(v.id) && (below[i] >= v.build! || above[i] <= v.build!) { wrong.insert(v.id) }
        // Spelled out by the rule a single write keeps, for the first few only.
        let refusals = versions.lazy.filter { wrong.contains($0.id) }.prefix(limit)
            .compactMap { androidBuildOrder($0.version, build: $0.build, on: platform, among: versions, except: $0.id) }
        return (Array(refusals), wrong.count)
    }

    /// A pin that sends a version's users to an update (force, recommend)
    /// needs a released version above it.
    public static func pinReachesARelease(_ version: VersionRecord, _ policy: VersionRecord.Pin, on platform: PlatformRecord, versions: [VersionRecord], now: Int64) -> Refusal? {
        guard policy != VersionRecord.Pin.none else { return nil }
        if versions.contains(where: { $0.isReleased(at: now) && Release.isBelow(version.release, $0.release) }) { return nil }
        return Refusal("no released version of \(platform.name) is newer than \(version.version.text), so it cannot \(policy == .force ? "be forced" : "be asked") to update",
                       fix: .advice("release a newer version first"))
    }

    /// A window for every platform, stopped for one: it ends for all, and
    /// goes on for each other platform as a window of its own (so every
    /// client format, control.json's `platform` field, can carry it). The
    /// platforms it goes on for, in order; none for a window of one platform
    /// or one stopped everywhere.
    public static func continuing(_ window: MaintenanceWindow, stoppedFor platform: PlatformRecord?, platforms: [PlatformRecord]) -> [PlatformRecord] {
        guard let platform, window.platformID == nil else { return [] }
        return platforms.filter { $0.id != platform.id }
    }
}
