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

    public func int(_ i: Int32) -> Int64? {
        sqlite3_column_type(stmt, i) == SQLITE_NULL ? nil : sqlite3_column_int64(stmt, i)
    }

    public func text(_ i: Int32) throws -> String? {
        sqlite3_column_type(stmt, i) == SQLITE_NULL ? nil : try Connection.text(stmt, i)
    }
}
