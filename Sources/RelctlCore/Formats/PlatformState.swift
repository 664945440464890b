/// What the evaluator says about one platform at the publish time, computed
/// once and shared by every format of that platform.
struct PlatformState {
    let snapshot: ProjectSnapshot
    let evaluator: Evaluator
    let platform: PlatformRecord
    let at: Int64
    /// Oldest to newest, each with its update verdict (maintenance aside:
    /// the update policy is what the version files carry).
    let verdicts: [(VersionRecord, Verdict)]
    let announced: VersionRecord?
    let released: VersionRecord?
    let releasedNewestFirst: [VersionRecord]
    let whatsNewParts: [(head: [UInt8], tail: [UInt8])]
    /// Retired's version list is the same in every locale: rendered once.
    let retiredVersions: JSON

    init(_ evaluator: Evaluator, _ platform: PlatformRecord, at: Int64) {
        self.snapshot = evaluator.snapshot
        self.evaluator = evaluator
        self.platform = platform
        self.at = at
        let versions = evaluator.snapshot.versions(of: platform)
        verdicts = versions.map { ($0, evaluator.update(platform, $0.release, at: at)) }
        announced = evaluator.snapshot.newestAnnounced(platform, at: at)
        released = evaluator.snapshot.newestReleased(platform, at: at)
        releasedNewestFirst = versions.filter { $0.isReleased(at: at) }.reversed()
        whatsNewParts = releasedNewestFirst.map(WhatsNewFormat.parts)
        retiredVersions = .raw(JSON.array(verdicts.map { v, verdict in
            .ordered(["policy": .string(verdict.retiredPolicy), "version": .string(v.version.text)])
        }).compactBytes().dropLast())
    }

    var project: ProjectRecord { snapshot.project }

    func message(_ kind: String, locale: String) -> [String: ResolvedText] {
        snapshot.messages.message(kind, locale: locale, values: ["app": project.name, "version": (released ?? announced)?.version.text ?? ""])
    }

    func notes(_ v: VersionRecord, locale: String) -> (String, String)? { evaluator.notes(v, locale: locale) }
}
