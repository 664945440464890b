/// Prince of Versions (infinum) reading prince-of-versions.json, as
/// docs/clients.md describes it. iOS/macOS: versions are strings, "2.1.0-150" is
/// 2.1.0 build 150, missing components are 0 and a fourth is dropped; the
/// app is its marketing version plus build. Android: versions are JSON
/// integers (versionCodes), the OS requirement an SDK level. The first
/// configuration whose requirements all pass decides. A file or
/// configuration the library cannot read is an error it hands to the app,
/// which then shows nothing (ignored), not a crash.
public struct PrinceOfVersionsClient: Sendable {
    struct Configuration: Sendable {
        var required: Value?
        var last: Value?
        /// nil: no OS requirement.
        var minOS: Value?
        /// A custom requirement key with no checker registered: never passes.
        var unknownRequirement: String?
    }

    enum Value: Sendable, Equatable {
        case apple([Int], build: Int64)
        case code(Int64)
    }

    let configurations: [Configuration]
    let android: Bool

    /// `platform`: ios, macos or android. `checkers`: the custom requirement
    /// keys the app registered a checker for (they pass).
    public init(_ bytes: [UInt8], platform: String, checkers: Set<String> = []) throws(ClientFailure) {
        android = platform == "android"
        guard case .object(let top)? = try? JSONReader.parse(bytes) else { throw .ignored("invalid JSON, or not an object") }
        let list: [JSON]
        if android {
            switch top["android2"] ?? top["android"] {
            case .array(let a)?: list = a
            case .object(let o)?: list = [.object(o)]
            default: throw .ignored("no android2 configuration")
            }
        } else {
            if case .array(let a)? = top[platform] { list = a }
            else if case .array(let a)? = top["\(platform)2"] { list = a }
            else { throw .ignored("no \(platform)2 list") }
        }
        let android = self.android
        var configurations: [Configuration] = []
        for (i, item) in list.enumerated() {
            guard case .object(let c) = item else { throw .ignored("configuration \(i) is not an object") }
            func value(_ key: String) throws(ClientFailure) -> Value? {
                guard let v = c[key], v != .null else { return nil }
                if android {
                    guard case .int(let n) = v else { throw .ignored("\(key) of configuration \(i) is not an integer") }
                    return .code(n)
                }
                guard case .string(let s) = v, let parsed = PrinceOfVersionsClient.parse(s) else {
                    throw .ignored("\(key) of configuration \(i) is not a version string")
                }
                return parsed
            }
            var config = Configuration(required: try value("required_version"), last: try value("last_version_available"))
            guard config.required != nil || config.last != nil else { throw .ignored("configuration \(i) has no version") }
            if let f = c["notify_last_version_frequency"] {
                guard f == .string("ALWAYS") || f == .string("ONCE") else { throw .ignored("notify_last_version_frequency of configuration \(i) is not ALWAYS or ONCE") }
            }
            if let r = c["requirements"] {
                guard case .object(let reqs) = r else { throw .ignored("requirements of configuration \(i) is not an object") }
                for (key, v) in reqs.sorted(by: { $0.key < $1.key }) {
                    if key == "required_os_version" {
                        switch v {
                        case .int(let n) where android: config.minOS = .code(n)
                        case .string(let s) where !android: config.minOS = PrinceOfVersionsClient.parse(s)
                        default: break
                        }
                        // An OS requirement it cannot read never passes.
                        if config.minOS == nil { config.unknownRequirement = key }
                    } else if !checkers.contains(key) {
                        config.unknownRequirement = key
                    }
                }
            }
            configurations.append(config)
        }
        guard !configurations.isEmpty else { throw .ignored("the configuration list is empty") }
        self.configurations = configurations
    }

    /// "2.1.0-150": up to three numbers (a fourth is dropped, a missing one
    /// is 0), then the build after the dash.
    static func parse(_ s: String) -> Value? { parsePlain(s) ?? parseSplitting(s) }

    static func parseSplitting(_ s: String) -> Value? {
        let parts = s.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        var numbers: [Int] = []
        for c in parts[0].split(separator: ".", omittingEmptySubsequences: false) {
            guard let n = Int(c), n >= 0 else { return nil }
            numbers.append(n)
        }
        numbers = Array((numbers + [0, 0, 0]).prefix(3))
        var build: Int64 = 0
        if parts.count == 2 { guard let b = Int64(parts[1]), b >= 0 else { return nil }; build = b }
        return .apple(numbers, build: build)
    }

    /// The same for the common spelling, digits between dots and after one
    /// dash, read from its bytes without splitting (every recorded version
    /// is read once per check); nil for anything else, left to `parse`.
    static func parsePlain(_ s: String) -> Value? {
        var s = s
        return s.withUTF8 { bytes -> Value? in
            var numbers: [Int] = []
            numbers.reserveCapacity(4)
            var n = 0, digits = 0, i = 0
            while i < bytes.count {
                let c = bytes[i]
                if c >= 48 && c <= 57 {
                    // 18 digits always fit: longer numbers go the general way.
                    guard digits < 18 else { return nil }
                    n = n * 10 + Int(c - 48); digits += 1
                } else if c == UInt8(ascii: ".") || c == UInt8(ascii: "-") {
                    guard digits > 0 else { return nil }
                    numbers.append(n); n = 0; digits = 0
                    if c == UInt8(ascii: "-") { break }
                } else {
                    return nil
                }
                i += 1
            }
            var build: Int64 = 0
            if i < bytes.count {
                // After the dash: digits only.
                var b: Int64 = 0, count = 0
                for c in bytes[(i + 1)...] {
                    guard c >= 48 && c <= 57, count < 18 else { return nil }
                    b = b * 10 + Int64(c - 48); count += 1
                }
                guard count > 0 else { return nil }
                build = b
            } else {
                guard digits > 0 else { return nil }
                numbers.append(n)
            }
            while numbers.count < 3 { numbers.append(0) }
            if numbers.count > 3 { numbers.removeLast(numbers.count - 3) }
            return .apple(numbers, build: build)
        }
    }

    /// What a device on an OS newer than any requirement reports.
    static let newestOS = parse("999")!

    static func isBelow(_ a: Value, _ b: Value) -> Bool {
        switch (a, b) {
        case (.code(let x), .code(let y)): return x < y
        case (.apple(let x, let p), .apple(let y, let q)):
            for (m, n) in zip(x, y) where m != n { return m < n }
            return p < q
        default: return false
        }
    }

    /// The configuration a device on `os` uses: the first whose requirements pass.
    func configuration(os: Value) -> Configuration? {
        configurations.first { c in
            c.unknownRequirement == nil && (c.minOS.map { !PrinceOfVersionsClient.isBelow(os, $0) } ?? true)
        }
    }

    /// iOS and macOS: the app's marketing version and build (CFBundleVersion;
    /// nil reads as 0) on OS `os`.
    public func decide(_ installed: String, build: Int64?, os: String = "999") -> ClientDecision {
        guard case .apple(let numbers, _)? = PrinceOfVersionsClient.parse(installed),
              let device = os == "999" ? PrinceOfVersionsClient.newestOS : PrinceOfVersionsClient.parse(os) else {
            return .ignored("the installed version \(installed) does not parse")
        }
        return decide(.apple(numbers, build: build ?? 0), os: device)
    }

    /// Android: the app's versionCode on SDK level `sdk`.
    public func decide(versionCode: Int64, sdk: Int64 = 999) -> ClientDecision { decide(.code(versionCode), os: .code(sdk)) }

    func decide(_ installed: Value, os: Value) -> ClientDecision {
        guard let c = configuration(os: os) else { return .ignored("no configuration's requirements pass") }
        if let r = c.required, PrinceOfVersionsClient.isBelow(installed, r) { return .required }
        if let l = c.last, PrinceOfVersionsClient.isBelow(installed, l) { return .optional }
        return .none
    }

    /// The newest version offered to a device on `os`, as written.
    func lastAvailable(os: Value) -> Value? { configuration(os: os)?.last }
}
