import RelctlCore

/// How publish, status and verify show what clients would do differently
/// from `check`: disagreements one per line, declared limits once each.
package enum FindingsReport {
    package static func disagreementLine(_ f: Finding) -> String {
        var subject = "\(f.project)/\(f.platform) \(f.client.rawValue)"
        if let v = f.version { subject += " \(v)\(f.build.map { " (\($0))" } ?? "")" }
        if let install = f.install { subject += " (unrecorded: \(install))" }
        if let l = f.locale { subject += " [\(l)]" }
        if let os = f.os { subject += " on \(OSBands.osName(f.platform)) \(os)" }
        let when = f.from.map { "from \(Time.format($0)), as a publish then writes it: " } ?? ""
        return "\(subject): \(when)check says \(f.expected), the client does \(f.actual) (\(f.file))"
    }

    /// One line per project, platform and intent: which clients cannot
    /// carry it and why, clients with the same reason together. Limits of
    /// more than `projectsShown` projects (a fleet's first publish) are
    /// said by kind instead: one line per platform, intent and reasons with
    /// how many projects have it, at most `kindsShown` lines, and `seeAll`,
    /// where each is listed.
    package static func limitLines(_ limits: [(project: String, limit: Limit)], projectsShown: Int = 3, kindsShown: Int = 20,
                                   seeAll: String = "each project's: relctl status -p SLUG") -> [String] {
        var order: [String] = []
        var groups: [String: [(project: String, limit: Limit)]] = [:]
        for entry in limits {
            let key = "\(entry.project)/\(entry.limit.platform): \(entry.limit.intent)"
            if groups[key] == nil { order.append(key) }
            groups[key, default: []].append(entry)
        }
        let causes = order.map { key in
            let group = groups[key]!
            return (project: group[0].project, cause: "\(group[0].limit.platform): \(group[0].limit.intent)",
                    example: group.lazy.compactMap(\.limit.example).first, reasons: reasons(group.map(\.limit)))
        }
        guard Set(causes.map(\.project)).count > projectsShown else {
            return causes.map { "\($0.project)/\($0.cause)\($0.example.map { " (such as \($0))" } ?? "") — \($0.reasons)" }
        }
        var kinds: [String] = [], projects: [String: [String]] = [:], examples: [String: String] = [:]
        for c in causes {
            let kind = "\(c.cause)\u{0}\(generalised(c.reasons, c.project))"
            if projects[kind] == nil { kinds.append(kind) }
            projects[kind, default: []].append(c.project)
            if examples[kind] == nil { examples[kind] = c.example }
        }
        let lines = kinds.prefix(kindsShown).map { kind in
            let parts = kind.split(separator: "\u{0}", maxSplits: 1).map(String.init)
            let slugs = projects[kind]!
            return "\(parts[0])\(examples[kind].map { " (such as \($0))" } ?? "") — \(parts[1]) — in \(slugs.count) project\(slugs.count == 1 ? "" : "s") (\(Suggest.few(slugs)))"
        }
        let more = kinds.count > kindsShown ? " and \(kinds.count - kindsShown) more kinds;" : ""
        return lines + ["\(causes.count) limits of \(Set(causes.map(\.project)).count) projects, by kind;\(more) \(seeAll)"]
    }

    /// A reason whose fix names its project ("-p app-001") as every project's ("-p SLUG"),
    /// so that it is one kind in each.
    static func generalised(_ reason: String, _ project: String) -> String {
        let named = Array(("-p " + project).utf8), text = Array(reason.utf8), slug = Array("-p SLUG".utf8)
        var out: [UInt8] = [], i = 0
        while i < text.count {
            // Not a longer slug that starts with this one (app-1 in app-10).
            if text[i...].starts(with: named), i + named.count == text.count || !isSlugByte(text[i + named.count]) {
                out += slug
                i += named.count
            } else {
                out.append(text[i])
                i += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static func isSlugByte(_ b: UInt8) -> Bool {
        (b >= UInt8(ascii: "a") && b <= UInt8(ascii: "z")) || (b >= UInt8(ascii: "A") && b <= UInt8(ascii: "Z"))
            || (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9")) || b == UInt8(ascii: "-")
    }

    /// "client: reason; client, client: reason", clients with the same reason together.
    private static func reasons(_ group: [Limit]) -> String {
        // Most often one client's: said as it is, without sorting out reasons.
        if group.count == 1 { return "\(group[0].client.rawValue): \(group[0].reason)" }
        var reasons: [String] = []
        var clients: [String: [String]] = [:]
        for l in group {
            if clients[l.reason] == nil { reasons.append(l.reason) }
            clients[l.reason, default: []].append(l.client.rawValue)
        }
        return reasons.map { "\(clients[$0]!.joined(separator: ", ")): \($0)" }.joined(separator: "; ")
    }

    /// What a publish at `at` would not carry, without writing anything.
    package static func wouldNotCarry(_ snapshot: ProjectSnapshot, at: Int64) -> [(project: String, limit: Limit)] {
        var warnings: [String] = []
        // The route publish takes, so the page and the publish list the same limits.
        return Finding.distinctLimits(ProjectFiles.renderChecked(snapshot, at: at, warnings: &warnings, page: nil).findings)
    }

    package static func json(_ f: Finding) -> JSON {
        .object(["project": .string(f.project), "platform": .string(f.platform), "client": .string(f.client.rawValue), "file": .string(f.file),
                 "version": .optional(f.version), "build": .optional(f.build), "locale": .optional(f.locale),
                 "check": .string(f.expected), "clientDoes": .string(f.actual), "unrecorded": .optional(f.install),
                 "os": .optional(f.os), "from": f.from.map { .time($0) } ?? .null])
    }

    package static func json(project: String, _ l: Limit) -> JSON {
        // In key order: a publish writes hundreds of them.
        .ordered(["client": .string(l.client.rawValue), "example": .optional(l.example), "intent": .string(l.intent), "platform": .string(l.platform),
                  "project": .string(project), "reason": .string(l.reason)])
    }
}
