#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The few POSIX file operations relctl needs, without Foundation.
public enum FileSystem {
    public enum Kind: Equatable {
        case missing, file, directory, symlink, other

        /// Of a file found with this `st_mode`.
        init(mode: mode_t) {
            switch mode & S_IFMT {
            case S_IFREG: self = .file
            case S_IFDIR: self = .directory
            case S_IFLNK: self = .symlink
            default: self = .other
            }
        }
    }

    public static func kind(of path: String, followLinks: Bool = true) -> Kind {
        var st = stat()
        let rc = followLinks ? stat(path, &st) : lstat(path, &st)
        return rc != 0 ? .missing : Kind(mode: st.st_mode)
    }

    /// When the file was last written, in seconds; nil when it cannot be told.
    public static func modified(_ path: String) -> Int64? {
        var st = stat()
        guard stat(path, &st) == 0 else { return nil }
        #if canImport(Darwin)
        return Int64(st.st_mtimespec.tv_sec)
        #else
        return Int64(st.st_mtim.tv_sec)
        #endif
    }

    /// Replaces `path` whole (a temporary beside it, renamed over it), so a
    /// browser reloading it never reads half a page; a folder or a link at
    /// `path` is refused rather than followed or replaced.
    public static func writeFile(_ path: String, _ bytes: [UInt8]) throws {
        try writeFile(path) { put in try put(bytes[...]) }
    }

    /// The same, the bytes handed over a piece at a time by `write` (an
    /// export of a fleet is hundreds of megabytes): nothing is at `path`
    /// until all are written, and nothing is left when `write` throws. A
    /// piece that cannot be written (a full disk) throws from `put`, so the
    /// rest is not made. With `removingAbandoned` (an export), what a write
    /// of `path` killed before its rename left beside it is removed.
    public static func writeFile(_ path: String, removingAbandoned: Bool = false, pieces write: (_ put: (ArraySlice<UInt8>) throws -> Void) throws -> Void) throws {
        let k = kind(of: path, followLinks: false)
        guard k == .missing || k == .file else {
            throw PublishError("cannot write \(path): it is \(k == .directory ? "a folder" : k == .symlink ? "a symbolic link" : "not a regular file")", hint: "give the path of a file")
        }
        let slash = path.lastIndex(of: "/")
        let dir = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        let file = try TreeFiles.NewFile.temporary(in: dir, for: name, naming: dir + "/" + name)
        // Held while it is written: a publish into the same folder sweeping what killed writes left spares it.
        file.holdLock()
        if removingAbandoned { TreeFiles.removeAbandonedTemporaries(of: name, in: dir) }
        let temp = file.path
        do {
            try write { piece in
                file.append(piece)
                // finish() names the failure, and removes the temporary.
                if file.failed { try file.finish() }
            }
        } catch {
            if !file.failed { file.discard() }
            throw error
        }
        try file.finish()
        guard rename(temp, path) == 0 else {
            let reason = errno
            unlink(temp)
            throw PublishError("cannot write \(path): \(String(cString: strerror(reason)))", hint: "check the directory's permissions")
        }
    }

    public static func size(of path: String) -> Int64? {
        var st = stat()
        guard stat(path, &st) == 0 else { return nil }
        return Int64(st.st_size)
    }

    /// The most a file people hand relctl (notes, an import) may hold: far
    /// above any real one, and a mistake like /dev/zero or a video ends in a
    /// one-line error rather than in memory exhaustion.
    public static let inputLimit = 16 << 20

    package static func tooLarge(_ name: String, _ limit: Int) -> PublishError {
        // Small limits (a key file's 16 KiB) in KiB: "more than 0 MiB" said nothing.
        PublishError("cannot read \(name): it holds more than \(limit >= 1 << 20 ? "\(limit >> 20) MiB" : "\(limit >> 10) KiB"), more than relctl reads of such a file", hint: "check the path")
    }

    public static func readFile(_ path: String, limit: Int = Int.max) throws -> [UInt8] {
        switch kind(of: path) {
        case .missing: throw PublishError("cannot read \(path): no such file", hint: "check the path")
        case .directory: throw PublishError("cannot read \(path): it is a directory", hint: "give a file path")
        default: break
        }
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            throw PublishError("cannot read \(path): \(String(cString: strerror(errno)))", hint: "check the file's permissions")
        }
        defer { close(fd) }
        return try readAll(fd: fd, name: path, limit: limit)
    }

    /// A regular file's bytes; nil when `path` is missing, a symbolic link
    /// or anything but a regular file (a FIFO is not waited on). One open and
    /// one fstat: verify reads tens of thousands.
    public static func regularFile(_ path: String) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else { return nil }
        return try? readAll(fd: fd, name: path)
    }

    public static func readAll(fd: Int32, name: String, limit: Int = Int.max) throws -> [UInt8] {
        // A regular file is read straight into an array of its size: no
        // chunks copied and no growing (index.json runs to megabytes).
        var st = stat()
        if fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG, st.st_size > 0, st.st_size < Int.max / 2 {
            guard st.st_size <= limit else { throw tooLarge(name, limit) }
            let size = Int(st.st_size)
            var failure: Int32 = 0
            let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
                count = 0
                while count < size {
                    let n = read(fd, buffer.baseAddress! + count, size - count)
                    if n < 0 && errno == EINTR { continue }
                    if n < 0 { failure = errno; return }
                    if n == 0 { return }
                    count += n
                }
            }
            if failure != 0 { throw PublishError("cannot read \(name): \(String(cString: strerror(failure)))") }
            guard bytes.count == size else { return bytes }
            // Grown since the fstat? A byte more says so, and only then the rest comes in chunks: a
            // 64 KiB buffer zeroed for every file was 7 % of a verify's instructions (10,803 files).
            var more: UInt8 = 0
            var n: Int
            repeat { n = read(fd, &more, 1) } while n < 0 && errno == EINTR
            if n < 0 { throw PublishError("cannot read \(name): \(String(cString: strerror(errno)))") }
            guard n == 1 else { return bytes }
            guard size < limit else { throw tooLarge(name, limit) }
            return bytes + [more] + (try readChunks(fd: fd, name: name, limit: limit - size - 1))
        }
        return try readChunks(fd: fd, name: name, limit: limit)
    }

    /// `count` bytes of `fd` from `offset`, read through short reads and
    /// interruptions; nil on an error, or when the file ends first (errno is
    /// then EIO).
    package static func readAt(fd: Int32, _ offset: Int, count: Int) -> [UInt8]? {
        var ended = false
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, done in
            done = 0
            while done < count {
                let n = pread(fd, buffer.baseAddress! + done, count - done, off_t(offset + done))
                if n < 0 && errno == EINTR { continue }
                if n <= 0 {
                    if n == 0 { ended = true }
                    return
                }
                done += n
            }
        }
        guard bytes.count == count else {
            if ended { errno = EIO }
            return nil
        }
        return bytes
    }

    private static func readChunks(fd: Int32, name: String, limit: Int) throws -> [UInt8] {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, 65536) }
            if n < 0 {
                if errno == EINTR { continue }
                throw PublishError("cannot read \(name): \(String(cString: strerror(errno)))")
            }
            if n == 0 { break }
            guard n <= limit - bytes.count else { throw tooLarge(name, limit) }
            bytes.append(contentsOf: buffer[0..<n])
        }
        return bytes
    }

    /// The OS user for the audit trail: $USER or $LOGNAME as git does, else
    /// the name the password file gives the uid (read directly: a static
    /// binary does not consult NSS), else the numeric uid.
    public static func currentUser(env: [String: String], passwd: String = "/etc/passwd") -> String {
        for key in ["USER", "LOGNAME"] { if let name = env[key], !name.isEmpty { return name } }
        let uid = String(geteuid())
        if let bytes = try? readFile(passwd, limit: 4 << 20) {
            for line in bytes.split(separator: UInt8(ascii: "\n")) {
                let fields = line.split(separator: UInt8(ascii: ":"), maxSplits: 3, omittingEmptySubsequences: false)
                guard fields.count > 2, String(decoding: fields[2], as: UTF8.self) == uid, !fields[0].isEmpty,
                      let name = String(validating: fields[0], as: UTF8.self),
                      name.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value != 0x7F }) else { continue }
                return name
            }
        }
        return "uid \(uid)"
    }
}
