/// The whole command tree: the single source of relctl's interface.
public enum Relctl {
    public static let tree: RunnableCommand = RunnableCommand(
        "relctl", abstract: "Release control for apps: versions, forced and recommended updates, maintenance windows, published as static files.",
        discussion: "relctl keeps an app's release-control configuration in one SQLite database and publishes it as static files that client libraries download on launch.",
        // Each group by its name, built only when a command line reaches it (RunnableCommand.Group);
        // `ModelTests.testEachGroupIsDeclaredByItsOwnName` holds the names to the commands'.
        groups: [
            .group("init") { InitCommand.command },
            .group("project") { ProjectCommands.command },
            .group("platform") { PlatformCommands.command },
            .group("version") { VersionCommands.command },
            .group("notes") { NotesCommands.command },
            .group("force") { FloorCommands.force },
            .group("recommend") { FloorCommands.recommend },
            .group("rollout") { RolloutCommands.command },
            .group("policy") { PolicyCommands.command },
            .group("rules") { RulesCommands.command },
            .group("maintenance") { MaintenanceCommands.command },
            .group("message") { MessageCommands.command },
            .group("check") { CheckCommand.command },
            .group("status") { StatusCommand.command },
            .group("publish") { PublishCommand.command },
            .group("verify") { VerifyCommand.command },
            .group("deploy") { DeployCommand.command },
            .group("push") { PushCommand.command },
            .group("import") { ImportCommands.command },
            .group("log") { LogCommand.command },
            .group("undo") { UndoCommands.undo },
            .group("revert") { UndoCommands.revert },
            .group("export") { ExportCommand.command },
            .group("plan") { ConfigCommands.plan },
            .group("apply") { ConfigCommands.apply },
            .group("approve") { ApproveCommand.command },
            .group("keys") { KeysCommands.command },
            .group("store") { StoreCommands.command },
            .group("conformance") { ConformanceCommand.command },
            .group("completion") { CompletionCommand.command },
            .group("help") { HelpCommand.command },
            .group("__complete", hidden: true) { CompletionCommand.callback },
            .group("__manpage", hidden: true) { ModelCommands.manpage },
            .group("__spec", hidden: true) { ModelCommands.spec },
        ],
        examples: [
            Example("relctl init", "Create ./relctl.db."),
            Example("relctl project add shop --name \"Shop\"", "Add an app."),
            Example("relctl platform add ios --bundle-id com.example.shop --app-store-id 1088280260", "Add its iOS platform."),
            Example("relctl version add 2.1.0 --platform ios --build 210 --notes \"Faster checkout\"", "Record a release."),
        ]
    )
}
