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
    /// carry it and why, clients with the same reason together.
    package static func limitLines(_ limits: [(project: String, limit: Limit)]) -> [String] {
        var order: [String] = []
        var groups: [String: [(project: String, limit: Limit)]] = [:]
        for entry in limits {
            let key = "\(entry.project)/\(entry.limit.platform): \(entry.limit.intent)"
            if groups[key] == nil { order.append(key) }
            groups[key, default: []].append(entry)
        }
        return order.map { intent in
            let group = groups[intent]!
            let key = intent + (group.lazy.compactMap(\.limit.example).first.map { " (such as \($0))" } ?? "")
            // Most often one client's: said as it is, without sorting out reasons.
            if group.count == 1 { return "\(key) — \(group[0].limit.client.rawValue): \(group[0].limit.reason)" }
            var reasons: [String] = []
            var clients: [String: [String]] = [:]
            for (_, l) in group {
                if clients[l.reason] == nil { reasons.append(l.reason) }
                clients[l.reason, default: []].append(l.client.rawValue)
            }
            return "\(key) — " + reasons.map { "\(clients[$0]!.joined(separator: ", ")): \($0)" }.joined(separator: "; ")
        }
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
