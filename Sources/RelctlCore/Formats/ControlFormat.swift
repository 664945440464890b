/// relctl's own control document (schema/control.schema.json): the whole
/// release-control state of a project for custom clients.
enum ControlFormat {
    static let schemaVersion = ControlDocument.schemaVersion
    static let normalPoll = ControlDocument.normalPoll
    static let urgentPoll = ControlDocument.urgentPoll
    static let urgentLead = ControlDocument.urgentLead

    static func render(_ snapshot: ProjectSnapshot, states: [PlatformState], at: Int64) -> JSON {
        let locales = snapshot.publishedLocales
        let live = snapshot.windows.filter { !$0.isOver(at: at) }
        let urgent = live.contains { $0.isActive(at: at) || $0.startsAt - at <= urgentLead }
        return .object([
            "schemaVersion": .int(schemaVersion),
            "project": .object(["slug": .string(snapshot.project.slug), "name": .string(snapshot.project.name),
                                "defaultLocale": .string(snapshot.project.defaultLocale), "locales": .array(locales.map { .string($0) }),
                                "timeZone": .string(snapshot.project.timeZone), "whatsNewVersions": .int(snapshot.project.whatsNewLimit)]),
            "pollIntervalSeconds": .int(urgent ? urgentPoll : normalPoll),
            "maintenance": .object([
                "active": .array(live.filter { $0.isActive(at: at) }.map { window($0, snapshot, locales) }),
                "upcoming": .array(live.filter { $0.isUpcoming(at: at) }.map { window($0, snapshot, locales) }),
            ]),
            "messages": .object(Dictionary(uniqueKeysWithValues: locales.map { locale in
                (locale, JSON.object(Dictionary(uniqueKeysWithValues: ["required", "optional"].map { kind in
                    (kind, fields(snapshot.messages.message(kind, locale: locale, values: ["app": snapshot.project.name])))
                })))
            })),
            "platforms": .object(Dictionary(uniqueKeysWithValues: states.map { ($0.platform.name, platform($0)) })),
        ])
    }

    static func fields(_ m: [String: ResolvedText]) -> JSON {
        .object(Dictionary(uniqueKeysWithValues: m.map { (camel($0.key), JSON.string($0.value.value)) }))
    }

    static func camel(_ s: String) -> String { ControlDocument.camel(s) }

    static func window(_ w: MaintenanceWindow, _ snapshot: ProjectSnapshot, _ locales: [String]) -> JSON {
        let evaluator = Evaluator(snapshot)
        let verdict = Verdict(kind: .maintenance, decidedBy: .maintenance, why: "", target: nil, window: w)
        return .object([
            "id": .int(w.id), "platform": .optional(w.platformName), "startsAt": .time(w.startsAt), "endsAt": .time(w.endsAt),
            "messages": .object(Dictionary(uniqueKeysWithValues: locales.map { ($0, fields(evaluator.message(verdict, locale: $0)!)) })),
        ])
    }

    /// A platform as installs outside a rollout see it (its versions' answers
    /// and floors), with the rollout's block and, per version, what an install
    /// in it sees where that differs (`rollout`): a reader that knows nothing
    /// of rollouts withholds the staged recommend, as the files that cannot stage do.
    static func platform(_ state: PlatformState) -> JSON {
        let staged = state.staged()
        let s = staged?.outside ?? state
        func version(_ v: VersionRecord?) -> JSON {
            v.map { .object(["version": .string($0.version.text), "build": .optional($0.build), "releasedAt": .time($0.releasedAt), "minOs": .optional($0.minOS ?? s.platform.minOS)]) } ?? .null
        }
        var members: [String: JSON] = [
            "bundleId": .optional(s.platform.bundleID),
            "appStoreId": .optional(s.platform.appStoreID),
            "minOs": .optional(s.platform.minOS),
            "latest": version(s.announced),
            "latestReleased": version(s.released),
            "force": s.platform.force?.json ?? .null,
            // The floor of the installs outside a rollout: the recorded one while it stages, the rollout's once every install is in.
            "recommend": state.source.seen(inRollout: false, at: state.at).recommend?.json ?? .null,
            "pins": .array(s.verdicts.map(\.0).filter { $0.policy != nil }.map {
                .object(["version": .string($0.version.text), "build": .optional($0.build), "policy": .string($0.policy!.rawValue)])
            }),
            "rules": s.project.rules.json,
            "releaseDelayDays": .int(s.project.releaseDelayDays),
            "remindAfterHours": .int(s.project.remindHours),
            "outdated": .string(s.project.outdated.rawValue),
            "updateUrl": .optional(s.platform.updateURL),
            "versions": versions(s, inside: staged?.inside),
        ]
        // Only while there is one: a document without a rollout reads (and digests) as it always did.
        if let r = state.source.rollout { members["rollout"] = rollout(r) }
        return .object(members)
    }

    /// The staged recommend as apps decide it (Rollout): in when the install's bucket is below the step in force.
    static func rollout(_ r: Rollout) -> JSON {
        .object(["version": .string(r.floor.version.text), "build": .optional(r.floor.build), "hash": .string(Rollout.hashName),
                 "unit": .int(Int64(Rollout.unit)), "salt": .string(r.salt),
                 "schedule": .array(r.schedule.map { .ordered(["basisPoints": .int(Int64($0.basisPoints)), "from": .time($0.from)]) }),
                 "haltedAt": .time(r.haltedAt), "unstaged": .string(r.unstaged.rawValue), "since": .time(r.since)])
    }

    /// Per version (by index), the older OS bands where a device can install
    /// it and is told otherwise than on the newest, newest band first: its
    /// `byOs` (a client uses the entry whose `from` (null: any) it is at or
    /// above and whose `below` it is below).
    static func byOS(_ s: PlatformState) -> [Int: [(band: OSBand, verdict: Verdict)]] {
        var out: [Int: [(band: OSBand, verdict: Verdict)]] = [:]
        for (band, b) in s.bands().dropFirst() {
            let installs = OSBands.installable(s.versions, on: band.os!, s.platform)
            for i in s.verdicts.indices where installs[i] {
                let top = s.verdicts[i].1, here = b.verdicts[i].1
                if here.kind != top.kind || here.target?.id != top.target?.id { out[i, default: []].append((band, here)) }
            }
        }
        return out
    }

    /// One entry per recorded version, written straight to bytes (what
    /// `versionJSON` makes, keys in order): the bulk of the document.
    static func versions(_ s: PlatformState, inside: PlatformState? = nil) -> JSON {
        let byOS = ControlFormat.byOS(s)
        let insideByOS = inside.map(ControlFormat.byOS) ?? [:]
        var out: [UInt8] = [91]
        out.reserveCapacity(s.verdicts.count * 140 + 2)
        for i in s.verdicts.indices {
            if i > 0 { out.append(44) }
            let v = s.versions[i], verdict = s.verdicts[i].1
            out += #"{"build":"#.utf8
            if let b = v.build { out += String(b).utf8 } else { out += "null".utf8 }
            if let entries = byOS[i] {
                out += #","byOs":["#.utf8
                for (n, e) in entries.enumerated() {
                    if n > 0 { out.append(44) }
                    writeBand(e.band, e.verdict, into: &out)
                }
                out.append(93)
            }
            out += #","minOs":"#.utf8
            if let m = v.minOS { JSON.quoteBytes(m, into: &out) } else { out += "null".utf8 }
            out += #","releasedAt":"#.utf8
            if let r = v.releasedAt { JSON.quoteBytes(Time.format(r), into: &out) } else { out += "null".utf8 }
            if let inside {
                let here = inside.verdicts[i].1, bands = insideByOS[i] ?? []
                if here.kind != verdict.kind || here.target?.id != verdict.target?.id || bands.map({ bandJSON($0.band, $0.verdict) }) != (byOS[i] ?? []).map({ bandJSON($0.band, $0.verdict) }) {
                    out += #","rollout":"#.utf8
                    rolloutAnswer(here, bands).writeCompact(to: &out)
                }
            }
            out += (verdict.kind == .optional && verdict.rule?.skipAllowed == true ? #","skipAllowed":true"# : #","skipAllowed":false"#).utf8
            out += #","target":"#.utf8
            if let t = verdict.target?.version.text { JSON.quoteBytes(t, into: &out) } else { out += "null".utf8 }
            out += #","update":"#.utf8
            JSON.quoteBytes(verdict.kind.rawValue, into: &out)
            out += #","version":"#.utf8
            JSON.quoteBytes(v.version.text, into: &out)
            out.append(125)
        }
        out.append(93)
        return .raw(out)
    }

    /// What an install in the rollout sees at one version: its answer, and on older OS bands theirs.
    static func rolloutAnswer(_ verdict: Verdict, _ bands: [(band: OSBand, verdict: Verdict)]) -> JSON {
        var o: [(String, JSON)] = []
        if !bands.isEmpty { o.append(("byOs", .array(bands.map { bandJSON($0.band, $0.verdict) }))) }
        o += [("skipAllowed", .bool(verdict.kind == .optional && verdict.rule?.skipAllowed == true)),
              ("target", .optional(verdict.target?.version.text)), ("update", .string(verdict.kind.rawValue))]
        return .fields(o)
    }

    /// What `bandJSON` makes, written straight to bytes: an entry per older OS band
    /// of every version one reads otherwise (a JSON value each was most of control.json's
    /// cost in a fleet whose versions need a newer OS).
    static func writeBand(_ band: OSBand, _ verdict: Verdict, into out: inout [UInt8]) {
        out += #"{"below":"#.utf8
        if let b = band.below { JSON.quoteBytes(b, into: &out) } else { out += "null".utf8 }
        out += #","from":"#.utf8
        if let f = band.from { JSON.quoteBytes(f, into: &out) } else { out += "null".utf8 }
        out += (verdict.kind == .optional && verdict.rule?.skipAllowed == true ? #","skipAllowed":true"# : #","skipAllowed":false"#).utf8
        out += #","target":"#.utf8
        if let t = verdict.target?.version.text { JSON.quoteBytes(t, into: &out) } else { out += "null".utf8 }
        out += #","update":"#.utf8
        JSON.quoteBytes(verdict.kind.rawValue, into: &out)
        out.append(125)
    }

    static func bandJSON(_ band: OSBand, _ verdict: Verdict) -> JSON {
        .ordered(["below": .optional(band.below), "from": .optional(band.from), "skipAllowed": .bool(verdict.kind == .optional && verdict.rule?.skipAllowed == true),
                  "target": .optional(verdict.target?.version.text), "update": .string(verdict.kind.rawValue)])
    }

    static func versionJSON(_ v: VersionRecord, _ verdict: Verdict, byOS: [(band: OSBand, verdict: Verdict)] = []) -> JSON {
        var o: [String: JSON] = ["build": .optional(v.build), "minOs": .optional(v.minOS), "releasedAt": .time(v.releasedAt),
                                 "skipAllowed": .bool(verdict.kind == .optional && verdict.rule?.skipAllowed == true),
                                 "target": .optional(verdict.target?.version.text), "update": .string(verdict.kind.rawValue),
                                 "version": .string(v.version.text)]
        if !byOS.isEmpty { o["byOs"] = .array(byOS.map { bandJSON($0.band, $0.verdict) }) }
        return .object(o)
    }
}
