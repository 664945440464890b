/// Hidden commands that print the command model: the manual page and the
/// model itself as JSON.
enum ModelCommands {
    static let manpage: RunnableCommand = RunnableCommand(
        "__manpage", abstract: "Print the manual page (mdoc) generated from the command model.", hidden: true
    ) { inv in inv.out(ManPage.generate(Relctl.tree.model)) }

    static let spec: RunnableCommand = RunnableCommand(
        "__spec", abstract: "Print the command model as JSON: every command, option, argument and example.", hidden: true
    ) { inv in inv.emit(ModelSpec.json(Relctl.tree.model)) }
}
