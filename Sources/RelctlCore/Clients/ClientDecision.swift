/// What a client library does with the file it read, for one installed
/// version: the simulations in this folder are written from
/// docs/clients.md alone, not from relctl's evaluator, so that a bug in
/// one cannot hide a bug in the other.
public enum ClientDecision: Equatable, Sendable {
    case required, optional, none
    case maintenance
    /// The app crashes on this file (a rule of docs/clients.md broken).
    case crash(String)
    /// The library ignores the file and does nothing, for a reason.
    case ignored(String)

    public var word: String {
        switch self {
        case .required: return "required"
        case .optional: return "optional"
        case .none: return "none"
        case .maintenance: return "maintenance"
        case .crash(let why): return "crash (\(why))"
        case .ignored(let why): return "nothing (\(why))"
        }
    }
}

/// The client families relctl publishes for.
public enum Client: String, CaseIterable, Sendable {
    case retired = "Retired"
    case andVersionIOS = "AndVersion iOS"
    case andVersionAndroid = "AndVersion Android"
    case siren = "Siren"
    case princeOfVersions = "Prince of Versions"
    case upgrader = "upgrader"
    case control = "control.json"
}

extension Client {
    /// The format whose files the client reads.
    public var format: ServedFormat {
        switch self {
        case .retired: return .retired
        case .andVersionIOS, .andVersionAndroid: return .andversion
        case .siren: return .siren
        case .princeOfVersions: return .princeOfVersions
        case .upgrader: return .appcast
        case .control: return .control
        }
    }
}

/// A file a client cannot read the way it expects: the app crashes, or the
/// library silently does nothing.
public enum ClientFailure: Error, Equatable, Sendable {
    case crash(String)
    case ignored(String)

    public var decision: ClientDecision {
        switch self {
        case .crash(let why): return .crash(why)
        case .ignored(let why): return .ignored(why)
        }
    }
}

/// Reading JSON the way Swift's and Java's decoders do: a missing key or a
/// wrong type is a failure of the whole file.
enum ClientJSON {
    static func parse(_ bytes: [UInt8]) throws(ClientFailure) -> JSON {
        do { return try JSONReader.parse(bytes) } catch { throw .crash("invalid JSON") }
    }

    // `what` is worked out only for the message: a list's entries are read by the thousand.
    static func object(_ value: JSON?, _ what: @autoclosure () -> String) throws(ClientFailure) -> [String: JSON] {
        guard case .object(let o)? = value else { throw .crash("\(what()) is not an object") }
        return o
    }

    static func string(_ value: JSON?, _ what: @autoclosure () -> String) throws(ClientFailure) -> String {
        guard case .string(let s)? = value else { throw .crash("\(what()) is \(value == nil ? "missing" : "not a string")") }
        return s
    }

    /// The same of a member's value by its range in an accepted document (nil: absent): a string is read
    /// without a JSON value made first (a version list has thousands), anything else fails as above.
    static func string(_ bytes: [UInt8], _ range: Range<Int>?, _ what: @autoclosure () -> String) throws(ClientFailure) -> String {
        if let r = range, bytes[r.lowerBound] == UInt8(ascii: "\"") {
            var i = r.lowerBound
            if let s = try? JSONReader.parseString(bytes, &i) { return s }
        }
        return try string(range.flatMap { JSONReader.value(bytes, at: $0) }, what())
    }
}
