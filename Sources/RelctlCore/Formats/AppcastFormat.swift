/// The appcast (Sparkle RSS) that Flutter's upgrader reads, one per
/// platform (docs/clients.md). upgrader offers the highest item and requires the
/// update below the highest item tagged critical, so the feed holds the
/// version users are sent to and, when some versions must update, the
/// lowest released version at or above the force threshold, tagged critical.
enum AppcastFormat {
    static func render(_ state: PlatformState, locales: [String], warnings: inout [String]) -> [UInt8]? {
        let p = state.platform
        let where_ = "\(state.project.slug)/\(p.name)"
        guard state.current != nil else { return nil }
        guard let url = p.updateURL else {
            warnings.append("\(where_): no store link (bundle id, App Store id or --store-url), so no appcast.xml is published")
            return nil
        }
        // Per OS band (newest first), the version a device there is sent to and, when
        // some must update, its critical item, shown from the band's lowest OS up to
        // its top (upgrader hides an item outside its minimum and maximum system
        // version): each band sees its own (check --os), never another's. Bands with
        // the same items share them.
        var groups: [(from: String?, upTo: String?, items: [(version: VersionRecord, critical: Bool)])] = []
        for (band, s) in state.bands() {
            var items: [(version: VersionRecord, critical: Bool)] = []
            if let current = s.current {
                let critical = criticalItem(s)
                if current.version.components.count > 3 || (critical?.version.components.count ?? 0) > 3 {
                    let w = "\(where_): upgrader reads three components of a version, so the appcast's four-part versions lose their fourth"
                    if !warnings.contains(w) { warnings.append(w) }
                }
                // upgrader offers the highest item to every install below it: when no
                // install is offered or required anything ("outdated: none", no floor),
                // the band has no item, so it prompts nobody.
                if s.offersOptional || critical != nil { items.append((current, critical?.id == current.id)) }
                if let critical, critical.id != current.id { items.append((critical, true)) }
            }
            func same(_ a: [(version: VersionRecord, critical: Bool)]) -> Bool {
                a.count == items.count && zip(a, items).allSatisfy { $0.version.version.text == $1.version.version.text && $0.critical == $1.critical }
            }
            if let last = groups.last, same(last.items) { groups[groups.count - 1].from = band.from; continue }
            groups.append((band.from, band.below.flatMap { OSBands.below($0, android: p.isAndroid) }, items))
        }
        var out: [UInt8] = []
        out.reserveCapacity(1024)
        out += #"<?xml version="1.0" encoding="utf-8"?>"#.utf8
        out += "\n<rss version=\"2.0\" xmlns:sparkle=\"http://www.andymatuschak.org/xml-namespaces/sparkle\">\n<channel>\n<title>".utf8
        XMLText.escape(state.project.name, into: &out)
        out += "</title>\n".utf8
        for group in groups {
            for item in group.items {
                self.item(state, item.version, critical: item.critical, os: (group.from, group.upTo), url: url, locales: locales, into: &out)
            }
        }
        out += "</channel>\n</rss>\n".utf8
        return out
    }

    /// The seconds between Sparkle's phased groups while a rollout stages
    /// and the appcast offers its version to all (--unstaged everyone): the
    /// rollout's step length. Kept through a halt: Sparkle cannot halt, but
    /// its groups go on widening no faster than they did.
    static func phased(_ state: PlatformState) -> Int64? {
        guard let r = state.source.rollout, r.unstaged == .everyone, state.source.isStaging(at: state.at) else { return nil }
        return r.every
    }

    /// The lowest released version at or above the version below which
    /// everything must update (the threshold AndVersion's MinVersion names).
    static func criticalItem(_ state: PlatformState) -> VersionRecord? {
        let threshold = AndVersionFormat.minimum(state, marketing: true)
        guard let item = lowestReleased(atOrAbove: threshold, state.releasedNewestFirst) else { return nil }
        // Never above the version offered: the highest item is the one upgrader offers.
        if let current = state.current, Release.isBelow(current.release, item.release) { return current }
        // upgrader requires everything below the critical item: a release above the
        // threshold would force installs between the two that `check` does not.
        // The item then stands at the threshold itself, which no release is.
        guard let at = AndVersionFormat.release(threshold), item.version != at.version else { return item }
        return VersionRecord(id: -1, platformID: state.platform.id, version: at.version, build: nil, releasedAt: nil,
                             minOS: nil, policy: nil, notes: [:])
    }

    /// The lowest of the released versions (newest first) at or above the threshold.
    static func lowestReleased(atOrAbove threshold: AndVersionFormat.Threshold, _ releasedNewestFirst: [VersionRecord]) -> VersionRecord? {
        guard let release = AndVersionFormat.release(threshold) else { return nil }
        return releasedNewestFirst.last { !Release.isBelow($0.release, release) }
    }

    /// `os`: the lowest and highest OS that sees the item (nil: no bound).
    static func item(_ state: PlatformState, _ v: VersionRecord, critical: Bool, os: (from: String?, upTo: String?), url: String, locales: [String], into out: inout [UInt8]) {
        out += "<item>\n<title>".utf8
        XMLText.escape(v.version.text, into: &out)
        out += "</title>\n".utf8
        // The default locale's notes untagged; each other published locale
        // whose notes (along its locale chain) differ, as an xml:lang alternative.
        let project = state.project
        let fallback = state.evaluator.notes(v, locale: project.defaultLocale)?.1
        if let text = fallback {
            out += "<description>".utf8
            XMLText.escape(text, into: &out)
            out += "</description>\n".utf8
        }
        for locale in locales where locale != project.defaultLocale {
            guard let (_, text) = state.evaluator.notes(v, locale: locale), text != fallback else { continue }
            out += "<description xml:lang=\"".utf8
            XMLText.escape(locale, into: &out)
            out += "\">".utf8
            XMLText.escape(text, into: &out)
            out += "</description>\n".utf8
        }
        // Sparkle phases an offer itself, over seven groups from the item's pubDate: the nearest it
        // comes to staging, so a staged version's date is when it was first staged.
        let staged = state.source.rollout.flatMap { r in !critical && v.releasedAt != nil && !Release.isBelow(v.release, r.floor.release) ? r : nil }
        let every = staged.flatMap { _ in phased(state) }
        if let t = v.releasedAt {
            out += "<pubDate>".utf8
            out += rfc822(every != nil ? max(t, staged!.since) : t).utf8
            out += "</pubDate>\n".utf8
        }
        out += "<sparkle:version>".utf8
        XMLText.escape(v.version.text, into: &out)
        out += "</sparkle:version>\n".utf8
        // Only a minimum the engineer set: upgrader's default OS is 0.0.0,
        // and an item above it is hidden from apps that do not pass theirs.
        if let from = os.from {
            out += "<sparkle:minimumSystemVersion>".utf8
            XMLText.escape(from, into: &out)
            out += "</sparkle:minimumSystemVersion>\n".utf8
        }
        if let upTo = os.upTo {
            out += "<sparkle:maximumSystemVersion>".utf8
            XMLText.escape(upTo, into: &out)
            out += "</sparkle:maximumSystemVersion>\n".utf8
        }
        if critical { out += "<sparkle:tags><sparkle:criticalUpdate/></sparkle:tags>\n".utf8 }
        if let every { out += "<sparkle:phasedRolloutInterval>\(every)</sparkle:phasedRolloutInterval>\n".utf8 }
        out += "<enclosure url=\"".utf8
        XMLText.escape(url, into: &out)
        out += "\" sparkle:os=\"".utf8
        XMLText.escape(state.platform.name, into: &out)
        out += "\" sparkle:version=\"".utf8
        XMLText.escape(v.version.text, into: &out)
        out += "\" length=\"0\" type=\"application/octet-stream\"/>\n</item>\n".utf8
    }

    /// RSS dates: "Sun, 29 Nov 2026 06:00:00 +0000".
    static func rfc822(_ t: Int64) -> String {
        let days = t >= 0 ? t / 86400 : (t - 86399) / 86400
        let seconds = t - days * 86400
        let (y, m, d) = Time.civil(fromDays: days)
        let weekdays = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        func two(_ n: Int64) -> String { n < 10 ? "0\(n)" : "\(n)" }
        let weekday = weekdays[Int(((days % 7) + 7) % 7)]
        var year = String(y)
        while year.count < 4 { year = "0" + year }
        return "\(weekday), \(two(d)) \(months[Int(m) - 1]) \(year) \(two(seconds / 3600)):\(two(seconds % 3600 / 60)):\(two(seconds % 60)) +0000"
    }
}
