#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Whether bytes handed over a piece at a time, in order, are those of a
/// file already there: the old bytes held in memory, or the file read as the
/// pieces come. index.json is written as it is made (IndexFormat.write), so
/// it is never whole to compare at once; nor is the file read whole.
final class SameBytes {
    private enum Old { case bytes([UInt8]), file(Int32) }
    /// Nil once a piece differed, or when there is nothing to compare with.
    private var old: Old?
    private let size: Int
    private var offset = 0

    /// Nothing to compare with: never the same.
    init() { (old, size) = (nil, 0) }

    init(bytes: [UInt8]) { (old, size) = (.bytes(bytes), bytes.count) }

    /// The file at `path`, `size` bytes when it was looked at; never the same if it cannot be read.
    init(file path: String, size: Int) {
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        (old, self.size) = (fd < 0 ? nil : .file(fd), size)
    }

    deinit { if case .file(let fd)? = old { close(fd) } }

    func compare(_ piece: ArraySlice<UInt8>) {
        guard let source = old else { return }
        var same = offset + piece.count <= size
        if same {
            switch source {
            case .bytes(let bytes):
                same = SameBytes.equal(bytes[offset..<(offset + piece.count)], piece)
            case .file(let fd):
                var read = [UInt8](repeating: 0, count: piece.count), done = 0
                while same && done < piece.count {
                    let n = read[done...].withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, off_t(offset + done)) }
                    if n < 0 && errno == EINTR { continue }
                    if n <= 0 { same = false } else { done += n }
                }
                same = same && SameBytes.equal(read[...], piece)
            }
        }
        offset += piece.count
        if !same { drop() }
    }

    /// Whether every piece was the old bytes, and they were all of them.
    var isSame: Bool { old != nil && offset == size }

    /// Whether the old bytes were read from the disk, not held.
    var wasRead: Bool { if case .file? = old { true } else { false } }

    private static func equal(_ a: ArraySlice<UInt8>, _ b: ArraySlice<UInt8>) -> Bool {
        a.count == b.count && (a.isEmpty || a.withUnsafeBytes { a in b.withUnsafeBytes { b in memcmp(a.baseAddress!, b.baseAddress!, b.count) == 0 } })
    }

    private func drop() {
        if case .file(let fd)? = old { close(fd) }
        old = nil
    }
}
