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
        let raised = Self.raised(rows)
        guard !raised.isEmpty else { return }
        var risks: [String] = [], notes: [StoreNote] = []
        for (platformID, found) in raised.sorted(by: { $0.key < $1.key }) {
            guard let r = try db.query("SELECT \(Store.platformColumns) FROM platform WHERE id = ?", [.int(platformID)]).first else { continue }
            var platform = try store.platform(r)
            // Storefronts the same change takes away still count: dropping them cannot wave a floor through.
            platform.storefronts = Array(Set(platform.storefronts).union(found.storefrontsBefore)).sorted()
            guard let project = try db.query("SELECT \(Store.projectColumns) FROM project WHERE id = ?", [.int(platform.projectID)]).first.map(store.project) else { continue }
            // A platform that names no storefronts is not checked: only its pins need its versions, for their words.
            let pins = found.sources.contains { if case .pin = $0 { return true } else { return false } }
            let versions = platform.storefronts.isEmpty && !pins ? [] : try store.versions(platform: platform.id, withNotes: false)
            let targets = found.sources.compactMap { source -> StoreGuard.Target? in
                switch source {
                case .floor(let kind): return (kind == .force ? platform.force : platform.recommend).map { StoreGuard.Target.floor($0, kind) }
                case .pin(let version): return versions.first { $0.id == version }.flatMap { StoreGuard.Target.pin($0, among: versions, at: now) }
                }
            }
            guard !targets.isEmpty else { continue }
            let what = targets.map(\.what).joined(separator: ", ")
            if platform.storefronts.isEmpty {
                notes.append(StoreNote(platform: platform.name, text: "\(platform.name): \(what) is unchecked against the stores: the platform names no storefronts", risk: false))
                continue
            }
            // Made by this change (apply of a new project, an undone removal): its evidence went with it,
            // or never was, so nothing can be checked yet; said, never silent.
            if found.created {
                notes.append(StoreNote(platform: platform.name, text: "\(platform.name): \(what) is unchecked against the stores: the platform is new to this database, which holds no store evidence for it yet", risk: false))
                continue
            }
            let evidence = try store.storeEvidence(project: project.id)[platform.id]
            for target in targets {
                let findings = StoreGuard.unserved(target, on: platform, versions: versions, evidence: evidence, delay: project.releaseDelayDays * 86400, now: now)
                guard !findings.isEmpty else { continue }
                guard allowStoreRisk else { throw StoreGuard.refusal(target, on: platform, findings) }
                notes.append(StoreNote(platform: platform.name, text: StoreGuard.sentence(target, on: platform, findings), risk: true,
                                       safeAt: StoreGuard.safeAt(findings)))
                risks.append("\(platform.name) " + findings.prefix(4).map { $0.storefront ?? "play" }.joined(separator: ","))
            }
        }
        storeNotes += notes
        if !risks.isEmpty {
            try db.run("UPDATE audit SET action = action || ? WHERE id = ?", [.text(" (store risk allowed: \(risks.joined(separator: "; ")))"), .int(id)])
        }
    }

    enum TargetSource: Equatable { case floor(WriteRules.FloorKind), pin(Int64) }

    /// What a change raised on one platform.
    struct Raised {
        var sources: [TargetSource] = []
        /// The platform is one the change made.
        var created = false
        /// Its storefronts before the change.
        var storefrontsBefore: [String] = []
    }

    /// The floors raised and pins set or strengthened by `rows`, per platform
    /// id. A floor lowered or cleared, a deadline moved, a pin taken off or
    /// weakened raises nothing; a platform the change made raises every
    /// floor and pin it has.
    static func raised(_ rows: [RowChange]) -> [Int64: Raised] {
        var found: [Int64: Raised] = [:]
        for row in rows where row.table == "platform" {
            guard let after = row.after, case .int(let id)? = after["id"] else { continue }
            let before = row.before ?? [:]
            if row.before == nil { found[id, default: Raised()].created = true }
            if case .string(let list)? = before["storefronts"] {
                found[id, default: Raised()].storefrontsBefore = list.split(separator: ",").map(String.init)
            }
            for kind in [WriteRules.FloorKind.force, .recommend] where rises(kind.rawValue, before, after) {
                found[id, default: Raised()].sources.append(.floor(kind))
            }
        }
        for row in rows where row.table == "version" {
            guard let after = row.after, case .int(let id)? = after["id"], case .int(let platform)? = after["platform_id"],
                  case .string(let pin)? = after["policy"], pin == "force" || pin == "recommend" else { continue }
            var was = "none"
            if case .string(let p)? = row.before?["policy"] { was = p }
            // Set, or strengthened from recommend to force.
            guard was == "none" || (was == "recommend" && pin == "force") else { continue }
            found[platform, default: Raised()].sources.append(.pin(id))
        }
        return found.filter { !$0.value.sources.isEmpty }
    }

    /// Whether the floor `word` (force, recommend) is set higher in `after` than in `before`.
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
}
