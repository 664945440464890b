import RelctlCore

/// The result of parsing: which command, and the raw option and argument values.
public struct ParsedCommand {
    public var path: [Command]
    public var values: [String: [String]]
    public var positionals: [String]
    public var command: Command { path.last! }
    public var name: String { path.dropFirst().map(\.name).joined(separator: " ") }
}

public enum Parser {
    /// Options valid for a command: its own, then the globals.
    static func options(for command: Command) -> [Option] { command.options + Globals.options }

    public static func usageLine(_ path: [Command]) -> String {
        let command = path.last!
        var parts = ["relctl"] + path.dropFirst().map(\.name)
        if !command.visibleSubcommandNames.isEmpty { parts.append("<command>") }
        if !command.options.filter({ !$0.hidden }).isEmpty || path.count == 1 { parts.append("[options]") }
        parts += command.arguments.map(\.usage)
        return "usage: " + parts.joined(separator: " ")
    }

    public static func parse(_ arguments: [String], root: Command) throws -> ParsedCommand {
        var path = [root]
        var values: [String: [String]] = [:]
        var positionals: [String] = []
        var endOfOptions = false
        var i = 0

        func usage(_ message: String, hint: String? = nil) -> RelctlError {
            .usage(message, hint: hint, usage: usageLine(path))
        }

        func record(_ option: Option, _ value: String?, spelled: String) throws {
            if let value, !option.allowed.isEmpty, !option.allowed.contains(value) {
                throw usage("invalid value '\(value)' for \(spelled)\(Suggest.didYouMean(value, option.allowed))",
                            hint: "use one of: \(option.allowed.joined(separator: ", "))")
            }
            if values[option.long] != nil && !option.repeatable && option.takesValue {
                throw usage("\(spelled) was given more than once", hint: "give it once")
            }
            values[option.long, default: []].append(value ?? "")
        }

        while i < arguments.count {
            let token = arguments[i]
            i += 1
            let command = path.last!
            if endOfOptions || token == "-" || !token.hasPrefix("-") || isNegativeNumber(token) {
                if !endOfOptions, command.hasSubcommands, positionals.isEmpty, !isNegativeNumber(token) {
                    guard let sub = command.subcommand(token) else {
                        let names = command.visibleSubcommandNames
                        let scope = displayName(path)
                        throw usage("unknown command '\(token)' for '\(scope)'\(Suggest.didYouMean(token, names))",
                                    hint: "run '\(scope) --help' to see the commands")
                    }
                    path.append(sub)
                    continue
                }
                positionals.append(token)
                continue
            }
            if token == "--" { endOfOptions = true; continue }
            let valid = options(for: command) + (path.count == 1 ? [Globals.version] : [])
            if token.hasPrefix("--") {
                let body = token.dropFirst(2)
                let name = String(body.prefix { $0 != "=" })
                let inline: String? = body.contains("=") ? String(body.drop { $0 != "=" }.dropFirst()) : nil
                guard let option = valid.first(where: { $0.long == name }) else {
                    let names = valid.filter { !$0.hidden }.map { "--" + $0.long }
                    throw usage("unknown option '--\(name)'\(Suggest.didYouMean("--" + name, names))",
                                hint: "run '\(displayName(path)) --help' to see the options")
                }
                if option.takesValue {
                    let value: String
                    if let inline { value = inline }
                    else if i < arguments.count { value = arguments[i]; i += 1 }
                    else { throw usage("--\(name) needs a value (\(option.value!))") }
                    try record(option, value, spelled: "--\(name)")
                } else {
                    if inline != nil { throw usage("--\(name) takes no value", hint: "write just --\(name)") }
                    try record(option, nil, spelled: "--\(name)")
                }
                continue
            }
            // Short options, possibly bundled: -qy, -p shop, -pshop.
            var chars = Array(token.dropFirst())
            while !chars.isEmpty {
                let c = chars.removeFirst()
                guard let option = valid.first(where: { $0.short == c }) else {
                    throw usage("unknown option '-\(c)'", hint: "run '\(displayName(path)) --help' to see the options")
                }
                if option.takesValue {
                    let value: String
                    if !chars.isEmpty { value = String(chars); chars = [] }
                    else if i < arguments.count { value = arguments[i]; i += 1 }
                    else { throw usage("-\(c) needs a value (\(option.value!))") }
                    try record(option, value, spelled: "-\(c)")
                } else {
                    try record(option, nil, spelled: "-\(c)")
                }
            }
        }
        return ParsedCommand(path: path, values: values, positionals: positionals)
    }

    /// Checks positionals against the command's arguments once help is ruled out.
    public static func validatePositionals(_ parsed: ParsedCommand) throws -> [String: [String]] {
        let command = parsed.command
        var remaining = parsed.positionals[...]
        var result: [String: [String]] = [:]
        let usage = usageLine(parsed.path)
        for argument in command.arguments {
            if argument.repeating {
                result[argument.name] = Array(remaining)
                if remaining.isEmpty && !argument.optional {
                    throw RelctlError.usage("missing \(argument.name)", hint: argument.help, usage: usage)
                }
                remaining = []
            } else if let value = remaining.first {
                remaining = remaining.dropFirst()
                if !argument.allowed.isEmpty, !argument.allowed.contains(value) {
                    throw RelctlError.usage("invalid \(argument.name) '\(value)'\(Suggest.didYouMean(value, argument.allowed))",
                                            hint: "use one of: \(argument.allowed.joined(separator: ", "))", usage: usage)
                }
                result[argument.name] = [value]
            } else if !argument.optional {
                throw RelctlError.usage("missing \(argument.name)", hint: argument.help, usage: usage)
            }
        }
        if let extra = remaining.first {
            throw RelctlError.usage("unexpected argument '\(extra)'", hint: "quote text that contains spaces", usage: usage)
        }
        return result
    }

    /// A group (`relctl policy`) needs one of its commands; words after
    /// `--` are arguments, never commands.
    public static func missingSubcommand(_ parsed: ParsedCommand) -> RelctlError {
        let scope = displayName(parsed.path)
        let names = parsed.command.visibleSubcommandNames
        if let word = parsed.positionals.first {
            let hint = names.contains(word) ? "commands go before '--': run '\(scope) \(word)'" : "run '\(scope) --help' to see the commands"
            return .usage("unexpected argument '\(word)'", hint: hint, usage: usageLine(parsed.path))
        }
        return .usage("'\(scope)' needs a command: \(names.joined(separator: ", "))", hint: "run '\(scope) --help' to see what each does",
                      usage: usageLine(parsed.path))
    }

    public static func displayName(_ path: [Command]) -> String {
        (["relctl"] + path.dropFirst().map(\.name)).joined(separator: " ")
    }

    static func isNegativeNumber(_ s: String) -> Bool {
        s.count > 1 && s.hasPrefix("-") && s.dropFirst().allSatisfy { $0.isASCII && $0.isNumber }
    }
}

