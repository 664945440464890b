extension JSONReader {
    /// The first member name an object of the document holds twice, with the
    /// object's path and the line it is on again; nil when none is. The
    /// parser keeps the last of them, as clients do: a file people edit
    /// (a merge that kept both sides) must be refused instead, or one of the
    /// two would vanish silently. Call on a document `parse` accepted.
    public static func repeatedKey(_ b: [UInt8]) -> (path: String, key: String, line: Int)? {
        // The walk below trusts the syntax (and so the depth) the parser checks.
        var i = 0
        guard (try? skipValue(b, &i)) != nil else { return nil }
        i = 0
        // The path is spelled only for the key found: a fleet's file has millions of members.
        enum Step { case key(String), index(Int) }
        var steps: [Step] = []
        func path() -> String {
            steps.reduce(into: "") { p, step in
                switch step {
                case .key(let k): p += p.isEmpty ? k : "." + k
                case .index(let n): p += "[\(n)]"
                }
            }
        }
        func walk() -> (String, String, Int)? {
            skipSpace(b, &i)
            guard i < b.count else { return nil }
            let open = b[i]
            guard open == UInt8(ascii: "{") || open == UInt8(ascii: "[") else {
                _ = try? skipValue(b, &i)
                return nil
            }
            i += 1
            // Most objects have a handful of members: a list is faster to search than a set is to fill,
            // and a set takes over for the large ones (a fleet's projects, a platform's versions).
            var seen: [String] = [], many: Set<String> = [], index = 0
            while true {
                skipSpace(b, &i)
                guard i < b.count, b[i] != UInt8(ascii: "}"), b[i] != UInt8(ascii: "]") else { i += 1; return nil }
                if open == UInt8(ascii: "{") {
                    let start = i
                    guard let key = try? parseString(b, &i) else { return nil }
                    guard many.isEmpty ? !seen.contains(key) : !many.contains(key) else {
                        let at = path()
                        return (at.isEmpty ? "the top-level object" : at, key, b[..<start].reduce(1) { $0 + ($1 == 10 ? 1 : 0) })
                    }
                    if many.isEmpty { seen.append(key) } else { many.insert(key) }
                    if seen.count == 16 { many = Set(seen); seen = [] }
                    steps.append(.key(key))
                    skipSpace(b, &i)
                    i += 1 // the colon
                } else {
                    steps.append(.index(index))
                }
                if let found = walk() { return found }
                steps.removeLast()
                skipSpace(b, &i)
                if i < b.count, b[i] == UInt8(ascii: ",") { i += 1 }
                index += 1
            }
        }
        return walk()
    }
}
