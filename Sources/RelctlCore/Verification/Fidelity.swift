/// Reads a project's published files as each client library would and
/// compares what the client does with what the evaluator says, for every
/// recorded version (and build) on every platform and published locale.
/// A difference is a declared limit when it comes from an intent the
/// format cannot carry (docs/clients.md, "What each format cannot carry"), else
/// a disagreement: a relctl bug, or a file changed after publishing.
public enum Fidelity {
    /// `file` gives a published file's bytes by its path under DIR, nil when absent.
    public static func check(_ snapshot: ProjectSnapshot, at: Int64, file: @escaping (String) -> [UInt8]?) -> [Finding] {
        run(snapshot, at: at, file: file).findings
    }

    /// The findings and how many client decisions were compared.
    /// `limitsOnce`: of the findings of a limit, only the first (and every disagreement): what
    /// a publish and verify read of them (Finding.distinctLimits), as `PlatformCheck.saysNothingNew` says.
    public static func run(_ snapshot: ProjectSnapshot, at: Int64, forEach: ForEachIndex = Parallel.serial, limitsOnce: Bool = false,
                           file: @escaping (String) -> [UInt8]?) -> (findings: [Finding], decisions: Int) {
        let evaluator = Evaluator(snapshot)
        return run(states: snapshot.platforms.map { PlatformState(evaluator, $0, at: at) }, forEach: forEach, decodeControl: true, limitsOnce: limitsOnce, file: file)
    }

    /// The same from the platforms' states the files were rendered from
    /// (publish): what the evaluator says is worked out once, while every
    /// file is still read back as its client reads it.
    /// `forEach`: how the platforms are gone through (ProjectFiles.renderChecked).
    /// `decodeControl`: also ask control.json about the installs it does not
    /// list, read as a project (verify, which reads a tree that may have been
    /// changed). A publish, whose control.json is written from the snapshot
    /// it is checked against, leaves that reading to verify: it was a third
    /// of the proof's cost.
    static func run(states: [PlatformState], forEach: ForEachIndex = Parallel.serial, decodeControl: Bool = false, limitsOnce: Bool = false,
                    file: @escaping (String) -> [UInt8]?) -> (findings: [Finding], decisions: Int) {
        // control.json is the project's, the same for every platform: read once.
        let raw = states.first.flatMap { file(FileKinds.control.path(project: $0.project.slug)) }
        // As an app that pins the project's keys reads it: a signature that fails is a file ignored.
        // The files a publish checks are signed after (decodeControl: a tree read back, signed as published).
        var refused: String? = nil
        var bytes: [UInt8]? = nil
        if let raw {
            do { bytes = try Signatures.controlPayload(raw, project: states[0].project, asPublished: decodeControl) } catch { refused = error.message }
        }
        let control = refused.map { Result<ControlClient, ClientFailure>.failure(.ignored($0)) }
            ?? bytes.map { bytes in Result { () throws(ClientFailure) in try ControlClient(bytes) } }
        // Installs control.json does not list are decided from what it carries.
        let decoded = decodeControl ? bytes.flatMap(ControlClient.decoded) : nil
        // Each platform on every OS band its versions draw, with the state on the newest OS each is held to
        // (`PlatformCheck.init`'s `newest`).
        var asked: [(state: PlatformState, newest: PlatformState?)] = []
        for s in states { asked += [(s, nil)] + onOtherOS(s).map { ($0, s) } }
        // While a rollout divides installs, control.json answers both sides,
        // each checked by control.json alone; the files' own state by the rest.
        var others: [(state: PlatformState, inside: Bool)] = []
        for s in states {
            guard let (outside, inside) = s.staged() else { continue }
            for (side, isIn) in [(outside, false), (inside, true)] { others += [(side, isIn)] + onOtherOS(side).map { ($0, isIn) } }
        }
        let all = asked.map(\.state) + others.map(\.state)
        // A platform's appcast is the same file for each of its OS bands: parsed once each.
        var feedPaths: [(path: String, platform: String)] = []
        for s in states where s.snapshot.project.formats.serves(Client.upgrader.format) {
            let path = FileKinds.appcast.path(project: s.project.slug, platform: s.platform.name)
            if !feedPaths.contains(where: { $0.path == path }) { feedPaths.append((path, s.platform.name)) }
        }
        let parsed = Parallel.map(feedPaths.count, forEach) { i in
            file(feedPaths[i].path).map { bytes in Result { () throws(ClientFailure) in try UpgraderClient(bytes, platform: feedPaths[i].platform) } }
        }
        var feeds: [String: Result<UpgraderClient, ClientFailure>] = [:]
        for (f, result) in zip(feedPaths, parsed) { if let result { feeds[f.path] = result } }
        // Each platform's records, for all its checks.
        let records = Dictionary(states.map { ($0.platform.id, PlatformCheck.Records($0.versions, $0.platform)) }, uniquingKeysWith: { first, _ in first })
        let checks = Parallel.map(all.count, forEach) { i in
            // A rollout's side is asked of control.json alone, which reads no verdict on the newest OS.
            var check = PlatformCheck(state: all[i], file: file, control: control, decoded: decoded, newest: i < asked.count ? asked[i].newest : nil,
                                      records: records[all[i].platform.id])
            check.feeds = feeds
            check.limitsOnce = limitsOnce
            if i >= asked.count { check.otherSide = others[i - asked.count].inside }
            check.run()
            return (check.findings, check.decisions)
        }
        return (checks.flatMap(\.0), checks.reduce(0) { $0 + $1.1 })
    }

    /// `s` on each OS its versions' bands are probed at (both sides of every minimum) where some
    /// version installs: a band's own state is made already.
    static func onOtherOS(_ s: PlatformState) -> [PlatformState] {
        OSBands.probes(s.platform, s.versions).compactMap { os in
            guard let os, s.versions.contains(where: { OSBands.installable($0, on: os, s.platform) }) else { return nil }
            return s.bandStates.lazy.compactMap(\.state).first { $0.os == os } ?? PlatformState(s.evaluator, s.source, at: s.at, os: os)
        }
    }
}

extension Fidelity {
    /// How far the time sweep looks ahead: 90 days, at most 16 instants.
    public static let horizon: Int64 = 90 * 86400
    public static let sweptInstants = 16

    /// The coming instants the sweep looks at, with the platforms each
    /// touches (nil: all): from the next change on, up to `horizon` after
    /// it. Every instant of the span the files hold for (from the last
    /// change to the next) so sweeps the same ones, and two publishes of
    /// the same state say the same.
    public static func coming(_ snapshot: ProjectSnapshot, after at: Int64) -> [(at: Int64, platforms: Set<Int64>?)] {
        guard let first = NextChange.after(snapshot, at: at)?.at else { return [] }
        return NextChange.coming(snapshot, after: at, through: first > Int64.max - horizon ? Int64.max : first + horizon, limit: sweptInstants)
    }

    /// The proof at every coming instant `check`'s answer changes (`coming`):
    /// the files as a publish then (publish --watch) writes them, read back
    /// by every client, for every install, recorded or not. Only the
    /// platforms an instant touches are rendered and checked: the others'
    /// files are those of the instant before. Each limit and disagreement
    /// carries the first instant it appears from, and is not repeated after.
    /// The snapshot must hold the notes shown at every such instant (Store.snapshot).
    /// `scoped` false: every platform at every instant (what the tests hold the scoped sweep to).
    /// `forEach`: how the instants are gone through (each is rendered and checked apart).
    public static func sweep(_ snapshot: ProjectSnapshot, after at: Int64, scoped: Bool = true, forEach: ForEachIndex = Parallel.serial,
                             limitsOnce: Bool = false) -> (findings: [Finding], decisions: Int) {
        let instants = coming(snapshot, after: at)
        let runs = Parallel.map(instants.count, forEach) { i -> (findings: [Finding], decisions: Int) in
            let touched = scoped ? instants[i].platforms : nil
            var warnings: [String] = []
            let (files, states) = ProjectFiles.clientFiles(snapshot, at: instants[i].at, warnings: &warnings, only: touched, checked: true)
            let byPath = Dictionary(files.map { ($0.path, $0.bytes) }, uniquingKeysWith: { _, last in last })
            return Fidelity.run(states: touched.map { ids in states.filter { ids.contains($0.platform.id) } } ?? states, limitsOnce: limitsOnce) { byPath[$0] }
        }
        // In time order: what an earlier instant found is not said again.
        var out: [Finding] = [], decisions = 0
        var seen = Set<String>()
        for (i, run) in runs.enumerated() {
            decisions += run.decisions
            for var f in run.findings {
                if f.isDisagreement {
                    guard seen.insert(key(f)).inserted else { continue }
                } else {
                    f.limits = f.limits.filter { seen.insert(key($0)).inserted }
                    if f.limits.isEmpty { continue }
                }
                f.from = instants[i].at
                out.append(f)
            }
        }
        return (out, decisions)
    }

    /// The findings at `at` and those of the sweep after it, as one list:
    /// what is so now already is not repeated, and a limit that comes later
    /// says from when in its intent ("from 2027-01-05T09:00:00Z: pin 1.2 force").
    public static func merged(now: [Finding], coming: [Finding]) -> [Finding] {
        let present = Set(Finding.distinctLimits(now).map { key($0.limit) } + now.filter(\.isDisagreement).map(key))
        return now + coming.compactMap { f in
            guard let from = f.from else { return f }
            if f.isDisagreement { return present.contains(key(f)) ? nil : f }
            var g = f
            g.limits = f.limits.filter { !present.contains(key($0)) }.map { var l = $0; l.intent = "from \(Time.format(from)): \(l.intent)"; return l }
            return g.limits.isEmpty ? nil : g
        }
    }

    /// A limit as it is said once: its platform, client and intent.
    static func key(_ l: Limit) -> String { "\(l.platform)\u{0}\(l.client.rawValue)\u{0}\(l.intent)" }
    /// A disagreement by its install, locale and what differs.
    static func key(_ f: Finding) -> String {
        "\(f.platform)\u{0}\(f.client.rawValue)\u{0}\(f.version ?? "")\u{0}\(f.build ?? -1)\u{0}\(f.locale ?? "")\u{0}\(f.expected)\u{0}\(f.actual)"
    }
}

/// The checks of one platform.
struct PlatformCheck {
    let state: PlatformState
    let file: (String) -> [UInt8]?
    /// The project's control.json as its client read it; nil when it is missing.
    let controlFile: Result<ControlClient, ClientFailure>?
    /// control.json read as a project (ControlClient.decoded), for the installs it does not list.
    let decoded: ProjectSnapshot?
    var findings: [Finding] = []
    var decisions = 0
    /// Keep only a limit's first finding, and every disagreement (publish, verify:
    /// `saysNothingNew`); false: a finding for every install and locale (`Fidelity.check`).
    var limitsOnce = false
    /// The limits found so far, by what names one (Fidelity.key), where `limitsOnce`.
    var saidLimits = Set<Said>()
    struct Said: Hashable { let platform: String, client: Client, intent: String }
    /// The other side of a rollout (Fidelity.run), whose installs are in it
    /// (true) or not: only control.json carries it. Nil: the files' own state.
    var otherSide: Bool? = nil
    /// The appcasts as upgrader reads them, by path (Fidelity.run parses each once); one not here is parsed by `upgrader()`.
    var feeds: [String: Result<UpgraderClient, ClientFailure>] = [:]
    /// The installs asked about, recorded versions first, then the probes
    /// (Probes.installs: unrecorded installs around every line a file or the
    /// database draws), with what the evaluator says each should see,
    /// worked out once for every client and locale. A probe is a record
    /// with a negative id, never released, with no notes.
    let versions: [VersionRecord]
    let verdicts: [Verdict]
    let expected: [ClientDecision]
    /// What each probe stands for ("between 1.1 and 1.2"), by its index in `versions`.
    let probeKinds: [Int: String]
    /// Per version: whether a version below it is not forced (attribute's
    /// "spared"), worked out once, not for every difference.
    let spared: [Bool]
    /// On an older OS (`state.os`): what each install is told on the newest,
    /// so a client that knows nothing of the OS is held to that, and the
    /// band the OS is in, as people name it.
    let onNewestOS: [ClientDecision]?
    let band: String?
    /// The release below which the manifests force everything (AndVersionFormat.minimum), worked out once.
    let threshold: Release?
    /// What `attribute` asks of the platform's records (`Records`).
    let records: Records
    /// Per install: whether a device on `state.os` can install it (every probe, and every
    /// version on the newest OS), asked once, not by each client and locale.
    let installable: [Bool]
    let platform: PlatformRecord
    struct VersionKey: Hashable {
        let high: UInt64, low: UInt64
        init(_ v: Version) { (high, low) = v.sortKey }
    }

    /// What explaining a difference asks of a platform's records, worked out
    /// once, not for every difference; the same for each of its OS bands and
    /// rollout sides, which hold the same records (Fidelity.run makes it once
    /// for them all).
    struct Records: Sendable {
        /// The records' ids, to tell whether a state holds these records.
        var ids: [Int64] { known.ids }
        /// What probing them asks of the records (`Probes.Known`); its version texts tell
        /// a probe that is another build of a record (a set, as every probe asks: a scan
        /// each would cost the square of the versions).
        let known: Probes.Known
        var texts: Set<String> { known.texts }
        /// The records' indices by version, every spelling of one together, in the records' order:
        /// the other spellings and builds of an install's version, without a scan each.
        let byVersion: [VersionKey: [Int]]
        /// The platform's first versionCode out of order.
        let disorderedBuild: String?

        init(_ versions: [VersionRecord], _ platform: PlatformRecord) {
            known = Probes.Known(versions, buildOrdered: platform.isAndroid)
            byVersion = Dictionary(grouping: versions.indices) { VersionKey(versions[$0].version) }
            disorderedBuild = PlatformCheck.disorderedBuild(versions)
        }

        func hold(_ versions: [VersionRecord]) -> Bool { known.holds(versions) }
    }

    /// `newest`: the same platform's state on the newest OS at the same instant (Fidelity.run),
    /// whose verdicts of the records are what a band state's are held to on the newest.
    /// `records`: the platform's, made for another of its checks (used where they hold this state's).
    init(state: PlatformState, file: @escaping (String) -> [UInt8]?, control: Result<ControlClient, ClientFailure>?, decoded: ProjectSnapshot? = nil,
         newest: PlatformState? = nil, records: Records? = nil) {
        self.state = state; self.file = file; self.controlFile = control; self.decoded = decoded
        platform = state.platform
        self.records = records.flatMap { $0.hold(state.versions) ? $0 : nil } ?? Records(state.versions, state.platform)
        let probes = PlatformCheck.probes(state, known: self.records.known)
        var rows = state.versions, verdicts = state.verdicts.map(\.1), kinds: [Int: String] = [:]
        if !probes.isEmpty {
            let facts = Evaluator.PlatformFacts(state.snapshot, state.platform, at: state.at, os: state.os)
            for (n, p) in probes.enumerated() {
                kinds[rows.count] = p.kind
                rows.append(VersionRecord(id: -Int64(n + 1), platformID: state.platform.id, version: p.release.version, build: p.release.build,
                                          releasedAt: nil, minOS: nil, policy: nil, notes: [:]))
                verdicts.append(state.evaluator.update(state.platform, p.release, at: state.at, facts: facts))
            }
        }
        if let os = state.os {
            // The records' verdicts on the newest OS are the newest state's: only the probes are worked out.
            let known = newest.flatMap { n in
                n.os == nil && n.at == state.at && n.platform.id == state.platform.id && n.versions.count == state.versions.count ? n.verdicts : nil
            } ?? []
            let facts = known.count == rows.count ? nil : Evaluator.PlatformFacts(state.snapshot, state.platform, at: state.at)
            onNewestOS = rows.indices.map { i in
                PlatformCheck.decision(i < known.count ? known[i].1.kind : state.evaluator.update(state.platform, rows[i].release, at: state.at, facts: facts!).kind)
            }
            band = OSBands.band(of: os, in: OSBands.of(state.platform, state.versions)).label(state.platform.name)
        } else {
            onNewestOS = nil
            band = nil
        }
        versions = rows
        installable = state.os.map { os in
            let fits = OSBands.installable(rows, on: os, state.platform)
            return rows.indices.map { rows[$0].id < 0 || fits[$0] }
        } ?? Array(repeating: true, count: rows.count)
        self.verdicts = verdicts
        probeKinds = kinds
        expected = verdicts.map { PlatformCheck.decision($0.kind) }
        // Spared: some install below is not forced. For a probe, some install of a lower
        // release, probes included (a strict order for the sort: a build after none; equal
        // releases grouped); for a record, some record before it, as the records are ordered.
        // By keys worked out once: a record copied out for each comparison retained its every string.
        let keys = rows.indices.map { i in (version: rows[i].version.sortKey, build: rows[i].build ?? -1, index: i) }
        let order = keys.sorted { x, y in
            if x.version != y.version { return x.version < y.version }
            return (x.build, x.index) < (y.build, y.index)
        }.map(\.index)
        var spared = [Bool](repeating: false, count: rows.count)
        var free = false, group: [Int] = [], groupFree = false
        for i in order {
            if let g = group.first, Release.isBelow(rows[g].release, rows[i].release) {
                free = free || groupFree
                group = []; groupFree = false
            }
            spared[i] = free
            group.append(i)
            if verdicts[i].kind != .required { groupFree = true }
        }
        var recordFree = false
        for i in state.verdicts.indices {
            spared[i] = recordFree
            if state.verdicts[i].1.kind != .required { recordFree = true }
        }
        self.spared = spared
        threshold = AndVersionFormat.release(AndVersionFormat.minimum(state))
    }

    /// The probe installs of a platform: around the records where the
    /// verdict changes, the versions the files offer, pinned versions and
    /// the floors.
    static func probes(_ state: PlatformState, known: Probes.Known? = nil) -> [Probes.Install] {
        let versions = state.versions
        guard !versions.isEmpty else { return [] }
        var marked: Set<Int> = [0, versions.count - 1]
        for i in versions.indices.dropFirst() where state.verdicts[i].1.kind != state.verdicts[i - 1].1.kind { marked.insert(i); marked.insert(i - 1) }
        let named = Set([state.current?.id, state.announced?.id, state.released?.id].compactMap { $0 })
        for (i, v) in versions.enumerated() where v.policy != nil || named.contains(v.id) { marked.insert(i) }
        let p = state.platform
        let lines = [p.force?.release, p.recommend?.release, state.source.rollout?.floor.release].compactMap { $0 }
        return Probes.installs(versions, marked: marked, lines: lines, buildOrdered: p.isAndroid, known: known)
    }

    var base: String { "\(state.project.slug)/\(platform.name)" }
    var locales: [String] { state.snapshot.publishedLocales }
    /// The device languages notes are asked for: every published locale, and one
    /// the project does not publish, whose users read the default locale's notes.
    var noteLocales: [String] {
        let published = Set(locales.map(LocaleTag.language))
        return locales + ["fr", "ja", "sw"].filter { !published.contains($0) }.prefix(1)
    }

    /// The notes an app shows a device in `locale`: those of the locale it reads (a
    /// language the project does not publish reads the default locale's), along its chain.
    func notesShown(_ v: VersionRecord, device locale: String) -> (String, String)? {
        let reading = locales.contains(locale) ? locale : ClientAnswer.locale(for: [locale], among: locales, defaultLocale: state.project.defaultLocale)
        return state.evaluator.notes(v, locale: reading)
    }

    /// Only the clients of the formats the project serves read its files.
    func serves(_ client: Client) -> Bool { state.snapshot.project.formats.serves(client.format) }

    /// Whether the installs this check stands for are in a rollout: what control.json must answer them.
    var inRollout: Bool { otherSide ?? false }

    mutating func run() {
        if otherSide != nil {
            if serves(.control) { control() }
            return
        }
        if state.os == nil, state.source.isStaging(at: state.at) { rollout() }
        if state.os != nil {
            osBlind()
        } else {
            if serves(.retired) { retired() }
            if platform.isAndroid { if serves(.andVersionAndroid) { andVersionAndroid() } } else if platform.isApple, serves(.andVersionIOS) { andVersionIOS() }
        }
        if platform.name == "ios", serves(.siren) { siren() }
        if PrinceOfVersionsFormat.keys[platform.name] != nil, serves(.princeOfVersions) { princeOfVersions() }
        if serves(.upgrader) { upgrader() }
        // While a rollout divides installs, control.json is checked side by side (Fidelity.run).
        if serves(.control), !state.source.isStaging(at: state.at) { control() }
        // Windows and notes are the same on every OS: said once, on the newest.
        if state.os == nil { maintenance() }
    }

    mutating func note(_ client: Client, _ path: String, _ v: VersionRecord?, locale: String? = nil,
                       expected: String, actual: String, limit: Limit?) {
        note(client, path, v, locale: locale, expected: expected, actual: actual, limits: limit.map { [$0] } ?? [])
    }

    mutating func note(_ client: Client, _ path: String, _ v: VersionRecord?, locale: String? = nil,
                       expected: String, actual: String, limits: [Limit]) {
        if saysNothingNew(limits) { return }
        record(client, path, v, locale: locale, expected: expected, actual: actual, limits: limits)
    }

    /// Whether a finding of `limits` would tell a publish or verify nothing: each limit was
    /// found before by this check (only where `limitsOnce` keeps the first), and a finding
    /// with limits is no disagreement. Those read a limit once (Finding.distinctLimits),
    /// its first finding's, and each install it touches made a Finding of its own: 718 per
    /// project of the benchmark fleet for 16 limits, built, copied and sorted out again.
    mutating func saysNothingNew(_ limits: [Limit]) -> Bool {
        guard limitsOnce, !limits.isEmpty else { return false }
        var new = false
        for l in limits where saidLimits.insert(Said(platform: l.platform, client: l.client, intent: l.intent)).inserted { new = true }
        return !new
    }

    mutating func record(_ client: Client, _ path: String, _ v: VersionRecord?, locale: String? = nil,
                         expected: String, actual: String, limits: [Limit]) {
        var f = Finding(project: state.project.slug, platform: platform.name, client: client, file: path,
                        version: v?.version.text, build: v?.build, locale: locale,
                        expected: expected, actual: actual, limits: limits)
        if let v, v.id < 0 { f.install = probeKind(v) }
        f.os = state.os
        findings.append(f)
    }

    /// What a probe stands for, by its record.
    func probeKind(_ v: VersionRecord) -> String? {
        probeKinds[state.versions.count + Int(-v.id) - 1]
    }

    /// Compares every version's decision with its update verdict.
    /// `cause` names the limit of every difference when the file itself is
    /// the reason (a lookup file relctl could not publish).
    mutating func compare(_ client: Client, _ path: String, locale: String? = nil, cause: Limit? = nil, _ decide: (VersionRecord) -> ClientDecision) {
        let versions = self.versions
        compareByIndex(client, path, locale: locale, cause: cause) { decide(versions[$0]) }
    }

    /// The same with the client's decision by the version's index.
    /// `explained`: the limits found for each version's difference, kept
    /// while the decisions they explain are reused (every locale's file of
    /// one content): the causes are the same, so they are found once.
    mutating func compareByIndex(_ client: Client, _ path: String, locale: String? = nil, cause: Limit? = nil, explained: Explained? = nil,
                                 _ decided: (Int) -> ClientDecision) {
        for i in versions.indices {
            // An install nobody recorded, reported without a versionCode, means nothing to a
            // client that decides by the code alone: only the probes with one are asked.
            if versions[i].id < 0 && versions[i].build == nil && byCode(client) { continue }
            // A device on an older OS runs only the versions it can install.
            if !installable[i] { continue }
            decisions += 1
            let actual = decided(i)
            if actual == expected[i] { continue }
            let (v, verdict) = (versions[i], verdicts[i])
            let limits: [Limit] = {
                if case .crash = actual { return [] }
                if let cause { return [cause] }
                if let known = explained?.limits[i] { return known }
                let found = attribute(client, i, verdict, actual)
                explained?.limits[i] = found
                return found
            }()
            if saysNothingNew(limits) { continue }
            record(client, path, v, locale: locale, expected: "\(verdict.kind.rawValue) (\(verdict.decidedBy.rawValue))", actual: actual.word, limits: limits)
        }
    }


    /// What `attribute` found for each version index, for one client's decisions.
    final class Explained { var limits: [Int: [Limit]] = [:] }

    /// The clients that decide by Android's versionCode alone.
    func byCode(_ client: Client) -> Bool {
        platform.isAndroid && (client == .andVersionAndroid || client == .princeOfVersions)
    }

    static func decision(_ kind: Verdict.Kind) -> ClientDecision {
        switch kind {
        case .required: return .required
        case .optional: return .optional
        case .none: return .none
        case .maintenance: return .maintenance
        }
    }

    /// A whole file a client cannot use: every version is reported once, as the file.
    mutating func unusable(_ client: Client, _ path: String, _ failure: ClientFailure, locale: String? = nil) {
        // Said once, on the newest OS.
        guard state.os == nil else { return }
        note(client, path, nil, locale: locale, expected: "a file it reads", actual: failure.decision.word, limit: nil)
    }

    mutating func retired() {
        let memo = RetiredMemo()
        // Every locale's file carries the same versions: a client whose
        // parsed content equals the last one's decides every version the
        // same, so those decisions are reused (and still compared and counted).
        var proven: (client: RetiredClient, decisions: [ClientDecision], explained: Explained)? = nil
        for locale in locales {
            let path = FileKinds.retired.path(project: state.project.slug, platform: platform.name, locale: locale)
            guard let bytes = file(path) else { unusable(.retired, path, .crash("the file is missing"), locale: locale); continue }
            do {
                let client = try RetiredClient(bytes, memo: memo)
                let reused = proven.flatMap { $0.client == client ? $0 : nil } ?? (client: client, decisions: versions.map { client.decide($0.version.text) }, explained: Explained())
                proven = reused
                compareByIndex(.retired, path, locale: locale, explained: reused.explained) { reused.decisions[$0] }
            } catch { unusable(.retired, path, error, locale: locale) }
        }
    }

    mutating func andVersionIOS() {
        let path = FileKinds.andVersion.path(project: state.project.slug, platform: platform.name)
        guard let bytes = file(path) else { missingManifest(.andVersionIOS, path); return }
        do {
            let client = try AndVersionIOSClient(bytes)
            compare(.andVersionIOS, path) { client.decide($0.version.text) }
            if state.os == nil, let current = state.current {
                for locale in noteLocales { whatsNew(.andVersionIOS, path, current, locale, shown: client.notes(deviceLanguage: locale)) }
            }
        } catch { unusable(.andVersionIOS, path, error) }
    }

    mutating func andVersionAndroid() {
        let path = FileKinds.andVersion.path(project: state.project.slug, platform: platform.name)
        guard let bytes = file(path) else { missingManifest(.andVersionAndroid, path); return }
        do {
            let client = try AndVersionAndroidClient(bytes)
            compare(.andVersionAndroid, path) { v in v.build.map(client.decide) ?? .ignored("no versionCode recorded") }
            if state.os == nil, let current = state.current {
                for locale in noteLocales {
                    let language = LocaleTag.language(locale)
                    // Current runtimes report the modern code, older ones Java's legacy one.
                    for code in [language] + (AndVersionFormat.javaTwins[language].map { [$0] } ?? []) {
                        whatsNew(.andVersionAndroid, path, current, locale, shown: client.notes(javaLanguage: code))
                    }
                }
            }
        } catch { unusable(.andVersionAndroid, path, error) }
    }

    /// On an older OS, the clients that cannot tell it (Retired, AndVersion)
    /// read the same files, and decide the same, as on the newest OS, where
    /// they are checked: what they do here differs from `check --os` exactly
    /// where the band's answer differs from the newest's. Said once per
    /// client and band, by the first such install, without reading the
    /// files again (Retired's are one per locale).
    mutating func osBlind() {
        var clients: [(Client, String)] = [(.retired, FileKinds.retired.path(project: state.project.slug, platform: platform.name, locale: locales.first ?? ""))]
        if platform.isAndroid { clients.append((.andVersionAndroid, FileKinds.andVersion.path(project: state.project.slug, platform: platform.name))) }
        else if platform.isApple { clients.append((.andVersionIOS, FileKinds.andVersion.path(project: state.project.slug, platform: platform.name))) }
        clients = clients.filter { serves($0.0) }
        guard let newest = onNewestOS,
              let i = versions.indices.first(where: { i in
                  installable[i] && expected[i] != newest[i]
              }) else { return }
        for (client, path) in clients {
            decisions += 1
            note(client, path, versions[i], expected: "\(verdicts[i].kind.rawValue) (\(verdicts[i].decidedBy.rawValue))", actual: "\(newest[i].word), as on the newest OS",
                 limit: Limit(client: client, platform: platform.name, intent: "what devices on \(band!) are sent to",
                              reason: "knows nothing of the device's OS: it tells every OS what it tells the newest"))
        }
    }

    /// No andversion.json: relctl publishes none before a release, nor (a
    /// limit, named with its fix) when a record it needs is missing; any
    /// other absence is a defect. The library then finds no update.
    mutating func missingManifest(_ client: Client, _ path: String) {
        guard state.os == nil else { return }
        if state.current == nil { compare(client, path) { _ in .none }; return }
        guard let gap = AndVersionFormat.gap(state) else { unusable(client, path, .ignored("the file is missing")); return }
        let limit = Limit(client: client, platform: platform.name, intent: "updates for AndVersion apps", reason: gap)
        // Said even when no version needs an update now: its notes do not reach the app either.
        note(client, path, nil, expected: "a manifest", actual: "no file", limit: limit)
        compare(client, path, cause: limit) { _ in .none }
    }

    /// The notes a device in `locale` is shown against the evaluator's.
    mutating func whatsNew(_ client: Client, _ path: String, _ current: VersionRecord, _ locale: String, shown: [String]?) {
        guard let (tag, text) = notesShown(current, device: locale) else { return }
        let expected = text.lines
        if shown == expected { return }
        let language = LocaleTag.language(locale)
        // Keys are two-letter languages that fall back to en: a regional or
        // script tag, or the project's default locale, cannot be reached.
        let reachable = tag == language && tag.count == 2
        let unpublished = !locales.contains(locale)
        let limit = reachable ? nil : Limit(client: client, platform: platform.name,
                                            intent: unpublished ? "\(tag) notes for users of languages the project does not publish" : "\(tag) notes for \(locale) users",
                                            reason: "WhatsNew keys are two-letter languages and fall back to en, never to a region, a script or the default locale",
                                            example: unpublished ? locale : nil)
        note(client, path, current, locale: locale, expected: "\(tag) notes", actual: shown.map { "notes \($0.first ?? "")…" } ?? "no notes", limit: limit)
    }

    mutating func siren() {
        let configPath = FileKinds.siren.path(project: state.project.slug, platform: platform.name)
        guard let config = file(configPath) else { unusable(.siren, configPath, .ignored("the file is missing")); return }
        // Lookup files differ by their notes alone: decisions of an equal client are reused, as for Retired.
        var proven: (client: SirenClient, decisions: [ClientDecision], explained: Explained)? = nil
        // siren.json is the same file for every locale: read once, and what it does said for each.
        let settings = Result { () throws(ClientFailure) in try SirenClient.Config(config) }
        for locale in locales {
            let lookupPath = FileKinds.lookup.path(project: state.project.slug, platform: platform.name, locale: locale)
            do {
                let lookup = file(lookupPath)
                let client = try SirenClient(config: settings.get(), lookup: lookup)
                let at = state.at
                // The lookup names one version and its minimum OS (the same in every locale's
                // file): below it Siren is silent, which is said once, by the first install told otherwise.
                if let os = state.os, let minimum = client.lookup?.minimumOS, OSVersion.isBelow(os, minimum) {
                    if let i = versions.indices.first(where: { i in
                        installable[i] && expected[i] != .none
                    }) {
                        decisions += 1
                        note(.siren, lookupPath, versions[i], locale: locale, expected: "\(verdicts[i].kind.rawValue) (\(verdicts[i].decidedBy.rawValue))", actual: "none",
                             limit: Limit(client: .siren, platform: platform.name, intent: "what devices on \(band!) are sent to",
                                          reason: "the lookup names one version and its minimum OS: a device below it is not alerted, even to a version it can install"))
                    }
                    return
                }
                let cause = lookup != nil ? nil : Limit(client: .siren, platform: platform.name, intent: "updates for Siren-driven apps",
                                                        reason: "no lookup file without a minimum OS (relctl platform edit \(platform.name) --min-os VERSION -p \(state.project.slug))")
                let os = state.os
                let reused = proven.flatMap { $0.client == client ? $0 : nil } ?? (client: client, decisions: versions.map { client.decide($0.version.text, at: at, os: os) }, explained: Explained())
                proven = reused
                compareByIndex(.siren, lookupPath, locale: locale, cause: cause, explained: reused.explained) { reused.decisions[$0] }
            } catch { unusable(.siren, configPath, error, locale: locale) }
        }
    }

    /// A device on the state's OS (`state.os`; nil: one that passes every
    /// configuration's requirement), against `check --os`.
    mutating func princeOfVersions() {
        let path = FileKinds.princeOfVersions.path(project: state.project.slug)
        do throws(ClientFailure) {
            // No file at all when no platform has a list.
            guard let bytes = file(path) else { throw ClientFailure.ignored("the file is missing") }
            let client = try PrinceOfVersionsClient(bytes, platform: platform.name)
            if platform.isAndroid {
                // The library takes the device's API level: a minimum OS like 7.0 is not one, and the
                // file then has one configuration for every OS (PrinceOfVersionsFormat.configurations).
                let levels = OSBands.of(platform, state.versions).allSatisfy { $0.from.map(PrinceOfVersionsFormat.isSDKLevel) ?? true }
                guard let sdk = state.os.map({ levels && PrinceOfVersionsFormat.isSDKLevel($0) ? Int64($0) : nil }) ?? 999 else {
                    let limit = Limit(client: .princeOfVersions, platform: platform.name, intent: "what devices on \(band!) are sent to",
                                      reason: "takes the minimum OS as an SDK level (like 24): relctl platform edit android --min-os 24, relctl version edit VERSION --platform android --min-os 26")
                    compare(.princeOfVersions, path, cause: limit) { v in v.build.map { client.decide(versionCode: $0) } ?? .ignored("no versionCode recorded") }
                    return
                }
                compare(.princeOfVersions, path) { v in v.build.map { client.decide(versionCode: $0, sdk: sdk) } ?? .ignored("no versionCode recorded") }
            } else {
                let os = state.os ?? "999"
                compare(.princeOfVersions, path) { client.decide($0.version.text, build: $0.build, os: os) }
            }
        } catch {
            // relctl writes no list for a platform with nothing released (or,
            // on Android, without versionCodes): the library reports an error
            // and the app shows nothing. Any other unreadable file is a defect.
            guard state.os == nil else { return }
            var ignored: [String] = []
            guard PrinceOfVersionsFormat.configurations(state, warnings: &ignored) == nil else { unusable(.princeOfVersions, path, error); return }
            let cause = state.current == nil ? nil : Limit(client: .princeOfVersions, platform: platform.name, intent: "updates for Prince of Versions apps",
                                                            reason: "no versionCode for the versions it names, so no android2 list")
            compare(.princeOfVersions, path, cause: cause) { _ in .none }
        }
    }

    /// upgrader on a device whose OS passes every item's minimum, in every
    /// published locale for the offered item's notes.
    mutating func upgrader() {
        let path = FileKinds.appcast.path(project: state.project.slug, platform: platform.name)
        guard let bytes = file(path) else {
            guard state.os == nil else { return }
            // relctl publishes no feed with nothing to offer or no store link.
            var ignored: [String] = []
            guard AppcastFormat.render(state, locales: locales, warnings: &ignored) == nil else { unusable(.upgrader, path, .ignored("the file is missing")); return }
            let cause = state.current == nil ? nil : Limit(client: .upgrader, platform: platform.name, intent: "updates for upgrader apps",
                                                            reason: "no appcast without a store link (relctl platform edit \(platform.name) --store-url URL -p \(state.project.slug))")
            compare(.upgrader, path, cause: cause) { _ in .none }
            return
        }
        do {
            let client = try (feeds[path] ?? Result { () throws(ClientFailure) in try UpgraderClient(bytes, platform: platform.name) }).get()
            let decide = client.deciding(os: state.os ?? "999")
            compare(.upgrader, path) { decide($0.version.text) }
            // A feed that offers nothing (nobody is prompted) shows no notes to anyone.
            guard let current = state.current, client.onDefaultOS.best != nil, state.os == nil else { return }
            for locale in noteLocales {
                let expected = notesShown(current, device: locale)
                let shown = client.notes(locale: locale)
                if shown != expected?.1 {
                    let unrepresentable = shown != nil && shown == expected.map { XMLText.representable($0.1) }
                    let limit = unrepresentable ? Limit(client: .upgrader, platform: platform.name, intent: "control characters in \(current.version.text) notes",
                                                        reason: "XML 1.0 cannot hold them: they read as U+FFFD") : nil
                    note(.upgrader, path, current, locale: locale, expected: expected.map { "\($0.0) notes" } ?? "no notes",
                         actual: shown.map { "notes \($0.split(separator: "\n").first ?? "")…" } ?? "no notes", limit: limit)
                }
            }
        } catch { unusable(.upgrader, path, error) }
    }

    mutating func control() {
        let path = FileKinds.control.path(project: state.project.slug)
        guard let controlFile else { unusable(.control, path, .crash("the file is missing")); return }
        do {
            let client = try controlFile.get()
            // What `check` says: maintenance while a window blocks the platform, else the update verdict.
            let blocked = state.evaluator.maintenance(platform, at: state.at)
            let listed = state.versions.count
            let own = decoded.flatMap { d in d.platforms.first { $0.name == platform.name }.map { (Evaluator(d), $0) } }
            // By index: a (version, verdict) pair copied out costs a retain of each of its strings.
            for i in versions.indices {
                decisions += 1
                let kind = blocked?.kind ?? verdicts[i].kind
                if !installable[i] { decisions -= 1; continue }
                var actual = client.decide(platform: platform.name, version: versions[i].version.text, build: versions[i].build, os: state.os, inRollout: inRollout)
                if i >= listed, case .ignored = actual {
                    // Text an import refuses (an old database can hold it) keeps the document
                    // from reading as a project: its records are still checked, not its probes.
                    guard let own else { decisions -= 1; continue }
                    actual = PlatformCheck.decision(own.0.evaluate(own.1.seen(inRollout: inRollout, at: state.at), versions[i].release, at: state.at, os: state.os).kind)
                }
                if actual != PlatformCheck.decision(kind) {
                    let verdict = blocked ?? verdicts[i]
                    note(.control, path, versions[i], expected: "\(verdict.kind.rawValue) (\(verdict.decidedBy.rawValue))", actual: actual.word, limit: nil)
                }
            }
        } catch { unusable(.control, path, error) }
    }

    /// A rollout reaches control.json only: every other format shows the
    /// staged recommend to nobody until it is complete, or to every install
    /// (Rollout.Unstaged). The appcast names Sparkle's own phasing, which upgrader ignores.
    mutating func rollout() {
        guard let r = state.source.rollout else { return }
        var clients: [Client] = [.retired]
        if platform.isAndroid { clients.append(.andVersionAndroid) } else if platform.isApple { clients.append(.andVersionIOS) }
        if platform.name == "ios" { clients.append(.siren) }
        if PrinceOfVersionsFormat.keys[platform.name] != nil { clients.append(.princeOfVersions) }
        clients.append(.upgrader)
        let share = Rollout.percent(r.basisPoints(at: state.at))
        let everyone = r.unstaged == .everyone
        for client in clients.filter(serves) {
            var reason = everyone ? "cannot stage a rollout: every install below \(r.floor.text) is asked at once (--unstaged everyone)"
                : "cannot stage a rollout: withheld until it reaches every install\(r.completesAt.map { " (\(Time.format($0)))" } ?? "")"
            if client == .upgrader && AppcastFormat.phased(state) != nil { reason += "; upgrader ignores the appcast's sparkle:phasedRolloutInterval, which Sparkle apps follow with seven groups of their own" }
            if !everyone { reason += "; meanwhile they offer no version from \(r.floor.text) on that was not offered before it started, to any install" }
            note(client, base, nil, expected: "the staged recommend \(r.floor.text) to \(share) of installs",
                 actual: everyone ? "every install below it asked" : "nothing of it",
                 limit: Limit(client: client, platform: platform.name, intent: "the staged recommend \(r.floor.text)", reason: reason))
        }
    }

    /// Windows in force (active or scheduled) reach control.json only.
    mutating func maintenance() {
        let windows = state.snapshot.windows.filter { $0.applies(to: platform.id) && !$0.isOver(at: state.at) }
        guard !windows.isEmpty else { return }
        var clients: [Client] = [.retired]
        if platform.isAndroid { clients.append(.andVersionAndroid) } else if platform.isApple { clients.append(.andVersionIOS) }
        if platform.name == "ios" { clients.append(.siren) }
        if PrinceOfVersionsFormat.keys[platform.name] != nil { clients.append(.princeOfVersions) }
        clients.append(.upgrader)
        clients = clients.filter(serves)
        for w in windows {
            let span = "\(Time.format(w.startsAt)) to \(w.endsAt.map(Time.format) ?? "stop")"
            for client in clients {
                note(client, base, nil, expected: w.isActive(at: state.at) ? "maintenance" : "maintenance from \(Time.format(w.startsAt))",
                     actual: "its update policy", limit: Limit(client: client, platform: platform.name, intent: "maintenance window #\(w.id) (\(span))",
                                                             reason: "no maintenance; only control.json carries it"))
            }
        }
    }

    /// Siren has no recommend floor: below one (or below a force floor
    /// before its deadline) it does what its rules say for the update type.
    /// Doing less than `check` is that limit; forcing the update is only
    /// when the rule for that type forces, else the file says more than relctl meant.
    func sirenFollowsItsRules(_ verdict: Verdict, _ actual: ClientDecision) -> Bool {
        guard actual == .required else { return true }
        guard let type = verdict.updateType, let difference = Rules.types.firstIndex(of: type) else { return false }
        return state.snapshot.project.rules.rule(forDifference: difference).alert == .force
    }

    /// Every cause a format gives for a difference, the intents it cannot
    /// carry first, then the version shapes it cannot read (a four-part
    /// newest version once hid "outdated: none"); empty when the file could
    /// have carried it all (a disagreement).
    func attribute(_ client: Client, _ index: Int, _ verdict: Verdict, _ actual: ClientDecision) -> [Limit] {
        let v = versions[index]
        var intents: [Limit] = [], shapes: [Limit] = []
        func intent(_ what: String, _ reason: String, example: String? = nil) { add(what, reason, example, shape: false) }
        func shape(_ what: String, _ reason: String, example: String? = nil) { add(what, reason, example, shape: true) }
        func add(_ what: String, _ reason: String, _ example: String?, shape: Bool) {
            let l = Limit(client: client, platform: platform.name, intent: what, reason: reason, example: example)
            guard !intents.contains(l) && !shapes.contains(l) else { return }
            if shape { shapes.append(l) } else { intents.append(l) }
        }
        let manifest = client == .andVersionIOS || client == .andVersionAndroid || client == .princeOfVersions || client == .upgrader
        let povApple = client == .princeOfVersions && !platform.isAndroid
        let (minimumKey, currentKey) = client == .princeOfVersions ? ("one required_version", "last_version_available")
            : client == .upgrader ? ("the highest critical item", "the highest item") : ("one MinVersion", "CurrentVersion")
        // MinVersion forces everything below it: a forced version is out of
        // its reach only when a version below it is not forced.
        let spared = self.spared[index]
        // upgrader requires the installs below its highest critical item.
        let critical = client == .upgrader ? AppcastFormat.criticalItem(state) : nil
        // Retired matches the listed text exactly: an install it has no entry for gets no prompt,
        // and every build of a listed version is told what the listed one is.
        if client == .retired && v.id < 0 {
            if records.texts.contains(v.version.text) {
                return [Limit(client: client, platform: platform.name, intent: "builds relctl has no record of",
                              reason: "reads no builds: every build of a listed version is told what the listed one is", example: example(v))]
            }
            return [Limit(client: client, platform: platform.name, intent: "versions relctl has no record of",
                          reason: "matches the exact version text listed, so an unlisted version gets no prompt", example: v.version.text)]
        }
        if client == .retired || client == .control { return [] }

        // What the engineer asked for that the format cannot say.
        // Android clients decide by the app's versionCode: for a version recorded without one, what they do cannot be told.
        if case .ignored = actual, v.build == nil, client == .andVersionAndroid || (client == .princeOfVersions && platform.isAndroid) {
            intent("\(v.version.text) without a recorded versionCode", "decides by the app's versionCode, and none is recorded for this version")
        }
        // The version an install is sent to has no versionCode: a client deciding by codes cannot be told it.
        if byCode(client), let t = verdict.target ?? state.current, t.build == nil {
            intent("\(t.version.text) without a recorded versionCode", "decides by the app's versionCode, and none is recorded for the version users are sent to")
        }
        // Versions whose versionCodes do not grow with them (a database from
        // before relctl refused such builds): Android ranks by the code.
        if client == .andVersionAndroid || (client == .princeOfVersions && platform.isAndroid), let disorder = records.disorderedBuild {
            intent("versionCodes out of version order (\(disorder))", "compares versionCodes: fix the builds with 'relctl version edit VERSION --build N --platform \(platform.name) -p \(state.project.slug)'")
        }
        if client == .andVersionAndroid && verdict.kind == .optional && actual == .none {
            intent(intentOf(verdict, v), "no optional update, only a required one")
        }
        // An install nobody recorded, on the other side of the one threshold a manifest
        // has from where `check` puts it: the file forces every install below it, and
        // per-version decisions (pins, a pinned build) are not a range.
        if manifest, v.id < 0, (actual == .required) != (verdict.kind == .required), actual != .maintenance,
           // upgrader's is its highest critical item, a marketing version.
           let t = client == .upgrader ? critical.map({ Release($0.version, build: nil) }) : threshold,
           // On the side of the threshold where the file puts it: forced below, spared at or above.
           (byCode(client) ? (v.build ?? 0) < (t.build ?? 0) : Release.isBelow(v.release, t)) == (actual == .required) {
            let at = byCode(client) ? "versionCode \(t.build ?? 0)" : t.version.text
            if actual == .required {
                intent("installs nobody recorded below \(at) that check does not force", "forces every install below \(minimumKey)", example: example(v))
            } else {
                intent("installs nobody recorded above \(at) that check forces", "forces only the installs below \(minimumKey)", example: example(v))
            }
        }
        switch verdict.decidedBy {
        case .pin:
            if !(manifest && verdict.kind == .required && !spared) { intent(intentOf(verdict, v), "no per-version policy", example: v.id < 0 ? example(v) : nil) }
        case .forceFloor:
            if manifest && actual != .required && spared { intent(intentOf(verdict, v), "forces only the versions below \(minimumKey)") }
        case .forceDeadline:
            if client == .siren && sirenFollowsItsRules(verdict, actual) { intent("force floor \(platform.force?.text ?? "") before its deadline", "no recommend floor") }
        case .recommendFloor:
            if client == .siren && sirenFollowsItsRules(verdict, actual) { intent("recommend floor \(platform.recommend?.text ?? "")", "no recommend floor") }
        case .rule:
            if manifest && verdict.kind == .none && actual == .optional {
                intent(intentOf(verdict, v), "offers the update to every version below \(currentKey), whatever the update type")
            }
            if manifest && verdict.kind == .required && actual != .required && spared {
                intent(intentOf(verdict, v), "forces only the versions below \(minimumKey)")
            }
            if let current = state.current, current.id != state.announced?.id, actual == .none || client == .siren {
                intent("release delay of \(current.version.text) while a floor or pin sends users to it",
                       "\(client == .siren ? "the lookup file" : "the manifest") names one newest version, so outdated versions see \(current.version.text) and its delay")
            }
        case .outdated:
            if manifest && actual == .optional { intent("outdated: none", "offers the update to every version below \(currentKey)") }
        case .rollout:
            if let current = state.current, current.id != state.announced?.id, actual == .optional || actual == .required {
                intent("the rollout of \(current.version.text) while a floor or pin sends users to it",
                       "\(client == .siren ? "the lookup file" : "the manifest") names one newest version, so installs outside the rollout are offered it too")
            }
        case .releaseDelay:
            // Prince of Versions on iOS compares builds: the lower builds of the release in
            // its delay are the file's to keep quiet (PrinceOfVersionsFormat.availableOnApple),
            // not a limit, unless a floor or pin sends some of them to it.
            if let current = state.current, current.id != state.announced?.id, actual == .optional || actual == .required,
               !(povApple && v.version == current.version && PrinceOfVersionsFormat.availableOnApple(state, current).build != current.build) {
                intent("release delay of \(current.version.text) while a floor or pin sends users to it",
                       "\(client == .siren ? "the lookup file" : "the manifest") names one newest version, so versions in the delay are offered it early")
            }
        // Every format carries these: maintenance is checked apart (maintenance()), an
        // up-to-date install is one no file offers anything, and the formats that cannot
        // tell an OS apart are held to what they tell the newest (osBlind()).
        case .maintenance, .upToDate, .osTooOld: break
        }

        // The versions as the format reads them.
        let fourPartsReason = "reads three components and drops the fourth"
        // A fourth component of 0 drops nothing (1.2.3.0 is 1.2.3): another spelling, said as one.
        func fourth(_ v: Version?) -> Bool { (v?.components.count ?? 0) > 3 && v!.components[3] != 0 }
        // Prince of Versions reads three components on iOS and macOS. Where only the
        // install nobody recorded has four (a beta above the newest), it is said as that.
        let fourPartProbe = v.id < 0 && fourth(v.version)
        func fourParts(_ others: [Version?]) {
            if (v.id >= 0 && fourth(v.version)) || others.contains(where: fourth) { shape("four-part versions", fourPartsReason) }
            else if fourPartProbe { shape("four-part versions nobody recorded", fourPartsReason, example: v.version.text) }
        }
        if povApple { fourParts([state.current?.version, verdict.target?.version, threshold?.version]) }
        if client == .upgrader {
            fourParts([state.current?.version, critical?.version])
            if verdict.decidedBy == .forceFloor, let f = platform.force, f.build != nil { shape("force floor \(f.text)", "compares marketing versions, not builds") }
            if actual == .required, verdict.kind != .required, let c = critical, !v.isReleased(at: state.at), Release.isBelow(v.release, c.release) {
                shape("unreleased versions below the first release at the force threshold (\(c.version.text))",
                      "required below the lowest critical item, which is a released version", example: v.version.text)
            }
        }
        // A floor told apart by its build, where the format compares marketing versions.
        if platform.isApple, !povApple {
            let floor = verdict.decidedBy == .forceFloor || (manifest && verdict.decidedBy == .forceDeadline) ? platform.force.map { ("force", $0) }
                : manifest && verdict.decidedBy == .recommendFloor ? platform.recommend.map { ("recommend", $0) } : nil
            if let (kind, f) = floor, f.build != nil { shape("\(kind) floor \(f.text)", "compares marketing versions, not builds") }
        }
        // The app always reports a build, which the file's builds are compared with.
        let sameVersion = records.byVersion[VersionKey(v.version)] ?? []
        if povApple, v.build == nil, sameVersion.contains(where: { state.verdicts[$0].0.build != nil })
            || [platform.force, platform.recommend].contains(where: { $0?.version == v.version && $0?.build != nil }) {
            shape(v.id < 0 ? "installs nobody recorded, known by their version alone" : "\(v.version.text) without a recorded build",
                  "compares the app's build (CFBundleVersion) with the builds in the file")
        }
        // The same marketing version spelled twice, or told apart by builds:
        // iOS clients compare marketing versions only, each its own way.
        func twin() -> VersionRecord? {
            sameVersion.first { state.verdicts[$0].0.id != v.id && state.verdicts[$0].1.kind != verdict.kind }.map { state.verdicts[$0].0 }
        }
        if client == .andVersionIOS || client == .siren || client == .upgrader || povApple, let other = twin() ?? verdict.target ?? state.current, other.id != v.id, other.version == v.version {
            let reason = client == .siren || client == .upgrader ? "compares marketing versions with missing components as 0, not builds"
                : povApple ? "compares versions with missing components as 0, so spellings without builds are one version"
                : "compares marketing versions, ranking the longer spelling newer, not builds"
            if v.id >= 0 {
                shape("\(v.version.text) and \(other.version.text) as different releases", reason)
            } else if v.version.text == other.version.text {
                // Prince of Versions compares the build too: a difference there has another cause.
                if !povApple { shape("builds relctl has no record of", "compares marketing versions, not builds", example: example(v)) }
            } else {
                shape("other spellings of recorded versions", reason, example: "\(v.version.text) for \(other.version.text)")
            }
        }
        return intents + shapes
    }

    /// An install as a limit's example names it: "2.1.0 build 209".
    func example(_ v: VersionRecord) -> String { v.build.map { "\(v.version.text) build \($0)" } ?? v.version.text }

    /// The first version whose build is not above the build of a version below it.
    static func disorderedBuild(_ versions: [VersionRecord]) -> String? {
        var highest: (VersionRecord, Int64)? = nil
        for v in versions {
            guard let b = v.build else { continue }
            if let (u, c) = highest, b <= c, u.version != v.version { return "\(v.version.text) has build \(b), \(u.version.text) has \(c)" }
            if highest == nil || b > highest!.1 { highest = (v, b) }
        }
        return nil
    }

    /// The intent behind a verdict, in the engineer's words.
    func intentOf(_ verdict: Verdict, _ v: VersionRecord) -> String {
        switch verdict.decidedBy {
        case .pin:
            // A probe (another spelling of a pinned version) is held by the record's pin.
            let pinned = v.policy != nil ? v : Evaluator.pin(state.versions.filter { $0.policy != nil }, v.release) ?? v
            return "pin \(pinned.version.text) \(pinned.policy?.rawValue ?? "")"
        case .forceFloor: return "force floor \(platform.force?.text ?? "")"
        case .forceDeadline: return "force floor \(platform.force?.text ?? "") before its deadline"
        case .recommendFloor: return "recommend floor \(platform.recommend?.text ?? "")"
        case .rule: return "\(verdict.updateType ?? "") updates of outdated versions (\(verdict.rule?.name ?? ""))"
        case .osTooOld: return "what devices on \(band ?? "an older OS") are sent to"
        case .maintenance, .outdated, .releaseDelay, .upToDate, .rollout: return verdict.decidedBy.rawValue
        }
    }
}
