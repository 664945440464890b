import RelctlCore

/// One top-level part of index.json's file list, a project's folder or a file
/// at DIR's root, held as the bytes the list has it in. A publish that leaves
/// a project alone copies its run into the new index instead of reading its
/// entries and writing them back, which was most of what a publish after a
/// change to one project in a hundred cost. The new list is still
/// byte-identical to one written entry by entry: a run is only ever cut from
/// a list exactly as `IndexFormat.files` writes it (sorted by the paths'
/// bytes, so a folder's entries are contiguous), or taken where the tree's
/// state recorded it when that index.json was written (`recorded`). A
/// publish also keeps the entries of each project it writes as their run
/// (`PublishedIndex.list`), until the index is written (`hollow`).
public struct IndexFileRun {
    /// What its paths start with: a top folder with its slash ("app-050/"),
    /// or the whole path of a file at DIR's root ("index.html"). Runs sort
    /// among themselves and among single paths by this key.
    public let key: String
    /// Its entries, comma separated, as `IndexFormat.files` writes them.
    let bytes: ArraySlice<UInt8>
    /// Where each entry starts in `bytes` (its path's opening quote); nil
    /// for a run taken where the tree's state recorded it (`recorded`),
    /// whose entries are found when they are read.
    private let cutAt: [Int]?
    public let count: Int
    /// Listed by the publish that wrote its files (PublishedIndex.list), not
    /// carried from an old index: its folders were written in since the tree was looked at.
    private(set) var isWritten = false

    init(key: String, bytes: ArraySlice<UInt8>, starts: [Int]) {
        self.init(key: key, bytes: bytes, starts: starts, count: starts.count)
    }

    private init(key: String, bytes: ArraySlice<UInt8>, starts: [Int]?, count: Int) {
        self.key = key
        self.bytes = bytes
        cutAt = starts
        self.count = count
    }

    /// Its bytes let go, once copied into the index written (IndexFormat.write)
    /// or into the publish's spill (`spilled`); what the tree's state needs of
    /// it, its folders, kept. A hollow run lists no entries.
    private(set) var isHollow = false
    private var hollowFolders: Set<String> = []
    /// Where its bytes are in the publish's RunSpill.
    private(set) var spilledAt: Range<Int>?

    func hollow() -> IndexFileRun {
        var run = IndexFileRun(key: key, bytes: [], starts: [], count: count)
        run.isWritten = isWritten
        run.isHollow = true
        run.hollowFolders = folders()
        return run
    }

    /// The same, its bytes at `range` of the publish's spill.
    func spilled(at range: Range<Int>) -> IndexFileRun {
        assert(range.count == bytes.count, "a run spilled to a place of another size")
        var run = hollow()
        run.spilledAt = range
        return run
    }

    /// How many bytes of the list it is.
    var size: Int { spilledAt?.count ?? bytes.count }

    /// Appends its bytes to `out`: its own, or read back from the spill they wait in.
    func append(to out: inout [UInt8], from spill: RunSpill?) throws {
        guard let place = spilledAt else {
            precondition(!isHollow, "\(key)'s run was let go, and is written again")
            return out.append(contentsOf: bytes)
        }
        guard let spill else { preconditionFailure("\(key)'s run was spilled, and no spill was given") }
        try spill.read(place, into: &out)
    }

    func written(_ written: Bool) -> IndexFileRun {
        var run = self
        run.isWritten = written
        return run
    }

    /// The key of the run a path is listed in: its top folder with the slash, or the path of a file at DIR's root.
    static func key(of path: String) -> String {
        path.utf8.firstIndex(of: UInt8(ascii: "/")).map { String(path[...$0]) } ?? path
    }

    /// A run taken where a tree's state recorded it (`recorded(_:list:runs:)`
    /// checks the whole list; this, one run read on its own): its entries are
    /// checked when they are read, against `count`.
    static func recorded(key: String, bytes: ArraySlice<UInt8>, count: Int) -> IndexFileRun {
        IndexFileRun(key: key, bytes: bytes, starts: nil, count: count)
    }

    /// Whether every file it lists is still as published (`isIntact(path, size)`),
    /// all its entries read (a run recorded over bytes that are not entries gives fewer).
    func allIntact(_ isIntact: (String, Int) -> Bool) -> Bool {
        let entries = entries()
        return entries.count == count && entries.allSatisfy { isIntact($0.path, $0.size) }
    }

    /// Where each entry starts. A recorded run is cut when its entries are
    /// read, checked as any list is, and against its recorded count: none
    /// when it is not so (`entries()` then gives fewer than `count`).
    private var starts: [Int] {
        // A run let go (or waiting in the spill: PublishedIndex.run reads it back) has no entries to give.
        precondition(!isHollow, "\(key)'s entries read after the run was let go")
        if let cutAt { return cutAt }
        let list = [UInt8(ascii: "{")] + bytes + [UInt8(ascii: "}")]
        guard let runs = IndexFileRun.cut(list, 0..<list.count), runs.count == 1, let run = runs[key], run.count == count else { return [] }
        return run.starts.map { $0 - 1 + bytes.startIndex }
    }

    /// Whether it lists `path`: in a list as relctl writes it, `"PATH":` is
    /// found only where an entry starts.
    public func contains(_ path: String) -> Bool {
        precondition(!isHollow, "\(key) searched after the run was let go")
        let needle = Array("\"\(path)\":".utf8)
        return bytes.withUnsafeBufferPointer { h in
            guard needle.count <= h.count else { return false }
            // From the end: the path asked for, a project's status.html, sorts after
            // most of its folder's entries. Every candidate starts at a quote; most fail at the next byte.
            var i = h.count - needle.count
            while i >= 0 {
                if h[i] == needle[0] {
                    var k = 1
                    while k < needle.count && h[i + k] == needle[k] { k += 1 }
                    if k == needle.count { return true }
                }
                i -= 1
            }
            return false
        }
    }

    /// Its entries, read from the bytes (checked when the run was cut).
    public func entries() -> [(path: String, size: Int, sha256: String)] {
        starts.map { start in
            let pathEnd = next(quoteFrom: start + 1)
            let shaStart = pathEnd + IndexFileRun.beforeSHA.utf8CodeUnitCount
            let shaEnd = next(quoteFrom: shaStart)
            var i = shaEnd + IndexFileRun.beforeSize.utf8CodeUnitCount
            var size = 0
            while bytes[i] != UInt8(ascii: "}") {
                size = size * 10 + Int(bytes[i] - UInt8(ascii: "0"))
                i += 1
            }
            return (String(decoding: bytes[(start + 1)..<pathEnd], as: UTF8.self), size, String(decoding: bytes[shaStart..<shaEnd], as: UTF8.self))
        }
    }

    /// The folders holding its files, by path under DIR (their parents not added).
    public func folders() -> Set<String> {
        if isHollow { return hollowFolders }
        var out: Set<String> = []
        var last: Range<Int>?
        for start in starts {
            let end = next(quoteFrom: start + 1)
            guard let slash = bytes[(start + 1)..<end].lastIndex(of: UInt8(ascii: "/")) else { continue }
            let folder = (start + 1)..<slash
            // Sorted paths: a folder's files mostly come one after another.
            if let last, bytes[last].elementsEqual(bytes[folder]) { continue }
            last = folder
            out.insert(String(decoding: bytes[folder], as: UTF8.self))
        }
        return out
    }

    private func next(quoteFrom i: Int) -> Int {
        var i = i
        while bytes[i] != UInt8(ascii: "\"") { i += 1 }
        return i
    }

    /// Where a run is in index.json, and how many files it lists.
    public struct Recorded: Equatable, Sendable {
        public var range: Range<Int>
        public var count: Int
        public init(range: Range<Int>, count: Int) { (self.range, self.count) = (range, count) }
    }

    /// The runs of the list at `list` in `b`, where the tree's state recorded
    /// them when it wrote that index.json (each run's range and count), without
    /// reading their entries: nil unless the ranges, in key order, are the
    /// list's contents exactly, each starting with its key's path and ending
    /// an entry.
    static func recorded(_ b: [UInt8], list: Range<Int>, runs: [String: Recorded]) -> [String: IndexFileRun]? {
        guard 0 <= list.lowerBound, list.upperBound <= b.count, list.count >= 2, b[list.lowerBound] == UInt8(ascii: "{"),
              b[list.upperBound - 1] == UInt8(ascii: "}") else { return nil }
        var out: [String: IndexFileRun] = [:]
        out.reserveCapacity(runs.count)
        var at = list.lowerBound + 1
        let ordered = runs.sorted { $0.value.range.lowerBound < $1.value.range.lowerBound }
        for (n, (key, run)) in ordered.enumerated() {
            let (range, count) = (run.range, run.count)
            // A folder's run is its paths; a root file's, its one path, closed.
            let opening = [UInt8(ascii: "\"")] + Array(key.utf8) + (key.hasSuffix("/") ? [] : [UInt8(ascii: "\"")])
            guard range.lowerBound == at, range.upperBound < list.upperBound, range.count > opening.count, count > 0, count <= range.count / 20,
                  b[range.upperBound - 1] == UInt8(ascii: "}"), b[range].starts(with: opening),
                  n == 0 || ordered[n - 1].key.utf8.lexicographicallyPrecedes(key.utf8),
                  b[range.upperBound] == UInt8(ascii: n == ordered.count - 1 ? "}" : ",") else { return nil }
            out[key] = IndexFileRun(key: key, bytes: b[range], starts: nil, count: count)
            at = range.upperBound + 1
        }
        // An empty list, "{}", has no runs.
        return (ordered.isEmpty ? at + 1 : at) == list.upperBound ? out : nil
    }

    static let beforeSHA: StaticString = #"":{"sha256":""#
    static let beforeSize: StaticString = #"","size":"#

    /// The list in `range` of `b` (braces included) cut into runs by key,
    /// when it is exactly as `IndexFormat.files` writes it: paths strictly
    /// in the order of their bytes, each one `PublishedPath.isSafe`, SHA-256
    /// digests of lowercase hex (at most 64 digits; `runs(of:)` writes none
    /// for one it cannot vouch for), sizes of at most twelve digits. Nil for
    /// anything else.
    static func cut(_ b: [UInt8], _ range: Range<Int>) -> [String: IndexFileRun]? {
        guard let (runs, end) = cut(b, from: range.lowerBound, within: range.upperBound), end == range.upperBound else { return nil }
        return runs
    }

    /// The same for the list that starts at `start`, with where it ends:
    /// what reads index.json's file list in the same pass that finds its end.
    static func cut(_ b: [UInt8], from start: Int, within end: Int? = nil) -> (runs: [String: IndexFileRun], end: Int)? {
        b.withUnsafeBufferPointer { p -> ([String: IndexFileRun], Int)? in
            var i = start
            let end = end ?? b.count
            func literal(_ text: StaticString) -> Bool {
                let count = text.utf8CodeUnitCount
                guard i + count <= end else { return false }
                for k in 0..<count where p[i + k] != text.utf8Start[k] { return false }
                i += count
                return true
            }
            /// The string's bytes from just after its opening quote, up to its closing one (not escaped).
            func plain(from start: Int) -> Int? {
                var j = start
                while j < end, p[j] != UInt8(ascii: "\""), p[j] != UInt8(ascii: "\\"), p[j] >= 0x20 { j += 1 }
                return j < end && p[j] == UInt8(ascii: "\"") ? j : nil
            }
            var out: [String: IndexFileRun] = [:]
            guard literal("{") else { return nil }
            if literal("}") { return (out, i) }
            var previous: Range<Int>?
            var runKey: Range<Int>?, runStart = i, starts: [Int] = []
            func close(at runEnd: Int) {
                guard let runKey else { return }
                let key = String(decoding: UnsafeBufferPointer(rebasing: p[runKey]), as: UTF8.self)
                out[key] = IndexFileRun(key: key, bytes: b[runStart..<runEnd], starts: starts)
            }
            while true {
                let entry = i
                guard literal("\""), let pathEnd = plain(from: i) else { return nil }
                let path = i..<pathEnd
                guard PublishedPath.isSafe(UnsafeBufferPointer(rebasing: p[path])) else { return nil }
                if let previous, !less(p, previous, path) { return nil }
                previous = path
                let slash = p[path].firstIndex(of: UInt8(ascii: "/"))
                let key = path.lowerBound..<(slash.map { $0 + 1 } ?? path.upperBound)
                if runKey.map({ !p[$0].elementsEqual(p[key]) }) ?? true {
                    close(at: entry - (runKey == nil ? 0 : 1))
                    runKey = key
                    runStart = entry
                    starts = []
                }
                starts.append(entry)
                i = pathEnd
                guard literal(IndexFileRun.beforeSHA) else { return nil }
                let sha = i
                while i < end, i - sha < 64, (p[i] >= UInt8(ascii: "0") && p[i] <= UInt8(ascii: "9")) || (p[i] >= UInt8(ascii: "a") && p[i] <= UInt8(ascii: "f")) { i += 1 }
                guard literal(IndexFileRun.beforeSize) else { return nil }
                var digits = 0
                let number = i
                while i < end, p[i] >= UInt8(ascii: "0"), p[i] <= UInt8(ascii: "9"), digits < 12 {
                    i += 1
                    digits += 1
                }
                // JSON's numbers: no leading zero.
                guard digits > 0, digits == 1 || p[number] != UInt8(ascii: "0"), literal("}") else { return nil }
                if literal(",") { continue }
                let runEnd = i
                guard literal("}") else { return nil }
                close(at: runEnd)
                return (out, i)
            }
        }
    }

    /// Whether the bytes at `a` sort before those at `b` (both in `p`): the order of an index's paths, and of a journal's.
    static func less(_ p: UnsafeBufferPointer<UInt8>, _ a: Range<Int>, _ b: Range<Int>) -> Bool {
        let n = min(a.count, b.count)
        for k in 0..<n where p[a.lowerBound + k] != p[b.lowerBound + k] { return p[a.lowerBound + k] < p[b.lowerBound + k] }
        return a.count < b.count
    }
}

/// What a path under DIR may be, in an index or a journal, for relctl to
/// write, keep or remove it: names only (none empty or starting with ".", so
/// no ".." and nothing absolute), each of printable ASCII but a quote or a
/// backslash, which JSON writes unescaped. relctl's own paths (slugs,
/// platform names, locale tags) are all such.
public enum PublishedPath {
    public static func isSafe<C: Collection>(_ bytes: C) -> Bool where C.Element == UInt8 {
        var atNameStart = true
        for byte in bytes {
            if atNameStart && (byte == UInt8(ascii: "/") || byte == UInt8(ascii: ".")) { return false }
            if byte < 0x20 || byte > 0x7E || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { return false }
            atNameStart = byte == UInt8(ascii: "/")
        }
        return !atNameStart
    }
}
