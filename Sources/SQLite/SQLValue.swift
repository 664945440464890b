/// A value bound to or read from a statement: relctl stores integers and text only.
public enum SQLValue: Equatable, Sendable {
    case null
    case int(Int64)
    case text(String)

    public init(_ s: String?) { self = s.map { .text($0) } ?? .null }
    public init(_ i: Int64?) { self = i.map { .int($0) } ?? .null }

    public var intValue: Int64? { if case .int(let n) = self { return n }; return nil }
    public var stringValue: String? { if case .text(let s) = self { return s }; return nil }
}
