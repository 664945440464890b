import RelctlCore

/// DIR/index.json: every published file with its size and SHA-256, the
/// tree's own digest (`treeSha256`, the SHA-256 of that list: what a deploy
/// tells releases apart by), the span of time the files hold for
/// (`validFrom`: the last instant at or before the publish at which they
/// changed by themselves, null for "since ever"; `nextChange`: when they next
/// change with no change to the database, null for "never") — what
/// `relctl verify` compares the files with, and what a deployer or a cache
/// goes by — and per project what the next publish needs to leave it alone:
/// its own span, and what it said when rendered (limits, warnings).
/// Recording the span, not the publish instant, keeps the index
/// byte-identical between two publishes of the same state: a publish with
/// nothing to do writes nothing, and a tree published in steps is the tree
/// one full publish gives. It names no database state (revision, edit
/// stamps: those are the tree's state's, TreeState): two databases holding
/// the same configuration, one built afresh from `relctl export`'s file,
/// publish the same bytes.
public enum IndexFormat {
    public static func render(_ index: PublishedIndex) throws -> [UInt8] { try located(index).bytes }

    /// The index, where its file list is in it (braces included), and where
    /// each run of the list is: the tree's state records them, so a publish
    /// with nothing to do reads around the list, most of the file, and one
    /// after a change takes the runs it keeps without cutting the list.
    public static func located(_ index: PublishedIndex) throws -> (bytes: [UInt8], fileList: Range<Int>, runs: RunRanges) {
        var index = index
        // Room for the list; the projects, after it, grow it (only tests make an index whole).
        var out = IndexOutput(capacity: listSize(index.files, carried: index.carried) + 256)
        let (list, runs) = try write(&index, letGo: false, into: &out)
        assert({
            var projects = IndexOutput(capacity: 0)
            self.projects(index, into: &projects)
            return out.bytes == JSON.object([
                "generator": .string(index.generator), "treeSha256": .string(SHA256.hex(out.bytes[list])),
                "validFrom": .time(index.validFrom), "nextChange": NextChange.json(index.nextChange),
                "projects": .raw(projects.bytes), "files": .raw(Array(out.bytes[list])),
            ]).compactBytes()
        }(), "index.json is not what .object writes")
        return (out.bytes, list, runs)
    }

    /// The same, for the publish that writes it, handed to `send` a piece at a
    /// time (IndexOutput) and never held whole: for a thousand projects it is
    /// 17 MB. Each run the publish wrote is let go once copied (read back
    /// from the spill, or in memory: IndexFileRun.hollow), its folders kept
    /// for the tree's state. The file's size and digest, with where its list and runs are.
    static func write(_ index: inout PublishedIndex, piece: Int = 1 << 20, to send: @escaping (ArraySlice<UInt8>) -> Void) throws
        -> (size: Int, sha256: String, fileList: Range<Int>, runs: RunRanges) {
        var out = IndexOutput(piece: piece, send: send)
        let (list, runs) = try write(&index, letGo: true, into: &out)
        let digest = out.finish()
        return (out.sent, digest, list, runs)
    }

    /// The members as `.object` writes them, in the order of their names, with
    /// the file list and the projects written straight in: the list is most of
    /// the file, and a copy of it cost page faults and a memmove.
    private static func write(_ index: inout PublishedIndex, letGo: Bool, into out: inout IndexOutput) throws -> (list: Range<Int>, runs: RunRanges) {
        func name(_ key: String) {
            out.bytes.append(out.position == 0 ? 123 : 44)
            JSON.quoteBytes(key, into: &out.bytes)
            out.bytes.append(58)
        }
        name("files")
        let start = out.beginList()
        let runs = try files(index.files, carried: &index.carried, letGo: letGo, spill: index.spill, into: &out)
        let list = start..<out.position
        let digest = out.endList()
        name("generator")
        JSON.string(index.generator).writeCompact(to: &out.bytes)
        name("nextChange")
        NextChange.json(index.nextChange).writeCompact(to: &out.bytes)
        name("projects")
        projects(index, into: &out)
        name("treeSha256")
        JSON.string(digest).writeCompact(to: &out.bytes)
        name("validFrom")
        JSON.time(index.validFrom).writeCompact(to: &out.bytes)
        out.bytes.append(125)
        out.bytes.append(10)
        return (list, runs)
    }

    /// The bytes of the file list `files(_:carried:letGo:spill:into:)` writes for these,
    /// or a few more: an entry is its path and digest (relctl's need no
    /// escapes), a size of at most 20 digits, and 25 bytes of quotes, names,
    /// braces and its comma; a run, its bytes and a comma.
    static func listSize(_ files: [String: (size: Int, sha256: String)], carried: [String: IndexFileRun]) -> Int {
        files.reduce(carried.values.reduce(2) { $0 + $1.size + 1 }) { $0 + $1.key.utf8.count + $1.value.sha256.utf8.count + 20 + 25 }
    }

    /// The projects member, the bytes `.object` gives: a project carried
    /// over from the old index goes in as that index has it (`verbatim`),
    /// rendered projects are written anew. Writing a hundred projects' limits
    /// and summaries was about a sixth of a publish after a change to one of them.
    static func projects(_ index: PublishedIndex, into out: inout IndexOutput) {
        out.bytes.append(123)
        for (i, slug) in index.projects.keys.sorted(by: JSON.keyOrder).enumerated() {
            if i > 0 { out.bytes.append(44) }
            JSON.quoteBytes(slug, into: &out.bytes)
            out.bytes.append(58)
            let project = index.projects[slug]!
            if let bytes = index.verbatim[slug] {
                // Under test: the bytes copied are those the record renders to.
                assert({ var fresh: [UInt8] = []; json(project).writeCompact(to: &fresh); return fresh.elementsEqual(bytes) }(),
                       "\(slug)'s entry carried over is not what its record renders to")
                out.bytes.append(contentsOf: bytes)
            } else {
                json(project).writeCompact(to: &out.bytes)
            }
            out.mayCut()
        }
        out.bytes.append(125)
    }

    /// The files member, written directly: it is most of the index (one
    /// entry per published file), and the bytes are those `.object` gives.
    /// Carried runs go in whole, where their key sorts: a run's paths all
    /// start with its key, so they sort together, and where the key does.
    static func files(_ files: [String: (size: Int, sha256: String)], carried: [String: IndexFileRun] = [:]) -> [UInt8] {
        var out = IndexOutput(capacity: listSize(files, carried: carried))
        var carried = carried
        // Runs in memory, none read back from a spill: nothing can fail.
        do { try self.files(files, carried: &carried, letGo: false, spill: nil, into: &out) } catch { preconditionFailure("a file list made in memory failed: \(error)") }
        return out.bytes
    }

    /// Where each run of a file list is, by key.
    public typealias RunRanges = [String: IndexFileRun.Recorded]

    /// The same, written into `out`; returns each run written, with where it
    /// is in `out` and its count: what the tree's state records, so the next
    /// publish takes the runs without cutting the list (IndexFileRun.recorded).
    /// `letGo`: each carried run is left hollow once copied (IndexFileRun.hollow).
    @discardableResult
    static func files(_ files: [String: (size: Int, sha256: String)], carried: inout [String: IndexFileRun], letGo: Bool, spill: RunSpill?,
                      into out: inout IndexOutput) throws -> RunRanges {
        var runs: RunRanges = [:]
        var run: (key: String, start: Int, count: Int)?
        var lettingGo = 0, ownRun = false
        func close() { if let run { runs[run.key] = IndexFileRun.Recorded(range: run.start..<out.position, count: run.count) } }
        out.bytes.append(123)
        // Sorted as JSON.keyOrder sorts, by UTF-8 bytes. For ASCII paths (all
        // that relctl publishes) String's own < is that order and much faster.
        assert(files.keys.allSatisfy { path in carried[path] == nil && carried[IndexFileRun.key(of: path)] == nil },
               "a path both listed and in a carried run")
        let keys = Array(files.keys) + carried.keys.filter { files[$0] == nil }
        let ascii = keys.allSatisfy { $0.utf8.withContiguousStorageIfAvailable { $0.allSatisfy { $0 < 0x80 } } ?? false }
        let sorted = ascii ? keys.sorted() : keys.sorted(by: JSON.keyOrder)
        for (i, path) in sorted.enumerated() {
            out.mayCut()
            let entry = files[path], whole = entry == nil ? carried[path]! : nil
            // A folder's paths, sorted, come one after another: its run goes on while they share its key.
            if let current = run, current.key.hasSuffix("/"), path.utf8.starts(with: current.key.utf8) {
                run?.count += whole?.count ?? 1
                out.bytes.append(44)
                ownRun = false
            } else {
                close()
                if i > 0 { out.bytes.append(44) }
                let key = whole != nil ? path : IndexFileRun.key(of: path)
                run = (key, out.position, whole?.count ?? 1)
                ownRun = true
            }
            guard let entry else {
                try whole!.append(to: &out.bytes, from: spill)
                // Only a run this publish wrote has bytes of its own (a carried one shares the
                // old index's), and only one written as a run of its own is found again by its key.
                if letGo && ownRun && whole!.isWritten {
                    carried[path] = whole!.hollow()
                    // The pages freed handed back as the index grows over them.
                    lettingGo += 1
                    if lettingGo % 128 == 0 { FreedMemory.handBack() }
                }
                continue
            }
            JSON.quoteBytes(path, into: &out.bytes)
            out.bytes.append(contentsOf: #":{"sha256":"#.utf8)
            JSON.quoteBytes(entry.sha256, into: &out.bytes)
            out.bytes.append(contentsOf: #","size":"#.utf8)
            out.bytes.append(contentsOf: String(entry.size).utf8)
            out.bytes.append(125)
        }
        close()
        out.bytes.append(125)
        return runs
    }

    static func json(_ p: PublishedProject) -> JSON {
        .object(["validFrom": .time(p.validFrom), "nextChange": NextChange.json(p.nextChange),
                 "disagreements": .int(p.disagreements), "warnings": .array(p.warnings.map { .string($0) }),
                 "limits": .array(p.limits.map { l in
                     var o: [String: JSON] = ["client": .string(l.client.rawValue), "platform": .string(l.platform), "intent": .string(l.intent), "reason": .string(l.reason)]
                     if let e = l.example { o["example"] = .string(e) }
                     return .object(o)
                 }),
                 "summary": p.summary.json])
    }

    /// How `parse` reads the file list.
    public enum FileList {
        /// Every entry in `files`.
        case entries
        /// Cut into runs, in `carried`, none of them read entry by entry:
        /// what a publish needs, which keeps most runs as they are. Only paths
        /// a publish may touch (`PublishedPath.isSafe`) are in them: checked
        /// when cut, and when a run taken where it was recorded is read.
        case runs
    }

    /// An index this relctl wrote, or nil (missing, older, foreign, edited
    /// out of shape): a caller then treats every project as new.
    /// `recorded`: with `.runs`, where the tree's state says the list and its
    /// runs are (`located`); taken when they are so, else the list is cut.
    public static func parse(_ bytes: [UInt8], files list: FileList = .entries, recorded: (list: Range<Int>, runs: RunRanges)? = nil) -> PublishedIndex? {
        // For a publish the file list, most of the index, is read once: cut into
        // runs where it is as relctl writes it, else scanned as any JSON.
        var runs: [String: IndexFileRun]?, runsAt = -1
        let cutFiles: (key: String, end: (Int) -> Int?)?
        switch list {
        case .entries: cutFiles = nil
        case .runs: cutFiles = ("files", { start in
            if let recorded, recorded.list.lowerBound == start, let found = IndexFileRun.recorded(bytes, list: recorded.list, runs: recorded.runs) {
                (runs, runsAt) = (found, start)
                return recorded.list.upperBound
            }
            guard let cut = IndexFileRun.cut(bytes, from: start) else { return nil }
            (runs, runsAt) = (cut.runs, start)
            return cut.end
        })
        }
        guard let members = try? JSONReader.members(bytes, scan: cutFiles) else { return nil }
        // A key given twice: the last counts, as for every member.
        if members["files"]?.lowerBound != runsAt { runs = nil }
        func member(_ key: String) -> JSON? { members[key].flatMap { try? JSONReader.parse(bytes[$0]) } }
        guard case .string(let generator)? = member("generator"),
              let validFrom = time(member("validFrom")), let next = NextChange.read(member("nextChange")),
              let projectsRange = members["projects"], let projects = JSONReader.object(bytes, at: projectsRange)?.byName, let filesRange = members["files"],
              bytes[filesRange.lowerBound] == UInt8(ascii: "{") else { return nil }
        var files: [String: JSON] = [:]
        var fileEntries: [String: (size: Int, sha256: String)]?
        // As relctl writes it, the list is read without a JSON value per entry; else as any JSON.
        if list == .entries, let cut = IndexFileRun.cut(bytes, filesRange) {
            fileEntries = [:]
            for run in cut.values { for e in run.entries() { fileEntries?[e.path] = (e.size, e.sha256) } }
        } else if runs == nil {
            guard case .object(let all)? = member("files") else { return nil }
            files = all
        }
        // The database state is the tree state's (TreeState, LastPublish): not known from index.json.
        var index = PublishedIndex(generator: generator, revision: 0, validFrom: validFrom, nextChange: next)
        if case .string(let digest)? = member("treeSha256") { index.treeSha256 = digest }
        for (slug, range) in projects {
            guard case .object(let p)? = JSONReader.value(bytes, at: range), let from = time(p["validFrom"]),
                  let pNext = NextChange.read(p["nextChange"]), case .int(let disagreements)? = p["disagreements"],
                  case .array(let warnings)? = p["warnings"], case .array(let limits)? = p["limits"],
                  let summaryJSON = p["summary"], let summary = StatusSummary(json: summaryJSON) else { return nil }
            var record = PublishedProject(revision: nil, validFrom: from, nextChange: pNext, disagreements: Int(disagreements), summary: summary)
            for w in warnings {
                guard case .string(let s) = w else { return nil }
                record.warnings.append(s)
            }
            for l in limits {
                guard case .object(let o) = l, case .string(let c)? = o["client"], let client = Client(rawValue: c),
                      case .string(let platform)? = o["platform"], case .string(let intent)? = o["intent"],
                      case .string(let reason)? = o["reason"] else { return nil }
                var example: String? = nil
                if let e = o["example"] { guard case .string(let s) = e else { return nil }; example = s }
                record.limits.append(Limit(client: client, platform: platform, intent: intent, reason: reason, example: example))
            }
            index.projects[slug] = record
            if list == .runs { index.verbatim[slug] = bytes[range] }
        }
        if let fileEntries { index.files = fileEntries }
        for (path, entry) in files {
            guard case .object(let e) = entry, case .int(let size)? = e["size"], case .string(let sha)? = e["sha256"] else { return nil }
            index.files[path] = (Int(size), sha)
        }
        if list == .runs {
            // Not as relctl writes it (re-indented, say): read, then cut from the list it gives.
            index.carried = runs ?? self.runs(of: index.files)
            index.files = [:]
        }
        return index
    }

    /// Who wrote an index.json found in DIR: nobody it can tell (not JSON:
    /// cut short, garbage), a relctl (its `generator` says so, any version),
    /// or someone else (JSON that does not name relctl: a site's search index).
    package enum Author { case unknown, relctl, other }

    /// The author of the index.json `bytes` (`parsed`: as IndexFormat.parse read
    /// it); one the parser refuses, of another relctl's format, is read for its generator alone.
    /// relctl before the `generator` field (before 546116d) wrote `revision`, `files` (each
    /// entry its `size` and `sha256`), from 066c36f `publishedAt`, and from deea5d6
    /// `nextChange` (null, or its `at` and `causes`): nothing else.
    package static func author(of bytes: [UInt8], parsed: PublishedIndex?) -> Author {
        if let parsed { return FormatRevision.isRelctl(generator: parsed.generator) ? .relctl : .other }
        // JSON by its grammar alone: relctl's reader bounds numbers and depth, which another's file need not keep.
        guard isJSON(bytes) else { return .unknown }
        guard bytes.first(where: { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 }) == UInt8(ascii: "{"),
              let members = try? JSONReader.members(bytes) else { return .other }
        guard let range = members["generator"] else { return isOldIndex(bytes, members) ? .relctl : .other }
        guard case .string(let generator)? = try? JSONReader.parse(bytes[range]) else { return .other }
        return FormatRevision.isRelctl(generator: generator) ? .relctl : .other
    }

    /// An index.json as relctl wrote it before its `generator` field, by its members alone.
    private static func isOldIndex(_ bytes: [UInt8], _ members: [String: Range<Int>]) -> Bool {
        guard Set(members.keys).isSubset(of: ["revision", "publishedAt", "nextChange", "files"]), let revision = members["revision"], let files = members["files"],
              case .int? = try? JSONReader.parse(bytes[revision]), case .object(let entries)? = try? JSONReader.parse(bytes[files]) else { return false }
        if let at = members["publishedAt"] { guard case .string? = try? JSONReader.parse(bytes[at]) else { return false } }
        if let next = members["nextChange"] {
            switch try? JSONReader.parse(bytes[next]) {
            case .null?: break
            case .object(let n)? where n.count == 2:
                guard case .string? = n["at"], case .array(let causes)? = n["causes"],
                      causes.allSatisfy({ if case .string = $0 { return true } else { return false } }) else { return false }
            default: return false
            }
        }
        return entries.values.allSatisfy { entry in
            guard case .object(let e) = entry, e.count == 2, case .int? = e["size"], case .string? = e["sha256"] else { return false }
            return true
        }
    }

    /// Whether `b` is one JSON text (RFC 8259) by the grammar alone: any
    /// number, any depth (a stack, not recursion), strings checked for their
    /// escapes and control characters but not their UTF-8, a byte order mark
    /// first allowed (RFC 8259 8.1: Windows tools write one).
    package static func isJSON(_ b: [UInt8]) -> Bool {
        let n = b.count
        var i = b.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        var open: [UInt8] = []
        func space() { while i < n, b[i] == 0x20 || b[i] == 0x0A || b[i] == 0x0D || b[i] == 0x09 { i += 1 } }
        func digit() -> Bool { i < n && b[i] >= 0x30 && b[i] <= 0x39 }
        func hex(_ c: UInt8) -> Bool { (c >= 0x30 && c <= 0x39) || (c | 0x20 >= 0x61 && c | 0x20 <= 0x66) }
        func string() -> Bool {
            guard i < n, b[i] == 0x22 else { return false }
            i += 1
            while i < n {
                switch b[i] {
                case 0x22: i += 1; return true
                case 0..<0x20: return false
                case 0x5C:
                    guard i + 1 < n else { return false }
                    switch b[i + 1] {
                    case 0x22, 0x5C, 0x2F, 0x62, 0x66, 0x6E, 0x72, 0x74: i += 2
                    case 0x75:
                        guard i + 5 < n, b[(i + 2)...(i + 5)].allSatisfy(hex) else { return false }
                        i += 6
                    default: return false
                    }
                default: i += 1
                }
            }
            return false
        }
        func literal(_ word: String) -> Bool {
            let w = Array(word.utf8)
            guard i + w.count <= n, b[i..<(i + w.count)].elementsEqual(w) else { return false }
            i += w.count
            return true
        }
        func number() -> Bool {
            if i < n, b[i] == 0x2D { i += 1 }
            guard digit() else { return false }
            if b[i] == 0x30 { i += 1 } else { while digit() { i += 1 } }
            if i < n, b[i] == 0x2E {
                i += 1
                guard digit() else { return false }
                while digit() { i += 1 }
            }
            if i < n, b[i] | 0x20 == 0x65 {
                i += 1
                if i < n, b[i] == 0x2B || b[i] == 0x2D { i += 1 }
                guard digit() else { return false }
                while digit() { i += 1 }
            }
            return true
        }
        /// A member's name and its colon, after `{` or a comma inside an object.
        func name() -> Bool {
            space()
            guard string() else { return false }
            space()
            guard i < n, b[i] == 0x3A else { return false }
            i += 1
            return true
        }
        space()
        while true {
            // A value.
            space()
            guard i < n else { return false }
            switch b[i] {
            case 0x7B:
                i += 1
                space()
                if i < n, b[i] == 0x7D { i += 1 } else {
                    guard name() else { return false }
                    open.append(0x7B)
                    continue
                }
            case 0x5B:
                i += 1
                space()
                if i < n, b[i] == 0x5D { i += 1 } else {
                    open.append(0x5B)
                    continue
                }
            case 0x22: guard string() else { return false }
            case 0x74: guard literal("true") else { return false }
            case 0x66: guard literal("false") else { return false }
            case 0x6E: guard literal("null") else { return false }
            default: guard number() else { return false }
            }
            // After it: containers closed, then a comma for the next value, or the end.
            while true {
                space()
                guard let top = open.last else { return i == n }
                guard i < n else { return false }
                if b[i] == 0x2C {
                    i += 1
                    if top == 0x7B, !name() { return false }
                    break
                }
                guard b[i] == top + 2 else { return false }  // `}` is `{` + 2, `]` is `[` + 2
                i += 1
                open.removeLast()
            }
        }
    }

    /// `files` as runs by key, those paths a publish may touch. A size or
    /// a digest not as relctl writes them becomes one that matches no file
    /// (0, none): the path is still replaced or removed, its bytes compared.
    public static func runs(of files: [String: (size: Int, sha256: String)]) -> [String: IndexFileRun] {
        var kept: [String: (size: Int, sha256: String)] = [:]
        for (path, entry) in files where PublishedPath.isSafe(path.utf8) {
            let hex = entry.sha256.utf8.count <= 64 && entry.sha256.utf8.allSatisfy { ($0 >= 48 && $0 <= 57) || ($0 >= 97 && $0 <= 102) }
            kept[path] = (0...999_999_999_999 ~= entry.size ? entry.size : 0, hex ? entry.sha256 : "")
        }
        let bytes = self.files(kept)
        // What files(_:) writes of these always cuts (IndexFileRunTests).
        return IndexFileRun.cut(bytes, 0..<bytes.count) ?? [:]
    }

    /// `.some(nil)` for JSON null, nil for anything that is not a time.
    private static func time(_ value: JSON?) -> Int64?? {
        switch value {
        case .null?: return .some(nil)
        case .string(let s)?: return Time.parseUTC(s).map { .some($0) } ?? nil
        default: return nil
        }
    }
}

/// What index.json records: the tree and, per project, its part of it.
public struct PublishedIndex {
    /// The relctl that wrote the files ("relctl 0.1.0"): another one renders them anew.
    public var generator: String
    /// The database revision the files were published from: known to the
    /// publish that writes the index and to the tree's state, not written in it.
    public var revision: Int64
    /// The database's edit stamp then: with the revision, it tells a change made by hand.
    public var edits: Int64 = 0
    /// The SHA-256 of the file list, as index.json records it (nil: an index
    /// written before it did); the publish that writes one works it out.
    public var treeSha256: String?
    public var validFrom: Int64?
    public var nextChange: NextChange?
    public var projects: [String: PublishedProject] = [:]
    /// The file list is these entries and those of the carried runs (no path in both).
    public var files: [String: (size: Int, sha256: String)] = [:]
    /// Runs of an earlier index kept whole, and of the projects this publish
    /// wrote (`list`, `isWritten`), by key.
    public var carried: [String: IndexFileRun] = [:]
    /// Projects' entries as an earlier index has them, byte for byte, by
    /// slug, written out as they are (`projects`): `parse(.runs)` reads them,
    /// TreeLock.readPrevious keeps them only from an index.json the tree's
    /// state vouches for (this relctl wrote it, nothing changed it since),
    /// and a publish keeps those of the projects it carries over unchanged,
    /// so the index stays the one a full publish writes.
    public var verbatim: [String: ArraySlice<UInt8>] = [:]
    /// Where the runs of the projects rendered wait for the index (`list`), when a publish keeps them on disk.
    var spill: RunSpill?

    /// How many files it lists.
    public var fileCount: Int { carried.values.reduce(files.count) { $0 + $1.count } }

    /// Whether it lists `path`.
    public func lists(_ path: String) throws -> Bool {
        if files[path] != nil { return true }
        return try run(IndexFileRun.key(of: path))?.contains(path) ?? false
    }

    /// The files a publish wrote for one project, listed as their runs (the
    /// bytes `IndexFormat.files` writes for them, `written`), not entry by
    /// entry: for a thousand projects, every path with its digest as a string
    /// in one dictionary was 22 MB of a publish's peak memory; the runs are
    /// the 14 MB the index copies, kept in the spill when there is one. A key
    /// listed already (never in a publish, where each project has its own
    /// folder) is listed entry by entry.
    mutating func list(_ entries: [String: (size: Int, sha256: String)]) throws {
        let bytes = IndexFormat.files(entries)
        guard let runs = IndexFileRun.cut(bytes, 0..<bytes.count), runs.values.reduce(0, { $0 + $1.count }) == entries.count else {
            return try add(entries)
        }
        let listed = files.isEmpty ? [] : Set(files.keys.map(IndexFileRun.key(of:)))
        for (key, run) in runs {
            if carried[key] == nil && !listed.contains(key) {
                let written = run.written(true)
                // Where the spill cannot take it (a full disk), the run stays in memory: the files'
                // own writes report the disk, naming them, and the publish is not refused for a saving.
                carried[key] = spill.flatMap { spill in (try? spill.append(written.bytes)).map { written.spilled(at: $0) } } ?? written
            } else {
                try add(Dictionary(run.entries().map { ($0.path, ($0.size, $0.sha256)) }) { _, new in new })
            }
        }
    }

    /// Entries, and those of any run under their keys: a path is listed once, in the one or the other.
    private mutating func add(_ entries: [String: (size: Int, sha256: String)]) throws {
        for key in Set(entries.keys.map(IndexFileRun.key(of:))) {
            for e in try run(key)?.entries() ?? [] { files[e.path] = (e.size, e.sha256) }
            carried[key] = nil
        }
        files.merge(entries) { _, new in new }
    }

    /// The run under `key`, its bytes read back when they wait in the spill.
    func run(_ key: String) throws -> IndexFileRun? {
        guard let run = carried[key] else { return nil }
        guard run.spilledAt != nil else { return run }
        // A run's entries, as a list of them.
        var bytes: [UInt8] = [123]
        try run.append(to: &bytes, from: spill)
        bytes.append(125)
        guard let back = IndexFileRun.cut(bytes, 0..<bytes.count)?[key], back.count == run.count else {
            throw PublishError("the file list of \(key) read back from the publish directory is not what was written there", hint: "check the disk")
        }
        return back.written(run.isWritten)
    }

    public init(generator: String, revision: Int64, validFrom: Int64?, nextChange: NextChange?) {
        self.generator = generator
        self.revision = revision
        self.validFrom = validFrom
        self.nextChange = nextChange
    }

    /// The tree's span from its projects': it holds where every project's
    /// does. Causes of a tie come in project order (`projectOrder`, the
    /// slugs of the database), each naming its project when there are several.
    public mutating func settleSpan(projectOrder order: [String]) {
        let multi = order.count > 1
        validFrom = nil
        nextChange = nil
        for slug in order {
            guard let p = projects[slug] else { continue }
            if let from = p.validFrom, validFrom.map({ from > $0 }) ?? true { validFrom = from }
            nextChange = NextChange.earliest(nextChange, multi ? p.nextChange?.naming(slug) : p.nextChange)
        }
    }
}

/// One project's part of index.json.
public struct PublishedProject: Sendable {
    /// The number of the project's last change in the audit trail, as the
    /// publish that rendered it knew it (the tree's state records it; nil: not known).
    public var revision: Int64?
    /// Its edit stamp (Revisions.edits): moved by every change to its rows, a hand edit's too.
    public var edits: Int64?
    /// Whether its files were found as published from those stamps: false for
    /// one a publish of another project (-p) kept without looking, which the
    /// next publish renders whatever its stamps say.
    public var vouched = true
    public var validFrom: Int64?
    /// Not naming the project: the index names it when it lists several.
    public var nextChange: NextChange?
    /// Client decisions that differed from `check` (written only with --publish-despite-disagreements).
    public var disagreements: Int
    public var warnings: [String] = []
    public var limits: [Limit] = []
    /// Its line in DIR/index.html, which lists every project of the tree,
    /// rendered now or left alone.
    public var summary: StatusSummary

    public init(revision: Int64?, edits: Int64? = nil, validFrom: Int64?, nextChange: NextChange?, disagreements: Int, warnings: [String] = [], limits: [Limit] = [],
                summary: StatusSummary) {
        self.revision = revision
        self.edits = edits
        self.validFrom = validFrom
        self.nextChange = nextChange
        self.disagreements = disagreements
        self.warnings = warnings
        self.limits = limits
        self.summary = summary
    }

    public func holds(at: Int64) -> Bool { PublishedProject.span(validFrom, nextChange, contains: at) }

    public static func span(_ from: Int64?, _ next: NextChange?, contains at: Int64) -> Bool {
        (from.map { $0 <= at } ?? true) && (next.map { at < $0.at } ?? true)
    }
}
