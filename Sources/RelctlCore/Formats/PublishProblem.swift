/// A problem that stops a publish, or one worth a warning.
public struct PublishProblem: Error, Equatable, Sendable {
    public var message: String
    public var fix: String

    public init(message: String, fix: String) { self.message = message; self.fix = fix }
}
