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
    private var old: Old?
    private let size: Int
    private var offset = 0
    /// Every piece so far was the old bytes at its place.
    private(set) var mayBeSame: Bool
    /// The old bytes were read from the disk, not held.
    let wasRead: Bool

    /// Nothing to compare with: never the same.
    init() { (old, size, mayBeSame, wasRead) = (nil, 0, false, false) }

    init(bytes: [UInt8]) { (old, size, mayBeSame, wasRead) = (.bytes(bytes), bytes.count, true, false) }

    /// The file at `path`, as it is when opened: never the same unless it is
    /// a regular file (O_NONBLOCK: a FIFO put there does not hold the publish up).
    init(file path: String) {
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
        var st = stat()
        if fd >= 0 && fstat(fd, &st) == 0 && (st.st_mode & S_IFMT) == S_IFREG {
            (old, size, mayBeSame, wasRead) = (.file(fd), Int(st.st_size), true, true)
        } else {
            if fd >= 0 { close(fd) }
            (old, size, mayBeSame, wasRead) = (nil, 0, false, false)
        }
    }

    deinit { closeFile() }

    /// Whether the old bytes are held, so that a part that matched can be written from them.
    var keepsOld: Bool { if case .bytes? = old { true } else { false } }

    /// The first `count` bytes handed over, all of which matched: the old ones, held.
    func matched(_ count: Int) -> ArraySlice<UInt8> {
        guard count > 0 else { return [] }
        guard case .bytes(let bytes)? = old, count <= offset, count <= bytes.count else {
            preconditionFailure("\(count) bytes asked for of the \(offset) compared, not held")
        }
        return bytes[..<count]
    }

    func compare(_ piece: ArraySlice<UInt8>) {
        defer { offset += piece.count }
        guard mayBeSame, let old else { return }
        var same = offset + piece.count <= size
        if same {
            switch old {
            case .bytes(let bytes):
                same = SameBytes.equal(bytes[offset..<(offset + piece.count)], piece)
            case .file(let fd):
                same = FileSystem.readAt(fd: fd, offset, count: piece.count).map { SameBytes.equal($0[...], piece) } ?? false
            }
        }
        if !same {
            mayBeSame = false
            closeFile()
        }
    }

    /// Whether every piece was the old bytes, and they were all of them.
    var isSame: Bool { mayBeSame && offset == size }

    private static func equal(_ a: ArraySlice<UInt8>, _ b: ArraySlice<UInt8>) -> Bool {
        a.count == b.count && (a.isEmpty || a.withUnsafeBytes { a in b.withUnsafeBytes { b in memcmp(a.baseAddress!, b.baseAddress!, b.count) == 0 } })
    }

    private func closeFile() {
        guard case .file(let fd)? = old else { return }
        close(fd)
        old = nil
    }
}
