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
