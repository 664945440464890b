/// Siren 7 driven by siren.json and a lookup-shaped file, as docs/clients.md
/// describes it. The app maps siren.json onto Siren's rules; relctl's
/// contract (README) adds one step Siren lacks: below `forceFloor` the app
/// forces the update, behind Siren's own gates.
public struct SirenClient: Sendable, Equatable {
    let config: Config
    let lookup: Lookup?

    /// What Siren reads of the lookup file. A struct, so == (Fidelity reuses
    /// decisions for equal clients) covers every field the compiler sees.
    struct Lookup: Equatable {
        let version: [Int]
        let releasedAt: Int64
        let minimumOS: String
    }

    /// What Siren reads of siren.json: the same for every locale's lookup file, so read once (Fidelity).
    struct Config: Sendable, Equatable {
        let alerts: [String]
        let delayDays: Int64
        let forceFloor: [Int]?

        init(_ config: [UInt8]) throws(ClientFailure) {
            let top = try ClientJSON.object(try ClientJSON.parse(config), "siren.json")
            var alerts: [String] = []
            for type in ["major", "minor", "patch", "revision"] {
                let rule = try ClientJSON.object(top["\(type)UpdateRules"], "\(type)UpdateRules")
                let alert = try ClientJSON.string(rule["alertType"], "\(type)UpdateRules.alertType")
                guard ["force", "option", "skip", "none"].contains(alert) else { throw .crash("\(type)UpdateRules.alertType '\(alert)' is not a Siren alert type") }
                alerts.append(alert)
            }
            self.alerts = alerts
            guard case .int(let days)? = top["showAlertAfterCurrentVersionHasBeenReleasedForDays"], days >= 0 else {
                throw .crash("showAlertAfterCurrentVersionHasBeenReleasedForDays is not a whole number")
            }
            delayDays = days
            switch top["forceFloor"] {
            case .string(let s)?: forceFloor = SirenClient.components(s)
            case .null?, nil: forceFloor = nil
            default: throw .crash("forceFloor is not a string")
            }
        }
    }

    /// `lookup` nil: no lookup file for this locale (Siren sees no update).
    public init(config: [UInt8], lookup: [UInt8]?) throws(ClientFailure) {
        try self.init(config: Config(config), lookup: lookup)
    }

    init(config: Config, lookup: [UInt8]?) throws(ClientFailure) {
        self.config = config
        guard let lookup else { self.lookup = nil; return }
        // A result that fails to decode is an error Siren reports: no alert.
        guard case .object(let l)? = try? JSONReader.parse(lookup), case .int(1)? = l["resultCount"],
              case .array(let results)? = l["results"], case .object(let r)? = results.first,
              case .int? = r["trackId"], case .string(let version)? = r["version"], case .string(let date)? = r["currentVersionReleaseDate"],
              case .string? = r["bundleId"], case .string(let minimumOS)? = r["minimumOsVersion"], case .string? = r["releaseNotes"], case .string? = r["trackViewUrl"],
              let releasedAt = Time.parseUTC(date)
        else { throw .ignored("the lookup file does not decode") }
        self.lookup = Lookup(version: SirenClient.components(version), releasedAt: releasedAt, minimumOS: minimumOS)
    }

    /// Siren 7: missing components count as 0; the first that differs is the update type.
    static func compare(_ a: String, _ b: String) -> (below: Bool, type: Int) {
        compare(components(a), components(b))
    }

    static func compare(_ x: [Int], _ y: [Int]) -> (below: Bool, type: Int) {
        for i in 0..<max(x.count, y.count) {
            let p = i < x.count ? x[i] : 0, q = i < y.count ? y[i] : 0
            if p != q { return (p < q, i) }
        }
        return (false, 0)
    }

    /// The numbers between dots; a part that is not a number counts as 0.
    static func components(_ s: String) -> [Int] {
        var out: [Int] = []
        var n = 0, digits = true, any = false
        for c in s.utf8 {
            if c == 46 {
                out.append(digits && any ? n : 0)
                n = 0; digits = true; any = false
            } else if c >= 48 && c <= 57, n < 100_000_000 {
                n = n * 10 + Int(c - 48); any = true
            } else {
                digits = false
            }
        }
        out.append(digits && any ? n : 0)
        return out
    }

    /// Siren's gates come first, the floor the app feeds it after them
    /// (docs/clients.md, Wiring): no lookup, a release still in its delay, or a
    /// device OS (`os`, nil: the newest) below the lookup's minimum means no
    /// alert, forced or not.
    public func decide(_ installed: String, at now: Int64, os: String? = nil) -> ClientDecision {
        let version = SirenClient.components(installed)
        guard let lookup, lookup.releasedAt + config.delayDays * 86400 <= now else { return .none }
        if let os, OSVersion.isBelow(os, lookup.minimumOS) { return .none }
        if let forceFloor = config.forceFloor, SirenClient.compare(version, forceFloor).below { return .required }
        let c = SirenClient.compare(version, lookup.version)
        guard c.below else { return .none }
        switch config.alerts[min(c.type, 3)] {
        case "force": return .required
        case "none": return .none
        default: return .optional
        }
    }
}

