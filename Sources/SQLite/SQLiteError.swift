import CSQLite

/// SQLite's own error, with the extended result code so callers can tell
/// "busy" from "constraint" from "not a database".
public struct SQLiteError: Error, CustomStringConvertible {
    public let code: Int32
    public let message: String
    public var primary: Int32 { code & 0xff }
    public var description: String { "SQLite error \(code): \(message)" }
}
