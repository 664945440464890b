import RelctlCore
import RelctlStore

/// `relctl maintenance`: windows during which apps show a blocking screen.
enum MaintenanceCommands {
    static let copyOptions: [Option] = [
        Option("title", value: "TEXT", help: "The title shown during this window (placeholders {app}, {until})."),
        Option("message", value: "TEXT", help: "The message shown during this window (placeholders {app}, {until})."),
        Shared.locale("The locale of --title and --message (default the project's default locale)."),
        Shared.platform(only: "Only this platform (default every platform of the project)."),
    ]

    static let command: RunnableCommand = RunnableCommand(
        "maintenance", abstract: "Start, schedule and stop maintenance windows.",
        subcommands: [start, schedule, stop, status, list, cancel],
        examples: [Example("relctl maintenance status", "What is active or scheduled."), Example("relctl maintenance start --for 2h --message \"Back soon\"", "Block apps for two hours.")]
    )

    static let start: RunnableCommand = RunnableCommand(
        "start", abstract: "Start a maintenance window now.",
        discussion: "Without --until or --for the window stays open until 'relctl maintenance stop'.",
        options: [Option("until", value: "TIME", help: "When the window ends."),
                  Option("for", value: "DURATION", help: "How long the window lasts, like 90m, 2h or 1d.")] + copyOptions + [Shared.dryRun, Shared.yes],
        examples: [Example("relctl maintenance start --until 2026-12-01T06:00:00Z --message \"Back soon\"", "Block apps until 06:00 UTC."),
                   Example("relctl maintenance start --for 90m --platform android", "Block the Android app for 90 minutes.")]
    ) { inv in
        if inv.flag("until") && inv.flag("for") {
            throw RelctlError.usage("--until and --for both give the end", hint: "give one of them")
        }
        let now = inv.now
        var end: Int64? = nil
        if let u = inv.value("until") { end = try inv.time(u) }
        if let d = inv.value("for") { end = try Time.adding(try Time.parseDuration(d), to: now, what: "a window of --for \(d)") }
        try create(inv, from: now, until: end)
    }

    static let schedule: RunnableCommand = RunnableCommand(
        "schedule", abstract: "Schedule a maintenance window.",
        options: [Option("from", value: "TIME", help: "When the window starts."),
                  Option("until", value: "TIME", help: "When the window ends.")] + copyOptions + [Shared.dryRun],
        examples: [Example("relctl maintenance schedule --from \"2026-12-01 02:00\" --until \"2026-12-01 04:00\"", "A two-hour window in local time.")]
    ) { inv in
        guard let from = inv.value("from"), let until = inv.value("until") else {
            throw RelctlError.usage("a scheduled window needs --from and --until", hint: "like --from \"2026-12-01 02:00\" --until \"2026-12-01 04:00\"")
        }
        try create(inv, from: try inv.time(from), until: try inv.time(until))
    }

    /// Refuses a placeholder the message kind does not have.
    static func validatePlaceholders(_ text: String, kind: String, option: String) throws {
        let allowed = Catalog.placeholders(for: kind)
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "{") {
            let after = rest[rest.index(after: open)...]
            guard let close = after.firstIndex(of: "}") else { break }
            let name = "{" + after[..<close] + "}"
            if !allowed.contains(name) {
                throw RelctlError.usage("unknown placeholder \(name) in \(option)", hint: "use \(allowed.joined(separator: ", "))")
            }
            rest = after[after.index(after: close)...]
        }
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
            if let text { try validatePlaceholders(text, kind: "maintenance", option: name) }
        }
        if end == nil, [title, message].contains(where: { $0?.contains("{until}") == true }) {
            throw RelctlError.usage("{until} needs an end time, and this window has none", hint: "add --until or --for, or drop {until}")
        }
        let locale = try inv.locale(inv.value("locale"))
        let store = try inv.store()
        let project = try inv.project(in: store)
        let platform = inv.flag("platform") ? try inv.platform(in: store, project: project) : nil
        let scope = platform?.name ?? "all platforms"
        let span = "\(Time.format(start)) to \(end.map(Time.format) ?? "stop")"
        let copy = title != nil || message != nil ? (locale: locale ?? project.defaultLocale, title: title, message: message) : nil
        // A window that starts now blocks apps at once: it is previewed like a floor.
        let open = { try store.openWindow(in: project, platform: platform, from: start, until: end, copy: copy, now: now) }
        let id = start > now ? try open() : try inv.guarded(store, project, change: { snapshot in
            snapshot.windows.append(MaintenanceWindow(id: 0, projectID: project.id, platformID: platform?.id, platformName: platform?.name,
                                                      startsAt: start, endsAt: end, copy: [:]))
        }, write: open)
        if end == nil {
            let locales = try store.messageOverrides(project: project.id)["maintenance"]?
                .filter { $0.value.values.contains { $0.contains("{until}") } }.keys.sorted() ?? []
            if !locales.isEmpty {
                inv.warn("the project's maintenance text for \(locales.joined(separator: ", ")) uses {until}, which stays empty while this window has no end; stop it with 'relctl maintenance stop' or give --until")
            }
        }
        try inv.printWritten { json(try store.maintenanceWindows(project: project.id).first { $0.id == id }!, now: now) }
        inv.info("maintenance window #\(id) for \(scope): \(span)")
    }

    static let stop: RunnableCommand = RunnableCommand(
        "stop", abstract: "End the active maintenance window now.",
        options: [Shared.platform(only: "Only the window of this platform."), Shared.dryRun],
        examples: [Example("relctl maintenance stop", "End the active window now.")]
    ) { inv in
        let store = try inv.store()
        let project = try inv.project(in: store)
        let now = inv.now
        let platform = inv.flag("platform") ? try inv.platform(in: store, project: project) : nil
        let stopped = try store.stopWindows(in: project, platform: platform, now: now)
        inv.render(.object(["stopped": .array(stopped.map { .int($0) })])) { "" }
        inv.info("stopped maintenance window \(stopped.map { "#\($0)" }.joined(separator: ", "))")
    }

    static func json(_ w: MaintenanceWindow, now: Int64) -> JSON {
        .object(["id": .int(w.id), "platform": .optional(w.platformName), "startsAt": .time(w.startsAt), "endsAt": .time(w.endsAt),
                 "state": .string(state(w, now)), "cancelledAt": .time(w.cancelledAt),
                 "copy": .object(w.copy.mapValues { .object(["title": .optional($0.title), "message": .optional($0.message)]) })])
    }

    static func state(_ w: MaintenanceWindow, _ now: Int64) -> String {
        w.isCancelled ? "cancelled" : w.isActive(at: now) ? "active" : w.isUpcoming(at: now) ? "upcoming" : "over"
    }

    static func table(_ windows: [MaintenanceWindow], now: Int64) -> String {
        Table.render(["ID", "STATE", "PLATFORM", "STARTS", "ENDS", "MESSAGE"], windows.map { w in
            ["#\(w.id)", state(w, now), w.platformName ?? "all", Time.format(w.startsAt), w.endsAt.map(Time.format) ?? "until stopped",
             w.copy.keys.sorted().first.flatMap { w.copy[$0]?.message } ?? "-"]
        })
    }

    static let status: RunnableCommand = RunnableCommand("status", abstract: "Show active and upcoming maintenance.", examples: [Example("relctl maintenance status --json", "Active and upcoming windows as JSON.")]) { inv in
        let store = try inv.store(.read)
        let project = try inv.project(in: store)
        let now = inv.now
        let windows = try store.maintenanceWindows(project: project.id).filter { !$0.isOver(at: now) }
        inv.render(.object(["active": .array(windows.filter { $0.isActive(at: now) }.map { json($0, now: now) }),
                            "upcoming": .array(windows.filter { $0.isUpcoming(at: now) }.map { json($0, now: now) })])) {
            windows.isEmpty ? "no maintenance active or scheduled\n" : table(windows, now: now)
        }
    }

    static let list: RunnableCommand = RunnableCommand("list", abstract: "List every maintenance window, past and cancelled ones included.", examples: [Example("relctl maintenance list", "Every window, past and cancelled ones too.")]) { inv in
        let store = try inv.store(.read)
        let project = try inv.project(in: store)
        let now = inv.now
        let windows = try store.maintenanceWindows(project: project.id)
        inv.render(.object(["windows": .array(windows.map { json($0, now: now) })])) { table(windows, now: now) }
    }

    static let cancel: RunnableCommand = RunnableCommand(
        "cancel", abstract: "Cancel a scheduled window that has not begun.",
        arguments: [Argument("ID", help: "The window's number, as shown by 'relctl maintenance list'.", completion: .dynamic(.windows))],
        options: [Shared.yes, Shared.dryRun],
        examples: [Example("relctl maintenance cancel 1 --yes", "Cancel scheduled window #1.")]
    ) { inv in
        let text = inv.arg("ID")!
        guard let id = Int64(text.hasPrefix("#") ? String(text.dropFirst()) : text) else {
            throw RelctlError.usage("invalid window id '\(text)'", hint: "give the number shown by 'relctl maintenance list'")
        }
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
        try inv.confirm("Cancel maintenance window #\(id) (\(Time.format(w.startsAt)))?")
        try store.cancelWindow(id, in: project, now: now)
        inv.info("cancelled maintenance window #\(id)")
    }
}
