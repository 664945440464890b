/// Siren-compatible update rules (clients.md): per update type an alert type
/// and a frequency.
public struct Rule: Equatable, Sendable {
    public var alert: String
    public var frequency: String

    public static let alerts = ["force", "option", "skip", "none"]
    public static let frequencies = ["immediately", "daily", "weekly"]

    public static let presets: [(String, Rule)] = [
        ("critical", Rule(alert: "force", frequency: "immediately")),
        ("annoying", Rule(alert: "option", frequency: "immediately")),
        ("default", Rule(alert: "skip", frequency: "daily")),
        ("hinting", Rule(alert: "option", frequency: "weekly")),
        ("persistent", Rule(alert: "option", frequency: "daily")),
        ("relaxed", Rule(alert: "skip", frequency: "weekly")),
    ]

    public static func parse(_ text: String) throws -> Rule {
        if let preset = presets.first(where: { $0.0 == text }) { return preset.1 }
        let parts = text.split(separator: "/").map(String.init)
        let names = presets.map(\.0)
        guard parts.count == 2, alerts.contains(parts[0]), frequencies.contains(parts[1]) else {
            throw InputError("invalid rule '\(text)'\(Suggest.didYouMean(text, names))",
                                    hint: "use a preset (\(names.joined(separator: ", "))) or ALERT/FREQUENCY with ALERT one of \(alerts.joined(separator: ", ")) and FREQUENCY one of \(frequencies.joined(separator: ", ")), like skip/weekly")
        }
        return Rule(alert: parts[0], frequency: parts[1])
    }

    /// The preset's name when it is one, else "alert/frequency".
    public var name: String { Rule.presets.first { $0.1 == self }?.0 ?? "\(alert)/\(frequency)" }
    public var skipAllowed: Bool { alert == "skip" }
}
