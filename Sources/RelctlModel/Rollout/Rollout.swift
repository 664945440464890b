/// A staged recommend: the recommend floor `floor` asked of a growing share
/// of installs, on a schedule of steps. Frozen and byte-defined, so any
/// language decides alike with 32-bit arithmetic: an install is in when
/// `uint32_be(SHA-256(salt + "." + installId)[0..4]) mod 10000` is below
/// the basis points of the step in force. A new salt for each rollout
/// reshuffles who is first; raising the step never removes an install, and
/// the app works the step out from the schedule, so widening needs no publish.
public struct Rollout: Sendable, Equatable {
    /// What files that cannot stage (Retired, AndVersion, Siren's, Prince of
    /// Versions, the appcast) say until the rollout reaches every install.
    public enum Unstaged: String, Sendable, CaseIterable {
        /// Nothing of the staged floor until it reaches 100 %.
        case withhold
        /// The staged floor, to every install at once.
        case everyone
    }

    public static let hashName = "sha256"
    /// Basis points: 10,000 is every install.
    public static let unit = 10_000
    /// Apple's phased release: seven daily steps.
    public static let defaultSteps = [100, 200, 500, 1_000, 2_000, 5_000, 10_000]
    public static let defaultEvery: Int64 = 86_400
    public static let maximumSteps = 50
    public static let everyRange: ClosedRange<Int64> = 60...(366 * 86_400)

    /// The floor asked of installs in the rollout (no deadline).
    public var floor: Floor
    public var salt: String
    /// Basis points of each step, rising.
    public var steps: [Int]
    /// Seconds from one step to the next.
    public var every: Int64
    /// When the first step starts.
    public var start: Int64
    /// When it was halted: who was in then stays in, nobody new comes in.
    public var haltedAt: Int64?
    public var unstaged: Unstaged
    /// When the version was first staged: kept through a resume or a new
    /// schedule, it says which releases were offered to all before
    /// (PlatformRecord.Withholding). At or before `start`.
    public var since: Int64

    public init(floor: Floor, salt: String, steps: [Int], every: Int64, start: Int64, haltedAt: Int64? = nil, unstaged: Unstaged = .withhold,
                since: Int64? = nil) throws(InputError) {
        self.floor = floor; self.salt = salt; self.steps = steps; self.every = every; self.start = start; self.haltedAt = haltedAt; self.unstaged = unstaged
        self.since = since ?? start
        try check()
    }

    /// Every value in range before any arithmetic: a database, a config
    /// file and a downloaded control.json all come through here.
    public func check() throws(InputError) {
        try Rollout.checkSalt(salt)
        guard !steps.isEmpty, steps.count <= Rollout.maximumSteps else {
            throw InputError("a rollout has 1 to \(Rollout.maximumSteps) steps, not \(steps.count)")
        }
        for (i, s) in steps.enumerated() {
            guard s >= 1, s <= Rollout.unit else { throw InputError("a rollout step of \(s) basis points is outside 1 to \(Rollout.unit)") }
            guard i == 0 || s > steps[i - 1] else { throw InputError("rollout steps must rise: \(Rollout.percent(steps[i - 1])) then \(Rollout.percent(s))") }
        }
        guard Rollout.everyRange.contains(every) else {
            throw InputError("a rollout step lasts 1 minute to 366 days, not \(every) seconds")
        }
        guard Time.isInRange(start), start <= Time.latest - Int64(steps.count - 1) * every else {
            throw InputError("a rollout's schedule runs past the year 9999")
        }
        if let h = haltedAt, !Time.isInRange(h) { throw InputError("a rollout's halt instant is out of range") }
        guard Time.isInRange(since), since <= start else { throw InputError("a rollout was first staged (since) after its schedule starts, or out of range") }
        guard floor.deadline == nil else { throw InputError("a staged recommend has no deadline") }
    }

    /// A rollout as a database row holds it (steps as "100,500,10000"), every value checked.
    public static func stored(version: String, build: Int64?, salt: String, steps: String, every: Int64, start: Int64, haltedAt: Int64?,
                              unstaged: String, since: Int64?) throws(InputError) -> Rollout {
        var list: [Int] = []
        for part in steps.split(separator: ",", omittingEmptySubsequences: false) {
            guard let n = Int(part) else { throw InputError("its rollout_steps '\(steps)' is not basis points separated by commas") }
            list.append(n)
        }
        guard let mode = Unstaged(rawValue: unstaged) else { throw InputError("its rollout_unstaged '\(unstaged)' is not withhold or everyone") }
        let floor: Floor
        do { floor = Floor(version: try Version(version), build: try build.map { try parseBuild(String($0)) }) } catch let e as InputError { throw e } catch {
            throw InputError("its rollout version '\(version)' is not a version")
        }
        return try Rollout(floor: floor, salt: salt, steps: list, every: every, start: start, haltedAt: haltedAt, unstaged: mode, since: since)
    }

    public static func checkSalt(_ salt: String) throws(InputError) {
        let ok = salt.utf8.count >= 8 && salt.utf8.count <= 64
            && salt.utf8.allSatisfy { ($0 >= 48 && $0 <= 57) || ($0 >= 97 && $0 <= 122) || ($0 >= 65 && $0 <= 90) || $0 == 45 || $0 == 95 }
        guard ok else { throw InputError("a rollout salt is 8 to 64 letters, digits, '-' or '_'") }
    }

    /// A new salt: 128 random bits, hex.
    public static func newSalt() -> String {
        var g = SystemRandomNumberGenerator()
        let chars = Array("0123456789abcdef".utf8)
        return String(decoding: (0..<32).map { _ in chars[Int(g.next() & 15)] }, as: UTF8.self)
    }

    /// When step `i` starts.
    public func stepStart(_ i: Int) -> Int64 { start + Int64(i) * every }

    /// The steps with their instants, as control.json publishes them.
    public var schedule: [(from: Int64, basisPoints: Int)] { steps.indices.map { (stepStart($0), steps[$0]) } }

    /// The step in force at `t` (nil before the first): a halted rollout stays at its halt's.
    public func step(at t: Int64) -> Int? {
        let t = haltedAt.map { min(t, $0) } ?? t
        guard t >= start else { return nil }
        return Int(min((t - start) / every, Int64(steps.count - 1)))
    }

    /// The share of installs in at `t`, in basis points.
    public func basisPoints(at t: Int64) -> Int { step(at: t).map { steps[$0] } ?? 0 }

    /// Whether every install is in at `t`.
    public func isComplete(at t: Int64) -> Bool { basisPoints(at: t) == Rollout.unit }

    /// The instant every install is in, when the schedule reaches it and is not halted before.
    public var completesAt: Int64? {
        guard steps.last == Rollout.unit else { return nil }
        let at = stepStart(steps.count - 1)
        if let h = haltedAt, h < at { return nil }
        return at
    }

    /// The instants after `t` at which the share grows, with their basis points.
    public func widenings(after t: Int64) -> [(at: Int64, basisPoints: Int)] {
        schedule.filter { step in step.from > t && (haltedAt.map { step.from <= $0 } ?? true) }.map { ($0.from, $0.basisPoints) }
    }

    /// "1 % now, 5 % from Sat 6 Dec 10:00, …, every install from …" (`people` spells an instant).
    public static func scheduleWords(steps: [Int], every: Int64, start: Int64, people: (Int64) -> String) -> String {
        var parts = ["\(percent(steps[0])) now"]
        for i in steps.indices.dropFirst() {
            let at = start + Int64(i) * every
            parts.append(steps[i] == unit ? "every install from \(people(at))" : "\(percent(steps[i])) from \(people(at))")
        }
        if steps.last != unit { parts.append("then no wider until 'relctl rollout finish'") }
        return parts.joined(separator: ", ")
    }

    /// An install id as apps make them (RelctlClient: a UUID): 1 to 128 bytes, no spaces or control characters.
    public static func checkInstallID(_ id: String) throws(InputError) -> String {
        guard !id.isEmpty, id.utf8.count <= 128, id.unicodeScalars.allSatisfy({ $0.value > 32 && $0.value != 127 && !($0.value >= 0x80 && $0.value < 0xA0) }) else {
            throw InputError("'\(id.prefix(40))' is not an install id", hint: "give the app's install id: 1 to 128 characters, no spaces, like 7F1C2A90-3B4D-4E5F-8A6B-1C2D3E4F5A6B")
        }
        return id
    }

    /// Resumed at `t` after a halt: the step in force then goes on with the
    /// time it had left, and the later steps move by the time spent halted.
    public func resumed(at t: Int64) throws(InputError) -> Rollout {
        guard let h = haltedAt else { return self }
        var r = self
        guard let start = try? Time.adding(max(0, t - h), to: start, what: "the resumed rollout's schedule") else {
            throw InputError("the resumed rollout's schedule runs past the year 9999")
        }
        r.start = start
        r.haltedAt = nil
        try r.check()
        return r
    }

    /// The bucket of an install: 0 to 9,999.
    public static func bucket(salt: String, installID: String) -> Int {
        let d = SHA256Digest.hash(Array((salt + "." + installID).utf8))
        let n = UInt32(d[0]) << 24 | UInt32(d[1]) << 16 | UInt32(d[2]) << 8 | UInt32(d[3])
        return Int(n % UInt32(unit))
    }

    public func bucket(_ installID: String) -> Int { Rollout.bucket(salt: salt, installID: installID) }

    public func includes(_ installID: String, at t: Int64) -> Bool { bucket(installID) < basisPoints(at: t) }

    /// "5 %", "0.5 %", "12.25 %".
    public static func percent(_ basisPoints: Int) -> String { number(basisPoints) + " %" }

    /// The percentage alone, as `--rollout` takes it: "5", "0.5", "12.25".
    public static func number(_ basisPoints: Int) -> String {
        let whole = basisPoints / 100, rest = basisPoints % 100
        if rest == 0 { return "\(whole)" }
        return rest % 10 == 0 ? "\(whole).\(rest / 10)" : "\(whole).\(rest < 10 ? "0" : "")\(rest)"
    }

    /// "1,2,5,100" or "0.5,50" (percent, at most two decimals) as basis points.
    public static func parseSteps(_ text: String) throws(InputError) -> [Int] {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingSpaces }
        var out: [Int] = []
        for part in parts {
            guard let bp = basisPoints(part) else {
                let why = part == "phased" ? "'phased' is a whole schedule, given alone"
                    : part.hasSuffix("%") ? "give the number without '%'"
                    : part.split(separator: ".").last.map({ part.contains(".") && $0.count > 2 }) == true ? "at most two decimals (0.01 % is the smallest step)"
                    : Double(part).map { $0 <= 0 ? "a share is at least 0.01" : $0 > 100 ? "a share is at most 100" : "" } ?? ""
                throw InputError("'\(part)' is not a percentage of installs\(why.isEmpty ? "" : ": " + why)", hint: "give percentages from 0.01 to 100 separated by commas, like 1,5,20,100, or phased")
            }
            out.append(bp)
        }
        return out
    }

    /// "12.5" → 1250; nil unless 0.01 to 100 with at most two decimals.
    static func basisPoints(_ s: String) -> Int? {
        let pieces = s.split(separator: ".", omittingEmptySubsequences: false)
        guard pieces.count <= 2, let whole = pieces.first, !whole.isEmpty, whole.count <= 3,
              whole.allSatisfy(\.isASCIIDigitValue), let w = Int(whole) else { return nil }
        var frac = 0
        if pieces.count == 2 {
            let f = pieces[1]
            guard !f.isEmpty, f.count <= 2, f.allSatisfy(\.isASCIIDigitValue), let n = Int(f) else { return nil }
            frac = f.count == 1 ? n * 10 : n
        }
        let bp = w * 100 + frac
        return bp >= 1 && bp <= unit ? bp : nil
    }
}

private extension Character {
    var isASCIIDigitValue: Bool { isASCII && isNumber }
}

private extension Substring {
    var trimmingSpaces: String { String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed()) }
}
