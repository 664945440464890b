#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import RelctlCore

/// The file operations every phase of writing a tree shares: names that are
/// safe to write, temporaries that no one else can have made, and removals
/// that never follow a link out of DIR.
public enum TreeFiles {
    package static let tempMarker = ".relctl-tmp."
    package static let journalName = ".relctl-journal"

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

    /// `.relctl-tmp.NAME.` and 16 random hex digits: unpredictable, and what the sweep recognises.
    package static func temporaryName(for name: String) -> String {
        let random = String(UInt64.random(in: .min ... .max), radix: 16)
        return tempMarker + name + "." + String(repeating: "0", count: 16 - random.count) + random
    }

    /// Replaces the file `name` in `dir` whole, through a temporary of its
    /// own (exclusive, unpredictable) renamed over it: a fixed name opened
    /// for writing would follow a hard link planted there and overwrite a
    /// file outside DIR. A temporary a kill leaves at DIR's root is swept by
    /// the next publish (`CommittedTree.finish`).
    package static func replace(_ name: String, in dir: String, with bytes: [UInt8]) throws {
        let temp = try writeTemporary(bytes, in: dir, for: name)
        CrashPoints.step()
        guard rename(temp, dir + "/" + name) == 0 else {
            let reason = errno
            unlink(temp)
            throw PublishError("cannot write \(dir)/\(name): \(String(cString: strerror(reason)))", hint: "check the directory's permissions and free space")
        }
    }

    /// Creates a new file beside `name` that no one else can have made or
    /// pointed elsewhere (O_EXCL, O_NOFOLLOW, a random name) and writes it whole.
    package static func writeTemporary(_ bytes: [UInt8], in dir: String, for name: String) throws -> String {
        let file = try NewFile.temporary(in: dir, for: name, naming: dir + "/" + name)
        file.append(bytes[...])
        try file.finish()
        return file.path
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
    package static func writeNew(_ bytes: [UInt8], at path: String, naming: String) throws {
        guard let file = try NewFile(at: path, naming: naming) else { preconditionFailure("a NewFile is nil only when taken is allowed") }
        file.append(bytes[...])
        try file.finish()
    }

    /// A file made where nothing was (O_EXCL, never through a link) and
    /// written a piece at a time: index.json is written as it is made.
    package final class NewFile {
        package let path: String
        private let naming: String
        private let fd: Int32
        /// The errno of the first write that failed: the rest are not tried, and `finish` reports it.
        private var failure: Int32 = 0
        /// Closed once only: a second close could close a descriptor another thread has opened since.
        private var closed = false
        /// Whether a write failed: `finish` then throws, having removed the file.
        package var failed: Bool { failure != 0 }
        // Under a crash-point test the first piece is written in two halves, so that a kill can tear a file.
        private var halfway = CrashPoints.enabled

        /// A new file under the first free temporary name beside `name` in
        /// `dir` (freshName); `naming`: the file the user knows it as.
        package static func temporary(in dir: String, for name: String, naming: String) throws -> NewFile {
            var made: NewFile?
            _ = try freshName(in: dir, for: name) { path in
                made = try NewFile(at: path, naming: naming, taken: true)
                return made != nil
            }
            guard let made else { preconditionFailure("freshName returned a name it did not make") }
            return made
        }

        /// Nil, with `taken`, when `path` is there already.
        package init?(at path: String, naming: String, taken: Bool = false) throws {
            CrashPoints.step()
            let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
            if fd < 0 && errno == EEXIST && taken { return nil }
            guard fd >= 0 else {
                throw PublishError("cannot write \(naming): \(String(cString: strerror(errno)))", hint: "check the directory's permissions and free space")
            }
            (self.path, self.naming, self.fd) = (path, naming, fd)
        }

        package func append(_ bytes: ArraySlice<UInt8>) {
            var offset = bytes.startIndex
            let half = halfway && bytes.count > 1 ? bytes.startIndex + bytes.count / 2 : nil
            while !closed && failure == 0 && offset < bytes.endIndex {
                let end = half.map { offset < $0 ? $0 : bytes.endIndex } ?? bytes.endIndex
                let n = bytes[offset..<end].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
                if n < 0 {
                    if errno != EINTR { failure = errno }
                    continue
                }
                offset += n
                if halfway && offset == half { halfway = false; CrashPoints.step() }
            }
        }

        /// Closes it, or removes it and throws when a write failed. (NFS and
        /// some FUSE systems report a failed write only at close.)
        package func finish() throws {
            if !closed && close(fd) != 0 && failure == 0 { failure = errno }
            closed = true
            guard failure == 0 else {
                unlink(path)
                throw PublishError("cannot write \(naming): \(String(cString: strerror(failure)))", hint: "check free space")
            }
        }

        /// Marks it as being written (`removeAbandonedTemporaries` passes it over): a
        /// lock the kernel lets go of when the writer ends, however it ends.
        package func holdLock() { _ = flock(fd, LOCK_EX | LOCK_NB) }

        /// Closes and removes it: not wanted after all.
        package func discard() {
            if !closed { close(fd) }
            closed = true
            unlink(path)
        }
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

    /// The file list of an index.json this relctl's parser refuses: it still
    /// names files to replace or remove.
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

    /// The paths a journal names (`DIR/.relctl-journal`), or none.
    package static func readJournal(_ path: String) -> Set<String> {
        guard FileSystem.kind(of: path, followLinks: false) == .file, let bytes = try? FileSystem.readFile(path),
              let doc = try? JSONReader.parse(bytes), case .object(let top) = doc, case .array(let paths)? = top["paths"] else { return [] }
        return Set(paths.compactMap { if case .string(let p) = $0, isSafe(p) { return p } else { return nil } })
    }

    /// A regular file at `relative` under `root`, reached without following a link.
    package static func isPublishedFile(_ relative: String, in root: String) -> Bool {
        var dir = root
        for part in relative.split(separator: "/").dropLast() {
            dir += "/" + part
            guard FileSystem.kind(of: dir, followLinks: false) == .directory else { return false }
        }
        return FileSystem.kind(of: root + "/" + relative, followLinks: false) == .file
    }

    /// Removes a file relctl published before, and folders it leaves empty.
    package static func remove(_ relative: String, in root: String) -> Bool {
        // Never through a link: the old index names the path, not where it leads now.
        let removed = isPublishedFile(relative, in: root) && { CrashPoints.step(); return unlink(root + "/" + relative) == 0 }()
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

    package static func isEmptyDirectory(_ path: String) -> Bool {
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
    package static func removeTree(_ path: String) {
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else { return }
        emptyFolder(fd)
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

    /// Removes the temporaries of `name` in `dir` that a writer killed
    /// before its rename left (`FileSystem.writeFile` of an export: a fleet's
    /// is hundreds of megabytes): regular files of exactly that pattern,
    /// locked by no writer (`NewFile.holdLock`) and untouched for a minute,
    /// so one another export is making, or has just closed, is left.
    package static func removeAbandonedTemporaries(of name: String, in dir: String, now: Int = time(nil)) {
        let prefix = tempMarker + name + "."
        guard let handle = opendir(dir) else { return }
        defer { closedir(handle) }
        while let entry = readdir(handle) {
            let entry = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard entry.hasPrefix(prefix), entry.utf8.count == prefix.utf8.count + 16, isTemporaryName(entry) else { continue }
            let path = dir + "/" + entry
            let fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
            guard fd >= 0 else { continue }
            defer { close(fd) }
            var st = stat()
            #if canImport(Darwin)
            let touched = fstat(fd, &st) == 0 ? st.st_mtimespec.tv_sec : now
            #else
            let touched = fstat(fd, &st) == 0 ? st.st_mtim.tv_sec : now
            #endif
            // Shared: it conflicts with the writer's lock as well, and NFS takes it on a descriptor open for reading.
            guard st.st_mode & S_IFMT == S_IFREG, now - touched > 60, flock(fd, LOCK_SH | LOCK_NB) == 0 else { continue }
            // Still the file looked at, not one renamed to that name since.
            var named = stat()
            if lstat(path, &named) == 0, named.st_dev == st.st_dev, named.st_ino == st.st_ino { unlink(path) }
        }
    }

    /// Whether a temporary is another command's write in progress (FileSystem.writeFile
    /// holds a lock on each of its own: an export or a --changed-list into DIR), not a cut one.
    /// One that cannot be opened (another user's, private; no descriptor left) is taken as being
    /// written while it was changed in the last minute: after that, it is litter.
    package static func isBeingWritten(_ path: String, now: Int = time(nil)) -> Bool {
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else {
            guard errno != ENOENT, let modified = FileSystem.modified(path) else { return false }
            return Int64(now) - modified <= 60
        }
        defer { close(fd) }
        // Shared: it conflicts with the writer's lock as well, and NFS takes it on a descriptor open for reading.
        return flock(fd, LOCK_SH | LOCK_NB) != 0 && errno == EWOULDBLOCK
    }

    /// Whether the folder `dir` holds what `sweepTemporaries` removes (a write cut short).
    package static func hasTemporaries(in dir: String) -> Bool {
        guard let handle = opendir(dir) else { return true }
        defer { closedir(handle) }
        while let entry = readdir(handle) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard isTemporaryName(name) else { continue }
            // As the sweep finds it: anything else of that name is never removed, so never waited for.
            switch FileSystem.kind(of: dir + "/" + name, followLinks: false) {
            case .file where !isBeingWritten(dir + "/" + name), .directory: return true
            default: continue
            }
        }
        return false
    }

    /// Temporaries a killed publish left (under the lock, no other publish
    /// owns any), and folders they leave empty: regular files and staging
    /// folders (with all they hold) whose name matches the pattern; never a
    /// link, nothing else, and not the folders in `sparing` (this publish made them), nor a file
    /// another command is writing (isBeingWritten). `emptied`: whether a folder they leave empty goes too (not in a folder that may be someone else's).
    package static func sweepTemporaries(in root: String, under relative: String, recursive: Bool, sparing: Set<String>, emptied: Bool = true) {
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
            case .file where isTemporaryName(name) && !isBeingWritten(path):
                CrashPoints.step()
                unlink(path)
                swept = true
            case .directory where isTemporaryName(name):
                removeTree(path)
                swept = true
            case .directory where recursive && !sparing.contains(path):
                sweepTemporaries(in: root, under: relative.isEmpty ? name : relative + "/" + name, recursive: true, sparing: sparing, emptied: emptied)
            default: break
            }
        }
        if swept, emptied, !relative.isEmpty, isEmptyDirectory(dirPath) {
            CrashPoints.step()
            rmdir(dirPath)
        }
    }
}
