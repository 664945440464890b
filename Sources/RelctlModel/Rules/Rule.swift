/// Siren-compatible update rules (docs/clients.md): per update type an alert type
/// and a frequency.
public struct Rule: Equatable, Sendable {
    /// What the app shows (Siren's alert types); the raw value is the word stored and printed.
    public enum Alert: String, Sendable, CaseIterable {
        /// The update is required.
        case force
        /// Recommended, with no way to skip this version.
        case option
        /// Recommended, and this version may be skipped.
        case skip
        /// Nothing is shown.
        case none
    }
    /// How often a dismissed prompt comes back.
    public enum Frequency: String, Sendable, CaseIterable { case immediately, daily, weekly }

    public var alert: Alert
    public var frequency: Frequency

    public init(alert: Alert, frequency: Frequency) { self.alert = alert; self.frequency = frequency }

    public static let alerts = Alert.allCases.map(\.rawValue)
    public static let frequencies = Frequency.allCases.map(\.rawValue)

    public static let presets: [(String, Rule)] = [
        ("critical", Rule(alert: .force, frequency: .immediately)),
        ("annoying", Rule(alert: .option, frequency: .immediately)),
        ("default", Rule(alert: .skip, frequency: .daily)),
        ("hinting", Rule(alert: .option, frequency: .weekly)),
        ("persistent", Rule(alert: .option, frequency: .daily)),
        ("relaxed", Rule(alert: .skip, frequency: .weekly)),
    ]

    public static func parse(_ text: String) throws -> Rule {
        if let preset = presets.first(where: { $0.0 == text }) { return preset.1 }
        let parts = text.split(separator: "/").map(String.init)
        let names = presets.map(\.0)
        guard parts.count == 2, let alert = Alert(rawValue: parts[0]), let frequency = Frequency(rawValue: parts[1]) else {
            throw InputError("invalid rule '\(text)'\(Suggest.didYouMean(text, names))",
                                    hint: "use a preset (\(names.joined(separator: ", "))) or ALERT/FREQUENCY with ALERT one of \(alerts.joined(separator: ", ")) and FREQUENCY one of \(frequencies.joined(separator: ", ")), like skip/weekly")
        }
        return Rule(alert: alert, frequency: frequency)
    }

    /// The preset's name when it is one, else "alert/frequency".
    public var name: String { Rule.presets.first { $0.1 == self }?.0 ?? "\(alert.rawValue)/\(frequency.rawValue)" }
    public var skipAllowed: Bool { alert == .skip }
}
