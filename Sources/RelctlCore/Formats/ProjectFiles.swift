/// One published file: its path under DIR and its bytes.
public struct PublishedFile: Sendable {
    public var path: String
    public var bytes: [UInt8]

    public init(path: String, bytes: [UInt8]) { self.path = path; self.bytes = bytes }
}

/// Every file of one project: a pure function of its snapshot and the
/// publish time.
public enum ProjectFiles {
    public static func render(_ snapshot: ProjectSnapshot, at: Int64, warnings: inout [String]) throws -> [PublishedFile] {
        let evaluator = Evaluator(snapshot)
        let slug = snapshot.project.slug
        let locales = snapshot.publishedLocales
        var files: [PublishedFile] = []
        var states: [PlatformState] = []
        for platform in snapshot.platforms {
            let state = PlatformState(evaluator, platform, at: at)
            states.append(state)
            let base = "\(slug)/\(platform.name)"
            // What every locale's files share, rendered once per platform.
            let retiredVersions = RetiredFormat.versions(state)
            let whatsNewParts = WhatsNewFormat.listed(state).map(WhatsNewFormat.parts)
            if let manifest = try AndVersionFormat.render(state, warnings: &warnings) {
                files.append(file("\(base)/andversion.json", manifest))
            }
            if let feed = AppcastFormat.render(state, locales: locales, warnings: &warnings) {
                files.append(PublishedFile(path: "\(base)/appcast.xml", bytes: feed))
            }
            for locale in locales {
                files.append(file("\(base)/retired/\(locale).json", RetiredFormat.render(state, versions: retiredVersions, locale: locale)))
                files.append(file("\(base)/whatsnew/\(locale).json", WhatsNewFormat.render(state, parts: whatsNewParts, locale: locale)))
                if platform.name == "ios", let lookup = LookupFormat.render(state, locale: locale, warnings: &warnings) {
                    files.append(file("\(base)/lookup/\(locale).json", lookup))
                }
            }
            if platform.name == "ios" {
                files.append(file("\(base)/siren.json", SirenFormat.render(state)))
            }
        }
        if let pov = PrinceOfVersionsFormat.render(states, warnings: &warnings) {
            files.append(file("\(slug)/prince-of-versions.json", pov))
        }
        files.append(file("\(slug)/control.json", ControlFormat.render(snapshot, states: states, at: at)))
        return files
    }

    static func file(_ path: String, _ document: JSON) -> PublishedFile {
        PublishedFile(path: path, bytes: document.compactBytes())
    }
}
