/// Plain aligned columns for terminal output.
public enum Table {
    public static func render(_ headers: [String], _ rows: [[String]]) -> String {
        var widths = headers.map(\.count)
        for row in rows { for (i, cell) in row.enumerated() { widths[i] = max(widths[i], cell.count) } }
        func line(_ cells: [String]) -> String {
            var s = ""
            for (i, cell) in cells.enumerated() {
                s += i == cells.count - 1 ? cell : cell + String(repeating: " ", count: widths[i] - cell.count + 2)
            }
            return s + "\n"
        }
        return line(headers) + rows.map(line).joined()
    }
}
