import CCrypto

/// SHA-256 of published files, for index.json.
public enum SHA256 {
    public static func hex(_ data: [UInt8]) -> String {
        var digest = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        let ok = data.withUnsafeBytes { bytes in
            digest.withUnsafeMutableBufferPointer { EVP_Digest(bytes.baseAddress, bytes.count, $0.baseAddress, &length, EVP_sha256(), nil) }
        }
        // EVP_Digest fails only when libcrypto cannot allocate a context.
        precondition(ok == 1 && length == 32, "libcrypto could not compute SHA-256")
        let chars = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        out.reserveCapacity(64)
        for b in digest { out.append(chars[Int(b >> 4)]); out.append(chars[Int(b & 15)]) }
        return String(decoding: out, as: UTF8.self)
    }
}
