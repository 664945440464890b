import RelctlCore
import SQLite

/// Typed reads. Every statement binds its values; every row is decoded into
/// core types or reported as a bad row.
extension Store {
    public func meta(_ key: String) throws -> String? {
        try db.scalar("SELECT value FROM meta WHERE key = ?", [.text(key)]).stringValue
    }

    public var defaultProject: String? { get throws { try meta("default_project") } }

    static let projectColumns = "id, slug, name, default_locale, locales, rules, release_delay_days, remind_hours, outdated, time_zone, whatsnew_limit, formats, trusted_keys"

    func project(_ r: Row) throws -> ProjectRecord {
        let slug = r.text(1)
        let what = "project '\(slug)'"
        guard (try? Names.slug(slug)) == slug else { throw badRow("project #\(r.int(0)!)", "its slug '\(slug)' is not a valid slug") }
        let rules: Rules
        do { rules = try Rules(stored: r.text(5)) } catch let e as InputError {
            throw badRow(what, "its rules: \(e.message)")
        }
        do { _ = try Names.appName(r.text(2)) } catch let e as InputError {
            throw badRow(what, "its name: \(e.message)")
        }
        let defaultLocale = try locale(r.text(3), what, "its default locale")
        // Locales name published files and key the control document: each once, in its normal spelling.
        var locales: [String] = []
        if !r.text(4).isEmpty {
            for part in r.text(4).split(separator: ",", omittingEmptySubsequences: false) {
                let tag = try locale(String(part), what, "its locale list")
                guard !locales.contains(tag) else { throw badRow(what, "its locale list names '\(tag)' twice") }
                locales.append(tag)
            }
        }
        let delay = try int(r.int(6), in: 0...ProjectRecord.maxReleaseDelayDays, what, "release_delay_days")
        let remind = try int(r.int(7), in: 0...ProjectRecord.maxRemindHours, what, "remind_hours")
        guard let outdated = ProjectRecord.Outdated(rawValue: r.text(8)) else {
            throw badRow(what, "its outdated policy '\(r.text(8))' is not one of \(ProjectRecord.outdatedPolicies.joined(separator: ", "))")
        }
        var record = ProjectRecord(id: r.int(0)!, slug: slug, name: r.text(2), defaultLocale: defaultLocale,
                                   locales: locales, rules: rules,
                                   releaseDelayDays: delay, remindHours: remind, outdated: outdated)
        do { record.timeZone = try Names.timeZoneName(r.text(9)) } catch let e as InputError {
            throw badRow(what, "its time zone: \(e.message)")
        }
        record.whatsNewLimit = try int(r.int(10), in: 0...ProjectRecord.maxWhatsNewLimit, what, "whatsnew_limit")
        guard let formats = ServedFormats(stored: r.text(11)) else {
            throw badRow(what, "its formats '\(r.text(11))' are not \(ServedFormats.accepted)")
        }
        record.formats = formats
        for part in r.text(12).split(separator: ",", omittingEmptySubsequences: false) where !r.text(12).isEmpty {
            guard Ed25519.publicKey(String(part)) != nil else {
                throw badRow(what, "its trusted key '\(part)' is not base64 of a 32-byte Ed25519 public key")
            }
            guard !record.trustedKeys.contains(String(part)) else { throw badRow(what, "it trusts key '\(part)' twice") }
            record.trustedKeys.append(String(part))
        }
        return record
    }

    /// An integer column that feeds date arithmetic, inside the range relctl writes.
    func int(_ value: Int64?, in range: ClosedRange<Int64>, _ what: String, _ column: String) throws -> Int64 {
        guard let value, range.contains(value) else {
            throw badRow(what, "its \(column) \(value.map(String.init) ?? "NULL") is outside \(range.lowerBound)...\(range.upperBound)")
        }
        return value
    }

    /// An instant column: years 1 to 9999, as everything relctl writes.
    // `what` is spelled only for an error: a publish reads millions of rows.
    func instant(_ value: Int64?, _ what: @autoclosure () -> String, _ column: String) throws -> Int64? {
        guard let value else { return nil }
        guard Time.isInRange(value) else {
            throw badRow(what(), "its \(column) \(value) is not a time between the years 0001 and 9999")
        }
        return value
    }

    /// A locale column, which becomes part of a published path: a valid tag in its normal spelling.
    func locale(_ text: String, _ what: @autoclosure () -> String, _ column: String) throws -> String {
        // A fleet repeats a few dozen tags in every project's rows and notes: each is checked once.
        if validLocales.contains(text) { return text }
        guard (try? LocaleTag.normalize(text)) == text else {
            throw badRow(what(), "\(column) '\(text)' is not a locale tag in its normal spelling (like en, pt-BR)")
        }
        validLocales.insert(text)
        return text
    }

    public func projects() throws -> [ProjectRecord] {
        try db.query("SELECT \(Store.projectColumns) FROM project ORDER BY slug").map(project)
    }

    func project(id: Int64) throws -> ProjectRecord? {
        try db.query("SELECT \(Store.projectColumns) FROM project WHERE id = ?", [.int(id)]).first.map(project)
    }

    public func project(slug: String) throws -> ProjectRecord? {
        try db.query("SELECT \(Store.projectColumns) FROM project WHERE slug = ?", [.text(slug)]).first.map(project)
    }

    public func projectSlugs() throws -> [String] {
        try db.query("SELECT slug FROM project ORDER BY slug").map { $0.text(0) }
    }

    static let platformColumns = "id, project_id, name, bundle_id, app_store_id, store_url, min_os, force_version, force_build, recommend_version, recommend_build, force_deadline, storefronts, rollout_version, rollout_build, rollout_salt, rollout_steps, rollout_every, rollout_start, rollout_halted_at, rollout_unstaged, rollout_since"

    func platform(_ r: Row) throws -> PlatformRecord {
        let name = r.text(2)
        func floor(_ v: Int, _ b: Int, _ kind: String) throws -> Floor? {
            guard let text = r.string(v) else { return nil }
            do { return Floor(version: try Version(text), build: r.int(b)) } catch let e as InputError {
                throw badRow("platform \(name) of project #\(r.int(1)!)", "its \(kind) floor: \(e.message)")
            }
        }
        guard (try? Names.platform(name)) == name else {
            throw badRow("platform #\(r.int(0)!) of project #\(r.int(1)!)", "its name '\(name)' is not a known platform")
        }
        // What reaches published files as it is read: the same checks as on input.
        func checked(_ column: Int, _ label: String, _ check: (String) throws -> String) throws -> String? {
            guard let value = r.string(column) else { return nil }
            do { return try check(value) } catch let e as InputError {
                throw badRow("platform \(name) of project #\(r.int(1)!)", "its \(label): \(e.message)")
            }
        }
        func build(_ column: Int, _ label: String) throws -> Int64? {
            guard let b = r.int(column) else { return nil }
            do { return try parseBuild(String(b)) } catch let e as InputError {
                throw badRow("platform \(name) of project #\(r.int(1)!)", "its \(label): \(e.message)")
            }
        }
        _ = try build(8, "force build"); _ = try build(10, "recommend build")
        var force = try floor(7, 8, "force")
        let deadline = try instant(r.int(11), "platform \(name) of project #\(r.int(1)!)", "force deadline")
        if deadline != nil && force == nil {
            throw badRow("platform \(name) of project #\(r.int(1)!)", "it has a force deadline but no force floor")
        }
        force?.deadline = deadline
        let storefronts: [String]
        do { storefronts = try Names.storefronts(r.text(12)) } catch let e as InputError {
            throw badRow("platform \(name) of project #\(r.int(1)!)", "its storefronts: \(e.message)")
        }
        return PlatformRecord(id: r.int(0)!, projectID: r.int(1)!, name: name, bundleID: try checked(3, "bundle id", Names.bundleID),
                              appStoreID: try checked(4, "App Store id", Names.appStoreID), storeURL: try checked(5, "store URL", Names.url),
                              minOS: try checked(6, "minimum OS", Names.osVersion),
                              force: force, recommend: try floor(9, 10, "recommend"), storefronts: storefronts,
                              rollout: try rollout(r, name: "platform \(name) of project #\(r.int(1)!)"))
    }

    /// The staged recommend of a platform row (columns 13 to 20): all of
    /// them or none, each in range before the schedule's arithmetic.
    func rollout(_ r: Row, name: String) throws -> Rollout? {
        let columns = 13...21
        let isNull = { (c: Int) -> Bool in if case .null = r[c] { return true } else { return false } }
        guard let text = r.string(13) else {
            if let set = columns.first(where: { !isNull($0) }) {
                throw badRow(name, "it has \(Store.rolloutColumns[set - 13]) but no rollout_version: clear the rollout's columns or set them all")
            }
            return nil
        }
        for c in columns.dropFirst(2) where c != 19 && c != 21 && isNull(c) {
            throw badRow(name, "its staged recommend \(text) has no \(Store.rolloutColumns[c - 13])")
        }
        do {
            return try Rollout.stored(version: text, build: r.int(14), salt: r.text(15), steps: r.text(16), every: r.int(17)!, start: r.int(18)!,
                                      haltedAt: r.int(19), unstaged: r.text(20), since: r.int(21))
        } catch {
            throw badRow(name, "its staged recommend: \(error.message)")
        }
    }

    static let rolloutColumns = ["rollout_version", "rollout_build", "rollout_salt", "rollout_steps", "rollout_every", "rollout_start", "rollout_halted_at", "rollout_unstaged", "rollout_since"]

    /// One platform by id; nil when there is none (removed).
    func platform(id: Int64) throws -> PlatformRecord? {
        try db.query("SELECT \(Store.platformColumns) FROM platform WHERE id = ?", [.int(id)]).first.map(platform)
    }

    public func platforms(project: Int64) throws -> [PlatformRecord] {
        try db.query("SELECT \(Store.platformColumns) FROM platform WHERE project_id = ? ORDER BY name", [.int(project)]).map(platform)
    }

    public func allPlatforms() throws -> [PlatformRecord] {
        try db.query("SELECT \(Store.platformColumns) FROM platform ORDER BY project_id, name").map(platform)
    }

    func versionRecord(_ r: Row, notesRead: Bool = true) throws -> VersionRecord {
        let version: Version
        func what() -> String { "version #\(r.int(0)!) of platform #\(r.int(1)!)" }
        do { version = try Version(r.text(2)) } catch let e as InputError {
            throw badRow(what(), e.message)
        }
        // parseBuild's range, checked without its text unless it fails.
        if let b = r.int(3), !(0...2_100_000_000).contains(b) {
            do { _ = try parseBuild(String(b)) } catch let e as InputError { throw badRow(what(), "its build: \(e.message)") }
        }
        if let minOS = r.string(5) {
            do { _ = try Names.osVersion(minOS) } catch let e as InputError { throw badRow(what(), "its minimum OS: \(e.message)") }
        }
        var pin: VersionRecord.Pin? = nil
        if let policy = r.string(6) {
            guard let p = VersionRecord.Pin(rawValue: policy) else {
                throw badRow(what(), "its policy '\(policy)' is not one of \(VersionRecord.policies.joined(separator: ", "))")
            }
            pin = p
        }
        return VersionRecord(id: r.int(0)!, platformID: r.int(1)!, version: version, build: r.int(3),
                             releasedAt: try instant(r.int(4), what(), "released_at"), minOS: r.string(5), policy: pin, notes: [:], notesRead: notesRead)
    }

    public func notes(version: Int64) throws -> [String: String] {
        var notes: [String: String] = [:]
        for r in try db.query("SELECT locale, body FROM note WHERE version_id = ?", [.int(version)]) {
            notes[try locale(r.text(0), "a note of version #\(version)", "its locale")] = try noteBody(r.text(1), version: version)
        }
        return notes
    }

    /// Every version of a platform, oldest first by the version ordering,
    /// with its notes unless they are not wanted (then they are marked not read).
    public func versions(platform: Int64, withNotes: Bool = true) throws -> [VersionRecord] {
        var list = try db.query(Store.platformVersions, [.int(platform)]).map { try versionRecord($0, notesRead: withNotes) }
        if withNotes { try readNotes(platform: platform, into: &list) }
        return Store.sorted(list)
    }

    /// Every note of a platform's versions, in one read, into `list` (that platform's versions).
    func readNotes(platform: Int64, into list: inout [VersionRecord]) throws {
        var index: [Int64: Int] = [:]
        for (i, v) in list.enumerated() { index[v.id] = i }
        // Gathered apart, in whatever order the rows come, then stored once per version.
        var notes = [[String: String]](repeating: [:], count: list.count)
        // Versions mostly have notes in as many locales as each other: each version's are made at the largest size yet, not grown.
        var largest = 0
        try db.each("SELECT n.version_id, n.locale, n.body FROM note n JOIN version v ON v.id = n.version_id WHERE v.platform_id = ?", [.int(platform)]) { c in
            guard let id = try c.int(0), let locale = try c.text(1), let body = try c.text(2), let i = index[id] else { return }
            if notes[i].isEmpty { notes[i].reserveCapacity(largest) }
            notes[i][try self.locale(locale, "a note of version #\(id)", "its locale")] = try self.noteBody(body, version: id)
            largest = max(largest, notes[i].count)
        }
        for i in list.indices { list[i].notes = notes[i] }
    }

    /// A note's text as `notes set` takes it: apps show it as written.
    func noteBody(_ text: String, version: Int64) throws -> String {
        if let problem = UserText.storedNotesProblem(text) { throw badRow("a note of version #\(version)", "its text: \(problem)") }
        return text
    }

    /// In VersionRecord.isOlder's order, whatever order they come in (the
    /// lockout check's versions before a change are rebuilt from a
    /// dictionary), by id where two rows have one text (none do: it is unique).
    /// Each version's key is made once and the positions sorted, not the
    /// records: sorting the records by their releases was a sixth of a
    /// `version add` (the lockout check reads the platform's versions).
    static func sorted(_ list: [VersionRecord]) -> [VersionRecord] {
        let keys = list.map(\.orderKey)
        return list.indices.sorted { i, j in
            if keys[i] != keys[j] { return keys[i] < keys[j] }
            let (a, b) = (list[i], list[j])
            return a.version.text != b.version.text ? a.version.text < b.version.text : a.id < b.id
        }.map { list[$0] }
    }

    static let versionColumns = "id, platform_id, version, build, released_at, min_os, policy"
    /// A platform's versions: read from index version_rows alone (schema 18), not a page per row.
    static let platformVersions = "SELECT \(versionColumns) FROM version WHERE platform_id = ?"

    /// The platform's version with build `build`, if any (the build index).
    func version(build: Int64, platform: Int64) throws -> VersionRecord? {
        try db.query("SELECT \(Store.versionColumns) FROM version WHERE platform_id = ? AND build = ?", [.int(platform), .int(build)]).first.map { try versionRecord($0, notesRead: false) }
    }

    /// The version spelled exactly `text` on a platform, with its notes; the
    /// error says which spellings the platform does have.
    public func version(_ text: String, on platform: PlatformRecord) throws -> VersionRecord {
        let wanted = try Version(text)
        let all = try versions(platform: platform.id, withNotes: false)
        if var exact = all.first(where: { $0.version.text == text }) {
            exact.notes = try notes(version: exact.id)
            return exact
        }
        let equal = all.filter { $0.version == wanted }
        let fix: Fix = equal.isEmpty
            ? .run(["version", "list", "--platform", platform.name], "see")
            : .advice("the platform has \(equal.map(\.version.text).joined(separator: ", ")); versions are matched exactly as the app reports them")
        throw StoreError("no version \(text) on \(platform.name)\(Suggest.didYouMean(text, all.map(\.version.text)))", fix: fix)
    }

    /// How many versions each platform has, by platform id.
    public func versionCounts() throws -> [Int64: Int] {
        var counts: [Int64: Int] = [:]
        for r in try db.query("SELECT platform_id, count(*) FROM version GROUP BY platform_id") {
            counts[r.int(0)!] = Int(r.int(1)!)
        }
        return counts
    }

    public func maintenanceWindows(project: Int64) throws -> [MaintenanceWindow] {
        var windows = try db.query("""
            SELECT m.id, m.project_id, m.platform_id, p.name, m.starts_at, m.ends_at, m.cancelled_at
            FROM maintenance m LEFT JOIN platform p ON p.id = m.platform_id
            WHERE m.project_id = ? ORDER BY m.starts_at, m.id
            """, [.int(project)]).map {
            let id = $0.int(0)!
            let what = "maintenance window #\(id)"
            guard (1...MaintenanceWindow.maxID).contains(id) else { throw badRow(what, "its id is outside 1...\(MaintenanceWindow.maxID)") }
            // A platform deleted by hand (sqlite3 has foreign keys off): the window must not become project-wide.
            if let platform = $0.int(2), $0.string(3) == nil { throw badRow(what, "its platform #\(platform) does not exist") }
            guard let start = try instant($0.int(4), what, "starts_at") else { throw badRow(what, "it has no starts_at") }
            let end = try instant($0.int(5), what, "ends_at")
            // A window stopped the instant it began ends at its start (maintenance stop); never before it.
            if let end, end < start { throw badRow(what, "it ends at \(Time.format(end)), before its start at \(Time.format(start))") }
            return MaintenanceWindow(id: id, projectID: $0.int(1)!, platformID: $0.int(2), platformName: $0.string(3),
                                     startsAt: start, endsAt: end, cancelledAt: try instant($0.int(6), what, "cancelled_at"), copy: [:])
        }
        var index: [Int64: Int] = [:]
        for (i, w) in windows.enumerated() { index[w.id] = i }
        for r in try db.query("SELECT c.window_id, c.locale, c.title, c.message FROM maintenance_copy c JOIN maintenance m ON m.id = c.window_id WHERE m.project_id = ?", [.int(project)]) {
            if let i = index[r.int(0)!] {
                let what = "the text of maintenance window #\(r.int(0)!)"
                // Empty text is no text (an earlier `maintenance start --title ""` stored it): the built-in text shows.
                func text(_ column: String, _ value: String?) throws -> String? {
                    guard let value, !value.trimmingSpaces().isEmpty else { return nil }
                    if let problem = UserText.storedMessageProblem(value, kind: "maintenance") { throw badRow(what, "its \(column): \(problem)") }
                    return value
                }
                windows[i].copy[try locale(r.text(1), what, "its locale")] = (try text("title", r.string(2)), try text("message", r.string(3)))
            }
        }
        return windows
    }

    /// Project message overrides: kind -> locale -> field -> value.
    public func messageOverrides(project: Int64) throws -> [String: [String: [String: String]]] {
        var result: [String: [String: [String: String]]] = [:]
        for r in try db.query("SELECT kind, locale, field, value FROM message WHERE project_id = ?", [.int(project)]) {
            let what = "a \(r.text(0)) message of project #\(project)"
            guard Catalog.keys.contains(r.text(0) + "." + r.text(2)) else {
                throw badRow(what, "'\(r.text(0)).\(r.text(2))' is not a message relctl knows")
            }
            let locale = try locale(r.text(1), what, "its locale")
            // An empty override (an import of a file with an empty button) is no override: the built-in text shows.
            if r.text(3).trimmingSpaces().isEmpty { continue }
            if let problem = UserText.storedMessageProblem(r.text(3), kind: r.text(0)) { throw badRow(what, "its \(locale) \(r.text(2)): \(problem)") }
            result[r.text(0), default: [:]][locale, default: [:]][r.text(2)] = r.text(3)
        }
        return result
    }

    /// Everything about one project: the input of the evaluator and of every
    /// publisher. Call inside `read {}` for one consistent state.
    /// `notesShownAt`: read only the notes the published files show at that
    /// instant and at each coming one the proof sweeps
    /// (ProjectSnapshot.versionsWithNotesRead); the others are marked not
    /// read, so a format that asked for them would stop, not go without.
    public func snapshot(_ project: ProjectRecord, notesShownAt t: Int64? = nil) throws -> ProjectSnapshot {
        var snapshot = try snapshot(project, withNotes: t == nil)
        guard let t else { return snapshot }
        let shown = snapshot.versionsWithNotesRead(at: t)
        for p in snapshot.platforms {
            guard var list = snapshot.versions[p.id] else { continue }
            let wanted = list.indices.filter { shown.contains(list[$0].id) }
            // Most of them (what's new listing every version): one read of them all.
            if wanted.count * 2 > list.count {
                try readNotes(platform: p.id, into: &list)
            } else {
                for i in wanted { list[i].notes = try notes(version: list[i].id) }
            }
            snapshot.versions[p.id] = list
        }
        if project.locales.isEmpty {
            // What publishedLocales takes from every version's notes, read without their text.
            var locales: Set<String> = []
            for r in try db.query("SELECT DISTINCT n.locale FROM note n JOIN version v ON v.id = n.version_id JOIN platform p ON p.id = v.platform_id WHERE p.project_id = ?",
                                  [.int(project.id)]) {
                locales.insert(try locale(r.text(0), "a note of project \(project.slug)", "its locale"))
            }
            snapshot.noteLocales = locales
        }
        return snapshot
    }

    /// `withNotes` false: the project as the evaluator reads it, without
    /// release notes (no answer depends on them, and a fleet has hundreds of
    /// thousands), as deploy --push digests what users see (Impact.seen).
    public func snapshot(_ project: ProjectRecord, withNotes: Bool) throws -> ProjectSnapshot {
        let platforms = try platforms(project: project.id)
        var versions: [Int64: [VersionRecord]] = [:]
        for p in platforms { versions[p.id] = try self.versions(platform: p.id, withNotes: withNotes) }
        var snapshot = ProjectSnapshot(project: project, platforms: platforms, versions: versions,
                                       windows: try maintenanceWindows(project: project.id),
                                       messages: MessageResolver(overrides: try messageOverrides(project: project.id),
                                                                 defaultLocale: project.defaultLocale))
        snapshot.store = try storeEvidence(project: project.id)
        return snapshot
    }

    /// The newest audit entries, newest first.
    public func auditEntries(limit: Int64) throws -> [AuditEntry] {
        try auditEntries(limit: limit, filter: AuditFilter())
    }

    /// The newest audit entries that pass the filter, newest first, each
    /// with the rows it changed. `action` is a kind or its first words;
    /// `platform` one of the platforms the change names, or for a row from
    /// before they were recorded (schema 10), a word of its action ("force ios,android 2.0").
    public func auditEntries(limit: Int64, filter: AuditFilter) throws -> [AuditEntry] {
        let rows = try db.query("""
            SELECT id, at, user, project, action, kind, platforms FROM audit
            WHERE (?1 IS NULL OR project = ?1) AND (?2 IS NULL OR at >= ?2)
              AND (?3 IS NULL OR kind = ?3 OR substr(kind, 1, length(?3) + 1) = ?3 || ' ')
              AND (?5 IS NULL OR platforms IS NULL OR NOT json_valid(platforms) OR EXISTS (SELECT 1 FROM json_each(platforms) WHERE value = ?5))
            ORDER BY id DESC LIMIT ?4
            """, [SQLValue(filter.project), SQLValue(filter.since), SQLValue(filter.action), .int(filter.platform == nil ? limit : -1), SQLValue(filter.platform)])
        var out: [AuditEntry] = []
        for r in rows {
            let id = r.int(0)!
            let e = AuditEntry(id: id, at: try instant(r.int(1), "audit entry #\(id)", "at")!, user: r.text(2), project: r.string(3), action: r.text(4),
                               kind: r.text(5), platforms: try platforms(r.string(6), of: id))
            if let platform = filter.platform, e.platforms == nil {
                let words = e.action.split(whereSeparator: { $0 == " " || $0 == "," }).map(String.init)
                guard words.contains(platform) else { continue }
            }
            out.append(e)
            if out.count >= limit { break }
        }
        for i in out.indices {
            out[i].changes = try rowChanges(of: out[i].id)
            out[i].reverts = try db.query("SELECT reverted FROM audit_revert WHERE audit_id = ? ORDER BY reverted", [.int(out[i].id)]).compactMap { $0.int(0) }
        }
        return out
    }

    /// An audit row's platforms: a JSON array of names, or NULL before schema 10.
    func platforms(_ text: String?, of id: Int64) throws -> [String]? {
        guard let text else { return nil }
        guard case .array(let items)? = try? JSONReader.parse(Array(text.utf8)) else {
            throw badRow("audit entry #\(id)", "its platforms are not a JSON array of names")
        }
        return try items.map { item in
            guard case .string(let name) = item else { throw badRow("audit entry #\(id)", "its platforms are not a JSON array of names") }
            return name
        }
    }

    /// The rows audit entry `id` changed, in order. The images of a large
    /// change (an apply into an empty database: 850,000 rows, read back by
    /// `log` or `undo`) are parsed on every core, a fifth of such an apply on one.
    /// `tables`: only the rows of those tables. `last`: only those numbered up to it.
    public func rowChanges(of id: Int64, tables: [String]? = nil, upTo last: Int64? = nil) throws -> [RowChange] {
        let only = tables.map { " AND tbl IN (" + $0.map { _ in "?" }.joined(separator: ", ") + ")" } ?? ""
        let rows = try db.query("SELECT seq, tbl, row_key, before, after FROM audit_change WHERE audit_id = ?\(only)\(last == nil ? "" : " AND seq <= ?") ORDER BY seq",
                                [.int(id)] + (tables ?? []).map { .text($0) } + (last.map { [.int($0)] } ?? []))
        func change(_ r: Row) throws -> RowChange {
            let what = "audit_change row \(r.int(0) ?? 0) of audit entry #\(id)"
            func object(_ i: Int) throws -> [String: JSON]? {
                guard let text = r.string(i) else { return nil }
                guard case .object(let o)? = try? JSONReader.parse(Array(text.utf8)) else { throw badRow(what, "its \(i == 3 ? "before" : "after") is not a JSON object") }
                return o
            }
            guard case .array(let key)? = try? JSONReader.parse(Array(r.text(2).utf8)) else { throw badRow(what, "its row_key is not a JSON array") }
            return RowChange(table: r.text(1), key: key, before: try object(3), after: try object(4))
        }
        guard rows.count >= 4096 else { return try rows.map(change) }
        let chunks = 64
        let parsed = Parallel.map(chunks, Parallel.everyCore) { c in
            Result { try stride(from: c * rows.count / chunks, to: (c + 1) * rows.count / chunks, by: 1).map { try change(rows[$0]) } }
        }
        // The first bad row in order is the one named, as when parsed in order.
        return try parsed.flatMap { try $0.get() }
    }
}

extension Store {
    /// Names of platforms and versions by id, for wording row changes
    /// (`relctl log`, previews): those in the database now, or, with `asOf`,
    /// as the log has them.
    /// `asOf`: an audit entry, whose rows are named as they were when it was made: as the
    /// log left them by then, or, when it has no change of them by then, as the first change
    /// after found them. SQLite gives a removed row's id to the next row made, so the database
    /// may hold another version under an old entry's id. The database answers only for rows
    /// the log never saw; a row the log says was not there is left unnamed.
    public func rowNames(platforms: Set<Int64>, versions: Set<Int64>, asOf entry: Int64? = nil) throws
        -> (platforms: [Int64: String], versions: [Int64: (platform: Int64, text: String)]) {
        func then(_ table: String, _ id: Int64) throws -> [String: JSON]?? {
            guard let entry else { return nil }
            return try lastLogged(table, id, upTo: entry) ?? firstLogged(table, id, after: entry)
        }
        var p: [Int64: String] = [:], v: [Int64: (platform: Int64, text: String)] = [:]
        for id in versions {
            if let logged = try then("version", id) {
                if case .int(let platform)? = logged?["platform_id"], case .string(let text)? = logged?["version"] { v[id] = (platform, text) }
            } else if let r = try db.query("SELECT platform_id, version FROM version WHERE id = ?", [.int(id)]).first, let platform = r.int(0) {
                v[id] = (platform, r.text(1))
            }
        }
        for id in platforms.union(v.values.map(\.platform)) {
            if let logged = try then("platform", id) {
                if case .string(let name)? = logged?["name"] { p[id] = name }
            } else if let r = try db.query("SELECT name FROM platform WHERE id = ?", [.int(id)]).first { p[id] = r.text(0) }
        }
        return (p, v)
    }

    /// Row `id` of `table` as the last logged change before audit entry `bound` left it:
    /// nil when the log has no change of it before then, .some(nil) when that change removed it.
    func lastLogged(_ table: String, _ id: Int64, before bound: Int64) throws -> [String: JSON]?? {
        try loggedImage(table, id, image: "after", "<", bound)
    }

    /// The same, up to and with entry `entry` (an id read from the database: never one more).
    func lastLogged(_ table: String, _ id: Int64, upTo entry: Int64) throws -> [String: JSON]?? {
        try loggedImage(table, id, image: "after", "<=", entry)
    }

    /// Row `id` of `table` as the first logged change after audit entry `entry` found it:
    /// nil when the log has no change of it after then, .some(nil) when that change made it.
    func firstLogged(_ table: String, _ id: Int64, after entry: Int64) throws -> [String: JSON]?? {
        try loggedImage(table, id, image: "before", ">", entry)
    }

    /// The image of the row's change nearest `entry` on the side `comparison` gives (`<`, `<=`: the last; `>`: the first).
    private func loggedImage(_ table: String, _ id: Int64, image: String, _ comparison: String, _ entry: Int64) throws -> [String: JSON]?? {
        let m = RowID(table: table, key: [.int(id)]).match, order = comparison == ">" ? "ASC" : "DESC"
        guard let row = try db.query("SELECT audit_id, seq, \(image) FROM audit_change WHERE \(m.sql) AND audit_id \(comparison) ? ORDER BY audit_id \(order), seq \(order) LIMIT 1",
                                     m.args + [.int(entry)]).first
        else { return nil }
        guard let text = row.string(2) else { return .some(nil) }
        guard case .object(let o)? = try? JSONReader.parse(Array(text.utf8)) else {
            throw badRow("audit_change row \(row.int(1) ?? 0) of audit entry #\(row.int(0) ?? 0)", "its \(image) is not a JSON object")
        }
        return o
    }
}
