/// One published file: its path under DIR and its bytes.
public struct PublishedFile: Sendable {
    public var path: String
    public var bytes: [UInt8]

    public init(path: String, bytes: [UInt8]) { self.path = path; self.bytes = bytes }
}

/// What the status page of a project needs beside its snapshot and time.
public struct StatusPageOptions: Sendable {
    /// The project's own revision (its newest change), so one project's
    /// change leaves the other projects' pages as they are.
    public var revision: Int64
    /// Published into DIR (links to DIR/index.html), or a local file.
    public var published: Bool

    public init(revision: Int64, published: Bool = true) { self.revision = revision; self.published = published }
}

/// Every file of one project: a pure function of its snapshot and the
/// publish time.
public enum ProjectFiles {
    /// The client files alone (no status page, no check of what clients do).
    public static func render(_ snapshot: ProjectSnapshot, at: Int64, warnings: inout [String]) throws -> [PublishedFile] {
        try clientFiles(snapshot, at: at, warnings: &warnings).0
    }

    /// The files and what each client does with them (Fidelity), each worked
    /// out once: the status page lists the limits found, and is for people,
    /// so no client simulation reads it.
    /// The project's summary for DIR/index.html comes too, page or not: the
    /// index records it, so a later publish that leaves this project alone
    /// can still list it there.
    public static func renderChecked(_ snapshot: ProjectSnapshot, at: Int64, warnings: inout [String], page: StatusPageOptions?) throws
        -> (files: [PublishedFile], findings: [Finding], summary: StatusSummary) {
        var (files, states) = try clientFiles(snapshot, at: at, warnings: &warnings)
        var byPath: [String: [UInt8]] = [:]
        for f in files { byPath[f.path] = f.bytes }
        let findings = Fidelity.run(states: states) { byPath[$0] }.findings
        let summary = StatusSummary(snapshot, states: states, at: at)
        if let page {
            let limits = Finding.distinctLimits(findings).map(\.limit)
            files.append(PublishedFile(path: "\(snapshot.project.slug)/status.html",
                                       bytes: StatusPage.render(snapshot, states: states, at: at, limits: limits, revision: page.revision, published: page.published,
                                                                since: summary.since, next: summary.next)))
        }
        return (files, findings, summary)
    }

    /// The client files, and the platforms' states they were rendered from.
    static func clientFiles(_ snapshot: ProjectSnapshot, at: Int64, warnings: inout [String]) throws -> ([PublishedFile], [PlatformState]) {
        let evaluator = Evaluator(snapshot)
        let slug = snapshot.project.slug
        let locales = snapshot.publishedLocales
        var files: [PublishedFile] = []
        var states: [PlatformState] = []
        for platform in snapshot.platforms {
            let state = PlatformState(evaluator, platform, at: at)
            states.append(state)
            let base = "\(slug)/\(platform.name)"
            // What every locale's files share, rendered once per platform.
            let retiredVersions = RetiredFormat.versions(state)
            let retiredDeadline = RetiredFormat.deadline(state)
            let whatsNewParts = WhatsNewFormat.listed(state).map(WhatsNewFormat.parts)
            if let manifest = try AndVersionFormat.render(state, warnings: &warnings) {
                files.append(file("\(base)/andversion.json", manifest))
            }
            if let feed = AppcastFormat.render(state, locales: locales, warnings: &warnings) {
                files.append(PublishedFile(path: "\(base)/appcast.xml", bytes: feed))
            }
            for locale in locales {
                files.append(file("\(base)/retired/\(locale).json", RetiredFormat.render(state, versions: retiredVersions, deadline: retiredDeadline, locale: locale)))
                files.append(file("\(base)/whatsnew/\(locale).json", WhatsNewFormat.render(state, parts: whatsNewParts, locale: locale)))
                if platform.name == "ios", let lookup = LookupFormat.render(state, locale: locale, warnings: &warnings) {
                    files.append(file("\(base)/lookup/\(locale).json", lookup))
                }
            }
            if platform.name == "ios" {
                files.append(file("\(base)/siren.json", SirenFormat.render(state)))
            }
        }
        if let pov = PrinceOfVersionsFormat.render(states, warnings: &warnings) {
            files.append(file("\(slug)/prince-of-versions.json", pov))
        }
        files.append(file("\(slug)/control.json", ControlFormat.render(snapshot, states: states, at: at)))
        return (files, states)
    }

    static func file(_ path: String, _ document: JSON) -> PublishedFile {
        PublishedFile(path: path, bytes: document.compactBytes())
    }
}
