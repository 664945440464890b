import RelctlCore

/// The scenarios of the conformance suite, as relctl commands a release
/// engineer would type (on a fresh database with project "app" at
/// ConformanceCommand.start), and the cases asked of each.
enum ConformanceScenarios {
    struct Scenario {
        var name: String
        var description: String
        var commands: [[String]]
    }

    /// A command line as typed: words, "quoted words" whole (the hints' own splitter).
    static func line(_ s: String) -> [String] { PastedHints.split(s) }

    static let platforms = [
        "platform add ios --bundle-id com.acme.app --app-store-id 1234567890",
        "platform add android --bundle-id com.acme.app",
    ]

    /// The database of the signed steps (ConformanceSigned), and the commands it is made with.
    static let signedName = "signed"
    static let signedCommands = (platforms + [
        "version add 1.0 --platform ios --build 100 --released 2026-01-01T00:00:00Z",
        "version add 1.0 --platform android --build 1 --released 2026-01-01T00:00:00Z",
    ]).map(line)

    static let all: [Scenario] = [
        Scenario(name: "floors", description: "Force floors with and without a deadline, a recommend floor, a release in its delay.", commands: (platforms + [
            "version add 1.0 --platform ios --build 100 --released 2026-01-01T00:00:00Z",
            "version add 1.5 --platform ios --build 150 --released 2026-03-01T00:00:00Z",
            "version add 2.0 --platform ios --build 200 --released 2026-05-01T00:00:00Z",
            "version add 2.1 --platform ios --build 210 --released 2026-06-01T06:00:00Z",
            "version add 1.0 --platform android --build 1 --released 2026-01-01T00:00:00Z",
            "version add 2.0 --platform android --build 2 --released 2026-05-01T00:00:00Z",
            "force 2.0 --platform ios --deadline 2026-06-08T12:00:00Z --yes",
            "recommend 2.1 --platform ios --yes",
            "force 2.0 --platform android --yes",
        ]).map(line)),
        Scenario(name: "pins", description: "Versions pinned to force, recommend and none, under and over a floor; a store link of the project's own.", commands: ([
            "platform add ios --bundle-id com.acme.app --app-store-id 1234567890",
            "platform add android --bundle-id com.acme.app --store-url https://downloads.example.com/acme.apk",
            "version add 1.0 --platform ios --build 100 --released 2026-01-01T00:00:00Z",
            "version add 1.1 --platform ios --build 110 --released 2026-02-01T00:00:00Z",
            "version add 1.2 --platform ios --build 120 --released 2026-03-01T00:00:00Z",
            "version add 2.0 --platform ios --build 200 --released 2026-05-01T00:00:00Z",
            "version add 1.0 --platform android --build 10 --released 2026-01-01T00:00:00Z",
            "version add 2.0 --platform android --build 20 --released 2026-05-01T00:00:00Z",
            "policy set 1.0 force --platform ios --yes",
            "policy set 1.1 none --platform ios --yes",
            "policy set 1.2 recommend --platform ios --yes",
            "recommend 1.2 --platform ios --yes",
            "policy set 1.0 force --platform android --yes",
        ]).map(line)),
        Scenario(name: "rules", description: "Per update type rules (critical major, relaxed patch), a three-day release delay, a four-part revision.", commands: (platforms + [
            "rules set --major critical --minor persistent --patch relaxed --revision hinting --release-delay 3 --remind-after 12 --yes",
            "version add 1.0 --platform ios --released 2026-01-01T00:00:00Z",
            "version add 1.1 --platform ios --released 2026-02-01T00:00:00Z",
            "version add 1.1.1 --platform ios --released 2026-03-01T00:00:00Z",
            "version add 1.1.1.1 --platform ios --released 2026-04-01T00:00:00Z",
            "version add 2.0 --platform ios --released 2026-05-30T12:00:00Z",
            "version add 1.0 --platform android --build 1 --released 2026-01-01T00:00:00Z",
            "version add 1.1 --platform android --build 2 --released 2026-05-31T12:00:00Z",
        ]).map(line)),
        Scenario(name: "outdated-none", description: "Outdated versions told nothing; only a floor speaks.", commands: (platforms + [
            "rules set --outdated none --yes",
            "version add 1.0 --platform ios --released 2026-01-01T00:00:00Z",
            "version add 2.0 --platform ios --released 2026-04-01T00:00:00Z",
            "version add 3.0 --platform ios --released 2026-05-01T00:00:00Z",
            "recommend 2.0 --platform ios --yes",
            "version add 1.0 --platform android --build 1 --released 2026-01-01T00:00:00Z",
        ]).map(line)),
        Scenario(name: "maintenance", description: "An active window for one platform with copy in two locales, {until} filled; upcoming windows for all and for one.", commands: (platforms + [
            "project edit app --locales en,de --time-zone Europe/Berlin",
            "version add 1.0 --platform ios --build 100 --released 2026-01-01T00:00:00Z",
            "version add 2.0 --platform ios --build 200 --released 2026-05-01T00:00:00Z",
            "version add 1.0 --platform android --build 1 --released 2026-01-01T00:00:00Z",
            "maintenance start --platform ios --for 2h --title Down --message \"Back at {until}\" --yes",
            "maintenance message 1 --locale de --title Wartung --message \"Zurück um {until}\"",
            "maintenance start --platform ios --for 3h --title \"Down longer\" --message \"Until {until}\" --yes",
            "maintenance schedule --from 2026-06-03T01:00:00Z --for 30m --yes",
            "maintenance schedule --platform android --from 2026-06-10T00:00:00Z --until 2026-06-10T03:00:00Z --message \"Upgrading\" --yes",
        ]).map(line)),
        Scenario(name: "locales", description: "Published locales with the project's own text, regional and script fallbacks, a deadline in the user's language and the project's zone.", commands: (platforms + [
            "project edit app --locales en,de,tr,zh-Hant,pt-BR,ar --default-locale en --time-zone Europe/Istanbul",
            "message set optional --locale tr --title \"Güncelleme var\"",
            "message set required --locale de --title \"Bitte aktualisieren\" --message \"{app} {version} ist nötig.\"",
            "version add 1.0 --platform ios --build 100 --released 2026-01-01T00:00:00Z",
            "version add 2.0 --platform ios --build 200 --released 2026-05-01T00:00:00Z",
            "version add 1.0 --platform android --build 1 --released 2026-01-01T00:00:00Z",
            "version add 2.0 --platform android --build 2 --released 2026-05-01T00:00:00Z",
            "force 2.0 --platform ios --after 5d --yes",
            "force 2.0 --platform android --yes",
        ]).map(line)),
        Scenario(name: "open-window", description: "A window with no end for one platform; another platform's window within the hour sets every platform's poll interval.", commands: (platforms + [
            "version add 1.0 --platform ios --build 100 --released 2026-01-01T00:00:00Z",
            "version add 1.0 --platform android --build 1 --released 2026-01-01T00:00:00Z",
            "maintenance start --platform android --title Down --message \"Back soon\" --yes",
            "maintenance schedule --platform ios --from 2026-06-01T12:30:00Z --for 1h --yes",
        ]).map(line)),
        Scenario(name: "zones", description: "A half-hour zone and a default locale other than en: a deadline at local midnight and one in the morning, a regional fallback (es-MX to es-419), rules that show nothing or ask at every launch.", commands: (platforms + [
            "project edit app --locales de,en,es-419,pt-BR --default-locale de --time-zone Asia/Kolkata",
            "rules set --major critical --minor none/daily --patch annoying --release-delay 0 --yes",
            "version add 1.0 --platform ios --build 100 --released 2026-01-01T00:00:00Z",
            "version add 1.1 --platform ios --build 110 --released 2026-02-01T00:00:00Z",
            "version add 1.1.1 --platform ios --build 111 --released 2026-03-01T00:00:00Z",
            "version add 1.2 --platform ios --build 120 --released 2026-05-01T00:00:00Z",
            "version add 1.0 --platform android --build 10 --released 2026-01-01T00:00:00Z",
            "version add 1.2 --platform android --build 12 --released 2026-05-01T00:00:00Z",
            "force 1.1.1 --platform ios --deadline 2026-06-07T18:30:00Z --yes",
            "force 1.2 --platform android --deadline 2026-06-09T03:30:00Z --yes",
        ]).map(line)),
        Scenario(name: "daylight", description: "A zone west of UTC with daylight saving: a deadline after the clocks go back is written in the offset in force then, not now.", commands: (platforms + [
            "project edit app --time-zone America/New_York",
            "version add 1.0 --platform ios --build 100 --released 2026-01-01T00:00:00Z",
            "version add 2.0 --platform ios --build 200 --released 2026-05-01T00:00:00Z",
            "version add 1.0 --platform android --build 1 --released 2026-01-01T00:00:00Z",
            "version add 2.0 --platform android --build 2 --released 2026-05-01T00:00:00Z",
            "force 2.0 --platform ios --deadline 2026-11-02T14:00:00Z --yes",
            "force 2.0 --platform android --deadline 2026-06-03T13:00:00Z --yes",
        ]).map(line)),
        Scenario(name: "os-bands", description: "Versions needing newer OS: each device is sent to the newest it can install, never required to one it cannot.", commands: [
            "platform add ios --bundle-id com.acme.app --app-store-id 1234567890 --min-os 15.0",
            "platform add android --bundle-id com.acme.app",
            "version add 1.0 --platform ios --build 100 --released 2026-01-01T00:00:00Z --min-os 15.0",
            "version add 1.5 --platform ios --build 150 --released 2026-03-01T00:00:00Z --min-os 15.0",
            "version add 2.0 --platform ios --build 200 --released 2026-05-01T00:00:00Z --min-os 17.0",
            "version add 1.0 --platform android --build 1 --released 2026-01-01T00:00:00Z --min-os 24",
            "version add 2.0 --platform android --build 2 --released 2026-05-01T00:00:00Z --min-os 26",
            "force 2.0 --platform ios --allow-lockout --yes",
            "recommend 2.0 --platform android --allow-lockout --yes",
            "force 2.0 --platform android --deadline 2026-06-05T00:00:00Z --allow-lockout --yes",
        ].map(line)),
        Scenario(name: "spellings", description: "Versions that differ by trailing zeros, four parts, builds on one version; installs nobody recorded.", commands: (platforms + [
            "version add 1.2.3.4 --platform ios --build 1234 --released 2026-01-01T00:00:00Z",
            "version add 2.0 --platform ios --build 200 --released 2026-04-01T00:00:00Z",
            "version add 2.0.0 --platform ios --build 201 --released 2026-05-01T00:00:00Z",
            "version add 10.0 --platform ios --build 1000 --released 2026-05-15T00:00:00Z",
            "version add 1.9 --platform android --build 19 --released 2026-01-01T00:00:00Z",
            "version add 1.10 --platform android --build 110 --released 2026-05-01T00:00:00Z",
            "force 2.0.0 --platform ios --yes",
            "force 1.10 --platform android --yes",
        ]).map(line)),
        Scenario(name: "unreleased", description: "A release at a future instant, an unreleased version, a floor above every release.", commands: (platforms + [
            "version add 1.0 --platform ios --build 100 --released 2026-01-01T00:00:00Z",
            "version add 2.0 --platform ios --build 200 --released 2026-06-05T00:00:00Z",
            "version add 3.0 --platform ios --build 300 --unreleased",
            "force 2.0 --platform ios --allow-unreleased --yes",
            "version add 1.0 --platform android --build 1 --released 2026-01-01T00:00:00Z",
            "version add 1.1 --platform android --build 2 --released 2026-06-02T00:00:00Z",
        ]).map(line)),
        Scenario(name: "rollout", description: "Staged recommends of releases still in their delay: one widening day by day to every install, one halted at its first step; installs at each step's edge.", commands: (platforms + [
            "version add 1.0 --platform ios --build 100 --released 2026-01-01T00:00:00Z",
            "version add 2.0 --platform ios --build 200 --released 2026-05-01T00:00:00Z",
            "version add 2.1 --platform ios --build 210 --released 2026-06-01T06:00:00Z",
            "recommend 2.1 --platform ios --rollout 1,10,50,100 --every 1d --yes",
            "version add 1.0 --platform android --build 1 --released 2026-01-01T00:00:00Z",
            "version add 2.0 --platform android --build 2 --released 2026-06-01T00:00:00Z",
            "recommend 2.0 --platform android --rollout 5,20,100 --every 2d --yes",
            "rollout halt --platform android --yes",
        ]).map(line)),
    ]

    /// A rollout's salt is random; the suite's is made from the scenario and
    /// platform, so two exports write the same bytes.
    static func fixedSalts(_ s: ProjectSnapshot, scenario: String) -> ProjectSnapshot {
        var s = s
        for i in s.platforms.indices where s.platforms[i].rollout != nil {
            s.platforms[i].rollout!.salt = "conformance-\(scenario)-\(s.platforms[i].name)"
        }
        return s
    }

    /// Install ids at each edge of a rollout's steps: for each step's basis
    /// points B, one id in bucket B − 1 (in) and one in bucket B (out), and
    /// one install that has none (nil: outside every rollout). The first
    /// "install-N" of each bucket, so the same salt gives the same ids.
    static func installIDs(_ r: Rollout?) -> [String?] {
        guard let r else { return [nil] }
        var wanted = Set(r.steps.flatMap { [$0 - 1, $0] }.filter { $0 < Rollout.unit })
        var found: [Int: String] = [:]
        var n = 0
        while !wanted.isEmpty && n < 1_000_000 {
            let id = "install-\(n)"
            let b = r.bucket(id)
            if wanted.remove(b) != nil { found[b] = id }
            n += 1
        }
        return [nil] + found.keys.sorted().map { found[$0] }
    }

    /// (salt, install id) → bucket vectors: salts of several shapes, ids as apps
    /// make them (UUIDs in either case), short, long, and beyond ASCII (UTF-8 bytes).
    static func buckets() -> [JSON] {
        let salts = ["0123456789abcdef0123456789abcdef", "conformance-rollout-ios", "Salt_With-Caps_0001"]
        let ids = ["7F1C2A90-3B4D-4E5F-8A6B-1C2D3E4F5A6B", "7f1c2a90-3b4d-4e5f-8a6b-1c2d3e4f5a6b", "a", "0", "install-0", "install-1",
                   "ünïcødé-install", "インストール", "🙂", String(repeating: "x", count: 128), "00000000-0000-0000-0000-000000000000",
                   "FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF", "device:42", "a.b", "install-99999", "ID_with_underscores", "1234567890",
                   "e3b0c442-98fc-1c14-9afb-f4c8996fb924", "Z", "rollout"]
        return salts.flatMap { salt in ids.map { id in
            let input = salt + "." + id
            return JSON.ordered(["bucket": .int(Rollout.bucket(salt: salt, installID: id)), "input": .string(input), "installId": .string(id),
                                 "salt": .string(salt), "sha256": .string(SHA256Digest.hash(Array(input.utf8)).map { b in
                                     let h = Array("0123456789abcdef".utf8); return String(decoding: [h[Int(b >> 4)], h[Int(b & 15)]], as: UTF8.self) }.joined())])
        } }
    }

    /// Languages a device may list, in order: the default, each published
    /// locale as a device spells it, a regional variety, a script, one the
    /// project does not publish (the default answers).
    static func languageSets(_ s: ProjectSnapshot) -> [[String]] {
        var sets: [[String]] = [[s.project.defaultLocale]]
        for l in s.publishedLocales where l != s.project.defaultLocale { sets.append([l]) }
        sets += [["de-AT", "en-GB"], ["zh-Hant-TW"], ["pt-PT", "fr"], ["sw-KE"], ["en-US"], ["es-MX"]]
        // A first language the project does not publish, then one it does: the second answers.
        if let second = s.publishedLocales.first(where: { $0 != s.project.defaultLocale }) { sets.append(["sw-KE", second]) }
        return sets
    }

    /// Installs at instants: every recorded version (with its build), the
    /// installs just below each floor and below the oldest record, one
    /// above the newest, a longer spelling of each, the builds just below
    /// and above each recorded one; at the publish instant
    /// and just before and at each coming change; on every OS band.
    static func cases(_ s: ProjectSnapshot, at t0: Int64) -> [JSON] {
        let end = t0 + 400 * 86_400
        var instants = Set([t0, end])
        for c in NextChange.coming(s, after: t0, through: end, limit: 16) { instants.formUnion([c.at - 1, c.at]) }
        let languages = languageSets(s)
        var out: [JSON] = []
        for p in s.platforms {
            let versions = s.versions(of: p)
            var installs: [(String, Int64?)] = versions.map { ($0.version.text, $0.build) }
            var unlisted: [Version] = []
            for floor in [p.force, p.recommend, p.rollout?.floor].compactMap({ $0 }) { if let b = Probes.below(floor.version) { unlisted.append(b) } }
            if let oldest = versions.first, let b = Probes.below(oldest.version) { unlisted.append(b) }
            if let newest = versions.last, let a = Probes.above(newest.version) { unlisted.append(a) }
            for v in versions where v.version.components.count < 4 { if let longer = try? Version(v.version.text + ".0") { unlisted.append(longer) } }
            for v in unlisted where !installs.contains(where: { $0.0 == v.text }) { installs.append((v.text, nil)) }
            // Each recorded build's neighbours of the same version: a build below (a pin holds for
            // its own build alone) and one above.
            for v in versions {
                guard let b = v.build else { continue }
                for other in [b - 1, b + 1] where other >= 0 && other <= 2_100_000_000 && !installs.contains(where: { $0.0 == v.version.text && $0.1 == other }) {
                    installs.append((v.version.text, other))
                }
            }
            let oses = OSBands.probes(p, versions)
            let ids = installIDs(p.rollout)
            for t in instants.sorted() {
                for (version, build) in installs {
                    for os in oses {
                        for id in ids {
                        // Every language list where there is text to read; one where there is none.
                        for langs in languages {
                        guard let release = try? Version(version),
                              let answer = ClientAnswer.answer(s, platform: p.name, release: Release(release, build: build), os: os, languages: langs, at: t, installID: id)
                        else { continue }
                        out.append(.ordered(["at": .time(t), "build": .optional(build), "expected": answer.json, "installId": .optional(id),
                                             "languages": .array(langs.map { .string($0) }),
                                             "os": .optional(os), "platform": .string(p.name), "version": .string(version)]))
                        if answer.kind == .none { break }
                        }
                        }
                    }
                }
            }
        }
        return out
    }

    /// Documents a client must refuse for an install, made from the suites'
    /// states: another schemaVersion, a platform the document does not
    /// have, a document cut short.
    static func refusals(_ files: [(String, [UInt8])]) -> (cases: [JSON], files: [(String, [UInt8])]) {
        guard let (path, floors) = files.first(where: { $0.0.hasSuffix("/control.json") }) else { return ([], []) }
        let text = String(decoding: floors, as: UTF8.self)
        let other = text.replacing("\"schemaVersion\":\(ControlDocument.schemaVersion)", with: "\"schemaVersion\":\(ControlDocument.schemaVersion + 1)")
        func refusal(_ state: String, _ platform: String, _ reason: String) -> JSON {
            .ordered(["platform": .string(platform), "reason": .string(reason), "state": .string(state)])
        }
        return ([refusal("refusals/schema-version.json", "ios", "schemaVersion \(ControlDocument.schemaVersion + 1) is not the one this suite's clients read (\(ControlDocument.schemaVersion))"),
                 refusal(path, "tvos", "the document has no platform tvos: nothing in it is meant for this app"),
                 refusal("refusals/cut-short.json", "ios", "the document is cut short (a download that stopped): not JSON")],
                [("refusals/schema-version.json", Array(other.utf8)), ("refusals/cut-short.json", Array(floors.prefix(floors.count / 2)))])
    }

    /// The locale chain of every tag asked about, and the date strings of
    /// every locale that has its own: all a client needs to choose a locale
    /// and write {deadline} and {until} as the suite does.
    static func locales(_ tags: Set<String>) -> JSON {
        var chains: [String: JSON] = [:]
        for tag in tags.sorted() {
            chains[tag] = .array(LocaleChain.steps(tag).map { .array($0.map { .string($0) }) })
        }
        var dates: [String: JSON] = [:]
        for locale in Catalog.locales {
            guard let strings = Catalog.strings(locale), let pattern = strings["date.pattern"], let months = strings["date.months"] else { continue }
            dates[locale] = .ordered(["am": .string(strings["date.am"] ?? "AM"), "digits": .string(strings["date.digits"] ?? "0123456789"),
                                      "months": .array(months.split(separator: ",").map { JSON.string(String($0)) }),
                                      "pattern": .string(pattern), "pm": .string(strings["date.pm"] ?? "PM")])
        }
        return .ordered(["chains": .object(chains), "dates": .object(dates)])
    }

    static let readme = """
    # relctl conformance suite

    Test vectors for any client of relctl's control.json (schema/control.schema.json),
    written by `relctl conformance export DIR`; schema/conformance.schema.json describes
    every file. A client written from this file, the schemas and `locales.json` alone,
    with nothing of relctl's source, passes it.

    - `index.json`: `suiteVersion`, `controlSchemaVersion` (the control.json schema the
      states use), `suites` (each with `name`, `description`, `state` and `cases`, paths
      relative to this folder, and `count`), `refusals`, `locales` and `signed`.
    - `NAME/control.json`: the published state, exactly as `relctl publish` writes it
      at `publishedAt`.
    - `NAME/cases.json`: an array of cases. Each names an install (`platform`, `version`
      as the app reports it, `build` or null, `os` or null for the newest, `languages`
      in the device's order, `installId`: the install's id, null for one outside every
    rollout) and an instant (`at`), and the answer relctl's own
      evaluator gives from the database the state was published from (`expected`).
    - `buckets.json`: rollout bucket vectors: `salt`, `installId`, the `input` hashed
      (salt, ".", install id, as UTF-8), its `sha256` (hex) and the `bucket`.
    - `refusals.json`: documents a client must refuse for an install (`state`,
      `platform`, `reason`): another `schemaVersion`, a platform the document does not
      have, a document cut short. Refused, nothing of it is obeyed and the last
      accepted state stays.
    - `locales.json`: `chains` (each tag the suite names, with its steps) and `dates`
      (the strings instants are written with, per locale that has its own).

    ## Running it

    For each suite, read `state` once into your client, as if downloaded at
    `publishedAt`. For each case, ask the client what an app with that install and
    those languages shows at `at`, with no new download (deadlines, windows and
    release delays take effect at their instant), and compare with `expected`:

    - `kind`: none, optional, required or maintenance;
    - `target`, `targetBuild`, `updateUrl`: the version to install and where (null for
      none and maintenance);
    - `locale` and `texts`: the locale chosen and each field of the message as shown
      (title, message, updateButton, laterButton, skipButton, retryButton),
      placeholders filled: {version}, {app}, {deadline} (a window's copy comes with
      {until} already written);
    - `skipAllowed`, `remindAfterHours` and `frequency` (optional updates), `deadline`
      (when an optional update becomes required), `window` and `until`
      (maintenance), `pollIntervalSeconds`.

    A client passes when every case matches and every refusal is refused. RelctlClient,
    relctl's Swift client, runs the whole suite in relctl's own tests, and those tests
    hold a list of wrong readings (below), each of which the suite fails.

    ## Reading a state

    Versions compare component by component, a missing component counting as 0
    (2.0 and 2.0.0 are one version); builds are compared only when both sides have
    one. An install of a recorded version with a lower build than the recorded
    release is below it (2.1.0 build 209 is offered 2.1.0 build 210). Device OS
    versions (`os`, `minOs`) compare the same way. Of two records of one version
    (2.0 build 200, 2.0.0 build 201) the higher build is the newer, and a target is
    spelled as its record is.

    **A rollout** (`platforms.P.rollout`, absent or null: none) stages a recommend
    floor (`version`, `build`) for a share of installs; it settles which
    recommend floor an install has, and what the outdated policy may offer
    it, before anything below is read. The share at an instant is the
    `basisPoints` of the last `schedule` step whose `from` is at or before it
    (0 before the first); once `haltedAt` is set, instants after it count as
    `haltedAt`. An install is in when `uint32_be(SHA-256(salt + "." +
    installId)[0..4]) mod 10000` (the first four bytes of the digest of the
    UTF-8 bytes, big-endian, unsigned; the id exactly as given, case and all)
    is below the share; an install with no id is not in. In: the platform's
    recommend floor is the rollout's (when it is higher). Not in, while the
    share is below 10000, and below the rollout's version: the outdated policy
    (4) does not offer it any version at or above the rollout's that was not
    announced before `since`, when the version was first staged (released at
    least `releaseDelayDays` before it); offered nothing because of that alone, it
    is told nothing. At 10000 every install is in. The steps are evenly spaced.

    The first of these that applies decides, and only it:

    1. **Maintenance**: a window of `maintenance.active` or `maintenance.upcoming`
       (an upcoming one becomes active at its `startsAt`, with no new download) whose
       `platform` is null (every platform) or the install's, from `startsAt`
       (included) until `endsAt` (excluded; null: no end, it lasts until stopped).
       When several are active, the one with the highest `id` is shown.
    2. **A pin** (`platforms.P.pins`): an install whose version equals the pin's
       (the pin spelled exactly as the install first, then an equal version) and
       whose build equals the pin's when both have one; another build of a pinned
       version is not pinned. `force` requires the newest release, `recommend`
       offers it, `none` shows nothing; with no newer release, nothing.
    3. **The force floor** (`platforms.P.force`): an install below it must update to
       the newest released version (released at or before the instant, even if
       still in its release delay: floors and pins send users to it at once); with
       a `deadline` (the instant itself required), the update is optional until
       that instant (the optional message becomes its `deadlineMessage`, `deadline` is
       set) and required from it on. A floor above every release still sends the
       installs below it to the newest release.
    4. **The recommend floor**, then the outdated policy: an install below the newest
       version released at least `releaseDelayDays` ago (the outdated policy's
       target; a floor's is the newest released) is told what the rule of its
       update type says (`rules.major` when the first component differs, then minor,
       patch, revision): alert `force` required, `option` and `skip` optional, `none`
       nothing. `outdated: none` tells outdated versions nothing. Floors and pins act
       at once; only this waits for the release delay.
    5. Otherwise nothing.

    The update type of any update is the first component in which the install and
    the target differ (major, minor, patch, revision; `revision` when the versions
    are equal and only the build differs), and its rule (`platforms.P.rules`) says
    how it asks: `skipAllowed` is the rule's (true exactly for alert `skip`), and
    `frequency` is the rule's. A floor or pin decides the kind: where its rule would
    force or show nothing, the optional update it makes asks as `option` does.

    The answer's other fields: `target` and `targetBuild` are the target record's
    version (as spelled) and build, `updateUrl` is `platforms.P.updateUrl`, and
    `remindAfterHours` is `platforms.P.remindAfterHours`, for optional updates.
    For a required update `skipAllowed` is false and `remindAfterHours` and
    `frequency` are null; for none, `texts` is `{}` and every field but `locale` and
    `pollIntervalSeconds` is null or false. `locale` is always the locale chosen,
    whatever the kind.

    A device on an older OS (`os`) is only ever sent to a version whose `minOs` it
    meets: the newest it can install. Below a force floor that this newest version
    does not reach (deadline or not), it is offered that version, optional, with the
    plain optional message and `deadline` null; it is told nothing when it can install
    nothing newer.

    `frequency` is the rule's for the update's type: how often a dismissed optional
    prompt may come back (immediately: the next launch; daily; weekly); "later" holds
    it for `remindAfterHours`.

    `versions[].update`, `.target` and `.skipAllowed` in control.json are the answers at
    `publishedAt` for the recorded spellings and builds only. An install another
    instant, spelling or build must be worked out as above: a client that reads them
    instead fails most cases here. `latest` is the newest version announced at
    `publishedAt` (released, its release delay over); `latestReleased` the newest
    released then, which may still be in its delay.

    ### Locale and texts

    The locale is the first of the user's languages (in the device's order) whose
    chain reaches a published locale (`project.locales`): the chain of a tag is its
    steps in `locales.json`, a list of lists of tags tried in order (flattened, one
    list): its own variety, then its parents as CLDR's parent locales give them (es-MX
    to es-419; zh-Hant-TW to zh-Hant, never to zh; sr-Latn never to sr), then its
    language where CLDR allows, then the language's default variant (pt-PT users
    read a project's pt-BR copy). A user whose languages reach none reads the
    project's `defaultLocale` (which need not be en). The texts are
    `messages[locale][kind]` (`deadlineMessage` instead of `message` while a force
    floor's deadline is ahead); `skipButton` is always there for optional updates,
    and the app hides it unless `skipAllowed`. A window's texts are its
    `messages[locale]`, written for every published locale.

    ### Instants in messages

    {deadline} (and {until}, which control.json writes into each window's copy) is
    written in the project's `timeZone`, always a name from the IANA tz database: `UTC`, a place (`Asia/Kolkata`, `America/New_York`),
    or a fixed offset as the database spells it, in whole hours with the sign
    inverted (`Etc/GMT-5` is UTC+5, `Etc/GMT+3` is UTC-3). The offset is the one
    in force at the instant written, not at the instant read: a deadline after the
    clocks change shows the new offset, with the date strings of the first locale
    in the message locale's chain, then the default locale's chain, then en, that
    `locales.json` `dates` has. In `pattern`: `y` the year, `M`/`MM` the month's
    number, `MMM`/`MMMM` its name from `months`, `d`/`dd` the day, `H`/`HH` the
    hour 0-23, `h`/`hh` 1-12, `m`/`mm` the minute, `a` `am` or `pm`; a doubled
    letter pads to two digits; text in single quotes is literal (`''` is a quote,
    inside quotes or out); anything else (spaces, punctuation, other letters) is
    copied as written. Every digit of the date and time is written with `digits`.
    After the date comes a space and the offset in parentheses, in ASCII digits:
    `(UTC)`, `(UTC+3)`, `(UTC+5:30)`, `(UTC-4)`.

    ### Polling

    `pollIntervalSeconds` is 60 from an hour before any window of the project starts
    (whatever its platform; that instant included) until it ends (excluded), else 900.

    ## Wrong readings the suite catches

    relctl's own tests run this suite against clients that each misread one thing,
    and every one fails: builds ignored; a pin matching every build; the lowest of two
    active windows shown; only the user's first language considered; no regional
    fallback (es-MX to es-419) or default variant (pt-PT to pt-BR); en instead of the
    project's default locale; {deadline} left unfilled; a deadline in UTC,
    or in the offset in force now; a deadline treated as already passed, or never
    reached; the release delay ignored; a rule of `none` read as a prompt; `frequency`
    or `remindAfterHours` dropped; the device's OS ignored; a floor above every
    release ignored; only the platform's own windows setting the poll interval; a
    window with no end read as ended; a window for one platform obeyed by all; the
    answers at `publishedAt` trusted at every instant.

    ## Signed documents

    `signed/` holds the steps of a client that pins keys (index.json's `signed`).
    `signed/keys.json` names the project and the two public keys the client pins
    (`trustedKeys`, base64 of 32 bytes: an active key and its backup). A signed
    control.json is `{"payload": base64 of the document's bytes, "signatures":
    [{"keyId", "sig"}]}`: `keyId` is the first 8 bytes of SHA-256 of the public key,
    in hex; `sig` is the base64 Ed25519 signature (RFC 8032) of the payload's bytes.
    The document inside carries `"signed": {"project", "revision", "issuedAt",
    "expiresAt"}`. A client checks, in this order, and obeys nothing that fails:

    1. the envelope: exactly `payload` and `signatures` (1 to 8 of them), canonical
       base64, each `{"keyId", "sig"}`;
    2. a signature whose `keyId` is a pinned key's verifies over the payload's
       bytes (S below the group order), and none naming a pinned key fails;
    3. the payload parses, and `signed.project` is the client's project;
    4. for each pinned key that signed it, `signed.revision` is not below the
       highest revision that key signed among the documents accepted, nor
       equal to it unless this is the document in force (revisions are kept
       per key: a leaked key's revision far ahead must not lock out the
       backup key's documents);
    5. `signed.expiresAt` is at most 31 days after `signed.issuedAt`, which is
       at most a day ahead of the instant;
    6. the instant is before `signed.expiresAt`.

    Run the steps in order on one client, each at its `at`: read `document` (if
    any), check it was accepted or refused as `accepted` says (a refused one leaves
    the last accepted document in force), then ask what the `install` shows and
    compare with `expected`, as for the other suites. Once the last accepted
    document has expired the client obeys neither its window nor a required update
    (the kill switch fails open): it shows `none`, and asks again as usual (every 15
    minutes). A step whose `document` names an earlier step's file replays it.

    ## Versions

    `suiteVersion` moves when a case's meaning or the answer's shape changes (2: the
    answer's `frequency`); new suites and new cases do not move it.
    `controlSchemaVersion` is control.json's `schemaVersion`: a client refuses a state
    with another.
    """
}
