/// A client of relctl's own control.json (schema/control.schema.json): the
/// verdict per version as published, and maintenance first.
public struct ControlClient: Sendable {
    let platforms: [String: [Key: String]]
    /// Per platform and version key, the answers on older OS (`byOs`).
    let byOS: [String: [Key: [Band]]]
    let maintenance: [String?]
    /// Per platform and version key, what an install in the rollout sees where it differs (`rollout`).
    let inRollout: [String: [Key: (update: String, byOS: [Band])]]

    /// A version entry's version and build: what an install is looked up by. Made of the
    /// values, not spelled into one text (a proof asks it of every install on every OS band).
    struct Key: Hashable {
        let version: String
        let build: Int64?
    }

    /// A platform's answers, as one of its version lists gives them.
    private struct Answers {
        var updates: [Key: String] = [:]
        var byOS: [Key: [Band]] = [:]
        var inRollout: [Key: (update: String, byOS: [Band])] = [:]
    }
    typealias Band = (from: String?, below: String, update: String)

    /// The whole document is checked first, as a decoder reads it; then only
    /// the members this client uses are made into values, in one walk over
    /// the platforms (a version list holds hundreds of objects whose other
    /// members it never reads). Where a name is repeated, the last counts, as
    /// in a decoder's dictionary. Of several platforms refused, the one named
    /// is the first, in the order names first come, whose last entry a decoder
    /// refuses: the same on every run, as a dictionary's order was not.
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
        func bands(_ range: Range<Int>, _ path: @autoclosure () -> String) throws(ClientFailure) -> [Band] {
            var out: [Band] = []
            let listEnd = try JSONReader.eachObject(bytes, at: range, of: ControlClient.bandMembers) { (band: [Range<Int>?]?) throws(ClientFailure) in
                guard let band else { throw .crash("byOs[] is not an object") }
                // A value of an accepted document that starts with n is null.
                let from: String?
                if let r = band[0], bytes[r.lowerBound] == UInt8(ascii: "n") { from = nil } else { from = try ClientJSON.string(bytes, band[0], "byOs[].from") }
                out.append((from, try ClientJSON.string(bytes, band[1], "byOs[].below"), try ClientJSON.string(bytes, band[2], "byOs[].update")))
            }
            guard listEnd != nil else { throw .crash("\(path()) is not an array") }
            return out
        }
        // One platform's version list, from where it starts: its answers, or why a decoder refuses
        // it; and where the list ends.
        func versions(_ name: String, at start: Int) -> (Result<Answers, ClientFailure>, end: Int) {
            var end: Int? = nil
            let answers = Result { () throws(ClientFailure) -> Answers in
                var a = Answers()
                // Gathered in order, then made a table of their own number: a table grown entry by
                // entry is rehashed at each doubling, and one sized from the bytes can be far too large.
                var updates: [(Key, String)] = []
                end = try JSONReader.eachObject(bytes, at: start..<bytes.count, of: ControlClient.versionMembers) { (o: [Range<Int>?]?) throws(ClientFailure) in
                    guard let o else { throw .crash("platforms.\(name).versions[] is not an object") }
                    let text = try ClientJSON.string(bytes, o[0], "version")
                    // Only an integer is a build (a JSON value of any other kind is none).
                    let key = Key(version: text, build: o[1].flatMap { JSONReader.integer(bytes, $0) })
                    updates.append((key, try ClientJSON.string(bytes, o[2], "update")))
                    if let r = o[3] {
                        guard let alt = JSONReader.values(bytes, at: r, of: ControlClient.rolloutMembers) else {
                            throw .crash("platforms.\(name).versions[].rollout is not an object")
                        }
                        a.inRollout[key] = (try ClientJSON.string(bytes, alt[0], "rollout.update"),
                                            try alt[1].map { (b: Range<Int>) throws(ClientFailure) in try bands(b, "platforms.\(name).versions[].rollout.byOs") } ?? [])
                    }
                    if let list = o[4] { a.byOS[key] = try bands(list, "platforms.\(name).versions[].byOs") }
                }
                guard end != nil else { throw .crash("platforms.\(name).versions is not an array") }
                a.updates.reserveCapacity(updates.count)
                for (key, update) in updates { a.updates[key] = update }
                return a
            }
            // Refused part of the way: gone over again to its end.
            if end == nil { var i = start; JSONReader.skipChecked(bytes, &i); end = i }
            return (answers, end!)
        }
        // Each platform's answers by name, the last entry of a name kept, in the order names first come.
        var names: [String] = []
        var read: [String: Result<Answers, ClientFailure>] = [:]
        let platformsEnd = top["platforms"].flatMap { range in
            JSONReader.walk(bytes, at: range) { raw, _, start in
                var i = raw.lowerBound - 1
                // An accepted document's names all decode.
                guard let decoded = try? JSONReader.parseString(bytes, &i) else { return nil }
                // A name spelled twice (two Unicode forms of one text) is said as first spelled, as a dictionary keeps its first key.
                let name = read.index(forKey: decoded).map { read[$0].key } ?? decoded
                var found: Result<Answers, ClientFailure>? = nil
                let end = JSONReader.walk(bytes, at: start..<bytes.count) { member, plain, at in
                    guard ControlClient.versionsName.matches(bytes, member, plain: plain) else { return nil }
                    // Each list of the entry is read, and only its last counts.
                    let (answers, end) = versions(name, at: at)
                    found = answers
                    return end
                }
                if read.updateValue(end == nil ? .failure(.crash("platforms.\(name) is not an object"))
                                    : found ?? .failure(.crash("platforms.\(name).versions is not an array")), forKey: name) == nil {
                    names.append(name)
                }
                return end
            }
        }
        guard platformsEnd != nil else { throw .crash("platforms is not an object") }
        var byPlatform: [String: [Key: String]] = [:]
        var byOS: [String: [Key: [Band]]] = [:]
        var inRollout: [String: [Key: (update: String, byOS: [Band])]] = [:]
        for name in names {
            let a = try read[name]!.get()
            byPlatform[name] = a.updates
            if !a.byOS.isEmpty { byOS[name] = a.byOS }
            if !a.inRollout.isEmpty { inRollout[name] = a.inRollout }
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

    static let versionsName = JSONReader.Name("versions")
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
