/// What went wrong in a publish, a read of DIR or a file operation, and
/// the fix: the CLI shows it as a failure (exit status 1), or as a usage
/// error (2) for a value the user gave.
public struct PublishError: Error, Equatable, Sendable {
    public var message: String
    public var hint: String?
    public var isUsage = false

    public init(_ message: String, hint: String? = nil) { self.message = message; self.hint = hint }

    public static func usage(_ message: String, hint: String? = nil) -> PublishError {
        var e = PublishError(message, hint: hint)
        e.isUsage = true
        return e
    }
}
