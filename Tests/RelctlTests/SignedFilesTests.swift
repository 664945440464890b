import Foundation
import XCTest
import Synchronization
@testable import RelctlCLI
@testable import RelctlCore
@testable import RelctlModel
@testable import RelctlPublish
@testable import RelctlClient
@testable import SQLite

/// Ed25519 as relctl signs and verifies it, held to RFC 8032 and to OpenSSL.
final class Ed25519Tests: XCTestCase {
    static func hex(_ s: String) -> [UInt8] {
        var out: [UInt8] = [], chars = Array(s.utf8)
        while chars.count >= 2 { out.append(UInt8(String(decoding: chars.prefix(2), as: UTF8.self), radix: 16)!); chars.removeFirst(2) }
        return out
    }

    /// RFC 8032 section 7.1, tests 1 to 3: the public key of each secret,
    /// the signature made from it, and verification of it and of nothing else.
    func testRFC8032Vectors() throws {
        let vectors = [
            ("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60", "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a", "",
             "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b"),
            ("4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb", "3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c", "72",
             "92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00"),
            ("c5aa8df43f9f837bedb7442f31dcb7b166d38535076f094b85ce3a2e0b4458f7", "fc51cd8e6218a1a38da47ed00230f0580816ed13ba3303ac5deb911548908025", "af82",
             "6291d657deec24024827e69c3abe01a30ce548a284743a445e3680d7db5ac3ac18ff9b538d16f290ae67f760984dc6594a7c15e9716ed28dc027beceea1ec40a"),
        ]
        for (secret, publicKey, message, signature) in vectors {
            let key = try SigningKey.fromSeed(Self.hex(secret), name: "vector")
            XCTAssertEqual(key.publicKey, Self.hex(publicKey))
            XCTAssertEqual(key.sign(Self.hex(message)), Self.hex(signature))
            XCTAssertTrue(Ed25519.isValid(signature: Self.hex(signature), message: Self.hex(message), publicKey: Self.hex(publicKey)))
            var other = Self.hex(message) + [0]
            XCTAssertFalse(Ed25519.isValid(signature: Self.hex(signature), message: other, publicKey: Self.hex(publicKey)))
            other = Self.hex(signature)
            other[10] ^= 1
            XCTAssertFalse(Ed25519.isValid(signature: other, message: Self.hex(message), publicKey: Self.hex(publicKey)))
        }
    }

    /// S + L verifies the same equation as S (a second encoding of one
    /// signature): refused on every platform, as are keys whose y is not below p.
    func testNonCanonicalSignaturesAndKeysAreRefused() throws {
        let pub = Self.hex("d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a")
        var signature = Self.hex("e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b")
        XCTAssertTrue(Ed25519.isValid(signature: signature, message: [], publicKey: pub))
        var carry = 0
        for i in 0..<32 {
            let sum = Int(signature[32 + i]) + Int(Ed25519.order[i]) + carry
            signature[32 + i] = UInt8(sum & 255)
            carry = sum >> 8
        }
        XCTAssertEqual(carry, 0, "S + L still fits in 32 bytes")
        XCTAssertFalse(Ed25519.isValid(signature: signature, message: [], publicKey: pub), "S + L is refused")
        XCTAssertFalse(Ed25519.isCanonicalScalar(signature[32..<64]), "refused before either library is asked")
        XCTAssertFalse(Ed25519.isCanonicalScalar(ArraySlice(Ed25519.order)), "L itself is not below L")
        // y = p (2^255 - 19) and y = 2^255 - 1: not canonical.
        let p: [UInt8] = [0xed] + Array(repeating: 0xff, count: 30) + [0x7f]
        XCTAssertFalse(Ed25519.isCanonicalPoint(p[...]))
        XCTAssertFalse(Ed25519.isCanonicalPoint(([0xff] + Array(repeating: 0xff, count: 30) + [0xff])[...]))
        XCTAssertTrue(Ed25519.isCanonicalPoint(([0xec] + Array(repeating: 0xff, count: 30) + [0x7f])[...]))
        XCTAssertNil(Ed25519.publicKey(Base64.encode(p)))
        XCTAssertFalse(Ed25519.isValid(signature: Array(signature.prefix(63)), message: [], publicKey: pub))
    }

    /// Base64 reads only the one encoding of each byte string: a signed file
    /// altered in an unused bit never reads as the same bytes.
    func testBase64IsStrict() {
        var generator = SystemRandomNumberGenerator()
        for n in 0..<70 {
            let bytes = (0..<n).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let text = Base64.encode(bytes)
            XCTAssertEqual(text, Data(bytes).base64EncodedString())
            XCTAssertEqual(Base64.decode(text), bytes)
        }
        for bad in ["QR==", "QUJ=", "QQ", "QQ=", "Q===", "QU JD", "QUJD\n", "=QUJ", "QU=D", "QUJD====", "QUJ-", "QUJ_"] {
            XCTAssertNil(Base64.decode(bad), bad)
        }
        XCTAssertEqual(Base64.decode("QQ=="), [65])
    }

    /// A publish signs on every core with one key: what each thread signs is
    /// what one thread alone signs (Ed25519 is deterministic), and verifies.
    func testOneKeySignsOnManyThreadsAtOnce() throws {
        let key = try SigningKey.fromSeed((0..<32).map { UInt8($0 * 7 & 0xFF) }, name: "threads")
        var generator = SplitMix(seed: 99)
        let messages = (0..<2_000).map { _ in (0..<Int.random(in: 0...4_000, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) } }
        // The key's first signatures are made on every core at once, as a publish's are.
        let together = Mutex<[Int: [UInt8]]>([:])
        DispatchQueue.concurrentPerform(iterations: messages.count) { i in
            let signature = key.sign(messages[i])
            together.withLock { $0[i] = signature }
        }
        let signed = together.withLock { $0 }
        let alone = messages.map(key.sign)
        for i in messages.indices {
            XCTAssertEqual(signed[i], alone[i], "message \(i)")
            XCTAssertTrue(Ed25519.isValid(signature: signed[i] ?? [], message: messages[i], publicKey: key.publicKey), "message \(i)")
        }
    }

    /// Against OpenSSL's own command, on many random keys and messages:
    /// relctl signs the same bytes OpenSSL does (Ed25519 is deterministic),
    /// OpenSSL accepts relctl's signatures, relctl accepts OpenSSL's, and
    /// both refuse the same altered ones.
    func testAgreesWithOpenSSLOnRandomKeysAndMessages() throws {
        let openssl = try XCTUnwrap(Proc.which("openssl"), "openssl is needed (scripts/deps.sh test installs it)")
        let dir = NSTemporaryDirectory() + "relctl-ed25519-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var generator = SystemRandomNumberGenerator()
        for round in 0..<48 {
            let pem = "\(dir)/k\(round).pem", pub = "\(dir)/k\(round).pub", msg = "\(dir)/m\(round)", sig = "\(dir)/s\(round)", bad = "\(dir)/b\(round)"
            XCTAssertEqual(try Proc.run(openssl, ["genpkey", "-algorithm", "ed25519", "-out", pem]).status, 0)
            XCTAssertEqual(try Proc.run(openssl, ["pkey", "-in", pem, "-pubout", "-out", pub]).status, 0)
            let message = (0..<Int.random(in: 1...300, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            try Data(message).write(to: URL(fileURLWithPath: msg))
            XCTAssertEqual(try Proc.run(openssl, ["pkeyutl", "-sign", "-inkey", pem, "-rawin", "-in", msg, "-out", sig]).status, 0)
            let theirs = Array(try Data(contentsOf: URL(fileURLWithPath: sig)))
            let key = try SigningKey.read(pem)
            let ours = key.sign(message)
            XCTAssertEqual(ours, theirs, "round \(round): the same signature")
            XCTAssertTrue(Ed25519.isValid(signature: theirs, message: message, publicKey: key.publicKey))
            // A bit flipped in the signature or the message: both refuse it.
            var altered = theirs
            altered[Int.random(in: 0..<64, using: &generator)] ^= UInt8(1 << Int.random(in: 0..<8, using: &generator))
            try Data(altered).write(to: URL(fileURLWithPath: bad))
            XCTAssertFalse(Ed25519.isValid(signature: altered, message: message, publicKey: key.publicKey))
            XCTAssertNotEqual(try Proc.run(openssl, ["pkeyutl", "-verify", "-pubin", "-inkey", pub, "-rawin", "-in", msg, "-sigfile", bad]).status, 0)
            var otherMessage = message
            otherMessage[Int.random(in: 0..<message.count, using: &generator)] ^= 0x20
            XCTAssertFalse(Ed25519.isValid(signature: theirs, message: otherMessage, publicKey: key.publicKey))
            if round % 4 == 0 {
                try Data(ours).write(to: URL(fileURLWithPath: sig))
                XCTAssertEqual(try Proc.run(openssl, ["pkeyutl", "-verify", "-pubin", "-inkey", pub, "-rawin", "-in", msg, "-sigfile", sig]).status, 0)
            }
        }
    }
}

/// Keys, signed publishes, what verify and status say of them, and the
/// client that reads them.
final class SignedFilesTests: XCTestCase {
    /// A sample project trusting a new key in h.dir/k.pem, with an appcast (a store link); returns the key.
    static func signing(_ h: Harness) -> (pem: String, key: String) {
        h.sample()
        h.ok("platform edit ios --store-url https://apps.apple.com/app/id1088280260")
        let made = h.ok("keys generate \(h.dir)/k.pem")
        let key = made.out.trimmingCharacters(in: .whitespacesAndNewlines)
        h.ok("keys trust \(key) --yes")
        return (h.dir + "/k.pem", key)
    }

    func testKeysAreMadeOnceReadableByTheirOwnerAndReadByOpenSSL() throws {
        let openssl = try XCTUnwrap(Proc.which("openssl"))
        let h = Harness()
        let r = h.ok("keys generate \(h.dir)/k.pem --json")
        let doc = try XCTUnwrap(r.json as? [String: String])
        let attributes = try FileManager.default.attributesOfItem(atPath: h.dir + "/k.pem")
        XCTAssertEqual((attributes[.posixPermissions] as? NSNumber)?.intValue, 0o600)
        let pem = try String(contentsOfFile: h.dir + "/k.pem", encoding: .utf8)
        XCTAssertTrue(pem.hasPrefix("-----BEGIN PRIVATE KEY-----\n"), "PKCS#8 PEM: \(pem)")
        let der = try Proc.run(openssl, ["pkey", "-in", h.dir + "/k.pem", "-pubout", "-outform", "DER", "-out", h.dir + "/pub.der"])
        XCTAssertEqual(der.status, 0, der.err)
        let raw = Array(try Data(contentsOf: URL(fileURLWithPath: h.dir + "/pub.der")).suffix(32))
        XCTAssertEqual(doc["publicKey"], Base64.encode(raw))
        XCTAssertEqual(doc["keyId"], Ed25519.keyID(raw))
        // Never overwritten, and nothing is written into a database by it.
        h.fails("keys generate \(h.dir)/k.pem", "already exists")
        XCTAssertEqual(try String(contentsOfFile: h.dir + "/k.pem", encoding: .utf8), pem)
        XCTAssertFalse(FileManager.default.fileExists(atPath: h.db))
        // Bad keys and key files: one line, status 2, nothing changed.
        h.ok("init")
        h.ok("project add shop --name Shop")
        h.fails("keys trust bm90IGEga2V5 --yes", status: 2, "is not an Ed25519 public key")
        h.fails("keys retire 0123456789abcdef --yes", "does not trust key")
        XCTAssertEqual(try Proc.run(openssl, ["genpkey", "-algorithm", "rsa", "-pkeyopt", "rsa_keygen_bits:1024", "-out", h.dir + "/rsa.pem"]).status, 0)
        h.ok("keys trust \(doc["publicKey"]!) --yes")
        h.fails("publish \(h.dir)/out --signing-key \(h.dir)/rsa.pem", status: 2, "not Ed25519")
        h.fails("publish \(h.dir)/out --signing-key \(h.dir)/missing.pem", status: 2, "no such file")
        XCTAssertEqual(try Proc.run(openssl, ["genpkey", "-algorithm", "ed25519", "-aes256", "-pass", "pass:secret", "-out", h.dir + "/locked.pem"]).status, 0)
        h.fails("publish \(h.dir)/out --signing-key \(h.dir)/locked.pem", status: 2, "not an unencrypted PEM private key")
        XCTAssertFalse(FileManager.default.fileExists(atPath: h.dir + "/out/index.json"))
        // The last key is retired only on purpose.
        h.fails("keys retire \(doc["keyId"]!) --yes", "is the last key")
        h.ok("keys retire \(doc["keyId"]!) --unsigned --yes")
        XCTAssertTrue(h.ok("keys list --json").out.contains("\"keys\":[]"))
        // A key edited by hand into something else is a bad row, named, for reads and publish alike.
        try Connection(path: h.db, readOnly: false, create: false).execute("UPDATE project SET trusted_keys = 'bm90IGEga2V5' WHERE slug = 'shop'")
        h.fails("status", "its trusted key 'bm90IGEga2V5' is not base64 of a 32-byte Ed25519 public key")
        h.fails("publish \(h.dir)/out", "its trusted key")
    }

    /// A project that trusts keys is never published unsigned; its
    /// control.json is one file holding the signed bytes and a signature
    /// OpenSSL verifies, and its appcast carries Sparkle's block.
    func testPublishSignsWhatOpenSSLVerifiesAndNeverShipsUnsigned() throws {
        let openssl = try XCTUnwrap(Proc.which("openssl"))
        let h = Harness()
        let (pem, key) = Self.signing(h)
        let out = h.dir + "/out"
        h.fails("publish \(out)", "is never published unsigned")
        let other = h.ok("keys generate \(h.dir)/other.pem").out.trimmingCharacters(in: .whitespacesAndNewlines)
        h.fails("publish \(out) --signing-key \(h.dir)/other.pem", "is trusted by no project")
        // Another project's key does not sign this one.
        h.ok("project add blog --name Blog")
        h.ok("-p blog keys trust \(other) --yes")
        h.fails("publish \(out) --signing-key \(h.dir)/other.pem", "is not one of them")
        h.ok("project rm blog --yes")
        XCTAssertFalse(FileManager.default.fileExists(atPath: out + "/index.json"), "a refused publish wrote nothing")
        // A preview needs no secret: shown unsigned, and said.
        let dry = h.ok("publish \(out) --dry-run")
        XCTAssertTrue(dry.err.contains("shop: a dry run without its signing key: the files are shown unsigned"), dry.err)
        h.env["RELCTL_SIGNING_KEY"] = pem
        h.ok("publish \(out)")
        // index.json records the digests of the signed files, as written.
        let index = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out + "/index.json"))) as? [String: Any])
        let listed = try XCTUnwrap(index["files"] as? [String: [String: Any]])
        for path in ["shop/control.json", "shop/ios/appcast.xml"] {
            let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: out + "/" + path)))
            XCTAssertEqual(listed[path]?["sha256"] as? String, SHA256.hex(bytes), path)
        }
        let envelope = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out + "/shop/control.json"))) as? [String: Any])
        XCTAssertEqual(Set(envelope.keys), ["payload", "signatures"])
        let payload = try XCTUnwrap(Data(base64Encoded: envelope["payload"] as! String))
        let signatures = envelope["signatures"] as! [[String: String]]
        XCTAssertEqual(signatures.map { $0["keyId"] }, [Ed25519.keyID(Ed25519.publicKey(key)!)])
        try payload.write(to: URL(fileURLWithPath: h.dir + "/payload"))
        try Data(base64Encoded: signatures[0]["sig"]!)!.write(to: URL(fileURLWithPath: h.dir + "/sig"))
        XCTAssertEqual(try Proc.run(openssl, ["pkey", "-in", pem, "-pubout", "-out", h.dir + "/pub.pem"]).status, 0)
        let verified = try Proc.run(openssl, ["pkeyutl", "-verify", "-pubin", "-inkey", h.dir + "/pub.pem", "-rawin", "-in", h.dir + "/payload", "-sigfile", h.dir + "/sig"])
        XCTAssertEqual(verified.status, 0, verified.out + verified.err)
        let document = try XCTUnwrap(try JSONSerialization.jsonObject(with: payload) as? [String: Any])
        let seal = try XCTUnwrap(document["signed"] as? [String: Any])
        XCTAssertEqual(seal["project"] as? String, "shop")
        XCTAssertEqual((seal["revision"] as? NSNumber)?.int64Value, h.now)
        XCTAssertEqual(seal["issuedAt"] as? String, Time.format(h.now))
        XCTAssertEqual(seal["expiresAt"] as? String, Time.format(h.now + SignedDocument.validity))
        XCTAssertNotNil(document["platforms"], "the payload is the control document")
        let schema = try SchemaValidator(path: Package.root + "/schema/control.schema.json")
        XCTAssertEqual(schema.validate(try JSONReader.parse(Array(payload))), [], "the payload is a control document as the schema has it")
        let envelopeSchema = (schema.root["$defs"] as! [String: Any])["envelope"] as! [String: Any]
        XCTAssertEqual(schema.validate(try JSONReader.parse(Array(try Data(contentsOf: URL(fileURLWithPath: out + "/shop/control.json")))), envelopeSchema, at: "$"), [])
        // The appcast: every byte before the block is signed, as Sparkle checks it.
        let feed = Array(try Data(contentsOf: URL(fileURLWithPath: out + "/shop/ios/appcast.xml")))
        let text = String(decoding: feed, as: UTF8.self)
        let block = try XCTUnwrap(text.range(of: "<!-- sparkle-signatures:\nedSignature: ", options: .backwards))
        let content = Array(text[..<block.lowerBound].utf8)
        let rest = text[block.upperBound...]
        let sigText = String(rest.prefix { $0 != "\n" })
        XCTAssertTrue(rest.hasSuffix("\nlength: \(content.count)\n-->\n"), String(rest))
        try Data(content).write(to: URL(fileURLWithPath: h.dir + "/feed"))
        try Data(base64Encoded: sigText)!.write(to: URL(fileURLWithPath: h.dir + "/feedsig"))
        XCTAssertEqual(try Proc.run(openssl, ["pkeyutl", "-verify", "-pubin", "-inkey", h.dir + "/pub.pem", "-rawin", "-in", h.dir + "/feed", "-sigfile", h.dir + "/feedsig"]).status, 0)
        XCTAssertTrue(text.contains("</rss>"), "the feed is whole before its block")
        // A signed control.json imports as the document inside, and says the keys are not in it.
        XCTAssertEqual(h.run(["init"], database: h.dir + "/moved.db").status, 0)
        let moved = h.run(["import", "control", out + "/shop/control.json", "--yes"], database: h.dir + "/moved.db")
        XCTAssertEqual(moved.status, 0, moved.err)
        XCTAssertTrue(moved.err.contains("is signed: its document is imported"), moved.err)
        XCTAssertTrue(h.run(["version", "list", "-p", "shop", "--platform", "ios"], database: h.dir + "/moved.db").out.contains("2.0"))
        // verify checks the signatures, and says until when apps obey them.
        let v = h.ok("verify \(out)")
        XCTAssertTrue(v.out.contains("obeyed until 2026-12-06 12:00 UTC"), v.out)
        let status = h.ok("status --json")
        XCTAssertTrue(status.out.contains("\"expiresAt\":\"\(Time.format(h.now + SignedDocument.validity))\""), status.out)
        let page = try String(contentsOfFile: out + "/shop/status.html", encoding: .utf8)
        XCTAssertTrue(page.contains("id=\"signed\""), "the status page says the files are signed")
    }

    /// verify refuses a tree whose signed files apps would ignore: an
    /// altered payload, an appcast edited after signing, an expired file;
    /// and warns a day ahead of expiry.
    func testVerifyFindsWhatAppsWouldIgnore() throws {
        let h = Harness()
        let (pem, _) = Self.signing(h)
        h.env["RELCTL_SIGNING_KEY"] = pem
        let out = h.dir + "/out"
        h.ok("publish \(out)")
        // One byte of the payload, re-encoded: the index is mended too, so only the signature tells.
        let path = out + "/shop/control.json"
        var (payload, signatures) = try SignedDocument.unpack(Array(try Data(contentsOf: URL(fileURLWithPath: path))))
        let at = try XCTUnwrap((0..<payload.count).first { payload[$0] == UInt8(ascii: "S") })
        payload[at] = UInt8(ascii: "T")
        Self.replace(out, "shop/control.json", with: SignedDocument.envelope(payload: payload, signatures: signatures))
        let r = h.fails("verify \(out)", "does not match the document: it was altered")
        XCTAssertTrue(r.err.contains("shop/control.json"), r.err)

        h.ok("publish \(out) --full")
        h.ok("verify \(out)")
        let feedPath = "shop/ios/appcast.xml"
        // A space where XML allows one: the same feed to a parser, not the bytes signed.
        let feed = try String(contentsOfFile: out + "/" + feedPath, encoding: .utf8)
        XCTAssertTrue(feed.contains("<channel>"))
        Self.replace(out, feedPath, with: Array(feed.replacingOccurrences(of: "<channel>", with: "<channel >").utf8))
        h.fails("verify \(out)", "appcast.xml: its edSignature is not by a key the project trusts")

        // Published eight days ago, never renewed: expired. Six and a half days ago: a warning.
        let today = h.now
        h.now = today - 8 * 86_400
        h.ok("publish \(h.dir)/old")
        h.now = today - 156 * 3600
        h.ok("publish \(h.dir)/lapsing")
        h.now = today
        h.fails("verify \(h.dir)/old", "expired at")
        let w = h.ok("verify \(h.dir)/lapsing")
        XCTAssertTrue(w.err.contains("warning: ") && w.err.contains("LAPSING"), w.err)
        // --at says which instant the files are for, not when they are signed: signed now, obeyed for a week from now.
        h.ok("publish \(h.dir)/ahead --at +30d")
        let (payload2, _) = try SignedDocument.unpack(Array(try Data(contentsOf: URL(fileURLWithPath: h.dir + "/ahead/shop/control.json"))))
        XCTAssertEqual(SignedDocument.seal(ofPayload: payload2)?.issuedAt, today)
    }

    /// Writes `bytes` at `path` under `out` and its size and hash into index.json, as if published so.
    static func replace(_ out: String, _ path: String, with bytes: [UInt8]) {
        _ = FileManager.default.createFile(atPath: out + "/" + path, contents: Data(bytes))
        var index = try! JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out + "/index.json"))) as! [String: Any]
        var files = index["files"] as! [String: Any]
        files[path] = ["size": bytes.count, "sha256": SHA256.hex(bytes)]
        index["files"] = files
        _ = FileManager.default.createFile(atPath: out + "/index.json", contents: try! JSONSerialization.data(withJSONObject: index))
    }

    static func revision(_ path: String) throws -> Int64 {
        let (payload, _) = try SignedDocument.unpack(Array(try Data(contentsOf: URL(fileURLWithPath: path))))
        return try XCTUnwrap(try ControlImport.read(payload, texts: false).seal?.revision)
    }

    /// The revision never goes backwards: not at the same instant, not from
    /// a database rebuilt from the exported file, and publish re-signs
    /// before the signature lapses (a coming change, as a deadline is).
    func testRevisionsOnlyGoForwardAndSignaturesAreRenewed() throws {
        let h = Harness()
        let (pem, key) = Self.signing(h)
        h.env["RELCTL_SIGNING_KEY"] = pem
        let out = h.dir + "/out", control = out + "/shop/control.json"
        let first = h.ok("publish \(out) --json").json as! [String: Any]
        let next = try XCTUnwrap(first["nextChange"] as? [String: Any])
        XCTAssertEqual(next["at"] as? String, Time.format(h.now + SignedDocument.renewAfter))
        XCTAssertTrue((next["causes"] as! [String]).contains { $0.contains("signature") }, "\(next)")
        let r1 = try Self.revision(control)
        XCTAssertEqual(r1, h.now)
        // A change at the same instant: one more.
        h.ok("recommend 2.0 --platform ios --yes")
        h.ok("publish \(out)")
        XCTAssertEqual(try Self.revision(control), r1 + 1)
        // The export, applied to a new database, published into the same folder at the same instant.
        h.ok("export -o \(h.dir)/shop.relctl.json")
        XCTAssertTrue(try String(contentsOfFile: h.dir + "/shop.relctl.json", encoding: .utf8).contains(key), "the trusted key is exported")
        let rebuilt = h.dir + "/rebuilt.db"
        XCTAssertEqual(h.run(["apply", h.dir + "/shop.relctl.json", "--yes"], database: rebuilt).status, 0)
        XCTAssertEqual(h.run(["keys", "list", "-p", "shop", "--json"], database: rebuilt).out.contains(key), true)
        h.ok("recommend 1.1 --platform ios --yes")
        XCTAssertEqual(h.run(["publish", out, "--full"], database: rebuilt).status, 0)
        XCTAssertEqual(try Self.revision(control), r1 + 2)
        // A file that leaves the keys out does not stop the signing.
        var config = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: h.dir + "/shop.relctl.json"))) as? [String: Any])
        var projects = config["projects"] as! [String: Any], shop = projects["shop"] as! [String: Any]
        XCTAssertNotNil(shop.removeValue(forKey: "trustedKeys"))
        shop.removeValue(forKey: "lineage")
        projects["shop"] = shop
        config["projects"] = projects
        try JSONSerialization.data(withJSONObject: config).write(to: URL(fileURLWithPath: h.dir + "/keyless.json"))
        h.fails("apply \(h.dir)/keyless.json --yes", "the file trusts no key for project 'shop'")
        // Into a fresh folder later: the later instant.
        h.now += 600
        XCTAssertEqual(h.run(["publish", h.dir + "/fresh"], database: rebuilt).status, 0)
        XCTAssertEqual(try Self.revision(h.dir + "/fresh/shop/control.json"), h.now)
        // Four days on, with nothing else changed: signed again, to expire a week later.
        h.now += SignedDocument.renewAfter
        let renewed = h.ok("publish \(out) --json").json as! [String: Any]
        XCTAssertTrue((renewed["changed"] as! [String]).contains("shop/control.json"), "\(renewed)")
        let (payload, _) = try SignedDocument.unpack(Array(try Data(contentsOf: URL(fileURLWithPath: control))))
        XCTAssertEqual(try ControlImport.read(payload, texts: false).seal?.expiresAt, h.now + SignedDocument.validity)
    }

    /// The steps of the conformance suite's signed part, on one client.
    struct Step {
        var document: [UInt8]?
        var accepted: Bool?
        var at: Int64
        var expected: [String: Any]
    }

    static func signedSuite(_ h: Harness) throws -> (keys: [String], project: String, steps: [Step]) {
        let dir = h.dir + "/suite"
        h.ok("conformance export \(dir)")
        let keys = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: dir + "/signed/keys.json"))) as! [String: Any]
        let cases = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: dir + "/signed/cases.json"))) as! [[String: Any]]
        let steps = try cases.map { c in
            Step(document: try (c["document"] as? String).map { Array(try Data(contentsOf: URL(fileURLWithPath: dir + "/" + $0))) },
                 accepted: c["accepted"] as? Bool, at: Time.parseUTC(c["at"] as! String)!, expected: c["expected"] as! [String: Any])
        }
        return (keys["trustedKeys"] as! [String], keys["project"] as! String, steps)
    }

    /// RelctlClient, pinning the suite's keys, accepts and refuses each
    /// document as the suite says, keeps its last good state, and fails open
    /// once that expires; the suite validates against its schema.
    func testRelctlClientPassesTheSignedSteps() throws {
        let h = Harness()
        let (keys, project, steps) = try Self.signedSuite(h)
        let schema = try SchemaValidator(path: Package.root + "/schema/conformance.schema.json")
        XCTAssertEqual(schema.validate(try JSONReader.parse(Array(try Data(contentsOf: URL(fileURLWithPath: h.dir + "/suite/index.json"))))), [])
        let defs = schema.root["$defs"] as! [String: Any]
        XCTAssertEqual(schema.validate(try JSONReader.parse(Array(try Data(contentsOf: URL(fileURLWithPath: h.dir + "/suite/signed/cases.json")))),
                                       defs["signedCases"] as! [String: Any], at: "$"), [])
        let clock = Clock()
        let storage = URL(fileURLWithPath: h.dir + "/app-storage")
        var control = try ReleaseControl(device: ReleaseControlTests.device("1.0", build: 100), storage: storage, trustedKeys: keys, project: project,
                                         clock: { clock.now })
        XCTAssertEqual(steps.count, 18)
        for (i, step) in steps.enumerated() {
            clock.now = step.at
            if let document = step.document {
                let accepted: Bool
                do { try control.load(document); accepted = true } catch {
                    accepted = false
                    guard case .refused? = control.lastError else { XCTFail("step \(i + 1): \(error)"); continue }
                }
                XCTAssertEqual(accepted, step.accepted, "step \(i + 1)")
            }
            let state = try XCTUnwrap(control.state())
            XCTAssertNil(ConformanceSuiteTests.mismatch(state, step.expected), "step \(i + 1)")
            if step.document == nil { XCTAssertNotNil(state.expiredAt, "step \(i + 1) says why nothing is shown") }
            // The next launch starts from what is stored: the last good document, and what it accepted.
            control = try ReleaseControl(device: ReleaseControlTests.device("1.0", build: 100), storage: storage, trustedKeys: keys, project: project,
                                         clock: { clock.now })
        }
    }

    /// The signed steps fail a client that leaves out any one check: the
    /// signature, the key behind the id, canonical signatures, the project,
    /// the revision, revisions per key, the validity span, the expiry, or
    /// that reads an unsigned document.
    func testTheSignedStepsFailEveryClientThatSkipsACheck() throws {
        let h = Harness()
        let (keys, project, steps) = try Self.signedSuite(h)
        let raw = keys.compactMap(Ed25519.publicKey)
        enum Skip: CaseIterable { case none, signature, keyBehindID, canonical, project, revision, perKey, span, expiry, unsignedAllowed }
        /// A lax library: S at or above L accepted when S - L would verify (emulated: the signature fails only for its S).
        func verifies(_ s: SignedDocument.Signature, _ payload: [UInt8], _ key: [UInt8], lax: Bool) -> Bool {
            if Ed25519.isValid(signature: s.bytes, message: payload, publicKey: key) { return true }
            return lax && !Ed25519.isCanonicalScalar(s.bytes[32..<64])
        }
        for skip in Skip.allCases {
            var floors: [String: Int64] = [:], current: SignedDocument.Seal? = nil, wrong = 0
            for step in steps {
                guard let bytes = step.document else { continue }
                let accepted: Bool = {
                    var payload = bytes, by: [String] = []
                    if !SignedDocument.isEnvelope(bytes) {
                        guard skip == .unsignedAllowed else { return false }
                    } else {
                        guard let (p, signatures) = try? SignedDocument.unpack(bytes) else { return false }
                        payload = p
                        for s in signatures {
                            if skip == .signature { by.append(s.keyID); continue }
                            if skip == .keyBehindID, raw.contains(where: { Ed25519.keyID($0) == s.keyID }) { by.append(s.keyID); continue }
                            for key in raw where Ed25519.keyID(key) == s.keyID && verifies(s, payload, key, lax: skip == .canonical) { by.append(s.keyID) }
                        }
                        guard !by.isEmpty else { return false }
                    }
                    guard let seal = SignedDocument.seal(ofPayload: payload) else { return skip == .unsignedAllowed }
                    if skip != .project && seal.project != project { return false }
                    if skip != .revision {
                        let floor = skip == .perKey ? floors.values.max() : by.compactMap { floors[$0] }.max()
                        if let floor, seal.revision < floor || (seal.revision == floor && seal != current) { return false }
                    }
                    if skip != .span && (seal.expiresAt - seal.issuedAt > SignedDocument.maximumValidity || seal.issuedAt > step.at + SignedDocument.clockSkew) { return false }
                    if skip != .expiry && step.at >= seal.expiresAt { return false }
                    for id in by { floors[id] = max(floors[id] ?? seal.revision, seal.revision) }
                    current = seal
                    return true
                }()
                if accepted != step.accepted { wrong += 1 }
            }
            if skip == .none { XCTAssertEqual(wrong, 0, "the checks as written pass") } else { XCTAssertGreaterThan(wrong, 0, "a client skipping \(skip) passes the suite") }
        }
    }

    /// The sample command from a shell: it pins keys with --trusted-key,
    /// refuses an altered document keeping the last good state, and says so.
    func testTheSampleCommandPinsKeys() throws {
        let sample = (Package.binary as NSString).deletingLastPathComponent + "/relctl-client-sample"
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: sample), "relctl-client-sample is built by swift build (make test builds it)")
        // The sample reads with the wall clock: the files are published now.
        let h = Harness()
        h.now = Int64(Date().timeIntervalSince1970)
        let (pem, key) = Self.signing(h)
        h.env["RELCTL_SIGNING_KEY"] = pem
        let out = h.dir + "/out", control = out + "/shop/control.json"
        h.ok("maintenance start --for 2h --yes")
        h.ok("publish \(out)")
        let blocked = try Proc.run(sample, ["--trusted-key", key, "--storage", h.dir + "/blocked-storage", control, "ios", "1.0", "100"])
        XCTAssertTrue(blocked.out.hasPrefix("maintenance:"), blocked.out + blocked.err)
        let first = h.dir + "/first.json"
        try FileManager.default.copyItem(atPath: control, toPath: first)
        h.ok("maintenance stop --yes")
        h.ok("publish \(out)")
        let args = ["--trusted-key", key, "--storage", h.dir + "/sample-storage"]
        let good = try Proc.run(sample, args + [control, "ios", "1.0", "100"])
        XCTAssertEqual(good.status, 0, good.err)
        XCTAssertFalse(good.out.contains("maintenance"), good.out)
        var (payload, signatures) = try SignedDocument.unpack(Array(try Data(contentsOf: URL(fileURLWithPath: first))))
        payload.insert(UInt8(ascii: " "), at: 1)
        try Data(SignedDocument.envelope(payload: payload, signatures: signatures)).write(to: URL(fileURLWithPath: h.dir + "/altered.json"))
        let altered = try Proc.run(sample, args + [h.dir + "/altered.json", "ios", "1.0", "100"])
        XCTAssertEqual(altered.status, 1)
        XCTAssertTrue(altered.err.contains("refused: the signature by key") && altered.err.contains("keeping the last good document"), altered.err)
        XCTAssertEqual(altered.out, good.out, "the last good state")
        // The first document, with its window, replayed: older than the one accepted.
        let replay = try Proc.run(sample, args + [first, "ios", "1.0", "100"])
        XCTAssertEqual(replay.status, 1)
        XCTAssertTrue(replay.err.contains("older than revision"), replay.err)
        XCTAssertFalse(replay.out.contains("maintenance"), replay.out)
        // Pinning another key: the signed document is refused; unsigned pins are a usage error.
        let other = try Proc.run(sample, ["--trusted-key", "ebVWLo/mVPlAeLES6KmLp5AfhTrmlb7X4OORC60ElmQ=", "--storage", h.dir + "/other-storage", control, "ios", "1.0"])
        XCTAssertEqual(other.status, 1)
        XCTAssertTrue(other.err.contains("which this app does not trust"), other.err)
        let bad = try Proc.run(sample, ["--trusted-key", "not-a-key", control, "ios", "1.0"])
        XCTAssertEqual(bad.status, 2)
    }

    /// Rotation without a lockout, as the README tells it: apps pin the
    /// active key A and the backup B; the project moves to B and trusts a new
    /// backup C; new apps pin B and C; then publish signs with B and C. The
    /// app with the old pins obeys every publish throughout.
    func testRotationKeepsEveryPinnedAppWorking() throws {
        let h = Harness()
        h.sample()
        func key(_ name: String) -> String { h.ok("keys generate \(h.dir)/\(name).pem").out.trimmingCharacters(in: .whitespacesAndNewlines) }
        let (a, b, c) = (key("a"), key("b"), key("c"))
        h.ok("keys trust \(a) --yes")
        h.ok("keys trust \(b) --yes")
        let out = h.dir + "/out"
        let storage = h.dir + "/apps"
        let clock = Clock()
        func app(_ pins: [String], _ name: String) throws -> ReleaseControl {
            try ReleaseControl(device: ReleaseControlTests.device("1.0", build: 100), storage: URL(fileURLWithPath: storage + "/" + name), trustedKeys: pins,
                               project: "shop", clock: { clock.now })
        }
        func publish(_ keys: [String], change: String) throws -> [UInt8] {
            h.now += 3600
            clock.now = h.now
            h.ok(change)
            h.ok("publish \(out)" + keys.map { " --signing-key \(h.dir)/\($0).pem" }.joined())
            return Array(try Data(contentsOf: URL(fileURLWithPath: out + "/shop/control.json")))
        }
        let old = try app([a, b], "old")
        // 1. Signed with the active key.
        try old.load(try publish(["a"], change: "recommend 1.1 --platform ios --yes"))
        // 2. The active key is lost: sign with the backup, retire A, trust the new backup C.
        h.ok("keys retire \(Ed25519.keyID(Ed25519.publicKey(a)!)) --yes")
        h.ok("keys trust \(c) --yes")
        h.fails("publish \(out) --signing-key \(h.dir)/a.pem", "is trusted by no project")
        let second = try publish(["b"], change: "recommend 2.0 --platform ios --yes")
        try old.load(second)
        let new = try app([b, c], "new")
        try new.load(second)
        // Only the key changes (no change to the database): the files are signed again, by it.
        h.now += 60
        clock.now = h.now
        h.ok("publish \(out) --signing-key \(h.dir)/c.pem")
        let byC = Array(try Data(contentsOf: URL(fileURLWithPath: out + "/shop/control.json")))
        XCTAssertEqual(try SignedDocument.unpack(byC).signatures.map(\.keyID), [Ed25519.keyID(Ed25519.publicKey(c)!)])
        try new.load(byC)
        XCTAssertThrowsError(try old.load(byC), "the old pins do not hold C")
        // 3. Both B and C sign: each app finds a key it pins.
        let third = try publish(["b", "c"], change: "force 1.1 --platform ios --yes")
        XCTAssertEqual(try SignedDocument.unpack(third).signatures.count, 2)
        try old.load(third)
        try new.load(third)
        XCTAssertEqual(old.state()?.kind, .required)
        XCTAssertEqual(new.state()?.kind, .required)
        // A document signed by the retired key, made after the rotation, is not published.
        h.fails("publish \(out) --signing-key \(h.dir)/a.pem", "is trusted by no project")
        XCTAssertNil(old.lastError)
    }
}

/// A clock tests move.
final class Clock: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Int64 = 0
    var now: Int64 {
        get { lock.lock(); defer { lock.unlock() }; return value }
        set { lock.lock(); value = newValue; lock.unlock() }
    }
}
