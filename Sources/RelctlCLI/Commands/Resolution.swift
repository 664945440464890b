import RelctlCore
import RelctlStore

/// Opening the database and resolving the project and platform a command
/// acts on: --project, else the default project, else the only one.
extension Invocation {
    func store(_ mode: Store.Mode = .write) throws -> Store {
        // A store opened to read writes no audit row: nobody is looked up for it.
        try Store(path: dbPath, mode: mode, user: mode == .read ? "" : context.user)
    }

    /// The store, project and platform of a command that changes one platform.
    func target() throws -> (store: Store, project: ProjectRecord, platform: PlatformRecord) {
        let store = try store()
        let project = try project(in: store)
        return (store, project, try platform(in: store, project: project))
    }

    /// The store, project and platforms of a command that can act on several:
    /// `--platform ios --platform android`, `--platform ios,android` or
    /// `--platform all`; without --platform, the only platform.
    func targets() throws -> (store: Store, project: ProjectRecord, platforms: [PlatformRecord]) {
        let store = try store()
        let project = try project(in: store)
        return (store, project, try platforms(in: store, project: project))
    }

    func platforms(in store: Store, project: ProjectRecord) throws -> [PlatformRecord] {
        let names = values("platform").flatMap { $0.split(separator: ",", omittingEmptySubsequences: false).map { String($0).trimmingSpaces() } }
        if names.isEmpty { return [try platform(in: store, project: project)] }
        let all = try store.platforms(project: project.id)
        if names.contains(where: { $0.lowercased() == Shared.allPlatforms }) {
            if all.isEmpty { return [try platform(in: store, project: project)] }
            return all
        }
        var chosen: [PlatformRecord] = []
        for name in names {
            if name.isEmpty {
                throw RelctlError.usage("an empty platform name in --platform", hint: "separate names with one comma, like --platform ios,android")
            }
            let p = try platform(named: name, among: all, project: project)
            if !chosen.contains(where: { $0.id == p.id }) { chosen.append(p) }
        }
        return chosen
    }

    /// The platform `name` among the project's platforms `all`, as read once.
    private func platform(named name: String, among all: [PlatformRecord], project: ProjectRecord) throws -> PlatformRecord {
        let wanted = name.lowercased()
        if let p = all.first(where: { $0.name == wanted }) { return p }
        throw RelctlError.failure("project '\(project.slug)' has no platform '\(name)'\(Suggest.didYouMean(name, all.map(\.name)))",
                                  hint: all.isEmpty ? "add one with 'relctl platform add \(wanted) --bundle-id ID'" : "its platforms: \(all.map(\.name).joined(separator: ", "))")
    }

    func project(in store: Store) throws -> ProjectRecord {
        if let p = try chosenProject(in: store) { return p }
        let all = try store.projectSlugs()
        switch all.count {
        case 0: throw RelctlError.failure("no project yet", hint: "add one with 'relctl project add SLUG --name NAME'")
        case 1: return try store.requireProject(all[0])
        default:
            throw RelctlError.usage("\(all.count) projects (\(Suggest.few(all))): which one?",
                                    hint: "choose with -p SLUG, or set a default with 'relctl project use SLUG'")
        }
    }

    /// The project of -p (or RELCTL_PROJECT), else the default project; nil when neither is set.
    func chosenProject(in store: Store) throws -> ProjectRecord? {
        if let slug = value("project") { return try store.requireProject(slug) }
        if let slug = try store.defaultProject, let p = try store.project(slug: slug) { return p }
        return nil
    }

    /// The platform named `name` (an argument), else by --platform, else the only one.
    func platform(in store: Store, project: ProjectRecord, named name: String? = nil) throws -> PlatformRecord {
        let all = try store.platforms(project: project.id)
        if name == nil, let given = value("platform"), given.contains(",") || given.lowercased() == Shared.allPlatforms {
            // Said plainly rather than "no platform 'ios,android'": this command acts on one.
            let names = given.lowercased() == Shared.allPlatforms ? all.map(\.name) : given.split(separator: ",").map { $0.trimmingSpaces() }
            let command = (["relctl"] + parsed.path.dropFirst().map(\.name)).joined(separator: " ")
            throw RelctlError.usage("'\(command)' takes one platform, not '\(given)'",
                                    hint: "run it once per platform: " + names.map { "--platform \($0)" }.joined(separator: ", then "))
        }
        if let name = name ?? value("platform") { return try platform(named: name, among: all, project: project) }
        switch all.count {
        case 0: throw RelctlError.failure("project '\(project.slug)' has no platform yet", hint: "add one with 'relctl platform add ios --bundle-id ID'")
        case 1: return all[0]
        default:
            // Where the command takes several platforms, every platform is the likely intent (a security fix).
            let several = parsed.command.options.contains { $0.long == "platform" && $0.repeatable }
            let choices = (several ? [Shared.allPlatforms] : []) + all.map(\.name)
            throw RelctlError.usage("project '\(project.slug)' has several platforms (\(all.map(\.name).joined(separator: ", "))): which one?",
                                    hint: "'\(commandLine(adding: ["--platform", choices[0]]))', or --platform \(choices.dropFirst().joined(separator: ", --platform "))")
        }
    }

    /// --platform of a maintenance window: one platform, or nil for every
    /// platform (no --platform, or 'all'); a window covers one or all.
    func windowScope(in store: Store, project: ProjectRecord) throws -> PlatformRecord? {
        guard let given = value("platform"), given.lowercased() != Shared.allPlatforms else { return nil }
        if given.contains(",") {
            throw RelctlError.usage("a maintenance window covers one platform or every one, not '\(given)'",
                                    hint: "leave out --platform for every platform, or give one and run the command again for the next")
        }
        return try platform(in: store, project: project)
    }

    /// A BCP 47 locale option, normalised.
    func locale(_ text: String?) throws -> String? { try text.map(LocaleTag.normalize) }
}
