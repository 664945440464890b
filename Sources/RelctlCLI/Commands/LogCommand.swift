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
            // A duration without a sign goes the only way --since can mean: back (TimeInput.isBareDuration).
            if TimeInput.isBareDuration(text), let d = try? Time.parseDuration(text.trimmingSpaces()) { return inv.now - d }
            do { return try inv.time(text) } catch {
                throw RelctlError.usage("invalid --since '\(text)'", hint: "give a duration ago, like 2d or 12h, or a time, like \"2026-11-29T09:00:00Z\" or '2026-11-29 09:00'")
            }
        }
        let platform = try inv.value("platform").map(Names.platform)
        let action = inv.value("action")?.trimmingSpaces()
        if action?.isEmpty == true { throw RelctlError.usage("--action is empty", hint: "give a kind of change, like --action force") }
        let store = try inv.store(.read)
        let entries = try store.auditEntries(limit: limit, filter: AuditFilter(project: inv.value("project"), platform: platform, action: action, since: since))
        if entries.isEmpty && !inv.json { inv.info("no logged change matches") }
        // Each entry's rows are named by its own images first (ChangeWords.Names).
        var starts: [Int] = [], count = 0
        for e in entries { starts.append(count); count += e.changes.count }
        // Rows are named for people only: --json gives each row whole.
        let words = inv.json ? nil : try ChangeWords(entries.flatMap(\.changes), changes: starts, logged: entries.map(\.id), store: store, time: inv.people)
        inv.render(.object(["entries": .array(entries.map(LogCommand.json))])) {
            // Each entry's row, then what it changed, one row a line, before → after.
            guard let words, !entries.isEmpty else { return "" }
            let table = Table.render(["ID", "WHEN", "USER", "PROJECT", "CHANGE"], entries.map { [String($0.id), inv.people($0.at), $0.user, $0.project ?? "-", inv.people(in: $0.action)] })
            var lines = table.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            // A project removed may have touched thousands of rows: the first few, then their count (--json has them all).
            for (i, entry) in entries.enumerated().reversed() where !entry.changes.isEmpty {
                var shown = entry.changes.indices.prefix(LogCommand.rowsShown).map { "    " + words.line(starts[i] + $0) }
                if entry.changes.count > LogCommand.rowsShown { shown.append("    … and \(entry.changes.count - LogCommand.rowsShown) more rows (relctl log --json)") }
                lines.insert(contentsOf: shown, at: i + 2)
            }
            return lines.joined(separator: "\n")
        }
    }

    static let rowsShown = 12

    static func json(_ e: AuditEntry) -> JSON {
        .object(["id": .int(e.id), "at": .time(e.at), "user": .string(e.user), "project": .optional(e.project), "action": .string(e.action),
                 "kind": .string(e.kind), "platforms": e.platforms.map { .array($0.map(JSON.string)) } ?? .null, "reverts": .array(e.reverts.map(JSON.int)), "changes": .array(e.changes.map(LogCommand.json))])
    }

    /// A row change as data: the table, the key, and the whole row before and after (null: not there),
    /// names in camelCase as every --json document has them.
    static func json(_ c: RowChange) -> JSON { json(c, tables: CapturedTable.all) }

    static func json(_ c: RowChange, tables: [CapturedTable]) -> JSON {
        // Times as everywhere in --json: RFC 3339 UTC, not the database's seconds.
        func image(_ row: [String: JSON]?) -> JSON {
            guard let row else { return .null }
            return .object(Dictionary(uniqueKeysWithValues: row.map { k, v in
                let column = CapturedTable.column(c.table, k, in: tables)
                if case .int(let t) = v, column.isTime { return (column.json, JSON.time(t)) }
                return (column.json, v)
            }))
        }
        return .object(["table": .string(CapturedTable.json(c.table, in: tables)), "key": .array(c.key), "before": image(c.before), "after": image(c.after),
                 "changed": .array(c.changedColumns.map { .string(CapturedTable.column(c.table, $0, in: tables).json) })])
    }
}
