import RelctlCore

enum LogCommand {
    static let command: RunnableCommand = RunnableCommand(
        "log", abstract: "Show every change: when, by which OS user, what.",
        options: [Option("limit", value: "N", help: "Show at most N entries, newest first.", defaultValue: "50")]
    ) { inv in
        guard let limit = Int64(inv.value("limit") ?? "50"), limit > 0 else {
            throw RelctlError.usage("invalid --limit '\(inv.value("limit") ?? "")'", hint: "give a positive whole number")
        }
        let store = try inv.store(.read)
        let entries = try store.auditEntries(limit: limit)
        inv.render(.object(["entries": .array(entries.map {
            .object(["id": .int($0.id), "at": .time($0.at), "user": .string($0.user),
                     "project": .optional($0.project), "action": .string($0.action)])
        })])) {
            Table.render(["WHEN", "USER", "PROJECT", "CHANGE"], entries.map { [Time.format($0.at), $0.user, $0.project ?? "-", $0.action] })
        }
    }
}
