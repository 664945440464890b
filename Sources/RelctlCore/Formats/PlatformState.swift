/// What the evaluator says about one platform at the publish time, computed
/// once and shared by every format of that platform.
struct PlatformState {
    let snapshot: ProjectSnapshot
    let evaluator: Evaluator
    /// The platform as files that cannot stage show it (PlatformRecord.unstaged):
    /// what every format but control.json carries.
    let platform: PlatformRecord
    /// The platform as recorded, its rollout (if any) still to decide.
    let source: PlatformRecord
    let at: Int64
    /// The device OS the verdicts are for (a band's, OSBands); nil: an OS
    /// that can install every version.
    let os: String?
    /// Oldest to newest, each with its update verdict (maintenance aside:
    /// the update policy is what the version files carry).
    let verdicts: [(VersionRecord, Verdict)]
    /// The versions alone, in the same order (the snapshot's array, not a copy).
    let versions: [VersionRecord]
    let announced: VersionRecord?
    let released: VersionRecord?
    /// The newest version the files offer: the newest release when a floor
    /// or pin already sends users to it (they act at once, as `check` says),
    /// else the newest version past its release delay.
    let current: VersionRecord?
    /// The released versions a device on `os` can install, newest first.
    let releasedNewestFirst: [VersionRecord]
    /// The update verdict of an install just below the oldest record (Probes.below): whether
    /// what lies under every record must update, which a spared oldest version does not say.
    let belowOldest: Verdict.Kind?
    /// Whether any install, recorded or not, is offered an optional update:
    /// when none is, the manifests that can say so offer nothing (an
    /// "outdated: none" project with no floor prompts nobody).
    let offersOptional: Bool
    /// Each band its versions draw, newest first (nil: this state's own),
    /// with its state: made once, as every format, the status page and the
    /// proof ask for them. Empty on an older OS's state.
    let bandStates: [(band: OSBand, state: PlatformState?)]

    init(_ evaluator: Evaluator, _ source: PlatformRecord, at: Int64, os: String? = nil) {
        self.snapshot = evaluator.snapshot
        self.evaluator = evaluator
        self.source = source
        let platform = source.unstaged(at: at)
        self.platform = platform
        self.at = at
        self.os = os
        let versions = evaluator.snapshot.versions(of: platform)
        self.versions = versions
        let facts = Evaluator.PlatformFacts(evaluator.snapshot, platform, at: at, os: os)
        verdicts = versions.map { ($0, evaluator.update(platform, $0.release, at: at, facts: facts)) }
        announced = facts.announced
        released = facts.released
        let released = self.released
        // Installs just below each floor, which may lie under every record: what they are sent to counts too.
        let belowFloors = [platform.requiredFloor(at: at), platform.pendingFloor(at: at), platform.recommend].compactMap { floor in
            floor.flatMap { Probes.below($0.version) }.map { evaluator.update(platform, Release($0, build: nil), at: at, facts: facts) }
        }
        // And below the oldest record: on an older OS it may be the only install sent anywhere.
        let underAll = PlatformState.belowOldest(evaluator, platform, versions, at: at, facts: facts)
        let sent = verdicts.map(\.1) + belowFloors + (underAll.map { [$0] } ?? [])
        current = sent.contains { $0.target?.id != nil && $0.target?.id == released?.id } ? released : announced
        releasedNewestFirst = versions.filter { v in v.isReleased(at: at) && (os.map { OSBands.installable(v, on: $0, platform) } ?? true) }.reversed()
        belowOldest = underAll?.kind
        offersOptional = sent.contains { $0.kind == .optional } || belowOldest == .optional
            || PlatformState.rulesOffer(evaluator.snapshot.project, announced: facts.announced)
        bandStates = os != nil ? [] : OSBands.of(platform, versions).compactMap { band in
            guard let os = band.os else { return (band, nil) }
            guard OSBands.populated(band, platform, versions) else { return nil }
            return (band, PlatformState(evaluator, source, at: at, os: os))
        }
    }

    /// While a rollout divides installs at `at`: the states of those outside
    /// it and of those in it, as control.json answers them (the files' own
    /// state withholds from every install, or offers to every one).
    func staged() -> (outside: PlatformState, inside: PlatformState)? {
        guard source.isStaging(at: at) else { return nil }
        return (PlatformState(evaluator, source.seen(inRollout: false, at: at), at: at, os: os),
                PlatformState(evaluator, source.seen(inRollout: true, at: at), at: at, os: os))
    }

    /// Whether the outdated rules offer some install an optional update: one
    /// whose update type an install below the announced version can have (a
    /// minor one below 2.1, not below 2.0.0; a revision one below a build)
    /// and whose alert is not force or none.
    static func rulesOffer(_ project: ProjectRecord, announced: VersionRecord?) -> Bool {
        guard project.outdated != ProjectRecord.Outdated.none, let announced else { return false }
        let offers = { (i: Int) in [.option, .skip].contains(project.rules.rule(forDifference: i).alert) }
        // An install of the same version with a lower build differs in no component: a revision update.
        if (announced.build ?? 0) > 0 && offers(3) { return true }
        return announced.version.components.indices.contains { i in announced.version.components[i] > 0 && offers(i) }
    }

    static func belowOldest(_ evaluator: Evaluator, _ platform: PlatformRecord, _ versions: [VersionRecord], at: Int64,
                            facts: Evaluator.PlatformFacts) -> Verdict? {
        guard let oldest = versions.first, let below = Probes.below(oldest.version) else { return nil }
        return evaluator.update(platform, Release(below, build: nil), at: at, facts: facts)
    }

    var project: ProjectRecord { snapshot.project }

    /// The same platform for a device in each band its versions can be
    /// installed in, newest band first (this state's own first).
    func bands() -> [(band: OSBand, state: PlatformState)] {
        precondition(os == nil, "bands are made from the newest band's state")
        return bandStates.map { ($0.band, $0.state ?? self) }
    }

    /// Retired's messaging, which names the version users are sent to. With
    /// none released nobody is sent anywhere, but the blocks must exist: the
    /// message is then the title, never a sentence with an empty version.
    func message(_ kind: String, locale: String) -> [String: ResolvedText] {
        guard let target = current ?? released else {
            var m = snapshot.messages.message(kind, locale: locale, values: ["app": project.name])
            m["message"] = m["title"]
            return m
        }
        return snapshot.messages.message(kind, locale: locale, values: ["app": project.name, "version": target.version.text])
    }

    func notes(_ v: VersionRecord, locale: String) -> (String, String)? { evaluator.notes(v, locale: locale) }
}
