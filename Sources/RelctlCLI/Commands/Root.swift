/// The whole command tree: the single source of relctl's interface.
public enum Relctl {
    public static let tree: RunnableCommand = RunnableCommand(
        "relctl", abstract: "Release control for apps: versions, forced and recommended updates, maintenance windows, published as static files.",
        discussion: "relctl keeps an app's release-control configuration in one SQLite database and publishes it as static files that client libraries download on launch.",
        subcommands: [
            InitCommand.command, ProjectCommands.command, PlatformCommands.command, VersionCommands.command,
            NotesCommands.command, FloorCommands.force, FloorCommands.recommend, RolloutCommands.command, PolicyCommands.command,
            RulesCommands.command, MaintenanceCommands.command, MessageCommands.command, CheckCommand.command,
            StatusCommand.command, PublishCommand.command, VerifyCommand.command, DeployCommand.command, PushCommand.command, ImportCommands.command, LogCommand.command, UndoCommands.undo, UndoCommands.revert, ExportCommand.command, ConfigCommands.plan, ConfigCommands.apply, ApproveCommand.command, KeysCommands.command, StoreCommands.command, ConformanceCommand.command, CompletionCommand.command,
            HelpCommand.command, CompletionCommand.callback, ModelCommands.manpage, ModelCommands.spec,
        ],
        examples: [
            Example("relctl init", "Create ./relctl.db."),
            Example("relctl project add shop --name \"Shop\"", "Add an app."),
            Example("relctl platform add ios --bundle-id com.example.shop --app-store-id 1088280260", "Add its iOS platform."),
            Example("relctl version add 2.1.0 --platform ios --build 210 --notes \"Faster checkout\"", "Record a release."),
        ]
    )
}
