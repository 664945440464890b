#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import RelctlCore

/// Instants for people (docs/design.md): local time with its zone and the
/// distance from now, like "2026-12-02 01:00 +03 (in 14 h)". `--json` and
/// files keep RFC 3339 UTC.
enum PeopleTime {
    static func format(_ t: Int64, now: Int64, timeZone: String?) -> String {
        "\(local(t, timeZone: timeZone)) (\(distance(t - now)))"
    }

    /// Local wall time and zone abbreviation; UTC spelled out when the zone
    /// is unknown (input refuses such a TZ; output must still be right).
    static func local(_ t: Int64, timeZone: String?) -> String {
        guard (try? TimeInput.checkZone(timeZone)) != nil else { return Time.format(t) }
        return TimeInput.withZone(timeZone) {
            var time = time_t(t)
            var parts = tm()
            localtime_r(&time, &parts)
            func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
            let zone = parts.tm_zone.map { String(cString: $0) } ?? "UTC"
            var year = String(parts.tm_year + 1900)
            while year.count < 4 { year = "0" + year }
            let seconds = parts.tm_sec == 0 ? "" : ":" + two(parts.tm_sec)
            return "\(year)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday)) \(two(parts.tm_hour)):\(two(parts.tm_min))\(seconds) \(zone)"
        }
    }

    /// Every RFC 3339 instant in `text` (the core writes them into sentences)
    /// as `format` writes it: stderr and text output are for people; --json keeps RFC 3339.
    static func inText(_ text: String, context: Context) -> String {
        let now = context.clock(), zone = context.env["TZ"]
        return Time.rewritingInstants(text) { format($0, now: now, timeZone: zone) }
    }

    /// "in 14 h", "3 d ago", "now": the largest unit, rounded down.
    static func distance(_ seconds: Int64) -> String {
        if seconds == 0 { return "now" }
        return seconds > 0 ? "in \(length(seconds))" : "\(length(-seconds)) ago"
    }

    /// "2 h 30 min", "3 d 2 h": a length of time, its two largest units, rounded down.
    static func length(_ s: Int64) -> String {
        switch s {
        case ..<60: return "\(s) s"
        case ..<3600: return "\(s / 60) min"
        case ..<172_800: return "\(s / 3600) h" + (s < 36_000 && s % 3600 >= 60 ? " \(s % 3600 / 60) min" : "")
        default: return "\(s / 86400) d" + (s % 86400 >= 3600 ? " \(s % 86400 / 3600) h" : "")
        }
    }
}
