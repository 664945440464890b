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

/// The fourth phase of writing a tree: changed files staged beside their
/// targets under exclusive, unpredictable temporary names
/// (`.relctl-tmp.NAME.<16 hex>`); a folder that does not exist yet is made
/// whole under such a name, its files written in it as they will be named
/// (one rename then puts them all in place). Before the first temporary, a
/// journal (`DIR/.relctl-journal`) naming nothing is written: a publish
/// that finds one knows to sweep. `commit` ends the phase.
public final class Staging {
    public enum Outcome { case added, changed, unchanged }

    public let lock: TreeLock
    package let previous: PreviousTree
    /// What the files staged are compared with (IncrementalPlan.replaced).
    private let replaced: [String: (size: Int, sha256: String)]
    private var flusher: Flusher?
    /// A file kept because its bytes, read, were the new ones: written by
    /// someone else, it may not be on the disk yet, which only syncfs sees to.
    private var keptByReading = false
    private let background = BackgroundWriter(threads: min(4, max(2, ParallelRender.cores)), synchronous: CrashPoints.enabled)
    private var pending: [(temp: String, target: String, relative: String)] = []
    /// Where this publish writes each folder's files, by the folder's path:
    /// the folder itself when it exists, else its place in a staging folder.
    private var places: [String: String] = [:]
    /// Folders that did not exist, made under a temporary name beside their target.
    private var stagedFolders: [(temp: String, target: String)] = []
    /// The files written in them, by their path under DIR.
    private var stagedFiles = PathList()
    /// This publish wrote the journal's first form, before its first temporary or folder.
    private var marked = false
    /// The journal now names this publish's renames: from here an abort leaves it for the next publish.
    private var committing = false
    /// Committed or aborted: nothing more may be staged.
    private var ended = false

    package init(previous: PreviousTree, plan: IncrementalPlan) {
        lock = previous.lock
        self.previous = previous
        replaced = plan.replaced
    }

    deinit {
        try? background.finish()
        flusher?.wait()
    }

    private var root: String { lock.root }

    /// Stages one file; returns what will happen to it. `sha256` allows the
    /// quick check rsync makes: a file the previous index lists with the same
    /// size, not modified since that index was written, is unchanged without
    /// reading it when the hashes agree, and (the state vouching for the
    /// index) changed when they differ. A file of a new folder is written in
    /// the background (BackgroundWriter). index.json is staged by `stageIndex`.
    public func stage(_ relative: String, _ bytes: [UInt8], sha256: String? = nil) throws -> Outcome {
        precondition(!ended, "a file staged after the commit or an abort")
        do { return try stageFile(relative, bytes, sha256: sha256) } catch {
            // A file staged before this one, written in the background, that failed is named
            // first: on a disk that filled up, its failure came first in the publish's order.
            try background.finish()
            throw error
        }
    }

    private func stageFile(_ relative: String, _ bytes: [UInt8], sha256: String?) throws -> Outcome {
        precondition(relative != "index.json", "index.json staged as a file (stageIndex stages it)")
        guard TreeFiles.isSafe(relative) else {
            throw PublishError("refusing to write '\(relative)': it would leave the publish directory")
        }
        let target = root + "/" + relative
        let slash = relative.utf8.lastIndex(of: slashByte)
        let dir = slash.map { root + "/" + relative[..<$0] } ?? root
        let name = slash.map { String(relative[relative.index(after: $0)...]) } ?? relative
        if lock.dryRun {
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
        let existing = lstat(target, &st) != 0 ? FileSystem.Kind.missing : FileSystem.Kind(mode: st.st_mode)
        if existing == .file, Int(st.st_size) == bytes.count {
            // As the old index lists it (not modified since): its digest tells, with no read
            // when the tree's state vouches for the index (no hand edit put a wrong digest in).
            if let sha256, let listed = replaced[relative], listed.size == bytes.count, let indexTime = previous.indexTime,
               (st.st_mtim.tv_sec, st.st_mtim.tv_nsec) <= (indexTime.tv_sec, indexTime.tv_nsec) {
                if listed.sha256 == sha256 { return .unchanged }
                if previous.state == nil, (try? FileSystem.readFile(target)) == bytes { keptByReading = true; return .unchanged }
            } else if (try? FileSystem.readFile(target)) == bytes {
                // Put there by someone else (a restored copy): maybe not on the disk yet.
                keptByReading = true
                return .unchanged
            }
        }
        if existing == .directory {
            throw PublishError("\(target) is a directory where relctl publishes a file", hint: "remove it")
        }
        // Someone else's file (a site's page, a suite's file) is never written over.
        if existing != .missing && !previous.mayReplace(relative, listed: replaced[relative] != nil) { throw PreviousTree.foreign(target) }
        if lock.dryRun { return existing == .missing ? .added : .changed }
        try markStaging()
        let temp = try TreeFiles.writeTemporary(bytes, in: dir, for: name)
        pending.append((temp, target, relative))
        return existing == .missing ? .added : .changed
    }

    /// Stages index.json, last, as `make` hands it over a piece at a time
    /// (IndexFormat.write), never whole in memory, compared as it comes with
    /// the one there (the old index as this publish read it, while its stamp
    /// holds, else the file read back). Its temporary is made at the first
    /// piece that differs, the part that matched written first from the old
    /// bytes, so an index that comes out the same writes nothing, as before;
    /// one compared with the file on the disk is written as it comes.
    /// Returns what will happen to it, and what `make` returned.
    public func stageIndex<Made>(_ make: (_ send: @escaping (ArraySlice<UInt8>) -> Void) throws -> Made) throws -> (outcome: Outcome, made: Made) {
        precondition(!ended, "a file staged after the commit or an abort")
        do { return try stageIndexFile(make) } catch {
            try background.finish()
            throw error
        }
    }

    private func stageIndexFile<Made>(_ make: (_ send: @escaping (ArraySlice<UInt8>) -> Void) throws -> Made) throws -> (outcome: Outcome, made: Made) {
        let target = root + "/index.json"
        var st = stat()
        let existing = lstat(target, &st) != 0 ? FileSystem.Kind.missing : FileSystem.Kind(mode: st.st_mode)
        if existing == .directory {
            throw PublishError("\(target) is a directory where relctl publishes a file", hint: "remove it")
        }
        let old = existing != .file ? SameBytes()
            : previous.file.flatMap { TreeState.Stamp(st) == $0.stamp ? SameBytes(bytes: $0.bytes) : nil } ?? SameBytes(file: target)
        // Published files are never newer than index.json, staged last (isIntact trusts that).
        if !lock.dryRun { try background.finish() }
        var file: TreeFiles.NewFile?, failure: Error?
        // The journal first, then the temporary, with what matched so far.
        func begin(sent: Int) {
            guard !lock.dryRun, file == nil, failure == nil else { return }
            do {
                try markStaging()
                file = try TreeFiles.NewFile.temporary(in: root, for: "index.json", naming: target)
                file?.append(old.matched(sent))
            } catch { failure = error }
        }
        if !old.keepsOld { begin(sent: 0) }
        var sent = 0
        let made: Made
        do {
            made = try make { piece in
                old.compare(piece)
                if !old.mayBeSame { begin(sent: sent) }
                file?.append(piece)
                sent += piece.count
            }
        } catch {
            file?.discard()
            throw error
        }
        // All it made matched the start of a longer old one.
        if !old.isSame { begin(sent: sent) }
        if let failure {
            file?.discard()
            throw failure
        }
        if old.isSame {
            // Put there by someone else (a restored copy), the file read may not be on the disk yet.
            if old.wasRead { keptByReading = true }
            file?.discard()
            return (.unchanged, made)
        }
        let outcome: Outcome = existing == .missing ? .added : .changed
        guard let file else { return (outcome, made) }
        try file.finish()
        pending.append((file.path, target, "index.json"))
        return (outcome, made)
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
                place = try TreeFiles.makeStagingFolder(in: parent, for: name)
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
        guard !marked, !lock.interrupted else { return }
        marked = true
        CrashPoints.step()
        try TreeFiles.replace(TreeFiles.journalName, in: root, with: Staging.journal(PathList()))
    }

    /// Starts flushing what is staged so far, in the background, unless a
    /// flush is still running: the disk writes while the rest renders, and
    /// the flush before the renames finds little left (it was a sixth of a
    /// full publish's time). The commit still flushes before any rename, and
    /// refuses when a background flush failed.
    package func flushAhead() {
        guard !lock.dryRun, marked || lock.interrupted, lock.fd >= 0, !flushesOneByOne else { return }
        if flusher == nil { flusher = Flusher(fd: lock.fd) }
        flusher?.start()
    }

    /// At most this many files (the journal among them), all written into
    /// folders already there: each is flushed on its own (fdatasync) rather
    /// than the whole file system (syncfs), which also waits for every other
    /// writer's data on that disk: a publish after a change to one project
    /// waited for the 100 MB another process had just written. New folders
    /// are flushed by syncfs, their entries with them; so is a tree a publish
    /// was cut short in, or that has no state, or where a file was kept by
    /// reading it (keptByReading).
    static let flushedOneByOne = 64

    private var flushesOneByOne: Bool {
        stagedFolders.isEmpty && stagedFiles.isEmpty && pending.count <= Staging.flushedOneByOne
            && !keptByReading && !lock.interrupted && previous.state != nil
    }

    /// Flushes each of our temporaries at `paths` to the disk: 0, else the errno of the first that failed.
    private static func flushEach(_ paths: [String]) -> Int32 {
        for path in paths {
            // Never through a link, never held up by a FIFO put in its place.
            let fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
            guard fd >= 0 else { return errno }
            var st = stat()
            let synced = fstat(fd, &st) != 0 ? errno : (st.st_mode & S_IFMT) != S_IFREG ? EINVAL : fdatasync(fd) == 0 ? 0 : errno
            close(fd)
            if synced != 0 { return synced }
        }
        return 0
    }

    /// The journal listing `staged` and `others`, each once, sorted, but
    /// index.json: the bytes `JSON.object(["paths": …]).compactBytes()` gives,
    /// written straight in. A first publish of a thousand projects lists
    /// 108,000 paths (4 MB), which as JSON values grown by doubling held 6 MB more.
    static func journal(_ staged: PathList, adding others: [String] = []) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(staged.utf8Count + 2 * staged.count + others.reduce(16) { $0 + $1.utf8.count + 3 })
        out.append(contentsOf: #"{"paths":["#.utf8)
        staged.appendSortedJSON(adding: others, except: "index.json", to: &out)
        out.append(contentsOf: "]}\n".utf8)
        return out
    }

    /// The last step of staging and the fifth phase: flushes every staged
    /// file, renames them into place in order (index.json is staged last),
    /// and removes the files of `stale` that are still there. A journal
    /// naming every path it renames or removes covers every step from the
    /// first rename to the last removal; `CommittedTree.finish` removes it.
    public func commit(removing stale: [String]) throws -> CommittedTree {
        precondition(!ended, "a commit after the commit or an abort")
        let stale = stale.filter { TreeFiles.isSafe($0) && $0 != "index.json" }
        if lock.dryRun {
            ended = true
            return CommittedTree(lock: lock, previous: previous, fresh: [], removed: stale.filter { TreeFiles.isPublishedFile($0, in: root) })
        }
        // Every staged file written, or the publish aborts as if the write had failed in place.
        try background.finish()
        let journal = root + "/" + TreeFiles.journalName
        var fresh: Set<String> = []
        if !pending.isEmpty || !stagedFolders.isEmpty || !stale.isEmpty {
            committing = true
            // And what the journal of a publish cut short named: a file of it this publish found
            // as wanted is in none of its lists, and a kill before index.json would leave it named nowhere.
            let carried = lock.interrupted ? Array(lock.unfinished) : []
            let temp = try TreeFiles.writeTemporary(Staging.journal(stagedFiles, adding: pending.map(\.relative) + stale + carried), in: root, for: TreeFiles.journalName)
            pending.insert((temp, journal, TreeFiles.journalName), at: 0)
            // Staged data and the journal reach the disk before any rename can expose them:
            // one syncfs instead of an fsync per file, but for a few files (flushedOneByOne).
            CrashPoints.step()
            var failed = flusher?.wait() ?? 0
            if failed == 0 { failed = flushesOneByOne ? Staging.flushEach(pending.map(\.temp)) : syncfs(lock.fd) == 0 ? 0 : errno }
            if failed != 0 {
                throw PublishError("cannot flush the files written to \(root): \(String(cString: strerror(failed)))", hint: "check the disk; nothing was replaced")
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
            fresh = Set(stagedFolders.map(\.target))
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
        ended = true
        let dir = root
        return CommittedTree(lock: lock, previous: previous, fresh: fresh, removed: stale.filter { TreeFiles.remove($0, in: dir) })
    }

    /// Drops staged files after a failure: the tree stays as it was, or, if
    /// renames had begun, as the journal lets the next publish complete it.
    /// (The folders the lock made go with `TreeLock.takeBack`.)
    public func abort() {
        ended = true
        try? background.finish()
        flusher?.wait()
        for (temp, _, _) in pending { unlink(temp) }
        pending.removeAll()
        for (temp, _) in stagedFolders { TreeFiles.removeTree(temp) }
        stagedFolders.removeAll()
        // The journal first: DIR, when this publish made it, goes only empty.
        if marked && !committing { unlink(root + "/" + TreeFiles.journalName) }
        guard !lock.dryRun, !committing else { return }
        // A journal left naming nothing: the publish cut short renamed nothing (but maybe
        // index.json, which no journal names), so what it left is only temporaries. They go
        // now, with it, not at the next publish that gets as far as its commit: in a folder
        // of someone else's (refused) there may never be one. Else those at DIR's root (a
        // kill's, before any journal: the runs' spill file), as a commit sweeps them.
        let journal = root + "/" + TreeFiles.journalName
        let swept = lock.interrupted && lock.unfinished.isEmpty && FileSystem.kind(of: journal, followLinks: false) == .file
        TreeFiles.sweepTemporaries(in: root, under: "", recursive: swept, sparing: [], emptied: false)
        if swept { unlink(journal) }
    }
}

/// The tree in place: the last phase records its state and ends the journal,
/// once (`finish` consumes it).
public struct CommittedTree: ~Copyable {
    package let lock: TreeLock
    package let previous: PreviousTree
    /// The folders this publish put in place: nothing of an earlier publish is in them.
    package let fresh: Set<String>
    /// The stale files removed.
    public let removed: [String]

    /// Sweeps what a publish cut short left, records the tree's state (of
    /// the tree `index`, the new index.json, lists), and removes the journal.
    /// The state vouches for a project by its stamps (LastPublish): one kept
    /// without being found current is marked so, and is rendered next time. `fileList`, `runs`: where
    /// index.json holds its file list and each run of it
    /// (IndexFormat.located), for the state; `last`: what the publish said
    /// and rests on (LastPublish), for the next one.
    public consuming func finish(index: PublishedIndex, fileList: Range<Int>? = nil, runs: IndexFormat.RunRanges = [:], last: [UInt8]? = nil) {
        if lock.dryRun { return }
        let root = lock.root
        let journal = root + "/" + TreeFiles.journalName
        // Temporaries are left only by a publish cut short, which leaves its
        // journal; without a recorded state, the tree may be older than that rule.
        // The files of DIR's root are replaced outside the journal (its own first
        // form, the state): a kill leaves their temporaries there, so the root is swept always.
        TreeFiles.sweepTemporaries(in: root, under: "", recursive: lock.interrupted || previous.state == nil, sparing: fresh)
        var known = previous.folderCheck
        if !previous.statesIndex { known?.projects = [:] }
        var now = TreeState.capture(root: root, index: index, fileList: fileList, runs: runs, known: known)
        now?.last = last
        if now != previous.state { writeState(now, root: root) }
        if FileSystem.kind(of: journal, followLinks: false) == .file {
            CrashPoints.step()
            unlink(journal)
        }
    }

    /// Replaces the state file, or removes it when the tree could not be read.
    private func writeState(_ state: TreeState?, root: String) {
        let path = root + "/" + TreeState.name
        guard let state else {
            if FileSystem.kind(of: path, followLinks: false) == .file { unlink(path) }
            return
        }
        // Nothing depends on it being written (or surviving a power cut): a
        // state that does not name the index.json found next time is ignored.
        try? TreeFiles.replace(TreeState.name, in: root, with: state.bytes)
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
