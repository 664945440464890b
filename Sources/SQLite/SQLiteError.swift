import CSQLite

/// SQLite's own error, with the extended result code so callers can tell
/// "busy" from "constraint" from "not a database".
public struct SQLiteError: Error, CustomStringConvertible {
    public let code: Int32
    public let message: String
    /// The OS error behind an I/O error (ENOSPC for a full disk), else 0.
    public var systemErrno: Int32 = 0
    public var primary: Int32 { code & 0xff }
    public var description: String { "SQLite error \(code): \(message)" }
}
