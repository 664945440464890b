/// The signatures of a project's published files as apps that pin its keys
/// check them: control.json's envelope (SignedDocument) and the appcasts'
/// Sparkle signed-feed block. verify and the client simulations ask here.
public enum Signatures {
    /// control.json's document as a control client reads it: a signed one's
    /// payload once a key the project trusts signed it for this project. A
    /// plain document of a project that trusts keys is refused `asPublished`
    /// (verify reads the tree; publish checks its files before signing them).
    public static func controlPayload(_ bytes: [UInt8], project: ProjectRecord, asPublished: Bool) throws(SignedDocument.Refusal) -> [UInt8] {
        let keys = project.trustedKeys.compactMap(Ed25519.publicKey)
        guard SignedDocument.isEnvelope(bytes) else {
            if asPublished && !keys.isEmpty { throw .unsigned }
            return bytes
        }
        // An app that pins no key reads the payload unchecked.
        guard !keys.isEmpty else { return try SignedDocument.unpack(bytes).payload }
        let payload = try SignedDocument.verified(bytes, keys: keys).payload
        // The seal alone: the client simulations read the rest (a whole parse here was most of verify's cost for a signed tree).
        try SignedDocument.check(SignedDocument.seal(ofPayload: payload), project: project.slug, at: nil)
        return payload
    }

    /// What the signed control.json in a tree says of itself.
    public struct Live: Sendable, Equatable {
        public var seal: SignedDocument.Seal
        public var keyIDs: [String]
    }

    /// The signed control.json's seal and signers, checked as an app checks it at `now`.
    public static func live(_ bytes: [UInt8], project: ProjectRecord, at now: Int64) throws(SignedDocument.Refusal) -> Live {
        let keys = project.trustedKeys.compactMap(Ed25519.publicKey)
        let (payload, by) = try SignedDocument.verified(bytes, keys: keys)
        let seal = SignedDocument.seal(ofPayload: payload)
        try SignedDocument.check(seal, project: project.slug, at: now)
        return Live(seal: seal!, keyIDs: by)
    }

    static let sparklePrefix = Array("<!-- sparkle-signatures:\n".utf8)

    /// Why Sparkle (SURequireSignedFeed) would refuse an appcast signed by
    /// the project's keys; nil when it accepts it. As Sparkle reads it: the
    /// signed bytes are all before the last block, whose edSignature line
    /// holds a base64 signature of 64 bytes.
    public static func appcastProblem(_ bytes: [UInt8], project: ProjectRecord) -> String? {
        guard let start = lastIndex(of: sparklePrefix, in: bytes) else { return "it has no Sparkle signed-feed block" }
        let rest = Array(bytes[(start + sparklePrefix.count)...])
        guard let end = (0..<max(0, rest.count - 2)).first(where: { rest[$0] == 45 && rest[$0 + 1] == 45 && rest[$0 + 2] == 62 }) else {
            return "its signed-feed block is not closed"
        }
        var signature: [UInt8]? = nil
        for line in String(decoding: rest[..<end], as: UTF8.self).split(separator: "\n") where line.hasPrefix("edSignature:") {
            signature = Base64.decode(String(line.dropFirst(12)).trimmingSpaces())
        }
        guard let signature, signature.count == Ed25519.signatureBytes else { return "its signed-feed block has no edSignature of 64 bytes" }
        let content = Array(bytes[..<start])
        guard project.trustedKeys.compactMap(Ed25519.publicKey).contains(where: { Ed25519.isValid(signature: signature, message: content, publicKey: $0) }) else {
            return "its edSignature is not by a key the project trusts over the feed's bytes: altered, or signed by another key"
        }
        return nil
    }

    static func lastIndex(of needle: [UInt8], in bytes: [UInt8]) -> Int? {
        guard bytes.count >= needle.count else { return nil }
        var i = bytes.count - needle.count
        while i >= 0 {
            if bytes[i] == needle[0], Array(bytes[i..<(i + needle.count)]) == needle { return i }
            i -= 1
        }
        return nil
    }
}
