import RelctlCore
import RelctlStore

extension Store {
    /// A project's snapshot with the offsets its messages need (`notesShownAt`: see Store.snapshot).
    func zonedSnapshot(_ project: ProjectRecord, notesShownAt t: Int64? = nil) throws -> ProjectSnapshot {
        var s = try snapshot(project, notesShownAt: t)
        ZoneOffsets.fill(&s)
        return s
    }
}
