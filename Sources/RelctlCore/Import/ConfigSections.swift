import RelctlModel

/// A configuration file cut at its projects: each project's value as the
/// bytes it spans. A plan reads a project only when its section is not
/// byte for byte one the database is known to hold already (the store's
/// `configSeen`): a fleet's file is 60 MB, and a plan of one edit in it
/// read and compared all of it.
///
/// Only the grammar between the members is checked here, strictly (names,
/// colons, commas, each name once); values are passed over by their
/// brackets and strings. A section left unread is one a full read accepted
/// before, which the digest proves; everything else is read in full.
public struct ConfigSections: Sendable {
    /// The document's members in the file's order: name and value.
    public var top: [(name: String, range: Range<Int>)]
    /// The projects' values in the file's order, by slug.
    public var projects: [(slug: String, range: Range<Int>)]

    /// Nil when the document is not an object whose "projects" is an object,
    /// each name in both once, with nothing after it: the full read says what is wrong.
    public init?(_ bytes: [UInt8]) {
        var i = 0
        JSONReader.skipSpace(bytes, &i)
        guard let top = Self.members(bytes, &i) else { return nil }
        JSONReader.skipSpace(bytes, &i)
        guard i == bytes.count, let projects = top.first(where: { $0.name == "projects" }) else { return nil }
        var j = projects.range.lowerBound
        guard let members = Self.members(bytes, &j), j == projects.range.upperBound else { return nil }
        self.top = top
        self.projects = members.map { (slug: $0.name, range: $0.range) }
    }

    /// The SHA-256 of a section's bytes, in hex.
    public static func digest(_ bytes: [UInt8], _ range: Range<Int>) -> String {
        SHA256Digest.hex(Ed25519.sha256(bytes[range]))
    }

    /// The members of the object at `i`, which ends past it; nil when the
    /// grammar between them is not JSON's or a name comes twice.
    static func members(_ b: [UInt8], _ i: inout Int) -> [(name: String, range: Range<Int>)]? {
        guard i < b.count, b[i] == UInt8(ascii: "{") else { return nil }
        i += 1
        var out: [(name: String, range: Range<Int>)] = []
        var names = Set<String>()
        JSONReader.skipSpace(b, &i)
        if i < b.count, b[i] == UInt8(ascii: "}") { i += 1; return out }
        while true {
            JSONReader.skipSpace(b, &i)
            guard let name = try? JSONReader.parseString(b, &i), names.insert(name).inserted else { return nil }
            JSONReader.skipSpace(b, &i)
            guard i < b.count, b[i] == UInt8(ascii: ":") else { return nil }
            i += 1
            JSONReader.skipSpace(b, &i)
            let start = i
            JSONReader.skipChecked(b, &i)
            // A bare word (a number, true, null) holds no quote or backslash: one that did would end
            // a string where a walk of the whole text (ImportProblem.checkText) begins one.
            guard i > start, [UInt8(ascii: "{"), UInt8(ascii: "["), UInt8(ascii: "\"")].contains(b[start])
                    || !b[start..<i].contains(where: { $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) else { return nil }
            out.append((name, start..<i))
            JSONReader.skipSpace(b, &i)
            guard i < b.count else { return nil }
            if b[i] == UInt8(ascii: ",") { i += 1; continue }
            guard b[i] == UInt8(ascii: "}") else { return nil }
            i += 1
            return out
        }
    }

    /// The document without the projects named in `left`: the same members
    /// in the same order, each value its own bytes, for the full read of the rest.
    func without(_ left: Set<String>, _ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [UInt8(ascii: "{")]
        for (n, member) in top.enumerated() {
            if n > 0 { out.append(UInt8(ascii: ",")) }
            JSON.quoteBytes(member.name, into: &out)
            out.append(UInt8(ascii: ":"))
            guard member.name == "projects" else { out += bytes[member.range]; continue }
            out.append(UInt8(ascii: "{"))
            var first = true
            for p in projects where !left.contains(p.slug) {
                if !first { out.append(UInt8(ascii: ",")) }
                first = false
                JSON.quoteBytes(p.slug, into: &out)
                out.append(UInt8(ascii: ":"))
                out += bytes[p.range]
            }
            out.append(UInt8(ascii: "}"))
        }
        out.append(UInt8(ascii: "}"))
        return out
    }
}
