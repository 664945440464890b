/// Instants in app messages ({until}, {deadline}) as a user reads them: in
/// their language (the catalog's `date.*` strings: a CLDR-style pattern,
/// month names, am/pm, digits) and the project's time zone, with the zone
/// named, like "2 Aralık 2026 01:00 (UTC+3)". The core has no time-zone
/// database: the command line reads the zone's rules (ProjectSnapshot.zone);
/// without them an instant is shown in UTC, and says so.
public enum LocalDate {
    public static func render(_ t: Int64, offset: Int64?, locale: String, defaultLocale: String) -> String {
        let strings = Catalog.chain(locale, defaultLocale: defaultLocale).lazy.compactMap { Catalog.builtin[$0] }
            .first { $0["date.pattern"] != nil } ?? Catalog.builtin["en"]!
        let offset = offset ?? 0
        return pattern(strings["date.pattern"]!, t + offset, strings: strings) + " (" + zone(offset) + ")"
    }

    /// The local instant `local` (seconds, the offset added) written by a date
    /// pattern with a locale's strings (months, digits, am and pm).
    package static func pattern(_ text: String, _ local: Int64, strings: [String: String]) -> String {
        let days = local >= 0 ? local / 86400 : -((-local + 86399) / 86400)
        let secs = local - days * 86400
        let (year, month, day) = Time.civil(fromDays: days)
        let hour = secs / 3600, minute = secs / 60 % 60
        let months = (strings["date.months"] ?? "").split(separator: ",").map(String.init)
        let digits = Array(strings["date.digits"] ?? "0123456789")
        func number(_ n: Int64, width: Int) -> String {
            var s = String(n)
            while s.count < width { s = "0" + s }
            return digits.count == 10 ? String(s.map { $0.isASCII && $0.isNumber ? digits[Int(String($0))!] : $0 }) : s
        }
        var out = ""
        let pattern = Array(text)
        var i = 0
        while i < pattern.count {
            let c = pattern[i]
            if c == "'" {
                // Quoted literal; '' is an apostrophe.
                var j = i + 1
                if j < pattern.count && pattern[j] == "'" { out.append("'"); i += 2; continue }
                while j < pattern.count {
                    if pattern[j] == "'" {
                        // '' inside a literal is an apostrophe too ('o''clock').
                        guard j + 1 < pattern.count && pattern[j + 1] == "'" else { break }
                        out.append("'"); j += 2; continue
                    }
                    out.append(pattern[j]); j += 1
                }
                i = j + 1
                continue
            }
            guard c.isASCII && c.isLetter else { out.append(c); i += 1; continue }
            var n = 1
            while i + n < pattern.count && pattern[i + n] == c { n += 1 }
            switch c {
            case "y": out += number(year, width: n == 2 ? 2 : 1)
            case "M": out += n >= 3 && months.count == 12 ? months[Int(month) - 1] : number(month, width: n)
            case "d": out += number(day, width: n)
            case "H": out += number(hour, width: n)
            case "h": out += number(hour % 12 == 0 ? 12 : hour % 12, width: n)
            case "m": out += number(minute, width: n)
            case "a": out += (hour < 12 ? strings["date.am"] : strings["date.pm"]) ?? ""
            default: out += String(repeating: c, count: n)
            }
            i += n
        }
        return out
    }

    /// "UTC", "UTC+3", "UTC+5:30", "UTC-3:30".
    public static func zone(_ offset: Int64) -> String {
        guard offset != 0 else { return "UTC" }
        let a = offset < 0 ? -offset : offset
        let minutes = a / 60 % 60
        return "UTC" + (offset < 0 ? "-" : "+") + String(a / 3600) + (minutes == 0 ? "" : ":" + (minutes < 10 ? "0" : "") + String(minutes))
    }
}
