import RelctlCore
import RelctlStore

/// `relctl completion SHELL` prints a script; the hidden `relctl __complete
/// KIND` answers the scripts with values from the database.
enum CompletionCommand {
    static let shells = ["bash", "zsh", "fish"]

    static let command: RunnableCommand = RunnableCommand(
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
        case "bash": return BashScript.generate(Relctl.tree.model)
        case "zsh": return ZshScript.generate(Relctl.tree.model)
        default: return FishScript.generate(Relctl.tree.model)
        }
    }

    static let callback: RunnableCommand = RunnableCommand(
        "__complete", abstract: "Print completion candidates from the database, one per line.",
        arguments: [Argument("KIND", help: "What to list.", allowed: DynamicValues.allCases.map(\.rawValue))],
        options: [Shared.platform], hidden: true
    ) { inv in
        // Completion must never fail loudly or write: any problem means no candidates.
        guard let kind = DynamicValues(rawValue: inv.arg("KIND")!) else { return }
        if kind == .commands {
            inv.out(Relctl.tree.model.visibleSubcommands.map { "\($0.name)\t\($0.abstract)\n" }.joined())
            return
        }
        guard let store = try? Store(path: inv.dbPath, mode: .read, user: ""),
              // Versions of every platform when --platform names several ('all', 'ios,android').
              let values = try? candidates(kind, store: store, project: inv.value("project"),
                                           platform: inv.value("platform").flatMap { $0.lowercased() == Shared.allPlatforms || $0.contains(",") ? nil : $0 })
        else { return }
        inv.out(values.map { $0 + "\n" }.joined())
    }

    static func candidates(_ kind: DynamicValues, store: Store, project: String?, platform: String?) throws -> [String] {
        if kind == .projects { return try store.projectSlugs() }
        let scope = try store.completionScope(project: project)
        switch kind {
        case .projects, .commands: return []
        case .platforms: return try store.platformNames(scope: scope)
        case .platformsOrAll: return try store.platformNames(scope: scope) + [Shared.allPlatforms]
        case .versions: return try store.versionTexts(scope: scope, platform: platform)
        case .windows, .liveWindows:
            // The id, and when the window runs, as the shells' description.
            return try store.upcomingWindows(scope: scope, active: kind == .liveWindows).map { "\($0.id)\t\(Time.format($0.start)) to \($0.end.map(Time.format) ?? "stop")" }
        case .locales: return Set(Catalog.locales).union(try store.localesInUse(scope: scope)).sorted()
        }
    }
}
