/// A version with the build that distinguishes equal marketing versions.
public struct Release: Sendable {
    public let version: Version
    public let build: Int64?

    public init(_ version: Version, build: Int64?) { self.version = version; self.build = build }

    /// Ordering of docs/design.md: components, then build when both sides have one.
    public static func isBelow(_ a: Release, _ b: Release) -> Bool {
        if a.version != b.version { return a.version < b.version }
        if let x = a.build, let y = b.build { return x < y }
        return false
    }
}

public func parseBuild(_ text: String) throws -> Int64 {
    guard let n = Int64(text), n >= 0, n <= 2_100_000_000, text.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }) else {
        throw InputError("invalid build number '\(text)'", hint: "use a whole number from 0 to 2100000000 (Android's versionCode limit)")
    }
    return n
}
