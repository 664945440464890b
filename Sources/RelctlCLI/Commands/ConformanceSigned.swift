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
        func seal(_ revision: Int64, project: String = "app", issued: Int64 = t0) -> SignedDocument.Seal {
            .init(project: project, revision: revision, issuedAt: issued, expiresAt: issued + week)
        }
        func signed(_ document: [UInt8], _ seal: SignedDocument.Seal, by key: SigningKey, claiming id: String? = nil) -> [UInt8] {
            let payload = SignedDocument.payload(document, seal: seal)
            return SignedDocument.envelope(payload: payload, signatures: [.init(keyID: id ?? key.keyID, bytes: key.sign(payload))])
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
        let good = signed(open, seal(100), by: active)
        let steps: [(name: String, bytes: [UInt8]?, accepted: Bool?, why: String, shows: ProjectSnapshot?, at: Int64)] = [
            ("01-good", good, true, "signed by the active key: obeyed", openSnapshot, t0),
            ("02-unsigned", blocked, false, "a plain document, where the app pins keys", openSnapshot, t0),
            ("03-altered", try altered(signed(blocked, seal(200), by: active)), false, "one byte of the payload changed after signing", openSnapshot, t0),
            ("04-other-key", signed(blocked, seal(300), by: other), false, "signed by a key the app does not pin", openSnapshot, t0),
            ("05-other-key-posing", signed(blocked, seal(310), by: other, claiming: active.keyID), false,
             "signed by another key under the active key's id", openSnapshot, t0),
            ("06-other-project", signed(blocked, seal(400, project: "other"), by: active), false, "signed for project 'other'", openSnapshot, t0),
            ("07-expired", signed(blocked, seal(500, issued: t0 - week - 60), by: active), false, "expired a minute before", openSnapshot, t0),
            ("08-newer", signed(blocked, seal(600), by: active), true, "a newer revision by the active key: obeyed", blockedSnapshot, t0),
            ("09-replay", good, false, "revision 100 again, older than revision 600 accepted", blockedSnapshot, t0),
            ("10-backup", signed(open, seal(700), by: backup), true, "signed by the backup key, which the app pins too: obeyed", openSnapshot, t0),
            ("11-backup-newer", signed(blocked, seal(800, issued: t0 + 60), by: backup), true, "a newer revision by the backup key", blockedSnapshot, t0 + 60),
            ("12-expiry", nil, nil, "no download; the last document expired: neither its window nor a required update is obeyed", nil, t0 + 60 + week),
        ]
        var files: [(String, [UInt8])] = []
        var cases: [JSON] = []
        for step in steps {
            if let bytes = step.bytes { files.append(("signed/\(step.name).json", bytes)) }
            var expected: ClientAnswer
            if let shows = step.shows {
                expected = ClientAnswer.answer(shows, platform: "ios", release: Release(try Version("1.0"), build: 100), os: nil, languages: ["en"], at: step.at)!
            } else {
                // Failing open: nothing shown, a fresh document asked for every minute.
                expected = ClientAnswer.answer(openSnapshot, platform: "ios", release: Release(try Version("1.0"), build: 100), os: nil, languages: ["en"], at: t0)!
                expected.pollIntervalSeconds = ControlDocument.urgentPoll
            }
            cases.append(.ordered(["accepted": step.accepted.map { .bool($0) } ?? .null, "at": .time(step.at),
                                   "document": step.bytes == nil ? .null : .string("signed/\(step.name).json"), "expected": expected.json,
                                   "install": .ordered(["build": .int(100), "languages": .array([.string("en")]), "os": .null, "platform": .string("ios"), "version": .string("1.0")]),
                                   "step": .string(step.name), "why": .string(step.why)]))
        }
        files.append(("signed/keys.json", Array(JSON.ordered(["project": .string("app"), "trustedKeys": .array([.string(active.publicKeyText), .string(backup.publicKeyText)]),
                                                              "untrustedKey": .string(other.publicKeyText)]).rendered().utf8)))
        files.append(("signed/cases.json", Array(JSON.array(cases).rendered().utf8)))
        return files
    }
}
