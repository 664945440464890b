import CCrypto

/// SHA-256 of published files, for index.json.
public enum SHA256 {
    public static func hex(_ data: [UInt8]) -> String { data.withUnsafeBytes { hex(raw: $0) } }

    /// Of part of a buffer, read where it is (index.json's file list is most of a megabyte).
    public static func hex(_ data: ArraySlice<UInt8>) -> String { data.withUnsafeBytes { hex(raw: $0) } }

    /// Of one buffer followed by another, neither copied (a plan's token: a 60 MB file, then its rows).
    public static func hex(_ data: [UInt8], then more: [UInt8]) -> String {
        data.withUnsafeBytes { a in more.withUnsafeBytes { b in hex(raw: a, b) } }
    }

    private static func hex(raw data: UnsafeRawBufferPointer, _ more: UnsafeRawBufferPointer? = nil) -> String {
        var hasher = Hasher()
        hasher.update(data)
        if let more { hasher.update(more) }
        return hasher.finish()
    }

    /// Of bytes handed over a piece at a time (index.json, written as it is made).
    struct Hasher {
        private var context = SHA256_CTX()

        init() {
            // Each call fails only on a null argument.
            precondition(SHA256_Init(&context) == 1, "libcrypto could not compute SHA-256")
        }

        mutating func update(_ data: UnsafeRawBufferPointer) {
            precondition(SHA256_Update(&context, data.baseAddress, data.count) == 1, "libcrypto could not compute SHA-256")
        }

        mutating func update(_ data: ArraySlice<UInt8>) { data.withUnsafeBytes { update($0) } }

        func finish() -> String {
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
