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
        func walk(_ path: String) -> (String, String, Int)? {
            skipSpace(b, &i)
            guard i < b.count else { return nil }
            let open = b[i]
            guard open == UInt8(ascii: "{") || open == UInt8(ascii: "[") else {
                _ = try? skipValue(b, &i)
                return nil
            }
            i += 1
            var seen = Set<String>(), index = 0
            while true {
                skipSpace(b, &i)
                guard i < b.count, b[i] != UInt8(ascii: "}"), b[i] != UInt8(ascii: "]") else { i += 1; return nil }
                var name = path + "[\(index)]"
                if open == UInt8(ascii: "{") {
                    let start = i
                    guard let key = try? parseString(b, &i) else { return nil }
                    guard seen.insert(key).inserted else {
                        return (path.isEmpty ? "the top-level object" : path, key, b[..<start].reduce(1) { $0 + ($1 == 10 ? 1 : 0) })
                    }
                    name = path.isEmpty ? key : path + "." + key
                    skipSpace(b, &i)
                    i += 1 // the colon
                }
                if let found = walk(name) { return found }
                skipSpace(b, &i)
                if i < b.count, b[i] == UInt8(ascii: ",") { i += 1 }
                index += 1
            }
        }
        return walk("")
    }
}
