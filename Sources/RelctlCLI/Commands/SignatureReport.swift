import RelctlCore
import RelctlPublish
import RelctlStore

/// What the signatures of a signing project's live files say at `now`, for
/// verify (every signed file) and status (the tree of the last publish):
/// how long apps obey them, and any file they would ignore.
struct SignatureReport {
    var project: String
    /// The files apps that pin the keys would ignore, and why.
    var problems: [(path: String, why: String)] = []
    /// The live control.json's seal and signers, when it verifies.
    var live: Signatures.Live?

    /// `files`: the tree's files by path (verify reads them all); else read from `root`.
    /// `appcasts`: the project's appcasts among them, in order (each project's
    /// found once for the tree, not by going through every file of it per project).
    init(_ p: ProjectRecord, root: String, files: [String: [UInt8]]? = nil, appcasts: [String] = [], at now: Int64) {
        project = p.slug
        let control = FileKinds.control.path(project: p.slug)
        func bytes(_ path: String) -> [UInt8]? { files.map { $0[path] } ?? FileSystem.regularFile(root + "/" + path) }
        if p.formats.serves(.control) {
            if let b = bytes(control) {
                do { live = try Signatures.live(b, project: p, at: now) } catch { problems.append((control, error.message)) }
            } else { problems.append((control, "it is missing")) }
        }
        for path in appcasts {
            if let bytes = files?[path], let why = Signatures.appcastProblem(bytes, project: p) { problems.append((path, why)) }
        }
    }

    /// Whether the live files lapse within a day.
    func lapsesSoon(at now: Int64) -> Bool { live.map { $0.seal.expiresAt - now < Signing.warnAhead } ?? false }

    func json() -> JSON {
        .object(["project": .string(project), "keyIds": .array((live?.keyIDs ?? []).map { .string($0) }),
                 "revision": .optional(live?.seal.revision), "expiresAt": .time(live?.seal.expiresAt),
                 "problems": .array(problems.map { .object(["path": .string($0.path), "problem": .string($0.why)]) })])
    }

    /// One line for people: valid until when, or why not.
    func line(_ inv: Invocation) -> String {
        guard let live else {
            if problems.isEmpty { return "\(project): no control.json is published (its formats leave it out); its appcasts are signed" }
            return "\(project): signed files apps would ignore: " + problems.map { "\($0.path): \($0.why)" }.joined(separator: "; ")
        }
        let soon = lapsesSoon(at: inv.now) ? " — LAPSING: publish again now (publish --watch renews it \((Signing.validity - Signing.renewAfter) / 86_400) days ahead)" : ""
        return "\(project): control.json signed by key \(live.keyIDs.joined(separator: ", ")), revision \(live.seal.revision), obeyed until \(inv.people(live.seal.expiresAt))\(soon)"
    }
}
