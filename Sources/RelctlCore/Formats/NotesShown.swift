extension ProjectSnapshot {
    /// The versions whose notes the published files show at `t`, on every
    /// platform: what's new lists the project's limit of the newest releases;
    /// the status page shows the newest release; AndVersion, the lookup file
    /// and Fidelity's check of them the current version (the newest release
    /// or the newest announced one); the appcast the current version and its
    /// critical item of every OS band. A publish reads these notes, and those of the instants
    /// its proof sweeps (versionsWithNotesRead): out of 200 versions, what's
    /// new's 10 are a twentieth. (The locales notes use are read apart:
    /// noteLocales.)
    ///
    /// Worked out without every version's verdict, which the renderer works
    /// out anyway: only the oldest versions' verdicts, up to the first that is
    /// not forced, decide the critical item.
    /// `whatsNew` false: not the what's-new lists (the time sweep renders none).
    public func versionsWithNotesShown(at t: Int64, whatsNew: Bool = true) -> Set<Int64> {
        let evaluator = Evaluator(self)
        var shown: Set<Int64> = []
        for platform in platforms {
            let versions = self.versions(of: platform)
            let released = versions.filter { $0.isReleased(at: t) }
            if whatsNew { for v in WhatsNewFormat.listed(released.reversed(), limit: project.whatsNewLimit) { shown.insert(v.id) } }
            // On every OS band: the appcast holds each band's current version and critical item.
            let oses = [nil] + OSBands.of(platform, versions).dropFirst().filter { OSBands.populated($0, platform, versions) }.map(\.os)
            for os in oses {
                let facts = Evaluator.PlatformFacts(self, platform, at: t, os: os)
                let releasedNewestFirst = Array(released.filter { v in os.map { OSBands.installable(v, on: $0, platform) } ?? true }.reversed())
                let below = PlatformState.belowOldest(evaluator, platform, versions, at: t, facts: facts)?.kind
                let threshold = AndVersionFormat.minimum(platform, at: t, versions: versions, belowOldest: below) {
                    evaluator.update(platform, versions[$0].release, at: t, facts: facts).kind
                }
                for v in [facts.released, facts.announced, AppcastFormat.lowestReleased(atOrAbove: threshold, releasedNewestFirst)] {
                    if let v { shown.insert(v.id) }
                }
            }
        }
        return shown
    }

    /// What a publish or verify at `t` reads: the notes shown then, and at
    /// every coming instant the proof sweeps (Fidelity.coming) those of the
    /// files it renders then (no what's-new lists).
    public func versionsWithNotesRead(at t: Int64) -> Set<Int64> {
        Fidelity.coming(self, after: t).reduce(into: versionsWithNotesShown(at: t)) { $0.formUnion(versionsWithNotesShown(at: $1.at, whatsNew: false)) }
    }
}
