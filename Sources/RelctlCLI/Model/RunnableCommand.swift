/// The code that runs a command.
public typealias Handler = @Sendable (Invocation) throws -> Void

/// A command of the model with the handler that runs it, kept beside the
/// data rather than inside it: `model` is the plain `Command` tree that
/// parsing, help, completion, the manual and `__spec` read.
public struct RunnableCommand: Sendable {
    public let model: Command
    public let handler: Handler?
    let children: [Group]

    /// A subcommand declared by its name (and whether it is hidden), built
    /// when a command line or the whole model asks for it (`Command.Member`).
    /// The root's groups: a test holds each name to the one its command has.
    public struct Group: Sendable {
        let name: String
        let hidden: Bool
        let build: @Sendable () -> RunnableCommand

        public static func group(_ name: String, hidden: Bool = false, _ build: @escaping @Sendable () -> RunnableCommand) -> Group {
            Group(name: name, hidden: hidden, build: build)
        }
    }

    /// The same labels as `Command.init`, with subcommands that can run.
    public init(_ name: String, abstract: String, discussion: String = "", arguments: [Argument] = [],
                options: [Option] = [], subcommands: [RunnableCommand] = [], examples: [Example] = [],
                hidden: Bool = false, handler: Handler? = nil) {
        self.init(name, abstract: abstract, discussion: discussion, arguments: arguments, options: options,
                  groups: subcommands.map { s in Group(name: s.model.name, hidden: s.model.hidden, build: { s }) },
                  examples: examples, hidden: hidden, handler: handler)
    }

    /// The same, with subcommands built when first used.
    public init(_ name: String, abstract: String, discussion: String = "", arguments: [Argument] = [],
                options: [Option] = [], groups: [Group], examples: [Example] = [],
                hidden: Bool = false, handler: Handler? = nil) {
        model = Command(name, abstract: abstract, discussion: discussion, arguments: arguments, options: options,
                        members: groups.map { g in Command.Member(name: g.name, hidden: g.hidden, command: { g.build().model }) },
                        examples: examples, hidden: hidden)
        children = groups
        self.handler = handler
    }

    /// The handler at a path of command names below this one.
    public func handler(at names: [String]) -> Handler? {
        guard let first = names.first else { return handler }
        return children.first { $0.name == first }?.build().handler(at: Array(names.dropFirst()))
    }
}
