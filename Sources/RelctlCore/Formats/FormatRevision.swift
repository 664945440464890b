/// What renders the published files, as index.json's `generator` names it:
/// a tree another renderer wrote is rendered again, whole, so a format
/// fixed in a new relctl reaches every live tree at its next publish, not
/// only when the database changes.
public enum FormatRevision {
    /// Moves with every change to the bytes a format writes, the status
    /// pages' included. It is held to what the client formats render:
    /// FormatRevisionTests compares `goldenDigest` with the golden files,
    /// and fails until both are moved. (4: Prince of Versions names a release in its delay without its build; the Android appcast's critical item stands at a floor below every release. 5: a platform's versions in one strict order, VersionRecord.isOlder: of one rank, a build after none, where the order they were read in decided.)
    public static let number = 5

    /// SHA-256 of the golden files (Tests/RelctlTests/Golden, index.json aside,
    /// which names this revision): path, NUL, bytes, NUL, in path order.
    public static let goldenDigest = "866d98f9084a2f1d865b31dc154c93230778f7719e1106c5d058b4c02968f744"

    /// `generator` of a tree this relctl writes.
    public static func generator(version: String) -> String { "relctl \(version) (formats \(number))" }

    /// A generator any relctl wrote, whatever its version: the files its index.json lists are relctl's.
    public static func isRelctl(generator: String) -> Bool { generator.hasPrefix("relctl ") }
}
