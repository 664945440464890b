import RelctlCore

/// How publish signs a project that trusts keys: its control.json becomes a
/// signed envelope (SignedDocument) and each appcast carries Sparkle 2.9's
/// signed-feed block. The other formats have no place for a signature.
public enum Signing {
    public static let validity = SignedDocument.validity
    public static let renewAfter = SignedDocument.renewAfter
    public static let warnAhead = SignedDocument.warnAhead
    /// Revisions stay exact in every JSON reader (2^53 - 1).
    static let maximumRevision: Int64 = 9_007_199_254_740_991

    /// What a signing project's other files cannot carry: a signature. Said
    /// once, with the project's other limits, for each format it publishes.
    static func limits(_ snapshot: ProjectSnapshot, paths: [String]) -> [Limit] {
        guard !snapshot.project.trustedKeys.isEmpty else { return [] }
        let intent = "a signature apps check (the project trusts keys)"
        let unsigned = "the format has no place for a signature: whoever can write the bucket can change this file"
        var out: [Limit] = []
        for p in snapshot.platforms {
            let mine = paths.filter { $0.hasPrefix("\(snapshot.project.slug)/\(p.name)/") }
            func has(_ kind: FileKind) -> Bool { mine.contains(where: kind.matches) }
            if has(FileKinds.retired) { out.append(Limit(client: .retired, platform: p.name, intent: intent, reason: unsigned)) }
            if has(FileKinds.andVersion) {
                out.append(Limit(client: p.name == "android" ? .andVersionAndroid : .andVersionIOS, platform: p.name, intent: intent, reason: unsigned))
            }
            if has(FileKinds.siren) { out.append(Limit(client: .siren, platform: p.name, intent: intent, reason: unsigned)) }
            if paths.contains(FileKinds.princeOfVersions.path(project: snapshot.project.slug)) {
                out.append(Limit(client: .princeOfVersions, platform: p.name, intent: intent, reason: unsigned))
            }
            if has(FileKinds.appcast) {
                out.append(Limit(client: .upgrader, platform: p.name, intent: intent,
                                 reason: "ignores the appcast's signed-feed block (Sparkle with SURequireSignedFeed checks it)"))
            }
        }
        return out
    }

    /// The keys of `keys` the project trusts; an error when it trusts keys and none is given.
    static func keys(for project: ProjectRecord, from keys: [SigningKey]) throws -> [SigningKey] {
        let usable = keys.filter { project.trustedKeys.contains($0.publicKeyText) }
        guard usable.isEmpty else { return usable }
        let ids = project.trustedKeys.compactMap { Ed25519.publicKey($0).map(Ed25519.keyID) }.joined(separator: ", ")
        let given = keys.map { "\($0.path) (key \($0.keyID))" }.joined(separator: ", ")
        throw PublishError("project '\(project.slug)' trusts keys \(ids), and is never published unsigned: "
                           + (keys.isEmpty ? "no signing key was given" : "\(given) is not one of them"),
                           hint: "give the private key of a trusted one with --signing-key FILE (or RELCTL_SIGNING_KEY)")
    }

    /// The revision of the signed control.json now at `path`, when a key of
    /// the project's signed it (a file nobody trusted signed says nothing).
    static func liveRevision(_ path: String, trusted: [String]) -> Int64? {
        guard let bytes = try? FileSystem.readFile(path, limit: ControlDocument.maximumBytes),
              let (payload, _) = try? SignedDocument.verified(bytes, keys: trusted.compactMap(Ed25519.publicKey)),
              let seal = SignedDocument.seal(ofPayload: payload) else { return nil }
        return seal.revision
    }

    /// The seal of a document issued at `at`: its revision is the instant in
    /// seconds, or one past the live one in DIR, so it never goes backwards,
    /// after a rebuild from the exported file too.
    static func seal(project: String, at: Int64, live: Int64?) throws -> SignedDocument.Seal {
        let revision = max(at, (live ?? 0) + 1)
        guard revision <= maximumRevision else {
            throw PublishError("the live control.json of '\(project)' has revision \(live ?? 0), the highest a revision may be",
                               hint: "apps that accepted it accept no newer file: ship new pinned keys and start again")
        }
        return SignedDocument.Seal(project: project, revision: revision, issuedAt: at, expiresAt: at + validity)
    }

    /// control.json as its envelope, signed by every key given.
    static func signControl(_ document: [UInt8], seal: SignedDocument.Seal, keys: [SigningKey]) -> [UInt8] {
        let payload = SignedDocument.payload(document, seal: seal)
        return SignedDocument.envelope(payload: payload, signatures: keys.map { .init(keyID: $0.keyID, bytes: $0.sign(payload)) })
    }

    /// An appcast with Sparkle 2.9's signed-feed block after every byte it
    /// signs (one key: the block has room for one signature).
    public static func signAppcast(_ feed: [UInt8], key: SigningKey) -> [UInt8] {
        feed + Array("<!-- sparkle-signatures:\nedSignature: \(Base64.encode(key.sign(feed)))\nlength: \(feed.count)\n-->\n".utf8)
    }

    /// Signs the project's files in place; returns the seal of its control.json.
    static func sign(_ files: inout [HashedFile], project: ProjectRecord, keys given: [SigningKey], dir: String, at: Int64) throws -> SignedDocument.Seal {
        let keys = try keys(for: project, from: given)
        let controlPath = FileKinds.control.path(project: project.slug)
        let seal = try seal(project: project.slug, at: at, live: liveRevision(dir + "/" + controlPath, trusted: project.trustedKeys))
        for i in files.indices {
            let path = files[i].path
            if path == controlPath {
                files[i].bytes = signControl(files[i].bytes, seal: seal, keys: keys)
            } else if FileKinds.appcast.matches(path) {
                files[i].bytes = signAppcast(files[i].bytes, key: keys[0])
            } else { continue }
            files[i].sha256 = SHA256.hex(files[i].bytes)
        }
        return seal
    }
}
