/// A client of relctl's own control.json (schema/control.schema.json): the
/// verdict per version as published, and maintenance first.
public struct ControlClient: Sendable {
    let platforms: [String: [String: String]]
    let maintenance: [String?]

    public init(_ bytes: [UInt8]) throws(ClientFailure) {
        let top = try ClientJSON.object(try ClientJSON.parse(bytes), "the file")
        let platforms = try ClientJSON.object(top["platforms"], "platforms")
        var byPlatform: [String: [String: String]] = [:]
        for (name, value) in platforms {
            let p = try ClientJSON.object(value, "platforms.\(name)")
            guard case .array(let versions)? = p["versions"] else { throw .crash("platforms.\(name).versions is not an array") }
            var updates: [String: String] = [:]
            for v in versions {
                let o = try ClientJSON.object(v, "platforms.\(name).versions[]")
                let text = try ClientJSON.string(o["version"], "version")
                let build = o["build"].flatMap { if case .int(let n) = $0 { return String(n) } else { return nil } }
                updates[ControlClient.key(text, build)] = try ClientJSON.string(o["update"], "update")
            }
            byPlatform[name] = updates
        }
        self.platforms = byPlatform
        let m = try ClientJSON.object(top["maintenance"], "maintenance")
        guard case .array(let active)? = m["active"] else { throw .crash("maintenance.active is not an array") }
        maintenance = try active.map { (w: JSON) throws(ClientFailure) -> String? in
            let o = try ClientJSON.object(w, "maintenance.active[]")
            if case .string(let p)? = o["platform"] { return p }
            return nil
        }
    }

    static func key(_ version: String, _ build: String?) -> String { build.map { "\(version)+\($0)" } ?? version }

    public func decide(platform: String, version: String, build: Int64?) -> ClientDecision {
        if maintenance.contains(where: { $0 == nil || $0 == platform }) { return .maintenance }
        switch platforms[platform]?[ControlClient.key(version, build.map(String.init))] {
        case "required": return .required
        case "optional": return .optional
        case "none": return .none
        case "maintenance": return .maintenance
        case nil: return .ignored("\(platform) \(version) is not listed")
        case let other?: return .ignored("update '\(other)' is not a known value")
        }
    }
}
