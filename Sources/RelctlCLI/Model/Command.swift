/// The one declarative description of relctl's interface. Parsing, help,
/// suggestions, completion scripts and the man page are all derived from it.

/// A command: data only, so that the whole model can be printed
/// (`relctl __spec`). The code that runs it rides beside it in `RunnableCommand`.
public struct Command: Sendable {
    public var name: String
    public var abstract: String
    public var discussion: String
    public var arguments: [Argument]
    public var options: [Option]
    public var subcommands: [Command]
    public var examples: [Example]
    public var hidden: Bool

    public init(_ name: String, abstract: String, discussion: String = "", arguments: [Argument] = [],
                options: [Option] = [], subcommands: [Command] = [], examples: [Example] = [],
                hidden: Bool = false) {
        self.name = name; self.abstract = abstract; self.discussion = discussion
        self.arguments = arguments; self.options = options; self.subcommands = subcommands
        self.examples = examples; self.hidden = hidden
    }

    public func subcommand(_ name: String) -> Command? { subcommands.first { $0.name == name } }
    public var visibleSubcommands: [Command] { subcommands.filter { !$0.hidden } }
}
