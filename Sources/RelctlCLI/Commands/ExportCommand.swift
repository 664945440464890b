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
        let store = try inv.store(.read)
        var (snapshots, overrides, lineage, removed) = try store.read { () throws -> ([ProjectSnapshot], [String: [String: [String: [String: String]]]], [String: [String: [Int64]]], [String: [String: [Int64]]]) in
            let projects = inv.flag("all-projects") ? try store.projectSlugs().map { try store.requireProject($0) } : [try inv.project(in: store)]
            var overrides: [String: [String: [String: [String: String]]]] = [:]
            for p in projects { overrides[p.slug] = try store.messageOverrides(project: p.id) }
            let all = try store.lineage()
            let lineage = all.filter { slug, _ in projects.contains { $0.slug == slug } }
            // With every project, the histories of those removed: a database built from the file knows of the removal.
            let removed = inv.flag("all-projects") ? all.filter { slug, _ in !projects.contains { $0.slug == slug } } : [:]
            return (try projects.map { try store.snapshot($0) }, overrides, lineage, removed)
        }
        var renamed = snapshots
        if let slug = try inv.value("as").map(Names.slug) {
            guard renamed.count == 1 && !inv.flag("all-projects") else { throw RelctlError.usage("--as names one project, and --all-projects writes several", hint: "give -p SLUG with --as") }
            renamed[0].project.slug = slug
            overrides = [slug: overrides[snapshots[0].project.slug] ?? [:]]
            lineage = [slug: lineage[snapshots[0].project.slug] ?? [:]]
            removed = [:]
        }
        let bytes = ConfigFormat.render(renamed, overrides: overrides, lineage: lineage, removed: removed, schema: inv.value("schema"), at: inv.now)
        if let path = inv.value("output"), path != "-" {
            try FileSystem.writeFile(path, bytes)
            inv.info("exported \(Suggest.few(snapshots.map(\.project.slug)))\(inv.value("as").map { " as \($0)" } ?? "") to \(path)")
        } else {
            inv.out(String(decoding: bytes, as: UTF8.self))
        }
    }
}
