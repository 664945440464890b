/// A database that cannot be used as asked (missing, corrupt, locked, full,
/// newer, holding a bad row) or a change the data refuses (a duplicate, a
/// floor no release reaches). The command line reports it as a failure.
public struct StoreError: Error, Equatable, Sendable {
    public var message: String
    public var hint: String?

    public init(_ message: String, hint: String? = nil) { self.message = message; self.hint = hint }
}
