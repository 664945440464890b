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
        var out: [UInt8] = []
        people(t, zone: zone, into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// The same, appended to `out` (the status pages write one per version).
    package static func people(_ t: Int64, zone: ZoneRules?, into out: inout [UInt8]) {
        guard let zone else {
            append(t, wall: true, to: &out)
            out += " UTC".utf8
            return
        }
        let (offset, name) = zone.local(at: t)
        guard offset != 0 else {
            append(t, wall: true, to: &out)
            out.append(32)
            out += (name.isEmpty ? "UTC" : name).utf8
            return
        }
        let local = out.count
        append(min(max(t + offset, earliest), latest), wall: true, to: &out)
        out.append(32)
        out += (name.isEmpty ? LocalDate.zone(offset) : name).utf8
        out += " (".utf8
        let utc = out.count
        append(t, wall: true, to: &out)
        // The UTC date only when it is another day than the local one.
        if out[local..<local + 10] == out[utc..<utc + 10] { out.removeSubrange(utc..<utc + 11) }
        out += " UTC)".utf8
    }
}
