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
    }

    /// Checks the targets `rows` raise; refuses, or notes and logs the risk under `audit`.
    func guardStores(_ rows: [RowChange], audit id: Int64, now: Int64) throws {
        let raised = Self.raised(rows)
        guard !raised.isEmpty else { return }
        var risks: [String] = [], notes: [StoreNote] = []
        for (platformID, sources) in raised.sorted(by: { $0.key < $1.key }) {
            guard let r = try db.query("SELECT \(Store.platformColumns) FROM platform WHERE id = ?", [.int(platformID)]).first else { continue }
            let platform = try store.platform(r)
            guard let project = try db.query("SELECT \(Store.projectColumns) FROM project WHERE id = ?", [.int(platform.projectID)]).first.map(store.project) else { continue }
            // A platform that names no storefronts is not checked: only its pins need its versions, for their words.
            let pins = sources.contains { if case .pin = $0 { return true } else { return false } }
            let versions = platform.storefronts.isEmpty && !pins ? [] : try store.versions(platform: platform.id, withNotes: false)
            let targets = sources.compactMap { source -> StoreGuard.Target? in
                switch source {
                case .floor(let kind): return (kind == .force ? platform.force : platform.recommend).map { StoreGuard.Target.floor($0, kind) }
                case .pin(let version): return versions.first { $0.id == version }.flatMap { StoreGuard.Target.pin($0, among: versions, at: now) }
                }
            }
            guard !targets.isEmpty else { continue }
            if platform.storefronts.isEmpty {
                notes.append(StoreNote(platform: platform.name, text: "\(platform.name): \(targets.map(\.what).joined(separator: ", ")) is unchecked against the stores: the platform names no storefronts", risk: false))
                continue
            }
            let evidence = try store.storeEvidence(project: project.id)[platform.id]
            for target in targets {
                let findings = StoreGuard.unserved(target, on: platform, versions: versions, evidence: evidence, delay: project.releaseDelayDays * 86400, now: now)
                guard !findings.isEmpty else { continue }
                guard allowStoreRisk else { throw StoreGuard.refusal(target, on: platform, findings) }
                notes.append(StoreNote(platform: platform.name, text: StoreGuard.sentence(target, on: platform, findings), risk: true))
                risks.append("\(platform.name) " + findings.prefix(4).map { $0.storefront ?? "play" }.joined(separator: ","))
            }
        }
        storeNotes += notes
        if !risks.isEmpty {
            try db.run("UPDATE audit SET action = action || ? WHERE id = ?", [.text(" (store risk allowed: \(risks.joined(separator: "; ")))"), .int(id)])
        }
    }

    enum TargetSource: Equatable { case floor(WriteRules.FloorKind), pin(Int64) }

    /// The floors raised and pins set by `rows`, per platform id. A floor
    /// lowered or cleared, a deadline moved, a pin taken off raises nothing;
    /// a platform made by the change itself (apply, an undone removal) has
    /// nothing raised against this database, and its floors are not checked.
    static func raised(_ rows: [RowChange]) -> [Int64: [TargetSource]] {
        var made: Set<Int64> = [], found: [Int64: [TargetSource]] = [:]
        for row in rows where row.table == "platform" {
            guard let after = row.after, case .int(let id)? = after["id"] else { continue }
            guard let before = row.before else { made.insert(id); continue }
            for kind in [WriteRules.FloorKind.force, .recommend] where rises(kind.rawValue, before, after) {
                found[id, default: []].append(.floor(kind))
            }
        }
        for row in rows where row.table == "version" {
            guard let after = row.after, case .int(let id)? = after["id"], case .int(let platform)? = after["platform_id"], !made.contains(platform),
                  case .string(let pin)? = after["policy"], pin != "none" else { continue }
            if case .string(let was)? = row.before?["policy"], was != "none" { continue }
            found[platform, default: []].append(.pin(id))
        }
        return found
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
