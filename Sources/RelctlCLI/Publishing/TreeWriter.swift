#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import RelctlCore

// Glibc declares syncfs only under _GNU_SOURCE, which Swift's module map lacks.
@_silgen_name("syncfs") private func syncfs(_ fd: Int32) -> Int32

/// Writes a published tree so that a reader never sees half a file: changed
/// files are staged beside their targets, flushed, then renamed in one
/// sweep; unchanged files are not touched; files of the previous index that
/// no longer belong are removed. Nothing is written outside the root and no
/// symbolic link inside it is followed.
public final class TreeWriter {
    public enum Outcome { case added, changed, unchanged }

    public let root: String
    let dryRun: Bool
    static let tempMarker = ".relctl-tmp."
    private let pid = getpid()
    private var pending: [(temp: String, target: String)] = []
    private var createdDirectories: Set<String> = []
    /// Folders this publish made, in order, so a refused one can take them back.
    private var madeDirectories: [String] = []
    public private(set) var previousIndex: [String: (size: Int, sha256: String)] = [:]
    /// When the previous index.json was written: published files are older.
    private var indexTime: timespec?

    public init(root: String, dryRun: Bool) throws {
        self.root = root.count > 1 && root.hasSuffix("/") ? String(root.dropLast()) : root
        self.dryRun = dryRun
        switch FileSystem.kind(of: self.root) {
        case .missing:
            if !dryRun { try makeDirectories(self.root) }
        case .directory:
            guard access(self.root, W_OK) == 0 || dryRun else {
                throw RelctlError.failure("cannot write to \(self.root): permission denied", hint: "choose a writable directory or fix its permissions")
            }
            previousIndex = TreeWriter.readIndex(self.root + "/index.json")
            var st = stat()
            if lstat(self.root + "/index.json", &st) == 0 { indexTime = st.st_mtim }
        default:
            throw RelctlError.failure("\(self.root) exists and is not a directory", hint: "give a directory path to publish into")
        }
    }

    static func readIndex(_ path: String) -> [String: (size: Int, sha256: String)] {
        guard FileSystem.kind(of: path, followLinks: false) == .file, let bytes = try? FileSystem.readFile(path),
              let doc = try? JSONReader.parse(bytes), case .object(let top) = doc, case .object(let files)? = top["files"] else { return [:] }
        var out: [String: (size: Int, sha256: String)] = [:]
        for (path, entry) in files {
            if case .object(let e) = entry, case .int(let size)? = e["size"], case .string(let sha)? = e["sha256"] {
                out[path] = (Int(size), sha)
            }
        }
        return out
    }

    private func makeDirectories(_ path: String) throws {
        var current = path.hasPrefix("/") ? "" : "."
        for part in path.split(separator: "/") {
            current += "/" + part
            try makeDirectory(current)
        }
    }

    private func makeDirectory(_ path: String) throws {
        if createdDirectories.contains(path) { return }
        switch FileSystem.kind(of: path, followLinks: false) {
        case .directory: break
        case .missing:
            if mkdir(path, 0o755) == 0 {
                madeDirectories.append(path)
            } else if errno != EEXIST {
                throw RelctlError.failure("cannot create \(path): \(String(cString: strerror(errno)))", hint: "check the permissions of its parent")
            }
        case .symlink where !path.hasPrefix(root + "/"):
            break // DIR itself or a parent of it may be a link: the user chose it.
        case .symlink:
            throw RelctlError.failure("\(path) is a symbolic link; relctl does not write through links inside the publish directory", hint: "remove the link")
        default:
            throw RelctlError.failure("\(path) is in the way: it is not a directory", hint: "remove it")
        }
        createdDirectories.insert(path)
    }

    /// Validates a relative path: names only, no "..", no absolute paths.
    static func isSafe(_ relative: String) -> Bool {
        !relative.isEmpty && !relative.hasPrefix("/") && relative.split(separator: "/", omittingEmptySubsequences: false).allSatisfy {
            !$0.isEmpty && $0 != "." && $0 != ".." && !$0.hasPrefix(".")
        }
    }

    /// Stages one file; returns what will happen to it. `sha256` allows the
    /// quick check rsync makes: a file the previous index lists with the same
    /// size and hash, not modified since that index was written, is unchanged
    /// without reading it.
    public func stage(_ relative: String, _ bytes: [UInt8], sha256: String? = nil) throws -> Outcome {
        guard TreeWriter.isSafe(relative) else {
            throw RelctlError.failure("refusing to write '\(relative)': it would leave the publish directory")
        }
        let target = root + "/" + relative
        let parts = relative.split(separator: "/")
        var dir = root
        for part in parts.dropLast() {
            dir += "/" + part
            if dryRun {
                if FileSystem.kind(of: dir, followLinks: false) == .symlink {
                    throw RelctlError.failure("\(dir) is a symbolic link; relctl does not write through links inside the publish directory", hint: "remove the link")
                }
            } else {
                try makeDirectory(dir)
            }
        }
        var st = stat()
        let existing = FileSystem.kind(of: target, followLinks: false)
        if existing == .file, lstat(target, &st) == 0, Int(st.st_size) == bytes.count {
            if let sha256, let previous = previousIndex[relative], previous == (bytes.count, sha256), let indexTime,
               (st.st_mtim.tv_sec, st.st_mtim.tv_nsec) <= (indexTime.tv_sec, indexTime.tv_nsec) {
                return .unchanged
            }
            if (try? FileSystem.readFile(target)) == bytes { return .unchanged }
        }
        if existing == .directory {
            throw RelctlError.failure("\(target) is a directory where relctl publishes a file", hint: "remove it")
        }
        if dryRun { return existing == .missing ? .added : .changed }
        let temp = dir + "/" + TreeWriter.tempMarker + parts.last! + ".\(pid)"
        try TreeWriter.write(bytes, to: temp)
        pending.append((temp, target))
        return existing == .missing ? .added : .changed
    }

    static func write(_ bytes: [UInt8], to path: String) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0o644)
        guard fd >= 0 else {
            throw RelctlError.failure("cannot write \(path): \(String(cString: strerror(errno)))", hint: "check the directory's permissions and free space")
        }
        defer { close(fd) }
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                let reason = String(cString: strerror(errno))
                unlink(path)
                throw RelctlError.failure("cannot write \(path): \(reason)", hint: "check free space")
            }
            offset += n
        }
    }

    /// Flushes every staged file, then renames them into place.
    public func commit() throws {
        guard !dryRun, !pending.isEmpty else { return }
        // One syncfs instead of an fsync per file: staged data reaches the
        // disk before any rename can expose it.
        let fd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if fd >= 0 { _ = syncfs(fd); close(fd) }
        for (temp, target) in pending {
            guard rename(temp, target) == 0 else {
                throw RelctlError.failure("cannot replace \(target): \(String(cString: strerror(errno)))")
            }
        }
        pending.removeAll()
    }

    /// Drops staged files after a failure: the tree stays as it was.
    public func abort() {
        for (temp, _) in pending { unlink(temp) }
        pending.removeAll()
        for dir in madeDirectories.reversed() { rmdir(dir) }
        madeDirectories.removeAll()
    }

    /// Removes a file relctl published before, and folders it leaves empty.
    public func remove(_ relative: String) {
        guard TreeWriter.isSafe(relative), !dryRun else { return }
        // Never through a link: the old index names the path, not where it leads now.
        var dir = root
        for part in relative.split(separator: "/").dropLast() {
            dir += "/" + part
            guard FileSystem.kind(of: dir, followLinks: false) == .directory else { return }
        }
        let target = root + "/" + relative
        guard FileSystem.kind(of: target, followLinks: false) == .file else { return }
        unlink(target)
        var parts = relative.split(separator: "/").dropLast()
        while !parts.isEmpty {
            if rmdir(root + "/" + parts.joined(separator: "/")) != 0 { break }
            parts = parts.dropLast()
        }
    }

    /// Leftovers of a publish that was killed before its renames.
    public func removeStaleTemporaries(under relative: String) {
        guard !dryRun else { return }
        let dirPath = root + "/" + relative
        guard let dir = opendir(dirPath) else { return }
        defer { closedir(dir) }
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name == "." || name == ".." { continue }
            let path = dirPath + "/" + name
            if name.hasPrefix(TreeWriter.tempMarker) {
                // Another publish that is still running owns its temporaries.
                let owner = name.split(separator: ".").last.flatMap { Int32($0) } ?? 0
                if owner == pid || owner <= 0 || kill(owner, 0) != 0 { unlink(path) }
                continue
            }
            if FileSystem.kind(of: path, followLinks: false) == .directory { removeStaleTemporaries(under: relative + "/" + name) }
        }
    }
}
