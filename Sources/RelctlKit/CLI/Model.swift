/// The one declarative description of relctl's interface. Parsing, help,
/// suggestions, completion scripts and the man page are all derived from it.

/// Where a value's completions come from.
public enum Completion: Sendable, Equatable {
    case none
    case file
    case directory
    /// Values stored in the database, produced by `relctl __complete KIND`.
    case dynamic(DynamicValues)
}

public enum DynamicValues: String, Sendable, CaseIterable {
    case projects, platforms, versions, locales, windows
}

public struct Option: Sendable {
    public var long: String
    public var short: Character?
    /// Name of the value in help ("PATH"); nil for a flag.
    public var value: String?
    public var help: String
    public var allowed: [String]
    public var repeatable: Bool
    public var env: String?
    public var defaultValue: String?
    public var completion: Completion
    public var hidden: Bool

    public init(_ long: String, short: Character? = nil, value: String? = nil, help: String,
                allowed: [String] = [], repeatable: Bool = false, env: String? = nil,
                defaultValue: String? = nil, completion: Completion = .none, hidden: Bool = false) {
        self.long = long; self.short = short; self.value = value; self.help = help
        self.allowed = allowed; self.repeatable = repeatable; self.env = env
        self.defaultValue = defaultValue; self.completion = completion; self.hidden = hidden
    }

    public var takesValue: Bool { value != nil }

    /// "-p, --project SLUG"
    public var signature: String {
        var s = short.map { "-\($0), " } ?? ""
        s += "--\(long)"
        if let value { s += " \(value)" }
        return s
    }
}

public struct Argument: Sendable {
    public var name: String
    public var help: String
    public var optional: Bool
    public var repeating: Bool
    public var allowed: [String]
    public var completion: Completion

    public init(_ name: String, help: String, optional: Bool = false, repeating: Bool = false,
                allowed: [String] = [], completion: Completion = .none) {
        self.name = name; self.help = help; self.optional = optional
        self.repeating = repeating; self.allowed = allowed; self.completion = completion
    }

    public var usage: String {
        let core = repeating ? "\(name)..." : name
        return optional ? "[\(core)]" : core
    }
}

public struct Example: Sendable {
    public var command: String
    public var explanation: String
    public init(_ command: String, _ explanation: String) { self.command = command; self.explanation = explanation }
}

public typealias Handler = @Sendable (Invocation) throws -> Void

public struct Command: Sendable {
    public var name: String
    public var abstract: String
    public var discussion: String
    public var arguments: [Argument]
    public var options: [Option]
    public var subcommands: [Command]
    public var examples: [Example]
    public var hidden: Bool
    public var handler: Handler?

    public init(_ name: String, abstract: String, discussion: String = "", arguments: [Argument] = [],
                options: [Option] = [], subcommands: [Command] = [], examples: [Example] = [],
                hidden: Bool = false, handler: Handler? = nil) {
        self.name = name; self.abstract = abstract; self.discussion = discussion
        self.arguments = arguments; self.options = options; self.subcommands = subcommands
        self.examples = examples; self.hidden = hidden; self.handler = handler
    }

    public func subcommand(_ name: String) -> Command? { subcommands.first { $0.name == name } }
    public var visibleSubcommands: [Command] { subcommands.filter { !$0.hidden } }
}

/// Global options, accepted anywhere after `relctl`.
public enum Globals {
    public static let options: [Option] = [
        Option("db", value: "PATH", help: "The relctl database file.", env: "RELCTL_DB",
               defaultValue: "./relctl.db", completion: .file),
        Option("project", short: "p", value: "SLUG", help: "The project to act on; not needed when the database has one project or a default was chosen with 'relctl project use'.",
               env: "RELCTL_PROJECT", completion: .dynamic(.projects)),
        Option("json", help: "Print one JSON document on stdout instead of text."),
        Option("quiet", short: "q", help: "Print no messages on stderr, only data and errors."),
        Option("no-color", help: "Do not colour the output (also when NO_COLOR is set)."),
        Option("help", short: "h", help: "Show help for the command."),
    ]
    public static let version = Option("version", help: "Print relctl's version.")
}

public enum ExitStatus {
    public static let text = "0 on success, 1 when the command failed, 2 when it was used wrongly (an unknown command or option, a missing or invalid argument)."
}

/// Environment variables read by relctl, documented in help and the man page.
public enum Environment {
    /// The options' own variables first, described from the options.
    public static let variables: [(String, String)] = Globals.options.compactMap { o in
        o.env.map { ($0, "\(o.help) Read when --\(o.long) is not given" + (o.defaultValue.map { "; the default is \($0)." } ?? ".")) }
    } + [
        ("TZ", "The local time zone for times given as 'YYYY-MM-DD HH:MM' or 'HH:MM'."),
        ("NO_COLOR", "When set, output is not coloured."),
        ("COLUMNS", "The width help text is wrapped to when stdout is not a terminal (default 80)."),
    ]
}
