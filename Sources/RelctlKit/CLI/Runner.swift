/// Runs one command line against a context and returns the exit status.
public enum Runner {
    public static let version = "0.1.0"

    public static func run(_ arguments: [String], context: Context, root: Command = Relctl.root) -> Int32 {
        let status = execute(arguments, context: context, root: root)
        context.stdout.flush()
        context.stderr.flush()
        return status
    }

    static func execute(_ arguments: [String], context: Context, root: Command) -> Int32 {
        // Errors can arise before parsing finishes; honour --no-color anyway.
        context.noColor = context.noColor || arguments.contains("--no-color")
        let parsed: ParsedCommand
        do {
            parsed = try Parser.parse(arguments, root: root)
        } catch let e as RelctlError {
            report(e, context: context)
            return e.status
        } catch {
            context.stderr.write("relctl: \(error)\n")
            return 1
        }
        if parsed.values["help"] != nil || (parsed.command.handler == nil && parsed.values["version"] == nil) {
            context.stdout.write(Help.render(parsed.path, width: context.width))
            return 0
        }
        if parsed.values["version"] != nil && parsed.path.count == 1 {
            context.stdout.write("relctl \(version)\n")
            return 0
        }
        do {
            let arguments = try Parser.validatePositionals(parsed)
            let invocation = Invocation(context: context, parsed: parsed, arguments: arguments)
            try parsed.command.handler!(invocation)
            return 0
        } catch let e as RelctlError {
            var e = e
            if e.status == 2 && e.usage == nil { e.usage = Parser.usageLine(parsed.path) }
            report(e, context: context)
            return e.status
        } catch let e as SQLiteError {
            report(Store.explain(e, path: parsed.values["db"]?.last ?? context.env["RELCTL_DB"] ?? "./relctl.db"), context: context)
            return 1
        } catch {
            context.stderr.write("relctl: \(error)\n")
            return 1
        }
    }

    static func report(_ e: RelctlError, context: Context) {
        let colored = context.stderrIsTerminal && context.env["NO_COLOR"] == nil && !context.noColor
        let label = colored ? "\u{1B}[31mrelctl:\u{1B}[0m" : "relctl:"
        var line = "\(label) \(e.message)"
        if let hint = e.hint { line += " — \(hint)" }
        context.stderr.write(line + "\n")
        if let usage = e.usage { context.stderr.write(usage + "\n") }
    }
}

