#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What is at the database path, checked before SQLite opens it so that each
/// case gets its own message.
enum DatabaseFile {
    enum Kind: Equatable { case missing, file, directory, other }

    static func kind(of path: String) -> Kind {
        var st = stat()
        guard stat(path, &st) == 0 else { return .missing }
        switch st.st_mode & S_IFMT {
        case S_IFREG: return .file
        case S_IFDIR: return .directory
        default: return .other
        }
    }

    /// Honours the permission bits even for root, who could otherwise write
    /// anything: a file marked read-only is meant to stay as it is.
    static func isWritable(_ path: String) -> Bool {
        var st = stat()
        guard stat(path, &st) == 0 else { return false }
        return access(path, W_OK) == 0 && (st.st_mode & 0o222) != 0
    }

    /// The folder a path is in ("." for a bare name).
    static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        let head = String(path[..<slash])
        return head.isEmpty ? "/" : head
    }

    /// The first 100 bytes of the file, SQLite's header; nil when there are
    /// fewer or none. Never waits (a FIFO named as the database).
    static func header(_ path: String) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var header = [UInt8](repeating: 0, count: 100)
        return pread(fd, &header, 100, 0) == 100 ? header : nil
    }

    static func size(_ path: String) -> Int64? {
        var st = stat()
        guard stat(path, &st) == 0 else { return nil }
        return Int64(st.st_size)
    }
}
