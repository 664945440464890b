/// A time zone's offsets from UTC, read from its TZif file (RFC 8536, the
/// system's zone database) without the C library: publish works out the
/// offsets its messages need while other threads render, and the C
/// library's only way to another zone is the process's TZ, which no thread
/// may change while others run.
public struct ZoneRules: Sendable, Equatable {
    /// Transition instants, ascending, and the offset and abbreviation from each on.
    package let transitions: [Int64]
    package let offsets: [Int64]
    package let names: [String]
    /// Before the first transition (time type 0).
    package let initial: Int64
    package let initialName: String
    /// After the last: the file's POSIX TZ rule (version 2 and later).
    package let rule: PosixZone?

    /// Nil for bytes that are not a TZif file.
    public init?(tzif bytes: [UInt8]) {
        var r = Reader(bytes: bytes)
        guard let v1 = r.header() else { return nil }
        var counts = v1.counts
        var timeSize = 4
        if v1.version >= 2 {
            // Skip the 32-bit data; the 64-bit block follows, then the footer.
            guard r.skip(counts.dataSize(timeSize: 4)), let v2 = r.header() else { return nil }
            counts = v2.counts
            timeSize = 8
        }
        var transitions: [Int64] = [], indices: [Int] = [], types: [Int64] = [], designations: [Int] = []
        for _ in 0..<counts.time { guard let t = r.int(timeSize) else { return nil }; transitions.append(t) }
        for _ in 0..<counts.time { guard let i = r.byte() else { return nil }; indices.append(Int(i)) }
        for _ in 0..<counts.type {
            guard let off = r.int(4), r.skip(1), let designation = r.byte() else { return nil }
            types.append(off)
            designations.append(Int(designation))
        }
        let chars = Array(r.rest.prefix(counts.char))
        guard !types.isEmpty, indices.allSatisfy({ $0 < types.count }), zip(transitions, transitions.dropFirst()).allSatisfy({ $0 < $1 }),
              designations.allSatisfy({ $0 < max(chars.count, 1) }),
              r.skip(counts.char + counts.leap * (timeSize + 4) + counts.isStd + counts.isUT) else { return nil }
        // "CET", "+03": each type's abbreviation, NUL-terminated in the characters block.
        let typeNames = designations.map { i in String(decoding: chars.dropFirst(i).prefix { $0 != 0 }, as: UTF8.self) }
        self.transitions = transitions
        offsets = indices.map { types[$0] }
        names = indices.map { typeNames[$0] }
        initial = types[0]
        initialName = typeNames[0]
        if timeSize == 8, r.byte() == UInt8(ascii: "\n") {
            let footer = r.rest.prefix { $0 != UInt8(ascii: "\n") }
            rule = footer.isEmpty ? nil : PosixZone(String(decoding: footer, as: UTF8.self))
        } else {
            rule = nil
        }
    }

    /// Where no zone file is, a POSIX rule alone ("UTC0", "EST5EDT,M3.2.0,M11.1.0").
    public init?(posix text: String) {
        guard let rule = PosixZone(text) else { return nil }
        transitions = []; offsets = []; names = []; initial = rule.standard; initialName = rule.standardName; self.rule = rule
    }

    public static let utc = ZoneRules(posix: "UTC0")!

    /// From transitions worked out elsewhere (an app's Foundation.TimeZone):
    /// the offset and abbreviation before the first, then from each instant on.
    public init(initial: (offset: Int64, name: String), transitions list: [(at: Int64, offset: Int64, name: String)]) {
        let sorted = list.sorted { $0.at < $1.at }
        transitions = sorted.map(\.at); offsets = sorted.map(\.offset); names = sorted.map(\.name)
        self.initial = initial.offset; initialName = initial.name; rule = nil
    }

    /// Zone names that mean UTC (the C library takes the bare ones for UTC even without a file).
    public static func isUTC(_ name: String) -> Bool {
        ["UTC", "Etc/UTC", "GMT", "Etc/GMT", "UTC0", "GMT0", "Z", "Zulu", "Universal", "Etc/Universal"].contains(name)
    }

    /// The offset from UTC, in seconds, at instant `t`.
    public func offset(at t: Int64) -> Int64 { local(at: t).offset }

    /// The offset and the zone's abbreviation ("CET", "+03") at instant `t`.
    public func local(at t: Int64) -> (offset: Int64, name: String) {
        guard let last = transitions.last, t >= transitions[0] else {
            return transitions.isEmpty ? (rule?.local(at: t) ?? (initial, initialName)) : (initial, initialName)
        }
        if t >= last, let rule { return rule.local(at: t) }
        // The last transition at or before t.
        var lo = 0, hi = transitions.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if transitions[mid] <= t { lo = mid } else { hi = mid - 1 }
        }
        return (offsets[lo], names[lo])
    }

    private struct Counts {
        var isUT = 0, isStd = 0, leap = 0, time = 0, type = 0, char = 0
        package func dataSize(timeSize: Int) -> Int { time * timeSize + time + type * 6 + char + leap * (timeSize + 4) + isStd + isUT }
    }

    private struct Reader {
        let bytes: [UInt8]
        var at = 0
        var rest: ArraySlice<UInt8> { bytes[min(at, bytes.count)...] }

        package mutating func skip(_ n: Int) -> Bool {
            guard n >= 0, at + n <= bytes.count else { return false }
            at += n
            return true
        }
        package mutating func byte() -> UInt8? {
            guard at < bytes.count else { return nil }
            at += 1
            return bytes[at - 1]
        }
        /// A big-endian two's-complement integer of `size` bytes.
        package mutating func int(_ size: Int) -> Int64? {
            guard at + size <= bytes.count else { return nil }
            var v: UInt64 = 0
            for b in bytes[at..<at + size] { v = v << 8 | UInt64(b) }
            at += size
            let shift = UInt64(64 - size * 8)
            return Int64(bitPattern: v << shift) >> Int64(shift)
        }
        package mutating func header() -> (version: Int, counts: Counts)? {
            guard at + 44 <= bytes.count, Array(bytes[at..<at + 4]) == Array("TZif".utf8) else { return nil }
            let version = bytes[at + 4] == 0 ? 1 : Int(bytes[at + 4]) - Int(UInt8(ascii: "0"))
            at += 20
            var c = Counts()
            let limit: Int64 = 1 << 24
            guard let ut = int(4), let std = int(4), let leap = int(4), let time = int(4), let type = int(4), let char = int(4),
                  [ut, std, leap, time, type, char].allSatisfy({ (0..<limit).contains($0) }) else { return nil }
            (c.isUT, c.isStd, c.leap, c.time, c.type, c.char) = (Int(ut), Int(std), Int(leap), Int(time), Int(type), Int(char))
            return (version, c)
        }
    }
}

/// A POSIX TZ rule, as a TZif footer gives it: `std offset [dst [offset] [,start[/time],end[/time]]]`.
/// Offsets count west of Greenwich (EST5 is UTC-5).
public struct PosixZone: Sendable, Equatable {
    /// East of UTC, in seconds.
    package let standard: Int64
    package let daylight: Int64?
    package let standardName: String, daylightName: String
    package let start: Change?, end: Change?

    /// A day of the year and the local time of day the change happens at.
    package enum Day: Equatable, Sendable {
        /// `Jn`: day 1 to 365, February 29 never counted.
        case julian(Int)
        /// `n`: day 0 to 365, February 29 counted.
        case zeroBased(Int)
        /// `Mm.w.d`: month, week 1 to 5 (5: the last), weekday 0 (Sunday) to 6.
        case month(Int, Int, Int)
    }
    package struct Change: Equatable, Sendable {
        var day: Day
        var time: Int64
    }

    package init?(_ text: String) {
        var s = Substring(text)
        func name() -> String? {
            if s.first == "<" {
                guard let close = s.firstIndex(of: ">") else { return nil }
                let quoted = String(s[s.index(after: s.startIndex)..<close])
                s = s[s.index(after: close)...]
                return quoted
            }
            let n = s.prefix { $0.isLetter }
            guard n.count >= 3 else { return nil }
            s = s.dropFirst(n.count)
            return String(n)
        }
        /// [+-]hh[:mm[:ss]], as seconds.
        func clock() -> Int64? {
            var sign: Int64 = 1
            if s.first == "+" || s.first == "-" { if s.first == "-" { sign = -1 }; s = s.dropFirst() }
            var total: Int64 = 0
            for (i, unit) in [3600, 60, 1].enumerated() {
                if i > 0 { guard s.first == ":" else { break }; s = s.dropFirst() }
                let digits = s.prefix { $0.isASCII && $0.isNumber }
                guard (1...3).contains(digits.count), let n = Int64(digits) else { return nil }
                total += n * Int64(unit)
                s = s.dropFirst(digits.count)
            }
            return sign * total
        }
        func number() -> Int? {
            let digits = s.prefix { $0.isASCII && $0.isNumber }
            guard (1...3).contains(digits.count) else { return nil }
            s = s.dropFirst(digits.count)
            return Int(digits)
        }
        func change() -> Change? {
            let day: Day
            if s.first == "J" {
                s = s.dropFirst()
                guard let n = number(), (1...365).contains(n) else { return nil }
                day = .julian(n)
            } else if s.first == "M" {
                s = s.dropFirst()
                guard let m = number(), s.first == "." else { return nil }
                s = s.dropFirst()
                guard let w = number(), s.first == "." else { return nil }
                s = s.dropFirst()
                guard let d = number(), (1...12).contains(m), (1...5).contains(w), (0...6).contains(d) else { return nil }
                day = .month(m, w, d)
            } else {
                guard let n = number(), (0...365).contains(n) else { return nil }
                day = .zeroBased(n)
            }
            var time: Int64 = 7200
            if s.first == "/" {
                s = s.dropFirst()
                guard let t = clock(), abs(t) <= 167 * 3600 else { return nil }
                time = t
            }
            return Change(day: day, time: time)
        }
        guard let stdName = name(), let std = clock(), abs(std) <= 24 * 3600 else { return nil }
        standard = -std
        standardName = stdName
        guard !s.isEmpty else { daylight = nil; daylightName = stdName; start = nil; end = nil; return }
        guard let dstName = name() else { return nil }
        daylightName = dstName
        if s.isEmpty || s.first == "," {
            daylight = standard + 3600
        } else {
            guard let d = clock(), abs(d) <= 24 * 3600 else { return nil }
            daylight = -d
        }
        // No rule: the US rule of POSIX's default (M3.2.0,M11.1.0).
        guard s.first == "," else {
            guard s.isEmpty else { return nil }
            start = Change(day: .month(3, 2, 0), time: 7200); end = Change(day: .month(11, 1, 0), time: 7200)
            return
        }
        s = s.dropFirst()
        guard let a = change(), s.first == "," else { return nil }
        s = s.dropFirst()
        guard let b = change(), s.isEmpty else { return nil }
        start = a; end = b
    }

    package func offset(at t: Int64) -> Int64 { local(at: t).offset }

    package func local(at t: Int64) -> (offset: Int64, name: String) {
        guard let daylight, let start, let end else { return (standard, standardName) }
        // The year around t, in local standard time; the changes of that year and its neighbours.
        let year = Time.civil(fromDays: floorDiv(t + standard, 86400)).year
        for y in [year - 1, year, year + 1].reversed() {
            // The instant (UTC) of each change in year y: the start in standard time, the end in summer time.
            let on = PosixZone.instant(start, year: y) - standard
            let off = PosixZone.instant(end, year: y) - daylight
            if on < off {
                if t >= on && t < off { return (daylight, daylightName) }
                if t >= off { return (standard, standardName) }
            } else {
                // Southern hemisphere: summer time spans the new year.
                if t >= on { return (daylight, daylightName) }
                if t >= off { return (standard, standardName) }
            }
        }
        return (standard, standardName)
    }

    /// Seconds from the epoch to the change's local time in year `y`, as if local time were UTC.
    package static func instant(_ c: Change, year y: Int64) -> Int64 {
        let jan1 = Int64(Time.daysFromCivil(Int(y), 1, 1))
        let leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0
        let day: Int64
        switch c.day {
        case .julian(let n): day = jan1 + Int64(n - 1) + (leap && n >= 60 ? 1 : 0)
        case .zeroBased(let n): day = jan1 + Int64(n)
        case .month(let m, let w, let d):
            let first = Int64(Time.daysFromCivil(Int(y), m, 1))
            // 1970-01-01 was a Thursday (4).
            let weekday = floorMod(first + 4, 7)
            var date = first + floorMod(Int64(d) - weekday, 7) + Int64(w - 1) * 7
            let last = first + Int64(Time.daysIn(month: m, year: Int(y))) - 1
            while date > last { date -= 7 }
            day = date
        }
        return day * 86400 + c.time
    }
}

private func floorDiv(_ a: Int64, _ b: Int64) -> Int64 { a >= 0 ? a / b : -((-a + b - 1) / b) }
private func floorMod(_ a: Int64, _ b: Int64) -> Int64 { a - floorDiv(a, b) * b }
