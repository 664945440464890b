import RelctlCore
import RelctlStore
import RelctlPublish

/// `relctl export`: the configuration as one reviewable, deterministic file (ConfigFormat).
enum ExportCommand {
    static let command: RunnableCommand = RunnableCommand(
        "export", abstract: "Write a project's whole configuration as one reviewable JSON file.",
        discussion: "The file holds everything a project is configured with — its settings, platforms, every version (build, release time, minimum OS, pin, notes in every locale), floors with their deadlines, rules, message overrides, and the active and upcoming maintenance windows with their copy — and nothing a fresh database would number differently (no revisions, row ids or export time; a window keeps its id, which apps see): the same configuration gives the same bytes. Keys are sorted, versions are oldest first, and each version, window and locale's messages is one line, so a change reads as a one-line diff in review. schema/config.schema.json describes it. Without -p or --all-projects, the project a command would take.",
        options: [Option("all-projects", help: "Every project in the database."),
                  Option("output", short: "o", value: "FILE", help: "Write to FILE (replaced whole) instead of standard output ('-').", completion: .file),
                  Option("as", value: "SLUG", help: "Write the project under another slug, to copy it with apply: production to staging, or staging's configuration to production."),
                  Option("schema", value: "REF", help: "Write REF as the file's $schema, for editors: a path relative to the file (a copy of schema/config.schema.json, which make install puts in PREFIX/share/relctl) or an address the team serves.")],
        examples: [Example("relctl export -p shop -o shop.relctl.json", "shop's configuration, to keep in git."),
                   Example("relctl export --all-projects -o fleet.relctl.json", "Every project, one file."),
                   Example("relctl export -p shop --as shop-staging -o staging.relctl.json", "shop's configuration under another slug: applied, a staging copy (staging's under shop's promotes it).")]
    ) { inv in
        if inv.flag("all-projects") && inv.value("project") != nil {
            throw RelctlError.usage("--all-projects and -p both say which projects", hint: "give one of them")
        }
        let renamed = try inv.value("as").map(Names.slug)
        if renamed != nil && inv.flag("all-projects") {
            throw RelctlError.usage("--as names one project, and --all-projects writes several", hint: "give -p SLUG with --as")
        }
        let store = try inv.store(.read)
        let output = inv.value("output").flatMap { $0 == "-" ? nil : $0 }
        // A file is written while it is made: Ctrl-C (or SIGTERM, SIGHUP) between two projects stops
        // the export with nothing at the path and no temporary left beside it.
        if output != nil { StopSignals.install() }
        defer { if output != nil { StopSignals.restore() } }
        // One read, so one state of the database, while each project is read as it is written.
        let (slugs, document): ([String], [UInt8]) = try store.read {
            let projects = inv.flag("all-projects") ? try store.projectSlugs().map { try store.requireProject($0) } : [try inv.project(in: store)]
            let all = try store.lineage()
            // With every project, the histories of those removed: a database built from the file knows of the removal.
            let removed = inv.flag("all-projects") ? all.filter { slug, _ in !projects.contains { $0.slug == slug } } : [:]
            let bySlug = Dictionary(projects.map { (renamed ?? $0.slug, $0) }, uniquingKeysWith: { first, _ in first })
            func render(piece: Int, _ emit: ([UInt8]) throws -> Void) throws {
                try ConfigFormat.render(Array(bySlug.keys), project: { slug in
                    if let output, StopSignals.pending != 0 {
                        throw RelctlError.failure("stopped (\(StopSignals.name(StopSignals.pending))): nothing was written to \(output)", hint: "export again")
                    }
                    let record = bySlug[slug]!
                    var snapshot = try store.snapshot(record)
                    snapshot.project.slug = slug
                    return (snapshot, try store.messageOverrides(project: record.id), all[record.slug] ?? [:])
                }, removed: removed, schema: inv.value("schema"), at: inv.now, piece: piece, emit: emit)
            }
            guard let output else {
                // Standard output gets the document whole or nothing (a bad row met half-way leaves no
                // half a file), and only after the read: a pager that waits holds no transaction open.
                var document: [UInt8] = []
                try render(piece: .max) { document = $0 }
                return (projects.map(\.slug), document)
            }
            try FileSystem.writeFile(output, removingAbandoned: true) { put in try render(piece: 1 << 20) { try put($0[...]) } }
            return (projects.map(\.slug), [])
        }
        if let output {
            inv.info("exported \(Suggest.few(slugs))\(renamed.map { " as \($0)" } ?? "") to \(output)")
        } else {
            inv.context.stdout.write(bytes: document)
        }
    }
}
