/// Whether the stores serve what a floor or pin sends users to, by the
/// evidence (StoreEvidence): a forced or recommended update that the user's
/// store does not offer yet is an alert loop ("Update" opens a page that
/// says "Open") or, forced, a lockout. A pure function of the records; the
/// store calls it inside a change's transaction (Session), the previews
/// and `check --country` outside it.
public enum StoreGuard {
    /// What users are sent to: a release at or above `version` (and `build`, which Play's versionCodes are).
    public struct Target: Sendable, Equatable {
        public var version: Version
        public var build: Int64?
        /// "the force floor 2.1", "the force pin of 1.9 (…)".
        public var what: String
        /// Which floor or pin it is ("force", "recommend", "force pin 12"): a change's targets are compared with those before it by
        /// key, so a pin made stronger (recommend to force) is a new one.
        public var key: String = ""

        public init(version: Version, build: Int64?, what: String, key: String = "") {
            self.version = version; self.build = build; self.what = what; self.key = key
        }

        public static func floor(_ floor: Floor, _ kind: WriteRules.FloorKind) -> Target {
            Target(version: floor.version, build: floor.build, what: "the \(kind.rawValue) floor \(floor.text)", key: kind.rawValue)
        }

        /// A pin's users can update once their store serves anything above it: the lowest release
        /// above is the target (the evaluator sends them to the newest). Nil when none is released.
        public static func pin(_ v: VersionRecord, among versions: [VersionRecord], at now: Int64) -> Target? {
            guard let policy = v.policy, policy != .none else { return nil }
            let above = versions.filter { $0.isReleased(at: now) && Release.isBelow(v.release, $0.release) }
            guard let next = above.min(by: { Release.isBelow($0.release, $1.release) }),
                  let newest = above.max(by: { Release.isBelow($0.release, $1.release) }) else { return nil }
            return Target(version: next.version, build: next.build,
                          what: "the \(policy.rawValue) pin of \(v.version.text) (its users are sent to \(newest.version.text); a store serving \(next.version.text) or later lets them update)",
                          key: "\(policy.rawValue) pin \(v.id)")
        }

        /// Whether users sent here need more of the store than users sent to `before`: a higher
        /// version, or on Android a higher versionCode (a floor without a build needs the lowest
        /// recorded build at or above it, which moves with the versions).
        public func rises(from before: Target, android: Bool, versionsBefore: [VersionRecord], versionsNow: [VersionRecord]) -> Bool {
            if before.version < version { return true }
            if version < before.version { return false }
            guard android else { return false }
            let was = StoreGuard.code(before, versionsBefore) ?? .min, now = StoreGuard.code(self, versionsNow) ?? .min
            return now > was
        }
    }

    /// The versionCode Play must serve for `target`: its build, else the lowest recorded at or above its version.
    public static func code(_ target: Target, _ versions: [VersionRecord]) -> Int64? {
        target.build ?? versions.filter { !($0.version < target.version) }.compactMap(\.build).min()
    }

    /// What a platform's floors and pins send users to, at `now`.
    public static func targets(_ p: PlatformRecord, _ versions: [VersionRecord], at now: Int64) -> [Target] {
        var targets: [Target] = []
        if let f = p.force { targets.append(.floor(f, .force)) }
        if let r = p.recommend { targets.append(.floor(r, .recommend)) }
        if let r = p.rollout {
            targets.append(Target(version: r.floor.version, build: r.floor.build, what: "the staged recommend \(r.floor.text)", key: "staged recommend"))
        }
        return targets + versions.compactMap { Target.pin($0, among: versions, at: now) }
    }

    /// Pins that send their users to an update no released version provides (yet): nothing any store serves.
    public static func pinsWithNothingAbove(_ versions: [VersionRecord], at now: Int64) -> [VersionRecord] {
        versions.filter { v in
            guard let p = v.policy, p != .none else { return false }
            return !versions.contains { $0.isReleased(at: now) && Release.isBelow(v.release, $0.release) }
        }
    }

    /// Why one storefront does not serve the target. `storefront` nil: the
    /// whole platform (no Play evidence at all). `safeAt`: when time alone
    /// makes it served (the release delay passing), if it does.
    public struct Finding: Sendable, Equatable {
        public var storefront: String?
        public var reason: String
        public var safeAt: Int64?

        public init(storefront: String?, reason: String, safeAt: Int64?) { self.storefront = storefront; self.reason = reason; self.safeAt = safeAt }

        public var text: String { storefront.map { "\($0): \(reason)" } ?? reason }
    }

    /// What keeps the target from being served in the platform's storefronts, at `now`; empty when it is served in every one.
    /// `at`: a later instant asked about (check --at): the evidence is as old as it is now, the release delay is judged then.
    public static func unserved(_ target: Target, on platform: PlatformRecord, versions: [VersionRecord], evidence: StoreEvidence?,
                                delay: Int64, now: Int64, at: Int64? = nil) -> [Finding] {
        platform.isAndroid
            ? play(target, platform, versions, evidence?.play, delay, now, max(at ?? now, now))
            : lookups(target, platform, versions, evidence?.lookups ?? [], delay, now, max(at ?? now, now))
    }

    private static func lookups(_ target: Target, _ platform: PlatformRecord, _ versions: [VersionRecord], _ lookups: [StoreLookup],
                                _ delay: Int64, _ now: Int64, _ at: Int64) -> [Finding] {
        platform.storefronts.compactMap { s -> Finding? in
            guard let l = lookups.first(where: { $0.storefront == s }) else {
                return Finding(storefront: s, reason: "no lookup of the store", safeAt: nil)
            }
            let fetched = Time.format(l.fetchedAt)
            if l.fetchedAt > now {
                return Finding(storefront: s, reason: "the lookup is dated \(fetched), after now: evidence from a clock set wrong proves nothing", safeAt: nil)
            }
            guard StoreEvidence.counts(l.fetchedAt, at: now) else {
                return Finding(storefront: s, reason: "the lookup was fetched \(fetched), and evidence older than a day counts as none", safeAt: nil)
            }
            guard let served = l.version else {
                return Finding(storefront: s, reason: "the lookup has no result (not sold there, or not yet), fetched \(fetched)", safeAt: nil)
            }
            if served < target.version {
                return Finding(storefront: s, reason: "the lookup shows \(served.text), fetched \(fetched)", safeAt: nil)
            }
            // The lookup runs ahead of the store and its caches for up to a day: a version it shows
            // only just released may not be what a user's store page offers. A recorded release
            // between the target and it, out for the release delay, was served before it.
            if versions.contains(where: { v in
                v.releasedAt.map { $0 + delay <= at } == true && !(v.version < target.version) && v.version < served
            }) { return nil }
            guard let released = l.releasedAt else {
                return Finding(storefront: s, reason: "the lookup shows \(served.text) without a release date, so the release delay cannot be told", safeAt: nil)
            }
            if released + delay > at {
                return Finding(storefront: s, reason: "the lookup shows \(served.text), released \(Time.format(released)), within the \(delay / 86400)-day release delay",
                               safeAt: released + delay)
            }
            return nil
        }
    }

    private static func play(_ target: Target, _ platform: PlatformRecord, _ versions: [VersionRecord], _ play: PlayTracks?,
                             _ delay: Int64, _ now: Int64, _ at: Int64) -> [Finding] {
        guard let play else { return [Finding(storefront: nil, reason: "no Play tracks imported", safeAt: nil)] }
        if play.importedAt > now {
            return [Finding(storefront: nil, reason: "Play's tracks are dated \(Time.format(play.importedAt)), after now: evidence from a clock set wrong proves nothing", safeAt: nil)]
        }
        guard StoreEvidence.counts(play.importedAt, at: now) else {
            return [Finding(storefront: nil, reason: "Play's tracks were imported \(Time.format(play.importedAt)), and evidence older than a day counts as none", safeAt: nil)]
        }
        // Play knows versionCodes: the lowest that reaches the target.
        guard let code = code(target, versions) else {
            return [Finding(storefront: nil, reason: "no version at or above \(target.version.text) has a build (versionCode) to find in Play's tracks", safeAt: nil)]
        }
        func name(_ c: Int64) -> String { versions.first { $0.build == c }.map { "\($0.version.text) (versionCode \(c))" } ?? "versionCode \(c)" }
        let production = play.releases.filter { $0.track == "production" }
        let reaching = production.filter { ($0.versionCodes.max() ?? .min) >= code }
        return platform.storefronts.compactMap { s -> Finding? in
            // A country-targeted rollout without a fraction reaches everyone in its countries; any other
            // inProgress release without one is not known to reach everyone.
            let full = reaching.first { r in
                r.offered(in: s) && (r.status == .completed || (r.status == .inProgress && (r.userFraction ?? (r.countries != nil ? 1 : 0)) >= 1))
            }
            if let full {
                // Served: since when, by the recorded releases it holds that reach the target. A release Play
                // completed just now has the same caches to get through as a lookup's.
                let top = full.versionCodes.max()!
                let first = versions.filter { v in v.build.map { $0 >= code && $0 <= top } ?? false }.compactMap(\.releasedAt).min()
                if let first, first + delay > at {
                    return Finding(storefront: s, reason: "\(name(top)) reaches the target, released \(Time.format(first)), within the \(delay / 86400)-day release delay",
                                   safeAt: first + delay)
                }
                return nil
            }
            let best = reaching.map { r in (r, r.versionCodes.max()!) }
            // The release that comes nearest to serving it there says why it does not: one rolling out
            // there, then one done but kept from the country, then one rolling out elsewhere, halted, a draft.
            if let (r, c) = best.first(where: { $0.0.status == .inProgress && $0.0.offered(in: s) }) {
                return Finding(storefront: s, reason: "\(name(c)) is in a staged rollout at \(r.percent) on Play: users outside it cannot install it, and a prompt sends them to a store page that offers nothing", safeAt: nil)
            }
            if let (_, c) = best.first(where: { $0.0.status == .completed }) {
                return Finding(storefront: s, reason: "Play's release of \(name(c)) is not offered there", safeAt: nil)
            }
            if let (_, c) = best.first(where: { $0.0.status == .inProgress }) {
                return Finding(storefront: s, reason: "Play's staged rollout of \(name(c)) is not offered there", safeAt: nil)
            }
            if let (_, c) = best.first(where: { $0.0.status == .halted }) {
                return Finding(storefront: s, reason: "Play's release of \(name(c)) is halted", safeAt: nil)
            }
            if let (_, c) = best.first(where: { $0.0.status == .draft }) {
                return Finding(storefront: s, reason: "\(name(c)) is only a draft on Play", safeAt: nil)
            }
            let top = production.filter { $0.status == .completed && $0.offered(in: s) }.compactMap { $0.versionCodes.max() }.max()
            return Finding(storefront: s, reason: top.map { "Play's production track serves \(name($0)), below the versionCode \(code) it needs" }
                               ?? "Play's production track has no completed release", safeAt: nil)
        }
    }

    /// The refusal of a target the stores do not serve: a few storefronts
    /// named, when time alone makes it safe, and the two ways on.
    public static func refusal(_ target: Target, on platform: PlatformRecord, _ findings: [Finding]) -> Refusal {
        Refusal(sentence(target, on: platform, findings),
                fix: .either(.run(["store", platform.isAndroid ? "import" : "fetch"] + (platform.isAndroid ? ["play", "FILE"] : []) + ["--platform", platform.name],
                                  "record what the store serves now with"),
                             .flag("--allow-store-risk", "to make it anyway (the log records it)")))
    }

    /// "the force floor 2.1 on ios is not served everywhere the app sells: de: …; tr: …; it becomes safe at …".
    public static func sentence(_ target: Target, on platform: PlatformRecord, _ findings: [Finding]) -> String {
        // Storefronts with the same reason (a Play rollout everywhere) said once.
        var reasons: [(reason: String, storefronts: [String])] = []
        for f in findings {
            if let i = reasons.firstIndex(where: { $0.reason == f.reason }) { reasons[i].storefronts += f.storefront.map { [$0] } ?? [] }
            else { reasons.append((f.reason, f.storefront.map { [$0] } ?? [])) }
        }
        func named(_ list: [String]) -> String { list.count <= 6 ? list.joined(separator: ", ") : list.prefix(5).joined(separator: ", ") + " and \(list.count - 5) more" }
        let shown = reasons.prefix(4).map { $0.storefronts.isEmpty ? $0.reason : "\(named($0.storefronts)): \($0.reason)" }.joined(separator: "; ")
        let more = reasons.count > 4 ? "; and \(reasons.count - 4) more reasons ('relctl store show' lists them)" : ""
        var text = "\(target.what) on \(platform.name) is not served everywhere the app sells: \(shown)\(more)"
        if let safe = safeAt(findings) {
            text += "; it becomes safe at \(Time.format(safe)), when the release delay passes in every storefront (by a lookup fetched then)"
        }
        return text
    }

    /// When time alone serves the target everywhere: every finding waits for a release delay.
    public static func safeAt(_ findings: [Finding]) -> Int64? {
        guard !findings.isEmpty, findings.allSatisfy({ $0.safeAt != nil }) else { return nil }
        return findings.compactMap(\.safeAt).max()
    }
}
