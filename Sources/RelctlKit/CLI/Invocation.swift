/// One run of one command: its parsed input and the helpers every handler
/// shares (stores, project and platform resolution, output).
public final class Invocation {
    public let context: Context
    public let parsed: ParsedCommand
    let arguments: [String: [String]]

    init(context: Context, parsed: ParsedCommand, arguments: [String: [String]]) {
        self.context = context; self.parsed = parsed; self.arguments = arguments
    }

    // MARK: input

    public func arg(_ name: String) -> String? { arguments[name]?.first }
    public func args(_ name: String) -> [String] { arguments[name] ?? [] }

    public func option(_ long: String) -> Option? {
        (parsed.command.options + Globals.options).first { $0.long == long }
    }

    /// The option's value: given, else its environment variable, else its default.
    public func value(_ long: String) -> String? {
        if let v = parsed.values[long]?.last { return v }
        if let o = option(long) {
            if let env = o.env, let v = context.env[env], !v.isEmpty { return v }
            return o.defaultValue
        }
        return nil
    }

    public func values(_ long: String) -> [String] { parsed.values[long] ?? [] }
    public func flag(_ long: String) -> Bool { parsed.values[long] != nil }
    public func given(_ long: String) -> Bool { parsed.values[long] != nil }

    public var json: Bool { flag("json") }
    public var quiet: Bool { flag("quiet") }
    public var now: Int64 { context.clock() }
    public var timeZone: String? { context.env["TZ"] }
    public var dbPath: String { value("db") ?? "./relctl.db" }

    public func time(_ text: String) throws -> Int64 { try Time.parse(text, now: now, timeZone: timeZone) }

    // MARK: output

    public func out(_ s: String) { context.stdout.write(s) }
    public func line(_ s: String) { context.stdout.write(s + "\n") }
    /// A message about what happened, on stderr; -q silences it.
    public func info(_ s: String) { if !quiet { context.stderr.write(s + "\n") } }
    /// Warnings stay visible under -q: they are about correctness.
    public func warn(_ s: String) { context.stderr.write("warning: " + s + "\n") }
    /// Indented for a person on a terminal, compact for a program (as gh does).
    public func emit(_ document: JSON) {
        if context.stdoutIsTerminal { out(document.rendered()) }
        else { context.stdout.write(bytes: document.compactBytes()) }
    }

    /// Prints the JSON document under --json, else the text.
    public func render(_ document: @autoclosure () -> JSON, text: () -> String) {
        if json { emit(document()) } else { out(text()) }
    }

    /// Destructive actions ask on a terminal and need --yes elsewhere.
    public func confirm(_ question: String) throws {
        if flag("yes") { return }
        guard context.stdinIsTerminal else {
            throw RelctlError.usage("\(question.dropLast()) needs confirmation", hint: "add --yes to confirm when not on a terminal")
        }
        context.stderr.write(question + " [y/N] ")
        context.stderr.flush()
        let answer = (context.readLine() ?? "").trimmingSpaces().lowercased()
        guard answer == "y" || answer == "yes" else { throw RelctlError.failure("cancelled; nothing was changed") }
    }

    // MARK: database

    public func store(_ mode: Store.Mode = .write) throws -> Store {
        try Store(path: dbPath, mode: mode, user: context.user)
    }

    public func project(in store: Store) throws -> ProjectRecord {
        if let slug = value("project") {
            if let p = try store.project(slug: slug) { return p }
            let all = try store.projectSlugs()
            throw RelctlError.failure("no project '\(slug)'\(Suggest.didYouMean(slug, all))",
                                      hint: all.isEmpty ? "add one with 'relctl project add \(slug) --name NAME'" : "known projects: \(all.joined(separator: ", "))")
        }
        if let slug = try store.meta("default_project"), let p = try store.project(slug: slug) { return p }
        let all = try store.projectSlugs()
        switch all.count {
        case 0: throw RelctlError.failure("no project yet", hint: "add one with 'relctl project add SLUG --name NAME'")
        case 1: return try store.project(slug: all[0])!
        default:
            throw RelctlError.usage("several projects (\(all.joined(separator: ", "))): which one?",
                                    hint: "choose with -p SLUG, or set a default with 'relctl project use SLUG'")
        }
    }

    public func platform(in store: Store, project: ProjectRecord) throws -> PlatformRecord {
        let all = try store.platforms(project: project.id)
        if let name = value("platform") {
            let wanted = name.lowercased()
            if let p = all.first(where: { $0.name == wanted }) { return p }
            throw RelctlError.failure("project '\(project.slug)' has no platform '\(name)'\(Suggest.didYouMean(name, all.map(\.name)))",
                                      hint: all.isEmpty ? "add one with 'relctl platform add \(wanted) --bundle-id ID'" : "its platforms: \(all.map(\.name).joined(separator: ", "))")
        }
        switch all.count {
        case 0: throw RelctlError.failure("project '\(project.slug)' has no platform yet", hint: "add one with 'relctl platform add ios --bundle-id ID'")
        case 1: return all[0]
        default:
            throw RelctlError.usage("project '\(project.slug)' has several platforms (\(all.map(\.name).joined(separator: ", "))): which one?",
                                    hint: "add --platform \(all[0].name)")
        }
    }
}
