/// An option of a command: `--long`, maybe `-s`, maybe a value.
public struct Option: Sendable {
    public var long: String
    public var short: Character?
    /// Name of the value in help ("PATH"); nil for a flag.
    public var value: String?
    public var help: String
    public var allowed: [String]
    /// Values completion offers where others are accepted too (rule presets beside ALERT/FREQUENCY).
    public var suggested: [String]
    public var repeatable: Bool
    public var env: String?
    public var defaultValue: String?
    public var completion: Completion
    public var hidden: Bool
    /// The completion callback is told this option's value when it is on
    /// the line (--db, --project, --platform scope the candidates).
    public var scopesCompletion: Bool

    public init(_ long: String, short: Character? = nil, value: String? = nil, help: String,
                allowed: [String] = [], suggested: [String] = [], repeatable: Bool = false, env: String? = nil,
                defaultValue: String? = nil, completion: Completion = .none, hidden: Bool = false,
                scopesCompletion: Bool = false) {
        self.long = long; self.short = short; self.value = value; self.help = help
        self.allowed = allowed; self.suggested = suggested; self.repeatable = repeatable; self.env = env
        self.defaultValue = defaultValue; self.completion = completion; self.hidden = hidden
        self.scopesCompletion = scopesCompletion
    }

    public var takesValue: Bool { value != nil }

    /// What completion offers for the value: the allowed values, else the suggested ones.
    public var completionValues: [String] { allowed.isEmpty ? suggested : allowed }

    /// "-p, --project SLUG"
    public var signature: String {
        var s = short.map { "-\($0), " } ?? ""
        s += "--\(long)"
        if let value { s += " \(value)" }
        return s
    }
}
