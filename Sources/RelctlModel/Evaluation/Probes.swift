/// Installs nobody recorded, made from the records: phones run versions the
/// database never heard of (another spelling of a release, a build between
/// two, something older than the oldest record, a beta above the newest),
/// and a file that is right for every recorded version can still be wrong
/// for them. The proofs (Fidelity) and the formats' thresholds ask about
/// these too.
public enum Probes {
    /// An unrecorded install: what the app reports, and what it stands for.
    public struct Install: Sendable {
        public var release: Release
        /// "1.0.0, another spelling of 1.0", "between 1.1 and 1.2", …
        public var kind: String
    }

    /// Just below `v`: its last non-zero component one less and a large one
    /// after it (1.0 → 0.999999, 2.1 → 2.0.999999); nil for 0 (0.0.0).
    public static func below(_ v: Version) -> Version? {
        var c = v.components
        guard let i = c.lastIndex(where: { $0 > 0 }) else { return nil }
        c[i] -= 1
        c = Array(c.prefix(i + 1))
        if c.count < 4 { c.append(999_999) }
        return version(c)
    }

    /// Just above `v`, as a beta of the next release would report: one more
    /// component (2.1 → 2.1.1), or the fourth one up (1.2.3.4 → 1.2.3.5).
    public static func above(_ v: Version) -> Version? {
        var c = v.components
        if c.count < 4 { c.append(1) } else if c[3] < 999_999_999 { c[3] += 1 } else { return nil }
        return version(c)
    }

    /// A version strictly between two neighbours, nil when none is (1.2.3.4 and 1.2.3.5).
    public static func between(_ a: Version, _ b: Version) -> Version? {
        guard a < b, let c = above(a), a < c, c < b else { return nil }
        return c
    }

    /// The other spellings of `v` an app may report: a trailing ".0" added
    /// (up to four components) and trailing zeros removed (1.0 → 1.0.0, 1).
    public static func spellings(_ v: Version) -> [Version] {
        var out: [Version] = []
        if v.components.count < 4, let longer = version(v.components + [0]) { out.append(longer) }
        var c = v.components
        while c.count > 1, c.last == 0 {
            c.removeLast()
            if let shorter = version(c) { out.append(shorter) }
        }
        return out
    }

    /// The unrecorded installs worth asking about on a platform whose
    /// versions are `versions` (oldest first): what a client or `check`
    /// decides changes only where a file or the database draws a line, so
    /// probes go around those lines, not around every record: for each
    /// record in `marked` (where the verdict changes, the versions offered,
    /// pinned, at a threshold) its other spellings and a version between it
    /// and each neighbour; for each version in `lines` (floors, which need
    /// not be records) that version, its spellings and one just below (and,
    /// for a floor at a build, the builds on either side of it); one
    /// below the oldest and one above the newest; for each marked record with
    /// a build, its version with the build just below and just above (a build
    /// of a recorded version nobody recorded), on every platform; on one that
    /// ranks by build (Android's versionCode), also the release before with
    /// the code just below and the lowest and highest recorded (a code just
    /// below a release's reports the release before it, as codes grow with
    /// versions). None repeats a recorded install.
    /// `known`: made from these `versions` (`Known`), once for every state that holds
    /// them; made here when not given, or made from other records (told by their ids)
    /// or for the other ranking.
    public static func installs(_ versions: [VersionRecord], marked: Set<Int>, lines: [Release], buildOrdered: Bool, known: Known? = nil) -> [Install] {
        guard let first = versions.first, let last = versions.last else { return [] }
        let known = known.flatMap { $0.buildOrdered == buildOrdered && $0.holds(versions) ? $0 : nil } ?? Known(versions, buildOrdered: buildOrdered)
        var out: [Install] = []
        var added = Set<Key>()
        func add(_ v: Version?, build: Int64?, _ kind: String) {
            guard let v, !(build == nil && known.texts.contains(v.text)), !(build.map(known.codes.contains) ?? false) else { return }
            let key = Key(v.text, build)
            guard !known.installs.contains(key), added.insert(key).inserted else { return }
            out.append(Install(release: Release(v, build: build), kind: kind))
        }
        add(below(first.version), build: nil, "below the oldest record, \(first.version.text)")
        for i in marked.sorted() where versions.indices.contains(i) {
            let v = versions[i]
            for s in spellings(v.version) { add(s, build: buildOrdered ? v.build : nil, "\(s.text), another spelling of \(v.version.text)") }
            if i > 0, let b = between(versions[i - 1].version, v.version) { add(b, build: nil, "between \(versions[i - 1].version.text) and \(v.version.text)") }
            if i + 1 < versions.count, let b = between(v.version, versions[i + 1].version) { add(b, build: nil, "between \(v.version.text) and \(versions[i + 1].version.text)") }
            if let b = v.build {
                // The same version with another build: a TestFlight or internal build below the
                // one released, a rebuild above it (on Android, another versionCode of it).
                if b > 0 { add(v.version, build: b - 1, "build \(b - 1) of \(v.version.text), below its recorded \(b)") }
                if b < 2_100_000_000 { add(v.version, build: b + 1, "build \(b + 1) of \(v.version.text), above its recorded \(b)") }
                // Codes grow with versions: the code just below is the release before's (a later build of it).
                if buildOrdered, b > 0, let before = i > 0 ? versions[i - 1].version : below(first.version) {
                    add(before, build: b - 1, "build \(b - 1), just below \(v.version.text)'s \(b)")
                }
            }
        }
        for floor in lines {
            let line = floor.version
            add(line, build: nil, "\(line.text), a floor")
            for s in spellings(line) { add(s, build: nil, "\(s.text), another spelling of the floor \(line.text)") }
            add(below(line), build: nil, "just below the floor \(line.text)")
            // A floor at a build: the builds of its version on either side of it.
            if let b = floor.build {
                if b > 0 { add(line, build: b - 1, "build \(b - 1) of \(line.text), just below the floor's \(b)") }
                if b < 2_100_000_000 { add(line, build: b + 1, "build \(b + 1) of \(line.text), above the floor's \(b)") }
            }
        }
        add(above(last.version), build: nil, "above the newest record, \(last.version.text)")
        if buildOrdered {
            let builds = versions.compactMap(\.build)
            if let low = builds.min(), low > 0, let older = below(first.version) { add(older, build: low - 1, "build \(low - 1), below the lowest recorded") }
            if let high = builds.max(), high < 2_100_000_000 { add(last.version, build: high + 1, "build \(high + 1), above the highest recorded") }
        }
        return out
    }

    /// What `installs` asks of a platform's records, whatever it probes around: the
    /// installs they are, their versions' texts and, where builds rank, their codes.
    /// The same for each OS band and rollout side of one platform's records, which
    /// made these sets anew for each: half of what probing cost in a fleet with OS
    /// bands (`docs/performance.md`).
    public struct Known: Sendable {
        fileprivate let installs: Set<Key>
        /// The records' version texts.
        public let texts: Set<String>
        /// A code is one build: an install reporting a recorded code is that release.
        fileprivate let codes: Set<Int64>
        fileprivate let buildOrdered: Bool
        /// The records' ids, in order: what tells the records these were made from.
        public let ids: [Int64]

        public init(_ versions: [VersionRecord], buildOrdered: Bool) {
            installs = Set(versions.map { Key($0.version.text, $0.build) })
            texts = Set(versions.map(\.version.text))
            codes = buildOrdered ? Set(versions.compactMap(\.build)) : []
            self.buildOrdered = buildOrdered
            ids = versions.map(\.id)
        }

        /// Whether these were made from `versions` (by their ids).
        public func holds(_ versions: [VersionRecord]) -> Bool { versions.count == ids.count && zip(versions, ids).allSatisfy { $0.id == $1 } }
    }

    fileprivate struct Key: Hashable {
        let text: String, build: Int64?
        package init(_ text: String, _ build: Int64?) { self.text = text; self.build = build }
    }

    private static func version(_ components: [Int]) -> Version? {
        try? Version(components.map(String.init).joined(separator: "."))
    }
}
