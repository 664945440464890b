#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Buffered output to a file descriptor, or to memory when fd is -1 (tests).
public final class Sink {
    public private(set) var bytes: [UInt8] = []
    let fd: Int32
    /// The errno of the first write that failed: what was lost must be reported.
    public private(set) var failure: Int32?

    public init(fd: Int32) { self.fd = fd }

    public var text: String { String(decoding: bytes, as: UTF8.self) }

    public func write(_ s: String) {
        bytes.append(contentsOf: s.utf8)
        if fd >= 0 && bytes.count > 1 << 16 { flush() }
    }

    public func write(bytes more: [UInt8]) {
        // A large document (a listing's JSON) goes out as it is, not copied into the buffer first.
        // Tried even after a write that failed, as buffered bytes are: the first errno is what is reported.
        if fd >= 0 && more.count > 1 << 16 {
            flush()
            writeOut(more)
            return
        }
        bytes.append(contentsOf: more)
        if fd >= 0 && bytes.count > 1 << 16 { flush() }
    }

    public func flush() {
        guard fd >= 0 else { return }
        writeOut(bytes)
        bytes.removeAll(keepingCapacity: true)
    }

    private func writeOut(_ all: [UInt8]) {
        var offset = 0
        while offset < all.count {
            let n = all[offset...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                if failure == nil { failure = errno }
                break
            }
            offset += n
        }
    }
}
