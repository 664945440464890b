import RelctlCore
import RelctlStore

/// `relctl maintenance`: windows during which apps show a blocking screen.
enum MaintenanceCommands {
    static let copyOptions: [Option] = [
        Option("title", value: "TEXT", help: "The title shown during this window (placeholders {app}, {until})."),
        Option("message", value: "TEXT", help: "The message shown during this window (placeholders {app}, {until})."),
        Shared.locale("The locale of --title and --message (default the project's default locale)."),
        Shared.platform(only: "Only this platform (default, or 'all': every platform of the project).", completion: .dynamic(.platformsOrAll)),
    ]

    static let command: RunnableCommand = RunnableCommand(
        "maintenance", abstract: "Start, schedule and stop maintenance windows.",
        discussion: "Windows may overlap (an emergency is never refused because a planned window lies ahead): apps are blocked while any window applies to them, and see the copy of the newest window (the highest id) among those active. Ids are never reused.",
        subcommands: [start, schedule, stop, edit, message, status, list, cancel],
        examples: [Example("relctl maintenance status", "What is active or scheduled."), Example("relctl maintenance start --for 2h --message \"Back soon\"", "Block apps for two hours.")]
    )

    /// Said, not unknown: a window blocks everyone it covers, or nobody.
    static let notStaged = Option("rollout", value: "PERCENTS", help: "Refused: a window is never staged.", hidden: true)

    static func refuseStaging(_ inv: Invocation) throws {
        guard inv.flag("rollout") else { return }
        throw RelctlError.usage("a maintenance window is never staged: it blocks every install it covers, or it is no window",
                                hint: "limit it to one platform with --platform; only a recommend is staged (relctl recommend VERSION --rollout 1,5,20,100)")
    }

    static let start: RunnableCommand = RunnableCommand(
        "start", abstract: "Start a maintenance window now.",
        discussion: "Without --until or --for the window stays open until 'relctl maintenance stop'.",
        options: [Option("until", value: "TIME", help: "When the window ends: " + TimeInput.forms + "."),
                  Option("for", value: "DURATION", help: "How long the window lasts, like 90m, 2h or 1d.")] + copyOptions + [Shared.dryRun, Shared.yes, notStaged],
        examples: [Example("relctl maintenance start --until \"tomorrow 06:00\" --message \"Back soon\"", "Block apps until 06:00 tomorrow, local time."),
                   Example("relctl maintenance start --for 90m --platform android", "Block the Android app for 90 minutes.")]
    ) { inv in
        try refuseStaging(inv)
        if inv.flag("until") && inv.flag("for") {
            throw RelctlError.usage("--until and --for both give the end", hint: "give one of them")
        }
        let now = inv.now
        var end: Int64? = nil
        if let u = inv.value("until") { end = try inv.endTime(u) }
        if let d = inv.value("for") { end = try Time.adding(try Time.parseDuration(d), to: now, what: "a window of --for \(d)") }
        try create(inv, from: now, until: end)
    }

    static let schedule: RunnableCommand = RunnableCommand(
        "schedule", abstract: "Schedule a maintenance window.",
        options: [Option("from", value: "TIME", help: "When the window starts: " + TimeInput.forms + "."),
                  Option("until", value: "TIME", help: "When the window ends (same forms)."),
                  Option("for", value: "DURATION", help: "How long the window lasts from --from, like 90m, 2h or 1d.")] + copyOptions + [Shared.dryRun, Shared.yes, notStaged],
        examples: [Example("relctl maintenance schedule --from \"2026-12-01 02:00\" --until \"2026-12-01 04:00\"", "A two-hour window in local time."),
                   Example("relctl maintenance schedule --from \"tomorrow 02:00\" --for 2h", "Two hours from 02:00 tomorrow, local time.")]
    ) { inv in
        try refuseStaging(inv)
        if inv.flag("until") && inv.flag("for") {
            throw RelctlError.usage("--until and --for both give the end", hint: "give one of them")
        }
        guard let from = inv.value("from"), inv.flag("until") || inv.flag("for") else {
            throw RelctlError.usage("a scheduled window needs --from and --until (or --for)", hint: "like --from \"2026-12-01 02:00\" --until \"2026-12-01 04:00\"")
        }
        let start = try inv.futureTime(from)
        let end = try inv.value("until").map { try inv.endTime($0, after: start) }
            ?? Time.adding(try Time.parseDuration(inv.value("for")!), to: start, what: "a window of --for \(inv.value("for")!)")
        try create(inv, from: start, until: end)
    }

    /// Refuses text the message kind cannot show (UserText): what the store would refuse to read back.
    static func validate(_ text: String, kind: String, option: String) throws {
        guard let problem = UserText.messageProblem(text, kind: kind) else { return }
        throw RelctlError.usage("\(option): \(problem)", hint: text.trimmingSpaces().isEmpty ? "give the text users should read" : "correct the text")
    }

    /// Warns when right-to-left copy starts a line with a placeholder (RightToLeft).
    static func warnDirection(_ inv: Invocation, _ text: String?, locale: String, option: String) {
        guard let text, RightToLeft.contains(locale), let p = RightToLeft.unguardedPlaceholder(text) else { return }
        inv.warn("\(option) (\(locale)) starts a line with \(p): a Latin name or date there lays the line out left to right; start with a word of the language, or put a right-to-left mark (U+200F) before \(p)")
    }

    /// What every confirmation of a window shows: "2026-12-02 20:00 UTC (in 1 h) to 2026-12-02 22:00 UTC (in 3 h), 2 h";
    /// a window longer than a day says so.
    static func span(_ inv: Invocation, _ start: Int64, _ end: Int64?) -> String {
        "\(start == inv.now ? "now" : inv.people(start)) to \(end.map(inv.people) ?? "when stopped")"
            + (end.map { ", " + PeopleTime.length($0 - start) + ($0 - start > 86_400 ? ", longer than a day" : "") } ?? ", no end")
    }

    static func create(_ inv: Invocation, from start: Int64, until end: Int64?) throws {
        let now = inv.now
        if let end {
            guard end > now else {
                throw RelctlError.usage("the end \(Time.format(end)) is in the past", hint: "give a future time or a duration with --for")
            }
            guard end > start else {
                throw RelctlError.usage("the window would end at \(Time.format(end)), not after its start at \(Time.format(start))", hint: "give an end after the start")
            }
        }
        let title = inv.value("title"), message = inv.value("message")
        for (text, name) in [(title, "--title"), (message, "--message")] {
            if let text { try validate(text, kind: "maintenance", option: name) }
        }
        if end == nil, [title, message].contains(where: { $0?.contains("{until}") == true }) {
            throw RelctlError.usage("{until} needs an end time, and this window has none", hint: "add --until or --for, or drop {until}")
        }
        let locale = try inv.locale(inv.value("locale"))
        let store = try inv.store()
        let project = try inv.project(in: store)
        let platform = try inv.windowScope(in: store, project: project)
        let scope = platform?.name ?? "all platforms"
        let copy = title != nil || message != nil ? (locale: locale ?? project.defaultLocale, title: title, message: message) : nil
        // A window blocks apps (now, or when it starts): it is previewed and confirmed like a floor.
        let id = try inv.write(store, project, asking: "a maintenance window for \(scope)", moves: ["maintenance for \(scope): \(span(inv, start, end))"]) { s in
            try s.openWindow(in: project, platform: platform, from: start, until: end, copy: copy, now: now)
        }
        if let copy { for (text, name) in [(title, "--title"), (message, "--message")] { warnDirection(inv, text, locale: copy.locale, option: name) } }
        if end != nil { inv.noteMessageZone(project) }
        if end == nil {
            let locales = try store.messageOverrides(project: project.id)["maintenance"]?
                .filter { $0.value.values.contains { $0.contains("{until}") } }.keys.sorted() ?? []
            if !locales.isEmpty {
                inv.warn("the project's maintenance text for \(locales.joined(separator: ", ")) uses {until}, which stays empty while this window has no end; stop it with 'relctl maintenance stop -p \(project.slug) --yes' or give --until")
            }
        }
        let overlapping = try store.maintenanceWindows(project: project.id).filter { w in
            w.id != id && !w.isOver(at: now) && (w.platformID == nil || platform == nil || w.platformID == platform!.id)
                && start < (w.endsAt ?? Int64.max) && w.startsAt < (end ?? Int64.max)
        }.sorted { $0.id < $1.id }
        try inv.printWritten {
            guard case .object(var o) = json(try store.maintenanceWindows(project: project.id).first { $0.id == id }!, now: now) else { return .null }
            o["overlaps"] = .array(overlapping.map { .int($0.id) })
            return .object(o)
        }
        inv.info("maintenance window #\(id) for \(scope): \(span(inv, start, end))")
        for w in overlapping {
            inv.info("it overlaps window #\(w.id) (\(w.platformName ?? "all platforms"), \(inv.people(w.startsAt)) to \(w.endsAt.map(inv.people) ?? "stop")), which stays as it is: apps are blocked while either applies, and see #\(id)'s copy while both are active (the newest window's)")
        }
    }

    static let stop: RunnableCommand = RunnableCommand(
        "stop", abstract: "End the active maintenance windows now.",
        discussion: "With --platform, ends maintenance for that platform only: its own windows end, and a project-wide window ends and continues for every other platform as a new window with the same end and copy.",
        options: [Shared.platform(only: "Only for this platform (default, or 'all': every platform).", completion: .dynamic(.platformsOrAll)), Shared.dryRun, Shared.yes],
        examples: [Example("relctl maintenance stop --platform ios --yes", "iOS apps work again; Android stays in maintenance.")]
    ) { inv in
        let store = try inv.store()
        let project = try inv.project(in: store)
        let now = inv.now
        let platform = try inv.windowScope(in: store, project: project)
        let stopped = try inv.write(store, project, asking: "stopping maintenance") { s in
            try s.stopWindows(in: project, platform: platform, now: now)
        }
        try inv.printWritten { .object(["stopped": .array(stopped.map { .int($0.id) }),
                            "continued": .array(stopped.flatMap { s in s.continuedAs.map { .object(["from": .int(s.id), "id": .int($0.id), "platform": .string($0.platform)]) } })]) }
        for s in stopped {
            if s.continuedAs.isEmpty {
                inv.info("stopped maintenance window #\(s.id)")
            } else {
                inv.info("stopped maintenance window #\(s.id) for \(platform!.name); it continues for \(s.continuedAs.map { "\($0.platform) as #\($0.id)" }.joined(separator: ", "))")
            }
        }
    }

    static func windowID(_ inv: Invocation) throws -> Int64 {
        let text = inv.arg("ID")!
        guard let id = Int64(text.hasPrefix("#") ? String(text.dropFirst()) : text), id > 0 else {
            throw RelctlError.usage("invalid window id '\(text)'", hint: "give the number shown by 'relctl maintenance list'")
        }
        return id
    }

    static let idArgument = Argument("ID", help: "The window's number, as shown by 'relctl maintenance list'.", completion: .dynamic(.windows))
    /// The same for commands that also act on the window running now.
    static let liveIDArgument = Argument("ID", help: "The window's number, as shown by 'relctl maintenance list'.", completion: .dynamic(.liveWindows))

    static let edit: RunnableCommand = RunnableCommand(
        "edit", abstract: "Move a planned or active window.",
        discussion: "--from moves the start of a window that has not begun; --until (or --for, counted from now) moves the end of a planned or active window.",
        arguments: [liveIDArgument],
        options: [Option("from", value: "TIME", help: "The new start (only before the window begins): " + TimeInput.forms + "."),
                  Option("until", value: "TIME", help: "The new end (same forms)."),
                  Option("for", value: "DURATION", help: "The new end, this long from now, like 30m or 2h."), Shared.dryRun, Shared.yes],
        examples: [Example("relctl maintenance edit 4 --until \"2026-12-01 05:00\"", "Extend window #4 to 05:00 local time.")]
    ) { inv in
        let id = try windowID(inv)
        if inv.flag("until") && inv.flag("for") {
            throw RelctlError.usage("--until and --for both give the end", hint: "give one of them")
        }
        guard inv.flag("from") || inv.flag("until") || inv.flag("for") else {
            throw RelctlError.usage("nothing to change", hint: "give --from, --until or --for")
        }
        let from = try inv.value("from").map(inv.futureTime)
        var until = try inv.value("until").map { try inv.endTime($0, after: from) }
        if let d = inv.value("for") { until = try Time.adding(try Time.parseDuration(d), to: inv.now, what: "--for \(d)") }
        let store = try inv.store()
        let project = try inv.project(in: store)
        let old = try store.maintenanceWindows(project: project.id).first { $0.id == id }
        let moves = old.map { ["window #\(id): \(span(inv, from ?? $0.startsAt, until ?? $0.endsAt)), was \(span(inv, $0.startsAt, $0.endsAt))"] } ?? []
        let w = try inv.write(store, project, asking: "moving window #\(id)", moves: moves) { s in
            try s.moveWindow(id, in: project, from: from, until: until, now: inv.now)
        }
        try inv.printWritten { json(w, now: inv.now) }
        inv.info("maintenance window #\(id) for \(w.platformName ?? "all platforms"): \(span(inv, w.startsAt, w.endsAt))")
        if until != nil { inv.noteMessageZone(project) }
    }

    static let message: RunnableCommand = RunnableCommand(
        "message", abstract: "Set a window's title and message in one locale.",
        discussion: "Each locale's copy wins over the project's and the catalog's maintenance text for users in that language (see 'relctl message'). Placeholders: {app}, {until}.",
        arguments: [liveIDArgument],
        options: [Shared.locale("The locale of this copy (default the project's default locale)."),
                  Option("title", value: "TEXT", help: "The title shown during this window."),
                  Option("message", value: "TEXT", help: "The message shown during this window."), Shared.dryRun],
        examples: [Example("relctl maintenance message 4 --locale tr --title \"Bakımdayız\" --message \"{until} itibarıyla geri döneceğiz\"", "Turkish copy for window #4.")]
    ) { inv in
        let id = try windowID(inv)
        let title = inv.value("title"), text = inv.value("message")
        guard title != nil || text != nil else { throw RelctlError.usage("nothing to set", hint: "give --title and/or --message") }
        for (value, name) in [(title, "--title"), (text, "--message")] {
            guard let value else { continue }
            try validate(value, kind: "maintenance", option: name)
        }
        let store = try inv.store()
        let project = try inv.project(in: store)
        let locale = try inv.locale(inv.value("locale")) ?? project.defaultLocale
        if let w = try store.maintenanceWindows(project: project.id).first(where: { $0.id == id }), w.endsAt == nil,
           [title, text].contains(where: { $0?.contains("{until}") == true }) {
            throw RelctlError.usage("{until} needs an end time, and window #\(id) has none", hint: "give it one with 'relctl maintenance edit \(id) --until TIME', or drop {until}")
        }
        try inv.write(store) { try $0.setWindowCopy(id, in: project, locale: locale, title: title, message: text, now: inv.now) }
        for (value, name) in [(title, "--title"), (text, "--message")] { warnDirection(inv, value, locale: locale, option: name) }
        inv.info("set the \(locale) copy of maintenance window #\(id)")
    }

    static func json(_ w: MaintenanceWindow, now: Int64) -> JSON {
        .object(["id": .int(w.id), "platform": .optional(w.platformName), "startsAt": .time(w.startsAt), "endsAt": .time(w.endsAt),
                 "state": .string(state(w, now)), "cancelledAt": .time(w.cancelledAt),
                 "copy": .object(w.copy.mapValues { .object(["title": .optional($0.title), "message": .optional($0.message)]) })])
    }

    static func state(_ w: MaintenanceWindow, _ now: Int64) -> String {
        w.isCancelled ? "cancelled" : w.isActive(at: now) ? "active" : w.isUpcoming(at: now) ? "upcoming" : "over"
    }

    /// Times for people: local, with the zone and the distance from now.
    /// MESSAGE is the window's own copy in the project's default locale.
    static func table(_ windows: [MaintenanceWindow], now: Int64, inv: Invocation, locale: String) -> String {
        Table.render(["ID", "STATE", "PLATFORM", "STARTS", "ENDS", "MESSAGE (\(locale))"], windows.map { w in
            ["#\(w.id)", state(w, now), w.platformName ?? "all", inv.people(w.startsAt), w.endsAt.map(inv.people) ?? "until stopped",
             copyShown(w, locale: locale)]
        })
    }

    /// The window's message (else title) in `locale`; without one, which locales have copy.
    static func copyShown(_ w: MaintenanceWindow, locale: String) -> String {
        if let c = w.copy[locale], let text = c.message ?? c.title { return text }
        let others = w.copy.keys.filter { $0 != locale }.sorted()
        return others.isEmpty ? "-" : "- (copy in \(others.joined(separator: ", ")) only)"
    }

    static let status: RunnableCommand = RunnableCommand("status", abstract: "Show active and upcoming maintenance.", examples: [Example("relctl maintenance status --json", "Active and upcoming windows as JSON.")]) { inv in
        let store = try inv.store(.read)
        let project = try inv.project(in: store)
        let now = inv.now
        let windows = try store.maintenanceWindows(project: project.id).filter { !$0.isOver(at: now) }
        inv.render(.object(["active": .array(windows.filter { $0.isActive(at: now) }.map { json($0, now: now) }),
                            "upcoming": .array(windows.filter { $0.isUpcoming(at: now) }.map { json($0, now: now) })])) {
            windows.isEmpty ? "no maintenance active or scheduled\n" : table(windows, now: now, inv: inv, locale: project.defaultLocale)
        }
    }

    static let list: RunnableCommand = RunnableCommand("list", abstract: "List every maintenance window, past and cancelled ones included.", examples: [Example("relctl maintenance list", "Every window, past and cancelled ones too.")]) { inv in
        let store = try inv.store(.read)
        let project = try inv.project(in: store)
        let now = inv.now
        let windows = try store.maintenanceWindows(project: project.id)
        inv.render(.object(["windows": .array(windows.map { json($0, now: now) })])) { table(windows, now: now, inv: inv, locale: project.defaultLocale) }
    }

    static let cancel: RunnableCommand = RunnableCommand(
        "cancel", abstract: "Cancel a scheduled window that has not begun.",
        arguments: [idArgument],
        options: [Shared.yes, Shared.dryRun],
        examples: [Example("relctl maintenance cancel 1 --yes", "Cancel scheduled window #1.")]
    ) { inv in
        let id = try windowID(inv)
        let store = try inv.store()
        let project = try inv.project(in: store)
        let now = inv.now
        guard let w = try store.maintenanceWindows(project: project.id).first(where: { $0.id == id }) else {
            throw RelctlError.failure("no maintenance window #\(id) in '\(project.slug)'", hint: "see 'relctl maintenance list'")
        }
        guard !w.isCancelled else {
            throw RelctlError.failure("window #\(id) is already cancelled", hint: "see 'relctl maintenance list'")
        }
        guard w.isUpcoming(at: now) else {
            throw RelctlError.failure("window #\(id) has already begun, so it cannot be cancelled",
                                      hint: w.isActive(at: now) ? "end it with 'relctl maintenance stop'" : "it is over; past windows stay in the record")
        }
        try inv.write(store, project, asking: "cancelling maintenance window #\(id)", moves: ["cancels window #\(id): \(span(inv, w.startsAt, w.endsAt))"]) { s in
            try s.cancelWindow(id, in: project, now: now)
        }
        inv.info("cancelled maintenance window #\(id)")
    }
}
