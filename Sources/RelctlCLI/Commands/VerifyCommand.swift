import RelctlCore
import RelctlPublish
import RelctlStore

/// `relctl verify DIR`: reads the published files back and decides, as each
/// client library would, what every recorded version sees; compares that
/// with `relctl check` at the publish time recorded in index.json.
enum VerifyCommand {
    static let command: RunnableCommand = RunnableCommand(
        "verify", abstract: "Check that every client does with the published files what 'relctl check' says.",
        discussion: "Reads DIR back (not the database) and, for every recorded version and build and the installs nobody recorded around them (other spellings, between neighbours, below each floor, below the oldest and above the newest, the builds just below and above the recorded build of each version around those lines and of each floor, on every platform, versionCodes around the recorded ones) on every platform and published locale (and one language the project does not publish, for the notes), decides what Retired, AndVersion (iOS and Android), Siren with siren.json and the lookup file, Prince of Versions, upgrader with the appcast, and a control.json client will do, then compares it with the evaluator at the instant the files were published for, and does the same at each coming instant the answer changes (up to 90 days) with the files a publish then writes, naming the instant a difference appears from. Differences a format cannot avoid (a pin AndVersion cannot carry, maintenance outside control.json) are listed once as limits; any other difference, a file changed since publishing, or a database changed since the publish makes it exit 1.",
        arguments: [Argument("DIR", help: "A directory written by 'relctl publish'.", completion: .directory)],
        examples: [Example("relctl verify ./out", "Check the published tree against what 'relctl check' says."),
                   Example("relctl verify ./out --json", "The same as one JSON document, for CI.")]
    ) { inv in
        let dir = inv.arg("DIR")!
        let root = dir.count > 1 && dir.hasSuffix("/") ? String(dir.dropLast()) : dir
        let indexPath = root + "/index.json"
        guard FileSystem.kind(of: indexPath, followLinks: false) == .file else {
            throw RelctlError.failure("\(dir) has no index.json, so it is not a tree 'relctl publish' wrote", hint: "publish into it first: relctl publish \(dir)")
        }
        guard case .object(let index)? = try? JSONReader.parse(try FileSystem.readFile(indexPath)),
              case .object(let listed)? = index["files"] else {
            throw RelctlError.failure("\(indexPath) is not an index relctl wrote", hint: "publish again: relctl publish \(dir)")
        }
        // The files hold from validFrom to the next change: any instant between
        // gives the same answers. null: they have held since ever.
        let at: Int64
        switch (index["validFrom"], index["publishedAt"]) {
        case (.string(let from)?, _) where Time.parseUTC(from) != nil: at = Time.parseUTC(from)!
        case (.null?, _):
            if case .object(let next)? = index["nextChange"], case .string(let s)? = next["at"], let t = Time.parseUTC(s) { at = min(inv.now, t - 1) }
            else { at = inv.now }
        case (nil, .string(let when)?) where Time.parseUTC(when) != nil: at = Time.parseUTC(when)!  // written by relctl before validFrom
        default:
            throw RelctlError.failure("\(indexPath) does not say when it was published for (an older relctl wrote it)", hint: "publish again: relctl publish \(dir)")
        }

        // Every listed file as the server holds it; changed ones are reported.
        // A project's files are read, hashed and proven on the cores together and
        // let go after its proof: a fleet's tree is hundreds of megabytes.
        let entries = listed.sorted(by: { $0.key < $1.key }).map { ListedFile(path: $0.key, entry: $0.value) }
        var byProject: [String: [ListedFile]] = [:]
        for file in entries where file.path.contains("/") { byProject[String(file.path.prefix { $0 != "/" }), default: []].append(file) }
        // The projects with a file listed, by its first non-empty component: "/shop/x" names shop too
        // (an unsafe path, so shop's proof finds it missing) though it is read with the root's files.
        let published = Set(listed.keys.filter { $0.contains("/") }.compactMap { $0.split(separator: "/").first.map(String.init) })

        let store = try inv.store(.read)
        try Approvals.warnOwed(inv, store)
        var changed: [(String, String)] = []
        var disagreements: [Finding] = []
        var limits: [(project: String, limit: Limit)] = []
        var decisions = 0
        var signatures: [SignatureReport] = []
        // The floors, pins and outdated offers of the live files that the stores do not serve, by the evidence now.
        var unserved: [(project: String, platform: PlatformRecord, target: StoreGuard.Target, findings: [StoreGuard.Finding])] = []
        let database: TreeCurrency.Database = try store.read {
            let projects = try store.projects()
            // Files at the root (index.json, the status page index.html) belong to no project.
            let mine = projects.filter { published.contains($0.slug) }
            let proven = Set(mine.map(\.slug))
            // Each signature against the project's trusted keys, as apps that pin them check it now.
            let appcastName = "/" + (FileKinds.appcast.pattern.split(separator: "/").last ?? "")
            // Each project is read here and checked on the other cores while the next is read.
            let alone = mine.count < ParallelRender.cores
            try ParallelRender.pipeline(count: mine.count, window: ParallelRender.window, read: { i in
                // Read with the notes the files show now and at every coming instant the sweep looks at.
                let s = try store.zonedSnapshot(mine[i], notesShownAt: at)
                for p in s.platforms where !p.storefronts.isEmpty {
                    unserved += StoreCommands.targets(p, s, now: inv.now, at: inv.now).filter { !$0.findings.isEmpty }.map { (s.project.slug, p, $0.target, $0.findings) }
                }
                return (s, nil)
            }, work: { [byProject] s -> (ParallelRender.Verified, [(String, String)], [String: [UInt8]]) in
                let (files, changed) = ListedFile.read(byProject[s.project.slug] ?? [], root: root, alone: alone)
                // What the signature check reads: the project's control.json and appcasts.
                let signed = s.project.trustedKeys.isEmpty ? [:] : files.filter {
                    $0.key == FileKinds.control.path(project: s.project.slug) || ($0.key.hasSuffix(appcastName) && FileKinds.appcast.matches($0.key))
                }
                return (ParallelRender.verify(s, at: at, files: files, alone: alone), changed, signed)
            }, take: { _, s, result in
                let (verified, changedHere, signed) = result
                changed += changedHere
                disagreements += verified.disagreements
                limits += verified.limits.map { (s.project.slug, $0) }
                decisions += verified.decisions
                if !s.project.trustedKeys.isEmpty {
                    signatures.append(SignatureReport(s.project, root: root, files: signed, appcasts: signed.keys.filter { $0.hasSuffix(appcastName) }.sorted(), at: inv.now))
                }
            })
            // The files no project of the database proves (the root's, a removed project's) are only compared with the index.
            changed += ListedFile.read(entries.filter { !proven.contains(String($0.path.prefix { $0 != "/" })) || !$0.path.contains("/") }, root: root, alone: true).changed
            return try TreeCurrency.Database.current(store)
        }
        changed.sort { $0.0 < $1.0 }
        // What the tree was published from is its state's record (index.json names no database):
        // each project's revision and edit stamp, and a project with files listed and no record
        // (its revision unknown). A tree without one (copied from a server) is checked for what
        // its files do, not for whether the database moved on.
        let record = TreeCurrency.Record.recorded(root: root)
        var slugs = published
        if case .object(let projects)? = index["projects"] { slugs.formUnion(projects.keys) }
        var staleness: [TreeCurrency.Staleness] = []
        if var tree = record {
            for slug in slugs where tree.projects[slug] == nil { tree.projects[slug] = (nil, nil) }
            // The files are proven for the instant they were published for: their span is not the question here.
            tree.validFrom = nil
            tree.nextChange = nil
            staleness = TreeCurrency.staleness(tree, database: database, at: nil)
        } else {
            // Which projects it holds is the tree's own to say.
            let present = Set(database.slugs)
            staleness = slugs.subtracting(present).sorted().map { .projectRemoved($0) } + present.subtracting(slugs).sorted().map { .projectAdded($0) }
        }
        let revision = record?.revision
        let digest: String? = { if case .string(let s)? = index["treeSha256"] { return s } else { return nil } }()
        let stale = !staleness.isEmpty
        let removed = staleness.compactMap { if case .projectRemoved(let slug) = $0 { return slug } else { return nil } }
        let changedProjects = staleness.compactMap { if case .project(let slug, _, _, _) = $0 { return slug } else { return nil } }
        let added = staleness.compactMap { if case .projectAdded(let slug) = $0 { return slug } else { return nil } }
        inv.render(.object([
            "dir": .string(dir), "revision": .optional(revision), "treeSha256": .optional(digest), "databaseRevision": .int(database.revision), "publishedAt": .time(at),
            "stale": .bool(stale), "decisions": .int(Int64(decisions)),
            "changedFiles": .array(changed.map { .object(["path": .string($0.0), "problem": .string($0.1)]) }),
            "removedProjects": .array(removed.map { .string($0) }),
            "changedProjects": .array(changedProjects.map { .string($0) }),
            "addedProjects": .array(added.map { .string($0) }),
            "disagreements": .array(disagreements.map(FindingsReport.json)),
            "limits": .array(limits.map { FindingsReport.json(project: $0.project, $0.limit) }),
            "signatures": .array(signatures.map { $0.json() }),
            "store": .array(unserved.map { u in
                .object(["project": .string(u.project), "platform": .string(u.platform.name), "what": .string(u.target.what),
                         "problems": .array(u.findings.map { .object(["storefront": .optional($0.storefront), "reason": .string($0.reason)]) })])
            }),
        ])) {
            var s = record == nil ? "note: \(dir) holds no record of the database state it was published from (\(TreeState.name), kept by a whole publish): only projects added or removed since are checked for\n" : ""
            for reason in staleness {
                if case .editedByHand = reason, !changedProjects.isEmpty { continue }
                guard let words = words(reason) else { continue }
                switch reason {
                case .databaseRevision, .editedByHand: s += "stale: \(words); publish again\n"
                default: s += "stale: \(words)\n"
                }
            }
            if !changed.isEmpty { s += "files changed after publishing:\n" + changed.map { "  \($0.0): \($0.1)\n" }.joined() }
            if !signatures.isEmpty { s += "signatures:\n" + signatures.map { "  " + $0.line(inv) + "\n" }.joined() }
            if !unserved.isEmpty {
                s += "not served by the stores, by the evidence ('relctl store show'):\n"
                s += unserved.prefix(10).map { "  \($0.project): " + inv.people(in: StoreGuard.sentence($0.target, on: $0.platform, $0.findings)) + "\n" }.joined()
                if unserved.count > 10 { s += "  … and \(unserved.count - 10) more (relctl verify \(dir.shellWord) --json lists every one)\n" }
            }
            if !disagreements.isEmpty { s += "disagreements with 'relctl check':\n" + disagreements.map { "  " + FindingsReport.disagreementLine($0) + "\n" }.joined() }
            if !limits.isEmpty { s += "known limits (intents a format cannot carry):\n" + FindingsReport.limitLines(limits, seeAll: "every one: relctl verify \(dir.shellWord) --json").map { "  \(inv.people(in: $0))\n" }.joined() }
            return s
        }
        let summary = "\(decisions) client decisions in \(dir) (\(revision.map { "revision \($0), " } ?? "")published for \(Time.format(at))): \(disagreements.count) disagreement\(disagreements.count == 1 ? "" : "s"), \(changed.count) changed file\(changed.count == 1 ? "" : "s"), \(limits.count) known limit\(limits.count == 1 ? "" : "s")\(stale ? ", stale" : "")"
        for report in signatures where report.lapsesSoon(at: inv.now) { inv.warn(report.line(inv)) }
        let unsigned = signatures.flatMap { r in r.problems.map { "\($0.path): \($0.why)" } }
        if !unsigned.isEmpty {
            throw RelctlError.failure("apps that pin the keys would ignore \(unsigned.count) signed file\(unsigned.count == 1 ? "" : "s"): \(unsigned[0])",
                                      hint: "publish again with a trusted key: relctl publish \(dir) --signing-key FILE")
        }
        guard disagreements.isEmpty && changed.isEmpty && !stale else {
            throw RelctlError.failure("the published files do not do what 'relctl check' says: \(summary)",
                                      hint: stale ? "publish again: relctl publish \(dir)"
                                          : !changed.isEmpty ? "put the files right: relctl publish \(dir) --full" : "publish again; if it persists, report it")
        }
        inv.info("verified " + summary)
    }

    /// Why a tree is not the database's, for people (nil: a matter of its span, said apart).
    static func words(_ reason: TreeCurrency.Staleness) -> String? {
        switch reason {
        case .databaseRevision(let now, let tree): return "the database is at revision \(now), the files were published from revision \(tree)"
        case .editedByHand: return "the database was changed since the publish without relctl (no new revision: sqlite3 by hand, say)"
        case .project(let slug, _, _, true): return "project '\(slug)' was changed without relctl since the publish (no new revision: sqlite3 by hand, say)"
        case .project(let slug, let tree, let now, false): return "project '\(slug)' is at revision \(now), its files were published from revision \(tree.map(String.init) ?? "unknown")"
        case .projectRemoved(let slug): return "project '\(slug)' is published here but no longer in the database"
        case .projectAdded(let slug): return "project '\(slug)' is in the database but not published here"
        case .notYet, .wentStale: return nil
        }
    }
}

/// A file index.json lists, as verify reads it back.
private struct ListedFile: Sendable {
    var path: String
    var entry: JSON

    /// The files' bytes by path (a changed file too: the proof says what it
    /// does), and each file that is not as index.json says, with why.
    static func read(_ listed: [ListedFile], root: String, alone: Bool) -> (files: [String: [UInt8]], changed: [(String, String)]) {
        let chunks = alone ? 8 * ParallelRender.cores : 1
        let read = Parallel.map(chunks, alone ? ParallelRender.everyCore : Parallel.serial) { c in
            stride(from: c, to: listed.count, by: chunks).map { i -> (bytes: [UInt8]?, sha: String?) in
                guard TreeFiles.isSafe(listed[i].path), let bytes = FileSystem.regularFile(root + "/" + listed[i].path) else { return (nil, nil) }
                return (bytes, SHA256.hex(bytes))
            }
        }
        var files: [String: [UInt8]] = [:]
        var changed: [(String, String)] = []
        for (i, file) in listed.enumerated() {
            guard TreeFiles.isSafe(file.path), case .object(let e) = file.entry, case .int(let size)? = e["size"], case .string(let sha)? = e["sha256"] else {
                changed.append((file.path, "its index entry is not one relctl writes")); continue
            }
            let (bytes, actual) = read[i % chunks][i / chunks]
            guard let bytes, let actual else { changed.append((file.path, "it is missing")); continue }
            if bytes.count != Int(size) { changed.append((file.path, "it is \(bytes.count) bytes, index.json says \(size): truncated or edited")) }
            else if actual != sha { changed.append((file.path, "its content differs from index.json: edited after publishing")) }
            files[file.path] = bytes
        }
        return (files, changed)
    }
}
