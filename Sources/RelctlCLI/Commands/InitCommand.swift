import RelctlCore
import RelctlStore

enum InitCommand {
    static let command: RunnableCommand = RunnableCommand(
        "init", abstract: "Create a relctl database.",
        discussion: "Creates the database named by --db (or RELCTL_DB, default ./relctl.db). Running it on an existing relctl database changes nothing. It is the only command that creates a database.",
        options: [Shared.dryRun],
        examples: [Example("relctl init --db /srv/release/relctl.db", "Create a database in a shared place.")]
    ) { inv in
        let path = inv.dbPath
        if inv.dryRun {
            // Creating a file cannot be rolled back like a transaction: say what would happen instead.
            let exists = (try? Store(path: path, mode: .read, user: "")) != nil
            // What a real init would print: whether it would create the database.
            inv.render(.object(["db": .string(path), "created": .bool(!exists), "schema": .int(Store.schemaVersion)])) { "" }
            inv.info(exists ? "\(path) is already a relctl database" : "would create \(path)")
            return
        }
        let store = try inv.store(.create)
        let created = try store.initialise(now: inv.now)
        inv.render(.object(["db": .string(store.path), "created": .bool(created), "schema": .int(Store.schemaVersion)])) {
            ""
        }
        inv.info(created ? "created \(path)" : "\(path) is already a relctl database; nothing changed")
    }
}
