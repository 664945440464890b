import RelctlCore
import RelctlStore

enum LogCommand {
    static let command: RunnableCommand = RunnableCommand(
        "log", abstract: "Show every change: when, by which OS user, what.",
        discussion: "With -p (or RELCTL_PROJECT), only that project's changes.",
        options: [Option("limit", value: "N", help: "Show at most N entries, newest first.", defaultValue: "50"),
                  Shared.platform(only: "Only changes naming this platform."),
                  Option("action", value: "ACTION", help: "Only changes of this kind: its first words, like force, maintenance or 'version add'."),
                  Option("since", value: "WHEN", help: "Only changes since a time, or since a duration ago (2d, 12h).")],
        examples: [Example("relctl log -p shop --since 2d", "What changed in shop in the last two days."),
                   Example("relctl log --action force --platform ios --json", "Every iOS force floor change, for a script.")]
    ) { inv in
        guard let limit = Int64(inv.value("limit") ?? "50"), limit > 0 else {
            throw RelctlError.usage("invalid --limit '\(inv.value("limit") ?? "")'", hint: "give a positive whole number")
        }
        let since = try inv.value("since").map { text -> Int64 in
            if let d = try? Time.parseDuration(text) { return inv.now - d }
            return try inv.time(text)
        }
        let platform = try inv.value("platform").map(Names.platform)
        let action = inv.value("action")?.trimmingSpaces()
        if action?.isEmpty == true { throw RelctlError.usage("--action is empty", hint: "give a kind of change, like --action force") }
        let store = try inv.store(.read)
        let entries = try store.auditEntries(limit: limit, filter: AuditFilter(project: inv.value("project"), platform: platform, action: action, since: since))
        inv.render(.object(["entries": .array(entries.map {
            .object(["id": .int($0.id), "at": .time($0.at), "user": .string($0.user),
                     "project": .optional($0.project), "action": .string($0.action)])
        })])) {
            Table.render(["WHEN", "USER", "PROJECT", "CHANGE"], entries.map { [inv.people($0.at), $0.user, $0.project ?? "-", $0.action] })
        }
    }
}
