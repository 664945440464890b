import RelctlCore
import RelctlStore

extension Store {
    /// A project's snapshot with the offsets its messages need.
    func zonedSnapshot(_ project: ProjectRecord) throws -> ProjectSnapshot {
        var s = try snapshot(project)
        ZoneOffsets.fill(&s)
        return s
    }
}
