/// Instants are Unix seconds in UTC, written as RFC 3339 with no fraction
/// (2026-12-01T06:00:00Z) in every file and every --json. Pure arithmetic on
/// the proleptic Gregorian calendar: no time zone database is needed here.
public enum Time {
    /// 0001-01-01T00:00:00Z and 9999-12-31T23:59:59Z: every instant relctl
    /// accepts, stores or publishes lies between them, so that RFC 3339's
    /// four-digit years hold and no date or duration arithmetic can overflow.
    public static let earliest: Int64 = -62_135_596_800
    public static let latest: Int64 = 253_402_300_799

    public static func isInRange(_ t: Int64) -> Bool { t >= earliest && t <= latest }

    /// `t + seconds`, refused past year 9999 (a duration typed by the user).
    public static func adding(_ seconds: Int64, to t: Int64, what: String) throws -> Int64 {
        let (sum, overflow) = t.addingReportingOverflow(seconds)
        guard !overflow, isInRange(sum) else {
            throw InputError("\(what) would end after 9999-12-31T23:59:59Z", hint: "give a shorter duration or an end time with --until")
        }
        return sum
    }

    public static func format(_ t: Int64) -> String {
        String(unsafeUninitializedCapacity: 20) { write(t, wall: false, into: $0) }
    }

    /// The same, appended to `out` (the status pages write one per version).
    public static func format(_ t: Int64, into out: inout [UInt8]) { append(t, wall: false, to: &out) }

    static func append(_ t: Int64, wall: Bool, to out: inout [UInt8]) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { b in
            out.append(contentsOf: UnsafeBufferPointer(rebasing: b[..<write(t, wall: wall, into: b)]))
        }
    }

    /// `t` into `b` (20 bytes), as `format` writes it or, for people
    /// (`wall`), "2026-12-08 08:00" with ":30" when there are seconds; returns
    /// how many bytes. Written in place (years are 0001 to 9999): every file,
    /// page and verdict of a publish formats instants.
    private static func write(_ t: Int64, wall: Bool, into b: UnsafeMutableBufferPointer<UInt8>) -> Int {
        // Out of range only for values no caller lets through; clamp rather than print a broken date.
        let t = min(max(t, earliest), latest)
        let days = t >= 0 ? t / 86400 : (t - 86399) / 86400
        let secs = Int(t - days * 86400)
        let (y, m, d) = civil(fromDays: days)
        func put(_ n: Int64, _ at: Int, _ width: Int) {
            var n = n
            for i in stride(from: at + width - 1, through: at, by: -1) { b[i] = UInt8(48 + n % 10); n /= 10 }
        }
        put(y, 0, 4); b[4] = 45; put(m, 5, 2); b[7] = 45; put(d, 8, 2); b[10] = wall ? 32 : 84
        put(Int64(secs / 3600), 11, 2); b[13] = 58; put(Int64(secs / 60 % 60), 14, 2)
        if wall && secs % 60 == 0 { return 16 }
        b[16] = 58; put(Int64(secs % 60), 17, 2)
        if wall { return 19 }
        b[19] = 90
        return 20
    }

    /// A duration as `parseDuration` reads it back, largest units first: "1d", "1d12h", "90s" → "1m30s".
    public static func formatDuration(_ seconds: Int64) -> String {
        guard seconds > 0 else { return "0s" }
        var rest = seconds, out = ""
        for (unit, name) in [(Int64(86400), "d"), (3600, "h"), (60, "m"), (1, "s")] where rest >= unit {
            out += "\(rest / unit)\(name)"
            rest %= unit
        }
        return out
    }

    /// "90m", "2h", "1d", "1h30m", "45s", "1w"; always positive.
    public static func parseDuration(_ text: String) throws -> Int64 {
        let bad = InputError("invalid duration '\(text)'", hint: "use a number with a unit: 90m, 2h, 1d, 1h30m (s, m, h, d, w)")
        let long = InputError("the duration '\(text)' is longer than relctl's calendar (years 1 to 9999)", hint: "give a shorter duration, like 90m, 2h or 30d")
        var total: Int64 = 0
        var number: Int64? = nil
        var sawUnit = false
        // Each unit once, largest first (1h30m): "2d2d" or "30m1h" is a typo, not a sum.
        var lastUnit = Int64.max
        for c in text.trimmingSpaces() {
            if let digit = c.wholeNumberValue, c.isASCII {
                number = (number ?? 0) * 10 + Int64(digit)
                guard number! < 100_000_000 else { throw long }
                continue
            }
            guard let n = number else { throw bad }
            let unit: Int64
            switch c {
            case "s": unit = 1
            case "m": unit = 60
            case "h": unit = 3600
            case "d": unit = 86400
            case "w": unit = 604800
            default: throw bad
            }
            guard unit < lastUnit else {
                throw InputError("invalid duration '\(text)': each unit once, largest first", hint: "like 1w2d, 1h30m or 90m")
            }
            lastUnit = unit
            // Each part is below 10^8 × 604800 < 2^63; the sum is checked against
            // the calendar's span, so no sum of parts can overflow either.
            total += n * unit
            guard total <= latest - earliest else { throw long }
            number = nil
            sawUnit = true
        }
        guard sawUnit, number == nil else { throw bad }
        guard total > 0 else {
            throw InputError("the duration '\(text)' is zero", hint: "give a positive duration such as 90m or 2h")
        }
        return total
    }

    /// Exactly yyyy-MM-ddTHH:mm:ssZ, as relctl writes instants (and as
    /// Siren's lookup decoder demands); nil for anything else.
    public static func parseUTC(_ s: String) -> Int64? {
        var s = s
        // Read in place, each field's digits summed: a copy of the bytes and a String and an
        // Int(String) per field cost 2,800 instructions, and a version list has a time per entry.
        return s.withUTF8 { b -> Int64? in
            guard b.count == 20, b[4] == 45, b[7] == 45, b[10] == 84, b[13] == 58, b[16] == 58, b[19] == 90 else { return nil }
            func n(_ r: Range<Int>) -> Int? {
                var value = 0
                for i in r {
                    guard b[i] >= 48 && b[i] <= 57 else { return nil }
                    value = value * 10 + Int(b[i] - 48)
                }
                return value
            }
            guard let y = n(0..<4), let mo = n(5..<7), let d = n(8..<10), let h = n(11..<13), let mi = n(14..<16), let sec = n(17..<19),
                  (1...12).contains(mo), (1...daysIn(month: mo, year: y)).contains(d), h < 24, mi < 60, sec < 60 else { return nil }
            return Int64(daysFromCivil(y, mo, d)) * 86400 + Int64(h * 3600 + mi * 60 + sec)
        }
    }

    public static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
    public static func daysFromCivil(_ y0: Int, _ m: Int, _ d: Int) -> Int {
        let y = m <= 2 ? y0 - 1 : y0
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146097 + doe - 719468
    }

    /// The date of a day number, the inverse of `daysFromCivil`.
    public static func civil(fromDays z0: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let z = z0 + 719468
        let era = (z >= 0 ? z : z - 146096) / 146097
        let doe = z - era * 146097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
    }
}
