/// DIR/index.json: every published file with its size and SHA-256, and the
/// revision of the database it came from.
public enum IndexFormat {
    public static func render(revision: Int64, entries: [String: (size: Int, sha256: String)]) -> [UInt8] {
        JSON.object([
            "revision": .int(revision),
            "files": .object(entries.mapValues { .object(["size": .int($0.size), "sha256": .string($0.sha256)]) }),
        ]).compactBytes()
    }
}
