#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import RelctlCore

/// The second phase of writing a tree (TreeLock.readPrevious): the old
/// index.json, read and parsed once, and the recorded folders as found.
/// What each project's files were published from (`index`), the old file
/// list in runs (`runs`), and what tells a file still as published
/// (`isIntact`). A publish with nothing to do never reads it.
public final class PreviousTree {
    /// What reading the tree found, before it is frozen into a PreviousTree.
    package struct Found {
        package var root: String
        package var index: PublishedIndex?
        package var runs: [String: IndexFileRun] = [:]
        /// The old index.json as read, and its stamp then: the new one is compared with it, not read again.
        package var file: (stamp: TreeState.Stamp, bytes: [UInt8])?
        /// The old index.json read is the one the state names: the folders it
        /// records for a project are those of the project's files there.
        package var statesIndex = false
        /// When the previous index.json was written: published files are older.
        package var indexTime: timespec?
        package var state: TreeState?
        /// The state as recorded, whichever index.json it names.
        package var record: TreeState?
        package var folderCheck: TreeState.FolderCheck?
        package var interrupted = false
        /// Who wrote index.json (none there: unknown).
        package var author = IndexFormat.Author.unknown
    }

    public let root: String
    /// The lock it was read under: the staging made from it writes under the same one.
    package let lock: TreeLock
    /// The old index.json, when this relctl's kind wrote it: what each project's files were published from.
    public let index: PublishedIndex?
    /// The old index's file list in runs (a project's folder, a root file), by key.
    public let runs: [String: IndexFileRun]
    package let file: (stamp: TreeState.Stamp, bytes: [UInt8])?
    package let statesIndex: Bool
    package let indexTime: timespec?
    /// The state this publish trusts: the lock's, or none for a thorough one.
    package let state: TreeState?
    /// The state as recorded, whichever index.json it names (LastPublish.indexSha256 tells).
    package let record: TreeState?
    /// The recorded folders as found; the state the commit records takes
    /// over those of the projects the publish left alone.
    package let folderCheck: TreeState.FolderCheck?
    /// A publish was cut short (TreeLock.interrupted).
    package let interrupted: Bool
    /// Who wrote index.json: the files a relctl's lists are relctl's to replace.
    package let author: IndexFormat.Author
    /// DIR's state (its checksum holding), whichever index.json it names and
    /// whether or not a publish was cut short since: relctl published here, the files at DIR's root and the folders it names.
    private lazy var stateFound: TreeState? = record ?? TreeState.unchecked(root: root)
    private var checkedDirectories: Set<String> = []

    package init(_ found: Found, lock: TreeLock) {
        self.lock = lock
        root = found.root
        index = found.index
        runs = found.runs
        file = found.file
        statesIndex = found.statesIndex
        indexTime = found.indexTime
        state = found.state
        record = found.record
        folderCheck = found.folderCheck
        interrupted = found.interrupted
        author = found.author
    }

    /// The old index, when this relctl (`generator`) wrote it and no publish
    /// was cut short since: the records a project's files may be kept by.
    /// What each project was published from is the state's record, not
    /// index.json's (which names no database): a project the state has no
    /// stamps of, or does not vouch for, is rendered.
    package func reusable(generator: String, unfinished: Set<String>) -> PublishedIndex? {
        guard var index, index.generator == generator, unfinished.isEmpty else { return nil }
        // The state is about this index.json when it names its file, or (copied, touched) its bytes.
        let recorded = record?.last.flatMap(LastPublish.init(bytes:))
        let last = statesIndex || (recorded?.indexSha256 != nil && recorded?.indexSha256 == file.map { SHA256.hex($0.bytes) }) ? recorded : nil
        index.revision = last != nil ? record?.revision ?? 0 : 0
        index.edits = last?.edits ?? 0
        for slug in index.projects.keys {
            index.projects[slug]!.revision = last?.projects[slug]?.revision
            index.projects[slug]!.edits = last?.projects[slug]?.edits
            index.projects[slug]!.vouched = last?.projects[slug]?.vouched ?? false
        }
        return index
    }

    /// The top folders (one per project) not as the recorded state has
    /// them, and those too recent to vouch for their files (TreeState.checkFolders);
    /// nil without a state.
    package var folders: (changed: Set<String>, unsure: Set<String>)? { folderCheck.map { ($0.changed, $0.unsure) } }

    /// Whether relctl may replace what is at `relative` (a path it is about
    /// to write, where something is): a file relctl published, as a relctl's
    /// index.json lists it (`listed`) or an unfinished publish's journal names
    /// it. In a DIR holding relctl's state and no index.json anyone can be
    /// told the author of (removed, cut short, not JSON), nothing says which
    /// files relctl wrote: a file at DIR's root the state records, or in a
    /// folder it records, is taken as relctl's. Anything else is someone else's.
    package func mayReplace(_ relative: String, listed: Bool) -> Bool {
        if listed || lock.unfinished.contains(relative) { return true }
        guard author == .unknown, let state = stateFound else { return false }
        guard let slash = relative.utf8.lastIndex(of: slashByte) else { return state.rootFiles[relative] != nil }
        return state.folders[String(relative[..<slash])] != nil
    }

    /// Refuses a DIR whose index.json someone else wrote (a suite's), or,
    /// without relctl's state, one whose index.json nobody can be told the
    /// author of; and, when `pages`, whose index.html relctl may not replace
    /// (whatever its bytes), before anything is staged: a site's page, the
    /// usual case, is found before a fleet is.
    package func refuseForeign(pages: Bool) throws {
        let index = root + "/index.json"
        if author == .other || (author == .unknown && FileSystem.kind(of: index, followLinks: false) != .missing && stateFound == nil) {
            throw PublishError("\(index) is not an index relctl wrote, and relctl does not replace it",
                               hint: "publish into an empty folder or one only relctl publishes into")
        }
        let page = "index.html"
        if pages, FileSystem.kind(of: root + "/" + page, followLinks: false) != .missing,
           !mayReplace(page, listed: author == .relctl && runs[page]?.contains(page) ?? false) {
            throw PreviousTree.foreign(root + "/" + page)
        }
    }

    package static func foreign(_ path: String) -> PublishError {
        PublishError("\(path) is not a file relctl published, and relctl does not replace it",
                     hint: "publish into an empty folder or one only relctl publishes into, or move the file away for relctl to write its own")
    }

    /// Whether a file the old index lists is still as published: a regular
    /// file of that size, reached without a link, not modified since the
    /// index was written. One lstat per file (and per folder): what lets a
    /// publish leave a current project alone without reading its files.
    public func isIntact(_ relative: String, size: Int) -> Bool {
        guard let indexTime else { return false }
        return PreviousTree.isIntact(relative, size: size, root: root, indexTime: indexTime, checked: &checkedDirectories)
    }

    /// The same for a tree at `root` whose index.json was written at
    /// `indexTime`; `checked`: the folders already found to be folders.
    package static func isIntact(_ relative: String, size: Int, root: String, indexTime: timespec, checked: inout Set<String>) -> Bool {
        let parts = relative.split(separator: "/")
        var dir = root
        for part in parts.dropLast() {
            dir += "/" + part
            if checked.contains(dir) { continue }
            guard FileSystem.kind(of: dir, followLinks: false) == .directory else { return false }
            checked.insert(dir)
        }
        var st = stat()
        guard lstat(root + "/" + relative, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG, Int(st.st_size) == size else { return false }
        return (st.st_mtim.tv_sec, st.st_mtim.tv_nsec) <= (indexTime.tv_sec, indexTime.tv_nsec)
    }

    /// Reads DIR/index.json (on the thread TreeLock.readPrevious gives it).
    package static func read(root: String, state: TreeState?) -> Found {
        var read = Found(root: root)
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
            read.author = IndexFormat.author(of: bytes, parsed: read.index)
            // Its runs move here; an index the parser refuses still names files to replace or remove.
            read.runs = read.index?.carried ?? IndexFormat.runs(of: TreeFiles.readIndex(bytes))
            read.index?.carried = [:]
        }
        if fd >= 0 { close(fd) }
        var st = stat()
        if lstat(indexPath, &st) == 0 { read.indexTime = st.st_mtim }
        return read
    }
}
