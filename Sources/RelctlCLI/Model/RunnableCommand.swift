/// The code that runs a command.
public typealias Handler = @Sendable (Invocation) throws -> Void

/// A command of the model with the handler that runs it, kept beside the
/// data rather than inside it: `model` is the plain `Command` tree that
/// parsing, help, completion, the manual and `__spec` read.
public struct RunnableCommand: Sendable {
    public let model: Command
    public let handler: Handler?
    let children: [RunnableCommand]

    /// The same labels as `Command.init`, with subcommands that can run.
    public init(_ name: String, abstract: String, discussion: String = "", arguments: [Argument] = [],
                options: [Option] = [], subcommands: [RunnableCommand] = [], examples: [Example] = [],
                hidden: Bool = false, handler: Handler? = nil) {
        model = Command(name, abstract: abstract, discussion: discussion, arguments: arguments, options: options,
                        subcommands: subcommands.map(\.model), examples: examples, hidden: hidden)
        children = subcommands
        self.handler = handler
    }

    /// The handler at a path of command names below this one.
    public func handler(at names: [String]) -> Handler? {
        guard let first = names.first else { return handler }
        return children.first { $0.model.name == first }?.handler(at: Array(names.dropFirst()))
    }
}
