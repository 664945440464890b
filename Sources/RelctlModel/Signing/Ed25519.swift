#if canImport(CryptoKit)
import CryptoKit
#elseif canImport(CCrypto)
import CCrypto
#else
#error("Ed25519 needs CryptoKit or OpenSSL's libcrypto (CCrypto, a dependency on Linux)")
#endif

/// Ed25519 verification (RFC 8032) and the SHA-256 of key ids, from the
/// platform's own cryptography (CryptoKit) or, where it has none (Linux),
/// OpenSSL's libcrypto. What the two libraries may tolerate differently is
/// refused here first, the same way on both: a signature's S at or above
/// the group order L (a second encoding of the same signature), and an
/// encoding of R or of the key whose y is not below p.
public enum Ed25519 {
    public static let publicKeyBytes = 32
    public static let signatureBytes = 64

    public static func isValid(signature: [UInt8], message: [UInt8], publicKey: [UInt8]) -> Bool {
        guard signature.count == signatureBytes, publicKey.count == publicKeyBytes,
              isCanonicalScalar(signature[32..<64]), isCanonicalPoint(signature[0..<32]), isCanonicalPoint(publicKey[...]) else { return false }
        #if canImport(CryptoKit)
        guard let key = try? Curve25519.Signing.PublicKey(rawRepresentation: publicKey) else { return false }
        return key.isValidSignature(signature, for: message)
        #elseif canImport(CCrypto)
        guard let key = EVP_PKEY_new_raw_public_key(EVP_PKEY_ED25519, nil, publicKey, publicKey.count) else { return false }
        defer { EVP_PKEY_free(key) }
        guard let ctx = EVP_MD_CTX_new() else { return false }
        defer { EVP_MD_CTX_free(ctx) }
        guard EVP_DigestVerifyInit(ctx, nil, nil, nil, key) == 1 else { return false }
        return EVP_DigestVerify(ctx, signature, signature.count, message, message.count) == 1
        #endif
    }

    /// The group order L = 2^252 + 27742317777372353535851937790883648493, little-endian.
    package static let order: [UInt8] = [0xed, 0xd3, 0xf5, 0x5c, 0x1a, 0x63, 0x12, 0x58, 0xd6, 0x9c, 0xf7, 0xa2, 0xde, 0xf9, 0xde, 0x14,
                                 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x10]

    /// S < L, comparing the little-endian numbers from their top byte.
    static func isCanonicalScalar(_ s: ArraySlice<UInt8>) -> Bool {
        let s = Array(s)
        for i in stride(from: 31, through: 0, by: -1) where s[i] != order[i] { return s[i] < order[i] }
        return false
    }

    /// y < p = 2^255 - 19 (the top bit is x's sign): only 2^255-19 ... 2^255-1 are not.
    static func isCanonicalPoint(_ e: ArraySlice<UInt8>) -> Bool {
        let e = Array(e)
        guard e[31] & 0x7f == 0x7f, e[1..<31].allSatisfy({ $0 == 0xff }) else { return true }
        return e[0] < 0xed
    }

    public static func sha256(_ bytes: [UInt8]) -> [UInt8] { sha256(bytes[...]) }

    /// Of part of a buffer, read where it is.
    public static func sha256(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
        #if canImport(CryptoKit)
        return Array(SHA256.hash(data: bytes))
        #elseif canImport(CCrypto)
        var out = [UInt8](repeating: 0, count: 32)
        bytes.withUnsafeBufferPointer { p in _ = SHA256(p.baseAddress, p.count, &out) }
        return out
        #endif
    }

    /// A key's short name: the first 8 bytes of the SHA-256 of its 32 bytes, in hex.
    public static func keyID(_ publicKey: [UInt8]) -> String {
        sha256(publicKey).prefix(8).map { byte in
            let digits = Array("0123456789abcdef".utf8)
            return String(decoding: [digits[Int(byte >> 4)], digits[Int(byte & 15)]], as: UTF8.self)
        }.joined()
    }

    /// A public key as relctl and Sparkle write it (base64 of its 32 bytes), checked.
    public static func publicKey(_ text: String) -> [UInt8]? {
        guard let bytes = Base64.decode(text), bytes.count == publicKeyBytes, isCanonicalPoint(bytes[...]) else { return nil }
        return bytes
    }
}
