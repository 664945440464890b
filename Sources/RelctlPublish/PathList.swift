import RelctlCore

/// Paths under DIR held as one buffer, each ended by a NUL (every path
/// relctl writes is printable ASCII, TreeFiles.isSafe): a first publish of a
/// thousand projects writes 108,000 files, and their paths, kept to its end
/// for the journal and the report, held 4–7 MB more of its peak as strings
/// (docs/performance.md).
public struct PathList: Sendable {
    private var bytes: [UInt8] = []
    public private(set) var count = 0

    public init() {}
    public init(_ paths: some Sequence<String>) { for path in paths { append(path) } }

    public var isEmpty: Bool { count == 0 }
    /// The paths' bytes, with one more for each.
    var utf8Count: Int { bytes.count }

    public mutating func append(_ path: String) {
        precondition(!path.utf8.contains(0), "a path with a NUL byte in a PathList")
        bytes.append(contentsOf: path.utf8)
        bytes.append(0)
        count += 1
    }

    /// Where each path's bytes lie, in the order appended.
    private var ranges: [Range<Int>] {
        var out: [Range<Int>] = []
        out.reserveCapacity(count)
        var start = 0
        for (i, byte) in bytes.enumerated() where byte == 0 {
            out.append(start..<i)
            start = i + 1
        }
        return out
    }

    /// As strings, made only where the paths are listed (--json, --exec, a dry run).
    public var paths: [String] { ranges.map { String(decoding: bytes[$0], as: UTF8.self) } }

    /// These paths and `others`, each once but for `except`, in byte order
    /// (for ASCII paths, String's), as JSON strings between commas
    /// appended to `out`: the paths of a hundred thousand staged files go
    /// into the journal without being made strings or copied whole.
    func appendSortedJSON(adding others: [String], except: String, to out: inout [UInt8]) {
        var order = ranges
        bytes.withUnsafeBufferPointer { b in order.sort { IndexFileRun.less(b, $0, $1) } }
        let extra = Set(others).map { Array($0.utf8) }.sorted { $0.lexicographicallyPrecedes($1) }
        let skip = Array(except.utf8)
        var last: ArraySlice<UInt8>? = nil
        func emit(_ path: ArraySlice<UInt8>) {
            if path.elementsEqual(skip) { return }
            if let last, last.elementsEqual(path) { return }
            if last != nil { out.append(44) }
            JSON.quoteBytes(path, into: &out)
            last = path
        }
        var (i, j) = (0, 0)
        while i < order.count || j < extra.count {
            if j == extra.count || i < order.count && bytes[order[i]].lexicographicallyPrecedes(extra[j]) {
                emit(bytes[order[i]]); i += 1
            } else {
                emit(extra[j][...]); j += 1
            }
        }
    }
}
