import RelctlCore

/// The command model as one JSON document (`relctl __spec`): what the
/// completion scripts and the manual are generated from, for other tools.
enum ModelSpec {
    static func json(_ root: Command) -> JSON {
        .object([
            "tool": .string("relctl"),
            "version": .string(Runner.version),
            "command": command(root),
            "globalOptions": .array((Globals.options + [Globals.version]).map(option)),
            "completionScopes": .array(ModelWalk.completionScopes(root).map { .string($0.long) }),
            "environment": .array(Environment.variables.map { .object(["name": .string($0.0), "help": .string($0.1)]) }),
            "exitStatus": .array(ExitStatus.codes.map { .object(["code": .int(Int64($0.code)), "meaning": .string($0.meaning)]) }),
        ])
    }

    static func command(_ c: Command) -> JSON {
        .object([
            "name": .string(c.name), "abstract": .string(c.abstract), "discussion": .string(c.discussion), "hidden": .bool(c.hidden),
            "arguments": .array(c.arguments.map { a in
                .object(["name": .string(a.name), "help": .string(a.help), "optional": .bool(a.optional), "repeating": .bool(a.repeating),
                         "allowed": .array(a.allowed.map { .string($0) }), "completion": .string(ModelWalk.spec(a.completion, allowed: []))])
            }),
            "options": .array(c.options.map(option)),
            "examples": .array(c.examples.map { .object(["command": .string($0.command), "explanation": .string($0.explanation)]) }),
            "subcommands": .array(c.subcommands.map(command)),
        ])
    }

    static func option(_ o: Option) -> JSON {
        .object([
            "long": .string(o.long), "short": .optional(o.short.map(String.init)), "value": .optional(o.value), "help": .string(o.help),
            "allowed": .array(o.allowed.map { .string($0) }), "repeatable": .bool(o.repeatable), "env": .optional(o.env),
            "default": .optional(o.defaultValue), "completion": .string(ModelWalk.spec(o.completion, allowed: [])),
            "hidden": .bool(o.hidden), "scopesCompletion": .bool(o.scopesCompletion),
        ])
    }
}
