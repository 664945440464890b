import RelctlCore

/// How publish signs a project that trusts keys: its control.json becomes a
/// signed envelope (SignedDocument) and each appcast carries Sparkle 2.9's
/// signed-feed block. The other formats have no place for a signature.
public enum Signing {
    public static let validity = SignedDocument.validity
    public static let renewAfter = SignedDocument.renewAfter
    public static let warnAhead = SignedDocument.warnAhead

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

    /// The keys of `keys` the project trusts, in the order it trusts them
    /// (the first signs the appcasts, whose block holds one signature); an
    /// error when it trusts keys and none is given.
    static func keys(for project: ProjectRecord, from keys: [SigningKey]) throws -> [SigningKey] {
        let usable = project.trustedKeys.compactMap { trusted in keys.first { $0.publicKeyText == trusted } }
        guard usable.isEmpty else { return usable }
        let ids = project.trustedKeys.compactMap { Ed25519.publicKey($0).map(Ed25519.keyID) }.joined(separator: ", ")
        let given = keys.map { "\($0.path) (key \($0.keyID))" }.joined(separator: ", ")
        throw PublishError("project '\(project.slug)' trusts keys \(ids), and is never published unsigned: "
                           + (keys.isEmpty ? "no signing key was given" : "\(given) is not one of them"),
                           hint: "give the private key of a trusted one with --signing-key FILE (or RELCTL_SIGNING_KEY)")
    }

    /// The live control.json of a project in DIR, taken apart (not verified).
    static func live(_ dir: String, _ slug: String) -> (payload: [UInt8], signatures: [SignedDocument.Signature])? {
        guard let bytes = try? FileSystem.readFile(dir + "/" + FileKinds.control.path(project: slug), limit: ControlDocument.maximumBytes),
              SignedDocument.isEnvelope(bytes) else { return nil }
        return try? SignedDocument.unpack(bytes)
    }

    /// The revision of the signed control.json in DIR, when a key of the
    /// project's signed it (a file nobody trusted signed says nothing).
    public static func liveRevision(_ dir: String, project: ProjectRecord) -> Int64? {
        guard let (payload, signatures) = live(dir, project.slug) else { return nil }
        let keys = project.trustedKeys.compactMap(Ed25519.publicKey)
        guard signatures.contains(where: { s in keys.contains { Ed25519.keyID($0) == s.keyID && Ed25519.isValid(signature: s.bytes, message: payload, publicKey: $0) } })
        else { return nil }
        return SignedDocument.seal(ofPayload: payload)?.revision
    }

    /// The signing projects whose live control.json is not signed by the keys
    /// a publish now would sign with (a key moved to its backup): rendered
    /// again, though nothing else about them changed.
    static func resigned(_ projects: [ProjectRecord], keys: [SigningKey], dir: String) -> Set<String> {
        var out: Set<String> = []
        for p in projects where !p.trustedKeys.isEmpty {
            guard let wanted = try? Signing.keys(for: p, from: keys) else { continue }
            let bytes = try? FileSystem.readFile(dir + "/" + FileKinds.control.path(project: p.slug), limit: ControlDocument.maximumBytes)
            let signers = bytes.flatMap(SignedDocument.keyIDs) ?? []
            if Set(signers) != Set(wanted.map(\.keyID)) { out.insert(p.slug) }
        }
        return out
    }

    /// The seal of a document signed at `now` (the clock, whatever instant
    /// the files are for): its revision is that instant in seconds, or one
    /// past the live one in DIR, so it never goes backwards, after a rebuild
    /// from the exported file too.
    static func seal(project: String, now: Int64, live: Int64?) throws -> SignedDocument.Seal {
        let live = live ?? 0
        guard live < SignedDocument.maximumRevision else {
            throw PublishError("the live control.json of '\(project)' has revision \(live), the highest a revision may be",
                               hint: "apps that accepted it accept no newer file from its key: move to the backup key (see the README's rotation)")
        }
        return SignedDocument.Seal(project: project, revision: max(now, live + 1), issuedAt: now, expiresAt: now + validity)
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

    /// What the cores that render a publish's projects need to sign them:
    /// the keys given, DIR (whose live control.json's revision a new one
    /// passes), the clock, and whether it is a dry run.
    package struct Request: Sendable {
        package var keys: [SigningKey]
        package var dir: String
        package var now: Int64
        package var dryRun: Bool
    }

    /// Signs the project's files in place at `request.now`, before they are
    /// hashed (a file is hashed once, as written); returns the seal of its
    /// control.json. A dry run with no trusted key given signs nothing (a
    /// preview needs no secret) and says so in `warnings`.
    static func sign(_ files: inout [PublishedFile], project: ProjectRecord, _ request: Request, warnings: inout [String]) throws -> SignedDocument.Seal? {
        let keys: [SigningKey]
        do { keys = try Signing.keys(for: project, from: request.keys) } catch let e as PublishError where request.dryRun {
            warnings.append("\(project.slug): a dry run without its signing key: the files are shown unsigned (\(e.message))")
            return nil
        }
        let controlPath = FileKinds.control.path(project: project.slug)
        let seal = try Signing.seal(project: project.slug, now: request.now, live: liveRevision(request.dir, project: project))
        for i in files.indices {
            let path = files[i].path
            if path == controlPath {
                files[i].bytes = signControl(files[i].bytes, seal: seal, keys: keys)
            } else if FileKinds.appcast.matches(path) {
                files[i].bytes = signAppcast(files[i].bytes, key: keys[0])
            }
        }
        return seal
    }
}
