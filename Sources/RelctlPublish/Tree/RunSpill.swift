#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The runs of the file list a publish wrote (PublishedIndex.list), kept
/// in a file of their own until index.json is written from them: for a
/// thousand projects they are 14 MB, which a first publish held in memory
/// while every other project rendered, the most of its peak
/// (docs/performance.md). The file is made in DIR, under a temporary name
/// (swept there should a kill come first), and unlinked as soon as it is
/// open: nobody sees it, and nothing is left of it however the publish ends.
final class RunSpill {
    private let fd: Int32
    private let dir: String
    private var size = 0

    /// In `dir`; nil when no file can be made there (the runs are then held in memory).
    init?(in dir: String) {
        for _ in 0..<8 {
            let path = dir + "/" + TreeFiles.temporaryName(for: "runs")
            let made = open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
            if made >= 0 {
                // A kill here leaves it at DIR's root, where the next publish sweeps it.
                CrashPoints.step()
                unlink(path)
                (fd, self.dir) = (made, dir)
                return
            }
            if errno != EEXIST { return nil }
        }
        return nil
    }

    deinit { close(fd) }

    /// Writes `bytes` at its end; where they are.
    func append(_ bytes: ArraySlice<UInt8>) throws -> Range<Int> {
        let start = size
        var done = 0
        while done < bytes.count {
            let n = bytes[(bytes.startIndex + done)...].withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, off_t(start + done)) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { throw failure("write", n < 0 ? errno : EIO) }
            done += n
        }
        size += bytes.count
        return start..<size
    }

    /// Appends the bytes at `range` to `out`.
    func read(_ range: Range<Int>, into out: inout [UInt8]) throws {
        precondition(range.lowerBound >= 0 && range.upperBound <= size, "a run read from outside the spill")
        guard let bytes = FileSystem.readAt(fd: fd, range.lowerBound, count: range.count) else { throw failure("read back", errno) }
        out.append(contentsOf: bytes)
    }

    private func failure(_ what: String, _ reason: Int32) -> PublishError {
        PublishError("cannot \(what) the index's file list in \(dir): \(String(cString: strerror(reason)))", hint: "check free space")
    }
}
