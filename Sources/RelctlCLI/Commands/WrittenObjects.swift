import RelctlCore
import RelctlStore

/// Write commands print, under --json, what they created or changed, in
/// the shape the matching `show` or `list` uses, read back after the change.
/// A dry run prints what it would have made, read back from the changes it
/// holds uncommitted (its Session), and changes nothing: they are
/// rolled back before the document is written, which may wait on the reader.
/// A dry run's document is marked as one (`dryRun`), and carries the rows it
/// would change (`changes`, as `log --json` has them) and the impact its
/// preview showed (`impact`, when the change has one).
extension Invocation {
    func printWritten(_ document: () throws -> JSON) throws {
        guard json else { return }
        var doc = try document()
        if dryRun {
            var marks: [(String, JSON)] = [("dryRun", .bool(true)), ("changes", .array((session?.rows ?? []).map(LogCommand.json)))]
            if let impact = previewedImpact { marks.append(("impact", .array(impact.map { .string($0) }))) }
            switch doc {
            case .object(var o):
                for (k, v) in marks { o[k] = v }
                doc = .object(o)
            case .fields(let list): doc = .fields(list + marks)
            default: break
            }
            session?.drop()
        }
        emit(doc)
    }
}
