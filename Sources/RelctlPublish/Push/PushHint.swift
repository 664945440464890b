import RelctlCore

/// What a push says: "revision N of project P exists" (with the SHA-256 of
/// the control.json deployed, when known). It is a hint, never the channel:
/// the app fetches control.json itself (and verifies it, when signed), so a
/// push that is late, lost, repeated or forged changes nothing but when the
/// app looks. The same flat string fields go to APNs (beside `aps`) and in
/// FCM's `data` (whose values must be strings), so the app reads one shape
/// from either (RelctlClient's `handlePush`).
public struct PushHint: Equatable, Sendable {
    public var project: String
    /// The signed control.json's revision when it is signed, else the push's
    /// own (an instant in seconds, above every earlier push of the project).
    public var revision: Int64
    /// The SHA-256 (hex) of the project's control.json as deployed: an app
    /// that already holds those bytes does not download them again.
    public var sha256: String?

    public init(project: String, revision: Int64, sha256: String?) {
        self.project = project; self.revision = revision; self.sha256 = sha256
    }

    /// The fields, in the order they are written. Their names are the
    /// contract with RelctlClient (PushFields there reads them).
    public var fields: [(String, JSON)] {
        [("relctl", .string("1")), ("relctlProject", .string(project)), ("relctlRevision", .string(String(revision)))]
            + (sha256.map { [("relctlSha256", .string($0))] } ?? [])
    }

    /// An APNs background notification: `content-available` and nothing a
    /// person sees (no alert, sound or badge, which a background push may not carry).
    public var apnsBody: [UInt8] {
        JSON.fields([("aps", .fields([("content-available", .int(1))]))] + fields).compactBytes()
    }

    /// How long a hint is worth keeping for a device that is offline: an
    /// hour (the apps poll every 15 minutes anyway), and only the newest of
    /// a project's (collapsed), so one back online wakes once, not once per deploy.
    public static let lifetime: Int64 = 3600
    public var collapseID: String { "relctl-\(project)" }

    /// An FCM HTTP v1 message to `topic`: data only (a notification would be
    /// shown), normal priority on Android (FCM demotes high-priority data
    /// messages that show nothing), and as a background push on Apple devices
    /// (priority 5: FCM refuses 10 for a data message to them).
    public func fcmBody(topic: String, now: Int64) -> [UInt8] {
        JSON.fields([("message", .fields([
            ("topic", .string(topic)),
            ("data", .fields(fields)),
            ("android", .fields([("priority", .string("normal")), ("ttl", .string("\(PushHint.lifetime)s")), ("collapse_key", .string(collapseID))])),
            ("apns", .fields([("headers", .fields([("apns-push-type", .string("background")), ("apns-priority", .string("5")),
                                                   ("apns-expiration", .string(String(now + PushHint.lifetime))), ("apns-collapse-id", .string(collapseID))])),
                              ("payload", .fields([("aps", .fields([("content-available", .int(1))]))]))])),
        ]))]).compactBytes()
    }
}

/// One HTTP request as relctl sends it (through curl).
public struct HTTPRequest: Sendable {
    public var url: String
    public var headers: [(String, String)]
    public var body: [UInt8]
    /// The headers as `--dry-run` prints them: a bearer token's signature is withheld.
    public var shownHeaders: [(String, String)]
    /// The body as printed, when it holds a secret (an OAuth assertion).
    public var shownBody: String?

    public init(url: String, headers: [(String, String)], body: [UInt8], shownHeaders: [(String, String)]? = nil, shownBody: String? = nil) {
        self.url = url; self.headers = headers; self.body = body; self.shownHeaders = shownHeaders ?? headers; self.shownBody = shownBody
    }

    /// The request as people read it: `POST URL`, the headers, a blank line, the body.
    public var shown: String {
        "POST \(url)\n" + shownHeaders.map { "\($0.0): \($0.1)\n" }.joined() + "\n" + (shownBody ?? String(decoding: body, as: UTF8.self)) + "\n"
    }
}

/// An answer: the status (0 when nothing came back), the headers named by
/// lower-case name, the body (bounded), and curl's error when it failed.
public struct HTTPResponse: Sendable {
    public var status: Int
    public var headers: [String: String]
    public var body: [UInt8]
    public var error: String?

    public init(status: Int, headers: [String: String] = [:], body: [UInt8] = [], error: String? = nil) {
        self.status = status; self.headers = headers; self.body = body; self.error = error
    }

    /// A string field of a JSON body's top level (APNs' `reason`, OAuth's `error`).
    public func field(_ name: String) -> String? {
        guard case .object(let o)? = try? JSONReader.parseForeign(body), case .string(let s)? = o[name] else { return nil }
        return s
    }

    /// Google's error: `error.status` and the FCM errorCode of its details, when given.
    public var googleError: (status: String?, code: String?) {
        guard case .object(let o)? = try? JSONReader.parseForeign(body), case .object(let e)? = o["error"] else { return (nil, nil) }
        var code: String? = nil
        if case .array(let details)? = e["details"] {
            for case .object(let d) in details { if case .string(let c)? = d["errorCode"] { code = c } }
        }
        if case .string(let s)? = e["status"] { return (s, code) }
        return (nil, code)
    }

    /// Seconds a `Retry-After` asks to wait (a number of seconds; a date is read as a minute).
    public var retryAfter: Int64? {
        guard let text = headers["retry-after"] else { return nil }
        if let n = Int64(text.trimmingSpaces()), n >= 0, n <= 86_400 { return n }
        return 60
    }

    /// Why it failed, in a few words: the service's reason, else the status or curl's error.
    public var why: String {
        if status == 0 { return error ?? "no answer" }
        if let reason = field("reason") { return "\(status) \(reason)" }
        let g = googleError
        if let s = g.status ?? g.code { return "\(status) \(s)" + (g.code.map { $0 != s ? " (\($0))" : "" } ?? "") }
        if let e = field("error") { return "\(status) \(e)" }
        return "HTTP \(status)"
    }
}
