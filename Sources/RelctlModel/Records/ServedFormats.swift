/// A format a project's apps read. A team that ships only control.json
/// and Siren need not see Retired, AndVersion or Prince of Versions files
/// written, proven and warned about on every publish.
public enum ServedFormat: String, CaseIterable, Sendable {
    /// relctl's own control document (the client library, RelctlClient).
    case control
    /// Retired versions files.
    case retired
    /// AndVersion manifests.
    case andversion
    /// Siren's rules and the App Store lookup-shaped files it reads.
    case siren
    /// Prince of Versions configuration.
    case princeOfVersions = "prince-of-versions"
    /// upgrader's appcast.
    case appcast
    /// The what's-new lists.
    case whatsnew
}

/// The formats a project serves (`project add/edit --formats`): publish
/// writes, proves and warns about only these. Every one by default.
public struct ServedFormats: Sendable, Equatable {
    public private(set) var formats: Set<ServedFormat>

    public init(_ formats: Set<ServedFormat>) { self.formats = formats }

    public static let all = ServedFormats(Set(ServedFormat.allCases))

    public var isAll: Bool { formats.count == ServedFormat.allCases.count }

    public func serves(_ format: ServedFormat) -> Bool { formats.contains(format) }

    /// The names, in the order formats are listed (`ServedFormat.allCases`).
    public var names: [String] { ServedFormat.allCases.filter(formats.contains).map(\.rawValue) }

    /// As the database stores it: "" for every format, else the names joined by commas.
    public var stored: String { isAll ? "" : names.joined(separator: ",") }

    /// From the database or a file: "" (or "all") for every format, else
    /// names joined by commas; nil when a name is unknown, repeated, or none is given.
    public init?(stored text: String) {
        if text.isEmpty || text == "all" { self = .all; return }
        var set = Set<ServedFormat>()
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            guard let f = ServedFormat(rawValue: String(part)), set.insert(f).inserted else { return nil }
        }
        self.init(set)
    }

    /// What --formats takes, for help and errors.
    /// (Joined by hand: every command builds the command tree, whose help holds this, and
    /// a generic `joined` cost 100,000 instructions the first time it ran.)
    public static let accepted: String = {
        var names = ""
        for format in ServedFormat.allCases { names += (names.isEmpty ? "" : ", ") + format.rawValue }
        return "all, or some of " + names + ", joined by commas"
    }()
}
