import Dispatch
import Synchronization

/// Turns one project's snapshot into its published files: a pure function of
/// the snapshot and the publish time.
public struct PublishedFile: Sendable {
    public var path: String
    public var bytes: [UInt8]
    public var sha256: String
}

/// What rendering one project gave.
public struct RenderedProject: Sendable {
    public var files: [PublishedFile]
    public var warnings: [String]
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
                files.append(file("\(base)/andversion.json", manifest))
            }
            for locale in locales {
                files.append(file("\(base)/retired/\(locale).json", RetiredFormat.render(state, locale: locale)))
                files.append(file("\(base)/whatsnew/\(locale).json", WhatsNewFormat.render(state, locale: locale)))
                if platform.name == "ios", let lookup = LookupFormat.render(state, locale: locale, warnings: &warnings) {
                    files.append(file("\(base)/lookup/\(locale).json", lookup))
                }
            }
            if platform.name == "ios" {
                files.append(file("\(base)/siren.json", SirenFormat.render(state)))
            }
        }
        files.append(file("\(slug)/control.json", ControlFormat.render(snapshot, states: states, at: at)))
        return files
    }

    static func file(_ path: String, _ document: JSON) -> PublishedFile {
        let bytes = document.compactBytes()
        return PublishedFile(path: path, bytes: bytes, sha256: SHA256.hex(bytes))
    }

    /// Renders several projects at once, one per core: rendering and hashing
    /// are most of a publish, and each project's files depend on it alone.
    public static func render(_ snapshots: [ProjectSnapshot], at: Int64) throws -> [RenderedProject] {
        let results = Mutex<[Int: Result<RenderedProject, PublishProblem>]>([:])
        DispatchQueue.concurrentPerform(iterations: snapshots.count) { i in
            var warnings: [String] = []
            let result: Result<RenderedProject, PublishProblem>
            do {
                result = .success(RenderedProject(files: try files(snapshots[i], at: at, warnings: &warnings), warnings: warnings))
            } catch let problem as PublishProblem {
                result = .failure(problem)
            } catch {
                result = .failure(PublishProblem(message: "\(error)", fix: ""))
            }
            results.withLock { $0[i] = result }
        }
        return try results.withLock { done in try (0..<snapshots.count).map { try done[$0]!.get() } }
    }

    /// index.json: every file with its size and SHA-256, and the revision.
    public static func index(revision: Int64, entries: [String: (size: Int, sha256: String)]) -> [UInt8] {
        JSON.object([
            "revision": .int(revision),
            "files": .object(entries.mapValues { .object(["size": .int($0.size), "sha256": .string($0.sha256)]) }),
        ]).compactBytes()
    }
}
