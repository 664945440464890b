import Dispatch
import Synchronization
import RelctlCore

/// A rendered file with its SHA-256, as index.json records it.
struct HashedFile: Sendable {
    var path: String
    var bytes: [UInt8]
    var sha256: String
}

/// What rendering one project gave.
struct RenderedProject: Sendable {
    var files: [HashedFile]
    var warnings: [String]
    /// What each client would do with these files that `check` does not say.
    var findings: [Finding]
    /// For DIR/index.html (recorded in index.json).
    var summary: StatusSummary
}

/// Renders, verifies and hashes several projects at once, one per core: rendering and
/// hashing are most of a publish, and each project's files depend on it alone.
enum ParallelRender {
    /// `revisions` (each project's own, by slug) asks for the status pages.
    static func render(_ snapshots: [ProjectSnapshot], at: Int64, revisions: [String: Int64]? = nil) throws -> [RenderedProject] {
        let results = Mutex<[Int: Result<RenderedProject, PublishProblem>]>([:])
        DispatchQueue.concurrentPerform(iterations: snapshots.count) { i in
            var warnings: [String] = []
            let result: Result<RenderedProject, PublishProblem>
            do {
                let page = revisions.map { StatusPageOptions(revision: $0[snapshots[i].project.slug] ?? 0) }
                let (files, findings, summary) = try ProjectFiles.renderChecked(snapshots[i], at: at, warnings: &warnings, page: page)
                result = .success(RenderedProject(files: files.map { HashedFile(path: $0.path, bytes: $0.bytes, sha256: SHA256.hex($0.bytes)) },
                                                  warnings: warnings, findings: findings, summary: summary))
            } catch let problem as PublishProblem {
                result = .failure(problem)
            } catch {
                result = .failure(PublishProblem(message: "\(error)", fix: ""))
            }
            results.withLock { $0[i] = result }
        }
        return try results.withLock { done in try (0..<snapshots.count).map { try done[$0]!.get() } }
    }

    /// Checks several projects' files at once, one project per core.
    static func verify(_ snapshots: [ProjectSnapshot], at: Int64, files: [String: [UInt8]]) -> [(findings: [Finding], decisions: Int)] {
        let results = Mutex<[Int: (findings: [Finding], decisions: Int)]>([:])
        DispatchQueue.concurrentPerform(iterations: snapshots.count) { i in
            let result = Fidelity.run(snapshots[i], at: at) { files[$0] }
            results.withLock { $0[i] = result }
        }
        return results.withLock { done in (0..<snapshots.count).map { done[$0]! } }
    }
}
