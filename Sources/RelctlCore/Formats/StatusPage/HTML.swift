/// Writing the status pages' HTML: escaping, and the parts every page shares
/// (head, style, the optional script). Strict on purpose: project names,
/// notes and messages come from the database, which anyone with write
/// access can fill with anything, and the pages are served to people.
struct HTML {
    /// UTF-8 bytes: appending a string's bytes costs a fraction of growing a String.
    var out: [UInt8] = []
    /// The project's time zone: people read its local time first (nil: UTC).
    var zone: ZoneRules?

    init(zone: ZoneRules? = nil) { self.zone = zone }

    mutating func raw(_ s: String) { out += s.utf8 }

    /// Text content and attribute values alike.
    mutating func text(_ s: String) { HTML.escape(s, into: &out) }

    /// Text a user wrote (a project's name, notes, messages, a window's
    /// copy), as content: isolated in <bdi> when it is not ASCII, so its own
    /// direction is taken from it and an override it leaves open (U+202E)
    /// ends with it instead of reversing the rest of the line. ASCII text
    /// holds no direction of its own and is written bare.
    mutating func user(_ s: String) {
        guard !s.utf8.allSatisfy({ $0 < 0x80 }) else { return text(s) }
        raw("<bdi>"); text(s); raw("</bdi>")
    }

    /// The same for plain text, where no element can stand (<title>): the
    /// isolate characters U+2068 and U+2069 do what <bdi> does. A tab's or a
    /// window's title is laid out by code that may not know isolates, so the
    /// embeddings, overrides and isolates the text holds itself (U+202A to
    /// U+202E, U+2066 to U+2069) are left out: an override left open there
    /// would reverse the rest of the title.
    static func isolated(_ s: String) -> String {
        guard !s.utf8.allSatisfy({ $0 < 0x80 }) else { return s }
        var plain = String.UnicodeScalarView()
        plain.append(contentsOf: s.unicodeScalars.filter { !(0x202A...0x202E).contains($0.value) && !(0x2066...0x2069).contains($0.value) })
        return "\u{2068}" + String(plain) + "\u{2069}"
    }

    /// The five markup characters become entities; characters an HTML parser
    /// reports as errors (C0 and C1 controls other than tab, LF, FF and CR,
    /// and noncharacters) become U+FFFD, so a strict parser accepts every page.
    static func escape(_ s: String, into out: inout [UInt8]) {
        // A row per version of every platform: plain text is appended whole.
        if XMLText.appendPlain(s, into: &out) { return }
        for scalar in s.unicodeScalars {
            switch scalar.value {
            case 0x26: out += "&amp;".utf8
            case 0x3C: out += "&lt;".utf8
            case 0x3E: out += "&gt;".utf8
            case 0x22: out += "&quot;".utf8
            case 0x27: out += "&#39;".utf8
            case 0x09, 0x0A, 0x0C: out.append(UInt8(scalar.value))
            case 0x0D: out.append(0x0A)
            case 0x00..<0x20, 0x7F..<0xA0, 0xFDD0...0xFDEF: out += "\u{FFFD}".utf8
            case let v where v & 0xFFFE == 0xFFFE: out += "\u{FFFD}".utf8
            default: UTF8.encode(scalar) { out.append($0) }
            }
        }
    }

    static func escape(_ s: String) -> String {
        var out: [UInt8] = []
        escape(s, into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// An instant for people, in the project's zone with UTC beside it:
    /// "2026-12-08 09:00 CET (08:00 UTC)" (seconds only when there are
    /// some), inside <time> with its offset, so the script can add the
    /// reader's own time when it is another.
    mutating func time(_ t: Int64) {
        // Written straight into the page: the ladder has a row per version.
        raw("<time datetime=\""); Time.format(t, into: &out); raw("\" data-offset=\""); number(zone?.offset(at: t) ?? 0); raw("\">")
        Time.people(t, zone: zone, into: &out); raw("</time>")
    }

    /// An integer in decimal, as `String(n)` writes it.
    mutating func number(_ n: Int64) {
        // Digits from the right into 20 bytes (Int64.min is 19 and a sign), appended once.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { b in
            var i = 20, rest = n.magnitude
            repeat {
                i -= 1
                b[i] = UInt8(48 + rest % 10)
                rest /= 10
            } while rest > 0
            if n < 0 { i -= 1; b[i] = UInt8(ascii: "-") }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: b[i...]))
        }
    }

    /// The same as plain text (titles, labels).
    func when(_ t: Int64) -> String { Time.people(t, zone: zone) }

    /// A sentence from the core with its RFC 3339 instants as people read them here.
    mutating func sentence(_ s: String) {
        // A closure of the zone alone: `when` would copy the page into a context made for each sentence.
        let zone = zone
        text(Time.rewritingInstants(s) { Time.people($0, zone: zone) })
    }

    /// A verdict in colour and in words: the colour is never the only sign.
    mutating func verdict(_ kind: Verdict.Kind) {
        switch kind {
        case .required: raw(HTML.verdicts.required)
        case .optional: raw(HTML.verdicts.optional)
        case .none: raw(HTML.verdicts.none)
        case .maintenance: raw(HTML.verdicts.maintenance)
        }
    }

    /// Each verdict's markup, made once (the ladder shows one or two per version).
    static let verdicts = (required: span(.required), optional: span(.optional), none: span(.none), maintenance: span(.maintenance))
    static func span(_ kind: Verdict.Kind) -> String { "<span class=\"v v-\(kind.rawValue)\">\(StatusPage.word(kind))</span>" }

    /// The document up to <body>. No external resource of any kind, and a
    /// policy that forbids fetching one, so a hostile string that slipped
    /// through escaping still could not make the page call out.
    mutating func head(title: String) {
        raw("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
        raw("<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:\">\n")
        raw("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<meta name=\"color-scheme\" content=\"light dark\">\n")
        raw("<meta name=\"referrer\" content=\"no-referrer\">\n<meta name=\"robots\" content=\"noindex\">\n")
        // An empty icon: otherwise the browser asks the server for /favicon.ico.
        raw("<link rel=\"icon\" href=\"data:,\">\n<title>")
        text(title)
        raw("</title>\n<style>\(HTML.style)</style>\n</head>\n<body>\n")
    }

    /// `timeZone`: the project's, named in the footer (nil: a page of several projects, in UTC).
    mutating func end(timeZone: String? = nil) {
        raw("<footer>Written by <code>relctl publish</code>: what <code>relctl check</code> says at the state shown. ")
        if let timeZone, zone != nil, !ZoneRules.isUTC(timeZone) {
            raw("Times in "); text(timeZone); raw(", the project’s time zone, with UTC beside them")
        } else if let timeZone, !ZoneRules.isUTC(timeZone) {
            raw("Times in UTC: the project’s time zone, "); text(timeZone); raw(", is not known where this page was written")
        } else {
            raw("Times in UTC")
        }
        raw("<span class=\"js-only\">; yours in brackets where it differs</span>.</footer>\n")
        raw("<script>\(HTML.script)</script>\n</body>\n</html>\n")
    }

    /// Light and dark, phone and desktop; each verdict has a colour and its word.
    static let style = """
    :root{--bg:#fff;--fg:#1b1f24;--mut:#59636e;--line:#d1d9e0;--card:#f6f8fa;--req:#b3261e;--opt:#9a6700;--none:#1a7f37;--mnt:#6f42c1;--bar:#eaeef2}\
    @media (prefers-color-scheme:dark){:root{--bg:#0d1117;--fg:#e6edf3;--mut:#9198a1;--line:#3d444d;--card:#151b23;--req:#ff7b72;--opt:#e3b341;--none:#3fb950;--mnt:#bc8cff;--bar:#262c36}}\
    *{box-sizing:border-box}body{margin:0 auto;max-width:72rem;padding:1rem;overflow-wrap:break-word;font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:var(--bg);color:var(--fg)}\
    h1{font-size:1.5rem;margin:.2rem 0}h2{font-size:1.2rem;margin:1.6rem 0 .4rem;border-bottom:1px solid var(--line);padding-bottom:.2rem}h3{font-size:1rem;margin:1rem 0 .3rem}\
    a{color:inherit}code{font-size:.9em}.mut{color:var(--mut)}.meta{color:var(--mut);margin:.2rem 0}\
    .alert{border:2px solid var(--mnt);border-radius:6px;padding:.5rem .8rem;margin:.6rem 0;background:var(--card)}\
    .card{background:var(--card);border:1px solid var(--line);border-radius:6px;padding:.6rem .8rem;margin:.6rem 0}.card h2{margin-top:.2rem}.v{white-space:nowrap}\
    dl{display:grid;grid-template-columns:max-content 1fr;gap:.15rem .8rem;margin:.4rem 0}dt{color:var(--mut)}dd{margin:0}\
    .scroll{overflow-x:auto}table{border-collapse:collapse;width:100%;font-size:.93em}th,td{text-align:left;padding:.25rem .5rem;border-bottom:1px solid var(--line);vertical-align:top}\
    th{color:var(--mut);font-weight:600}tr.floor td{border-bottom:2px dashed var(--req);color:var(--req);font-weight:600}tr.floor.rec td{border-bottom-color:var(--opt);color:var(--opt)}\
    .v{display:inline-block;padding:0 .45rem;border-radius:1rem;font-weight:600;border:1.5px solid currentColor}.v::before{margin-right:.25rem}\
    .v-required{color:var(--req)}.v-required::before{content:"\\25A0"}.v-optional{color:var(--opt)}.v-optional::before{content:"\\25B2"}\
    .v-none{color:var(--none)}.v-none::before{content:"\\25CF"}.v-maintenance{color:var(--mnt)}.v-maintenance::before{content:"\\25C6"}\
    .tag{display:inline-block;font-size:.85em;border:1px solid var(--line);border-radius:4px;padding:0 .3rem;margin-left:.2rem}\
    svg{display:block;min-width:640px;width:100%;height:auto}svg text{fill:var(--fg);font:11px system-ui,sans-serif}svg .ax{stroke:var(--line)}\
    svg .lane{fill:var(--bar)}svg .w-past{fill:var(--mut);opacity:.55}svg .w-active{fill:var(--mnt)}svg .w-upcoming{fill:none;stroke:var(--mnt);stroke-width:2;stroke-dasharray:4 3}\
    svg .wl{font-weight:600;fill:var(--mnt)}svg .wl.in{fill:var(--bg)}svg .dl{fill:var(--req)}svg .dl-past{fill:var(--mut)}svg .rel{stroke:var(--none);stroke-width:2}svg .mark{stroke:var(--fg);stroke-dasharray:3 3}svg .now{stroke:var(--req);stroke-width:2}\
    ul{padding-left:1.2rem}li{margin:.15rem 0}.js-only{display:none}footer{margin:2rem 0 1rem;color:var(--mut);font-size:.85em}\
    @media (max-width:40rem){body{padding:.6rem;font-size:14px}th,td{padding:.2rem .3rem}.wide{display:none}}
    """

    /// Optional: the pages read the same without it. It adds the reader's
    /// local time beside each UTC time, a countdown to the next change, and
    /// a "now" line on the timelines; it fetches nothing.
    static let script = """
    (function(){"use strict";var now=Date.now();function rel(ms){var s=Math.round(Math.abs(ms)/1000),u=s<90?[s,"s"]:s<5400?[Math.round(s/60),"min"]:s<172800?[Math.round(s/3600),"h"]:[Math.round(s/86400),"days"];return ms>=0?"in "+u[0]+" "+u[1]:u[0]+" "+u[1]+" ago";}\
    document.querySelectorAll(".js-only").forEach(function(e){e.style.display="inline";});\
    var shown=[];document.querySelectorAll("time[datetime]").forEach(function(e){var d=new Date(e.getAttribute("datetime"));if(isNaN(d))return;var s=document.createElement("span");s.className="mut local";e.after(s);var same=-d.getTimezoneOffset()*60===Number(e.dataset.offset);shown.push([s,d,same?"":"your time "+d.toLocaleString([], {dateStyle:"medium",timeStyle:"short"})+", "]);});\
    function tick(){now=Date.now();shown.forEach(function(x){x[0].textContent=" ("+x[2]+rel(x[1].getTime()-now)+")";});}tick();setInterval(tick,30000);\
    document.querySelectorAll("svg[data-from]").forEach(function(g){var a=Number(g.dataset.from)*1000,b=Number(g.dataset.to)*1000,x0=Number(g.dataset.x0),w=Number(g.dataset.w),h=Number(g.dataset.h);if(now<a||now>b)return;var x=x0+(now-a)/(b-a)*w,l=document.createElementNS("http://www.w3.org/2000/svg","line");l.setAttribute("class","now");l.setAttribute("x1",x);l.setAttribute("x2",x);l.setAttribute("y1",14);l.setAttribute("y2",h);g.appendChild(l);});\
    })();
    """
}
