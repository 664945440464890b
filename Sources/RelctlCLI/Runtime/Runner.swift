#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs one command line against a context and returns the exit status.
public enum Runner {
    public static let version = "0.1.0"

    public static func run(_ arguments: [String], context: Context, tree: RunnableCommand) -> Int32 {
        var status = execute(arguments, context: context, tree: tree)
        context.stdout.flush()
        // Output that did not arrive (a full disk, a closed pipe) is a failure, not a success.
        if let failure = context.stdout.failure {
            report(.failure("cannot write to standard output: \(String(cString: strerror(failure)))",
                            hint: "check where the output goes (a full disk, a closed pipe)"), context: context)
            if status == 0 { status = 1 }
        }
        context.stderr.flush()
        return status
    }

    static func execute(_ arguments: [String], context: Context, tree: RunnableCommand) -> Int32 {
        // Errors can arise before parsing finishes; honour --no-color anyway.
        context.noColor = context.noColor || arguments.contains("--no-color")
        var parsedLine: ParsedCommand? = nil
        do {
            let parsed = try Parser.parse(arguments, root: tree.model)
            parsedLine = parsed
            let handler = tree.handler(at: parsed.path.dropFirst().map(\.name))
            if parsed.values["help"] == nil, parsed.values["version"] != nil {
                guard parsed.path.count == 1 else {
                    throw RelctlError.usage("--version goes alone, before any command", hint: "run 'relctl --version'")
                }
                context.stdout.write("relctl \(version)\n")
                return 0
            }
            // `relctl` alone: the help, as git and gh give it (a group alone still asks for its command).
            if parsed.values["help"] != nil || (parsed.path.count == 1 && parsed.positionals.isEmpty && parsed.values["json"] == nil) {
                context.stdout.write(Help.render(parsed.path, width: context.width))
                return 0
            }
            guard let handler else { throw Parser.missingSubcommand(parsed) }
            let arguments = try Parser.validatePositionals(parsed)
            try checkPaths(parsed, arguments, env: context.env)
            let invocation = Invocation(context: context, parsed: parsed, arguments: arguments)
            try handler(invocation)
            invocation.reportDryRun()
            return invocation.exitStatus
        } catch {
            var e = RelctlError.from(error)
            if e.status == 2 && e.usage == nil { e.usage = parsedLine.map { Parser.usageLine($0.path) } }
            if let line = parsedLine, let hint = e.hint { e.hint = PastedHints.carry(hint, from: line, root: tree.model) }
            report(e, context: context)
            return e.status
        }
    }

    /// Every value the model marks as a file or folder, and the database path.
    static func checkPaths(_ parsed: ParsedCommand, _ arguments: [String: [String]], env: [String: String]) throws {
        for option in Parser.options(for: parsed.command) where option.completion == .file || option.completion == .directory {
            for value in parsed.values[option.long] ?? [] { try PathInput.check(value, for: "--\(option.long)") }
        }
        for argument in parsed.command.arguments where argument.completion == .file || argument.completion == .directory {
            for value in arguments[argument.name] ?? [] { try PathInput.check(value, for: argument.name) }
        }
        if parsed.values["db"] == nil, let fromEnv = env["RELCTL_DB"], !fromEnv.isEmpty { try PathInput.check(fromEnv, for: "RELCTL_DB") }
    }

    /// An error stays one line whatever it quotes: a value with a newline
    /// or a control character in it is shown escaped, and a huge one cut.
    static func oneLine(_ s: String, limit: Int = 1000) -> String {
        var out = ""
        var count = 0
        for c in s.unicodeScalars {
            if count == limit { return out + "… (\(s.unicodeScalars.count - limit) more characters)" }
            switch c {
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where c.value < 0x20 || (0x7F..<0xA0).contains(c.value): out += "\\u{\(String(c.value, radix: 16))}"
            default: out.unicodeScalars.append(c)
            }
            count += 1
        }
        return out
    }

    static func report(_ e: RelctlError, context: Context) {
        let colored = context.stderrStyled
        let label = colored ? "\u{1B}[31mrelctl:\u{1B}[0m" : "relctl:"
        var line = "\(label) \(oneLine(PeopleTime.inText(e.message, context: context)))"
        if let hint = e.hint { line += " — \(oneLine(PeopleTime.inText(hint, context: context)))" }
        context.stderr.write(line + "\n")
        if let usage = e.usage { context.stderr.write(usage + "\n") }
    }
}
