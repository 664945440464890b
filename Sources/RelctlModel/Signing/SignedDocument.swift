/// A signed control.json: the document's exact bytes and their Ed25519
/// signatures in one file, so a CDN can never pair a new document with an
/// old signature:
///
///     {"payload":"<base64 of the document>","signatures":[{"keyId":"<16 hex>","sig":"<base64 of 64 bytes>"}]}
///
/// The document inside names its project, a revision that never goes
/// backwards, and when it was issued and expires (`"signed"`, a `Seal`).
/// A reader checks in this order, and obeys nothing that fails: the
/// envelope's shape, a signature by a trusted key over the payload's raw
/// bytes, then (parsing the payload) its project, its revision against the
/// last one accepted, its expiry. No check reads a byte the signature has
/// not yet covered.
public enum SignedDocument {
    /// What the signed document says of itself (its `"signed"` member).
    public struct Seal: Sendable, Equatable {
        public var project: String
        /// Never lower than any earlier document of the project's: seconds since 1970 at the publish, or one more than the last.
        public var revision: Int64
        public var issuedAt: Int64
        public var expiresAt: Int64

        public init(project: String, revision: Int64, issuedAt: Int64, expiresAt: Int64) {
            self.project = project; self.revision = revision; self.issuedAt = issuedAt; self.expiresAt = expiresAt
        }

        /// As the payload's "signed" member holds it; nil for anything else.
        public init?(_ json: JSON?) {
            guard case .object(let o)? = json, case .string(let project)? = o["project"], (try? Names.slug(project)) == project,
                  case .int(let revision)? = o["revision"], revision >= 0, revision <= SignedDocument.maximumRevision,
                  case .string(let issued)? = o["issuedAt"], let issuedAt = Time.parseUTC(issued),
                  case .string(let expires)? = o["expiresAt"], let expiresAt = Time.parseUTC(expires) else { return nil }
            self.init(project: project, revision: revision, issuedAt: issuedAt, expiresAt: expiresAt)
        }

        var json: JSON {
            .ordered(["expiresAt": .time(expiresAt), "issuedAt": .time(issuedAt), "project": .string(project), "revision": .int(revision)])
        }
    }

    public struct Signature: Sendable, Equatable {
        public var keyID: String
        public var bytes: [UInt8]

        public init(keyID: String, bytes: [UInt8]) { self.keyID = keyID; self.bytes = bytes }
    }

    /// Why a document is not obeyed, worded for `lastError` and verify.
    public enum Refusal: Error, Equatable, Sendable {
        /// A plain control.json where a signed one is required.
        case unsigned
        case malformed(String)
        /// No signature is by a key the reader trusts (the key ids it carries).
        case untrusted([String])
        /// A signature by a trusted key does not verify: the file was altered.
        case badSignature(String)
        case otherProject(document: String, expected: String)
        case older(revision: Int64, accepted: Int64)
        /// Valid for longer than any relctl signs for, or issued ahead of the clock: a leaked key's long-lived forgery.
        case overlong(issued: Int64, expires: Int64)
        case expired(at: Int64)

        public var message: String {
            switch self {
            case .unsigned: return "the document is not signed, and this app trusts only signed ones"
            case .malformed(let why): return "the signed document is malformed: \(why)"
            case .untrusted(let ids): return "the document is signed by \(ids.isEmpty ? "no key" : "key \(ids.joined(separator: ", "))"), which this app does not trust"
            case .badSignature(let id): return "the signature by key \(id) does not match the document: it was altered"
            case .otherProject(let document, let expected): return "the document is for project '\(document)', not '\(expected)'"
            case .older(let revision, let accepted):
                return revision == accepted ? "the document's revision \(revision) was already accepted with other content (a replay)"
                    : "the document's revision \(revision) is older than revision \(accepted), already accepted (a replay)"
            case .overlong(let issued, let expires):
                return "the document is issued at \(Time.format(issued)) and expires at \(Time.format(expires)): issued ahead of the clock, or valid for more than \(SignedDocument.maximumValidity / 86_400) days"
            case .expired(let at): return "the document expired at \(Time.format(at))"
            }
        }
    }

    /// How long relctl's signed documents are obeyed after they are issued ...
    public static let validity: Int64 = 7 * 86_400
    /// ... and when publish signs them again: three days before they expire,
    /// so a watcher down for a day or two never lets the live files lapse.
    public static let renewAfter: Int64 = 4 * 86_400
    /// status and verify warn when the live files expire sooner than this.
    public static let warnAhead: Int64 = 86_400

    /// A reader obeys no document valid for longer (relctl signs for `validity`) ...
    public static let maximumValidity: Int64 = 31 * 86_400
    /// ... or issued further ahead of its clock than this.
    public static let clockSkew: Int64 = 86_400
    /// Revisions stay exact in every JSON reader (2^53 - 1).
    public static let maximumRevision: Int64 = 9_007_199_254_740_991

    /// At most this many signatures are looked at (a key and its backup, during a rotation).
    public static let maximumSignatures = 8

    // MARK: writing

    /// The document with its seal: `{"signed":{…},` then the document's members.
    public static func payload(_ document: [UInt8], seal: Seal) -> [UInt8] {
        precondition(document.first == UInt8(ascii: "{") && document.count > 2, "a control document is a non-empty object")
        var out: [UInt8] = Array(#"{"signed":"#.utf8)
        seal.json.writeCompact(to: &out)
        out.append(UInt8(ascii: ","))
        out += document.dropFirst()
        return out
    }

    public static func envelope(payload: [UInt8], signatures: [Signature]) -> [UInt8] {
        JSON.ordered([
            // Base64 needs no escaping: written as it is, not scanned again for quotes.
            "payload": .raw([34] + Base64.encodedBytes(payload) + [34]),
            "signatures": .array(signatures.map { .ordered(["keyId": .string($0.keyID), "sig": .string(Base64.encode($0.bytes))]) }),
        ]).compactBytes()
    }

    // MARK: reading

    /// Whether the bytes are an envelope (a JSON object whose first member is "payload"), not a plain document.
    public static func isEnvelope(_ bytes: [UInt8]) -> Bool {
        var i = 0
        while i < bytes.count, [9, 10, 13, 32].contains(bytes[i]) { i += 1 }
        guard i < bytes.count, bytes[i] == UInt8(ascii: "{") else { return false }
        i += 1
        while i < bytes.count, [9, 10, 13, 32].contains(bytes[i]) { i += 1 }
        return JSONReader.hasPrefix(bytes, at: i, Array(#""payload""#.utf8))
    }

    /// The envelope taken apart, checked for shape only: nothing in it is trusted yet.
    public static func unpack(_ bytes: [UInt8]) throws(Refusal) -> (payload: [UInt8], signatures: [Signature]) {
        guard case .object(let top)? = try? JSONReader.parse(bytes) else { throw .malformed("not a JSON object") }
        if let repeated = JSONReader.repeatedKey(bytes) { throw .malformed("\(repeated.path) holds '\(repeated.key)' twice") }
        guard Set(top.keys) == ["payload", "signatures"] else { throw .malformed("an envelope has exactly the members payload and signatures") }
        guard case .string(let text)? = top["payload"], let payload = Base64.decode(text) else { throw .malformed("payload is not canonical base64") }
        guard case .array(let list)? = top["signatures"], !list.isEmpty, list.count <= maximumSignatures else {
            throw .malformed("signatures must list 1 to \(maximumSignatures) signatures")
        }
        var signatures: [Signature] = []
        for (i, item) in list.enumerated() {
            guard case .object(let o) = item, Set(o.keys) == ["keyId", "sig"], case .string(let id)? = o["keyId"], isKeyID(id),
                  case .string(let sig)? = o["sig"], let bytes = Base64.decode(sig), bytes.count == Ed25519.signatureBytes else {
                throw .malformed("signatures[\(i)] must be {\"keyId\": 16 hex digits, \"sig\": base64 of 64 bytes}")
            }
            signatures.append(Signature(keyID: id, bytes: bytes))
        }
        return (payload, signatures)
    }

    /// The seal of a payload already verified, read without the rest of the
    /// document (publish asks the live file's revision of every signing project).
    public static func seal(ofPayload payload: [UInt8]) -> Seal? {
        guard let top = try? JSONReader.members(payload), let range = top["signed"] else { return nil }
        return Seal(JSONReader.value(payload, at: range))
    }

    /// 16 lowercase hex digits, as key ids are written.
    public static func isKeyID(_ s: String) -> Bool {
        s.utf8.count == 16 && s.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }

    /// The key ids an envelope's signatures name, read without decoding its
    /// payload (publish asks it of every signing project's live file).
    public static func keyIDs(_ bytes: [UInt8]) -> [String]? {
        guard let top = try? JSONReader.members(bytes), let range = top["signatures"],
              case .array(let list)? = JSONReader.value(bytes, at: range) else { return nil }
        return list.compactMap { if case .object(let o) = $0, case .string(let id)? = o["keyId"] { return id } else { return nil } }
    }

    /// The payload, once a signature by one of `keys` (raw public keys)
    /// covers it, and the ids of the keys that signed it. A signature that
    /// names a trusted key and does not verify refuses the whole file.
    public static func verified(_ bytes: [UInt8], keys: [[UInt8]]) throws(Refusal) -> (payload: [UInt8], keyIDs: [String]) {
        guard isEnvelope(bytes) else { throw .unsigned }
        let (payload, signatures) = try unpack(bytes)
        let trusted = Dictionary(keys.map { (Ed25519.keyID($0), $0) }, uniquingKeysWith: { first, _ in first })
        var by: [String] = []
        for s in signatures {
            guard let key = trusted[s.keyID] else { continue }
            guard Ed25519.isValid(signature: s.bytes, message: payload, publicKey: key) else { throw .badSignature(s.keyID) }
            by.append(s.keyID)
        }
        guard !by.isEmpty else { throw .untrusted(signatures.map(\.keyID)) }
        return (payload, by)
    }

    /// The checks after the signature, on the seal read from the payload:
    /// project, revision, expiry, in that order. `project` nil: any.
    /// `accepted`: per key id, the highest revision accepted from a document
    /// that key signed, and the seal of the document in force (`current`):
    /// a document is refused when it is older than that key's last one, or
    /// as old and not the document in force. Per key, so that a leaked key's
    /// forgery with a revision far ahead cannot make apps refuse the backup
    /// key's documents after a rotation. `now`: nil checks no instant (a stored document, read again).
    public static func check(_ seal: Seal?, signedBy keyIDs: [String] = [], project: String?, accepted: [String: Int64] = [:], current: Seal? = nil,
                             at now: Int64?) throws(Refusal) {
        guard let seal else { throw .malformed("the payload has no \"signed\" member naming its project, revision and expiry") }
        if let project, seal.project != project { throw .otherProject(document: seal.project, expected: project) }
        for id in keyIDs {
            guard let floor = accepted[id] else { continue }
            if seal.revision < floor || (seal.revision == floor && seal != current) { throw .older(revision: seal.revision, accepted: floor) }
        }
        if seal.expiresAt - seal.issuedAt > maximumValidity { throw .overlong(issued: seal.issuedAt, expires: seal.expiresAt) }
        guard let now else { return }
        if seal.issuedAt > now + clockSkew { throw .overlong(issued: seal.issuedAt, expires: seal.expiresAt) }
        if now >= seal.expiresAt { throw .expired(at: seal.expiresAt) }
    }
}
