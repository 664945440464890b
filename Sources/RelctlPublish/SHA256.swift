import CCrypto
import RelctlCore

/// SHA-256 of published files, for index.json.
public enum SHA256 {
    public static func hex(_ data: [UInt8]) -> String { data.withUnsafeBytes { hex(raw: $0) } }

    /// Of part of a buffer, read where it is (index.json's file list is most of a megabyte).
    public static func hex(_ data: ArraySlice<UInt8>) -> String { data.withUnsafeBytes { hex(raw: $0) } }

    private static func hex(raw data: UnsafeRawBufferPointer) -> String {
        var hasher = Hasher()
        hasher.update(data)
        return hasher.finish()
    }

    /// A digest whose first bytes are hashed on another core while this one goes on (a plan's
    /// token: its file, 60 MB for a fleet, hashed while the plan is made); `hasher()` waits
    /// for them and gives the digest to go on with, on any thread (the wait is a DispatchGroup's).
    public final class Begun: @unchecked Sendable {
        private let first: Box
        private let hashed: () -> Void

        /// A hasher the one task `init` starts writes, read only once `hashed` has returned.
        private final class Box: @unchecked Sendable { var hasher = Hasher() }

        public init(_ data: [UInt8], start: StartEach) {
            let first = Box()
            self.first = first
            hashed = start(1) { _ in first.hasher.update(data) }
        }

        public func hasher() -> Hasher {
            hashed()
            return first.hasher
        }
    }

    /// Of bytes handed over a piece at a time (index.json, written as it is made).
    public struct Hasher {
        private var context = SHA256_CTX()

        public init() {
            // Each call fails only on a null argument.
            precondition(SHA256_Init(&context) == 1, "libcrypto could not compute SHA-256")
        }

        mutating func update(_ data: UnsafeRawBufferPointer) {
            precondition(SHA256_Update(&context, data.baseAddress, data.count) == 1, "libcrypto could not compute SHA-256")
        }

        mutating func update(_ data: ArraySlice<UInt8>) { data.withUnsafeBytes { update($0) } }

        /// Read where it is, not copied.
        public mutating func update(_ data: [UInt8]) { data.withUnsafeBytes { update($0) } }

        public func finish() -> String {
            var digest = [UInt8](repeating: 0, count: 32), context = context
            precondition(SHA256_Final(&digest, &context) == 1, "libcrypto could not compute SHA-256")
            let chars = Array("0123456789abcdef".utf8)
            var out = [UInt8]()
            out.reserveCapacity(64)
            for b in digest { out.append(chars[Int(b >> 4)]); out.append(chars[Int(b & 15)]) }
            return String(decoding: out, as: UTF8.self)
        }
    }
}
