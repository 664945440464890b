/// DIR/index.json: every published file with its size and SHA-256, and the
/// revision of the database and the instant it was published for (what
/// `relctl verify` compares the files with), and when the files next change
/// with no change to the database (nil: never), so a deployer or a cache can
/// tell when they go stale.
public enum IndexFormat {
    public static func render(revision: Int64, at: Int64, nextChange: NextChange?, entries: [String: (size: Int, sha256: String)]) -> [UInt8] {
        JSON.object([
            "revision": .int(revision),
            "publishedAt": .time(at),
            "nextChange": json(nextChange),
            "files": .object(entries.mapValues { .object(["size": .int($0.size), "sha256": .string($0.sha256)]) }),
        ]).compactBytes()
    }

    public static func json(_ next: NextChange?) -> JSON {
        next.map { .object(["at": .time($0.at), "causes": .array($0.causes.map { .string($0) })]) } ?? .null
    }
}
