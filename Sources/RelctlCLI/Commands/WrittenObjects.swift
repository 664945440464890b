import RelctlCore
import RelctlStore

/// Write commands print, under --json, what they created or changed, in
/// the shape the matching `show` or `list` uses, read back after the change.
/// A dry run prints what it would have made, read back from the changes it
/// holds uncommitted (Store.holdsChanges), and changes nothing: they are
/// rolled back before the document is written, which may wait on the reader.
extension Invocation {
    func printWritten(_ document: () throws -> JSON) throws {
        guard json else { return }
        let doc = try document()
        if dryRun { dropDryRun() }
        emit(doc)
    }
}
