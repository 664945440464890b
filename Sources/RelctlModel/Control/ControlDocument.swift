/// What relctl's control.json promises its readers (schema/control.schema.json):
/// the schema's version, the polling hint and the spelling of message fields.
/// ControlFormat writes the document; ControlImport and apps read it.
public enum ControlDocument {
    public static let schemaVersion: Int64 = 1
    /// Documents larger than this are refused unread by RelctlClient, and so
    /// by publish and verify, which read every control.json as it does (a
    /// control.json of a thousand versions per platform is a few hundred KB).
    public static let maximumBytes = 8 << 20
    /// Seconds between checks, normally and from an hour before a window until it ends.
    public static let normalPoll: Int64 = 900
    public static let urgentPoll: Int64 = 60
    /// How long before a window starts clients are asked to poll faster.
    public static let urgentLead: Int64 = 3600

    /// A catalog field as the document spells it ("update_button" → "updateButton").
    public static func camel(_ s: String) -> String { camelFields[s] ?? camelCased(s) }

    /// The catalog's fields in camelCase, worked out once: control.json names every field of every locale's messages.
    package static let camelFields: [String: String] = Dictionary(
        Catalog.fieldKeys.values.flatMap { $0.map { ($0.field, camelCased($0.field)) } }, uniquingKeysWith: { first, _ in first })

    package static func camelCased(_ s: String) -> String {
        let parts = s.split(separator: "_")
        return parts.enumerated().map { $0 == 0 ? String($1) : $1.prefix(1).uppercased() + $1.dropFirst() }.joined()
    }
}
