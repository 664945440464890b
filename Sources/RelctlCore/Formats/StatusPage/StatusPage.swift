/// DIR/<project>/status.html (and `relctl status --html FILE`): what `check`
/// says for every recorded version of every platform, for people who do not
/// use the terminal. A pure function of the snapshot, the time, the limits
/// Fidelity found in the files. It never shows the publish instant, nor the
/// database's revision (a database built from the same configuration file
/// publishes the same page): every part of it changes only at a change of
/// the database or at a NextChange instant, so a republish between two
/// changes gives the same bytes.
public enum StatusPage {
    /// `limits` are the declared limits of the project's files at `at`
    /// (Fidelity's findings, once per platform, client and intent);
    /// `published` links the page to DIR/index.html.
    public static func render(_ snapshot: ProjectSnapshot, at: Int64, limits: [Limit], published: Bool) -> [UInt8] {
        let evaluator = Evaluator(snapshot)
        return render(snapshot, states: snapshot.platforms.map { PlatformState(evaluator, $0, at: at) }, at: at, limits: limits,
                      published: published)
    }

    /// The same from the platforms' states the client files were rendered
    /// from (publish): the evaluator's answers are worked out once.
    static func render(_ snapshot: ProjectSnapshot, states: [PlatformState], at: Int64, limits: [Limit], published: Bool) -> [UInt8] {
        render(snapshot, states: states, at: at, limits: limits, published: published,
               since: NextChange.latest(snapshot, atOrBefore: at), next: NextChange.after(snapshot, at: at))
    }

    /// The same with when the state began and when it next changes already
    /// found (publish finds them for the project's summary): each is a walk
    /// over every release.
    /// `forEach`: how the platforms' sections are gone through (ProjectFiles.renderChecked).
    static func render(_ snapshot: ProjectSnapshot, states: [PlatformState], at: Int64, limits: [Limit], published: Bool,
                       since: NextChange?, next: NextChange?, forEach: ForEachIndex = Parallel.serial) -> [UInt8] {
        let project = snapshot.project
        var h = HTML()
        h.head(title: "\(HTML.isolated(project.name)) — release status")
        if published { h.raw("<p class=\"meta\"><a href=\"../index.html\">All projects</a></p>\n") }
        h.raw("<h1>"); h.user(project.name); h.raw(" <span class=\"mut\">("); h.text(project.slug); h.raw(")</span></h1>\n")
        h.raw("<p class=\"meta\">This state since ")
        if let since {
            h.time(since.at); h.raw(" ("); h.text(since.because); h.raw(")")
        } else {
            h.raw("ever")
        }
        h.raw("</p>\n<p class=\"meta\" id=\"next\">Next change: ")
        if let next {
            h.time(next.at); h.raw(" — "); h.text(next.because)
        } else {
            h.raw("none ahead: this stays until the database changes")
        }
        h.raw("</p>\n")
        activeNow(&h, snapshot, at: at)
        let sections = Parallel.map(states.count, forEach) { i in
            var part = HTML()
            section(&part, states[i], limits: limits.filter { $0.platform == states[i].platform.name })
            return part.out
        }
        for part in sections { h.out += part }
        if snapshot.platforms.isEmpty { h.raw("<p>No platform yet (<code>relctl platform add</code>).</p>\n") }
        h.raw("<h2>Timeline</h2>\n")
        Timeline.render(&h, snapshot, at: at, since: since?.at, next: next?.at)
        rulesCard(&h, project)
        h.end()
        return h.out
    }

    /// The words beside each colour.
    static func word(_ kind: Verdict.Kind) -> String {
        switch kind {
        case .required: return "required"
        case .optional: return "optional"
        case .none: return "none"
        case .maintenance: return "maintenance"
        }
    }

    /// "2026-12-01 06:00 UTC", with seconds when there are some.
    static func when(_ t: Int64) -> String { when(formatted: Time.format(t)) }

    /// The same from the instant as Time.format wrote it (yyyy-MM-ddTHH:mm:ssZ).
    static func when(formatted s: String) -> String {
        var b = Array(s.utf8)
        b.removeLast()
        if b.count == 19, b[17] == 48, b[18] == 48 { b.removeLast(3) }
        if b.count > 10, b[10] == 84 { b[10] = 32 }
        b += " UTC".utf8
        return String(decoding: b, as: UTF8.self)
    }

    /// Windows blocking apps right now, at the top where nobody misses them.
    static func activeNow(_ h: inout HTML, _ snapshot: ProjectSnapshot, at: Int64) {
        for w in snapshot.windows where w.isActive(at: at) {
            h.raw("<div class=\"alert\" data-window=\"\(w.id)\"><strong><span class=\"v v-maintenance\">maintenance</span> active now</strong>: window #\(w.id) (")
            h.text(w.platformName ?? "all platforms"); h.raw(") since "); h.time(w.startsAt)
            if let end = w.endsAt { h.raw(", until "); h.time(end) } else { h.raw(", until stopped") }
            h.raw(". Apps show a blocking screen")
            if let copy = windowCopy(w, snapshot.project.defaultLocale) { h.raw(": “"); h.user(copy); h.raw("”") }
            h.raw(".</div>\n")
        }
    }

    /// A window's own title and message in the default locale, when it has them.
    static func windowCopy(_ w: MaintenanceWindow, _ locale: String) -> String? {
        guard let c = w.copy[locale] ?? w.copy.sorted(by: { $0.key < $1.key }).first?.value else { return nil }
        let parts = [c.title, c.message].compactMap { $0 }.filter { !$0.isEmpty }
        return parts.isEmpty ? nil : parts.joined(separator: " — ")
    }

    /// One platform: what is in force, the ladder, what users read, the limits.
    static func section(_ h: inout HTML, _ state: PlatformState, limits: [Limit]) {
        let p = state.platform, snapshot = state.snapshot, at = state.at
        let window = snapshot.activeWindow(p, at: at)
        h.raw("<section class=\"platform\" data-platform=\""); h.text(p.name); h.raw("\">\n<h2>"); h.text(p.name); h.raw("</h2>\n<dl>\n")
        h.raw("<dt>Newest released</dt><dd>"); h.text(state.released?.label ?? "none"); h.raw("</dd>\n")
        if let a = state.announced, a.id != state.released?.id {
            h.raw("<dt>Announced</dt><dd>"); h.text(a.label); h.raw(" (the newer one is in its release delay)</dd>\n")
        }
        h.raw("<dt>Force floor</dt><dd>")
        if let f = p.force {
            h.text(f.text)
            if let d = f.deadline {
                if f.isPending(at: at) { h.raw(": grace period, <span class=\"v v-optional\">optional</span> below it until "); h.time(d); h.raw(", <span class=\"v v-required\">required</span> from then") }
                else { h.raw(": required since the deadline, "); h.time(d) }
            }
        } else { h.raw("none") }
        h.raw("</dd>\n<dt>Recommend floor</dt><dd>"); h.text(p.recommend?.text ?? "none"); h.raw("</dd>\n")
        let pins = state.verdicts.filter { $0.0.policy != nil }.map { "\($0.0.label) \($0.0.policy!.rawValue)" }
        h.raw("<dt>Pins</dt><dd>"); h.text(pins.isEmpty ? "none" : pins.reversed().joined(separator: ", ")); h.raw("</dd>\n")
        // Versions that need different OS: what each band can install, and the floors some cannot reach.
        let bands = state.os == nil ? state.bands() : []
        if bands.count > 1 {
            h.raw("<dt>OS bands</dt><dd>")
            h.text(bands.map { "\($0.band.label(p.name)): up to \($0.state.released?.label ?? "nothing released")" }.joined(separator: "; "))
            h.raw("</dd>\n")
        }
        for l in Lockouts.of(p, state.versions, at: at) {
            h.raw("<dt>Lockout</dt><dd class=\"lockout\">"); h.text(l.sentence); h.raw("</dd>\n")
        }
        var only = snapshot
        only.platforms = [p]
        only.windows = snapshot.windows.filter { $0.applies(to: p.id) }
        h.raw("<dt>Next change</dt><dd>")
        if let next = NextChange.after(only, at: at) { h.time(next.at); h.raw(" — "); h.text(next.because) } else { h.raw("none ahead") }
        h.raw("</dd>\n</dl>\n")
        if window != nil {
            h.raw("<p>Every version sees <span class=\"v v-maintenance\">maintenance</span> now; the column “after the window” is what each sees when it ends.</p>\n")
        }
        ladder(&h, state, window: window)
        messages(&h, state)
        h.raw("<h3>What the published formats cannot carry</h3>\n")
        if limits.isEmpty {
            h.raw("<p class=\"mut\">Nothing: every client reads what <code>relctl check</code> says.</p>\n")
        } else {
            h.raw("<ul class=\"limits\">\n")
            var order: [String] = []
            var byIntent: [String: [Limit]] = [:]
            for l in limits {
                if byIntent[l.intent] == nil { order.append(l.intent) }
                byIntent[l.intent, default: []].append(l)
            }
            for intent in order {
                h.raw("<li><strong>"); h.text(intent); h.raw("</strong>: ")
                var reasons: [String] = []
                var clients: [String: [String]] = [:]
                for l in byIntent[intent]! {
                    if clients[l.reason] == nil { reasons.append(l.reason) }
                    if !(clients[l.reason]?.contains(l.client.rawValue) ?? false) { clients[l.reason, default: []].append(l.client.rawValue) }
                }
                h.text(reasons.map { "\(clients[$0]!.joined(separator: ", ")): \($0)" }.joined(separator: "; "))
                h.raw("</li>\n")
            }
            h.raw("</ul>\n")
        }
        h.raw("</section>\n")
    }

    /// Newest first; each floor marked by a row where it sits, above the
    /// first version below it.
    static func ladder(_ h: inout HTML, _ state: PlatformState, window: MaintenanceWindow?) {
        let p = state.platform, at = state.at
        guard !state.verdicts.isEmpty else { h.raw("<p class=\"mut\">No version recorded.</p>\n"); return }
        var floors: [(Floor, Bool)] = []
        if let f = p.force { floors.append((f, true)) }
        if let r = p.recommend { floors.append((r, false)) }
        h.raw("<div class=\"scroll\"><table class=\"ladder\">\n<thead><tr><th>Version</th><th>Build</th><th>Verdict now</th>")
        if window != nil { h.raw("<th>After the window</th>") }
        h.raw("<th>Why</th><th class=\"wide\">Released</th></tr></thead>\n<tbody>\n")
        let columns = window != nil ? 6 : 5
        func floorRow(_ f: Floor, _ force: Bool) {
            h.raw("<tr class=\"floor\(force ? "" : " rec")\"><td colspan=\"\(columns)\">")
            if force {
                h.raw("▼ force floor "); h.text(f.text)
                if let d = f.deadline, f.isPending(at: at) { h.raw(": below it optional until "); h.time(d); h.raw(", then required") }
                else { h.raw(": below it the update is required") }
            } else { h.raw("▼ recommend floor "); h.text(f.text); h.raw(": below it the update is recommended") }
            h.raw("</td></tr>\n")
        }
        // While a window blocks the platform every version sees the same maintenance verdict.
        let blocked = window != nil ? state.evaluator.maintenance(p, at: at) : nil
        // What older OS are told otherwise (control.json's byOs), by the version's index.
        let byOS = ControlFormat.byOS(state)
        for (index, (v, update)) in state.verdicts.enumerated().reversed() {
            for (i, (f, force)) in floors.enumerated().reversed() where Release.isBelow(v.release, f.release) {
                floorRow(f, force)
                floors.remove(at: i)
            }
            let shown = blocked ?? update
            // Appended piece by piece: a row per version of every platform.
            let build = v.build.map(String.init)
            h.raw("<tr data-version=\""); h.text(v.version.text); h.raw("\" data-build=\""); h.raw(build ?? "")
            h.raw("\" data-verdict=\""); h.raw(shown.kind.rawValue); h.raw("\"><td><strong>")
            h.text(v.version.text); h.raw("</strong>")
            if let policy = v.policy { h.raw("<span class=\"tag\">pinned: "); h.text(policy.rawValue); h.raw("</span>") }
            h.raw("</td><td>"); h.raw(build ?? "—"); h.raw("</td><td>"); h.verdict(shown.kind)
            if let t = shown.target { h.raw(" <span class=\"mut\">→ "); h.text(t.version.text); h.raw("</span>") }
            if let d = shown.deadline { h.raw("<br><span class=\"mut\">required from "); h.time(d); h.raw("</span>") }
            for (band, verdict) in byOS[index] ?? [] where blocked == nil {
                h.raw("<br><span class=\"mut os\">on "); h.text(band.label(p.name)); h.raw(": </span>"); h.verdict(verdict.kind)
                if let t = verdict.target { h.raw(" <span class=\"mut\">→ "); h.text(t.version.text); h.raw("</span>") }
            }
            h.raw("</td>")
            if window != nil { h.raw("<td>"); h.verdict(update.kind); h.raw("</td>") }
            h.raw("<td>"); h.text(shown.why); h.raw("</td><td class=\"wide\">")
            if let r = v.releasedAt {
                if r <= at { h.time(r) } else { h.raw("releases "); h.time(r) }
            } else { h.raw("unreleased") }
            h.raw("</td></tr>\n")
        }
        for (f, force) in floors { floorRow(f, force) }
        h.raw("</tbody>\n</table></div>\n")
    }

    /// What users read, in the default locale: the required and optional
    /// messages as the newest outdated version would see them, and the
    /// newest release's notes.
    static func messages(_ h: inout HTML, _ state: PlatformState) {
        let locale = state.project.defaultLocale
        var shown: [Verdict.Kind] = []
        var items: [(Verdict.Kind, [String])] = []
        for row in state.verdicts.indices.reversed() {
            let kind = state.verdicts[row].1.kind
            guard (kind == .required || kind == .optional) && !shown.contains(kind) else { continue }
            let verdict = state.verdicts[row].1
            shown.append(kind)
            guard let m = state.evaluator.message(verdict, locale: locale) else { continue }
            items.append((verdict.kind, [m["title"]?.value, m["message"]?.value].compactMap { $0 }))
        }
        let notes = state.released.flatMap { v in state.notes(v, locale: locale).map { (v, $0) } }
        guard !items.isEmpty || notes != nil else { return }
        h.raw("<h3>What users read (")
        h.text(locale); h.raw(")</h3>\n<ul class=\"messages\">\n")
        for (kind, texts) in items {
            h.raw("<li>"); h.verdict(kind); h.raw(" ")
            for (i, text) in texts.enumerated() { if i > 0 { h.raw(" — ") }; h.user(text) }
            h.raw("</li>\n")
        }
        if let (v, (l, text)) = notes {
            h.raw("<li>What’s new in "); h.text(v.version.text); h.raw(" ("); h.text(l); h.raw("): "); h.user(text); h.raw("</li>\n")
        }
        h.raw("</ul>\n")
    }

    static func rulesCard(_ h: inout HTML, _ project: ProjectRecord) {
        h.raw("<h2>Rules</h2>\n<p>Outdated versions: "); h.text(project.outdated.rawValue)
        h.raw(" · release delay \(project.releaseDelayDays) day\(project.releaseDelayDays == 1 ? "" : "s") · remind after \(project.remindHours) h")
        for type in Rules.types {
            let index = Rules.types.firstIndex(of: type)!
            let rule = project.rules.rule(forDifference: index)
            h.raw(" · \(type): "); h.text("\(rule.name) (\(rule.alert.rawValue), \(rule.frequency.rawValue))")
        }
        h.raw("</p>\n")
    }
}
