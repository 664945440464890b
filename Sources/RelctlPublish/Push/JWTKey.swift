#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CCrypto
import RelctlCore

/// A private key that signs JSON Web Tokens: ES256 with the P-256 key of an
/// APNs `.p8` file (Apple's provider tokens), RS256 with a Google service
/// account's RSA key (the assertion traded for an OAuth access token). It
/// stays in memory for the run: relctl never writes it anywhere.
public final class JWTKey: @unchecked Sendable {
    public enum Algorithm: String, Sendable { case es256 = "ES256", rs256 = "RS256" }

    private let key: OpaquePointer
    public let algorithm: Algorithm

    private init(_ key: OpaquePointer, _ algorithm: Algorithm) { self.key = key; self.algorithm = algorithm }
    deinit { EVP_PKEY_free(key) }

    /// Reads an unencrypted PEM private key (PKCS#8, as Apple's .p8 and a
    /// service account's private_key are) of the kind `algorithm` needs;
    /// `source` names where it came from, for messages.
    public static func read(pem: [UInt8], source: String, as algorithm: Algorithm) throws -> JWTKey {
        guard let pkey = SigningKey.privateKey(pem: pem) else { throw PublishError("\(source) is not an unencrypted PEM private key") }
        switch algorithm {
        case .es256:
            var name = [CChar](repeating: 0, count: 64), length = 0
            guard EVP_PKEY_get_id(pkey) == EVP_PKEY_EC, EVP_PKEY_get_group_name(pkey, &name, name.count, &length) == 1,
                  ["prime256v1", "P-256", "secp256r1"].contains(String(decoding: name.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)) else {
                EVP_PKEY_free(pkey)
                throw PublishError("\(source) is not a P-256 elliptic-curve key, as an APNs .p8 key is")
            }
        case .rs256:
            guard EVP_PKEY_get_id(pkey) == EVP_PKEY_RSA, EVP_PKEY_get_bits(pkey) >= 2048 else {
                EVP_PKEY_free(pkey)
                throw PublishError("\(source) is not an RSA key of 2048 bits or more, as a service account's is")
            }
        }
        return JWTKey(pkey, algorithm)
    }

    /// `header.claims.signature`, each base64url without padding (RFC 7515).
    public func token(header: JSON, claims: JSON) throws -> String {
        // compactBytes ends a document with a newline, which is no part of a JWT's JSON.
        func part(_ json: JSON) -> String { JWTKey.base64url(json.compactBytes().prefix { $0 != 10 }) }
        let signingInput = part(header) + "." + part(claims)
        return signingInput + "." + JWTKey.base64url(try sign(Array(signingInput.utf8)))
    }

    /// The JWS signature: RSASSA-PKCS1-v1_5 bytes for RS256; for ES256 the
    /// 64 bytes r‖s (RFC 7518 §3.4), not the DER libcrypto gives.
    func sign(_ message: [UInt8]) throws -> [UInt8] {
        guard let ctx = EVP_MD_CTX_new() else { throw PublishError("libcrypto could not allocate") }
        defer { EVP_MD_CTX_free(ctx) }
        guard EVP_DigestSignInit(ctx, nil, EVP_sha256(), nil, key) == 1 else { throw PublishError("libcrypto refused the \(algorithm.rawValue) key") }
        var length = 0
        guard EVP_DigestSign(ctx, nil, &length, message, message.count) == 1, length > 0, length <= 1024 else {
            throw PublishError("libcrypto could not sign with the \(algorithm.rawValue) key")
        }
        var signature = [UInt8](repeating: 0, count: length)
        guard EVP_DigestSign(ctx, &signature, &length, message, message.count) == 1 else {
            throw PublishError("libcrypto could not sign with the \(algorithm.rawValue) key")
        }
        signature.removeLast(signature.count - length)
        guard algorithm == .es256 else { return signature }
        let parsed: OpaquePointer? = signature.withUnsafeBufferPointer { buffer in
            var p: UnsafePointer<UInt8>? = buffer.baseAddress
            return d2i_ECDSA_SIG(nil, &p, length)
        }
        guard let sig = parsed else { throw PublishError("libcrypto gave an ECDSA signature it cannot read") }
        defer { ECDSA_SIG_free(sig) }
        var r: OpaquePointer? = nil, s: OpaquePointer? = nil
        ECDSA_SIG_get0(sig, &r, &s)
        var raw = [UInt8](repeating: 0, count: 64)
        guard let r, let s,
              raw.withUnsafeMutableBufferPointer({ BN_bn2binpad(r, $0.baseAddress, 32) == 32 && BN_bn2binpad(s, $0.baseAddress! + 32, 32) == 32 }) else {
            throw PublishError("libcrypto gave an ECDSA signature of the wrong size")
        }
        return raw
    }

    /// Base64url without padding, as JWTs spell every part.
    public static func base64url<C: Collection>(_ bytes: C) -> String where C.Element == UInt8 {
        var text = Base64.encode(bytes)
        while text.hasSuffix("=") { text.removeLast() }
        return String(text.map { $0 == "+" ? "-" : $0 == "/" ? "_" : $0 })
    }
}
