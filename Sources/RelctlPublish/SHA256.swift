import CCrypto
import Dispatch

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

    /// A digest worked out on a queue of its own, one piece after another, while the caller
    /// goes on (a plan's token: its file, 60 MB for a fleet, as soon as it is read, then its
    /// rows once they are made). Only the queue touches the hasher, and no task of it waits
    /// for another.
    public final class Pending: @unchecked Sendable {
        private let queue = DispatchQueue(label: "relctl.sha256")
        private var hasher = Hasher()

        /// Begins with `data`.
        public init(_ data: [UInt8]) { queue.async { self.hasher.update(data) } }

        /// Hashes what `more` writes into the hasher after everything given before, on the queue.
        public func then(_ more: @escaping @Sendable (inout Hasher) -> Void) { queue.async { more(&self.hasher) } }

        /// The digest of everything given so far, once hashed: finished, or to go on with.
        public func state() -> Hasher { queue.sync { hasher } }
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
