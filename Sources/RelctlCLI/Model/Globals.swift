/// Global options, accepted anywhere after `relctl`.
public enum Globals {
    public static let options: [Option] = [
        Option("db", value: "PATH", help: "The relctl database file.", env: "RELCTL_DB",
               defaultValue: "./relctl.db", completion: .file, scopesCompletion: true),
        Option("project", short: "p", value: "SLUG", help: "The project to act on; not needed when the database has one project or a default was chosen with 'relctl project use'.",
               env: "RELCTL_PROJECT", completion: .dynamic(.projects), scopesCompletion: true),
        Option("json", help: "Print one JSON document on stdout instead of text."),
        Option("quiet", short: "q", help: "Print no progress, confirmation or impact messages on stderr; data, warnings (about correctness) and errors still appear."),
        Option("no-color", help: "Do not colour the output (also when NO_COLOR is set and not empty, or TERM is dumb)."),
        Option("help", short: "h", help: "Show help for the command."),
    ]
    public static let version = Option("version", help: "Print relctl's version.")
}

/// What relctl's exit status means, for help and the manual.
public enum ExitStatus {
    public static let codes: [(code: Int32, meaning: String)] = [
        (0, "The command succeeded."),
        (1, "The command failed: a refused change, a missing database, an unreadable file."),
        (2, "The command was used wrongly: an unknown command or option, a missing or invalid argument."),
        (changes, "plan --exit-code: the configuration file would change the database. No error exits with it."),
    ]
    /// `plan --exit-code` when there are changes: a status no error has, so CI tells changes from failures.
    public static let changes: Int32 = 3
    /// The same in one sentence, for --help.
    public static let text = "0 on success, 1 when the command failed, 2 when it was used wrongly (an unknown command or option, a missing or invalid argument), 3 from plan --exit-code when the file would change the database."
}

/// Environment variables read by relctl, documented in help and the man page.
public enum Environment {
    /// The options' own variables first, described from the options.
    public static let variables: [(String, String)] = Globals.options.compactMap { o in
        o.env.map { ($0, "\(o.help) Read when --\(o.long) is not given" + (o.defaultValue.map { "; the default is \($0)." } ?? ".")) }
    } + [
        ("TZ", "The local time zone for times given as 'YYYY-MM-DD HH:MM' or 'HH:MM'."),
        ("NO_COLOR", "When set to a non-empty value, output is not coloured."),
        ("TERM", "When dumb, output is not coloured and publish shows no progress line."),
        ("COLUMNS", "The width help text is wrapped to when stdout is not a terminal (default 80)."),
    ]
}
