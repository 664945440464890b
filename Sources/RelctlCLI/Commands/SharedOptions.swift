/// Options and arguments several commands share, declared once.
enum Shared {
    static let platform: Option = Option("platform", value: "NAME", help: "The platform; not needed when the project has one.",
                                         completion: .dynamic(.platforms), scopesCompletion: true)
    /// --platform where the action applies to each platform named.
    static let platforms: Option = Option("platform", value: "NAME",
                                          help: "The platform, several (--platform ios --platform android, or ios,android) or '\(allPlatforms)'; not needed when the project has one.",
                                          repeatable: true, completion: .dynamic(.platformsOrAll), scopesCompletion: true)
    /// The --platform spelling for every platform of the project.
    static let allPlatforms = "all"
    /// Every command that changes state takes it (a test walks the model to make sure).
    static let dryRun: Option = Option("dry-run", short: "n", help: "Show what would change (and its impact), and change nothing.")
    /// For a removal, which is never made unasked.
    /// The one rule (Preview): a change that alters what users see, or removes something, asks on a terminal and needs --yes elsewhere.
    static let yes: Option = Option("yes", short: "y", help: "Make the change without asking; required when there is no terminal to ask (a script, CI). --dry-run never needs it.")
    /// The store guard's override (StoreGuard): every command that can raise a floor or set a pin takes it.
    static let allowStoreRisk: Option = Option("allow-store-risk", help: "Make the change even though the store evidence does not show what it sends users to served in every storefront ('relctl store show'); the log records it.")
    static let locale: Option = locale("A BCP 47 locale such as en, tr, pt-BR or zh-Hans.")
    static let at: Option = Option("at", value: "TIME", help: "Evaluate at this instant instead of now: " + TimeInput.forms + ".")
    static let version: Argument = Argument("VERSION", help: "A version exactly as the app reports it, like 2.1.0.", completion: .dynamic(.versions))

    /// --locale, with what the locale means for this command.
    static func locale(_ help: String) -> Option {
        Option("locale", value: "LOCALE", help: help, completion: .dynamic(.locales))
    }

    /// --build, with what the build number means for this command.
    static func build(_ help: String) -> Option { Option("build", value: "N", help: help) }

    /// --platform meaning "only this platform" where the default is every platform.
    static func platform(only help: String, completion: Completion? = nil) -> Option {
        var o = platform
        o.help = help
        if let completion { o.completion = completion }
        return o
    }
}
