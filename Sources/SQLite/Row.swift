import CSQLite

/// One materialised row of `Connection.query`.
public struct Row {
    let values: [SQLValue]
    public subscript(_ i: Int) -> SQLValue { values[i] }
    public func string(_ i: Int) -> String? {
        if case .text(let s) = values[i] { return s }
        if case .int(let n) = values[i] { return String(n) }
        return nil
    }
    public func text(_ i: Int) -> String { string(i) ?? "" }
    public func int(_ i: Int) -> Int64? {
        if case .int(let n) = values[i] { return n }
        return nil
    }
}

/// The current row of `Connection.each`.
public struct Cursor {
    let stmt: OpaquePointer
    /// Which columns are declared integer: their other values are errors, as in `query`.
    let integers: [Bool]

    /// An integer, or nil for NULL; text or a real in an integer column is an error.
    public func int(_ i: Int32) throws -> Int64? {
        switch sqlite3_column_type(stmt, i) {
        case SQLITE_NULL: return nil
        case SQLITE_INTEGER: return sqlite3_column_int64(stmt, i)
        case _ where integers[Int(i)]: throw Connection.notAnInteger(stmt, i)
        default: return sqlite3_column_int64(stmt, i)
        }
    }

    public func text(_ i: Int32) throws -> String? {
        sqlite3_column_type(stmt, i) == SQLITE_NULL ? nil : try Connection.text(stmt, i)
    }

    /// An integer, text, or NULL (`query`'s values); text or a real in an integer column is an error.
    public func value(_ i: Int32) throws -> SQLValue {
        switch sqlite3_column_type(stmt, i) {
        case SQLITE_NULL: return .null
        case SQLITE_INTEGER: return .int(sqlite3_column_int64(stmt, i))
        case _ where integers[Int(i)]: throw Connection.notAnInteger(stmt, i)
        default: return .text(try Connection.text(stmt, i))
        }
    }
}
