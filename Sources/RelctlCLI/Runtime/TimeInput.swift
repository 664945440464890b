#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import RelctlCore

/// Times as people type them (docs/design.md: RFC 3339, local "YYYY-MM-DD HH:MM"
/// and "HH:MM", "now"). Local times need the C library's time zone
/// database, which the core does without: parsing lives here, formatting in
/// the core's `Time`.
public enum TimeInput {
    static let accepted = "use RFC 3339 (2026-12-01T06:00:00Z or with an offset), 'YYYY-MM-DD HH:MM[:SS]' or 'HH:MM' in local time, 'tomorrow HH:MM', '+2h' from now or '-2d' ago, or 'now'"
    /// What every TIME option's help says.
    public static let forms = "RFC 3339; 'YYYY-MM-DD HH:MM[:SS]', 'HH:MM' or 'tomorrow HH:MM' in local time (TZ); '+2h' from now or '-2d' ago (a duration without a sign goes the way the option looks: ahead, back for log --since; --released needs the sign); 'now'"

    /// One rule for a duration in every time option: a sign says its way
    /// (+2h ahead, -2d back); without one it goes the only way the option
    /// can mean (ahead for an end, a start, a deadline or the instant to
    /// look at; back for log --since), and where both ways make sense (a
    /// release time) it is refused with both readings.
    public static func isBareDuration(_ text: String) -> Bool {
        let s = text.trimmingSpaces()
        guard let first = s.first, first.isASCII && first.isNumber, !s.contains(":"), !s.contains("-") else { return false }
        return s.last.map { "smhdw".contains($0) } == true && (try? Time.parseDuration(s)) != nil
    }

    /// Parses an instant. `now` anchors "HH:MM" (today, local), "tomorrow",
    /// relative durations and "now". With `future`, an "HH:MM" that has
    /// passed today means tomorrow (an --until 02:00 typed at 23:00).
    public static func parse(_ text: String, now: Int64, timeZone: String?, future: Bool = false) throws -> Int64 {
        let t = try instant(text, now: now, timeZone: timeZone, future: future)
        guard Time.isInRange(t) else {
            throw InputError("the time '\(text)' is outside the years 0001 to 9999", hint: accepted)
        }
        return t
    }

    /// "HH:MM" or "HH:MM:SS" alone: a time of day with no day.
    public static func isClock(_ text: String) -> Bool {
        let s = text.trimmingSpaces()
        return (s.utf8.count == 5 || s.utf8.count == 8) && s.firstIndex(of: ":") == s.index(s.startIndex, offsetBy: 2)
    }

    private static func instant(_ text: String, now: Int64, timeZone: String?, future: Bool) throws -> Int64 {
        let s = text.trimmingSpaces()
        if s == "now" { return now }
        // "+2h", "-30m", "90m", "2d": a duration from now.
        if let first = s.first, first == "+" || first == "-" || (first.isASCII && first.isNumber && !s.contains(":") && !s.contains("-")
                                                                && s.last.map { "smhdw".contains($0) } == true) {
            let sign: Int64 = first == "-" ? -1 : 1
            let d = try Time.parseDuration(first == "+" || first == "-" ? String(s.dropFirst()) : s)
            return try Time.adding(sign * d, to: now, what: "the time '\(text)'")
        }
        // "tomorrow HH:MM" and "today HH:MM", local.
        for (word, days) in [("tomorrow ", 1), ("today ", 0)] where s.hasPrefix(word) || s + " " == word {
            let clock = String(s.dropFirst(word.count)).trimmingSpaces()
            guard let (h, m, sec) = hourMinute(clock) else {
                throw InputError("invalid time '\(text)'", hint: "give the time of day, like '\(word)02:00'")
            }
            return try localDay(now, plus: days, hour: h, minute: m, second: sec, timeZone: timeZone, text: text)
        }
        let bytes = Array(s.utf8)
        func digits(_ from: Int, _ count: Int) -> Int? {
            guard from + count <= bytes.count else { return nil }
            var n = 0
            for b in bytes[from..<from + count] {
                guard b >= 48 && b <= 57 else { return nil }
                n = n * 10 + Int(b - 48)
            }
            return n
        }
        func at(_ i: Int, _ c: Character) -> Bool { i < bytes.count && bytes[i] == c.asciiValue! }
        let bad = InputError("invalid time '\(text)'", hint: accepted)

        // HH:MM[:SS], today in the local zone (tomorrow when it has passed and the option looks ahead).
        if bytes.count == 5 || bytes.count == 8, s.firstIndex(of: ":") == s.index(s.startIndex, offsetBy: 2) {
            guard let (h, m, sec) = hourMinute(s) else { throw bad }
            let today = try localDay(now, plus: 0, hour: h, minute: m, second: sec, timeZone: timeZone, text: text)
            return future && today <= now ? try localDay(now, plus: 1, hour: h, minute: m, second: sec, timeZone: timeZone, text: text) : today
        }
        guard let y = digits(0, 4), at(4, "-"), let mo = digits(5, 2), at(7, "-"), let d = digits(8, 2),
              at(10, "T") || at(10, "t") || at(10, " "), let h = digits(11, 2), at(13, ":"), let mi = digits(14, 2)
        else { throw bad }
        guard (1...12).contains(mo), (1...31).contains(d), h < 24, mi < 60 else { throw bad }
        var i = 16
        var sec = 0
        if at(i, ":") {
            guard let s2 = digits(i + 1, 2), s2 < 61 else { throw bad }
            sec = min(s2, 59)
            i += 3
            if at(i, ".") {
                i += 1
                let start = i
                while i < bytes.count, bytes[i] >= 48, bytes[i] <= 57 { i += 1 }
                guard i > start else { throw bad }
            }
        }
        if i == bytes.count {
            return try local(year: y, month: mo, day: d, hour: h, minute: mi, second: sec, timeZone: timeZone, text: text)
        }
        var offset = 0
        if at(i, "Z") || at(i, "z") {
            i += 1
        } else if at(i, "+") || at(i, "-") {
            guard let oh = digits(i + 1, 2), at(i + 3, ":"), let om = digits(i + 4, 2), oh < 24, om < 60 else { throw bad }
            offset = (oh * 60 + om) * 60 * (at(i, "-") ? -1 : 1)
            i += 6
        }
        guard i == bytes.count else { throw bad }
        guard d <= Time.daysIn(month: mo, year: y) else { throw bad }
        return Int64(Time.daysFromCivil(y, mo, d)) * 86400 + Int64(h * 3600 + mi * 60 + sec - offset)
    }

    /// libc takes a zone it cannot find for UTC without a word; relctl says so
    /// instead, since a local time would silently be hours off.
    static func checkZone(_ zone: String?) throws {
        guard var name = zone, !name.isEmpty else { return }
        if name.hasPrefix(":") { name.removeFirst() }
        if ["UTC", "GMT", "UTC0", "GMT0", "Z", "Zulu", "Universal"].contains(name) { return }
        let tzdir = getenv("TZDIR").map { String(cString: $0) } ?? "/usr/share/zoneinfo"
        // A POSIX rule such as EST5EDT or <+03>-3 carries its offset in digits.
        if !name.contains("/"), name.contains(where: { $0.isASCII && $0.isNumber }) {
            guard posixRuleIsValid(name) else {
                throw InputError("unknown time zone TZ='\(zone!)': not a zone name, and not a POSIX rule with offsets of at most 24 hours",
                                 hint: "set TZ to a zone name such as Europe/Istanbul (see \(tzdir)), or a rule like <+03>-3")
            }
            return
        }
        let file = name.hasPrefix("/") ? name : tzdir + "/" + name
        var st = stat()
        guard !name.isEmpty, !name.split(separator: "/").contains(".."), stat(file, &st) == 0, st.st_mode & S_IFMT == S_IFREG else {
            throw InputError("unknown time zone TZ='\(zone!)'", hint: "set TZ to a zone name such as Europe/Istanbul (see \(tzdir)), or unset it for UTC")
        }
    }

    /// POSIX TZ as glibc reads it: a name of three or more letters (or <...>),
    /// an offset of at most 24 hours, then optionally a summer-time name, its
    /// offset and the rule after a comma (left to libc). glibc quietly clamps
    /// a larger offset (UTC+99 becomes UTC+24) and takes a short name for UTC.
    static func posixRuleIsValid(_ rule: String) -> Bool {
        var rest = Substring(rule)
        func name() -> Bool {
            if rest.first == "<" {
                guard let close = rest.firstIndex(of: ">") else { return false }
                let inner = rest[rest.index(after: rest.startIndex)..<close]
                rest = rest[rest.index(after: close)...]
                return inner.count >= 3 && inner.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "+" || $0 == "-") }
            }
            let letters = rest.prefix { $0.isASCII && $0.isLetter }
            rest = rest.dropFirst(letters.count)
            return letters.count >= 3
        }
        func offset() -> Bool {
            if rest.first == "+" || rest.first == "-" { rest = rest.dropFirst() }
            var seconds = 0
            for (i, limit) in [24, 59, 59].enumerated() {
                if i > 0 { guard rest.first == ":" else { break }; rest = rest.dropFirst() }
                let digits = rest.prefix { $0.isASCII && $0.isNumber }
                guard (1...2).contains(digits.count), let n = Int(digits), n <= limit else { return false }
                seconds += n * [3600, 60, 1][i]
                rest = rest.dropFirst(digits.count)
            }
            // 24:30 would be clamped to 24 hours as well.
            return seconds <= 24 * 3600
        }
        guard name(), offset() else { return false }
        if rest.isEmpty || rest.first == "," { return true }
        guard name() else { return false }
        if rest.isEmpty || rest.first == "," { return true }
        return offset() && (rest.isEmpty || rest.first == ",")
    }

    static func withZone<T>(_ zone: String?, _ body: () -> T) -> T {
        // libc reads TZ from the process environment; the context's TZ wins.
        let previous = getenv("TZ").map { String(cString: $0) }
        if zone != previous {
            if let zone { setenv("TZ", zone, 1) } else { unsetenv("TZ") }
            tzset()
        }
        defer {
            if zone != previous {
                if let previous { setenv("TZ", previous, 1) } else { unsetenv("TZ") }
                tzset()
            }
        }
        return body()
    }

    /// "HH:MM" or "HH:MM:SS" on a 24-hour clock.
    static func hourMinute(_ s: String) -> (Int, Int, Int)? {
        let parts = s.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2 || parts.count == 3, parts.allSatisfy({ $0.count == 2 && $0.allSatisfy { $0.isASCII && $0.isNumber } }),
              let h = Int(parts[0]), let m = Int(parts[1]), h < 24, m < 60 else { return nil }
        let sec = parts.count == 3 ? Int(parts[2])! : 0
        return sec < 60 ? (h, m, sec) : nil
    }

    /// A wall-clock time on the local day `days` after today's.
    static func localDay(_ now: Int64, plus days: Int, hour: Int, minute: Int, second: Int, timeZone: String?, text: String) throws -> Int64 {
        let today = try localParts(now, timeZone: timeZone)
        let civil = Time.civil(fromDays: Int64(Time.daysFromCivil(today.year, today.month, today.day) + days))
        return try local(year: Int(civil.year), month: Int(civil.month), day: Int(civil.day), hour: hour, minute: minute, second: second,
                         timeZone: timeZone, text: text)
    }

    static func localParts(_ t: Int64, timeZone: String?) throws -> (year: Int, month: Int, day: Int) {
        try checkZone(timeZone)
        return withZone(timeZone) {
            var time = time_t(t)
            var parts = tm()
            localtime_r(&time, &parts)
            return (Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1, Int(parts.tm_mday))
        }
    }

    static func local(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int, timeZone: String?, text: String) throws -> Int64 {
        guard day <= Time.daysIn(month: month, year: year) else {
            throw InputError("invalid time '\(text)'", hint: accepted)
        }
        try checkZone(timeZone)
        return withZone(timeZone) {
            var parts = tm()
            parts.tm_year = Int32(year - 1900)
            parts.tm_mon = Int32(month - 1)
            parts.tm_mday = Int32(day)
            parts.tm_hour = Int32(hour)
            parts.tm_min = Int32(minute)
            parts.tm_sec = Int32(second)
            parts.tm_isdst = -1
            return Int64(mktime(&parts))
        }
    }
}
