/// A version a file lists.
public struct ImportedVersion: Sendable {
    public var version: Version
    public var build: Int64?
    /// nil: the file does not say (a live file's versions have shipped:
    /// released one release delay before the import); .some(nil): recorded, not released.
    public var releasedAt: Int64??
    /// nil: the file does not say; .some(nil): the platform's.
    public var minOS: String??

    public init(_ version: Version, build: Int64?, releasedAt: Int64?? = nil, minOS: String?? = nil) {
        self.version = version; self.build = build; self.releasedAt = releasedAt; self.minOS = minOS
    }
}

/// What importing a file would bring into one platform of a project: a
/// pure function of the file and the project as it is, so that `--dry-run`
/// and the import itself say the same thing. For each optional value, nil
/// means the file says nothing about it and .some(nil) that it says "none".
public struct ImportPlan: Sendable {
    /// Versions the file shows: created when missing.
    public var versions: [ImportedVersion] = []
    /// Version text → policy.
    public var pins: [(String, String)] = []
    public var force: Floor?? = nil
    public var recommend: Floor?? = nil
    /// A staged recommend (control.json's; its files carry no unstaged mode: the database's stays).
    public var rollout: Rollout?? = nil
    public var bundleID: String?
    public var appStoreID: String?
    public var minOS: String?? = nil
    public var storeURL: String?? = nil
    /// (kind, locale, field, text): project text overriding the catalog.
    public var messages: [(kind: String, locale: String, field: String, text: String)] = []
    /// (version text, locale, text).
    public var notes: [(version: String, locale: String, text: String)] = []
    /// What the file says that the import reads as its client does, and the user should know.
    public var warnings: [String] = []

    public init() {}

    /// A value the file gives and the database holds differently: (what, database's, file's).
    /// `unset`: the database holds nothing there, so taking the file's value is a change, not a conflict.
    struct Difference {
        var what: String, ours: String, theirs: String, unset: Bool
        var isPin = false
    }

    /// Platform-level values: the file's where it says something.
    func platformDifferences(_ p: PlatformRecord) -> [Difference] {
        func text(_ f: Floor?) -> String { f.map { $0.text + ($0.deadline.map { " deadline \(Time.format($0))" } ?? "") } ?? "none" }
        var out: [Difference] = []
        if let force, force != p.force { out.append(Difference(what: "the force floor of \(p.name)", ours: text(p.force), theirs: text(force), unset: p.force == nil)) }
        if let recommend, recommend != p.recommend { out.append(Difference(what: "the recommend floor of \(p.name)", ours: text(p.recommend), theirs: text(recommend), unset: p.recommend == nil)) }
        if let theirs = rollout {
            func words(_ r: Rollout?) -> String {
                r.map { "\($0.floor.text) to \($0.steps.map(Rollout.percent).joined(separator: ", ")) every \(Time.formatDuration($0.every)) from \(Time.format($0.start))\($0.haltedAt.map { ", halted \(Time.format($0))" } ?? ""), first staged \(Time.format($0.since)), unstaged files: \($0.unstaged.rawValue) (salt \($0.salt))" } ?? "none"
            }
            if theirs != p.rollout { out.append(Difference(what: "the staged recommend of \(p.name)", ours: words(p.rollout), theirs: words(theirs), unset: p.rollout == nil)) }
        }
        if let b = bundleID, b != p.bundleID { out.append(Difference(what: "the bundle id of \(p.name)", ours: p.bundleID ?? "none", theirs: b, unset: p.bundleID == nil)) }
        if let id = appStoreID, id != p.appStoreID { out.append(Difference(what: "the App Store id of \(p.name)", ours: p.appStoreID ?? "none", theirs: id, unset: p.appStoreID == nil)) }
        if let minOS, minOS != p.minOS { out.append(Difference(what: "the minimum OS of \(p.name)", ours: p.minOS ?? "none", theirs: minOS ?? "none", unset: p.minOS == nil)) }
        if let storeURL, storeURL != p.storeURL { out.append(Difference(what: "the store URL of \(p.name)", ours: p.storeURL ?? "none", theirs: storeURL ?? "none", unset: p.storeURL == nil)) }
        return out
    }

    /// The recorded versions by their text: every lookup below is one, so an
    /// import of thousands of versions stays linear.
    public static func byText(_ versions: [VersionRecord]) -> [String: VersionRecord] {
        Dictionary(versions.map { ($0.version.text, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// Per-version values of versions the database already has.
    func versionDifferences(_ existing: [String: VersionRecord], _ p: PlatformRecord) -> [Difference] {
        var out: [Difference] = []
        for v in versions {
            guard let e = existing[v.version.text] else { continue }
            if let b = v.build, b != e.build { out.append(Difference(what: "the build of \(p.name) \(e.version.text)", ours: e.build.map(String.init) ?? "none", theirs: String(b), unset: e.build == nil)) }
            if let r = v.releasedAt, r != e.releasedAt {
                out.append(Difference(what: "the release time of \(p.name) \(e.version.text)", ours: e.releasedAt.map(Time.format) ?? "not released", theirs: r.map(Time.format) ?? "not released", unset: e.releasedAt == nil))
            }
            if let m = v.minOS, m != e.minOS { out.append(Difference(what: "the minimum OS of \(p.name) \(e.version.text)", ours: e.minOS ?? "none", theirs: m ?? "none", unset: e.minOS == nil)) }
        }
        for (text, policy) in pins {
            if let e = existing[text], e.policy?.rawValue != policy {
                out.append(Difference(what: "the pin of \(p.name) \(text)", ours: e.policy?.rawValue ?? "none", theirs: policy, unset: e.policy == nil, isPin: true))
            }
        }
        return out
    }

    /// One line per change, for people.
    public func changes(against snapshot: ProjectSnapshot, platform: PlatformRecord) -> [String] {
        let existing = ImportPlan.byText(snapshot.versions(of: platform))
        var out: [String] = []
        for v in versions where existing[v.version.text] == nil {
            let released = v.releasedAt.map { $0.map { ", released \(Time.format($0))" } ?? ", not released" } ?? ", released"
            out.append("add version \(v.version.text)\(v.build.map { " (build \($0))" } ?? "") on \(platform.name)\(released)")
        }
        out += (platformDifferences(platform) + versionDifferences(existing, platform)).filter { !$0.isPin }.map { "set \($0.what) to \($0.theirs)" }
        for (text, policy) in pins where existing[text]?.policy?.rawValue != policy {
            out.append("pin \(platform.name) \(text) to \(policy)")
        }
        for m in messages where snapshot.messages.overrides[m.kind]?[m.locale]?[m.field] != m.text {
            out.append("set message \(m.kind) \(m.field) in \(m.locale)")
        }
        for n in notes where existing[n.version]?.notes[n.locale] != n.text {
            out.append("set notes of \(n.version) in \(n.locale)")
        }
        return out
    }

    /// What the database already holds differently. A value the database
    /// leaves unset is not a conflict: the file fills it.
    public func conflicts(against snapshot: ProjectSnapshot, platform: PlatformRecord) -> [String] {
        let existing = ImportPlan.byText(snapshot.versions(of: platform))
        var out: [String] = []
        for d in platformDifferences(platform) + versionDifferences(existing, platform) where !d.unset {
            out.append("\(d.what) is \(d.ours) in the database, \(d.theirs) in the file")
        }
        for m in messages {
            if let current = snapshot.messages.overrides[m.kind]?[m.locale]?[m.field], current != m.text {
                out.append("the project's \(m.kind) \(m.field) in \(m.locale) is '\(current)' in the database, '\(m.text)' in the file")
            }
        }
        for n in notes {
            if let current = existing[n.version]?.notes[n.locale], current != n.text {
                out.append("the \(n.locale) notes of \(platform.name) \(n.version) differ from the file's")
            }
        }
        return out
    }
}
