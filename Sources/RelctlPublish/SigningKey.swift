#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CCrypto
import RelctlCore

/// An Ed25519 private key, read from a PKCS#8 PEM file (`relctl keys
/// generate`, `openssl genpkey -algorithm ed25519`). It stays in memory
/// for the run: relctl never writes it into a database, a tree or a log.
/// Sendable: a publish signs with one key on every core at once. Each
/// signature has a context of its own; libcrypto reads a key it never
/// changes from many threads (Ed25519Tests.testOneKeySignsOnManyThreadsAtOnce).
public final class SigningKey: @unchecked Sendable {
    private let key: OpaquePointer
    /// The 32 raw bytes apps pin, and their short id.
    public let publicKey: [UInt8]
    public var publicKeyText: String { Base64.encode(publicKey) }
    public var keyID: String { Ed25519.keyID(publicKey) }
    /// Where it was read from, for messages.
    public let path: String

    private init(_ key: OpaquePointer, path: String) throws {
        self.key = key
        self.path = path
        var raw = [UInt8](repeating: 0, count: 32), length = 32
        guard EVP_PKEY_get_raw_public_key(key, &raw, &length) == 1, length == 32 else {
            EVP_PKEY_free(key)
            throw PublishError("cannot read the public half of the key in \(path)", hint: "make a key with 'relctl keys generate FILE'")
        }
        publicKey = raw
    }

    deinit { EVP_PKEY_free(key) }

    /// The key of a 32-byte seed (RFC 8032's private key): fixed keys for
    /// the conformance suite, which must be the same bytes at every export.
    public static func fromSeed(_ seed: [UInt8], name: String) throws -> SigningKey {
        guard seed.count == 32, let pkey = EVP_PKEY_new_raw_private_key(EVP_PKEY_ED25519, nil, seed, 32) else {
            throw PublishError("libcrypto refused an Ed25519 seed")
        }
        return try SigningKey(pkey, path: name)
    }

    /// A PEM file holds more than this only by mistake.
    static let maximumBytes = 16 << 10

    public static func read(_ path: String) throws -> SigningKey {
        let bytes: [UInt8]
        do { bytes = try FileSystem.readFile(path, limit: maximumBytes) } catch let e as PublishError {
            throw PublishError("cannot read the signing key: \(e.message)", hint: "give the PEM file keys generate wrote (--signing-key FILE or RELCTL_SIGNING_KEY)")
        }
        guard let pkey = SigningKey.privateKey(pem: bytes) else {
            throw PublishError("\(path) is not an unencrypted PEM private key", hint: "make one with 'relctl keys generate FILE'")
        }
        guard EVP_PKEY_get_id(pkey) == EVP_PKEY_ED25519 else {
            EVP_PKEY_free(pkey)
            throw PublishError("\(path) holds a private key that is not Ed25519", hint: "make one with 'relctl keys generate FILE' (or openssl genpkey -algorithm ed25519)")
        }
        return try SigningKey(pkey, path: path)
    }

    /// The private key of a PEM file (any kind libcrypto reads), or nil.
    /// No passphrase callback: an encrypted key is refused, never prompted for.
    static func privateKey(pem: [UInt8]) -> OpaquePointer? {
        ERR_clear_error()
        defer { ERR_clear_error() }
        return pem.withUnsafeBytes { buffer in
            guard let bio = BIO_new_mem_buf(buffer.baseAddress, Int32(buffer.count)) else { return nil }
            defer { BIO_free(bio) }
            return PEM_read_bio_PrivateKey(bio, nil, { _, _, _, _ in 0 }, nil)
        }
    }

    /// A new key, written to `path` as PKCS#8 PEM, readable by its owner
    /// alone; an existing file is never replaced.
    public static func generate(_ path: String) throws -> SigningKey {
        guard FileSystem.kind(of: path, followLinks: false) == .missing else {
            throw PublishError("\(path) already exists: a key is never overwritten", hint: "give a new file name, or remove the old key first if it is truly unused")
        }
        guard let ctx = EVP_PKEY_CTX_new_id(EVP_PKEY_ED25519, nil) else { throw PublishError("libcrypto cannot make Ed25519 keys") }
        defer { EVP_PKEY_CTX_free(ctx) }
        var made: OpaquePointer? = nil
        guard EVP_PKEY_keygen_init(ctx) == 1, EVP_PKEY_keygen(ctx, &made) == 1, let pkey = made else {
            throw PublishError("libcrypto could not make an Ed25519 key")
        }
        let key = try SigningKey(pkey, path: path)
        guard let bio = BIO_new(BIO_s_mem()) else { throw PublishError("libcrypto could not write the key") }
        defer { BIO_free(bio) }
        guard PEM_write_bio_PKCS8PrivateKey(bio, pkey, nil, nil, 0, nil, nil) == 1 else { throw PublishError("libcrypto could not write the key") }
        var pointer: UnsafeMutablePointer<CChar>? = nil
        let length = BIO_ctrl(bio, BIO_CTRL_INFO, 0, &pointer)
        guard length > 0, let pointer else { throw PublishError("libcrypto could not write the key") }
        let pem = [UInt8](UnsafeRawBufferPointer(start: pointer, count: length))
        // O_EXCL: made here or not at all (another process's file is never taken over), 0600 from the start.
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            throw PublishError("cannot write \(path): \(String(cString: strerror(errno)))",
                               hint: "check the folder exists and is writable")
        }
        let wrote = pem.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        let synced = fsync(fd) == 0
        close(fd)
        guard wrote == pem.count, synced else {
            unlink(path)
            throw PublishError("cannot write \(path): the disk refused the key", hint: "free some space and try again")
        }
        return key
    }

    /// The Ed25519 signature of `message`.
    public func sign(_ message: [UInt8]) -> [UInt8] {
        guard let ctx = EVP_MD_CTX_new() else { preconditionFailure("libcrypto could not allocate") }
        defer { EVP_MD_CTX_free(ctx) }
        var signature = [UInt8](repeating: 0, count: 64), length = 64
        let ok = EVP_DigestSignInit(ctx, nil, nil, nil, key) == 1 && EVP_DigestSign(ctx, &signature, &length, message, message.count) == 1
        precondition(ok && length == 64, "libcrypto could not sign with an Ed25519 key it read")
        return signature
    }
}
