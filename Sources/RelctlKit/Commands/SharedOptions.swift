/// Options several commands share, declared once.
enum Shared {
    static let platform: Option = Option("platform", value: "NAME", help: "The platform; not needed when the project has one.",
                                 completion: .dynamic(.platforms))
    static let yes: Option = Option("yes", short: "y", help: "Do not ask for confirmation (required when not on a terminal).")
    static let locale: Option = Option("locale", value: "LOCALE", help: "A BCP 47 locale such as en, tr, pt-BR or zh-Hans.",
                               completion: .dynamic(.locales))
    static let at: Option = Option("at", value: "TIME", help: "Evaluate at this instant instead of now (RFC 3339, 'YYYY-MM-DD HH:MM' or 'HH:MM' local).")
    static let version: Argument = Argument("VERSION", help: "A version exactly as the app reports it, like 2.1.0.", completion: .dynamic(.versions))
}

extension Invocation {
    /// The version row named by the VERSION argument on the resolved platform.
    func versionRecord(in store: Store, platform: PlatformRecord, text: String) throws -> VersionRecord {
        let wanted = try Version(text)
        let all = try store.versions(platform: platform.id, withNotes: false)
        if var exact = all.first(where: { $0.version.text == text }) {
            exact.notes = try store.notes(version: exact.id)
            return exact
        }
        let equal = all.filter { $0.version == wanted }
        let hint = equal.isEmpty
            ? "see 'relctl version list --platform \(platform.name)'"
            : "the platform has \(equal.map(\.version.text).joined(separator: ", ")); versions are matched exactly as the app reports them"
        throw RelctlError.failure("no version \(text) on \(platform.name)\(Suggest.didYouMean(text, all.map(\.version.text)))", hint: hint)
    }

    func locale(_ text: String?) throws -> String? { try text.map(LocaleTag.normalize) }
}
