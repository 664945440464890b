import RelctlCore
import RelctlPublish
import RelctlStore

/// `relctl store`: what the stores serve, as dated evidence (StoreEvidence)
/// that floors and pins are checked against (StoreGuard).
enum StoreCommands {
    static let command: RunnableCommand = RunnableCommand(
        "store", abstract: "Record and show what the App Store and Google Play serve where the app sells.",
        discussion: "A platform with storefronts ('relctl platform edit ios --storefronts us,de,tr') has its floors and pins checked against this evidence: force, recommend, policy set, apply, undo and revert (and version rm, edit and release and the imports, when they move a target) refuse one whose target a storefront's store does not serve (not in its lookup, released less than the release delay ago, inside a Play staged rollout, halted, or not offered in a country the app sells in), unless --allow-store-risk. Evidence older than a day counts as none.",
        subcommands: [fetch, importCommand, show],
        examples: [Example("relctl store fetch", "Ask the iTunes lookup what each storefront serves, for every Apple platform."),
                   Example("relctl store import play tracks.json", "Record Google Play's tracks (edits.tracks.list) for android."),
                   Example("relctl store show", "The evidence, its age, and whether the floors are served.")]
    )

    /// The lookup's base URL; RELCTL_ITUNES_URL points it elsewhere (a local server in tests).
    static let lookupURL = "https://itunes.apple.com/lookup"

    static let fetch: RunnableCommand = RunnableCommand(
        "fetch", abstract: "Ask the iTunes lookup what each storefront of the Apple platforms serves, and record it.",
        discussion: "One request per storefront, by App Store id (else bundle id), with the storefront's country always given: an app not sold in the US has no answer without it. Each answer's version, release date and minimum OS is recorded with the instant it was fetched; a storefront with no result is recorded as serving nothing. Requests go through curl, bounded to 1 MiB and 20 s each; an answer that cannot be read stops the fetch and records nothing. RELCTL_ITUNES_URL replaces \(lookupURL).",
        options: [Shared.platforms, Shared.dryRun],
        examples: [Example("relctl store fetch --platform ios", "What the App Store serves in each of the iOS app's storefronts.")]
    ) { inv in
        let store = try inv.store()
        let project = try inv.project(in: store)
        let chosen = inv.values("platform").isEmpty ? try store.platforms(project: project.id).filter(\.isApple) : try inv.platforms(in: store, project: project)
        if let android = chosen.first(where: { !$0.isApple }) {
            throw RelctlError.usage("the iTunes lookup knows Apple platforms, not \(android.name)", hint: "record Google Play's tracks with 'relctl store import play FILE --platform \(android.name)'")
        }
        let platforms = chosen.filter { !$0.storefronts.isEmpty }
        guard !platforms.isEmpty else {
            let name = chosen.first?.name ?? "ios"
            throw RelctlError.failure("no Apple platform of \(project.slug) names its storefronts", hint: "say where it sells first: relctl platform edit \(name) --storefronts us,de")
        }
        let base = inv.context.env["RELCTL_ITUNES_URL"].flatMap { $0.isEmpty ? nil : $0 } ?? lookupURL
        guard base.hasPrefix("https://") || base.hasPrefix("http://"), !base.contains("?"), !base.contains(where: { $0 == " " || $0 == "\n" }) else {
            throw RelctlError.usage("RELCTL_ITUNES_URL '\(base)' is not an http(s) URL without a query", hint: "set it to a base like \(lookupURL), or unset it")
        }
        guard let curl = Spawn.find("curl", env: inv.context.env) else {
            throw RelctlError.failure("curl is not installed (or not on PATH): relctl asks the iTunes lookup through it", hint: "install it (apt-get install curl)")
        }
        var fetched: [(PlatformRecord, [StoreLookup])] = []
        for p in platforms {
            let query: String
            if let id = p.appStoreID { query = "id=\(id)" } else if let bundle = p.bundleID { query = "bundleId=\(bundle)" } else {
                throw RelctlError.failure("\(p.name) has neither an App Store id nor a bundle id to look up", hint: "add one: relctl platform edit \(p.name) --app-store-id ID")
            }
            var lookups: [StoreLookup] = []
            for s in p.storefronts {
                let url = "\(base)?\(query)&country=\(s)"
                let at = inv.now
                let bytes = try download(curl, url, inv)
                do {
                    lookups.append(try StoreAnswers.lookup(bytes, storefront: s, fetchedAt: at, bundleID: p.appStoreID == nil ? p.bundleID : nil, appStoreID: p.appStoreID))
                } catch let problem as ImportProblem {
                    throw RelctlError.failure("cannot read the lookup \(url): \(problem.message); nothing was recorded", hint: "try again later, or check RELCTL_ITUNES_URL")
                }
            }
            fetched.append((p, lookups))
        }
        try inv.write(store) { s in
            for (p, lookups) in fetched { try s.recordLookups(lookups, of: p, in: project, now: inv.now) }
        }
        for (p, lookups) in fetched {
            inv.info("\(p.name): " + lookups.map { "\($0.storefront) \($0.version?.text ?? "no result")" }.joined(separator: ", "))
            // A version the stores serve that this database does not know: the floors are checked against it all the same.
            let known = try store.read { try store.versions(platform: p.id, withNotes: false) }
            for v in Set(lookups.compactMap { $0.version?.text }).sorted() where !known.contains(where: { $0.version.text == v }) {
                inv.info("\(p.name): the App Store serves \(v), which this database does not record: relctl version add \(v) --platform \(p.name) --released TIME")
            }
        }
        try showEvidence(inv, store, project, platforms.map(\.name))
    }

    /// The body at `url`, at most StoreAnswers.limit bytes, or an error naming the URL.
    static func download(_ curl: String, _ url: String, _ inv: Invocation) throws -> [UInt8] {
        let limit = StoreAnswers.limit
        // -q first: no ~/.curlrc changes what is asked or where.
        // The bound is the pipe's (Spawn.capture's limit), the same whatever curl's version makes of --max-filesize.
        guard let got = Spawn.capture(curl, ["-q", "--silent", "--show-error", "--fail", "--max-time", "20",
                                             "--proto", "=http,https", "--max-redirs", "3", "--location", "--", url],
                                      env: inv.context.env, limit: limit) else {
            throw RelctlError.failure("cannot start \(curl)", hint: "check that curl runs: curl --version")
        }
        guard got.stdout.count <= limit else {
            throw RelctlError.failure("the lookup \(url) sent more than \(limit >> 20) MiB, far more than an answer for one app; nothing was recorded", hint: "check RELCTL_ITUNES_URL")
        }
        guard got.status == 0 else {
            throw RelctlError.failure("cannot fetch \(url): \(got.lastErrorLine); nothing was recorded", hint: "check the network (or RELCTL_ITUNES_URL) and try again")
        }
        return got.stdout
    }

    static let importCommand: RunnableCommand = RunnableCommand(
        "import", abstract: "Record what a store serves from a file it gave.",
        subcommands: [play],
        examples: [Example("relctl store import play tracks.json --platform android", "Record Google Play's tracks.")]
    )

    static let play: RunnableCommand = RunnableCommand(
        "play", abstract: "Record Google Play's tracks, as the Play Developer API's edits.tracks.list returns them.",
        discussion: "Each release's track, status (completed, inProgress, halted, draft), userFraction, versionCodes and countryTargeting are recorded as of the file's last modification (now for stdin), replacing the platform's last import. Only the production track reaches the public: a floor is served in a storefront when a completed production release (or one rolled out to everyone there) has a versionCode at or above the floor's.",
        arguments: [Argument("FILE", help: "The JSON the API returned (- for stdin).", completion: .file)],
        options: [Shared.platform(only: "The Android platform; not needed when the project has one named android."), Shared.dryRun],
        examples: [Example("relctl store import play tracks.json", "Record the tracks for android.")]
    ) { inv in
        let path = inv.arg("FILE")!
        let store = try inv.store()
        let project = try inv.project(in: store)
        let platform = inv.value("platform") == nil
            ? try store.platforms(project: project.id).first(where: \.isAndroid) ?? inv.platform(in: store, project: project)
            : try inv.platform(in: store, project: project)
        guard platform.isAndroid else {
            // The way on for that platform, as it stands: a lookup needs its storefronts first.
            let next = platform.storefronts.isEmpty ? "say where \(platform.name) sells, then ask the iTunes lookup: relctl platform edit \(platform.name) --storefronts us,de"
                : "ask the iTunes lookup for \(platform.name) with 'relctl store fetch --platform \(platform.name)'"
            throw RelctlError.usage("Google Play's tracks are for android, not \(platform.name)", hint: next)
        }
        let bytes = path == "-" ? try inv.context.readStdin() : try FileSystem.readFile(path, limit: StoreAnswers.limit)
        guard bytes.count <= StoreAnswers.limit else {
            throw RelctlError.failure("cannot import \(path): it holds more than \(StoreAnswers.limit >> 20) MiB, far more than Play's tracks", hint: "give the answer of edits.tracks.list")
        }
        // The answer is as old as the file holding it: a week-old download is no evidence today,
        // and never replaces tracks recorded as of a later instant.
        let taken = path == "-" ? inv.now : min(inv.now, FileSystem.modified(path) ?? inv.now)
        let recorded = try store.read { try store.storeEvidence(project: project.id)[platform.id]?.play?.importedAt }
        if let recorded, taken < recorded {
            throw RelctlError.failure("\(path) was last changed \(Time.format(taken)), before the tracks already recorded for \(platform.name) (as of \(Time.format(recorded))); nothing was recorded",
                                      hint: "import the answer the Play Developer API gives now")
        }
        let tracks: PlayTracks
        do { tracks = try StoreAnswers.playTracks(bytes, importedAt: taken) } catch let problem as ImportProblem {
            throw RelctlError.failure("cannot import \(path): \(problem.message)", hint: "give the JSON of the Play Developer API's edits.tracks.list, as it returned it")
        }
        try inv.write(store) { try $0.recordPlayTracks(tracks, of: platform, in: project, now: inv.now) }
        inv.info("\(platform.name): recorded \(tracks.releases.count) release\(tracks.releases.count == 1 ? "" : "s") of \(Set(tracks.releases.map(\.track)).count) track\(Set(tracks.releases.map(\.track)).count == 1 ? "" : "s")")
        if platform.storefronts.isEmpty {
            inv.info("\(platform.name) names no storefronts, so its floors are not checked against Play: relctl platform edit \(platform.name) --storefronts us,de")
        }
        try showEvidence(inv, store, project, [platform.name])
    }

    static let show: RunnableCommand = RunnableCommand(
        "show", abstract: "Show the store evidence of each platform, its age, and whether the floors and pins are served.",
        options: [Shared.platforms],
        examples: [Example("relctl store show --json", "The evidence as JSON.")]
    ) { inv in
        let store = try inv.store(.read)
        let project = try inv.project(in: store)
        let names = inv.values("platform").isEmpty ? nil : try inv.platforms(in: store, project: project).map(\.name)
        try showEvidence(inv, store, project, names)
    }

    /// The evidence of the platforms named (nil: all), and what it says of their floors and pins now.
    static func showEvidence(_ inv: Invocation, _ store: Store, _ project: ProjectRecord, _ names: [String]?) throws {
        let snapshot = try store.read { try store.snapshot(project, notesShownAt: inv.now) }
        let platforms = snapshot.platforms.filter { names?.contains($0.name) ?? true }
        inv.render(.object(["project": .string(project.slug), "platforms": .array(platforms.map { json($0, snapshot, now: inv.now, at: inv.now) })])) {
            platforms.map { text($0, snapshot, inv) }.joined(separator: "\n")
        }
    }

    /// Each floor and pin of the platform that the stores are asked to serve, with what keeps it from being served (none: served).
    /// `at`: the instant asked about (status --at); the evidence is as old as it is `now`.
    static func targets(_ p: PlatformRecord, _ snapshot: ProjectSnapshot, now: Int64, at: Int64) -> [(target: StoreGuard.Target, findings: [StoreGuard.Finding])] {
        let versions = snapshot.versions(of: p)
        var targets = StoreGuard.targets(p, versions, at: at)
        // The update the outdated rule offers every older version: during a Play staged rollout, a limit stated plainly.
        if snapshot.project.outdated == .recommend, let newest = snapshot.newestAnnounced(p, at: at), versions.first?.id != newest.id {
            targets.append(StoreGuard.Target(version: newest.version, build: newest.build, what: "the update to \(newest.version.text) that older versions are offered"))
        }
        return targets.map { ($0, StoreGuard.unserved($0, on: p, versions: versions, evidence: snapshot.store[p.id], delay: snapshot.delaySeconds, now: now, at: at)) }
    }

    /// Lines for people: "force floor 2.1: served in every storefront", or why not.
    static func targetLines(_ p: PlatformRecord, _ snapshot: ProjectSnapshot, now: Int64, at: Int64) -> [String] {
        guard !p.storefronts.isEmpty else {
            return p.force == nil && p.recommend == nil ? [] : ["floors unchecked against the stores: the platform names no storefronts"]
        }
        return targets(p, snapshot, now: now, at: at).map { t, findings in
            findings.isEmpty ? "\(t.what): served in every storefront" : "not served: " + StoreGuard.sentence(t, on: p, findings)
        }
    }

    /// `status`: a platform's storefronts in one line, then its floors' checks; nothing for a platform that names none.
    static func statusLines(_ p: PlatformRecord, _ snapshot: ProjectSnapshot, _ inv: Invocation, at: Int64) -> [String] {
        let now = inv.now
        guard !p.storefronts.isEmpty else { return [] }
        let evidence = snapshot.store[p.id] ?? StoreEvidence()
        var lines: [String] = []
        if p.isAndroid {
            lines.append("store: " + (evidence.play.map { "Play tracks as of \(PeopleTime.format($0.importedAt, now: now, timeZone: inv.timeZone))" } ?? "no Play tracks imported"))
        } else {
            lines.append("store: " + p.storefronts.map { s in
                guard let l = evidence.lookups.first(where: { $0.storefront == s }) else { return "\(s) never fetched" }
                return "\(s) \(l.version?.text ?? "no result") (fetched \(PeopleTime.distance(l.fetchedAt - now)))"
            }.joined(separator: ", "))
        }
        return lines + targetLines(p, snapshot, now: now, at: at).filter { $0.hasPrefix("not served") }.map { inv.people(in: $0) }
    }

    static func text(_ p: PlatformRecord, _ snapshot: ProjectSnapshot, _ inv: Invocation) -> String {
        let evidence = snapshot.store[p.id] ?? StoreEvidence()
        var lines = ["\(p.name): storefronts \(p.storefronts.isEmpty ? "none" : p.storefronts.joined(separator: ","))"]
        func age(_ t: Int64) -> String { inv.people(t) + (StoreEvidence.counts(t, at: inv.now) ? "" : ", older than a day: counts as none") }
        if !p.isAndroid {
            var rows: [[String]] = []
            for s in Set(p.storefronts + evidence.lookups.map(\.storefront)).sorted() {
                guard let l = evidence.lookups.first(where: { $0.storefront == s }) else { rows.append([s, "-", "-", "-", "never fetched"]); continue }
                rows.append([s, l.version?.text ?? "no result", l.releasedAt.map(inv.people) ?? "-", l.minOS ?? "-", age(l.fetchedAt)])
            }
            if !rows.isEmpty {
                lines += Table.render(["STOREFRONT", "VERSION", "RELEASED", "MIN OS", "FETCHED"], rows).split(separator: "\n").map { "  " + $0 }
            }
        } else if let play = evidence.play {
            lines.append("  Play tracks as of \(age(play.importedAt)) (the imported file's time)")
            for r in play.releases {
                let countries = r.countries.map { " in " + $0.joined(separator: ",") + (r.restOfWorld ? " and the rest of the world" : "") } ?? ""
                lines.append("  \(r.track): versionCode \(r.versionCodes.map(String.init).joined(separator: "+")) \(r.status.rawValue)\(r.status == .inProgress || r.status == .halted ? " at " + r.percent : "")\(countries)")
            }
        } else {
            lines.append("  no Play tracks imported: relctl store import play FILE --platform \(p.name)")
        }
        lines += targetLines(p, snapshot, now: inv.now, at: inv.now).map { "  " + inv.people(in: $0) }
        return lines.joined(separator: "\n") + "\n"
    }

    static func json(_ p: PlatformRecord, _ snapshot: ProjectSnapshot, now: Int64, at: Int64) -> JSON {
        let evidence = snapshot.store[p.id] ?? StoreEvidence()
        return .object([
            "platform": .string(p.name),
            "storefronts": .array(p.storefronts.map { .string($0) }),
            "lookups": .array(evidence.lookups.map { l in
                .object(["storefront": .string(l.storefront), "version": .optional(l.version?.text), "releasedAt": .time(l.releasedAt),
                         "minOs": .optional(l.minOS), "fetchedAt": .time(l.fetchedAt), "counts": .bool(StoreEvidence.counts(l.fetchedAt, at: now))])
            }),
            "play": evidence.play.map { play in
                .object(["importedAt": .time(play.importedAt), "counts": .bool(StoreEvidence.counts(play.importedAt, at: now)),
                         "releases": .array(play.releases.map { r in
                             .object(["track": .string(r.track), "name": .optional(r.name), "status": .string(r.status.rawValue),
                                      "userFraction": r.userFraction.map { .raw(Array(String($0).utf8)) } ?? .null,
                                      "versionCodes": .array(r.versionCodes.map { .int($0) }),
                                      "countries": r.countries.map { .array($0.map { .string($0) }) } ?? .null, "includeRestOfWorld": .bool(r.restOfWorld)])
                         })])
            } ?? .null,
            "checked": .bool(!p.storefronts.isEmpty),
            "targets": .array(p.storefronts.isEmpty ? [] : targets(p, snapshot, now: now, at: at).map { t, findings in
                .object(["what": .string(t.what), "version": .string(t.version.text), "served": .bool(findings.isEmpty),
                         "safeAt": .time(StoreGuard.safeAt(findings)),
                         "problems": .array(findings.map { f in .object(["storefront": .optional(f.storefront), "reason": .string(f.reason)]) })])
            }),
        ])
    }
}
