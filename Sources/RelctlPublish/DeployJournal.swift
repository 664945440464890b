#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import RelctlCore

/// The deletions `relctl deploy` owes each remote, kept in DIR
/// (`DIR/.relctl-deploy`, written under the publish lock deploy holds).
///
/// Deploy replaces the remote's index.json before it deletes what no longer
/// belongs, so readers never meet a release whose files are gone. Killed
/// between the two, the remote keeps files that its new index.json no longer
/// names, and a later deploy, comparing the two indexes, would never see
/// them. So the deletions are recorded before index.json is sent and
/// dropped once rclone has made them: the next deploy to that remote makes
/// those still owed (a path published again meanwhile is an upload instead).
package struct DeployJournal: Equatable {
    package static let name = ".relctl-deploy"
    /// Paths under DIR, by remote as given to deploy.
    package var pending: [String: [String]] = [:]

    /// What DIR's journal records; nothing when it is missing, not a regular
    /// file (a link is never followed), or not one this relctl wrote.
    package static func read(root: String) -> DeployJournal {
        var journal = DeployJournal()
        let path = root + "/" + name
        guard FileSystem.kind(of: path, followLinks: false) == .file,
              let bytes = try? FileSystem.readFile(path, limit: FileSystem.inputLimit),
              case .object(let top)? = try? JSONReader.parse(bytes), case .object(let remotes)? = top["pending"] else { return journal }
        for (remote, list) in remotes {
            guard case .array(let paths) = list else { continue }
            let safe = paths.compactMap { value -> String? in
                guard case .string(let p) = value, TreeFiles.isSafe(p), p != "index.json" else { return nil }
                return p
            }
            if !safe.isEmpty { journal.pending[remote] = safe.sorted() }
        }
        return journal
    }

    /// Replaces DIR's journal (through a fresh temporary, never a write
    /// through what is at the name), or removes it when nothing is owed.
    package func write(root: String) throws {
        let path = root + "/" + DeployJournal.name
        if pending.isEmpty {
            if FileSystem.kind(of: path, followLinks: false) != .missing { unlink(path) }
            return
        }
        let doc = JSON.object(["pending": .object(pending.mapValues { .array($0.map { .string($0) }) })])
        try TreeFiles.replace(DeployJournal.name, in: root, with: doc.compactBytes())
    }
}
