import RelctlCore
import RelctlStore

/// `relctl force` and `relctl recommend`: the floors below which versions
/// must or should update.
enum FloorCommands {
    static let build: Option = Shared.build("With a version equal to the floor, builds below N are below the floor too.")
    static let clear: Option = Option("clear", help: "Remove the floor.")
    static let floorArgument: Argument = Argument("VERSION", help: "The floor: versions below it are affected.", optional: true,
                                                  completion: .dynamic(.versions))

    static let force: RunnableCommand = RunnableCommand(
        "force", abstract: "Make every version below VERSION update (required update).",
        discussion: "Refused when no released version at or above VERSION exists on the platform, since users would be sent to an update they cannot install; --allow-unreleased overrides that with a warning.",
        arguments: [floorArgument],
        options: [Shared.platforms, build, Option("allow-unreleased", help: "Set the floor even though no released version reaches it."), clear, Shared.dryRun, Shared.yes],
        examples: [Example("relctl force 2.0 --platform ios", "Everything below 2.0 on iOS must update."),
                   Example("relctl force 2.0.1 --platform all", "A security fix: everything below 2.0.1 must update, on every platform."),
                   Example("relctl force --clear --platform ios", "Remove the iOS force floor.")]
    ) { inv in try setFloor(inv, kind: .force) }

    static let recommend: RunnableCommand = RunnableCommand(
        "recommend", abstract: "Ask every version below VERSION to update (optional update).",
        discussion: "Refused when VERSION is above the newest released version on the platform.",
        arguments: [floorArgument],
        options: [Shared.platforms, build, clear, Shared.dryRun, Shared.yes],
        examples: [Example("relctl recommend 2.1 --platform android", "Everything below 2.1 on Android should update.")]
    ) { inv in try setFloor(inv, kind: .recommend) }

    static func setFloor(_ inv: Invocation, kind: Store.FloorKind) throws {
        let word = kind.rawValue
        let clearing = inv.flag("clear")
        if clearing && (inv.arg("VERSION") != nil || inv.flag("build")) {
            throw RelctlError.usage("--clear takes no version or build", hint: "run 'relctl \(word) --clear' alone")
        }
        if !clearing && inv.arg("VERSION") == nil {
            throw RelctlError.usage("missing VERSION", hint: "give the floor, like 'relctl \(word) 2.0', or --clear to remove it")
        }
        let floor = try inv.arg("VERSION").map { Floor(version: try Version($0), build: try inv.value("build").map(parseBuild)) }
        let (store, project, platforms) = try inv.targets()
        let moves = platforms.compactMap { Impact.floorMove(word, platform: $0.name, from: kind == .force ? $0.force : $0.recommend, to: floor) }
        let reached = try inv.guarded(store, project, moves: moves, change: { snapshot in
            for i in snapshot.platforms.indices where platforms.contains(where: { $0.id == snapshot.platforms[i].id }) {
                if kind == .force { snapshot.platforms[i].force = floor } else { snapshot.platforms[i].recommend = floor }
            }
        }) {
            try store.setFloor(kind, of: platforms, in: project, to: floor, allowUnreleased: inv.flag("allow-unreleased"), now: inv.now)
        }
        for (p, reached) in zip(platforms, reached) {
            if let floor, !reached {
                inv.warn("no released version of \(p.name) is at or above \(floor.text): users below it are forced to an update they cannot install yet")
            }
            inv.info(floor.map { "\(p.name): versions below \($0.text) \(kind == .force ? "must" : "should") update" } ?? "cleared the \(word) floor of \(p.name)")
        }
        try inv.printWritten { try PolicyCommands.document(store, platforms, project: project) }
    }
}
