import RelctlCore
import SQLite

/// Writes to platforms and their floors, each one change of a session with its audit row.
extension Session {
    public func addPlatform(to project: ProjectRecord, name: String, bundleID: String, appStoreID: String?, minOS: String?,
                            storeURL: String?, storefronts: [String] = [], now: Int64) throws {
        try change(Change(.platformAdd, project: project.slug, platforms: [name], "platform add \(name) bundle=\(bundleID)"), now: now) {
            if try store.platforms(project: project.id).contains(where: { $0.name == name }) {
                var typed = ["--bundle-id", bundleID]
                if let appStoreID { typed += ["--app-store-id", appStoreID] }
                if let minOS { typed += ["--min-os", minOS] }
                if let storeURL { typed += ["--store-url", storeURL] }
                if !storefronts.isEmpty { typed += ["--storefronts", storefronts.joined(separator: ",")] }
                throw StoreError("project '\(project.slug)' already has platform \(name)", fix: .run(["platform", "edit", name] + typed, "change it with"))
            }
            try db.run("INSERT INTO platform(project_id, name, bundle_id, app_store_id, min_os, store_url, storefronts) VALUES (?, ?, ?, ?, ?, ?, ?)",
                       [.int(project.id), .text(name), .text(bundleID), SQLValue(appStoreID), SQLValue(minOS), SQLValue(storeURL),
                        .text(storefronts.joined(separator: ","))])
        }
    }

    /// Changes what is given; nil keeps the current value.
    public func editPlatform(_ platform: PlatformRecord, of project: ProjectRecord, bundleID: String?, appStoreID: String?,
                             minOS: String?, storeURL: String?, storefronts: [String]? = nil, now: Int64) throws {
        try change(Change(.platformEdit, project: project.slug, platforms: [platform.name], "platform edit \(platform.name)"), now: now) {
            try db.run("""
                UPDATE platform SET bundle_id = coalesce(?, bundle_id), app_store_id = coalesce(?, app_store_id),
                    min_os = coalesce(?, min_os), store_url = coalesce(?, store_url), storefronts = coalesce(?, storefronts) WHERE id = ?
                """, [SQLValue(bundleID), SQLValue(appStoreID), SQLValue(minOS), SQLValue(storeURL),
                      SQLValue(storefronts?.joined(separator: ",")), .int(platform.id)])
        }
    }

    public func removePlatform(_ platform: PlatformRecord, of project: ProjectRecord, now: Int64) throws {
        try change(Change(.platformRemove, project: project.slug, platforms: [platform.name], "platform rm \(platform.name)"), now: now) {
            try db.run("DELETE FROM platform WHERE id = ?", [.int(platform.id)])
        }
    }

    public typealias FloorKind = WriteRules.FloorKind

    /// Sets (or with nil clears) a floor. Refused when no released version
    /// reaches it, since users would be sent to an update they cannot
    /// install, unless `allowUnreleased` (force only): then the answer is
    /// false and the caller warns.
    @discardableResult
    public func setFloor(_ kind: FloorKind, of platform: PlatformRecord, in project: ProjectRecord, to floor: Floor?,
                         allowUnreleased: Bool, allowLockout: Bool = false, now: Int64) throws -> Bool {
        try setFloor(kind, of: [platform], in: project, to: floor, allowUnreleased: allowUnreleased, allowLockout: allowLockout, now: now)[0]
    }

    /// Moves the deadline of each platform's own force floor (nil: required
    /// at once), in one transaction and one audit row, so one undo takes it back.
    public func moveDeadline(of platforms: [PlatformRecord], in project: ProjectRecord, to deadline: Int64?, now: Int64) throws {
        let names = platforms.map(\.name).joined(separator: ",")
        try change(Change(.force, project: project.slug, platforms: platforms.map(\.name), "force deadline \(names) \(deadline.map(Time.format) ?? "none")"), now: now) {
            let current = try store.platforms(project: project.id).filter { p in platforms.contains { $0.id == p.id } }
            for p in current {
                guard p.force != nil else {
                    throw StoreError("\(p.name) has no force floor to move the deadline of", fix: .run(["force", "VERSION", "--platform", p.name, "--after", "7d"], "set one with a deadline, like"))
                }
                try db.run("UPDATE platform SET force_deadline = ? WHERE id = ?", [SQLValue(deadline), .int(p.id)])
            }
        }
    }

    /// The same floor on several platforms in one transaction (one audit
    /// row naming them all): either every platform gets it or none does.
    /// The answer says, per platform, whether a released version reaches it.
    /// A floor some OS band cannot reach is refused unless `allowLockout` (WriteRules.floorLocksOut).
    /// `staged`: a recommend floor asked of a growing share of installs
    /// (Rollout), each platform with a salt of its own, above the recommend
    /// floor the others keep. A plain recommend, or its clearing, ends a rollout.
    @discardableResult
    public func setFloor(_ kind: FloorKind, of platforms: [PlatformRecord], in project: ProjectRecord, to floor: Floor?,
                         allowUnreleased: Bool, allowLockout: Bool = false, staged: RolloutRequest? = nil, now: Int64) throws -> [Bool] {
        let word = kind.rawValue
        let names = platforms.map(\.name).joined(separator: ",")
        var action = floor.map { "\(word) \(names) \($0.version.text)\($0.build.map { " build \($0)" } ?? "")\($0.deadline.map { " deadline \(Time.format($0))" } ?? "")" } ?? "\(word) clear \(names)"
        if let staged { action += " rollout \(staged.words)" }
        precondition(staged == nil || (kind == .recommend && floor != nil), "only a recommend floor is staged")
        return try change(Change(kind == .force ? .force : .recommend, project: project.slug, platforms: platforms.map(\.name), action), now: now) {
            let current = try store.platforms(project: project.id).filter { p in platforms.contains { $0.id == p.id } }
            return try platforms.map { platform in
                var reached = true
                // Checked inside the transaction: a release removed meanwhile counts.
                if let floor {
                    let all = try store.versions(platform: platform.id, withNotes: false)
                    if let refused = WriteRules.floorReached(floor, kind: kind, on: platform, versions: all, now: now) {
                        // A force floor set ahead of its release, asked for, goes in unreached.
                        guard kind == .force && allowUnreleased else { throw refused }
                        reached = false
                    }
                    let record = current.first { $0.id == platform.id } ?? platform
                    if !allowLockout, let refused = WriteRules.floorLocksOut(floor, kind: kind, on: record, versions: all, now: now) {
                        throw refused
                    }
                }
                if let staged, let floor {
                    try stage(floor, staged, on: current.first { $0.id == platform.id } ?? platform, now: now)
                    return reached
                }
                try db.run("UPDATE platform SET \(word)_version = ?, \(word)_build = ? WHERE id = ?",
                           [SQLValue(floor?.version.text), SQLValue(floor?.build), .int(platform.id)])
                if kind == .recommend { try writeRollout(nil, platform.id) }
                if kind == .force {
                    try db.run("UPDATE platform SET force_deadline = ? WHERE id = ?", [SQLValue(floor?.deadline), .int(platform.id)])
                }
                return reached
            }
        }
    }
}


/// What `relctl rollout halt|resume|finish` does.
public enum RolloutStep: String, Sendable {
    case halt, resume, finish, cancel
}

extension Session {
    /// Stages `floor` on a platform. A rollout already there is kept whole
    /// when asked again as it is; given a new schedule for the same version
    /// it keeps its salt (who is in stays in) and may not start below the
    /// share in now; one that reached every install becomes the recommend
    /// floor first; one still staging another version is never replaced.
    func stage(_ floor: Floor, _ staged: RolloutRequest, on record: PlatformRecord, now: Int64) throws {
        var base = record.recommend
        var salt = staged.salts[record.id] ?? Rollout.newSalt()
        var since = now
        let unstaged = staged.unstaged ?? record.rollout?.unstaged ?? .withhold
        switch StagePlan(floor, staged, on: record, at: now) {
        case .new: break
        case .unchanged: return
        case .foldThenNew(let done):
            // Every install has it: it is the floor of all before another is staged.
            if base.map({ Release.isBelow($0.release, done.release) }) ?? true {
                try db.run("UPDATE platform SET recommend_version = ?, recommend_build = ? WHERE id = ?",
                           [.text(done.version.text), SQLValue(done.build), .int(record.id)])
                base = done
            }
        case .blocked(let old):
            throw StoreError("the rollout of \(old.floor.text) on \(record.name) has \(Rollout.percent(old.basisPoints(at: now))) of installs in: staging \(floor.text) now would send them back",
                             fix: .run(["rollout", "finish", "--platform", record.name], "finish it first (or cancel it, with rollout cancel):"))
        case .finished(let old):
            throw StoreError("the rollout of \(old.floor.text) on \(record.name) reaches every install already",
                             fix: .run(["rollout", "finish", "--platform", record.name], "make it the recommend floor of all with"))
        case .reschedule(let old):
            let inNow = old.basisPoints(at: now)
            if staged.steps[0] < inNow {
                throw StoreError("the rollout of \(old.floor.text) on \(record.name) has \(Rollout.percent(inNow)) of installs in: a schedule starting at \(Rollout.percent(staged.steps[0])) would drop some of them",
                                 fix: .run(["recommend", floor.version.text, "--platform", record.name, "--rollout", ([inNow] + staged.steps.filter { $0 > inNow }).map(Rollout.number).joined(separator: ",")], "start at the share in now, like"))
            }
            salt = old.salt
            since = old.since
        }
        if let base, !Release.isBelow(base.release, floor.release) {
            throw StoreError("every install of \(record.name) below \(base.text) is asked to update already (the recommend floor): a staged \(floor.text) must be above it",
                             hint: "stage a version above \(base.text), once one is released")
        }
        try writeRollout(try Rollout(floor: floor, salt: salt, steps: staged.steps, every: staged.every, start: now, unstaged: unstaged, since: since), record.id)
    }

    /// Writes a platform's rollout columns (nil: none).
    func writeRollout(_ r: Rollout?, _ platform: Int64) throws {
        try db.run(Session.rolloutUpdate, Session.rolloutValues(r, platform))
    }

    static let rolloutUpdate = """
        UPDATE platform SET rollout_version = ?, rollout_build = ?, rollout_salt = ?, rollout_steps = ?, rollout_every = ?,
            rollout_start = ?, rollout_halted_at = ?, rollout_unstaged = ?, rollout_since = ? WHERE id = ?
        """

    static func rolloutValues(_ r: Rollout?, _ platform: Int64) -> [SQLValue] {
        [SQLValue(r?.floor.version.text), SQLValue(r?.floor.build), SQLValue(r?.salt), SQLValue(r.map { $0.steps.map(String.init).joined(separator: ",") }),
         SQLValue(r?.every), SQLValue(r?.start), SQLValue(r?.haltedAt), SQLValue(r?.unstaged.rawValue), SQLValue(r?.since), .int(platform)]
    }

    /// Halts, resumes, finishes or cancels the rollout of each platform, in one
    /// change. Halting keeps who is in; resuming goes on from the same step,
    /// its remaining time kept; finishing makes the staged floor every
    /// install's recommend floor; cancelling ends it, the floor as it was.
    /// `named`: the platforms were named; else a halt passes over those with nothing to halt (not started, complete).
    public func rollout(_ step: RolloutStep, of platforms: [PlatformRecord], in project: ProjectRecord, named: Bool = true, now: Int64) throws {
        let names = platforms.map(\.name).joined(separator: ",")
        let kinds: [RolloutStep: ChangeKind] = [.halt: .rolloutHalt, .resume: .rolloutResume, .finish: .rolloutFinish, .cancel: .rolloutCancel]
        let kind = kinds[step]!
        try change(Change(kind, project: project.slug, platforms: platforms.map(\.name), "rollout \(step.rawValue) \(names)"), now: now) {
            let current = try store.platforms(project: project.id).filter { p in platforms.contains { $0.id == p.id } }
            for p in current {
                guard var r = p.rollout else {
                    let newest = try store.versions(platform: p.id, withNotes: false).last { $0.isReleased(at: now) }?.version.text ?? "VERSION"
                    throw StoreError("\(p.name) has no staged recommend to \(step.rawValue)",
                                     fix: .run(["recommend", newest, "--platform", p.name, "--rollout", "1,5,20,100"], "stage one with"))
                }
                switch step {
                case .halt:
                    // Halted already: unchanged, as any change asked twice.
                    if r.haltedAt != nil || (!named && (now < r.start || r.isComplete(at: now))) { continue }
                    if now < r.start {
                        throw StoreError("the rollout of \(r.floor.text) on \(p.name) starts \(Time.format(r.start)): there is nothing to halt yet",
                                         fix: .run(["rollout", "cancel", "--platform", p.name], "to call it off, run"))
                    }
                    if r.isComplete(at: now) {
                        throw StoreError("the rollout of \(r.floor.text) on \(p.name) reaches every install already: there is nobody left to hold back",
                                         fix: .run(["rollout", "cancel", "--platform", p.name], "to take it back from the installs in it, run"))
                    }
                    r.haltedAt = now
                case .resume:
                    if r.haltedAt == nil { continue }
                    r = try r.resumed(at: now)
                case .cancel:
                    try writeRollout(nil, p.id)
                    continue
                case .finish:
                    if p.recommend.map({ Release.isBelow($0.release, r.floor.release) }) ?? true {
                        try db.run("UPDATE platform SET recommend_version = ?, recommend_build = ? WHERE id = ?",
                                   [.text(r.floor.version.text), SQLValue(r.floor.build), .int(p.id)])
                    }
                    try writeRollout(nil, p.id)
                    continue
                }
                try writeRollout(r, p.id)
            }
        }
    }
}
