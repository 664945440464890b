/// `relctl completion SHELL` prints a script; the hidden `relctl __complete
/// KIND` answers the scripts with values from the database.
enum CompletionCommand {
    static let shells = ["bash", "zsh", "fish"]

    static let command: Command = Command(
        "completion", abstract: "Print the shell completion script for bash, zsh or fish.",
        arguments: [Argument("SHELL", help: "The shell.", allowed: shells)],
        examples: [Example("relctl completion zsh > ~/.zfunc/_relctl", "Install zsh completion (with ~/.zfunc in $fpath)."),
                   Example("relctl completion bash > ~/.local/share/bash-completion/completions/relctl", "Install bash completion for one user."),
                   Example("relctl completion fish > ~/.config/fish/completions/relctl.fish", "Install fish completion.")]
    ) { inv in
        inv.out(script(inv.arg("SHELL")!))
    }

    static func script(_ shell: String) -> String {
        switch shell {
        case "bash": return BashScript.generate()
        case "zsh": return ZshScript.generate()
        default: return FishScript.generate()
        }
    }

    static let manpage: Command = Command(
        "__manpage", abstract: "Print the manual page (mdoc) generated from the command model.", hidden: true
    ) { inv in inv.out(ManPage.generate()) }

    static let callback: Command = Command(
        "__complete", abstract: "Print completion candidates from the database, one per line.",
        arguments: [Argument("KIND", help: "What to list.", allowed: DynamicValues.allCases.map(\.rawValue))],
        options: [Shared.platform], hidden: true
    ) { inv in
        // Completion must never fail loudly or write: any problem means no candidates.
        guard let kind = DynamicValues(rawValue: inv.arg("KIND")!),
              FileSystem.kind(of: inv.dbPath) == .file,
              let db = try? Connection(path: inv.dbPath, readOnly: true, create: false),
              let values = try? candidates(kind, db: db, project: inv.value("project"), platform: inv.value("platform"))
        else { return }
        inv.out(values.map { $0 + "\n" }.joined())
    }

    static func candidates(_ kind: DynamicValues, db: Connection, project: String?, platform: String?) throws -> [String] {
        if kind == .projects { return try db.query("SELECT slug FROM project ORDER BY slug").map { $0.text(0) } }
        // The project typed on the line, else the default, else the only one; nil means all.
        var projectID: Int64? = nil
        if let project {
            projectID = try db.scalar("SELECT id FROM project WHERE slug = ?", [.text(project)]).intValue ?? -1
        } else if let id = try db.scalar("SELECT p.id FROM project p JOIN meta m ON m.key = 'default_project' AND m.value = p.slug").intValue {
            projectID = id
        }
        let scope: SQLValue = projectID.map { .int($0) } ?? .null
        switch kind {
        case .projects: return []
        case .platforms:
            return try db.query("SELECT DISTINCT name FROM platform WHERE ?1 IS NULL OR project_id = ?1 ORDER BY name", [scope]).map { $0.text(0) }
        case .versions:
            return try db.query("""
                SELECT DISTINCT v.version FROM version v JOIN platform p ON p.id = v.platform_id
                WHERE (?1 IS NULL OR p.project_id = ?1) AND (?2 IS NULL OR p.name = ?2) ORDER BY v.version
                """, [scope, SQLValue(platform)]).map { $0.text(0) }
        case .windows:
            return try db.query("SELECT id FROM maintenance WHERE (?1 IS NULL OR project_id = ?1) AND starts_at > CAST(strftime('%s','now') AS INTEGER) ORDER BY id", [scope]).map { $0.text(0) }
        case .locales:
            var set = Set(Catalog.locales)
            for r in try db.query("""
                SELECT n.locale FROM note n JOIN version v ON v.id = n.version_id JOIN platform p ON p.id = v.platform_id WHERE ?1 IS NULL OR p.project_id = ?1
                UNION SELECT locale FROM message WHERE ?1 IS NULL OR project_id = ?1
                UNION SELECT default_locale FROM project WHERE ?1 IS NULL OR id = ?1
                """, [scope]) { set.insert(r.text(0)) }
            return set.sorted()
        }
    }
}
