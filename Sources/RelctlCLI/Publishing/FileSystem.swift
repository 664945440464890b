#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The few POSIX file operations relctl needs, without Foundation.
public enum FileSystem {
    public enum Kind: Equatable { case missing, file, directory, symlink, other }

    public static func kind(of path: String, followLinks: Bool = true) -> Kind {
        var st = stat()
        let rc = followLinks ? stat(path, &st) : lstat(path, &st)
        if rc != 0 { return .missing }
        switch st.st_mode & S_IFMT {
        case S_IFREG: return .file
        case S_IFDIR: return .directory
        case S_IFLNK: return .symlink
        default: return .other
        }
    }

    public static func size(of path: String) -> Int64? {
        var st = stat()
        guard stat(path, &st) == 0 else { return nil }
        return Int64(st.st_size)
    }

    public static func readFile(_ path: String) throws -> [UInt8] {
        switch kind(of: path) {
        case .missing: throw RelctlError.failure("cannot read \(path): no such file", hint: "check the path")
        case .directory: throw RelctlError.failure("cannot read \(path): it is a directory", hint: "give a file path")
        default: break
        }
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            throw RelctlError.failure("cannot read \(path): \(String(cString: strerror(errno)))", hint: "check the file's permissions")
        }
        defer { close(fd) }
        return try readAll(fd: fd, name: path)
    }

    public static func readAll(fd: Int32, name: String) throws -> [UInt8] {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, 65536) }
            if n < 0 {
                if errno == EINTR { continue }
                throw RelctlError.failure("cannot read \(name): \(String(cString: strerror(errno)))")
            }
            if n == 0 { break }
            bytes.append(contentsOf: buffer[0..<n])
        }
        return bytes
    }

    /// The OS user for the audit trail: $USER or $LOGNAME as git does, else
    /// the numeric uid (a static binary does not consult NSS).
    public static func currentUser(env: [String: String]) -> String {
        for key in ["USER", "LOGNAME"] { if let name = env[key], !name.isEmpty { return name } }
        return "uid \(geteuid())"
    }
}

extension FileSystem {
    /// Writes a whole file (created or truncated): lists for other programs and for people.
    public static func writeFile(_ path: String, _ bytes: [UInt8]) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw RelctlError.failure("cannot write \(path): \(String(cString: strerror(errno)))", hint: "check the path and its folder's permissions") }
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 {
                let reason = errno
                close(fd)
                throw RelctlError.failure("cannot write \(path): \(String(cString: strerror(reason)))", hint: "check free space")
            }
            offset += n
        }
        if close(fd) != 0 { throw RelctlError.failure("cannot write \(path): \(String(cString: strerror(errno)))", hint: "check free space") }
    }
}
