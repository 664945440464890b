extension JSONReader {
    /// Where a document holds bytes that are not UTF-8, as the path of the
    /// value ("versions[2].version", "project.name") or of the object whose
    /// member name holds them; nil when the document is all UTF-8.
    ///
    /// The parser reads such bytes as U+FFFD, as a client's would: an
    /// import must refuse them instead of storing a character nobody wrote.
    public static func invalidUTF8(_ bytes: [UInt8]) -> String? {
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        var offset = 0
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let scalar): offset += scalar.count
            case .emptyInput: return nil
            case .error: return path(to: offset, in: bytes)
            }
        }
    }

    /// The path of the innermost value whose bytes hold `offset`.
    package static func path(to offset: Int, in b: [UInt8]) -> String {
        var path = "", i = 0
        func member(_ name: String) -> String { path.isEmpty ? name : path + "." + name }
        descend: while true {
            skipSpace(b, &i)
            guard i < b.count else { break }
            let open = b[i]
            guard open == UInt8(ascii: "{") || open == UInt8(ascii: "[") else { break }
            i += 1
            var index = 0
            while true {
                skipSpace(b, &i)
                guard i < b.count, b[i] != UInt8(ascii: "}"), b[i] != UInt8(ascii: "]") else { break descend }
                var name = "[\(index)]"
                if open == UInt8(ascii: "{") {
                    let start = i
                    guard b[i] == UInt8(ascii: "\""), (try? skipString(b, &i)) != nil else { break descend }
                    if (start..<i).contains(offset) { return "a member name in " + (path.isEmpty ? "the top-level object" : path) }
                    var at = start
                    guard case .string(let key)? = try? parseValue(b, &at) else { break descend }
                    name = key
                    skipSpace(b, &i)
                    guard i < b.count, b[i] == UInt8(ascii: ":") else { break descend }
                    i += 1
                    skipSpace(b, &i)
                }
                let start = i
                guard (try? skipValue(b, &i)) != nil else { break descend }
                if (start..<i).contains(offset) {
                    path = open == UInt8(ascii: "{") ? member(name) : path + name
                    i = start
                    continue descend
                }
                skipSpace(b, &i)
                guard i < b.count, b[i] == UInt8(ascii: ",") else { break descend }
                i += 1
                index += 1
            }
        }
        return path.isEmpty ? "the document" : path
    }
}
