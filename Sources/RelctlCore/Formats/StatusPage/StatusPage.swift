/// DIR/<project>/status.html (and `relctl status --html FILE`): what `check`
/// says for every recorded version of every platform, for people who do not
/// use the terminal. A pure function of the snapshot, the time, the limits
/// Fidelity found in the files. It never shows the publish instant, nor the
/// database's revision (a database built from the same configuration file
/// publishes the same page): every part of it changes only at a change of
/// the database or at a NextChange instant, so a republish between two
/// changes gives the same bytes.
public enum StatusPage {
    /// What each storefront's store was seen to serve, with when it was seen:
    /// facts with their instants (the page is the same bytes until the
    /// database changes), for the floors' checks `relctl store show` makes.
    static func storeEvidence(_ h: inout HTML, _ p: PlatformRecord, _ evidence: StoreEvidence?) {
        guard !p.storefronts.isEmpty || !(evidence?.isEmpty ?? true) else { return }
        h.raw("<dt>Storefronts</dt><dd>"); h.text(p.storefronts.isEmpty ? "none named: floors are not checked against the stores" : p.storefronts.joined(separator: ", ")); h.raw("</dd>\n")
        for l in evidence?.lookups ?? [] {
            h.raw("<dt>Store "); h.text(l.storefront); h.raw("</dt><dd>")
            h.text(l.version.map { "serves \($0.text)" } ?? "no result")
            if let r = l.releasedAt { h.raw(", released "); h.time(r) }
            h.raw(" (lookup fetched "); h.time(l.fetchedAt); h.raw(")</dd>\n")
        }
        if let play = evidence?.play {
            h.raw("<dt>Google Play</dt><dd>")
            let production = play.releases.filter { $0.track == "production" }
            h.text(production.isEmpty ? "no production release" : production.map { r in
                "versionCode \(r.versionCodes.map(String.init).joined(separator: "+")) \(r.status.rawValue)"
                    + (r.status == .inProgress || r.status == .halted ? " at \(r.percent)" : "") + (r.countries.map { " in " + $0.joined(separator: ", ") + (r.restOfWorld ? " and the rest of the world" : "") } ?? "")
            }.joined(separator: "; "))
            h.raw(" (tracks imported "); h.time(play.importedAt); h.raw(")</dd>\n")
        }
    }

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
               since: NextChange.latest(snapshot, atOrBefore: at, people: true), next: NextChange.after(snapshot, at: at, people: true))
    }

    /// The same with when the state began and when it next changes already
    /// found (publish finds them for the project's summary): each is a walk
    /// over every release. Both as people notice them (`people: true`): the
    /// hour before a window when control.json polls faster is for engineers.
    /// `forEach`: how the platforms' sections are gone through (ProjectFiles.renderChecked).
    static func render(_ snapshot: ProjectSnapshot, states: [PlatformState], at: Int64, limits: [Limit], published: Bool,
                       since: NextChange?, next: NextChange?, forEach: ForEachIndex = Parallel.serial) -> [UInt8] {
        let project = snapshot.project
        var h = HTML(zone: snapshot.zone)
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
        if !project.trustedKeys.isEmpty {
            // Apps that pin the keys obey a signed file until it expires: the page says until when.
            h.raw("<p class=\"meta\" id=\"signed\">Signed: control.json and the appcasts, by a key of ")
            h.text("\(project.trustedKeys.count) trusted; ")
            if published { h.raw("apps obey these files until "); h.time(at + SignedDocument.validity) }
            else { h.text("a publish's files are obeyed for \(SignedDocument.validity / 86_400) days") }
            h.text(", and a publish signs them again \((SignedDocument.validity - SignedDocument.renewAfter) / 86_400) days before (publish --watch does)")
            h.raw("</p>\n")
        }
        activeNow(&h, snapshot, at: at)
        let sections = Parallel.map(states.count, forEach) { i in
            var part = HTML(zone: snapshot.zone)
            section(&part, states[i], limits: limits.filter { $0.platform == states[i].platform.name })
            return part.out
        }
        for part in sections { h.out += part }
        if snapshot.platforms.isEmpty { h.raw("<p>No platform yet (<code>relctl platform add</code>).</p>\n") }
        h.raw("<h2>Timeline</h2>\n")
        Timeline.render(&h, snapshot, at: at, since: since?.at, next: next?.at)
        h.raw("<h2>For engineers</h2>\n")
        polling(&h, snapshot, at: at)
        rulesCard(&h, project)
        h.end(timeZone: project.timeZone)
        return h.out
    }

    /// control.json's polling: machinery people need not read, kept here
    /// rather than in "Next change".
    static func polling(_ h: inout HTML, _ snapshot: ProjectSnapshot, at: Int64) {
        let live = snapshot.windows.filter { !$0.isCancelled && !$0.isOver(at: at) }.sorted { ($0.startsAt, $0.id) < ($1.startsAt, $1.id) }
        h.raw("<p>Polling: control.json asks apps to check every \(ControlFormat.normalPoll / 60) min, and every \(ControlFormat.urgentPoll) s from an hour before a maintenance window until it ends. ")
        if let w = live.first(where: { $0.startsAt - ControlFormat.urgentLead <= at }) {
            h.raw("Now: every \(ControlFormat.urgentPoll) s (maintenance window #\(w.id)).")
        } else if let w = live.first {
            h.raw("Faster from "); h.time(w.startsAt - ControlFormat.urgentLead); h.raw(" (maintenance window #\(w.id)).")
        } else {
            h.raw("No window ahead.")
        }
        h.raw("</p>\n")
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

    /// Windows blocking apps right now, at the top where nobody misses them.
    static func activeNow(_ h: inout HTML, _ snapshot: ProjectSnapshot, at: Int64) {
        let evaluator = Evaluator(snapshot)
        for w in snapshot.windows where w.isActive(at: at) {
            h.raw("<div class=\"alert\" data-window=\"\(w.id)\"><strong><span class=\"v v-maintenance\">maintenance</span> active now</strong>: window #\(w.id) (")
            h.text(w.platformName ?? "all platforms"); h.raw(") since "); h.time(w.startsAt)
            if let end = w.endsAt { h.raw(", until "); h.time(end) } else { h.raw(", until stopped") }
            h.raw(". Apps show a blocking screen: “")
            // The window's copy, else the project's or the catalog's text, {until} filled: what the app shows.
            h.user(readText(evaluator.message(Verdict(kind: .maintenance, decidedBy: .maintenance, why: "", target: nil, window: w),
                                              locale: snapshot.project.defaultLocale)))
            h.raw("”.</div>\n")
        }
    }

    /// A message as users read it: its title and text, filled as the app fills them.
    static func readText(_ m: [String: ResolvedText]?) -> String {
        [m?["title"]?.value, m?["message"]?.value].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: " — ")
    }

    /// A staged recommend: the share in now, the steps to come, whether it is halted, what the files that cannot stage say.
    static func rollout(_ h: inout HTML, _ r: Rollout, at: Int64) {
        h.raw("<dt>Rollout</dt><dd>"); h.text(r.floor.text); h.raw(" to <strong>"); h.text(Rollout.percent(r.basisPoints(at: at))); h.raw("</strong> of installs")
        if let halted = r.haltedAt { h.raw(", <span class=\"v v-maintenance\">halted</span> since "); h.time(halted); h.raw(": nobody new is asked") }
        for (from, bp) in r.widenings(after: at) {
            h.raw("; "); h.text(bp == Rollout.unit ? "every install" : Rollout.percent(bp)); h.raw(" from "); h.time(from)
        }
        if r.isComplete(at: at) { h.raw(" (every install: finish it to make it the recommend floor)") }
        else { h.text(r.unstaged == .everyone ? "; files that cannot stage ask every install at once" : "; files that cannot stage withhold it until every install is in") }
        h.raw("</dd>\n")
    }

    /// One platform: what is in force, the ladder, what users read, the limits.
    static func section(_ h: inout HTML, _ state: PlatformState, limits: [Limit]) {
        let p = state.platform, snapshot = state.snapshot, at = state.at
        let window = snapshot.activeWindow(p, at: at)
        h.raw("<section class=\"platform\" data-platform=\""); h.text(p.name); h.raw("\">\n<h2>"); h.text(p.name); h.raw("</h2>\n<dl>\n")
        h.raw("<dt>Newest released</dt><dd>"); h.text(state.released?.label ?? "none"); h.raw("</dd>\n")
        // Floors and pins send users to the newest release at once; the outdated rules wait for its delay.
        let staging = state.source.isStaging(at: at) ? state.source.rollout : nil
        if let r = state.released, state.announced?.id != r.id, let staged = staging, !Release.isBelow(r.release, staged.floor.release) {
            h.raw("<dt>Sent to</dt><dd>"); h.text(r.label); h.raw(" only by the rollout and by floors and pins; other outdated versions ")
            if let a = state.announced { h.raw("are told about "); h.text(a.label) } else { h.raw("are told about nothing") }
            h.raw("</dd>\n")
        } else if let r = state.released, state.announced?.id != r.id {
            h.raw("<dt>Sent to</dt><dd>")
            if p.force != nil || p.recommend != nil || state.versions.contains(where: { $0.policy != nil }) {
                h.text(r.label); h.raw(" by floors and pins; other outdated versions ")
            } else {
                h.raw("outdated versions ")
            }
            if let a = state.announced { h.raw("are told about "); h.text(a.label) } else { h.raw("are told about nothing yet") }
            h.raw(" until "); h.text(r.version.text); h.raw("’s release delay ends")
            if let released = r.releasedAt { h.raw(", "); h.time(released + snapshot.delaySeconds) }
            h.raw("</dd>\n")
        }
        h.raw("<dt>Force floor</dt><dd>")
        if let f = p.force {
            h.text(f.text)
            if let d = f.deadline {
                if f.isPending(at: at) { h.raw(": grace period, <span class=\"v v-optional\">optional</span> below it until "); h.time(d); h.raw(", <span class=\"v v-required\">required</span> from then") }
                else { h.raw(": required since the deadline, "); h.time(d) }
            }
        } else { h.raw("none") }
        h.raw("</dd>\n<dt>Recommend floor</dt><dd>"); h.text(state.source.recommend?.text ?? "none"); h.raw("</dd>\n")
        if let r = state.source.rollout { rollout(&h, r, at: at) }
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
        storeEvidence(&h, p, snapshot.store[p.id])
        var only = snapshot
        only.platforms = [p]
        only.windows = snapshot.windows.filter { $0.applies(to: p.id) }
        let next = NextChange.after(only, at: at, people: true)
        h.raw("<dt>Next change</dt><dd>")
        if let next { h.time(next.at); h.raw(" — "); h.text(next.because) } else { h.raw("none ahead") }
        h.raw("</dd>\n</dl>\n")
        if window != nil {
            h.raw("<p>Every version sees <span class=\"v v-maintenance\">maintenance</span> now; the column “after the window” is what each sees when it ends.</p>\n")
        }
        ladder(&h, state, window: window)
        messages(&h, state, next: next)
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
                h.raw("<li><strong>"); h.sentence(intent); h.raw("</strong>: ")
                var reasons: [String] = []
                var clients: [String: [String]] = [:]
                for l in byIntent[intent]! {
                    if clients[l.reason] == nil { reasons.append(l.reason) }
                    if !(clients[l.reason]?.contains(l.client.rawValue) ?? false) { clients[l.reason, default: []].append(l.client.rawValue) }
                }
                h.sentence(reasons.map { "\(clients[$0]!.joined(separator: ", ")): \($0)" }.joined(separator: "; "))
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
        // Each band's name made once, not per version that reads otherwise there.
        var labels: [String: String] = [:]
        for (band, _) in state.bandStates { if let os = band.os { labels[os] = band.label(p.name) } }
        for (index, (v, update)) in state.verdicts.enumerated().reversed() {
            for (i, (f, force)) in floors.enumerated().reversed() where Release.isBelow(v.release, f.release) {
                floorRow(f, force)
                floors.remove(at: i)
            }
            let shown = blocked ?? update
            // Appended piece by piece: a row per version of every platform.
            h.raw("<tr data-version=\""); h.text(v.version.text); h.raw("\" data-build=\""); if let b = v.build { h.number(b) }
            h.raw("\" data-verdict=\""); h.raw(shown.kind.rawValue); h.raw("\"><td><strong>")
            h.text(v.version.text); h.raw("</strong>")
            if let policy = v.policy { h.raw("<span class=\"tag\">pinned: "); h.text(policy.rawValue); h.raw("</span>") }
            h.raw("</td><td>"); if let b = v.build { h.number(b) } else { h.raw("—") }
            h.raw("</td><td>"); h.verdict(shown.kind)
            if let t = shown.target { h.raw(" <span class=\"mut\">→ "); h.text(t.version.text); h.raw("</span>") }
            if let d = shown.deadline { h.raw("<br><span class=\"mut\">required from "); h.time(d); h.raw("</span>") }
            for (band, verdict) in byOS[index] ?? [] where blocked == nil {
                h.raw("<br><span class=\"mut os\">on "); h.text(labels[band.os!]!); h.raw(": </span>"); h.verdict(verdict.kind)
                if let t = verdict.target { h.raw(" <span class=\"mut\">→ "); h.text(t.version.text); h.raw("</span>") }
            }
            h.raw("</td>")
            if window != nil { h.raw("<td>"); h.verdict(update.kind); h.raw("</td>") }
            h.raw("<td>"); h.sentence(shown.why); h.raw("</td><td class=\"wide\">")
            if let r = v.releasedAt {
                if r <= at { h.time(r) } else { h.raw("releases "); h.time(r) }
            } else { h.raw("unreleased") }
            h.raw("</td></tr>\n")
        }
        for (f, force) in floors { floorRow(f, force) }
        h.raw("</tbody>\n</table></div>\n")
    }

    /// What users read, in the default locale: every text some install
    /// reads now (recorded versions, and installs nobody recorded below each
    /// floor: the deadline copy; a window's copy; filled as the app fills
    /// them), who reads it, what they read from the next change on when
    /// that differs, and the newest release's notes.
    static func messages(_ h: inout HTML, _ state: PlatformState, next: NextChange?) {
        let locale = state.project.defaultLocale
        let now = readings(state, at: state.at)
        var later: [Reading] = []
        if let next {
            later = readings(state, at: next.at)
            if later == now { later = [] }
        }
        let notes = state.released.flatMap { v in state.notes(v, locale: locale).map { (v, $0) } }
        guard !now.isEmpty || !later.isEmpty || notes != nil else { return }
        h.raw("<h3>What users read ("); h.text(locale); h.raw(")</h3>\n")
        func list(_ readings: [Reading]) {
            for r in readings {
                h.raw("<li data-kind=\"\(r.kind.rawValue)\">"); h.verdict(r.kind); h.raw(" <span class=\"mut\">")
                h.text(versionList(r.versions, others: r.others)); h.raw(":</span> "); h.user(r.text); h.raw("</li>\n")
            }
        }
        h.raw("<ul class=\"messages\">\n")
        list(now)
        if let (v, (l, text)) = notes {
            h.raw("<li>What’s new in "); h.text(v.version.text); h.raw(" ("); h.text(l); h.raw("): "); h.user(text); h.raw("</li>\n")
        }
        h.raw("</ul>\n")
        if let next, !later.isEmpty || !now.isEmpty {
            h.raw("<p class=\"next\">From "); h.time(next.at); h.raw(" ("); h.text(next.because); h.raw(")")
            if later.isEmpty { h.raw(": the same texts.</p>\n"); return }
            h.raw(":</p>\n<ul class=\"messages next\">\n")
            list(later)
            h.raw("</ul>\n")
        }
    }

    /// One text, the recorded versions that read it, and the unrecorded installs ("other versions below 2.0").
    struct Reading: Equatable {
        var kind: Verdict.Kind
        var text: String
        var versions: [String]
        var others: [String] = []
    }

    /// The texts read at `t` (as `check` answers there), grouped by what is read: newest versions first.
    static func readings(_ state: PlatformState, at t: Int64) -> [Reading] {
        let p = state.platform, evaluator = state.evaluator
        // A row per version of every platform: the platform's facts and each distinct message are worked out once.
        let blocked = evaluator.maintenance(p, at: t)
        let facts = t == state.at ? nil : Evaluator.PlatformFacts(state.snapshot, p, at: t)
        var out: [Reading] = []
        var index: [String: Int] = [:]
        /// What decides a verdict's message, hashed as numbers: a row per version of every
        /// platform (and OS band) looked its text up by a string made and hashed for each.
        struct Said: Hashable { var kind: Verdict.Kind, target: Int64, deadline: Int64, window: Int64 }
        var read: [Said: (key: String, text: String, slot: Int?)] = [:]
        /// The text's key (nil: none shown); nothing is added when it is `unless`.
        @discardableResult
        func add(_ verdict: Verdict, version: String?, other: String?, unless: String? = nil) -> String? {
            guard verdict.kind != .none else { return nil }
            let said = Said(kind: verdict.kind, target: verdict.target?.id ?? 0, deadline: verdict.deadline ?? 0, window: verdict.window?.id ?? 0)
            var known = read[said] ?? {
                let text = readText(evaluator.message(verdict, locale: state.project.defaultLocale))
                return ("\(verdict.kind.rawValue)\u{0}\(text)", text, nil)
            }()
            let key = known.key
            if key == unless { read[said] = known; return key }
            let i: Int
            if let slot = known.slot { i = slot } else {
                i = index[key] ?? out.count
                if i == out.count { index[key] = i; out.append(Reading(kind: verdict.kind, text: known.text, versions: [])) }
                known.slot = i
            }
            read[said] = known
            if let version { out[i].versions.append(version) }
            if let other, !out[i].others.contains(other) { out[i].others.append(other) }
            return key
        }
        var newest: [Int64: String] = [:]
        for (v, verdict) in state.verdicts.reversed() {
            newest[v.id] = add(blocked ?? facts.map { evaluator.update(p, v.release, at: t, facts: $0) } ?? verdict, version: v.label, other: nil)
        }
        // Devices on an older OS may read otherwise (offered the newest they can install): listed where they do.
        if blocked == nil {
            // Now, each band's verdicts are its state's (PlatformState.bandStates); later, worked out here.
            let bands: [(band: OSBand, state: PlatformState?)] = t == state.at && state.os == nil
                ? state.bandStates.filter { $0.state != nil }
                : OSBands.of(p, state.versions).filter { $0.os != nil && OSBands.populated($0, p, state.versions) }.map { ($0, nil) }
            for (band, bandState) in bands {
                let os = band.os!, facts = bandState == nil ? Evaluator.PlatformFacts(state.snapshot, p, at: t, os: os) : nil
                let on = " on " + band.label(p.name)
                for (i, v) in state.versions.enumerated().reversed() where OSBands.installable(v, on: os, p) {
                    add(bandState?.verdicts[i].1 ?? evaluator.update(p, v.release, at: t, facts: facts!), version: v.label + on, other: nil, unless: newest[v.id])
                }
            }
        }
        // An install just below each floor that nobody recorded (1.9.999999 below 2.0) reads what every such install reads.
        let recorded = Set(state.versions.map(\.version))
        for floor in [p.force, p.recommend].compactMap({ $0 }) {
            guard let below = Probes.below(floor.version), !recorded.contains(below) else { continue }
            add(evaluator.evaluate(p, Release(below, build: nil), at: t), version: nil, other: "other versions below \(floor.text)")
        }
        return out
    }

    /// "2.0", "2.0 and 1.9", "2.0, 1.9, 1.8 and 4 more" (newest first), then the unrecorded installs.
    static func versionList(_ versions: [String], others: [String]) -> String {
        let shown = versions.count > 3 ? Array(versions.prefix(3)) + ["\(versions.count - 3) more"] : versions
        let all = shown + others
        return all.count == 1 ? all[0] : all.dropLast().joined(separator: ", ") + " and " + all.last!
    }

    static func rulesCard(_ h: inout HTML, _ project: ProjectRecord) {
        h.raw("<p>Rules: outdated versions "); h.text(project.outdated.rawValue)
        h.raw(" · release delay \(project.releaseDelayDays) day\(project.releaseDelayDays == 1 ? "" : "s") · remind after \(project.remindHours) h")
        for type in Rules.types {
            let index = Rules.types.firstIndex(of: type)!
            let rule = project.rules.rule(forDifference: index)
            h.raw(" · \(type): "); h.text("\(rule.name) (\(rule.alert.rawValue), \(rule.frequency.rawValue))")
        }
        h.raw("</p>\n")
    }
}
