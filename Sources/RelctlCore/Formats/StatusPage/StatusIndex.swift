/// What DIR/index.html shows of one project: small, so the root page of a
/// thousand projects is rendered from these alone (a publish that changed
/// one project can keep the others' summaries instead of re-reading them).
public struct StatusSummary: Sendable, Equatable {
    public struct Platform: Sendable, Equatable {
        public var name: String
        public var newest: String?
        public var force: String?
        /// The force floor's deadline, and whether its grace period still runs.
        public var deadline: Int64?
        public var pending: Bool
        public var recommend: String?
        public var pins: Int
        /// How many recorded versions get each verdict now (as `check` says).
        public var required = 0, optional = 0, none = 0, maintenance = 0
    }

    public struct Window: Sendable, Equatable {
        public var id: Int64
        public var scope: String
        public var from: Int64
        public var to: Int64?
    }

    public var slug: String
    public var name: String
    public var platforms: [Platform]
    public var active: [Window]
    public var upcoming: [Window]
    public var since: NextChange?
    public var next: NextChange?

    public init(_ snapshot: ProjectSnapshot, at: Int64) {
        let evaluator = Evaluator(snapshot)
        self.init(snapshot, states: snapshot.platforms.map { PlatformState(evaluator, $0, at: at) }, at: at)
    }

    /// From the platforms' states the files were rendered from: each
    /// version's update verdict, maintenance while a window applies (what
    /// `check` says, from the one evaluator).
    init(_ snapshot: ProjectSnapshot, states: [PlatformState], at: Int64) {
        slug = snapshot.project.slug
        name = snapshot.project.name
        platforms = states.map { state in
            let p = state.platform
            var s = Platform(name: p.name, newest: state.released?.label, force: p.force?.text, deadline: p.force?.deadline,
                             pending: p.force?.isPending(at: at) ?? false, recommend: p.recommend?.text,
                             pins: state.verdicts.filter { $0.0.policy != nil }.count)
            let blocked = snapshot.activeWindow(p, at: at) != nil
            for i in state.verdicts.indices {
                switch blocked ? .maintenance : state.verdicts[i].1.kind {
                case .required: s.required += 1
                case .optional: s.optional += 1
                case .none: s.none += 1
                case .maintenance: s.maintenance += 1
                }
            }
            return s
        }
        func window(_ w: MaintenanceWindow) -> Window { Window(id: w.id, scope: w.platformName ?? "all platforms", from: w.startsAt, to: w.endsAt) }
        active = snapshot.windows.filter { $0.isActive(at: at) }.map(window)
        upcoming = snapshot.upcomingWindows(nil, at: at).sorted { $0.startsAt < $1.startsAt }.map(window)
        // As people notice changes (the status pages show these): not control.json's faster polling.
        since = NextChange.latest(snapshot, atOrBefore: at, people: true)
        next = NextChange.after(snapshot, at: at, people: true)
    }
}

/// A summary as index.json records it, so that DIR/index.html can list a
/// project the publish left alone without reading it from the database.
extension StatusSummary {
    package var json: JSON {
        func window(_ w: Window) -> JSON { .object(["id": .int(w.id), "scope": .string(w.scope), "from": .time(w.from), "to": .time(w.to)]) }
        return .object([
            "slug": .string(slug), "name": .string(name),
            "platforms": .array(platforms.map { p in
                .object(["name": .string(p.name), "newest": .optional(p.newest), "force": .optional(p.force), "deadline": .time(p.deadline),
                         "pending": .bool(p.pending), "recommend": .optional(p.recommend), "pins": .int(p.pins),
                         "required": .int(p.required), "optional": .int(p.optional), "none": .int(p.none), "maintenance": .int(p.maintenance)])
            }),
            "active": .array(active.map(window)), "upcoming": .array(upcoming.map(window)),
            "since": NextChange.json(since), "next": NextChange.json(next),
        ])
    }

    /// nil for anything this relctl did not write: the publish then renders the project anew.
    package init?(json: JSON) {
        guard case .object(let o) = json, case .string(let slug)? = o["slug"], case .string(let name)? = o["name"],
              case .array(let platforms)? = o["platforms"], case .array(let active)? = o["active"], case .array(let upcoming)? = o["upcoming"],
              let since = NextChange.read(o["since"]), let next = NextChange.read(o["next"]) else { return nil }
        func string(_ v: JSON?) -> String?? {
            switch v { case .null?: return .some(nil); case .string(let s)?: return .some(s); default: return nil }
        }
        func time(_ v: JSON?) -> Int64?? {
            switch v { case .null?: return .some(nil); case .string(let s)?: return Time.parseUTC(s).map { .some($0) } ?? nil; default: return nil }
        }
        func count(_ v: JSON?) -> Int? {
            guard case .int(let n)? = v, n >= 0, n <= Int64(Int32.max) else { return nil }
            return Int(n)
        }
        func window(_ v: JSON) -> Window? {
            guard case .object(let w) = v, case .int(let id)? = w["id"], case .string(let scope)? = w["scope"],
                  let from = time(w["from"]) ?? nil, let to = time(w["to"]) else { return nil }
            return Window(id: id, scope: scope, from: from, to: to)
        }
        self.slug = slug; self.name = name; self.since = since; self.next = next
        self.platforms = []
        for v in platforms {
            guard case .object(let p) = v, case .string(let pname)? = p["name"], let newest = string(p["newest"]), let force = string(p["force"]),
                  let deadline = time(p["deadline"]), case .bool(let pending)? = p["pending"], let recommend = string(p["recommend"]),
                  let pins = count(p["pins"]), let required = count(p["required"]), let optional = count(p["optional"]),
                  let none = count(p["none"]), let maintenance = count(p["maintenance"]) else { return nil }
            var platform = Platform(name: pname, newest: newest, force: force, deadline: deadline, pending: pending, recommend: recommend, pins: pins)
            platform.required = required; platform.optional = optional; platform.none = none; platform.maintenance = maintenance
            self.platforms.append(platform)
        }
        self.active = []
        for v in active { guard let w = window(v) else { return nil }; self.active.append(w) }
        self.upcoming = []
        for v in upcoming { guard let w = window(v) else { return nil }; self.upcoming.append(w) }
    }
}

/// DIR/index.html: every project, its platforms, what is in force and
/// anything active now, from the projects' summaries. Like the project
/// pages it shows when the state began, not the publish instant or the
/// database's revision: the same configuration gives the same page.
public enum StatusIndex {
    public static func render(_ summaries: [StatusSummary]) -> [UInt8] {
        let projects = summaries.sorted { $0.slug < $1.slug }
        var h = HTML()
        h.head(title: "Release status")
        h.raw("<h1>Release status</h1>\n<p class=\"meta\">\(projects.count) project\(projects.count == 1 ? "" : "s")")
        let since = projects.compactMap { $0.since?.at }.max()
        if let since { h.raw(" · this state since "); h.time(since) }
        h.raw("</p>\n")
        let next = projects.reduce(nil as NextChange?) { NextChange.earliest($0, $1.next?.naming($1.slug)) }
        h.raw("<p class=\"meta\" id=\"next\">Next change: ")
        if let next { h.time(next.at); h.raw(" — "); h.text(next.because) } else { h.raw("none ahead") }
        h.raw("</p>\n")
        let blocked = projects.filter { !$0.active.isEmpty }
        if blocked.isEmpty {
            h.raw("<p>No maintenance active now.</p>\n")
        }
        for s in blocked {
            for w in s.active {
                h.raw("<div class=\"alert\"><strong><span class=\"v v-maintenance\">maintenance</span> active now</strong>: "); h.user(s.name)
                h.raw(" ("); h.text(w.scope); h.raw(") since "); h.time(w.from)
                if let to = w.to { h.raw(", until "); h.time(to) } else { h.raw(", until stopped") }
                h.raw("</div>\n")
            }
        }
        for s in projects {
            h.raw("<section class=\"card project\" data-project=\""); h.text(s.slug); h.raw("\">\n<h2><a href=\""); h.text(s.slug); h.raw("/status.html\">")
            h.user(s.name); h.raw("</a> <span class=\"mut\">("); h.text(s.slug); h.raw(")</span></h2>\n")
            if s.platforms.isEmpty { h.raw("<p class=\"mut\">No platform yet.</p>\n") } else {
                h.raw("<div class=\"scroll\"><table>\n<thead><tr><th>Platform</th><th>Versions now</th><th>Newest</th><th>Force floor</th><th>Recommend floor</th><th>Pins</th></tr></thead>\n<tbody>\n")
                for p in s.platforms {
                    h.raw("<tr data-platform=\""); h.text(p.name); h.raw("\"><td>"); h.text(p.name); h.raw("</td><td>")
                    // What matters most first: on a phone the table scrolls sideways.
                    var parts: [String] = []
                    for (kind, n) in [(Verdict.Kind.maintenance, p.maintenance), (.required, p.required), (.optional, p.optional), (.none, p.none)] where n > 0 {
                        parts.append("<span class=\"v v-\(kind.rawValue)\">\(n) \(StatusPage.word(kind))</span>")
                    }
                    h.raw(parts.isEmpty ? "—" : parts.joined(separator: " "))
                    h.raw("</td><td>"); h.text(p.newest ?? "none"); h.raw("</td><td>")
                    h.text(p.force ?? "none")
                    if let d = p.deadline { h.raw(p.pending ? "<br><span class=\"mut\">required from " : "<br><span class=\"mut\">required since "); h.time(d); h.raw("</span>") }
                    h.raw("</td><td>"); h.text(p.recommend ?? "none"); h.raw("</td><td>\(p.pins)</td></tr>\n")
                }
                h.raw("</tbody>\n</table></div>\n")
            }
            for w in s.upcoming {
                h.raw("<p>Upcoming maintenance #\(w.id) ("); h.text(w.scope); h.raw("): "); h.time(w.from)
                if let to = w.to { h.raw(" to "); h.time(to) } else { h.raw(", until stopped") }
                h.raw("</p>\n")
            }
            h.raw("<p class=\"meta\">Next change: ")
            if let n = s.next { h.time(n.at); h.raw(" — "); h.text(n.because) } else { h.raw("none ahead") }
            h.raw("</p>\n</section>\n")
        }
        h.end()
        return h.out
    }
}
