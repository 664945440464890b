/// What importing a file would bring into one platform of a project: a
/// pure function of the file and the project as it is, so that `--dry-run`
/// and the import itself say the same thing.
public struct ImportPlan: Sendable {
    /// Versions the file shows as shipped: created when missing.
    public var versions: [(version: Version, build: Int64?)] = []
    /// Version text → policy.
    public var pins: [(String, String)] = []
    /// nil: the file says nothing about it; .some(nil): no floor.
    public var force: Floor?? = nil
    public var appStoreID: String?
    /// (kind, locale, field, text): project text overriding the catalog.
    public var messages: [(kind: String, locale: String, field: String, text: String)] = []
    /// (version text, locale, text).
    public var notes: [(version: String, locale: String, text: String)] = []

    public init() {}

    /// One line per change, for people.
    public func changes(against snapshot: ProjectSnapshot, platform: PlatformRecord) -> [String] {
        let existing = snapshot.versions(of: platform)
        var out: [String] = []
        for v in versions where !existing.contains(where: { $0.version.text == v.version.text }) {
            out.append("add version \(v.version.text)\(v.build.map { " (build \($0))" } ?? "") on \(platform.name), released")
        }
        for (text, policy) in pins where existing.first(where: { $0.version.text == text })?.policy != policy {
            out.append("pin \(platform.name) \(text) to \(policy)")
        }
        if let force, force != platform.force {
            out.append(force.map { "set the force floor of \(platform.name) at \($0.text)" } ?? "clear the force floor of \(platform.name)")
        }
        if let id = appStoreID, id != platform.appStoreID { out.append("set the App Store id of \(platform.name) to \(id)") }
        for m in messages where snapshot.messages.overrides[m.kind]?[m.locale]?[m.field] != m.text {
            out.append("set message \(m.kind) \(m.field) in \(m.locale)")
        }
        for n in notes where existing.first(where: { $0.version.text == n.version })?.notes[n.locale] != n.text {
            out.append("set notes of \(n.version) in \(n.locale)")
        }
        return out
    }

    /// What the database already holds differently.
    public func conflicts(against snapshot: ProjectSnapshot, platform: PlatformRecord) -> [String] {
        let existing = snapshot.versions(of: platform)
        var out: [String] = []
        for v in versions {
            if let e = existing.first(where: { $0.version.text == v.version.text }), let b = v.build, let c = e.build, b != c {
                out.append("\(platform.name) \(v.version.text) has build \(c) in the database, \(b) in the file")
            }
        }
        for (text, policy) in pins {
            if let p = existing.first(where: { $0.version.text == text })?.policy, p != policy {
                out.append("\(platform.name) \(text) is pinned to \(p) in the database, \(policy) in the file")
            }
        }
        if let force, let current = platform.force, force != current {
            out.append("the force floor of \(platform.name) is \(current.text) in the database, \(force?.text ?? "none") in the file")
        }
        if let id = appStoreID, let current = platform.appStoreID, id != current {
            out.append("the App Store id of \(platform.name) is \(current) in the database, \(id) in the file")
        }
        for m in messages {
            if let current = snapshot.messages.overrides[m.kind]?[m.locale]?[m.field], current != m.text {
                out.append("the project's \(m.kind) \(m.field) in \(m.locale) is '\(current)' in the database, '\(m.text)' in the file")
            }
        }
        for n in notes {
            if let current = existing.first(where: { $0.version.text == n.version })?.notes[n.locale], current != n.text {
                out.append("the \(n.locale) notes of \(platform.name) \(n.version) differ from the file's")
            }
        }
        return out
    }
}

/// A file that cannot be imported: which, and why.
public struct ImportProblem: Error, Equatable, Sendable {
    public var message: String
    public init(_ message: String) { self.message = message }
}
