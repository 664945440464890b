import RelctlCore
import RelctlPublish
import RelctlStore

/// The conformance suite's signed steps (DIR/signed/): documents a client
/// that pins the suite's two keys reads in order, one client from the
/// first step to the last, each with whether it must be accepted and what
/// the install shows after it. Every document a client must refuse says
/// something visible (an active window) that the one before did not, so a
/// client that obeys it shows maintenance where the case expects otherwise.
enum ConformanceSigned {
    /// Fixed seeds, so that the suite is the same bytes at every export: the active key, the offline backup, a key nobody trusts.
    static func keys() throws -> (active: SigningKey, backup: SigningKey, other: SigningKey) {
        (try SigningKey.fromSeed((1...32).map { UInt8($0) }, name: "active"),
         try SigningKey.fromSeed((33...64).map { UInt8($0) }, name: "backup"),
         try SigningKey.fromSeed((65...96).map { UInt8($0) }, name: "other"))
    }

    /// The commands after which the "blocked" state is rendered: a window over every platform for 30 days.
    static let blocking = [["maintenance", "start", "--until", "2026-07-01T12:00:00Z", "--yes"]]

    /// The files of DIR/signed/ and its cases. `open` and `blocked`: the
    /// scenario's control.json at t0 before and after the window starts;
    /// `openSnapshot`/`blockedSnapshot`: the databases they were rendered from.
    static func files(open: [UInt8], blocked: [UInt8], openSnapshot: ProjectSnapshot, blockedSnapshot: ProjectSnapshot, at t0: Int64) throws -> [(String, [UInt8])] {
        let (active, backup, other) = try keys()
        let week = SignedDocument.validity
        func seal(_ revision: Int64, project: String = "app", issued: Int64 = t0, valid: Int64 = week) -> SignedDocument.Seal {
            .init(project: project, revision: revision, issuedAt: issued, expiresAt: issued + valid)
        }
        func signed(_ document: [UInt8], _ seal: SignedDocument.Seal, by key: SigningKey, claiming id: String? = nil, plusOrder: Bool = false) -> [UInt8] {
            let payload = SignedDocument.payload(document, seal: seal)
            var sig = key.sign(payload)
            // S + L: the same equation, a second encoding (RFC 8032 refuses it).
            if plusOrder {
                var carry = 0
                for i in 0..<32 {
                    let sum = Int(sig[32 + i]) + Int(Ed25519.order[i]) + carry
                    sig[32 + i] = UInt8(sum & 255)
                    carry = sum >> 8
                }
            }
            return SignedDocument.envelope(payload: payload, signatures: [.init(keyID: id ?? key.keyID, bytes: sig)])
        }
        /// A signed envelope whose payload then had one byte changed (the window's poll interval 60 → 61 stays valid JSON).
        func altered(_ envelope: [UInt8]) throws -> [UInt8] {
            let (payload, signatures) = try SignedDocument.unpack(envelope)
            var bytes = payload
            let needle = Array(#""pollIntervalSeconds":60"#.utf8)
            guard let i = (0...(bytes.count - needle.count)).first(where: { Array(bytes[$0..<($0 + needle.count)]) == needle }) else {
                throw RelctlError.failure("the signed suite's blocked state has no urgent poll", hint: "a relctl defect: report it")
            }
            bytes[i + needle.count - 1] = UInt8(ascii: "1")
            return SignedDocument.envelope(payload: bytes, signatures: signatures)
        }
        let steps: [(name: String, bytes: [UInt8]?, accepted: Bool?, why: String, shows: ProjectSnapshot?, at: Int64)] = [
            ("01-good", signed(open, seal(100), by: active), true, "signed by the active key: obeyed", openSnapshot, t0),
            ("02-unsigned", blocked, false, "a plain document, where the app pins keys", openSnapshot, t0),
            ("03-altered", try altered(signed(blocked, seal(200), by: active)), false, "one byte of the payload changed after signing", openSnapshot, t0),
            ("04-other-key", signed(blocked, seal(300), by: other), false, "signed by a key the app does not pin", openSnapshot, t0),
            ("05-other-key-posing", signed(blocked, seal(310), by: other, claiming: active.keyID), false,
             "signed by another key under the active key's id", openSnapshot, t0),
            ("06-other-project", signed(blocked, seal(400, project: "other"), by: active), false, "signed for project 'other'", openSnapshot, t0),
            ("07-expired", signed(blocked, seal(500, issued: t0 - week - 60), by: active), false, "expired a minute before", openSnapshot, t0),
            ("08-non-canonical", signed(blocked, seal(510), by: active, plusOrder: true), false,
             "signed by the active key with S + L (a non-canonical signature)", openSnapshot, t0),
            ("09-overlong", signed(blocked, seal(520, valid: 365 * 86_400), by: active), false,
             "valid for a year: more than the \(SignedDocument.maximumValidity / 86_400) days a client obeys any document", openSnapshot, t0),
            ("10-from-the-future", signed(blocked, seal(530, issued: t0 + 2 * 86_400), by: active), false,
             "issued two days ahead of the clock", openSnapshot, t0),
            ("11-newer", signed(blocked, seal(600), by: active), true, "a newer revision by the active key: obeyed", blockedSnapshot, t0),
            ("12-replay", nil, false, "revision 100 again, older than revision 600 the active key signed", blockedSnapshot, t0),
            ("13-backup", signed(open, seal(700), by: backup), true, "signed by the backup key, which the app pins too: obeyed", openSnapshot, t0),
            ("14-replay-of-the-active-key", nil, false, "step 11's document again: its key's last revision, but not the document in force",
             openSnapshot, t0),
            ("15-backup-newer", signed(blocked, seal(800, issued: t0 + 60), by: backup), true, "a newer revision by the backup key", blockedSnapshot, t0 + 60),
            ("16-active-far-ahead", signed(open, seal(1_000_000_000_000, issued: t0 + 120), by: active), true,
             "the active key (say, leaked) signs a revision far ahead: signed by a pinned key, so obeyed", openSnapshot, t0 + 120),
            ("17-backup-recovers", signed(blocked, seal(900, issued: t0 + 180), by: backup), true,
             "the backup key's next revision: revisions are per key, so it is obeyed though below step 16's", blockedSnapshot, t0 + 180),
            ("18-expiry", nil, nil, "no download; the last document expired: neither its window nor a required update is obeyed", nil, t0 + 180 + week),
        ]
        // The replays are an earlier step's file read again.
        let replays = ["12-replay": "01-good", "14-replay-of-the-active-key": "11-newer"]
        var files: [(String, [UInt8])] = []
        var cases: [JSON] = []
        for step in steps {
            if let bytes = step.bytes { files.append(("signed/\(step.name).json", bytes)) }
            let document = step.bytes != nil ? step.name : replays[step.name]
            let expected: ClientAnswer
            if let shows = step.shows {
                expected = ClientAnswer.answer(shows, platform: "ios", release: Release(try Version("1.0"), build: 100), os: nil, languages: ["en"], at: step.at)!
            } else {
                // Failing open: nothing shown, a fresh document asked for as usual.
                expected = ClientAnswer.answer(openSnapshot, platform: "ios", release: Release(try Version("1.0"), build: 100), os: nil, languages: ["en"], at: t0)!
            }
            cases.append(.ordered(["accepted": step.accepted.map { .bool($0) } ?? .null, "at": .time(step.at),
                                   "document": document.map { .string("signed/\($0).json") } ?? .null, "expected": expected.json,
                                   "install": .ordered(["build": .int(100), "languages": .array([.string("en")]), "os": .null, "platform": .string("ios"), "version": .string("1.0")]),
                                   "step": .string(step.name), "why": .string(step.why)]))
        }
        files.append(("signed/keys.json", Array(JSON.ordered(["project": .string("app"), "trustedKeys": .array([.string(active.publicKeyText), .string(backup.publicKeyText)]),
                                                              "untrustedKey": .string(other.publicKeyText)]).rendered().utf8)))
        files.append(("signed/cases.json", Array(JSON.array(cases).rendered().utf8)))
        return files
    }
}
