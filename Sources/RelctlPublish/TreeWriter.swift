#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import RelctlCore
import Synchronization

// Glibc declares syncfs only under _GNU_SOURCE, which Swift's module map lacks.
@_silgen_name("syncfs") private func syncfs(_ fd: Int32) -> Int32

/// Writes a published tree so that a reader never sees half a file and a
/// publish killed at any instant is completed by the next one:
///
/// 1. under an exclusive lock on DIR (flock: a second publish waits, then refuses),
/// 2. changed files are staged beside their targets under exclusive,
///    unpredictable temporary names (`.relctl-tmp.NAME.<16 hex>`); a folder
///    that does not exist yet is made whole under such a name, its files
///    written in it as they will be named (one rename then puts them all in place),
/// 3. a journal (`DIR/.relctl-journal`), first written naming nothing
///    before the first temporary, is replaced by one naming every path the
///    publish will rename into place or remove, then one syncfs flushes all,
/// 4. folders and files are renamed into place, index.json last,
/// 5. files that no longer belong are removed (`commit`); then (`finish`)
///    leftover temporaries swept (when a journal was found: only a publish
///    cut short leaves them), the tree's state recorded (TreeState), and the
///    journal removed last.
///
/// A later publish reads a journal it finds: the paths it names that the new
/// index does not claim are removed, so nothing is left behind whatever step
/// was interrupted. Unchanged files are not touched; nothing is written
/// outside the root and no symbolic link inside it is followed.
public final class TreeWriter {
    public enum Outcome { case added, changed, unchanged }

    public let root: String
    package let dryRun: Bool
    package static let tempMarker = ".relctl-tmp."
    package static let journalName = ".relctl-journal"
    private var lockFD: Int32 = -1
    private var flusher: Flusher?
    private let background = BackgroundWriter(threads: min(4, max(2, ParallelRender.cores)), synchronous: CrashPoints.enabled)
    private var pending: [(temp: String, target: String, relative: String)] = []
    /// Where this publish writes each folder's files, by the folder's path:
    /// the folder itself when it exists, else its place in a staging folder.
    private var places: [String: String] = [:]
    /// Folders that did not exist, made under a temporary name beside their target.
    private var stagedFolders: [(temp: String, target: String)] = []
    /// The files written in them, by their path under DIR.
    private var stagedFiles: [String] = []
    /// The folders this publish put in place: nothing of an earlier publish is in them.
    private var freshFolders: Set<String> = []
    /// Folders this publish made, in order, so a refused one can take them back.
    private var madeDirectories: [String] = []
    /// The old index's file list in runs (a project's folder, a root file), by key.
    public private(set) var previousRuns: [String: IndexFileRun] = [:]
    /// The entries of the old runs this publish does not keep whole (`settlePrevious`):
    /// what its staged files are compared with, and what it removes when they are not written again.
    public private(set) var previousIndex: [String: (size: Int, sha256: String)] = [:]
    /// The old index.json, when this relctl's kind wrote it: what each project's files were published from.
    public private(set) var previous: PublishedIndex?
    /// Paths named by the journal of a publish that did not finish.
    public private(set) var unfinished: Set<String> = []
    /// A journal was there: a publish was cut short after it began to stage,
    /// so temporaries may be left and the state file may not hold.
    public private(set) var interrupted = false
    /// The state the last complete publish recorded, when it still describes the tree's index.json.
    package private(set) var state: TreeState?
    /// This publish wrote the journal's first form, before its first temporary or folder.
    private var marked = false
    /// The journal now names this publish's renames: from here an abort leaves it for the next publish.
    private var committing = false
    /// The recorded folders as found for `readPrevious`: the state `finish`
    /// records takes over those of the projects the publish left alone.
    private var folderCheck: TreeState.FolderCheck?
    /// The recorded folders being looked at on another core (`lookAtFolders`):
    /// 800 lstats (at the benchmark fleet) were a fifth of a publish with
    /// nothing to do.
    private var looking: Pending<TreeState.FolderCheck>?
    /// When the previous index.json was written: published files are older.
    private var indexTime: timespec?
    /// The old index.json as read, and its stamp then: the new one is compared with it, not read again.
    private var previousIndexFile: (stamp: TreeState.Stamp, bytes: [UInt8])?
    /// The old index.json read is the one the state names: the folders it
    /// records for a project are those of the project's files there.
    private var statesIndex = false

    /// `lockWait`: how long to wait for another publish into the same DIR.
    public init(root: String, dryRun: Bool, lockWait: Double = 10) throws {
        self.root = root.count > 1 && root.hasSuffix("/") ? String(root.dropLast()) : root
        self.dryRun = dryRun
        guard !self.root.isEmpty else { throw PublishError.usage("the publish directory is empty", hint: "give a path, like ./out") }
        switch FileSystem.kind(of: self.root) {
        case .missing:
            if dryRun { return }
            do { try makeDirectories(self.root) } catch {
                takeBackDirectories()
                throw error
            }
        case .directory:
            guard access(self.root, W_OK) == 0 || dryRun else {
                throw PublishError("cannot write to \(self.root): permission denied", hint: "choose a writable directory or fix its permissions")
            }
        default:
            throw PublishError("\(self.root) exists and is not a directory", hint: "give a directory path to publish into")
        }
        if !dryRun {
            do { try lock(wait: lockWait) } catch {
                takeBackDirectories()
                throw error
            }
        }
        let journal = self.root + "/" + TreeWriter.journalName
        interrupted = FileSystem.kind(of: journal, followLinks: false) != .missing
        unfinished = TreeWriter.readJournal(journal)
        state = interrupted ? nil : TreeState.read(root: self.root)
    }

    /// Starts looking at the recorded folders on another core: a publish
    /// that goes by the state asks as soon as it has the writer, and the
    /// folders are looked at while it reads the database.
    package func lookAtFolders() {
        guard looking == nil, let state else { return }
        let root = self.root
        looking = Pending { state.checkFolders(root: root) }
    }

    /// The recorded folders as found (looked at now if no one asked before); nil without a state.
    private var foundFolders: TreeState.FolderCheck? {
        guard state != nil else { return nil }
        lookAtFolders()
        return looking?.value
    }

    /// The old index.json, read and parsed once: what the tree writer needs of
    /// its files, and the publish of its projects (`previous`, `previousRuns`),
    /// and the recorded folders checked (`folders`). A publish with nothing
    /// to do never reads it.
    /// The index is read on another thread while this one runs `meanwhile`
    /// (and the folders are looked at), which must not use this writer: after a change
    /// to one project, reading the index and the database were a third of
    /// the publish, one after the other on one core.
    /// `thorough`: trust no recorded state (folder times), and sweep every folder for temporaries.
    public func readPrevious<T>(thorough: Bool = false, meanwhile: () throws -> T) rethrows -> T {
        if thorough { state = nil }
        // Only values go to the other thread; what it read is taken here once it is done.
        let (root, state) = (self.root, self.state)
        let reading = Pending { TreeWriter.previous(root: root, state: state) }
        defer {
            let read = reading.value
            (previous, previousRuns, previousIndexFile, statesIndex, indexTime) = (read.index, read.runs, read.file, read.statesIndex, read.time)
            folderCheck = foundFolders
        }
        return try meanwhile()
    }

    /// What the old index.json gives a publish (`readPrevious`).
    private struct Previous {
        package var index: PublishedIndex?
        package var runs: [String: IndexFileRun] = [:]
        package var file: (stamp: TreeState.Stamp, bytes: [UInt8])?
        package var statesIndex = false
        package var time: timespec?
    }

    private static func previous(root: String, state: TreeState?) -> Previous {
        var read = Previous()
        let indexPath = root + "/index.json"
        // Never through a link, and a FIFO put there does not hold the publish up.
        let fd = open(indexPath, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        if fd >= 0, TreeState.Stamp(fd: fd) != nil, let bytes = try? FileSystem.readAll(fd: fd, name: indexPath), let stamp = TreeState.Stamp(fd: fd) {
            read.file = (stamp, bytes)
            // Entries are copied as they are, and runs taken where the state recorded them,
            // only from the index.json the tree's state names, still that file once read: this relctl wrote it.
            read.statesIndex = state != nil && stamp == state?.index
            let recorded = read.statesIndex ? state?.fileList.map { ($0, state!.runs) } : nil
            read.index = IndexFormat.parse(bytes, files: .runs, recorded: recorded)
            if !read.statesIndex { read.index?.verbatim = [:] }
            // Its runs move here; an index the parser refuses still names files to replace or remove.
            read.runs = read.index?.carried ?? IndexFormat.runs(of: TreeWriter.readIndex(bytes))
            read.index?.carried = [:]
        }
        if fd >= 0 { close(fd) }
        var st = stat()
        if lstat(indexPath, &st) == 0 { read.time = st.st_mtim }
        return read
    }

    /// Reads the entries of every old run but those with the keys in `kept`
    /// into `previousIndex`: called once, before the first file is staged.
    public func settlePrevious(keeping kept: Set<String>) {
        previousIndex = [:]
        for (key, run) in previousRuns where !kept.contains(key) {
            for entry in run.entries() { previousIndex[entry.path] = (entry.size, entry.sha256) }
        }
    }

    /// The top folders (one per project) not as the recorded state has
    /// them, and those too recent to vouch for their files (TreeState.checkFolders),
    /// as found for `readPrevious`; nil without a state.
    package var folders: (changed: Set<String>, unsure: Set<String>)? { folderCheck.map { ($0.changed, $0.unsure) } }

    /// Whether the tree is as its state records it: every folder as
    /// recorded and old enough to vouch for its files, and the files at
    /// DIR's root (a publish with nothing to do; no index.json is read).
    package var asRecorded: Bool {
        guard let state, let check = foundFolders else { return false }
        return check.changed.isEmpty && check.unsure.isEmpty && state.rootFilesHold(root: root)
    }

    deinit {
        try? background.finish()
        flusher?.wait()
        if lockFD >= 0 { close(lockFD) }
    }

    /// Starts flushing what is staged so far, in the background, unless a
    /// flush is still running: the disk writes while the rest renders, and
    /// the flush before the renames finds little left (it was a sixth of a
    /// full publish's time). The commit still flushes before any rename, and
    /// refuses when a background flush failed.
    package func flushAhead() {
        guard !dryRun, marked || interrupted, lockFD >= 0 else { return }
        if flusher == nil { flusher = Flusher(fd: lockFD) }
        flusher?.start()
    }

    /// One publish at a time per DIR: an flock on the folder itself, so no
    /// lock file is left to serve or to clean up, and a killed holder's lock
    /// goes with it.
    private func lock(wait: Double) throws {
        let fd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else {
            throw PublishError("cannot open \(root): \(String(cString: strerror(errno)))", hint: "check its permissions")
        }
        var waited = 0.0
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR, waited < wait else {
                close(fd)
                throw PublishError("another relctl publish is writing to \(root)",
                                          hint: "wait until it has finished, then publish again")
            }
            usleep(50_000)
            waited += 0.05
        }
        lockFD = fd
    }

    package static func readIndex(_ bytes: [UInt8]) -> [String: (size: Int, sha256: String)] {
        guard let doc = try? JSONReader.parse(bytes), case .object(let top) = doc, case .object(let files)? = top["files"] else { return [:] }
        var out: [String: (size: Int, sha256: String)] = [:]
        // An entry naming a path outside DIR was never relctl's: not a file to remove or count.
        for (path, entry) in files where isSafe(path) {
            if case .object(let e) = entry, case .int(let size)? = e["size"], case .string(let sha)? = e["sha256"] {
                out[path] = (Int(size), sha)
            }
        }
        return out
    }

    package static func readJournal(_ path: String) -> Set<String> {
        guard FileSystem.kind(of: path, followLinks: false) == .file, let bytes = try? FileSystem.readFile(path),
              let doc = try? JSONReader.parse(bytes), case .object(let top) = doc, case .array(let paths)? = top["paths"] else { return [] }
        return Set(paths.compactMap { if case .string(let p) = $0, isSafe(p) { return p } else { return nil } })
    }

    /// Makes DIR and its missing parents (DIR or a parent may be a link: the user chose it).
    private func makeDirectories(_ path: String) throws {
        var current = path.hasPrefix("/") ? "" : "."
        for part in path.split(separator: "/") {
            current += "/" + part
            switch FileSystem.kind(of: current) {
            case .directory: continue
            case .missing:
                CrashPoints.step()
                if mkdir(current, 0o755) == 0 {
                    madeDirectories.append(current)
                } else if errno != EEXIST {
                    throw PublishError("cannot create \(current): \(String(cString: strerror(errno)))", hint: "check the path and the permissions of its parent")
                }
            default:
                throw PublishError("\(current) is in the way: it is not a directory", hint: "remove it")
            }
        }
    }

    private func takeBackDirectories() {
        for dir in madeDirectories.reversed() { rmdir(dir) }
        madeDirectories.removeAll()
    }

    /// Validates a relative path: names only, no "..", no absolute paths (PublishedPath.isSafe).
    package static func isSafe(_ relative: String) -> Bool {
        var relative = relative
        return relative.withUTF8 { PublishedPath.isSafe($0) }
    }

    /// `.relctl-tmp.NAME.` and 16 hex digits: the only names the sweep removes.
    package static func isTemporaryName(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard name.hasPrefix(tempMarker), bytes.count > tempMarker.utf8.count + 17, bytes[bytes.count - 17] == UInt8(ascii: ".") else { return false }
        return bytes.suffix(16).allSatisfy { ($0 >= 48 && $0 <= 57) || ($0 >= 97 && $0 <= 102) }
    }

    /// Stages one file; returns what will happen to it. `sha256` allows the
    /// quick check rsync makes: a file the previous index lists with the same
    /// size, not modified since that index was written, is unchanged without
    /// reading it when the hashes agree, and (the state vouching for the
    /// index) changed when they differ; index.json is compared with the old
    /// one as read, while its stamp still holds. A file of a new folder is written in
    /// the background (BackgroundWriter); index.json, staged last, after them all.
    public func stage(_ relative: String, _ bytes: [UInt8], sha256: String? = nil) throws -> Outcome {
        do { return try stageFile(relative, bytes, sha256: sha256) } catch {
            // A file staged before this one, written in the background, that failed is named
            // first: on a disk that filled up, its failure came first in the publish's order.
            try background.finish()
            throw error
        }
    }

    private func stageFile(_ relative: String, _ bytes: [UInt8], sha256: String?) throws -> Outcome {
        guard TreeWriter.isSafe(relative) else {
            throw PublishError("refusing to write '\(relative)': it would leave the publish directory")
        }
        let target = root + "/" + relative
        let slash = relative.utf8.lastIndex(of: slashByte)
        let dir = slash.map { root + "/" + relative[..<$0] } ?? root
        let name = slash.map { String(relative[relative.index(after: $0)...]) } ?? relative
        if dryRun {
            var walked = root
            for part in relative.split(separator: "/").dropLast() {
                walked += "/" + part
                if FileSystem.kind(of: walked, followLinks: false) == .symlink {
                    throw PublishError("\(walked) is a symbolic link; relctl does not write through links inside the publish directory", hint: "remove the link")
                }
            }
        } else {
            let place = try self.place(dir)
            if place != dir {
                // A folder that was not there: nothing to compare, and nobody
                // reads it before its rename, so the file is written as it is
                // named, in the background.
                try background.write(bytes, at: place + "/" + name, naming: dir + "/" + name)
                stagedFiles.append(relative)
                return .added
            }
        }
        var st = stat()
        let existing: FileSystem.Kind = lstat(target, &st) != 0 ? .missing
            : (st.st_mode & S_IFMT) == S_IFREG ? .file : (st.st_mode & S_IFMT) == S_IFDIR ? .directory : .other
        if existing == .file, Int(st.st_size) == bytes.count, relative == "index.json", let old = previousIndexFile,
           TreeState.Stamp(st) == old.stamp {
            // The old index.json, still as this publish read it.
            if old.bytes == bytes { return .unchanged }
        } else if existing == .file, Int(st.st_size) == bytes.count {
            // As the old index lists it (not modified since): its digest tells, with no read
            // when the tree's state vouches for the index (no hand edit put a wrong digest in).
            if let sha256, let previous = previousIndex[relative], previous.size == bytes.count, let indexTime,
               (st.st_mtim.tv_sec, st.st_mtim.tv_nsec) <= (indexTime.tv_sec, indexTime.tv_nsec) {
                if previous.sha256 == sha256 { return .unchanged }
                if state == nil, (try? FileSystem.readFile(target)) == bytes { return .unchanged }
            } else if (try? FileSystem.readFile(target)) == bytes {
                return .unchanged
            }
        }
        if existing == .directory {
            throw PublishError("\(target) is a directory where relctl publishes a file", hint: "remove it")
        }
        if dryRun { return existing == .missing ? .added : .changed }
        // Published files are never newer than index.json, staged last (isIntact trusts that).
        if relative == "index.json" { try background.finish() }
        try markStaging()
        let temp = try TreeWriter.writeTemporary(bytes, in: dir, for: name)
        pending.append((temp, target, relative))
        return existing == .missing ? .added : .changed
    }

    /// Where the files of folder `dir` are written (see `places`), made or
    /// checked once a publish; most files share theirs with the one before.
    private func place(_ dir: String) throws -> String {
        if dir == root { return root }
        if let place = places[dir] { return place }
        let slash = dir.utf8.lastIndex(of: slashByte)!
        let parent = String(dir[..<slash]), name = String(dir[dir.index(after: slash)...])
        let parentPlace = try place(parent)
        let place: String
        if parentPlace != parent {
            place = parentPlace + "/" + name
            CrashPoints.step()
            guard mkdir(place, 0o755) == 0 else {
                throw PublishError("cannot create \(dir): \(String(cString: strerror(errno)))", hint: "check free space and the permissions of \(parent)")
            }
        } else {
            switch FileSystem.kind(of: dir, followLinks: false) {
            case .directory:
                place = dir
            case .missing:
                try markStaging()
                place = try TreeWriter.makeStagingFolder(in: parent, for: name)
                stagedFolders.append((place, dir))
            case .symlink:
                throw PublishError("\(dir) is a symbolic link; relctl does not write through links inside the publish directory", hint: "remove the link")
            default:
                throw PublishError("\(dir) is in the way: it is not a directory", hint: "remove it")
            }
        }
        places[dir] = place
        return place
    }

    /// Writes the journal, naming nothing yet, before the first folder or
    /// temporary this publish makes: a journal found at the start is what
    /// tells the next publish to sweep for temporaries, so a publish that
    /// finds none need not read every folder. (A journal of a publish cut
    /// short stays as it is: this publish's commit replaces it.)
    private func markStaging() throws {
        guard !marked, !interrupted else { return }
        marked = true
        CrashPoints.step()
        try TreeWriter.replace(TreeWriter.journalName, in: root, with: JSON.object(["paths": .array([])]).compactBytes())
    }

    /// Replaces the file `name` in `dir` whole, through a temporary of its
    /// own (exclusive, unpredictable) renamed over it: a fixed name opened
    /// for writing would follow a hard link planted there and overwrite a
    /// file outside DIR. A temporary a kill leaves at DIR's root is swept by
    /// the next publish (`finish`).
    package static func replace(_ name: String, in dir: String, with bytes: [UInt8]) throws {
        let temp = try writeTemporary(bytes, in: dir, for: name)
        CrashPoints.step()
        guard rename(temp, dir + "/" + name) == 0 else {
            let reason = errno
            unlink(temp)
            throw PublishError("cannot write \(dir)/\(name): \(String(cString: strerror(reason)))", hint: "check the directory's permissions and free space")
        }
    }

    /// `.relctl-tmp.NAME.` and 16 random hex digits: unpredictable, and what the sweep recognises.
    package static func temporaryName(for name: String) -> String {
        let random = String(UInt64.random(in: .min ... .max), radix: 16)
        return tempMarker + name + "." + String(repeating: "0", count: 16 - random.count) + random
    }

    /// Creates a new file beside `name` that no one else can have made or
    /// pointed elsewhere (O_EXCL, O_NOFOLLOW, a random name) and writes it whole.
    package static func writeTemporary(_ bytes: [UInt8], in dir: String, for name: String) throws -> String {
        try freshName(in: dir, for: name) { try writeNew(bytes, at: $0, naming: dir + "/" + name, taken: true) }
    }

    /// The first of 8 temporary names beside `name` that `make` could create (false: taken).
    package static func freshName(in dir: String, for name: String, _ make: (String) throws -> Bool) throws -> String {
        for _ in 0..<8 {
            let path = dir + "/" + temporaryName(for: name)
            if try make(path) { return path }
        }
        throw PublishError("cannot write \(dir)/\(name): no free temporary name after 8 tries", hint: "remove the .relctl-tmp.* entries in \(dir)")
    }

    /// Creates the file `path`, which must not exist (O_EXCL, never through a
    /// link), and writes it whole; `naming` is the file the user knows it as.
    /// With `taken`, a path already there returns false instead of failing.
    @discardableResult
    package static func writeNew(_ bytes: [UInt8], at path: String, naming: String, taken: Bool = false) throws -> Bool {
        CrashPoints.step()
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        if fd < 0 && errno == EEXIST && taken { return false }
        guard fd >= 0 else {
            throw PublishError("cannot write \(naming): \(String(cString: strerror(errno)))", hint: "check the directory's permissions and free space")
        }
        func fail(_ reason: Int32) -> PublishError {
            unlink(path)
            return PublishError("cannot write \(naming): \(String(cString: strerror(reason)))", hint: "check free space")
        }
        var offset = 0
        // In two halves under a crash-point test, so that a kill can tear a file.
        var halfway = CrashPoints.enabled && bytes.count > 1
        while offset < bytes.count {
            let end = halfway ? bytes.count / 2 : bytes.count
            let n = bytes[offset..<end].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                let reason = errno
                close(fd)
                throw fail(reason)
            }
            offset += n
            if halfway && offset == end { halfway = false; CrashPoints.step() }
        }
        // NFS and some FUSE systems report a failed write only at close.
        if close(fd) != 0 { throw fail(errno) }
        return true
    }

    /// Makes a folder under a temporary name beside `name`, for a folder that is not there yet.
    package static func makeStagingFolder(in parent: String, for name: String) throws -> String {
        try freshName(in: parent, for: name) { path in
            CrashPoints.step()
            if mkdir(path, 0o755) == 0 { return true }
            guard errno == EEXIST else {
                throw PublishError("cannot create \(parent)/\(name): \(String(cString: strerror(errno)))", hint: "check free space and the permissions of \(parent)")
            }
            return false
        }
    }

    /// Flushes every staged file, renames them into place in order (index.json
    /// is staged last), removes the files of `stale` that are still there, and
    /// returns those it removed. A journal covers every step from the first
    /// rename to the last removal; `finish` removes it.
    public func commit(removing stale: [String]) throws -> [String] {
        let stale = stale.filter { TreeWriter.isSafe($0) && $0 != "index.json" }
        if dryRun { return stale.filter(isPublishedFile) }
        // Every staged file written, or the publish aborts as if the write had failed in place.
        try background.finish()
        let journal = root + "/" + TreeWriter.journalName
        if !pending.isEmpty || !stagedFolders.isEmpty || !stale.isEmpty {
            committing = true
            let paths = Set(pending.map(\.relative)).union(stagedFiles).union(stale).subtracting(["index.json"]).sorted()
            let doc = JSON.object(["paths": .array(paths.map { .string($0) })])
            let temp = try TreeWriter.writeTemporary(doc.compactBytes(), in: root, for: TreeWriter.journalName)
            pending.insert((temp, journal, TreeWriter.journalName), at: 0)
            // One syncfs instead of an fsync per file: staged data and the
            // journal reach the disk before any rename can expose them.
            CrashPoints.step()
            let failed = flusher?.wait() ?? 0
            if failed != 0 || syncfs(lockFD) != 0 {
                let reason = failed != 0 ? failed : errno
                throw PublishError("cannot flush the files written to \(root): \(String(cString: strerror(reason)))", hint: "check the disk; nothing was replaced")
            }
            // The journal, then the new folders, then the files, index.json last.
            let renames = pending.prefix(1).map { ($0.temp, $0.target) } + stagedFolders.map { ($0.temp, $0.target) }
                + pending.dropFirst().map { ($0.temp, $0.target) }
            for (temp, target) in renames {
                CrashPoints.step()
                guard rename(temp, target) == 0 else {
                    throw PublishError("cannot replace \(target): \(String(cString: strerror(errno)))")
                }
            }
            freshFolders = Set(stagedFolders.map(\.target))
            // Published files are never newer than index.json (what isIntact trusts): when
            // files were written and index.json came out the same (a file put back as it
            // was), its time moves on with them.
            if !pending.contains(where: { $0.relative == "index.json" }) && (pending.count > 1 || !stagedFiles.isEmpty) {
                CrashPoints.step()
                utimensat(AT_FDCWD, root + "/index.json", nil, AT_SYMLINK_NOFOLLOW)
            }
            pending.removeAll()
            stagedFolders.removeAll()
        }
        return stale.filter(remove)
    }

    /// The last step of a publish, after `commit`: sweeps what a publish cut
    /// short left, records the tree's state (of the tree `index`, the new
    /// index.json, lists), or, not `vouched` for, removes it, and removes the
    /// journal. `fileList`, `runs`: where index.json holds its file list and
    /// each run of it (IndexFormat.located), for the state; `last`: what
    /// the publish said and rests on (LastPublish), for the next one.
    public func finish(index: PublishedIndex, fileList: Range<Int>? = nil, runs: IndexFormat.RunRanges = [:], last: [UInt8]? = nil, vouched: Bool) {
        if dryRun { return }
        let journal = root + "/" + TreeWriter.journalName
        // Temporaries are left only by a publish cut short, which leaves its
        // journal; without a recorded state, the tree may be older than that rule.
        // The files of DIR's root are replaced outside the journal (its own first
        // form, the state): a kill leaves their temporaries there, so the root is swept always.
        sweepTemporaries(under: "", recursive: interrupted || state == nil)
        // A state vouches for every project in the tree: not after a publish
        // that kept a project it did not find current (-p keeps the others as they are).
        var known = folderCheck
        if !statesIndex { known?.projects = [:] }
        var now = vouched ? TreeState.capture(root: root, index: index, fileList: fileList, runs: runs, known: known) : nil
        now?.last = last
        if now != state { writeState(now) }
        if FileSystem.kind(of: journal, followLinks: false) == .file {
            CrashPoints.step()
            unlink(journal)
        }
    }

    /// Replaces the state file, or removes it when the tree could not be read.
    private func writeState(_ state: TreeState?) {
        let path = root + "/" + TreeState.name
        guard let state else {
            if FileSystem.kind(of: path, followLinks: false) == .file { unlink(path) }
            return
        }
        // Nothing depends on it being written (or surviving a power cut): a
        // state that does not name the index.json found next time is ignored.
        try? TreeWriter.replace(TreeState.name, in: root, with: state.bytes)
    }

    /// Whether a file the old index lists is still as published: a regular
    /// file of that size, reached without a link, not modified since the
    /// index was written. One lstat per file (and per folder): what lets a
    /// publish leave a current project alone without reading its files.
    public func isIntact(_ relative: String, size: Int) -> Bool {
        guard let indexTime else { return false }
        let parts = relative.split(separator: "/")
        var dir = root
        for part in parts.dropLast() {
            dir += "/" + part
            if checkedDirectories.contains(dir) { continue }
            guard FileSystem.kind(of: dir, followLinks: false) == .directory else { return false }
            checkedDirectories.insert(dir)
        }
        var st = stat()
        guard lstat(root + "/" + relative, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG, Int(st.st_size) == size else { return false }
        return (st.st_mtim.tv_sec, st.st_mtim.tv_nsec) <= (indexTime.tv_sec, indexTime.tv_nsec)
    }
    private var checkedDirectories: Set<String> = []

    /// A regular file at `relative`, reached without following a link.
    private func isPublishedFile(_ relative: String) -> Bool {
        var dir = root
        for part in relative.split(separator: "/").dropLast() {
            dir += "/" + part
            guard FileSystem.kind(of: dir, followLinks: false) == .directory else { return false }
        }
        return FileSystem.kind(of: root + "/" + relative, followLinks: false) == .file
    }

    /// Drops staged files after a failure: the tree stays as it was, or, if
    /// renames had begun, as the journal lets the next publish complete it.
    public func abort() {
        try? background.finish()
        flusher?.wait()
        for (temp, _, _) in pending { unlink(temp) }
        pending.removeAll()
        for (temp, _) in stagedFolders { removeTree(temp) }
        stagedFolders.removeAll()
        // The journal first: DIR, when this publish made it, goes only empty.
        if marked && !committing { unlink(root + "/" + TreeWriter.journalName) }
        takeBackDirectories()
    }

    /// Removes a file relctl published before, and folders it leaves empty.
    package func remove(_ relative: String) -> Bool {
        // Never through a link: the old index names the path, not where it leads now.
        let removed = isPublishedFile(relative) && { CrashPoints.step(); return unlink(root + "/" + relative) == 0 }()
        // Also when the file is already gone: a publish killed between its
        // unlink and these rmdirs leaves the folders to this one.
        var parts = relative.split(separator: "/").dropLast()
        // Only folders reached without a link: an empty folder outside DIR is not ours.
        var walked = root
        for part in parts {
            walked += "/" + part
            guard FileSystem.kind(of: walked, followLinks: false) == .directory else { return removed }
        }
        while !parts.isEmpty {
            let dir = root + "/" + parts.joined(separator: "/")
            guard isEmptyDirectory(dir) else { break }
            CrashPoints.step()
            if rmdir(dir) != 0 { break }
            parts = parts.dropLast()
        }
        return removed
    }

    private func isEmptyDirectory(_ path: String) -> Bool {
        guard let dir = opendir(path) else { return false }
        defer { closedir(dir) }
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name != "." && name != ".." { return false }
        }
        return true
    }

    /// Removes a staging folder and all it holds, through descriptors opened
    /// without following links: a folder swapped for a link meanwhile is left,
    /// and nothing outside it is touched.
    private func removeTree(_ path: String) {
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else { return }
        TreeWriter.emptyFolder(fd)
        CrashPoints.step()
        rmdir(path)
    }

    /// Removes everything in the folder open at `fd`, and closes it.
    private static func emptyFolder(_ fd: Int32) {
        guard let dir = fdopendir(fd) else { close(fd); return }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name != "." && name != ".." { names.append(name) }
        }
        for name in names {
            var st = stat()
            guard fstatat(fd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 else { continue }
            if (st.st_mode & S_IFMT) == S_IFDIR {
                let inner = openat(fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
                if inner >= 0 { emptyFolder(inner) }
                CrashPoints.step()
                unlinkat(fd, name, AT_REMOVEDIR)
            } else {
                CrashPoints.step()
                unlinkat(fd, name, 0)
            }
        }
    }

    /// Temporaries a killed publish left (under the lock, no other publish
    /// owns any), and folders they leave empty: regular files and staging
    /// folders (with all they hold) whose name matches the pattern; never a
    /// link, nothing else, and not the folders this publish made.
    private func sweepTemporaries(under relative: String, recursive: Bool = true) {
        let dirPath = relative.isEmpty ? root : root + "/" + relative
        guard let dir = opendir(dirPath) else { return }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name != "." && name != ".." { names.append(name) }
        }
        closedir(dir)
        var swept = false
        for name in names {
            let path = dirPath + "/" + name
            switch FileSystem.kind(of: path, followLinks: false) {
            case .file where TreeWriter.isTemporaryName(name):
                CrashPoints.step()
                unlink(path)
                swept = true
            case .directory where TreeWriter.isTemporaryName(name):
                removeTree(path)
                swept = true
            case .directory where recursive && !freshFolders.contains(path):
                sweepTemporaries(under: relative.isEmpty ? name : relative + "/" + name)
            default: break
            }
        }
        if swept, !relative.isEmpty, isEmptyDirectory(dirPath) {
            CrashPoints.step()
            rmdir(dirPath)
        }
    }
}

/// One background syncfs at a time on the publish directory's file system.
private final class Flusher: Sendable {
    package let fd: Int32
    package let running = Atomic<Bool>(false)
    /// The errno of the first background flush that failed. syncfs reports a
    /// write error once per open file, so the flush before the renames would
    /// not see an error one of these took.
    package let failure = Atomic<Int32>(0)
    package let done = DispatchGroup()
    /// A thread of its own (a serial queue's): a flush waits on the disk, and
    /// the shared pool has a thread per core for rendering.
    package let queue = DispatchQueue(label: "relctl.flush")

    package init(fd: Int32) { self.fd = fd }

    package func start() {
        guard running.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged else { return }
        done.enter()
        queue.async {
            if syncfs(self.fd) != 0 { _ = self.failure.compareExchange(expected: 0, desired: errno, ordering: .relaxed) }
            self.running.store(false, ordering: .releasing)
            self.done.leave()
        }
    }

    /// Waits for the flush running, if any; the errno of a flush that failed, else 0.
    @discardableResult
    package func wait() -> Int32 {
        done.wait()
        return failure.load(ordering: .relaxed)
    }
}

