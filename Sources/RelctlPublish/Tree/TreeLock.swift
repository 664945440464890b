#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import RelctlCore

/// The first phase of writing a tree: DIR made if need be and locked (one
/// publish at a time; deploy takes the same lock), and what the last publish
/// left there found: the journal of one cut short, the state of one that
/// finished. The later phases are made from it, in order:
///
///     TreeLock → PreviousTree (the old index.json read)
///              → IncrementalPlan (pure: what to render, what to carry)
///              → Staging (files written beside their targets)
///              → CommittedTree (renamed into place; `finish` records the state)
///
/// The protocol itself (the journal, the flush, the order of renames) is
/// told in docs/publish.md.
public final class TreeLock {
    public let root: String
    package let dryRun: Bool
    /// DIR, open and flock'ed (-1 in a dry run): the lock, and what syncfs flushes (but for a few files: Staging.flushedOneByOne).
    package private(set) var fd: Int32 = -1
    /// Folders this lock made, in order, so a publish that fails can take them back.
    private var madeDirectories: [String] = []
    /// Paths named by the journal of a publish that did not finish.
    public let unfinished: Set<String>
    /// A journal was there: a publish was cut short after it began to stage,
    /// so temporaries may be left and the state file may not hold.
    public let interrupted: Bool
    /// The state the last complete publish recorded, when it still describes the tree's index.json.
    package let state: TreeState?
    /// The recorded folders being looked at on another core (`lookAtFolders`):
    /// 800 lstats (at the benchmark fleet) were a fifth of a publish with
    /// nothing to do.
    private var looking: Pending<TreeState.FolderCheck>?

    /// `lockWait`: how long to wait for another publish into the same DIR.
    /// `stopWaiting`: asked while waiting; true gives up at once (a watcher told to stop).
    public init(root: String, dryRun: Bool, lockWait: Double = 10, stopWaiting: () -> Bool = { false }) throws {
        let root = TreeLock.root(of: root)
        self.root = root
        self.dryRun = dryRun
        guard !root.isEmpty else { throw PublishError.usage("the publish directory is empty", hint: "give a path, like ./out") }
        var made: [String] = []
        do {
            switch FileSystem.kind(of: root) {
            case .missing:
                if !dryRun { try TreeLock.makeDirectories(root, made: &made) }
            case .directory:
                guard access(root, W_OK) == 0 || dryRun else {
                    throw PublishError("cannot write to \(root): permission denied", hint: "choose a writable directory or fix its permissions")
                }
            default:
                throw PublishError("\(root) exists and is not a directory", hint: "give a directory path to publish into")
            }
            if !dryRun { fd = try TreeLock.lock(root, wait: lockWait, stopWaiting: stopWaiting) }
        } catch {
            TreeLock.takeBack(made)
            throw error
        }
        madeDirectories = made
        let journal = root + "/" + TreeFiles.journalName
        interrupted = FileSystem.kind(of: journal, followLinks: false) != .missing
        unfinished = TreeFiles.readJournal(journal)
        state = interrupted ? nil : TreeState.read(root: root)
    }

    /// DIR as the lock names it: without one trailing slash.
    package static func root(of dir: String) -> String {
        dir.count > 1 && dir.hasSuffix("/") ? String(dir.dropLast()) : dir
    }

    deinit {
        if fd >= 0 { close(fd) }
    }

    /// Starts looking at the recorded folders on another core: a publish
    /// that goes by the state asks as soon as it has the lock, and the
    /// folders are looked at while it reads the database.
    package func lookAtFolders() {
        guard looking == nil, let state else { return }
        let root = self.root
        looking = Pending { state.checkFolders(root: root) }
    }

    /// The recorded folders as found (looked at now if no one asked before); nil without a state.
    package var foundFolders: TreeState.FolderCheck? {
        guard state != nil else { return nil }
        lookAtFolders()
        return looking?.value
    }

    /// Whether the tree is as its state records it: every folder as
    /// recorded, the files at DIR's root, no temporary left there (DIR's own
    /// time is not recorded: the state's rename moves it), and the files of
    /// a project whose folders are too recent to vouch for them each as
    /// index.json lists it (a publish with nothing to do; only those
    /// projects' part of index.json is read).
    package var asRecorded: Bool {
        guard let state, let check = foundFolders, check.changed.isEmpty, state.rootFilesHold(root: root),
              !TreeFiles.hasTemporaries(in: root) else { return false }
        return state.filesHold(root: root, tops: check.unsure)
    }

    /// After `asRecorded` looked at the files of folders too recent to
    /// vouch for: records the state again, as captured when the folders were
    /// looked at, once that is late enough to vouch for every folder, so the
    /// next publish need not look at those files. Not in a dry run.
    /// A state of an older version (its check SHA-256) is recorded again as
    /// it is, in the current one: its check costs a no-op publish more.
    package func recordAgain() {
        guard !dryRun, var state else { return }
        if state.version != TreeState.current {
            state.version = TreeState.current
            try? TreeFiles.replace(TreeState.name, in: root, with: state.bytes)
        }
        guard let check = foundFolders, !check.unsure.isEmpty, check.changed.isEmpty else { return }
        state.captured = check.lookedAt
        let trusted = state.vouchedBefore
        guard state.folders.values.allSatisfy({ $0.instant < trusted }) else { return }
        // Nothing depends on it being written (Staging.writeState).
        try? TreeFiles.replace(TreeState.name, in: root, with: state.bytes)
    }

    /// The second phase: the old index.json, read on another thread while
    /// this one runs `meanwhile`, which must not use this lock (after a
    /// change to one project, reading the index and the database were a
    /// third of the publish, one after the other on one core).
    /// `thorough`: trust no recorded state (folder times), and sweep every folder for temporaries.
    public func readPrevious<T>(thorough: Bool = false, meanwhile: () throws -> T) rethrows -> (PreviousTree, T) {
        let state = thorough ? nil : self.state
        // Only values go to the other thread.
        let root = self.root
        let reading = Pending { PreviousTree.read(root: root, state: state) }
        let result: T
        do { result = try meanwhile() } catch {
            _ = reading.value
            throw error
        }
        var previous = reading.value
        previous.state = state
        // A state that names another index.json file may still be about its bytes (a copy, a touch).
        // Thorough (--full) too: with -p, the projects kept keep their stamps (unvouched).
        previous.record = interrupted ? nil : state ?? TreeState.unchecked(root: root)
        previous.folderCheck = state == nil ? nil : foundFolders
        previous.interrupted = interrupted
        return (PreviousTree(previous, lock: self), result)
    }

    /// Takes back the folders this lock made (DIR and its missing parents),
    /// those that are empty: a publish that failed leaves no trace. After
    /// `Staging.abort`, which empties them of what it wrote.
    package func takeBack() {
        TreeLock.takeBack(madeDirectories)
        madeDirectories.removeAll()
    }

    private static func takeBack(_ made: [String]) {
        for dir in made.reversed() { rmdir(dir) }
    }

    /// Makes DIR and its missing parents (DIR or a parent may be a link: the user chose it).
    private static func makeDirectories(_ path: String, made: inout [String]) throws {
        var current = path.hasPrefix("/") ? "" : "."
        for part in path.split(separator: "/") {
            current += "/" + part
            switch FileSystem.kind(of: current) {
            case .directory: continue
            case .missing:
                CrashPoints.step()
                if mkdir(current, 0o755) == 0 {
                    made.append(current)
                } else if errno != EEXIST {
                    throw PublishError("cannot create \(current): \(String(cString: strerror(errno)))", hint: "check the path and the permissions of its parent")
                }
            default:
                throw PublishError("\(current) is in the way: it is not a directory", hint: "remove it")
            }
        }
    }

    /// One publish at a time per DIR: an flock on the folder itself, so no
    /// lock file is left to serve or to clean up, and a killed holder's lock
    /// goes with it.
    private static func lock(_ root: String, wait: Double, stopWaiting: () -> Bool) throws -> Int32 {
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
            if stopWaiting() {
                close(fd)
                throw PublishError("stopped while waiting for another relctl publish writing to \(root)", hint: "nothing was written")
            }
            usleep(50_000)
            waited += 0.05
        }
        return fd
    }
}
