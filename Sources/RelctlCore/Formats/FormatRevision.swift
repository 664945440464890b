/// What renders the published files, as index.json's `generator` names it:
/// a tree another renderer wrote is rendered again, whole, so a format
/// fixed in a new relctl reaches every live tree at its next publish, not
/// only when the database changes.
public enum FormatRevision {
    /// Moves with every change to the bytes a format writes, the status
    /// pages' included. It is held to what the client formats render:
    /// FormatRevisionTests compares `goldenDigest` with the golden files,
    /// and fails until both are moved. (3: the status pages wrap long words.)
    public static let number = 3

    /// SHA-256 of the golden files (Tests/RelctlTests/Golden, index.json aside,
    /// which names this revision): path, NUL, bytes, NUL, in path order.
    public static let goldenDigest = "4846be4015867823a6504a846c76ecb098d4264b7434bc18506f84fa7f636381"

    /// `generator` of a tree this relctl writes.
    public static func generator(version: String) -> String { "relctl \(version) (formats \(number))" }
}
