/// Hints show commands to paste ("change it with 'relctl version edit 2.1.0'").
/// Written where the error arises, they cannot know the options the user
/// typed; here every quoted relctl command in a hint gains the scope the
/// user gave (--db, -p, --platform) so that it works as printed.
enum PastedHints {
    /// The options a user gave that a hinted command needs to act on the same thing.
    static let carried = ["db", "project", "platform"]

    static func carry(_ hint: String, from line: ParsedCommand, root: Command) -> String {
        // Quoted stretches alternate with plain text: "a 'relctl x' b" splits into a, relctl x, b.
        let parts = hint.split(separator: "'", omittingEmptySubsequences: false)
        guard parts.count >= 3 else { return hint }
        return parts.enumerated().map { i, part in
            i % 2 == 1 && i < parts.count - 1 && part.hasPrefix("relctl ") ? completed(String(part), line: line, root: root) : String(part)
        }.joined(separator: "'")
    }

    /// The command with the carried options the user gave and it lacks.
    static func completed(_ command: String, line: ParsedCommand, root: Command) -> String {
        let words = split(command).dropFirst()
        guard let hinted = try? Parser.parse(Array(words), root: root) else { return command }
        var text = command
        for long in carried {
            guard let given = line.values[long], !given.isEmpty, hinted.values[long] == nil,
                  let option = Parser.options(for: hinted.command).first(where: { $0.long == long }) else { continue }
            // A command for one platform cannot take 'ios,android' or 'all'.
            if long == "platform" && !option.repeatable && (given.count > 1 || given[0].contains(",") || given[0].lowercased() == Shared.allPlatforms) { continue }
            for value in given { text += " " + spelled(option) + " " + quoted(value) }
        }
        return text
    }

    /// "-p" for the project, as people type it; the long name otherwise.
    static func spelled(_ o: Option) -> String { o.short.map { "-\($0)" } ?? "--\(o.long)" }

    /// A word as a shell reads it back: bare when safe, else in double quotes.
    static func quoted(_ s: String) -> String { s.shellWord }

    /// Splits a command shown in a hint on spaces, keeping "quoted words" whole.
    static func split(_ line: String) -> [String] {
        var words: [String] = [], current = "", quoted = false, started = false, escaped = false
        for c in line {
            if escaped { current.append(c); escaped = false; continue }
            if c == "\\" && quoted { escaped = true; continue }
            if c == "\"" { quoted.toggle(); started = true; continue }
            if c == " " && !quoted {
                if started { words.append(current) }
                current = ""; started = false
                continue
            }
            current.append(c); started = true
        }
        if started { words.append(current) }
        return words
    }
}

extension ParsedCommand {
    /// The command line as the user gave it (options in model order), plus more words.
    func commandLine(adding extra: [String] = []) -> String {
        var words = ["relctl"] + path.dropFirst().map(\.name) + positionals.map(PastedHints.quoted)
        for option in Parser.options(for: command) {
            for value in values[option.long] ?? [] {
                words.append(PastedHints.spelled(option))
                if option.takesValue { words.append(PastedHints.quoted(value)) }
            }
        }
        return (words + extra).joined(separator: " ")
    }
}

extension Invocation {
    func commandLine(adding extra: [String] = []) -> String { parsed.commandLine(adding: extra) }
}
