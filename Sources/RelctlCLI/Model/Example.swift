/// A command line shown in help and the manual, with what it does.
public struct Example: Sendable {
    public var command: String
    public var explanation: String
    public init(_ command: String, _ explanation: String) { self.command = command; self.explanation = explanation }
}
