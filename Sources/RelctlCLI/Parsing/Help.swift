/// `--help` and `relctl help`, rendered from the command model.
public enum Help {
    public static func render(_ path: [Command], width: Int) -> String {
        let command = path.last!
        let name = Parser.displayName(path)
        var out = ""
        out += wrap("\(name) — \(command.abstract)", width: width, indent: 0) + "\n\n"
        out += "USAGE\n" + wrap(String(Parser.usageLine(path).dropFirst("usage: ".count)), width: width, indent: 2) + "\n"
        if !command.discussion.isEmpty {
            out += "\n"
            for paragraph in command.discussion.split(separator: "\n", omittingEmptySubsequences: false) {
                out += paragraph.isEmpty ? "\n" : wrap(String(paragraph), width: width, indent: 0) + "\n"
            }
        }
        if !command.visibleSubcommandNames.isEmpty {
            out += "\nCOMMANDS\n" + table(command.visibleSubcommands.map { ($0.name, $0.abstract) }, width: width)
        }
        if !command.arguments.isEmpty {
            out += "\nARGUMENTS\n" + table(command.arguments.map { ($0.name, describe($0.help, allowed: $0.allowed)) }, width: width)
        }
        let own = command.options.filter { !$0.hidden }
        if !own.isEmpty {
            out += "\nOPTIONS\n" + table(own.map { ($0.signature, describe($0)) }, width: width)
        }
        let globals = Globals.options + (path.count == 1 ? [Globals.version] : [])
        out += "\nGLOBAL OPTIONS\n" + table(globals.map { ($0.signature, describe($0)) }, width: width)
        if !command.examples.isEmpty {
            out += "\nEXAMPLES\n"
            for example in command.examples {
                out += wrapCommand(example.command, width: width, indent: 2) + "\n"
                out += wrap(example.explanation, width: width, indent: 6) + "\n"
            }
        }
        if path.count == 1 {
            out += "\nENVIRONMENT\n" + table(Environment.variables, width: width)
        }
        out += "\nEXIT STATUS\n" + wrap(ExitStatus.text, width: width, indent: 2) + "\n"
        if !command.visibleSubcommandNames.isEmpty {
            out += "\nRun '\(name) <command> --help' for a command's options.\n"
        }
        return out
    }

    public static func describe(_ option: Option) -> String {
        var s = describe(option.help, allowed: option.allowed)
        var notes: [String] = []
        if option.repeatable { notes.append("repeatable") }
        if let env = option.env { notes.append("env \(env)") }
        if let d = option.defaultValue { notes.append("default \(d)") }
        if !notes.isEmpty { s += " (" + notes.joined(separator: "; ") + ")" }
        return s
    }

    static func describe(_ help: String, allowed: [String]) -> String {
        allowed.isEmpty ? help : help + " One of: " + allowed.joined(separator: ", ") + "."
    }

    static func table(_ rows: [(String, String)], width: Int) -> String {
        let column = min(max(rows.map { $0.0.count }.max() ?? 0, 8) + 4, 28, width / 2)
        var out = ""
        for (left, right) in rows {
            let head = "  " + left
            if head.count + 2 <= column {
                let body = wrap(right, width: width, indent: column)
                out += head + String(body.dropFirst(head.count)) + "\n"
            } else {
                out += head + "\n" + wrap(right, width: width, indent: column) + "\n"
            }
        }
        return out
    }

    /// Greedy word wrap; every line starts with `indent` spaces. A quoted
    /// stretch ('relctl maintenance stop', "Back soon") is one word: a line
    /// never breaks inside it.
    public static func wrap(_ text: String, width: Int, indent: Int) -> String {
        let pad = String(repeating: " ", count: indent)
        let limit = max(width, indent + 1)
        var lines: [String] = []
        var line = pad
        for word in words(text) {
            if line.count > indent && line.count + 1 + word.count > limit {
                lines.append(line)
                line = pad
            }
            line += (line.count > indent ? " " : "") + word
        }
        lines.append(line)
        return lines.joined(separator: "\n")
    }

    /// A command line wrapped between shell words, continued with " \\" so
    /// that a wrapped example still pastes as one command.
    public static func wrapCommand(_ text: String, width: Int, indent: Int) -> String {
        let pad = String(repeating: " ", count: indent), more = pad + "  "
        var lines: [String] = []
        var line = pad
        for word in words(text) {
            let start = lines.isEmpty ? pad : more
            if line.count > start.count && line.count + 1 + word.count + 2 > max(width, indent + 1) {
                lines.append(line + " \\")
                line = more
            }
            line += (line.count > (lines.isEmpty ? pad : more).count ? " " : "") + word
        }
        lines.append(line)
        return lines.joined(separator: "\n")
    }

    /// Words split on spaces, a quoted stretch kept whole: a word opening
    /// with ' or " runs to the word that closes the quote.
    static func words(_ text: String) -> [String] {
        var out: [String] = []
        var open: Character? = nil
        for token in text.split(separator: " ", omittingEmptySubsequences: true) {
            if let q = open {
                out[out.count - 1] += " " + token
                if closes(token, q) { open = nil }
                continue
            }
            out.append(String(token))
            if let first = token.first, first == "'" || first == "\"", !closes(token.dropFirst(), first) { open = first }
        }
        return out
    }

    /// Whether a word ends a quote: the quote char, maybe followed by punctuation.
    static func closes(_ token: Substring, _ quote: Character) -> Bool {
        var t = token
        while let last = t.last, ",.;:)!?".contains(last) { t = t.dropLast() }
        return t.last == quote
    }
}
