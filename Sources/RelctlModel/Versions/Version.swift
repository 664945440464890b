/// A marketing version exactly as the app reports it. Ordering is by numeric
/// components with missing ones as zero, so "1.0" == "1.0.0" here; the text
/// is kept because several clients match it literally (docs/clients.md).
public struct Version: Comparable, Hashable, Sendable, CustomStringConvertible {
    public let text: String
    public let components: [Int]

    public var description: String { text }

    public init(_ text: String) throws {
        // Read from its bytes when well formed (every version row a publish reads); else checked
        // part by part below, for the error that names the problem.
        if let numbers = Version.plainComponents(text) {
            self.text = text
            self.components = numbers
            return
        }
        let help = "use 1 to 4 numbers separated by dots, exactly as the app reports it (like 2.1.0)"
        guard !text.isEmpty else { throw InputError("the version is empty", hint: help) }
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count <= 4 else {
            throw InputError("invalid version '\(text)': it has \(parts.count) components, at most 4 are allowed", hint: help)
        }
        var numbers: [Int] = []
        for part in parts {
            guard !part.isEmpty else {
                throw InputError("invalid version '\(text)': it has an empty component", hint: help)
            }
            guard part.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }) else {
                throw InputError("invalid version '\(text)': component '\(part)' is not a number", hint: help)
            }
            guard part.count <= 9, let n = Int(part) else {
                throw InputError("invalid version '\(text)': component '\(part)' is too large", hint: help)
            }
            numbers.append(n)
        }
        self.text = text
        self.components = numbers
    }

    /// 1 to 4 dot-separated runs of 1 to 9 ASCII digits, as numbers; nil for anything else.
    package static func plainComponents(_ text: String) -> [Int]? {
        var numbers: [Int] = []
        numbers.reserveCapacity(4)
        var n = 0, digits = 0
        for b in text.utf8 {
            if b == UInt8(ascii: ".") {
                guard digits > 0, numbers.count < 3 else { return nil }
                numbers.append(n)
                n = 0
                digits = 0
                continue
            }
            guard b >= UInt8(ascii: "0"), b <= UInt8(ascii: "9"), digits < 9 else { return nil }
            n = n * 10 + Int(b - UInt8(ascii: "0"))
            digits += 1
        }
        guard digits > 0 else { return nil }
        numbers.append(n)
        return numbers
    }

    /// Components with trailing zeros removed: equal keys mean equal versions.
    public var key: [Int] {
        var c = components
        while c.count > 1, c.last == 0 { c.removeLast() }
        return c
    }

    /// The same as comparing keys, without building them: versions are
    /// compared all through a publish (sorting, the evaluator, Fidelity).
    public static func == (a: Version, b: Version) -> Bool { a.firstDifference(from: b) == nil }
    public func hash(into h: inout Hasher) { h.combine(key) }

    public static func < (a: Version, b: Version) -> Bool {
        for i in 0..<max(a.components.count, b.components.count) {
            let x = i < a.components.count ? a.components[i] : 0
            let y = i < b.components.count ? b.components[i] : 0
            if x != y { return x < y }
        }
        return false
    }

    /// The components as two numbers, compared as `<` and `==` compare
    /// versions (missing components are 0): each is at most nine digits,
    /// below 2^30, and there are at most four. Sorting by it spares two
    /// array walks per comparison (every read of a platform's versions sorts them).
    package var sortKey: (UInt64, UInt64) {
        func at(_ i: Int) -> UInt64 { i < components.count ? UInt64(components[i]) : 0 }
        return (at(0) << 32 | at(1), at(2) << 32 | at(3))
    }

    /// Index of the first differing component (0 major, 1 minor, 2 patch, 3 revision), nil when equal.
    public func firstDifference(from other: Version) -> Int? {
        for i in 0..<max(components.count, other.components.count) {
            let x = i < components.count ? components[i] : 0
            let y = i < other.components.count ? other.components[i] : 0
            if x != y { return i }
        }
        return nil
    }
}
