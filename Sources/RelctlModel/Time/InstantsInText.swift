/// The core writes instants into sentences (a verdict's why, a limit, an
/// impact line) as RFC 3339 UTC (`Time.format`), which `--json` and files
/// keep. Where people read those sentences (check's why:, the status page's
/// Why column, log texts) each such instant is written again the way that
/// place writes times: one style per place, whatever sentence it came in.
extension Time {
    /// `text` with every "YYYY-MM-DDTHH:MM:SSZ" that is a valid instant
    /// replaced by `people(instant)`, but one in double quotes (a value to
    /// type as it is); the rest as it was.
    public static func rewritingInstants(_ text: String, _ people: (Int64) -> String) -> String {
        let b = Array(text.utf8)
        guard b.count >= 20, b.contains(UInt8(ascii: "T")) else { return text }
        var out: [UInt8] = []
        var i = 0, copied = 0
        while i + 20 <= b.count {
            if b[i + 19] == UInt8(ascii: "Z"), b[i + 10] == UInt8(ascii: "T"), b[i + 4] == UInt8(ascii: "-"),
               // Quoted, it is a value to type as it is (an example of a file's field): left alone.
               i == 0 || !(b[i - 1] >= 48 && b[i - 1] <= 57 || b[i - 1] == UInt8(ascii: "\"")),
               let t = parseUTC(String(decoding: b[i..<i + 20], as: UTF8.self)) {
                out += b[copied..<i]
                out += people(t).utf8
                i += 20
                copied = i
            } else {
                i += 1
            }
        }
        guard copied > 0 else { return text }
        out += b[copied...]
        return String(decoding: out, as: UTF8.self)
    }

    /// An instant in a zone for people with UTC beside it: "2026-12-08 09:00
    /// CET (08:00 UTC)", seconds only when there are some, the UTC date when
    /// it is another day. In UTC or without a zone: "2026-12-08 08:00 UTC".
    public static func people(_ t: Int64, zone: ZoneRules?) -> String {
        let utc = wall(format(t))
        guard let zone else { return utc + " UTC" }
        let (offset, name) = zone.local(at: t)
        guard offset != 0 else { return utc + " " + (name.isEmpty ? "UTC" : name) }
        let local = wall(format(min(max(t + offset, earliest), latest)))
        let label = name.isEmpty ? LocalDate.zone(offset) : name
        let sameDay = local.prefix(10) == utc.prefix(10)
        return "\(local) \(label) (\(sameDay ? String(utc.dropFirst(11)) : utc) UTC)"
    }

    /// "2026-12-08T08:00:00Z" as "2026-12-08 08:00" (":30" when there are seconds).
    package static func wall(_ formatted: String) -> String {
        var b = Array(formatted.utf8)
        b.removeLast()
        if b.count == 19, b[17] == 48, b[18] == 48 { b.removeLast(3) }
        if b.count > 10 { b[10] = 32 }
        return String(decoding: b, as: UTF8.self)
    }
}
