#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import RelctlCore

/// "/" as a byte: paths are split on their UTF-8 view, much faster than on
/// characters for the ten thousand paths of a fleet's index ("/" is ASCII, so
/// its index is a character boundary).
package let slashByte = UInt8(ascii: "/")

/// `DIR/.relctl-state`: what a publish records, after its last write, so the
/// next one can tell that the tree is still as it left it without a stat of
/// every file: the identity of the index.json it wrote and the time of every
/// folder under DIR. Adding, removing, renaming or replacing a file changes
/// its folder's time; a file edited in place does not (`relctl verify` reads
/// every byte; removing this file makes the next publish check every file).
/// Valid only with the index.json it names: a publish cut short, or an
/// index.json written by anything else, leaves it describing another tree.
/// Its bytes carry their own checksum: a state edited by hand is no record
/// (what it says of index.json is believed, so index.json is not checked).
/// It also records what that publish said (LastPublish): a publish with
/// nothing to do says it again without reading index.json (but the runs of
/// the folders it cannot vouch for yet: filesHold).
package struct TreeState: Equatable {
    package static let name = ".relctl-state"

    /// index.json's inode, size and modification time.
    package var index: Stamp
    /// How many files the index lists.
    package var files: Int
    /// The database revision index.json names: a publish after a change
    /// sees it has work to do before it reads index.json.
    package var revision: Int64
    /// Every folder of the tree but DIR itself (the state's own rename
    /// changes DIR), by path under DIR.
    package var folders: [String: Stamp]
    /// Files at DIR's root other than index.json, with their sizes.
    package var rootFiles: [String: Int]
    /// When the folders' times were read: a folder changed within one tick of
    /// the file system's clock after its recorded time keeps that time, so a
    /// folder whose time is that close to this one is not trusted (git's
    /// "racily clean" entries).
    package var captured: Stamp
    /// Where index.json holds its file list (IndexFormat.located); nil in a
    /// state written before relctl recorded it.
    package var fileList: Range<Int>? = nil
    /// Where each run of that list is, and how many files it lists
    /// (IndexFormat.located); empty when not recorded.
    package var runs: IndexFormat.RunRanges = [:]
    /// What the publish that recorded this state said and rests on
    /// (LastPublish), as its compact JSON: read only by a publish with
    /// nothing to do. Nil when not recorded.
    package var last: [UInt8]? = nil
    /// The version it was read at (`bytes` writes the current one): a
    /// version-1 state, its check SHA-256, is recorded again as it is read.
    package var version: Int64 = TreeState.current

    /// What `bytes` writes: 2, its check `checksum`'s (1: SHA-256's).
    package static let current: Int64 = 2

    package struct Stamp: Equatable {
        package var inode: UInt64
        package var size: Int64
        package var seconds: Int64
        package var nanoseconds: Int64

        /// A regular file or (`folder`) a directory at `path`, never through a link.
        package init?(_ path: String, folder: Bool = false) {
            var st = stat()
            guard lstat(path, &st) == 0 else { return nil }
            self.init(st, folder: folder)
        }

        /// The same of `path` under the folder open as `dir` (no lstat of a whole path, root to leaf, each time).
        package init?(at dir: Int32, _ path: String, folder: Bool = false) {
            var st = stat()
            guard fstatat(dir, path, &st, AT_SYMLINK_NOFOLLOW) == 0 else { return nil }
            self.init(st, folder: folder)
        }

        /// The same of a file already open.
        package init?(fd: Int32) {
            var st = stat()
            guard fstat(fd, &st) == 0 else { return nil }
            self.init(st, folder: false)
        }

        /// A regular file or (`folder`) a directory as `st` describes it.
        package init?(_ st: stat, folder: Bool = false) {
            guard (st.st_mode & S_IFMT) == (folder ? S_IFDIR : S_IFREG) else { return nil }
            inode = UInt64(st.st_ino)
            size = folder ? 0 : Int64(st.st_size)
            seconds = Int64(st.st_mtim.tv_sec)
            nanoseconds = Int64(st.st_mtim.tv_nsec)
        }

        package init(inode: UInt64, size: Int64, seconds: Int64, nanoseconds: Int64) {
            self.inode = inode; self.size = size; self.seconds = seconds; self.nanoseconds = nanoseconds
        }

        /// Its time, in nanoseconds since 1970.
        package var instant: Int64 { seconds * 1_000_000_000 + nanoseconds }

        package init?(json: JSON) {
            guard case .array(let a) = json, a.count == 4, case .int(let i) = a[0], case .int(let s) = a[1],
                  case .int(let sec) = a[2], case .int(let ns) = a[3] else { return nil }
            self.init(inode: UInt64(bitPattern: i), size: s, seconds: sec, nanoseconds: ns)
        }
    }

    /// The state of the tree under `root` that `index` (its index.json) lists, read now;
    /// nil when a folder or index.json is not there as it should be. The
    /// folders of the runs it carries, which this publish did not write in,
    /// are taken as `known` found them where it trusted them (one lstat each fewer).
    package static func capture(root: String, index: PublishedIndex, fileList: Range<Int>? = nil, runs: IndexFormat.RunRanges = [:],
                        known: FolderCheck? = nil) -> TreeState? {
        guard let indexStamp = Stamp(root + "/index.json") else { return nil }
        var folders: [String: Stamp] = [:]
        var rootFiles: [String: Int] = [:]
        var seen = Set<Substring>()
        func stamp(_ path: String, known: [String: Stamp]) -> Bool {
            var folder = Substring(path)
            while seen.insert(folder).inserted {
                guard let stamp = known[String(folder)] ?? Stamp(root + "/" + folder, folder: true) else { return false }
                folders[String(folder)] = stamp
                guard let up = folder.utf8.lastIndex(of: slashByte) else { break }
                folder = folder[..<up]
            }
            return true
        }
        for path in index.files.keys {
            guard let slash = path.utf8.lastIndex(of: slashByte) else {
                guard let file = Stamp(root + "/" + path) else { return nil }
                rootFiles[path] = Int(file.size)
                continue
            }
            guard stamp(String(path[..<slash]), known: [:]) else { return nil }
        }
        for run in index.carried.values {
            guard run.key.hasSuffix("/") else {
                guard let file = Stamp(root + "/" + run.key) else { return nil }
                rootFiles[run.key] = Int(file.size)
                continue
            }
            // A project left alone whose folders were all found as recorded: the same folders
            // hold its files (its run is carried from the index.json that record was of).
            // (Not a run this publish wrote: it wrote in its folders since they were found.)
            if !run.isWritten, let recorded = known?.projects[String(run.key.dropLast())] {
                folders.merge(recorded) { _, new in new }
                continue
            }
            for folder in run.folders() {
                guard stamp(folder, known: run.isWritten ? [:] : known?.trusted ?? [:]) else { return nil }
            }
        }
        var clock = timespec()
        clock_gettime(CLOCK_REALTIME, &clock)
        // The count takes index.json in, as a publish's own does.
        let list = fileList.flatMap { $0.upperBound <= indexStamp.size ? $0 : nil }
        return TreeState(index: indexStamp, files: index.fileCount + 1, revision: index.revision, folders: folders, rootFiles: rootFiles,
                         captured: Stamp(inode: 0, size: 0, seconds: Int64(clock.tv_sec), nanoseconds: Int64(clock.tv_nsec)),
                         fileList: list, runs: list == nil ? [:] : runs)
    }

    /// The recorded state, when it describes the index.json now in `root`.
    package static func read(root: String) -> TreeState? {
        unchecked(root: root).flatMap { Stamp(root + "/index.json") == $0.index ? $0 : nil }
    }

    /// The recorded state, whatever index.json is there now (its bytes may
    /// still be the ones it recorded: LastPublish.indexSha256).
    package static func unchecked(root: String) -> TreeState? {
        let path = root + "/" + name
        guard Stamp(path) != nil, let bytes = try? FileSystem.readFile(path), let (body, version) = checked(bytes),
              // The last publish's record is written last, and not read here (the checksum holds for it).
              let members = try? JSONReader.members(body, scan: ("last", { _ in body.count - 1 })) else { return nil }
        // Member by member: the last publish's record stays bytes.
        var top: [String: JSON] = [:]
        for (key, range) in members where key != "last" { top[key] = try? JSONReader.parse(body[range]) }
        guard top["version"] == .int(version),
              let index = top["index"].flatMap(Stamp.init(json:)), case .int(let files)? = top["files"], files >= 0,
              case .int(let revision)? = top["revision"], let captured = top["captured"].flatMap(Stamp.init(json:)),
              case .object(let folderList)? = top["folders"], case .object(let rootList)? = top["rootFiles"] else { return nil }
        var state = TreeState(index: index, files: Int(files), revision: revision, folders: [:], rootFiles: [:], captured: captured)
        state.version = version
        state.last = members["last"].flatMap { body[$0].first == UInt8(ascii: "{") ? Array(body[$0]) : nil }
        state.folders.reserveCapacity(folderList.count)
        for (path, value) in folderList {
            guard TreeFiles.isSafe(path), let stamp = Stamp(json: value) else { return nil }
            state.folders[path] = stamp
        }
        // Anything but two offsets inside index.json is no record: the file is then read whole.
        if case .array(let range)? = top["fileList"], range.count == 2, case .int(let lower) = range[0], case .int(let upper) = range[1],
           0 <= lower, lower < upper, upper <= index.size {
            state.fileList = Int(lower)..<Int(upper)
        }
        // Likewise for the runs: anything else, and the list is cut.
        if state.fileList != nil, case .object(let runList)? = top["runs"] {
            state.runs.reserveCapacity(runList.count)
            for (key, value) in runList {
                // A top folder and its slash, or a file at DIR's root.
                let name = key.hasSuffix("/") ? String(key.dropLast()) : key
                guard TreeFiles.isSafe(name), !name.contains("/"), case .array(let r) = value, r.count == 3,
                      case .int(let lower) = r[0], case .int(let upper) = r[1], case .int(let count) = r[2],
                      0 <= lower, lower < upper, upper <= index.size, count > 0 else { state.runs = [:]; break }
                state.runs[key] = IndexFileRun.Recorded(range: Int(lower)..<Int(upper), count: Int(count))
            }
        }
        for (path, value) in rootList {
            guard TreeFiles.isSafe(path), !path.contains("/"), case .int(let size) = value, size >= 0 else { return nil }
            state.rootFiles[path] = Int(size)
        }
        return state
    }

    /// As JSON, written directly: a JSON value per folder made writing it a
    /// tenth of a publish after a change to one project.
    package var bytes: [UInt8] {
        // The check goes first, over the members after it: room is left for
        // it ({"check":"HEX"), and the members' own brace becomes its comma,
        // not copied again behind it (the state of a thousand projects is 4 MB).
        let room = 75
        var out = [UInt8](repeating: 32, count: room)
        out.reserveCapacity(room + 128 + 64 * (folders.count + rootFiles.count) + (last?.count ?? 0))
        func name(_ key: String) {
            out.append(out.count == room ? 123 : 44)
            JSON.quoteBytes(key, into: &out)
            out.append(58)
        }
        func numbers(_ values: Int64...) {
            out.append(91)
            for (i, value) in values.enumerated() {
                if i > 0 { out.append(44) }
                out.append(contentsOf: String(value).utf8)
            }
            out.append(93)
        }
        func stamp(_ s: Stamp) { numbers(Int64(bitPattern: s.inode), s.size, s.seconds, s.nanoseconds) }
        // Sorted, so the same state gives the same bytes (all are relctl's ASCII paths).
        func object<V>(_ members: [String: V], _ value: (V) -> Void) {
            out.append(123)
            for (i, (key, v)) in members.sorted(by: { $0.key < $1.key }).enumerated() {
                if i > 0 { out.append(44) }
                JSON.quoteBytes(key, into: &out)
                out.append(58)
                value(v)
            }
            out.append(125)
        }
        name("version"); out.append(contentsOf: String(TreeState.current).utf8)
        name("index"); stamp(index)
        name("files"); out.append(contentsOf: String(files).utf8)
        name("revision"); out.append(contentsOf: String(revision).utf8)
        name("captured"); stamp(captured)
        if let fileList { name("fileList"); numbers(Int64(fileList.lowerBound), Int64(fileList.upperBound)) }
        if !runs.isEmpty { name("runs"); object(runs) { numbers(Int64($0.range.lowerBound), Int64($0.range.upperBound), Int64($0.count)) } }
        name("folders"); object(folders, stamp)
        name("rootFiles"); object(rootFiles) { out.append(contentsOf: String($0).utf8) }
        if let last { name("last"); out.append(contentsOf: last) }
        out.append(125)
        let check = Array(#"{"check":""#.utf8) + Array(TreeState.checksum(out[room...]).utf8) + [34]
        out.replaceSubrange(0..<room, with: check)
        out[room] = 44
        return out
    }

    /// The JSON the state's bytes carry, when they carry its checksum first
    /// (`bytes`): `{"check":"DIGEST",` and the rest of that JSON.
    /// `version`: the state's version its check is of (2: `checksum`; 1: SHA-256, written by relctl before).
    package static func checked(_ bytes: [UInt8]) -> (body: [UInt8], version: Int64)? {
        let head = Array(#"{"check":""#.utf8), digest = head.count..<(head.count + 64)
        guard bytes.count > digest.upperBound + 2, bytes.starts(with: head),
              bytes[digest.upperBound] == UInt8(ascii: "\""), bytes[digest.upperBound + 1] == UInt8(ascii: ",") else { return nil }
        let body = [UInt8(ascii: "{")] + bytes[(digest.upperBound + 2)...]
        if checksum(body[...]).utf8.elementsEqual(bytes[digest]) { return (body, 2) }
        // A state the relctl before this one recorded still vouches for its tree (deploy and verify go by it).
        return SHA256.hex(body).utf8.elementsEqual(bytes[digest]) ? (body, 1) : nil
    }

    /// The state's own check, 64 hex digits: XXH64 of its bytes under four
    /// seeds. It tells a state changed by accident (edited by hand, torn,
    /// another relctl's); it is no defence against forgery, which it never
    /// was (whoever can write the state can write the files it vouches for).
    /// SHA-256, its check before (version 1), over the 430 KB state of the
    /// benchmark fleet was a third of a publish with nothing to do.
    package static func checksum(_ bytes: ArraySlice<UInt8>) -> String {
        (0..<4).map { seed -> String in
            let hex = String(XXH64.hash(bytes, seed: UInt64(seed)), radix: 16)
            return String(repeating: "0", count: 16 - hex.count) + hex
        }.joined()
    }

    /// What `checkFolders` found: the top folders (one per project) with a
    /// folder that is not as recorded (`changed`), and those with one
    /// recorded too close to the capture to vouch for its files (`unsure`:
    /// look at each file); and the folders found as recorded and old enough to vouch for.
    /// Such a folder's time is more than a tick before the check, so any
    /// change after the check gives it another time: a state recorded later
    /// may take its stamp as found rather than read it again.
    package struct FolderCheck {
        package var changed: Set<String> = [], unsure: Set<String> = []
        package var trusted: [String: Stamp] = [:]
        /// Each top folder none of whose folders changed or is unsure, with them all.
        package var projects: [String: [String: Stamp]] = [:]
        /// When the folders began to be looked at: a state that records
        /// them as found may say it captured them then.
        package var lookedAt = Stamp(inode: 0, size: 0, seconds: 0, nanoseconds: 0)
    }

    package func checkFolders(root: String) -> FolderCheck {
        var check = FolderCheck()
        var clock = timespec()
        clock_gettime(CLOCK_REALTIME, &clock)
        check.lookedAt = Stamp(inode: 0, size: 0, seconds: Int64(clock.tv_sec), nanoseconds: Int64(clock.tv_nsec))
        let trusted = vouchedBefore
        check.trusted.reserveCapacity(folders.count)
        // Each folder looked at from DIR, open once: the path to DIR is walked once, not a thousand times.
        let dir = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        defer { if dir >= 0 { close(dir) } }
        for (path, stamp) in folders {
            let top = path.utf8.firstIndex(of: slashByte).map { String(path[..<$0]) } ?? path
            if check.changed.contains(top) { continue }
            let found = dir >= 0 ? Stamp(at: dir, path, folder: true) : Stamp(root + "/" + path, folder: true)
            if found != stamp { check.changed.insert(top); continue }
            if stamp.instant < trusted { check.trusted[path] = stamp } else { check.unsure.insert(top) }
        }
        check.unsure.subtract(check.changed)
        for (path, stamp) in check.trusted {
            let top = path.utf8.firstIndex(of: slashByte).map { String(path[..<$0]) } ?? path
            if !check.changed.contains(top) && !check.unsure.contains(top) { check.projects[top, default: [:]][path] = stamp }
        }
        return check
    }

    /// Whether every file of the top folders `tops` is as index.json lists
    /// it, looked at as a publish that reads the whole index looks at a
    /// project whose folders it cannot vouch for (IncrementalPlan, with
    /// PreviousTree.isIntact): those are the folders written just before
    /// this state was captured (FolderCheck.unsure), so a publish right
    /// after another need not read all of index.json again. Only their runs
    /// are read, where this state recorded them in the index.json it names;
    /// false when it recorded none.
    package func filesHold(root: String, tops: Set<String>) -> Bool {
        if tops.isEmpty { return true }
        guard fileList != nil else { return false }
        let fd = open(root + "/index.json", O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        // Its ranges were bounded by this size when the state was read.
        guard Stamp(fd: fd) == index else { return false }
        let indexTime = timespec(tv_sec: Int(index.seconds), tv_nsec: Int(index.nanoseconds))
        var checked = Set<String>()
        for top in tops {
            let key = top + "/"
            guard let recorded = runs[key], recorded.range.upperBound <= index.size else { return false }
            // A read that fails is no record: the slow path reads the file whole.
            guard let bytes = FileSystem.readAt(fd: fd, recorded.range.lowerBound, count: recorded.range.count),
                  IndexFileRun.recorded(key: key, bytes: bytes[...], count: recorded.count).allIntact({
                      PreviousTree.isIntact($0, size: $1, root: root, indexTime: indexTime, checked: &checked)
                  }) else { return false }
        }
        return true
    }

    /// The time (in nanoseconds) before which a folder's time is old
    /// enough, against the state's capture, to show any later change (checkFolders).
    package var vouchedBefore: Int64 {
        // Sub-second folder times: the clock ticks in milliseconds; whole seconds: FAT-like, two.
        let tick: Int64 = folders.values.contains { $0.nanoseconds != 0 } ? 50_000_000 : 2_000_000_000
        return captured.instant - tick
    }

    /// Whether the files at DIR's root are as recorded: regular files of
    /// their size, not modified after index.json was written.
    package func rootFilesHold(root: String) -> Bool {
        rootFiles.allSatisfy { name, size in
            guard let file = Stamp(root + "/" + name) else { return false }
            return Int(file.size) == size && (file.seconds, file.nanoseconds) <= (index.seconds, index.nanoseconds)
        }
    }
}
