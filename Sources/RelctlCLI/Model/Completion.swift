/// Where a value's completions come from.
public enum Completion: Sendable, Equatable {
    case none
    case file
    case directory
    /// Values stored in the database, produced by `relctl __complete KIND`.
    case dynamic(DynamicValues)
}

public enum DynamicValues: String, Sendable, CaseIterable {
    case projects, platforms, versions, locales
    /// The platforms and 'all', for a --platform that takes every platform.
    case platformsOrAll = "platforms-or-all"
    /// Maintenance windows that have not begun (cancel); `liveWindows`: and the active ones (edit, message).
    case windows, liveWindows = "live-windows"
    /// relctl's command names (`relctl help ⇥`); no database needed.
    case commands
}
