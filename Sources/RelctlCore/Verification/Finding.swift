/// An intent in force that a format cannot carry: said once per project,
/// platform and client, in `publish`, `status` and `verify`.
public struct Limit: Hashable, Sendable {
    public var client: Client
    public var platform: String
    /// What the engineer asked for: "pin 1.4.2 force", "recommend floor 2.1".
    public var intent: String
    /// Why the format cannot carry it.
    public var reason: String
    /// One install it touches, when the intent is a kind of install ("2.1 for 2.1.0"):
    /// not part of the cause, so a limit is said once however many installs show it.
    public var example: String?

    public init(client: Client, platform: String, intent: String, reason: String, example: String? = nil) {
        self.client = client; self.platform = platform; self.intent = intent; self.reason = reason; self.example = example
    }
}

/// One thing a client does that differs from what `relctl check` says, for
/// one installed version (and locale), or for a whole file.
public struct Finding: Sendable {
    public var project: String
    public var platform: String
    public var client: Client
    /// The published file the client reads.
    public var file: String
    public var version: String?
    public var build: Int64?
    public var locale: String?
    /// What `check` says, and what the client does.
    public var expected: String
    public var actual: String
    /// The declared limits of the format behind the difference, the intents
    /// it cannot carry before the version shapes it cannot read; none means
    /// relctl published something wrong.
    public var limits: [Limit]
    /// For an install nobody recorded (Probes), what it stands for: "1.0.0, another spelling of 1.0".
    public var install: String? = nil
    /// The device OS the client was asked on (OSBands.probes); nil: an OS
    /// that can install every version.
    public var os: String? = nil
    /// For a finding of the time sweep (Fidelity.sweep): the coming instant
    /// from which the files a publish then writes would do this.
    public var from: Int64? = nil

    public var isDisagreement: Bool { limits.isEmpty }
}

extension Finding {
    /// The declared limits among findings, once per project, platform, client
    /// and intent (a limit is found once per version and locale it touches).
    public static func distinctLimits(_ findings: [Finding]) -> [(project: String, limit: Limit)] {
        struct Key: Hashable { let project: String, platform: String, client: Client, intent: String }
        var seen = Set<Key>()
        var last: Key? = nil
        var out: [(project: String, limit: Limit)] = []
        for f in findings {
            for l in f.limits {
                let key = Key(project: f.project, platform: l.platform, client: l.client, intent: l.intent)
                // A limit's findings mostly come one after another (each version, each locale).
                if key == last { continue }
                last = key
                if seen.insert(key).inserted { out.append((f.project, l)) }
            }
        }
        return out
    }
}
