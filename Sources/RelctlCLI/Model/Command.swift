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
    public var examples: [Example]
    public var hidden: Bool
    /// Its subcommands by name, each built when it is asked for.
    let members: [Member]

    /// A subcommand known by its name and whether it is hidden before it is
    /// built: the root's groups are declared so (a runnable command's `Group`),
    /// and a command line builds the tree of its own group, not of all of
    /// them (4 % of a `relctl version add`'s instructions, `docs/performance.md`).
    struct Member: Sendable {
        let name: String
        let hidden: Bool
        let command: @Sendable () -> Command
    }

    public init(_ name: String, abstract: String, discussion: String = "", arguments: [Argument] = [],
                options: [Option] = [], subcommands: [Command] = [], examples: [Example] = [],
                hidden: Bool = false) {
        self.init(name, abstract: abstract, discussion: discussion, arguments: arguments, options: options,
                  members: subcommands.map { c in Member(name: c.name, hidden: c.hidden, command: { c }) }, examples: examples, hidden: hidden)
    }

    init(_ name: String, abstract: String, discussion: String, arguments: [Argument], options: [Option], members: [Member],
         examples: [Example], hidden: Bool) {
        self.name = name; self.abstract = abstract; self.discussion = discussion
        self.arguments = arguments; self.options = options; self.members = members
        self.examples = examples; self.hidden = hidden
    }

    /// Every subcommand, built (help, completion, the manual, `__spec`).
    public var subcommands: [Command] { members.map { $0.command() } }
    /// The subcommand named `name`, the only one built.
    public func subcommand(_ name: String) -> Command? { members.first { $0.name == name }?.command() }
    public var visibleSubcommands: [Command] { members.filter { !$0.hidden }.map { $0.command() } }
    /// Whether it has subcommands, and the names of those not hidden, none of them built.
    public var hasSubcommands: Bool { !members.isEmpty }
    public var visibleSubcommandNames: [String] { members.filter { !$0.hidden }.map(\.name) }
}
