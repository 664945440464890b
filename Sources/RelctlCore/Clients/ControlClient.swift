/// A client of relctl's own control.json (schema/control.schema.json): the
/// verdict per version as published, and maintenance first.
public struct ControlClient: Sendable {
    let platforms: [String: [Key: String]]
    /// Per platform and version key, the answers on older OS (`byOs`).
    let byOS: [String: [Key: [(from: String?, below: String, update: String)]]]
    let maintenance: [String?]
    /// Per platform and version key, what an install in the rollout sees where it differs (`rollout`).
    let inRollout: [String: [Key: (update: String, byOS: [(from: String?, below: String, update: String)])]]

    /// A version entry's version and build: what an install is looked up by. Made of the
    /// values, not spelled into one text (a proof asks it of every install on every OS band).
    struct Key: Hashable {
        let version: String
        let build: Int64?
    }

    /// The whole document is checked first, as a decoder reads it; then
    /// only the members this client uses are made into values (a version
    /// list holds hundreds of objects whose other members it never reads).
    public init(_ bytes: [UInt8]) throws(ClientFailure) {
        // RelctlClient refuses a larger document unread, and keeps its last one.
        guard bytes.count <= ControlDocument.maximumBytes else {
            throw .ignored("it is \(bytes.count) bytes, more than the \(ControlDocument.maximumBytes >> 20) MiB RelctlClient reads")
        }
        let top: [String: Range<Int>]
        do { top = try JSONReader.members(bytes) } catch {
            _ = try ClientJSON.parse(bytes)
            throw .crash("the file is not an object")
        }
        func value(_ range: Range<Int>?) -> JSON? { range.flatMap { JSONReader.value(bytes, at: $0) } }
        guard let platforms = top["platforms"].flatMap({ JSONReader.object(bytes, at: $0) })?.byName else { throw .crash("platforms is not an object") }
        var byPlatform: [String: [Key: String]] = [:]
        var byOS: [String: [Key: [(from: String?, below: String, update: String)]]] = [:]
        var inRollout: [String: [Key: (update: String, byOS: [(from: String?, below: String, update: String)])]] = [:]
        // An entry's members are found by name and only their values read: no JSON value is made of an entry.
        func bands(_ range: Range<Int>, _ path: @autoclosure () -> String) throws(ClientFailure) -> [(from: String?, below: String, update: String)] {
            guard let list = JSONReader.elements(bytes, at: range) else { throw .crash("\(path()) is not an array") }
            return try list.map { (e: Range<Int>) throws(ClientFailure) in
                guard let band = JSONReader.values(bytes, at: e, of: ControlClient.bandMembers) else { throw .crash("byOs[] is not an object") }
                // A value of an accepted document that starts with n is null.
                let from: String?
                if let r = band[0], bytes[r.lowerBound] == UInt8(ascii: "n") { from = nil } else { from = try ClientJSON.string(bytes, band[0], "byOs[].from") }
                return (from, try ClientJSON.string(bytes, band[1], "byOs[].below"), try ClientJSON.string(bytes, band[2], "byOs[].update"))
            }
        }
        for (name, range) in platforms {
            guard let p = JSONReader.object(bytes, at: range) else { throw .crash("platforms.\(name) is not an object") }
            guard let versions = p.last("versions").flatMap({ JSONReader.elements(bytes, at: $0) }) else { throw .crash("platforms.\(name).versions is not an array") }
            var updates: [Key: String] = [:]
            for v in versions {
                guard let o = JSONReader.values(bytes, at: v, of: ControlClient.versionMembers) else { throw .crash("platforms.\(name).versions[] is not an object") }
                let text = try ClientJSON.string(bytes, o[0], "version")
                // Only an integer is a build (a JSON value of any other kind is none).
                let key = Key(version: text, build: o[1].flatMap { JSONReader.integer(bytes, $0) })
                updates[key] = try ClientJSON.string(bytes, o[2], "update")
                if let r = o[3] {
                    guard let alt = JSONReader.values(bytes, at: r, of: ControlClient.rolloutMembers) else {
                        throw .crash("platforms.\(name).versions[].rollout is not an object")
                    }
                    inRollout[name, default: [:]][key] = (try ClientJSON.string(bytes, alt[0], "rollout.update"),
                                                          try alt[1].map { (b: Range<Int>) throws(ClientFailure) in try bands(b, "platforms.\(name).versions[].rollout.byOs") } ?? [])
                }
                guard let list = o[4] else { continue }
                byOS[name, default: [:]][key] = try bands(list, "platforms.\(name).versions[].byOs")
            }
            byPlatform[name] = updates
        }
        self.platforms = byPlatform
        self.byOS = byOS
        self.inRollout = inRollout
        let m = try ClientJSON.object(value(top["maintenance"]), "maintenance")
        guard case .array(let active)? = m["active"] else { throw .crash("maintenance.active is not an array") }
        maintenance = try active.map { (w: JSON) throws(ClientFailure) -> String? in
            let o = try ClientJSON.object(w, "maintenance.active[]")
            if case .string(let p)? = o["platform"] { return p }
            return nil
        }
    }

    /// The members of a version entry, of its rollout and of a band that this client reads, in the order their values are used.
    static let versionMembers = ["version", "build", "update", "rollout", "byOs"].map(JSONReader.Name.init)
    static let rolloutMembers = ["update", "byOs"].map(JSONReader.Name.init)
    static let bandMembers = ["from", "below", "update"].map(JSONReader.Name.init)

    /// What the document says of installs it does not list: its platforms,
    /// releases, floors with their deadlines, pins, rules and windows, read
    /// as a project, for the one evaluator to decide, as an app embedding
    /// relctl's client does. Nil when the document cannot be read so.
    public static func decoded(_ bytes: [UInt8]) -> ProjectSnapshot? {
        guard let file = try? ControlImport.read(bytes, texts: false) else { return nil }
        var snapshot = file.bare
        for platform in snapshot.platforms {
            guard let pins = file.pins[platform.name], !pins.isEmpty, var list = snapshot.versions[platform.id] else { continue }
            let policies = Dictionary(pins, uniquingKeysWith: { _, last in last })
            for i in list.indices { if let p = policies[list[i].version.text] { list[i].policy = VersionRecord.Pin(rawValue: p) } }
            snapshot.versions[platform.id] = list
        }
        return snapshot
    }

    /// `os`: the device's OS (nil: the newest, which the top-level answer is for).
    /// `inRollout`: the install is in the platform's rollout (its answer is the version's `rollout` one where it has one).
    public func decide(platform: String, version: String, build: Int64?, os: String? = nil, inRollout staged: Bool = false) -> ClientDecision {
        if maintenance.contains(where: { $0 == nil || $0 == platform }) { return .maintenance }
        let key = Key(version: version, build: build)
        let alt = staged ? inRollout[platform]?[key] : nil
        let band = os.flatMap { os in
            (alt?.byOS ?? byOS[platform]?[key])?.first { b in (b.from.map { !OSVersion.isBelow(os, $0) } ?? true) && OSVersion.isBelow(os, b.below) }
        }
        switch band?.update ?? alt?.update ?? platforms[platform]?[key] {
        case "required": return .required
        case "optional": return .optional
        case "none": return .none
        case "maintenance": return .maintenance
        case nil: return .ignored("\(platform) \(version) is not listed")
        case let other?: return .ignored("update '\(other)' is not a known value")
        }
    }
}
