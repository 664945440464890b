/// A value of the control document with the path that names it in errors.
package struct Node {
    package var json: JSON
    /// The value's path, or the path of the array it is element `index` of:
    /// an element's path is spelled only for an error (control.json's
    /// version list, read as a project by verify, has hundreds of them).
    private let base: String, index: Int?
    package var path: String { index.map { "\(base)[\($0)]" } ?? base }

    package init(_ json: JSON, _ path: String) { self.json = json; base = path; index = nil }
    private init(_ json: JSON, element index: Int, of array: String) { self.json = json; base = array; self.index = index }

    package func name(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    package func member(_ key: String) -> Node? {
        guard case .object(let o) = json, let v = o[key] else { return nil }
        return Node(v, name(key))
    }

    package func required(_ key: String) throws(ImportProblem) -> Node {
        Node(try value(key), name(key))
    }

    /// A member's value, as `required` finds it, without a node: most reads
    /// are of a leaf, whose path is spelled only for its error (a fleet's
    /// file has a version entry's half-dozen leaves 40,000 times over).
    private func value(_ key: String) throws(ImportProblem) -> JSON {
        guard case .object(let o) = json, let v = o[key] else { throw ImportProblem("\(name(key)) is missing") }
        return v
    }

    package func object(_ key: String) throws(ImportProblem) -> Node {
        let n = try required(key)
        guard case .object = n.json else { throw ImportProblem("\(n.path) must be an object") }
        return n
    }

    package func members() -> [(String, Node)] {
        guard case .object(let o) = json else { return [] }
        return o.keys.sorted().map { ($0, Node(o[$0]!, name($0))) }
    }

    package func array(_ key: String) throws(ImportProblem) -> [Node] {
        let n = try required(key)
        guard case .array(let items) = n.json else { throw ImportProblem("\(n.path) must be an array") }
        let path = n.path
        return items.enumerated().map { Node($1, element: $0, of: path) }
    }

    package func string(_ key: String) throws(ImportProblem) -> String {
        guard case .string(let s) = try value(key) else { throw ImportProblem("\(name(key)) must be a string") }
        return s
    }

    /// A string checked by one of relctl's own input checks.
    package func checked(_ key: String, _ check: (String) throws -> String) throws(ImportProblem) -> String {
        let s = try string(key)
        do { return try check(s) } catch { throw ImportProblem("\(name(key)): \(Node.reason(error))") }
    }

    /// null or a string checked like input.
    package func optional(_ key: String, _ check: (String) throws -> String) throws(ImportProblem) -> String? {
        if case .null = try value(key) { return nil }
        return try checked(key, check)
    }

    package func oneOf(_ key: String, _ allowed: [String]) throws(ImportProblem) -> String {
        let s = try string(key)
        guard allowed.contains(s) else { throw ImportProblem("\(name(key)): '\(s)' is not one of \(allowed.joined(separator: ", "))") }
        return s
    }

    /// One of an enum's words.
    package func oneOf<E: RawRepresentable & CaseIterable>(_ key: String, _: E.Type) throws(ImportProblem) -> E where E.RawValue == String {
        let s = try string(key)
        guard let value = E(rawValue: s) else { throw ImportProblem("\(name(key)): '\(s)' is not one of \(E.allCases.map(\.rawValue).joined(separator: ", "))") }
        return value
    }

    /// A list of locale tags, each once.
    package func locales(_ key: String) throws(ImportProblem) -> [String] {
        var tags: [String] = []
        for node in try array(key) {
            let tag = try node.locale(nil)
            guard !tags.contains(tag) else { throw ImportProblem("\(node.path): '\(tag)' is listed twice") }
            tags.append(tag)
        }
        return tags
    }

    package func locale(_ key: String?) throws(ImportProblem) -> String {
        guard let key else {
            guard case .string(let s) = json else { throw ImportProblem("\(path) must be a locale string") }
            return try Node.normalizedLocale(s, path)
        }
        return try Node.normalizedLocale(try string(key), name(key))
    }

    /// Locales are stored as relctl spells them; another spelling would publish other file names.
    package static func normalizedLocale(_ s: String, _ path: @autoclosure () -> String) throws(ImportProblem) -> String {
        guard let tag = try? LocaleTag.normalize(s), tag == s else { throw ImportProblem("\(path()): '\(s)' is not a locale tag in its normal spelling (like en, pt-BR)") }
        return tag
    }

    package func version(_ key: String) throws(ImportProblem) -> Version {
        let s = try string(key)
        do { return try Version(s) } catch { throw ImportProblem("\(name(key)): \(Node.reason(error))") }
    }

    package func build(_ key: String) throws(ImportProblem) -> Int64? {
        switch try value(key) {
        case .null: return nil
        case .int(let b):
            do { return try parseBuild(String(b)) } catch { throw ImportProblem("\(name(key)): \(Node.reason(error))") }
        default: throw ImportProblem("\(name(key)) must be a whole number or null")
        }
    }

    package func count(_ key: String, max: Int64) throws(ImportProblem) -> Int64 {
        guard case .int(let v) = try value(key), v >= 0, v <= max else { throw ImportProblem("\(name(key)) must be a whole number from 0 to \(max)") }
        return v
    }

    package func time(_ key: String) throws(ImportProblem) -> Int64? {
        let v = try value(key)
        if case .null = v { return nil }
        guard case .string(let s) = v, let t = Time.parseUTC(s), Time.isInRange(t) else {
            throw ImportProblem("\(name(key)) must be a UTC time between the years 0001 and 9999, like \"2026-12-01T02:00:00Z\", or null")
        }
        return t
    }

    package func floor(_ key: String) throws(ImportProblem) -> Floor? {
        let n = try required(key)
        if case .null = n.json { return nil }
        guard case .object = n.json else { throw ImportProblem("\(n.path) must be an object or null") }
        return Floor(version: try n.version("version"), build: try n.build("build"), deadline: try n.time("deadline"))
    }

    /// A staged recommend as control.json publishes it (ControlFormat.rollout):
    /// absent or null for none. Its schedule must be evenly spaced, as relctl writes it.
    package func rollout(_ key: String) throws(ImportProblem) -> Rollout? {
        guard let n = member(key) else { return nil }
        if case .null = n.json { return nil }
        guard case .object = n.json else { throw ImportProblem("\(n.path) must be an object or null") }
        guard try n.string("hash") == Rollout.hashName else { throw ImportProblem("\(n.name("hash")) must be \"\(Rollout.hashName)\"") }
        guard case .int(let unit)? = n.member("unit")?.json, unit == Int64(Rollout.unit) else { throw ImportProblem("\(n.name("unit")) must be \(Rollout.unit)") }
        let schedule = try n.array("schedule")
        guard !schedule.isEmpty, schedule.count <= Rollout.maximumSteps else {
            throw ImportProblem("\(n.name("schedule")) must hold 1 to \(Rollout.maximumSteps) steps")
        }
        var froms: [Int64] = [], steps: [Int] = []
        for step in schedule {
            guard let from = try step.time("from") else { throw ImportProblem("\(step.name("from")) must be a time") }
            guard case .int(let bp)? = step.member("basisPoints")?.json, bp >= 1, bp <= Int64(Rollout.unit) else {
                throw ImportProblem("\(step.name("basisPoints")) must be a whole number from 1 to \(Rollout.unit)")
            }
            froms.append(from); steps.append(Int(bp))
        }
        let every = froms.count > 1 ? froms[1] - froms[0] : Rollout.defaultEvery
        guard froms.indices.allSatisfy({ $0 == 0 || froms[$0] - froms[$0 - 1] == every }) else {
            throw ImportProblem("\(n.name("schedule")): the steps must be evenly spaced")
        }
        let floor = Floor(version: try n.version("version"), build: try n.build("build"))
        let salt = try n.string("salt"), halted = try n.time("haltedAt")
        // What files that cannot stage said: for an import (which keeps the database's when absent); an app has no use for it, so any value reads.
        var unstaged = Rollout.Unstaged.withhold
        if case .string(let word)? = n.member("unstaged")?.json, let mode = Rollout.Unstaged(rawValue: word) { unstaged = mode }
        // When the version was first staged (absent: the first step's instant).
        let since = n.member("since") == nil ? froms[0] : try n.time("since") ?? froms[0]
        do {
            return try Rollout(floor: floor, salt: salt, steps: steps, every: every, start: froms[0], haltedAt: halted, unstaged: unstaged, since: since)
        } catch { throw ImportProblem("\(n.path): \(error.message)") }
    }

    package func rules(_ key: String) throws(ImportProblem) -> Rules {
        let n = try object(key)
        var list: [Rule] = []
        for type in Rules.types {
            let r = try n.object(type)
            list.append(Rule(alert: try r.oneOf("alert", Rule.Alert.self), frequency: try r.oneOf("frequency", Rule.Frequency.self)))
        }
        return Rules(byType: list)
    }

    /// Message text, as `message set` takes it (UserText).
    package func text(_ key: String, kind: String) throws(ImportProblem) -> String {
        let s = try string(key)
        if let problem = UserText.messageProblem(s, kind: kind) { throw ImportProblem("\(name(key)): \(problem)") }
        return s
    }

    package static func reason(_ error: any Error) -> String { (error as? InputError)?.message ?? "\(error)" }
}
