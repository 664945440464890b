enum LogCommand {
    static let command: Command = Command(
        "log", abstract: "Show every change: when, by which OS user, what.",
        options: [Option("limit", value: "N", help: "Show at most N entries, newest first.", defaultValue: "50")]
    ) { inv in
        guard let limit = Int64(inv.value("limit") ?? "50"), limit > 0 else {
            throw RelctlError.usage("invalid --limit '\(inv.value("limit") ?? "")'", hint: "give a positive whole number")
        }
        let store = try inv.store(.read)
        let rows = try store.db.query("SELECT id, at, user, project, action FROM audit ORDER BY id DESC LIMIT ?", [.int(limit)])
        inv.render(.object(["entries": .array(rows.map {
            .object(["id": .int($0.int(0)!), "at": .time($0.int(1)), "user": .string($0.text(2)),
                     "project": .optional($0.string(3)), "action": .string($0.text(4))])
        })])) {
            Table.render(["WHEN", "USER", "PROJECT", "CHANGE"], rows.map { [Time.format($0.int(1)!), $0.text(2), $0.string(3) ?? "-", $0.text(4)] })
        }
    }
}

enum HelpCommand {
    static let command: Command = Command(
        "help", abstract: "Show help for relctl or a command.",
        arguments: [Argument("COMMAND", help: "The command to explain, like 'version add'.", optional: true, repeating: true)]
    ) { inv in
        var path = [Relctl.root]
        for word in inv.args("COMMAND") {
            guard let sub = path.last!.subcommand(word) else {
                let names = path.last!.visibleSubcommands.map(\.name)
                throw RelctlError.usage("unknown command '\(word)' for '\(Parser.displayName(path))'\(Suggest.didYouMean(word, names))",
                                        hint: "run '\(Parser.displayName(path)) --help' to see the commands")
            }
            path.append(sub)
        }
        inv.out(Help.render(path, width: inv.context.width))
    }
}
