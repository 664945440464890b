/// The device OS, as far as it changes an answer. A version can be
/// installed on an OS at or above its minimum (its own, else the
/// platform's); so what a device is offered changes only at the minimum OS
/// values the records hold, and the devices between two of them form a
/// band that every answer treats alike.
public struct OSBand: Sendable, Equatable {
    /// The lowest OS of the band; nil for the band below every minimum.
    public var from: String?
    /// The OS the band ends below; nil for the newest band.
    public var below: String?
    /// An OS in the band to ask with; nil for the newest band, whose devices
    /// can install every version.
    public var os: String?

    public var isNewest: Bool { below == nil }

    package init(from: String?, below: String?, os: String?) { self.from = from; self.below = below; self.os = os }

    /// "iOS 15.0 to 16.x", "iOS below 15.0", "iOS 17.0 or newer", "Android API 24 to 25".
    public func label(_ platform: String) -> String {
        let name = OSBands.osName(platform)
        switch (from, below) {
        case (nil, nil): return "every \(name)"
        case (let f?, nil): return "\(name) \(f) or newer"
        case (nil, let b?): return "\(name) below \(b)"
        case (let f?, let b?):
            // "iOS 15.x" for 15.0 up to 16.0, "Android API 24" for 24 up to 25.
            let top = OSBands.justBelow(b, android: platform == "android")
            if let major = top.major, let lower = try? Version(f), lower.components[0] == major, lower.components.dropFirst().allSatisfy({ $0 == 0 }) {
                return "\(name) \(top.words)"
            }
            return "\(name) \(f) to \(top.words)"
        }
    }
}

public enum OSBands {
    /// The minimum OS a version needs: its own, else the platform's (nil: any).
    public static func minimum(_ v: VersionRecord, _ platform: PlatformRecord) -> String? { v.minOS ?? platform.minOS }

    /// Whether a device on `os` can install `v`.
    public static func installable(_ v: VersionRecord, on os: String, _ platform: PlatformRecord) -> Bool {
        minimum(v, platform).map { !OSVersion.isBelow(os, $0) } ?? true
    }

    /// The same of each of `versions`, in order. Neighbours mostly need the same
    /// minimum: each run of one is compared with `os` once, not every version.
    package static func installable(_ versions: [VersionRecord], on os: String, _ platform: PlatformRecord) -> [Bool] {
        var last: (minimum: String?, installs: Bool)?
        return versions.map { v in
            let m = minimum(v, platform)
            if let last, last.minimum == m { return last.installs }
            let installs = installable(v, on: os, platform)
            last = (m, installs)
            return installs
        }
    }

    /// The bands of a platform, newest first: one per distinct minimum OS its
    /// versions need, and the one below them all. A platform whose versions
    /// need no minimum, or all the same one, has the newest band and the one
    /// below it.
    public static func of(_ platform: PlatformRecord, _ versions: [VersionRecord]) -> [OSBand] {
        var minima: [String] = []
        // Most versions share a few minima spelled alike: those are passed over without comparing them as versions.
        var spelled = Set<String>(), last: String?
        for v in versions {
            guard let m = minimum(v, platform), m != last else { continue }
            last = m
            guard spelled.insert(m).inserted, !minima.contains(where: { OSVersion.same($0, m) }) else { continue }
            minima.append(m)
        }
        minima.sort { OSVersion.isBelow($0, $1) }
        guard let top = minima.last else { return [OSBand(from: nil, below: nil, os: nil)] }
        var out = [OSBand(from: top, below: nil, os: nil)]
        for i in stride(from: minima.count - 2, through: 0, by: -1) {
            out.append(OSBand(from: minima[i], below: minima[i + 1], os: minima[i]))
        }
        if let under = below(minima[0], android: platform.isAndroid) {
            out.append(OSBand(from: nil, below: minima[0], os: under))
        }
        return out
    }

    /// Whether any of `versions` can be installed in `band`: a band nobody
    /// can run the app in has no users to speak for.
    public static func populated(_ band: OSBand, _ platform: PlatformRecord, _ versions: [VersionRecord]) -> Bool {
        guard let os = band.os else { return !versions.isEmpty }
        return versions.contains { installable($0, on: os, platform) }
    }

    /// The OS values to ask at, both sides of every minimum the records hold:
    /// each minimum and just below it, and the newest OS (nil).
    public static func probes(_ platform: PlatformRecord, _ versions: [VersionRecord]) -> [String?] {
        var out: [String?] = [nil]
        func add(_ os: String?) {
            if let os, !out.contains(where: { $0.map { OSVersion.same($0, os) } ?? false }) { out.append(os) }
        }
        for band in of(platform, versions) {
            add(band.from)
            add(band.os)
            add(band.below.flatMap { below($0, android: platform.isAndroid) })
        }
        return out
    }

    /// The band a device on `os` is in.
    public static func band(of os: String, in bands: [OSBand]) -> OSBand {
        bands.first { b in b.from.map { !OSVersion.isBelow(os, $0) } ?? true } ?? bands.last!
    }

    /// Just below an OS version: on Android one less for an API level
    /// (24 → 23); else the last non-zero part one less and a large one after
    /// it (15.0 → 14.999999, 17 → 16.999999: iOS 16.5 is below 17); nil for 0.
    package static func below(_ os: String, android: Bool) -> String? {
        guard let v = try? Version(os) else { return nil }
        if android && v.components.count == 1 { return v.components[0] > 0 ? String(v.components[0] - 1) : nil }
        return Probes.below(v)?.text
    }

    /// How people name the OS of a platform.
    public static func osName(_ platform: String) -> String {
        // A switch, not a dictionary literal: the status page asks per version and band.
        switch platform {
        case "ios": return "iOS"
        case "ipados": return "iPadOS"
        case "macos": return "macOS"
        case "tvos": return "tvOS"
        case "watchos": return "watchOS"
        case "visionos": return "visionOS"
        case "android": return "Android API"
        default: return platform
        }
    }

    /// The top of a band in words: "16.x" below 17.0 (or 17), "25" below API 26,
    /// else "below 15.4"; with the major version it stays in, when it does.
    package static func justBelow(_ b: String, android: Bool) -> (words: String, major: Int?) {
        guard let v = try? Version(b), v.components[0] > 0 else { return ("below \(b)", nil) }
        let c = v.components
        if android && c.count == 1 { return (String(c[0] - 1), c[0] - 1) }
        return c.dropFirst().allSatisfy { $0 == 0 } ? ("\(c[0] - 1).x", c[0] - 1) : ("below \(b)", nil)
    }
}

/// Operating system versions as numbers between dots, missing ones as 0.
package enum OSVersion {
    package static func isBelow(_ a: String, _ b: String) -> Bool { plainIsBelow(a, b) ?? splittingIsBelow(a, b) }

    /// Equal as a client compares them ("15" and "15.0").
    package static func same(_ a: String, _ b: String) -> Bool { !isBelow(a, b) && !isBelow(b, a) }

    package static func splittingIsBelow(_ a: String, _ b: String) -> Bool {
        let x = a.split(separator: ".").map { Int($0) ?? 0 }, y = b.split(separator: ".").map { Int($0) ?? 0 }
        for i in 0..<max(x.count, y.count) {
            let p = i < x.count ? x[i] : 0, q = i < y.count ? y[i] : 0
            if p != q { return p < q }
        }
        return false
    }

    /// The same for versions of digits between dots, read from their bytes
    /// (every released version is compared when the bands are made); nil,
    /// for `splittingIsBelow`, on any other character, an empty part other
    /// than the last, or a part of over 18 digits.
    package static func plainIsBelow(_ a: String, _ b: String) -> Bool? {
        var a = a, b = b
        return a.withUTF8 { x in
            b.withUTF8 { y -> Bool? in
                var i = 0, j = 0
                while i < x.count || j < y.count {
                    guard let (m, afterM) = part(x, i), let (n, afterN) = part(y, j) else { return nil }
                    if m != n { return m < n }
                    (i, j) = (afterM, afterN)
                }
                return false
            }
        }
    }

    /// The number from `i` and where the next one starts; a missing one is 0.
    private static func part(_ bytes: UnsafeBufferPointer<UInt8>, _ i: Int) -> (Int, Int)? {
        guard i < bytes.count else { return (0, i) }
        var n = 0, k = i
        while k < bytes.count, bytes[k] != UInt8(ascii: ".") {
            guard bytes[k] >= 48, bytes[k] <= 57, k - i < 18 else { return nil }
            n = n * 10 + Int(bytes[k] - 48)
            k += 1
        }
        guard k > i else { return nil }
        return (n, k + 1)
    }
}
