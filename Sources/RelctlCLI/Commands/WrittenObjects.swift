import RelctlCore
import RelctlStore

/// Write commands print, under --json, what they created or changed, in
/// the shape the matching `show` or `list` uses, read back after the change.
/// A dry run prints what it would have made, read back from the changes it
/// holds uncommitted (Store.holdsChanges), and changes nothing.
extension Invocation {
    func printWritten(_ document: () throws -> JSON) throws {
        if json { emit(try document()) }
    }
}
