/// One published file: its path under DIR and its bytes.
public struct PublishedFile: Sendable {
    public var path: String
    public var bytes: [UInt8]

    public init(path: String, bytes: [UInt8]) { self.path = path; self.bytes = bytes }
}

/// What the status page of a project needs beside its snapshot and time.
public struct StatusPageOptions: Sendable {
    /// Published into DIR (links to DIR/index.html), or a local file.
    public var published: Bool

    public init(published: Bool = true) { self.published = published }
}

/// Calls `body` with every index below `count`, one after another or, given
/// by a caller with threads to spare, at once: the platforms of one project
/// are rendered and checked apart, so a publish of one project uses every
/// core. Each call writes only its own result and shares nothing mutable
/// with another (a memo, like Fidelity's RetiredMemo, is made per call); the
/// caller returns when all have.
public typealias ForEachIndex = @Sendable (_ count: Int, _ body: (Int) -> Void) -> Void

/// Starts `body` with every index below `count` and returns at once a
/// function that waits until all calls have returned: the calls go to other
/// threads, so that this one works on meanwhile (or, given none, are made
/// before it returns). Each call writes only its own result, as ForEachIndex's.
public typealias StartEach = @Sendable (_ count: Int, _ body: @escaping @Sendable (Int) -> Void) -> () -> Void

public enum Parallel {
    public static let serial: ForEachIndex = { count, body in for i in 0..<count { body(i) } }

    /// `f` of every index below `count`, in index order, through `forEach`.
    public static func map<T>(_ count: Int, _ forEach: ForEachIndex, _ f: (Int) -> T) -> [T] {
        withoutActuallyEscaping(f) { f in
            [T](unsafeUninitializedCapacity: count) { buffer, initialized in
                let base = buffer.baseAddress
                forEach(count) { i in (base! + i).initialize(to: f(i)) }
                initialized = count
            }
        }
    }
}

/// Every file of one project: a pure function of its snapshot and the
/// publish time.
public enum ProjectFiles {
    /// The client files alone (no status page, no check of what clients do).
    public static func render(_ snapshot: ProjectSnapshot, at: Int64, warnings: inout [String]) -> [PublishedFile] {
        clientFiles(snapshot, at: at, warnings: &warnings).0
    }

    /// The files and what each client does with them (Fidelity), now and at
    /// every coming instant the answer changes (Fidelity.sweep), each worked
    /// out once: the status page lists the limits found, and is for people,
    /// so no client simulation reads it. Of the findings, each limit's first
    /// and every disagreement: all a publish reads of them (`limitsOnce`).
    /// The project's summary for DIR/index.html comes too, page or not: the
    /// index records it, so a later publish that leaves this project alone
    /// can still list it there.
    /// `forEach`: how the platforms are gone through (`Parallel.serial`, or at once).
    public static func renderChecked(_ snapshot: ProjectSnapshot, at: Int64, warnings: inout [String], page: StatusPageOptions?,
                                     forEach: ForEachIndex = Parallel.serial)
        -> (files: [PublishedFile], findings: [Finding], summary: StatusSummary) {
        var snapshot = snapshot
        snapshot.messages.remember(locales: snapshot.publishedLocales)
        var (files, states) = clientFiles(snapshot, at: at, warnings: &warnings, forEach: forEach)
        let byPath = Dictionary(files.map { ($0.path, $0.bytes) }, uniquingKeysWith: { _, last in last })
        // Only what a publish reads of the findings: each limit's first, and every disagreement.
        let now = Fidelity.run(states: states, forEach: forEach, limitsOnce: true) { byPath[$0] }.findings
        let findings = Fidelity.merged(now: now, coming: Fidelity.sweep(snapshot, after: at, forEach: forEach, limitsOnce: true).findings)
        let summary = StatusSummary(snapshot, states: states, at: at)
        if let page {
            let limits = Finding.distinctLimits(findings).map(\.limit)
            files.append(PublishedFile(path: FileKinds.statusPage.path(project: snapshot.project.slug),
                                       bytes: StatusPage.render(snapshot, states: states, at: at, limits: limits, published: page.published,
                                                                since: summary.since, next: summary.next, forEach: forEach)))
        }
        return (files, findings, summary)
    }

    /// The client files, and the platforms' states they were rendered from.
    /// `only`: the platforms (by id) whose own files are rendered; the
    /// project's files (Prince of Versions, control.json) still come, from
    /// every platform's state. nil: all of them.
    /// `checked`: only the files a client check reads (the time sweep): no what's-new lists.
    static func clientFiles(_ snapshot: ProjectSnapshot, at: Int64, warnings: inout [String], forEach: ForEachIndex = Parallel.serial,
                            only: Set<Int64>? = nil, checked: Bool = false)
        -> ([PublishedFile], [PlatformState]) {
        let evaluator = Evaluator(snapshot)
        let slug = snapshot.project.slug
        let locales = snapshot.publishedLocales
        let platforms = Parallel.map(snapshot.platforms.count, forEach) { i in
            let platform = snapshot.platforms[i]
            if let only, !only.contains(platform.id) {
                return PlatformFiles(files: [], state: PlatformState(evaluator, platform, at: at), warnings: [])
            }
            var warnings: [String] = []
            let (files, state) = platformFiles(snapshot, platform, evaluator: evaluator, locales: locales, at: at, warnings: &warnings, checked: checked)
            return PlatformFiles(files: files, state: state, warnings: warnings)
        }
        var files: [PublishedFile] = []
        var states: [PlatformState] = []
        // In platform order, as one thread gives them.
        for p in platforms {
            files += p.files
            states.append(p.state)
            warnings += p.warnings
        }
        // Only the formats the project serves: their files, their warnings.
        let served = snapshot.project.formats
        if served.serves(.princeOfVersions), let pov = PrinceOfVersionsFormat.render(states, warnings: &warnings) {
            files.append(file(FileKinds.princeOfVersions.path(project: slug), pov))
        }
        if served.serves(.control) {
            files.append(file(FileKinds.control.path(project: slug), ControlFormat.render(snapshot, states: states, at: at)))
        }
        return (files, states)
    }

    private struct PlatformFiles {
        var files: [PublishedFile]
        var state: PlatformState
        var warnings: [String]
    }

    /// One platform's files, and the state they were rendered from.
    static func platformFiles(_ snapshot: ProjectSnapshot, _ platform: PlatformRecord, evaluator: Evaluator, locales: [String], at: Int64,
                              warnings: inout [String], checked: Bool = false) -> ([PublishedFile], PlatformState) {
        let slug = snapshot.project.slug
        var files: [PublishedFile] = []
        let state = PlatformState(evaluator, platform, at: at)
        // What every locale's files share, rendered once per platform.
        let retiredVersions = RetiredFormat.versions(state)
        let retiredDeadline = RetiredFormat.deadline(state)
        let served = snapshot.project.formats
        let whatsNewParts = checked || !served.serves(.whatsnew) ? [] : WhatsNewFormat.listed(state).map(WhatsNewFormat.parts)
        if served.serves(.andversion), let manifest = AndVersionFormat.render(state, warnings: &warnings) {
            files.append(file(FileKinds.andVersion.path(project: slug, platform: platform.name), manifest))
        }
        if served.serves(.appcast), let feed = AppcastFormat.render(state, locales: locales, warnings: &warnings) {
            files.append(PublishedFile(path: FileKinds.appcast.path(project: slug, platform: platform.name), bytes: feed))
        }
        for locale in locales {
            if served.serves(.retired) {
                files.append(file(FileKinds.retired.path(project: slug, platform: platform.name, locale: locale), RetiredFormat.render(state, versions: retiredVersions, deadline: retiredDeadline, locale: locale)))
            }
            if !checked && served.serves(.whatsnew) {
                files.append(file(FileKinds.whatsNew.path(project: slug, platform: platform.name, locale: locale), WhatsNewFormat.render(state, parts: whatsNewParts, locale: locale)))
            }
            if platform.name == "ios", served.serves(.siren), let lookup = LookupFormat.render(state, locale: locale, warnings: &warnings) {
                files.append(file(FileKinds.lookup.path(project: slug, platform: platform.name, locale: locale), lookup))
            }
        }
        if platform.name == "ios", served.serves(.siren) {
            files.append(file(FileKinds.siren.path(project: slug, platform: platform.name), SirenFormat.render(state)))
        }
        return (files, state)
    }

    static func file(_ path: String, _ document: JSON) -> PublishedFile {
        PublishedFile(path: path, bytes: document.compactBytes())
    }
}
