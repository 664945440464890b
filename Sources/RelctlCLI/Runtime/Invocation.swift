import RelctlCore

/// One run of one command: its parsed input, its context and the output
/// helpers every handler shares.
public final class Invocation {
    public let context: Context
    public let parsed: ParsedCommand
    let arguments: [String: [String]]
    /// What the command's write left for its output (its session, made by
    /// Invocation.write in Commands/Write.swift): the machinery is handed it.
    var written: Written?
    /// The impact of the change the command tried, for the --json of a dry run and of a revert.
    var previewedImpact: [String]? = nil
    /// The status of a command that succeeded but has something to report, as
    /// `git diff --exit-code` does (plan --exit-code: ExitStatus.changes when there are changes).
    var exitStatus: Int32 = 0

    /// After the command: a dry run says, row by row, what it would have changed.
    func reportDryRun() {
        guard dryRun, !json, !quiet, let lines = written?.dryRunLines(self), !lines.isEmpty else { return }
        context.stderr.write("would change:\n" + lines.map { "  \($0)\n" }.joined())
    }

    init(context: Context, parsed: ParsedCommand, arguments: [String: [String]]) {
        self.context = context; self.parsed = parsed; self.arguments = arguments
    }

    // MARK: input

    public func arg(_ name: String) -> String? { arguments[name]?.first }
    public func args(_ name: String) -> [String] { arguments[name] ?? [] }

    public func option(_ long: String) -> Option? {
        (parsed.command.options + Globals.options).first { $0.long == long }
    }

    /// The option's value: given, else its environment variable, else its default.
    public func value(_ long: String) -> String? {
        if let v = parsed.values[long]?.last { return v }
        if let o = option(long) {
            if let env = o.env, let v = context.env[env], !v.isEmpty { return v }
            return o.defaultValue
        }
        return nil
    }

    public func values(_ long: String) -> [String] { parsed.values[long] ?? [] }
    public func flag(_ long: String) -> Bool { parsed.values[long] != nil }

    public var json: Bool { flag("json") }
    public var quiet: Bool { flag("quiet") }
    /// --dry-run on a command that changes the database (publish has its own).
    public var dryRun: Bool { flag("dry-run") && parsed.command.name != "publish" }
    public var now: Int64 { context.clock() }
    public var timeZone: String? { context.env["TZ"] }
    public var dbPath: String { Invocation.database(parsed, env: context.env) }

    /// The database a command line names: --db, else RELCTL_DB, else ./relctl.db.
    static func database(_ parsed: ParsedCommand, env: [String: String]) -> String {
        if let given = parsed.values["db"]?.last { return given }
        if let fromEnv = env["RELCTL_DB"], !fromEnv.isEmpty { return fromEnv }
        return Globals.options.first { $0.long == "db" }!.defaultValue!
    }

    public func time(_ text: String) throws -> Int64 { try TimeInput.parse(text, now: now, timeZone: timeZone) }
    /// A release time (--released): past or ahead, so a duration needs its sign (TimeInput.isBareDuration).
    public func releaseTime(_ text: String) throws -> Int64 {
        if TimeInput.isBareDuration(text) {
            let d = text.trimmingSpaces()
            throw RelctlError.usage("--released \(d) does not say which way: a release may be past or ahead",
                                    hint: "write --released -\(d) for \(d) ago, or --released +\(d) for \(d) from now")
        }
        return try time(text)
    }
    /// An instant for people: local time with its zone and the distance from now.
    public func people(_ t: Int64) -> String { PeopleTime.format(t, now: now, timeZone: timeZone) }
    /// A sentence from the core (a why, a limit, a logged action) with its RFC 3339 instants in people's style.
    public func people(in sentence: String) -> String { PeopleTime.inText(sentence, context: context) }
    /// A time that looks ahead (an end, a start, a deadline): "HH:MM" that has passed today is tomorrow's.
    public func futureTime(_ text: String) throws -> Int64 { try TimeInput.parse(text, now: now, timeZone: timeZone, future: true) }
    /// An end (`--until`): a time of day that has passed today is refused
    /// with both readings, never taken as tomorrow's: typed at 20:52,
    /// "--until 20:00" would otherwise block apps for 23 hours.
    /// With `after` (a window's start ahead, --from), a time of day is the first one after it:
    /// "--from 06:00 --until 07:00" at 06:30 is tomorrow's 06:00 to 07:00.
    public func endTime(_ text: String, option: String = "--until", after start: Int64? = nil) throws -> Int64 {
        if let start, start > now, TimeInput.isClock(text) { return try TimeInput.parse(text, now: start, timeZone: timeZone, future: true) }
        let t = try TimeInput.parse(text, now: now, timeZone: timeZone)
        guard TimeInput.isClock(text), t <= now else { return t }
        let tomorrow = try TimeInput.parse(text, now: now, timeZone: timeZone, future: true)
        let clock = text.trimmingSpaces()
        throw RelctlError.usage("\(option) \(clock) has already passed today (\(people(t)))",
                                hint: "for tomorrow write \(option) 'tomorrow \(clock)' (\(people(tomorrow)))")
    }

    private var zoneNoted = false

    /// Apps show the instant just scheduled in the project's zone ({until},
    /// {deadline}). When that zone is UTC and the person typing lives in
    /// another (TZ), they are told once: messages would say "(UTC)" to
    /// their users until someone finds `project edit --time-zone`.
    func noteMessageZone(_ project: ProjectRecord) {
        guard !zoneNoted, ZoneRules.isUTC(project.timeZone), let tz = timeZone.map({ $0.hasPrefix(":") ? String($0.dropFirst()) : $0 }),
              !tz.isEmpty, !ZoneRules.isUTC(tz), (try? TimeInput.checkZone(tz)) != nil else { return }
        zoneNoted = true
        let fix = tz.contains("/") && !tz.hasPrefix("/") ? tz : "ZONE"
        info("note: apps show this time in UTC, the time zone of \(project.slug), while yours (TZ) is \(tz); to show users their local time: relctl project edit \(project.slug) --time-zone \(fix)")
    }

    // MARK: output

    public func out(_ s: String) { context.stdout.write(s) }
    public func line(_ s: String) { context.stdout.write(s + "\n") }
    /// A message about what happened, on stderr; -q silences it.
    public func info(_ s: String) {
        guard !quiet else { return }
        let prefix = written?.wroteNothing == true ? "unchanged (nothing written or logged): " : dryRun ? "dry run, nothing changed: " : ""
        context.stderr.write(prefix + people(in: s) + "\n")
    }
    /// Warnings stay visible under -q: they are about correctness.
    public func warn(_ s: String) { context.stderr.write("warning: " + people(in: s) + "\n") }
    /// Indented for a person on a terminal, compact for a program (as gh does).
    public func emit(_ document: JSON) {
        if context.stdoutIsTerminal { out(document.rendered()) }
        else { context.stdout.write(bytes: document.compactBytes()) }
    }

    /// Prints the JSON document under --json, else the text.
    public func render(_ document: @autoclosure () -> JSON, text: () -> String) {
        if json { emit(document()) } else { out(text()) }
    }

    /// Destructive actions ask on a terminal and need --yes elsewhere.
    public func confirm(_ question: String) throws {
        if flag("yes") || dryRun { return }
        guard context.stdinIsTerminal else {
            throw RelctlError.usage("\(question.dropLast()) needs confirmation", hint: "add --yes to confirm when not on a terminal")
        }
        context.stderr.write(question + " [y/N] ")
        context.stderr.flush()
        let answer = (context.readLine() ?? "").trimmingSpaces().lowercased()
        guard answer == "y" || answer == "yes" else { throw RelctlError.failure("cancelled; nothing was changed") }
    }
}

/// What a command's write leaves for the output after it.
protocol Written: AnyObject {
    /// The data was already as asked: nothing was written or logged.
    var wroteNothing: Bool { get }
    /// A dry run's rows for people, said after the command ("would change:"); none once dropped.
    func dryRunLines(_ inv: Invocation) -> [String]
}
