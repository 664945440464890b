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

    /// The unrecorded installs of a platform whose versions are `versions`
    /// (oldest first): each version's other spellings, one between each pair
    /// of neighbours, one below the oldest and one above the newest; on a
    /// platform that ranks by build (Android's versionCode), the builds just
    /// below, between and above the recorded ones, each reporting the
    /// version it follows. None repeats a recorded install.
    public static func installs(_ versions: [VersionRecord], buildOrdered: Bool) -> [Install] {
        guard let first = versions.first, let last = versions.last else { return [] }
        var out: [Install] = []
        var seen = Set(versions.map { Key($0.version.text, $0.build) })
        func add(_ v: Version?, build: Int64?, _ kind: String) {
            guard let v, seen.insert(Key(v.text, build)).inserted else { return }
            out.append(Install(release: Release(v, build: build), kind: kind))
        }
        // Without a build: what an app whose build is not compared reports (the iOS clients
        // but Prince of Versions); a build-ordered platform's probes carry one.
        let texts = Set(versions.map(\.version.text))
        for v in versions {
            for s in spellings(v.version) where !texts.contains(s.text) { add(s, build: buildOrdered ? v.build : nil, "\(s.text), another spelling of \(v.version.text)") }
        }
        add(below(first.version), build: nil, "below the oldest record, \(first.version.text)")
        for (a, b) in zip(versions, versions.dropFirst()) where a.version < b.version {
            add(between(a.version, b.version), build: nil, "between \(a.version.text) and \(b.version.text)")
        }
        add(above(last.version), build: nil, "above the newest record, \(last.version.text)")
        guard buildOrdered else { return out }
        let built = versions.filter { $0.build != nil }.sorted { $0.build! < $1.build! }
        guard let low = built.first, let high = built.last else { return out }
        if low.build! > 0 { add(low.version, build: low.build! - 1, "build \(low.build! - 1), below the lowest recorded (\(low.build!))") }
        for (a, b) in zip(built, built.dropFirst()) where b.build! - a.build! > 1 {
            add(a.version, build: a.build! + 1, "build \(a.build! + 1), between \(a.build!) and \(b.build!)")
        }
        if high.build! < 2_100_000_000 { add(high.version, build: high.build! + 1, "build \(high.build! + 1), above the highest recorded (\(high.build!))") }
        return out
    }

    private struct Key: Hashable {
        let text: String, build: Int64?
        init(_ text: String, _ build: Int64?) { self.text = text; self.build = build }
    }

    private static func version(_ components: [Int]) -> Version? {
        try? Version(components.map(String.init).joined(separator: "."))
    }
}
