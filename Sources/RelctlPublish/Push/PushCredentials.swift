#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import RelctlCore

/// An APNs provider key: the team's `.p8` file, its key id and the team id.
/// Credentials come from files or the environment, never the database.
public struct APNsCredentials: Sendable {
    public let key: JWTKey
    public let keyID: String
    public let teamID: String

    /// A key id or team id as Apple issues them: ten letters and digits (a little latitude, never a space or quote).
    static func checkID(_ text: String, _ option: String) throws -> String {
        let t = text.trimmingSpaces()
        // Apple's are ten capitals and digits; a wrong one would only come back as 403 InvalidProviderToken.
        guard t.utf8.count == 10, t.utf8.allSatisfy({ ($0 >= 48 && $0 <= 57) || ($0 >= 65 && $0 <= 90) }) else {
            throw PublishError.usage("\(option) '\(text)' is not an Apple id (ten capital letters and digits, as the developer account shows it)",
                                     hint: "copy it from the Keys page of the Apple developer account (the key id) or the membership page (the team id)")
        }
        return t
    }

    /// What was typed is checked first (a usage error); a file that cannot be read or is no key is a failure, as for any file read.
    public static func read(keyFile: String, keyID: String, teamID: String) throws -> APNsCredentials {
        let (keyID, teamID) = (try checkID(keyID, "--apns-key-id"), try checkID(teamID, "--apns-team-id"))
        let bytes: [UInt8]
        do { bytes = try FileSystem.readFile(keyFile, limit: 16 << 10) } catch let e as PublishError {
            throw PublishError("cannot read the APNs key: \(e.message)", hint: "give the .p8 file Apple's developer account let you download (--apns-key FILE or RELCTL_APNS_KEY)")
        }
        let key: JWTKey
        do { key = try JWTKey.read(pem: bytes, source: keyFile, as: .es256) } catch let e as PublishError {
            throw PublishError(e.message, hint: "give the .p8 file of an APNs key (Certificates, Identifiers & Profiles › Keys)")
        }
        return APNsCredentials(key: key, keyID: keyID, teamID: teamID)
    }

    /// A provider token issued at `iat` (Apple: reused for up to an hour, refreshed at most every 20 minutes).
    public func token(issuedAt iat: Int64) throws -> String {
        try key.token(header: .fields([("alg", .string("ES256")), ("kid", .string(keyID))]),
                      claims: .fields([("iss", .string(teamID)), ("iat", .int(iat))]))
    }

    /// Its name in the token cache: one cached token per key.
    public var cacheName: String { "apns-\(teamID)-\(keyID)" }
}

/// A Google service account's JSON key file, as the Firebase console gives it.
public struct ServiceAccount: Sendable {
    public let clientEmail: String
    public let privateKeyID: String?
    public let projectID: String
    /// Where its assertion is traded for an access token, and the assertion's audience.
    public let tokenURI: String
    public let key: JWTKey

    public static let scope = "https://www.googleapis.com/auth/firebase.messaging"
    public static let defaultTokenURI = "https://oauth2.googleapis.com/token"

    public static func read(_ path: String) throws -> ServiceAccount {
        let hint = "give the service-account JSON the Firebase console makes (Project settings › Service accounts › Generate new private key) with --fcm-credentials FILE or RELCTL_FCM_CREDENTIALS"
        let bytes: [UInt8]
        do { bytes = try FileSystem.readFile(path, limit: 64 << 10) } catch let e as PublishError {
            throw PublishError("cannot read the FCM credentials: \(e.message)", hint: hint)
        }
        let parsed: JSON
        do { parsed = try JSONReader.parseForeign(bytes) } catch {
            throw PublishError("\(path) is not valid JSON, as a service-account key file is", hint: hint)
        }
        guard case .object(let o) = parsed else { throw PublishError("\(path) is not a JSON object, as a service-account key file is", hint: hint) }
        func field(_ name: String) -> String? { if case .string(let s)? = o[name], !s.isEmpty { return s } else { return nil } }
        guard field("type") == "service_account" else {
            throw PublishError("\(path) is not a service-account key (its \"type\" is not \"service_account\")", hint: hint)
        }
        let missing = ["client_email", "private_key", "project_id"].filter { field($0) == nil }
        guard missing.isEmpty, let email = field("client_email"), let pem = field("private_key"), let project = field("project_id") else {
            throw PublishError("\(path) has no \(missing.joined(separator: ", ")), which a service-account key file holds", hint: hint)
        }
        // A project id is lower-case letters, digits and hyphens: it goes into the URL as it is.
        guard project.utf8.count <= 64, project.utf8.allSatisfy({ ($0 >= 97 && $0 <= 122) || ($0 >= 48 && $0 <= 57) || $0 == 45 || $0 == 58 || $0 == 46 }) else {
            throw PublishError("\(path) names the project '\(project)', which is not a Firebase project id", hint: hint)
        }
        // https only: the assertion it is sent is good for an hour (RELCTL_OAUTH_URL may point at a local http server).
        let uri = field("token_uri") ?? defaultTokenURI
        guard uri.hasPrefix("https://"), !uri.unicodeScalars.contains(where: { $0.value <= 32 || $0 == "\"" || $0 == "\\" || $0.value == 127 }) else {
            throw PublishError("\(path) has a token_uri that is not an https URL", hint: hint)
        }
        let key: JWTKey
        do { key = try JWTKey.read(pem: Array(pem.utf8), source: "the private_key of \(path)", as: .rs256) } catch let e as PublishError {
            throw PublishError(e.message, hint: hint)
        }
        return ServiceAccount(clientEmail: email, privateKeyID: field("private_key_id"), projectID: project, tokenURI: uri, key: key)
    }

    /// The signed assertion (RFC 7523) traded for an hour's access token.
    public func assertion(issuedAt iat: Int64) throws -> String {
        try key.token(header: .fields([("alg", .string("RS256")), ("typ", .string("JWT"))] + (privateKeyID.map { [("kid", .string($0))] } ?? [])),
                      claims: .fields([("iss", .string(clientEmail)), ("scope", .string(ServiceAccount.scope)), ("aud", .string(tokenURI)),
                                       ("iat", .int(iat)), ("exp", .int(iat + 3600))]))
    }

    public var cacheName: String {
        "fcm-" + String(SHA256.hex(Array((clientEmail + "\n" + (privateKeyID ?? "")).utf8)).prefix(24))
    }
}

/// Tokens kept between runs (RELCTL_CACHE_DIR, else $XDG_CACHE_HOME/relctl,
/// else ~/.cache/relctl), so that each `deploy --push` does not mint a new
/// one: Apple answers a provider token refreshed more often than every 20
/// minutes with 429 TooManyProviderTokenUpdates. Each file is the owner's
/// alone (0600 in a 0700 folder), holds "<instant> <token>", and is read
/// only when small and regular; anything else is ignored and replaced.
/// The instant is when an APNs provider token was issued, and when an FCM
/// access token expires (what each one's reuse is decided by).
public struct TokenCache: Sendable {
    public let dir: String

    public init(dir: String) { self.dir = dir }

    public static func locate(_ env: [String: String]) -> TokenCache? {
        if let d = env["RELCTL_CACHE_DIR"], !d.isEmpty {
            if d.hasPrefix("/") { return TokenCache(dir: d) }
            // Relative: to the folder relctl runs in, as a path on the command line would be.
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            guard getcwd(&buffer, buffer.count) != nil else { return nil }
            return TokenCache(dir: String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) + "/" + d)
        }
        if let d = env["XDG_CACHE_HOME"], d.hasPrefix("/") { return TokenCache(dir: d + "/relctl") }
        if let h = env["HOME"], h.hasPrefix("/") { return TokenCache(dir: h + "/.cache/relctl") }
        return nil
    }

    public func read(_ name: String) -> (at: Int64, token: String)? {
        let path = dir + "/" + name
        var st = stat()
        guard lstat(path, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG, st.st_size <= 16 << 10, st.st_uid == getuid(),
              let bytes = try? FileSystem.readFile(path, limit: 16 << 10) else { return nil }
        let parts = String(decoding: bytes, as: UTF8.self).trimmingSpaces().split(separator: " ", maxSplits: 1)
        // An instant within reach (arithmetic on it never overflows); anything else is no token of ours.
        guard parts.count == 2, let at = Int64(parts[0]), at >= 0, at < 1 << 40, !parts[1].isEmpty,
              parts[1].utf8.allSatisfy({ $0 > 32 && $0 < 127 && $0 != 34 && $0 != 92 }) else { return nil }
        return (at, String(parts[1]))
    }

    /// The folder, made (0700) when missing; false when it cannot be.
    func made() -> Bool {
        var prefix = ""
        for part in dir.split(separator: "/") {
            prefix += "/" + part
            _ = mkdir(prefix, 0o700)
        }
        return FileSystem.kind(of: dir) == .directory
    }

    /// Runs `body` holding the cache's lock (flock on DIR/.lock), so two runs
    /// at once do not both mint a token; without a cache, or a lock to be
    /// had, it runs all the same.
    public static func locked<T>(_ cache: TokenCache?, _ body: () throws -> T) rethrows -> T {
        guard let cache, cache.made() else { return try body() }
        let fd = open(cache.dir + "/.lock", O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return try body() }
        defer { close(fd) }
        _ = flock(fd, LOCK_EX)
        defer { _ = flock(fd, LOCK_UN) }
        return try body()
    }

    /// Best effort: a cache that cannot be written costs a token (false), nothing else.
    @discardableResult
    public func write(_ name: String, at: Int64, token: String) -> Bool {
        guard made() else { return false }
        let temporary = dir + "/.\(name).\(getpid()).\(UInt32.random(in: .min ... .max))"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return false }
        let bytes = Array("\(at) \(token)\n".utf8)
        let wrote = writeAll(fd, bytes)
        close(fd)
        guard wrote == bytes.count, rename(temporary, dir + "/" + name) == 0 else { unlink(temporary); return false }
        return true
    }

    public func remove(_ name: String) { unlink(dir + "/" + name) }
}

/// write(2) by its C name (inside TokenCache, `write` is the method), until all is written; the count written.
private func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Int {
    var done = 0
    while done < bytes.count {
        let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + done, $0.count - done) }
        if n < 0 && errno == EINTR { continue }
        guard n > 0 else { break }
        done += n
    }
    return done
}
