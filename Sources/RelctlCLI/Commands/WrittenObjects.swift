import RelctlCore
import RelctlStore

/// Write commands print, under --json, what they created or changed, in
/// the shape the matching `show` or `list` uses, read back after the change.
/// A dry run changes nothing and prints nothing on stdout (its messages and
/// impact go to stderr).
extension Invocation {
    func printWritten(_ document: () throws -> JSON) throws {
        if json && !dryRun { emit(try document()) }
    }
}
