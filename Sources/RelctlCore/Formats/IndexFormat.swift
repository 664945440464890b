/// DIR/index.json: every published file with its size and SHA-256, and the
/// revision of the database and the instant it was published for (what
/// `relctl verify` compares the files with).
public enum IndexFormat {
    public static func render(revision: Int64, at: Int64, entries: [String: (size: Int, sha256: String)]) -> [UInt8] {
        JSON.object([
            "revision": .int(revision),
            "publishedAt": .time(at),
            "files": .object(entries.mapValues { .object(["size": .int($0.size), "sha256": .string($0.sha256)]) }),
        ]).compactBytes()
    }
}
