/// Helpers shared by the completion and manual generators: walking the
/// command model and describing values.
public struct CommandEntry {
    public var path: [Command]
    public var words: [String] { path.dropFirst().map(\.name) }
    public var key: String { words.joined(separator: " ") }
    public var command: Command { path.last! }
}

public enum ModelWalk {
    /// Every visible command, depth first, the root first.
    public static func entries(_ root: Command) -> [CommandEntry] {
        var out: [CommandEntry] = []
        func visit(_ path: [Command]) {
            out.append(CommandEntry(path: path))
            for sub in path.last!.subcommands where !sub.hidden { visit(path + [sub]) }
        }
        visit([root])
        return out
    }

    /// Options offered at a command: its own, the globals, and --version at the root.
    public static func options(_ entry: CommandEntry) -> [Option] {
        (entry.command.options + Globals.options + (entry.path.count == 1 ? [Globals.version] : [])).filter { !$0.hidden }
    }

    /// The options whose values the database callback is told, in the order
    /// it is told them: the globals first, then the commands' own.
    public static func completionScopes(_ root: Command) -> [Option] {
        var out: [Option] = []
        for o in Globals.options + entries(root).flatMap(\.command.options) where o.scopesCompletion && !out.contains(where: { $0.long == o.long }) {
            out.append(o)
        }
        return out
    }

    /// The shell variable that holds a scope option's value: "_relctl_db".
    public static func variable(_ o: Option, prefix: String) -> String {
        prefix + o.long.replacing("-", with: "_")
    }

    /// A compact description of how to complete a value.
    public static func spec(_ completion: Completion, allowed: [String]) -> String {
        if !allowed.isEmpty { return "enum:" + allowed.joined(separator: " ") }
        switch completion {
        case .none: return "none"
        case .file: return "file"
        case .directory: return "dir"
        case .dynamic(let kind): return "dyn:" + kind.rawValue
        }
    }

    /// The first sentence of a help text, for one-line descriptions.
    public static func brief(_ help: String) -> String {
        var s = help
        if let dot = s.firstRange(of: ". ") { s = String(s[..<dot.lowerBound]) }
        if s.hasSuffix(".") { s.removeLast() }
        return s
    }
}
