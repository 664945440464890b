/// The timeline of a status page: an inline SVG with one lane per platform
/// (maintenance windows as bars: past grey, active filled, upcoming dashed;
/// force deadlines as diamonds; releases as ticks), then the same events as
/// a list in words. The span is anchored to when the current state began and
/// the next change, never to the publish instant, so it moves only when the
/// state does: two weeks before the state began to a week after the next
/// change (at least six weeks, at most a year).
enum Timeline {
    static let day: Int64 = 86400
    static let x0 = 90.0, width = 690.0

    struct Event {
        var lane: Int?            // nil: every lane (a window of the whole project)
        var from: Int64
        var to: Int64?
        var kind: String          // "window", "deadline", "release"
        var state: String         // "past", "active", "upcoming", "cancelled"
        var label: String
        /// A maintenance window's id.
        var window: Int64? = nil
    }

    /// The narrowest bar a window gets (a 30-minute window is a third of a pixel on six weeks).
    static let minimumWidth = 6.0

    /// From the instants when the state began and when it next changes.
    static func span(since: Int64?, next: Int64?) -> (Int64, Int64) {
        let anchor = since ?? next ?? 0
        let start = floorDay(anchor) - 14 * day
        var end = max(start + 42 * day, floorDay(next ?? anchor) + 8 * day)
        end = min(end, start + 366 * day)
        return (max(start, Time.earliest), min(end, Time.latest))
    }

    static func floorDay(_ t: Int64) -> Int64 { (t >= 0 ? t / day : (t - day + 1) / day) * day }

    static func events(_ snapshot: ProjectSnapshot, at: Int64) -> [Event] {
        var out: [Event] = []
        let lanes = snapshot.platforms.map(\.id)
        for w in snapshot.windows.sorted(by: { $0.id < $1.id }) {
            let state = w.isCancelled ? "cancelled" : w.isActive(at: at) ? "active" : w.isUpcoming(at: at) ? "upcoming" : "past"
            let lane = w.platformID.flatMap { lanes.firstIndex(of: $0) }
            let scope = w.platformName ?? "all platforms"
            out.append(Event(lane: lane, from: w.startsAt, to: w.endsAt, kind: "window", state: state, label: "maintenance window #\(w.id) (\(scope))", window: w.id))
        }
        for (i, p) in snapshot.platforms.enumerated() {
            if let f = p.force, let d = f.deadline {
                out.append(Event(lane: i, from: d, to: nil, kind: "deadline", state: d > at ? "upcoming" : "past",
                                 label: "\(p.name): force floor \(f.text) becomes required"))
            }
            for v in snapshot.versions(of: p) {
                guard let r = v.releasedAt else { continue }
                out.append(Event(lane: i, from: r, to: nil, kind: "release", state: r > at ? "upcoming" : "past", label: "\(p.name) \(v.version.text) released"))
            }
        }
        return out
    }

    /// `since` and `next`: NextChange.latest and after at `at` (the page found them).
    static func render(_ h: inout HTML, _ snapshot: ProjectSnapshot, at: Int64, since: Int64?, next: Int64?) {
        guard since != nil || next != nil else {
            h.raw("<p>Nothing dated yet: no release, deadline or maintenance window.</p>\n")
            return
        }
        let (start, end) = span(since: since, next: next)
        let all = events(snapshot, at: at)
        let visible = all.filter { e in e.from <= end && (e.to ?? (e.kind == "window" ? Time.latest : e.from)) >= start }
        let laneCount = max(snapshot.platforms.count, 1)
        let height = 30 + laneCount * 30
        func xv(_ t: Int64) -> Double { x0 + Double(min(max(t, start), end) - start) / Double(end - start) * width }
        func x(_ t: Int64) -> String { fmt(xv(t)) }
        h.raw("<div class=\"scroll\"><svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 800 \(height)\" role=\"img\" aria-label=\"Timeline from \(HTML.escape(h.when(start))) to \(HTML.escape(h.when(end)))\"")
        h.raw(" data-from=\"\(start)\" data-to=\"\(end)\" data-x0=\"\(fmt(x0))\" data-w=\"\(fmt(width))\" data-h=\"\(height)\">\n")
        // Weekly ticks with their dates, at midnight in the project's zone.
        let offset = h.zone?.offset(at: start) ?? 0
        var tick = floorDay(start + offset) - offset
        if tick < start { tick += day }
        while tick <= end {
            let date = String(Time.format(tick + (h.zone?.offset(at: tick) ?? 0)).prefix(10))
            h.raw("<line class=\"ax\" x1=\"\(x(tick))\" x2=\"\(x(tick))\" y1=\"14\" y2=\"\(height)\"/><text x=\"\(x(tick))\" y=\"11\" text-anchor=\"middle\">\(date.dropFirst(5))</text>\n")
            tick += 7 * day
        }
        for (i, p) in snapshot.platforms.enumerated() {
            let y = 20 + i * 30
            h.raw("<rect class=\"lane\" x=\"\(fmt(x0))\" y=\"\(y)\" width=\"\(fmt(width))\" height=\"22\"/><text x=\"4\" y=\"\(y + 15)\">"); h.text(p.name); h.raw("</text>\n")
        }
        for e in visible where e.state != "cancelled" {
            let lanes = e.lane.map { [$0] } ?? Array(0..<laneCount)
            for lane in lanes {
                let y = 20 + lane * 30
                var label = ""
                switch e.kind {
                case "window":
                    // However short, a window is a bar wide enough to see, labelled with its number.
                    let x1 = xv(e.from), x2 = max(xv(e.to ?? end), x1 + minimumWidth)
                    if let id = e.window {
                        // Inside a wide bar (light on the filled active one), else just after it.
                        let inside = x2 - x1 >= 40
                        label = "<text class=\"wl\(inside && e.state == "active" ? " in" : "")\" x=\"\(fmt(inside ? x1 + 4 : x2 + 3))\" y=\"\(y + 15)\">#\(id)</text>\n"
                    }
                    h.raw("<rect class=\"w-\(e.state)\" x=\"\(fmt(x1))\" y=\"\(y + 2)\" width=\"\(fmt(x2 - x1))\" height=\"18\"><title>")
                case "deadline":
                    let cx = xv(e.from)
                    h.raw("<path class=\"\(e.state == "past" ? "dl-past" : "dl")\" d=\"M\(fmt(cx)) \(y) l7 11 l-7 11 l-7 -11 z\"><title>")
                default:
                    h.raw("<line class=\"rel\" x1=\"\(x(e.from))\" x2=\"\(x(e.from))\" y1=\"\(y + 4)\" y2=\"\(y + 18)\"><title>")
                }
                h.text("\(e.label): \(h.when(e.from))\(e.to.map { " to " + h.when($0) } ?? "")")
                h.raw(e.kind == "window" ? "</title></rect>\n" : e.kind == "deadline" ? "</title></path>\n" : "</title></line>\n")
                h.raw(label)
            }
        }
        if let since, since >= start {
            h.raw("<line class=\"mark\" x1=\"\(x(since))\" x2=\"\(x(since))\" y1=\"14\" y2=\"\(height)\"><title>this state since \(HTML.escape(h.when(since)))</title></line>\n")
        }
        if let next, next <= end {
            h.raw("<line class=\"mark\" x1=\"\(x(next))\" x2=\"\(x(next))\" y1=\"14\" y2=\"\(height)\"><title>next change \(HTML.escape(h.when(next)))</title></line>\n")
        }
        h.raw("</svg></div>\n")
        h.raw("<p class=\"mut\">Bars: maintenance (grey past, filled active, dashed upcoming); diamonds: force deadlines; ticks: releases; dotted lines: when this state began and the next change<span class=\"js-only\">; the solid line is now</span>.</p>\n")
        // The same in words, without releases (the ladder has them).
        let listed = all.filter { $0.kind != "release" && ($0.state != "past" || ($0.to ?? $0.from) >= start) }
        guard !listed.isEmpty else { h.raw("<p>No maintenance window or deadline around this time.</p>\n"); return }
        h.raw("<ul class=\"events\">\n")
        for e in listed {
            h.raw("<li data-state=\"\(e.state)\"><span class=\"tag\">\(e.state)</span> "); h.text(e.label); h.raw(": ")
            h.time(e.from)
            if e.kind == "window" {
                if let to = e.to { h.raw(" to "); h.time(to) } else { h.raw(", until stopped") }
            }
            h.raw("</li>\n")
        }
        h.raw("</ul>\n")
    }

    /// One decimal place, no locale, no exponent: the same bytes everywhere.
    static func fmt(_ v: Double) -> String {
        let tenths = Int64((v * 10).rounded())
        let sign = tenths < 0 ? "-" : ""
        let a = tenths.magnitude
        return "\(sign)\(a / 10).\(a % 10)"
    }
}
