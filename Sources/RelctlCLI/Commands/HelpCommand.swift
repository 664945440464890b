import RelctlCore

/// `relctl help [COMMAND...]`: the same pages as --help.
enum HelpCommand {
    static let command: RunnableCommand = RunnableCommand(
        "help", abstract: "Show help for relctl or a command.",
        arguments: [Argument("COMMAND", help: "The command to explain, like 'version add'.", optional: true, repeating: true,
                             completion: .dynamic(.commands))],
        examples: [Example("relctl help force", "The help of relctl force."), Example("relctl help maintenance start", "The help of a subcommand.")]
    ) { inv in
        var path = [Relctl.tree.model]
        for word in inv.args("COMMAND") {
            guard let sub = path.last!.subcommand(word) else {
                let names = path.last!.visibleSubcommandNames
                throw RelctlError.usage("unknown command '\(word)' for '\(Parser.displayName(path))'\(Suggest.didYouMean(word, names))",
                                        hint: "run '\(Parser.displayName(path)) --help' to see the commands")
            }
            path.append(sub)
        }
        inv.out(Help.render(path, width: inv.context.width))
    }
}
