import RelctlCore
import SQLite

/// The store guard on every change (StoreGuard): a floor raised or a pin
/// set, by whatever command (force, recommend, policy set, apply, undo,
/// revert), is refused while the evidence does not show its target served
/// in each storefront of its platform, unless the session allows the risk
/// (--allow-store-risk), and then the change's log line says so. It reads
/// the change's own rows, inside its transaction, so no command can miss it.
extension Session {
    /// What the guard said of the session's changes for the command to pass on:
    /// the floors it could not check (a platform without storefronts) and the risks allowed.
    public struct StoreNote: Sendable, Equatable {
        public var platform: String
        public var text: String
        /// A risk taken (--allow-store-risk), not a floor left unchecked.
        public var risk: Bool
        /// When time alone makes the risk's target served (StoreGuard.safeAt).
        public var safeAt: Int64? = nil
    }

    /// Checks the targets `rows` raise; refuses, or notes and logs the risk under `audit`.
    func guardStores(_ rows: [RowChange], audit id: Int64, now: Int64) throws {
        let touched = Self.touched(rows)
        guard !touched.isEmpty else { return }
        var risks: [String] = [], notes: [StoreNote] = []
        for (platformID, change) in touched.sorted(by: { $0.key < $1.key }) {
            guard var platform = try store.platform(id: platformID) else { continue }
            // Storefronts the same change takes away still count: dropping them cannot wave a floor through.
            platform.storefronts = Array(Set(platform.storefronts).union(change.storefrontsBefore)).sorted()
            if platform.storefronts.isEmpty {
                // Not checked, and said when a floor or pin of its own was raised or set (read from the rows:
                // a version added to a platform that sells nowhere named costs no read of its versions).
                let raised = Self.raised(change)
                if !raised.isEmpty {
                    notes.append(StoreNote(platform: platform.name, text: "\(platform.name): \(raised.joined(separator: ", ")) is unchecked against the stores: the platform names no storefronts", risk: false))
                }
                continue
            }
            guard let project = try store.project(id: platform.projectID) else { continue }
            let versions = try store.versions(platform: platform.id, withNotes: false)
            let after = StoreGuard.targets(platform, versions, at: now)
            // Made by this change (apply of a new project, an undone removal): its evidence went with it,
            // or never was, so nothing can be checked yet; said, never silent.
            if change.created {
                if !after.isEmpty {
                    notes.append(StoreNote(platform: platform.name, text: "\(platform.name): \(after.map(\.what).joined(separator: ", ")) is unchecked against the stores: the platform is new to this database, which holds no store evidence for it yet", risk: false))
                }
                continue
            }
            // The targets as they were: a floor or pin set, or one whose target moved because a version
            // was removed, released later or given another build, needs more of the store than before.
            var platformBefore = platform
            if let image = change.platformBefore { platformBefore = Self.floors(image, on: platformBefore) }
            let versionsBefore = Self.versions(versions, undoing: change.versions)
            let before = Dictionary(StoreGuard.targets(platformBefore, versionsBefore, at: now).map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
            let raised = after.filter { t in
                // A pin made weaker (force to recommend) asks nothing new of the stores.
                let previous = before[t.key] ?? (t.key.hasPrefix("recommend pin ") ? before["force" + t.key.dropFirst("recommend".count)] : nil)
                return previous.map { t.rises(from: $0, android: platform.isAndroid, versionsBefore: versionsBefore, versionsNow: versions) } ?? true
            }
            // A pin set (or left) with nothing released above it sends users to an update no store serves.
            let strandedBefore = StoreGuard.pinsWithNothingAbove(versionsBefore, at: now)
            let stranded = StoreGuard.pinsWithNothingAbove(versions, at: now).filter { v in
                !strandedBefore.contains { $0.id == v.id && $0.policy == v.policy }
            }
            guard !raised.isEmpty || !stranded.isEmpty else { continue }
            let evidence = try store.storeEvidence(project: project.id)[platform.id]
            var problems: [(StoreGuard.Target, [StoreGuard.Finding])] = raised.map { target in
                (target, StoreGuard.unserved(target, on: platform, versions: versions, evidence: evidence, delay: project.releaseDelayDays * 86400, now: now))
            }
            problems += stranded.map { v in
                (StoreGuard.Target(version: v.version, build: v.build, what: "the \(v.policy!.rawValue) pin of \(v.version.text)", key: "\(v.policy!.rawValue) pin \(v.id)"),
                 [StoreGuard.Finding(storefront: nil, reason: "no version above \(v.version.text) is released, so no store serves what it asks users to install", safeAt: nil)])
            }
            for (target, findings) in problems where !findings.isEmpty {
                guard allowStoreRisk else { throw StoreGuard.refusal(target, on: platform, findings) }
                notes.append(StoreNote(platform: platform.name, text: StoreGuard.sentence(target, on: platform, findings), risk: true,
                                       safeAt: StoreGuard.safeAt(findings)))
                risks.append("\(platform.name) " + findings.prefix(4).map { $0.storefront ?? "all" }.joined(separator: ","))
            }
        }
        storeNotes += notes
        if !risks.isEmpty {
            try db.run("UPDATE audit SET action = action || ? WHERE id = ?", [.text(" (store risk allowed: \(risks.joined(separator: "; ")))"), .int(id)])
        }
    }

    /// What a change did to one platform: its row before (nil when unchanged or made), and its versions' rows.
    struct Touched {
        var created = false
        var platformBefore: [String: JSON]?
        var platformAfter: [String: JSON]?
        var storefrontsBefore: [String] = []
        var versions: [(before: [String: JSON]?, after: [String: JSON]?)] = []
    }

    /// The platforms whose rows, or whose versions' rows, the change touched (not those it removed).
    static func touched(_ rows: [RowChange]) -> [Int64: Touched] {
        var found: [Int64: Touched] = [:]
        for row in rows where row.table == "platform" {
            guard let after = row.after, case .int(let id)? = after["id"] else { continue }
            // Several changes of one session: the first row's image is the platform as it was.
            if found[id] == nil {
                var t = Touched()
                t.created = row.before == nil
                t.platformBefore = row.before
                if case .string(let list)? = row.before?["storefronts"] { t.storefrontsBefore = list.split(separator: ",").map(String.init) }
                found[id] = t
            }
            found[id]?.platformAfter = after
        }
        for row in rows where row.table == "version" {
            guard case .int(let platform)? = (row.after ?? row.before)?["platform_id"] else { continue }
            found[platform, default: Touched()].versions.append((row.before, row.after))
        }
        return found
    }

    /// The floors and pins a change on a platform that names no storefronts raised or set, in words, from its rows alone.
    static func raised(_ change: Touched) -> [String] {
        var words: [String] = []
        if let after = change.platformAfter {
            for kind in ["force", "recommend", "rollout"] where rises(kind, change.platformBefore ?? [:], after) {
                if case .string(let v)? = after["\(kind)_version"] { words.append(kind == "rollout" ? "the staged recommend \(v)" : "the \(kind) floor \(v)") }
            }
        }
        for (before, after) in change.versions {
            guard let after, case .string(let pin)? = after["policy"], pin == "force" || pin == "recommend", case .string(let v)? = after["version"] else { continue }
            var was = "none"
            if case .string(let p)? = before?["policy"] { was = p }
            if was == "none" || (was == "recommend" && pin == "force") { words.append("the \(pin) pin of \(v)") }
        }
        return words
    }

    /// `platform` with the floors and minimum OS its row held in `image`.
    static func floors(_ image: [String: JSON], on platform: PlatformRecord) -> PlatformRecord {
        var p = platform
        func floor(_ word: String) -> Floor? {
            guard case .string(let text)? = image["\(word)_version"], let v = try? Version(text) else { return nil }
            var build: Int64?
            if case .int(let b)? = image["\(word)_build"] { build = b }
            return Floor(version: v, build: build)
        }
        p.force = floor("force")
        if case .int(let deadline)? = image["force_deadline"] { p.force?.deadline = deadline }
        p.recommend = floor("recommend")
        // The same reading as the row's (Reads.rollout): the image is of a row that read as one.
        func int(_ key: String) -> Int64? { if case .int(let n)? = image[key] { return n } else { return nil } }
        func text(_ key: String) -> String? { if case .string(let s)? = image[key] { return s } else { return nil } }
        p.rollout = nil
        if let version = text("rollout_version"), let every = int("rollout_every"), let start = int("rollout_start") {
            p.rollout = try? Rollout.stored(version: version, build: int("rollout_build"), salt: text("rollout_salt") ?? "", steps: text("rollout_steps") ?? "",
                                            every: every, start: start, haltedAt: int("rollout_halted_at"), unstaged: text("rollout_unstaged") ?? "",
                                            since: int("rollout_since"))
        }
        p.minOS = nil
        if case .string(let os)? = image["min_os"] { p.minOS = os }
        return p
    }

    /// The platform's versions before the change: those it made taken out, those it changed or removed put back as they were.
    static func versions(_ now: [VersionRecord], undoing changes: [(before: [String: JSON]?, after: [String: JSON]?)]) -> [VersionRecord] {
        guard !changes.isEmpty else { return now }
        // Only rows made (a version added): taken out, the rest in the order they were read.
        if changes.allSatisfy({ $0.before == nil }) {
            let made = Set(changes.compactMap { if case .int(let id)? = $0.after?["id"] { return id } else { return nil } })
            return now.filter { !made.contains($0.id) }
        }
        var byID = Dictionary(now.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        // Latest first: a row added then changed in one session is taken back to nothing.
        for (before, after) in changes.reversed() {
            if case .int(let id)? = after?["id"] { byID[id] = nil }
            if let before, let v = version(before) { byID[v.id] = v }
        }
        // In the order a read gives them (a strict one: the dictionary's order does not show).
        return Store.sorted(Array(byID.values))
    }

    /// Whether a version row's image names a minimum OS of its own.
    static func namesMinOS(_ image: [String: JSON]?) -> Bool {
        guard let value = image?["min_os"] else { return false }
        if case .null = value { return false }
        return true
    }

    /// A version row's image as a record (without notes); nil for an image that is not one.
    static func version(_ image: [String: JSON]) -> VersionRecord? {
        guard case .int(let id)? = image["id"], case .int(let platform)? = image["platform_id"],
              case .string(let text)? = image["version"], let v = try? Version(text) else { return nil }
        func int(_ key: String) -> Int64? { if case .int(let n)? = image[key] { return n } else { return nil } }
        var pin: VersionRecord.Pin?
        if case .string(let p)? = image["policy"] { pin = VersionRecord.Pin(rawValue: p) }
        var minOS: String?
        if case .string(let os)? = image["min_os"] { minOS = os }
        return VersionRecord(id: id, platformID: platform, version: v, build: int("build"), releasedAt: int("released_at"), minOS: minOS, policy: pin, notes: [:])
    }

    /// Whether the floor `word` (force, recommend, rollout: the staged recommend) is set higher in `after` than in `before`.
    private static func rises(_ word: String, _ before: [String: JSON], _ after: [String: JSON]) -> Bool {
        func release(_ image: [String: JSON]) -> Release? {
            guard case .string(let text)? = image["\(word)_version"], let v = try? Version(text) else { return nil }
            if case .int(let b)? = image["\(word)_build"] { return Release(v, build: b) }
            return Release(v, build: nil)
        }
        guard let new = release(after) else { return false }
        guard let old = release(before) else { return true }
        return Release.isBelow(old, new) || (old.version == new.version && old.build == nil && new.build != nil)
    }

    /// The lockouts (Lockouts) of the platforms the session's changes touched,
    /// before them (the rows' images taken back) and as the session holds them:
    /// what a change created, without reading a platform it did not touch.
    public func lockoutsTouched(at now: Int64) throws -> (before: [Lockout], after: [Lockout]) {
        var before: [Lockout] = [], after: [Lockout] = []
        for (id, change) in Self.touched(rows).sorted(by: { $0.key < $1.key }) {
            // A platform removed has no lockout left.
            guard let platform = try store.platform(id: id) else { continue }
            // Read whole even so: a row damaged by hand stops the write before it commits. Unless the
            // session read them whole already (`version add`), when none named a minimum OS, and none of
            // its rows has named one since, before or after: every version is then as read or as its row
            // left it (the write lock keeps other writers out), so none names one now.
            if versionsWithoutMinOS.contains(id), !change.versions.contains(where: { Self.namesMinOS($0.before) || Self.namesMinOS($0.after) }) { continue }
            let versions = try store.versions(platform: id, withNotes: false)
            // Versions that name no minimum OS, before the change and after, all need the platform's own
            // (or none): one band runs the app and nobody is locked out. A row the change altered is
            // judged by its image as it was too.
            guard versions.contains(where: { $0.minOS != nil }) || change.versions.contains(where: { Self.namesMinOS($0.before) }) else { continue }
            after += Lockouts.of(platform, versions, at: now)
            if change.created { continue }
            let was = change.platformBefore.map { Self.floors($0, on: platform) } ?? platform
            before += Lockouts.of(was, Self.versions(versions, undoing: change.versions), at: now)
        }
        return (before, after)
    }
}
