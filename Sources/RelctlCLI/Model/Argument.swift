/// A positional argument of a command.
public struct Argument: Sendable {
    public var name: String
    public var help: String
    public var optional: Bool
    public var repeating: Bool
    public var allowed: [String]
    public var completion: Completion

    public init(_ name: String, help: String, optional: Bool = false, repeating: Bool = false,
                allowed: [String] = [], completion: Completion = .none) {
        self.name = name; self.help = help; self.optional = optional
        self.repeating = repeating; self.allowed = allowed; self.completion = completion
    }

    public var usage: String {
        let core = repeating ? "\(name)..." : name
        return optional ? "[\(core)]" : core
    }
}
