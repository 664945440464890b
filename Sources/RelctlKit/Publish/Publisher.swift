/// Turns one project's snapshot into its published files: a pure function of
/// the snapshot and the publish time.
public struct PublishedFile {
    public var path: String
    public var bytes: [UInt8]
}

public enum Publisher {
    public static func files(_ snapshot: ProjectSnapshot, at: Int64, warnings: inout [String]) throws -> [PublishedFile] {
        let evaluator = Evaluator(snapshot)
        let slug = snapshot.project.slug
        let locales = snapshot.publishedLocales
        var files: [PublishedFile] = []
        var states: [PlatformState] = []
        for platform in snapshot.platforms {
            let state = PlatformState(evaluator, platform, at: at)
            states.append(state)
            let base = "\(slug)/\(platform.name)"
            if let manifest = try AndVersionFormat.render(state, warnings: &warnings) {
                files.append(PublishedFile(path: "\(base)/andversion.json", bytes: manifest.compactBytes()))
            }
            for locale in locales {
                files.append(PublishedFile(path: "\(base)/retired/\(locale).json", bytes: RetiredFormat.render(state, locale: locale).compactBytes()))
                files.append(PublishedFile(path: "\(base)/whatsnew/\(locale).json", bytes: WhatsNewFormat.render(state, locale: locale).compactBytes()))
                if platform.name == "ios", let lookup = LookupFormat.render(state, locale: locale, warnings: &warnings) {
                    files.append(PublishedFile(path: "\(base)/lookup/\(locale).json", bytes: lookup.compactBytes()))
                }
            }
            if platform.name == "ios" {
                files.append(PublishedFile(path: "\(base)/siren.json", bytes: SirenFormat.render(state).compactBytes()))
            }
        }
        files.append(PublishedFile(path: "\(slug)/control.json", bytes: ControlFormat.render(snapshot, states: states, at: at).compactBytes()))
        return files
    }

    /// index.json: every file with its size and SHA-256, and the revision.
    public static func index(revision: Int64, entries: [String: (size: Int, sha256: String)]) -> [UInt8] {
        JSON.object([
            "revision": .int(revision),
            "files": .object(entries.mapValues { .object(["size": .int($0.size), "sha256": .string($0.sha256)]) }),
        ]).compactBytes()
    }
}
