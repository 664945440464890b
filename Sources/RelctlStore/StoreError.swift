import RelctlCore

/// A database that cannot be used as asked (missing, corrupt, locked, full,
/// newer, holding a bad row) or a change the data refuses (a duplicate, a
/// floor no release reaches). The command line reports it as a failure.
/// A fix that is a relctl command is named as data (`fix`); only the
/// command line spells it.
public struct StoreError: Error, Equatable, Sendable {
    public var message: String
    public var fix: Fix?

    public init(_ message: String, hint: String? = nil) { self.message = message; self.fix = hint.map(Fix.advice) }
    public init(_ message: String, fix: Fix) { self.message = message; self.fix = fix }
}
