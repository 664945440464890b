/// A value given to relctl that it cannot accept: a version, name, locale,
/// rule, time or duration. The command line reports it as a usage error.
public struct InputError: Error, Equatable, Sendable {
    public var message: String
    public var hint: String?

    public init(_ message: String, hint: String? = nil) { self.message = message; self.hint = hint }
}
