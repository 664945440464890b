import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import RelctlModel

/// The app's side of relctl: reads control.json (from a URL, or bytes the
/// app fetched itself) and says what to show now, deciding with the same
/// evaluator as `relctl check`, so deadlines, windows and release delays
/// take effect on the device at their instant without a new download.
/// Keeps the last good document, the what's-new file and the user's
/// "later" and "skip" in `storage` for offline launches; a bad or
/// cut-short download never replaces it and is reported (`lastError`),
/// never a crash. Safe to use from any thread.
public final class ReleaseControl: @unchecked Sendable {
    /// The app as it runs: its platform in the project ("ios"), the
    /// version and build it reports, the device's OS, the user's languages
    /// in order (Locale.preferredLanguages).
    public struct Device: Sendable {
        public var platform: String
        public var version: String
        public var build: Int64?
        public var os: String?
        public var languages: [String]

        public init(platform: String, version: String, build: Int64? = nil, os: String? = nil, languages: [String]) {
            self.platform = platform; self.version = version; self.build = build; self.os = os; self.languages = languages
        }
    }

    public enum Failure: Error, Equatable, Sendable {
        /// The document cannot be read (the reason names the value); the last good one stays.
        case unreadable(String)
        /// The document has no such platform.
        case unknownPlatform(String)
        /// The app's version is not 1 to 4 numbers.
        case badVersion(String)
        /// The app's build is not a whole number from 0 to 2,100,000,000 (Android's versionCode limit).
        case badBuild(Int64)
        /// The download failed (status, network, size).
        case download(String)
        /// The document is not obeyed: unsigned where keys are trusted, signed by another key,
        /// altered, for another project, older than one accepted, or expired (the reason says which).
        case refused(String)
        /// A trusted key given to `init` is not base64 of a 32-byte Ed25519 public key.
        case badKey(String)
        /// The install id given to `init` is empty, longer than 128 bytes, or holds spaces or control characters.
        case badInstallID(String)
    }

    /// The install id kept in `storage` (install-id), made and kept there
    /// when there is none or it does not read: a random UUID. Nil when it
    /// cannot be kept (no storage, or the write failed).
    static func keptInstallID(in storage: URL?) -> String? {
        guard let file = storage?.appendingPathComponent("install-id") else { return nil }
        // Read only when it is a small regular file: a planted large one is never read whole.
        let attributes = try? FileManager.default.attributesOfItem(atPath: file.path)
        if attributes?[.type] as? FileAttributeType == .typeRegular, ((attributes?[.size] as? NSNumber)?.intValue ?? .max) <= 256,
           let data = try? Data(contentsOf: file), data.count <= 256, let text = String(data: data, encoding: .utf8),
           let id = try? Rollout.checkInstallID(text.trimmingCharacters(in: .whitespacesAndNewlines)) {
            return id
        }
        let id = UUID().uuidString
        do {
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(id.utf8).write(to: file, options: .atomic)
        } catch { return nil }
        return id
    }

    /// Documents larger than this are refused unread: the size publish refuses to write.
    public static let maximumBytes = ControlDocument.maximumBytes

    /// This install's id, which staged recommends (rollouts) decide by: the
    /// one the app gave, else made once (a random UUID) and kept in
    /// `storage`, so an install stays on its side of every rollout across
    /// launches. Nil without storage (or when it cannot be kept there): an id
    /// made anew at each launch would move the install in and out of a
    /// rollout, so it is in none until it reaches every install.
    public let installID: String?

    private let device: Device
    private let release: Release
    private let source: URL?
    private let storage: URL?
    private let clock: @Sendable () -> Int64
    /// The raw public keys a document must be signed by; none: documents are read unsigned.
    private let trustedKeys: [[UInt8]]
    /// The project the documents must be for; nil: the project of the first one accepted.
    private let project: String?

    /// Everything that changes, behind `lock`.
    private struct Inner {
        var document: ProjectSnapshot?
        /// What the document says of itself, when signed: its project, revision and expiry.
        var seal: SignedDocument.Seal?
        /// What the signed documents accepted so far allow next, kept apart from the document itself.
        var trust = Trust()
        /// Release notes by version, from the last what's-new file read.
        var notes: [String: String] = [:]
        var choices = Choices()
        var shown: ReleaseState?
        var lastError: Failure?
        var onChange: (@Sendable (ReleaseState) -> Void)?
        var polling: Task<Void, Never>?
        var nextDownload: Int64 = 0
        /// SHA-256 (hex) of the control.json bytes accepted last: a push naming them is already served.
        var heldSHA256: String?
        /// The highest revision a push was answered for (kept in storage): one without a SHA-256 at or below it is stale.
        var pushRevision: Int64 = 0
        /// What pushes are being answered now (a SHA-256, else "r" and the revision): the same push by FCM and APNs downloads once.
        var pushesInFlight: Set<String> = []
        var listeners: [(id: UInt64, body: @Sendable (ReleaseState) -> Void)] = []
        var nextListener: UInt64 = 0
    }
    private var inner = Inner()
    private let lock = NSLock()
    /// Held while a new state is worked out and handed to onChange, so
    /// callbacks come one at a time and in order; recursive, since a
    /// callback may call later() or skip().
    private let delivery = NSRecursiveLock()

    private func locked<T>(_ body: (inout Inner) throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(&inner)
    }

    /// Called with the new state whenever what the app should show changes
    /// (a download, an instant passing, later or skip), on the thread that
    /// made the change: hop to the main actor before touching the screen.
    public var onChange: (@Sendable (ReleaseState) -> Void)? {
        get { locked { $0.onChange } }
        set { locked { $0.onChange = newValue } }
    }

    /// A listener added with `addListener`, to remove it.
    public struct ListenerToken: Hashable, Sendable { let owner: ObjectIdentifier; let id: UInt64 }

    /// Adds an observer called, after onChange, with every new state: several
    /// parts of an app can listen without replacing one another's onChange.
    @discardableResult
    public func addListener(_ body: @escaping @Sendable (ReleaseState) -> Void) -> ListenerToken {
        locked { inner in
            inner.nextListener += 1
            inner.listeners.append((inner.nextListener, body))
            return ListenerToken(owner: ObjectIdentifier(self), id: inner.nextListener)
        }
    }

    /// Removes a listener; removing one twice, or one of another control, does nothing.
    public func removeListener(_ token: ListenerToken) {
        guard token.owner == ObjectIdentifier(self) else { return }
        locked { inner in inner.listeners.removeAll { $0.id == token.id } }
    }

    /// Why the last control.json or what's-new file was refused (nil after a good control.json).
    public var lastError: Failure? { locked { $0.lastError } }

    /// `storage`: a folder of the app's own (Application Support); nil keeps
    /// nothing between launches. `clock`: seconds since 1970 (tests move it).
    /// `trustedKeys`: the Ed25519 public keys (base64, as `relctl keys
    /// generate` prints them) the app pins, its active key and the offline
    /// backup; given, only a document signed by one of them is obeyed, only
    /// for `project` (nil: the project of the first one accepted), never
    /// older than one accepted, and, once expired, not at all: from an
    /// expired document the app shows neither a window nor a required
    /// update (`ReleaseState.expiredAt` says so).
    /// `installID`: the app's own id for this install (1 to 128 characters,
    /// no spaces), if it has one it keeps; nil: relctl's client makes one.
    public init(device: Device, source: URL? = nil, storage: URL? = nil, trustedKeys: [String] = [], project: String? = nil,
                installID: String? = nil,
                clock: @escaping @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970) }) throws(Failure) {
        guard let version = try? Version(device.version) else { throw .badVersion(device.version) }
        if let installID, (try? Rollout.checkInstallID(installID)) == nil { throw .badInstallID(installID) }
        // As relctl takes a build: a negative one would sort below every release and be told to update.
        if let build = device.build, (try? parseBuild(String(build))) == nil { throw .badBuild(build) }
        var keys: [[UInt8]] = []
        for text in trustedKeys {
            guard let key = Ed25519.publicKey(text) else { throw .badKey(text) }
            keys.append(key)
        }
        self.trustedKeys = keys
        // Made and kept only once everything given has been checked.
        self.installID = installID ?? ReleaseControl.keptInstallID(in: storage)
        self.project = project
        self.device = device
        release = Release(version, build: device.build)
        self.source = source
        self.storage = storage
        self.clock = clock
        guard let storage else { return }
        // A stored file that no longer reads (damaged on disk) is as if none were stored.
        // Checked again as downloaded (the keys may have changed with the app), but for its expiry: an expired one is kept and not obeyed.
        if let data = try? Data(contentsOf: storage.appendingPathComponent("trust.json")) { inner.trust = Trust(data) }
        if let bytes = try? Data(contentsOf: storage.appendingPathComponent("control.json")),
           let read = try? decode(Array(bytes), project: project ?? inner.trust.project, at: nil) {
            inner.document = read.snapshot
            inner.seal = read.seal
            inner.heldSHA256 = SHA256Digest.hex(SHA256Digest.hash(Array(bytes)))
        }
        if let data = try? Data(contentsOf: storage.appendingPathComponent("push-revision")), data.count <= 32,
           let n = Int64(String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)), n >= 0 {
            inner.pushRevision = min(n, clock())
        }
        if let data = try? Data(contentsOf: storage.appendingPathComponent("choices.json")) { inner.choices = Choices(data) }
        if let data = try? Data(contentsOf: storage.appendingPathComponent("whatsnew.json")) { inner.notes = (try? ReleaseControl.notes(Array(data))) ?? [:] }
    }

    deinit { inner.polling?.cancel() }

    /// Reads a document the app fetched itself. Returns the state it gives now.
    @discardableResult
    public func load(_ bytes: [UInt8]) throws(Failure) -> ReleaseState {
        let now = clock()
        let read: Decoded
        do { read = try decode(bytes, project: project ?? locked { $0.trust.project }, at: now) } catch {
            locked { $0.lastError = error }
            throw error
        }
        // The revision checks, against what is accepted when the document takes its place:
        // two loads at once (polling and the app's own) can never put an older one in last.
        let refused = locked { inner -> Failure? in
            if !trustedKeys.isEmpty {
                do {
                    try SignedDocument.check(read.seal, signedBy: read.keyIDs, project: project ?? inner.trust.project, accepted: inner.trust.floors,
                                             current: inner.seal, at: now)
                } catch {
                    inner.lastError = .refused((error as? SignedDocument.Refusal)?.message ?? "\(error)")
                    return inner.lastError
                }
                inner.trust.accept(read.seal!, signedBy: read.keyIDs)
                keep(inner.trust.data, as: "trust.json")
            }
            inner.document = read.snapshot
            inner.seal = read.seal
            inner.lastError = nil
            inner.heldSHA256 = SHA256Digest.hex(SHA256Digest.hash(bytes))
            keep(bytes, as: "control.json")
            return nil
        }
        if let refused { throw refused }
        // decode() found the platform: the document answers.
        guard let state = delivered() else { throw .unknownPlatform(device.platform) }
        return state
    }

    /// Reads a what's-new file (DIR/<project>/<platform>/whatsnew/<locale>.json)
    /// the app fetched itself: the release notes `update.releaseNotes` shows.
    /// A bad one is refused and reported; the last good one stays.
    public func loadWhatsNew(_ bytes: [UInt8]) throws(Failure) {
        do { try readWhatsNew(bytes) } catch {
            locked { $0.lastError = error }
            throw error
        }
    }

    /// Downloads the document from `source` and reads it; for an update,
    /// the release notes beside it (`<platform>/whatsnew/<locale>.json`, in
    /// the locale of the text shown; a missing or bad one leaves them as they were).
    @discardableResult
    public func refresh() async throws(Failure) -> ReleaseState {
        guard let source else { throw .download("no source URL") }
        let bytes: [UInt8]
        do { bytes = try await ReleaseControl.fetch(source) } catch {
            let failure = (error as? Failure) ?? .download("\(error)")
            locked { $0.lastError = failure }
            throw failure
        }
        let state = try load(bytes)
        await fetchWhatsNew(for: state, from: source)
        return self.state() ?? state
    }

    /// The release notes of the update `state` shows, from the what's-new file beside control.json.
    private func fetchWhatsNew(for state: ReleaseState, from source: URL) async {
        guard let locale = state.update?.locale else { return }
        let whatsNew = source.deletingLastPathComponent().appendingPathComponent(device.platform)
            .appendingPathComponent("whatsnew").appendingPathComponent("\(locale).json")
        if let notes = try? await ReleaseControl.fetch(whatsNew) { try? readWhatsNew(notes) }
    }

    /// What to show at `t` (default now); nil before any document was read.
    public func state(at t: Int64? = nil) -> ReleaseState? {
        let now = t ?? clock()
        return locked { state($0, at: now) }
    }

    /// The user chose "later": an optional update is not prompted again
    /// for its remind-after hours. Returns false when nothing optional is shown.
    @discardableResult
    public func later() -> Bool {
        let t = min(max(clock(), Time.earliest), Time.latest)
        let done = locked { inner -> Bool in
            guard let s = state(inner, at: t), s.kind == .optional, let u = s.update else { return false }
            inner.choices.postponed = (u.version, t + (u.remindAfterHours ?? 24) * 3600)
            keep(inner.choices.data, as: "choices.json")
            return true
        }
        if done { delivered() }
        return done
    }

    /// The user chose "skip this version": allowed only where the rule
    /// allows it; a newer target is prompted again. Returns false when not allowed.
    @discardableResult
    public func skip() -> Bool {
        let t = clock()
        let done = locked { inner -> Bool in
            guard let s = state(inner, at: t), s.kind == .optional, let u = s.update, u.skipAllowed else { return false }
            inner.choices.skipped = u.version
            keep(inner.choices.data, as: "choices.json")
            return true
        }
        if done { delivered() }
        return done
    }

    /// Polls `source` while running: at once, then every 15 minutes, every
    /// minute from an hour before a maintenance window until it ends (as
    /// control.json asks, worked out at the device's clock); and wakes at
    /// each instant the answer changes by itself (a deadline, a window, a
    /// release delay, the end of a "later") to call `onChange`.
    public func start() {
        let task = Task { [weak self] in
            while !Task.isCancelled {
                // Held only while working: a control the app let go of stops polling.
                guard let seconds = await self?.tick() else { return }
                try? await Task.sleep(nanoseconds: UInt64(seconds) * 1_000_000_000)
            }
        }
        locked { inner in
            inner.polling?.cancel()
            inner.polling = task
            inner.nextDownload = 0
        }
    }

    public func stop() {
        locked { inner in
            inner.polling?.cancel()
            inner.polling = nil
        }
    }

    // MARK: inside

    /// One round of polling; returns how long to sleep.
    private func tick() async -> Int64 {
        var now = clock()
        if now >= locked({ $0.nextDownload }) {
            if source != nil { _ = try? await refresh() }
            now = clock()
            let poll = state(at: now)?.pollIntervalSeconds ?? ControlDocument.normalPoll
            locked { $0.nextDownload = now + poll }
        }
        delivered()
        let (document, nextDownload, postponed) = locked { ($0.document, $0.nextDownload, $0.choices.postponed?.until) }
        var wake = nextDownload
        if let document, let change = NextChange.after(document, at: now)?.at { wake = min(wake, change) }
        if let expires = locked({ $0.seal?.expiresAt }), expires > now { wake = min(wake, expires) }
        if let postponed, postponed > now { wake = min(wake, postponed) }
        return max(1, min(wake - now, ControlDocument.normalPoll))
    }

    /// The state of `inner` at `t`, the user's choices applied.
    private func state(_ inner: Inner, at t: Int64) -> ReleaseState? {
        guard let document = inner.document,
              let answer = ClientAnswer.answer(document, platform: device.platform, release: release, os: device.os,
                                               languages: device.languages, at: t, installID: installID) else { return nil }
        // The kill switch fails open: an expired document blocks nobody and asks nothing.
        if let seal = inner.seal, t >= seal.expiresAt { return ReleaseState(expiredAt: seal.expiresAt) }
        var state = ReleaseState(answer)
        if let version = state.update?.version { state.update?.releaseNotes = inner.notes[version] }
        if state.kind == .optional, let update = state.update {
            // A skip holds while skipping is allowed; a deadline or a stricter rule asks again.
            if update.skipAllowed, inner.choices.skipped == update.version { state.shouldPrompt = false }
            if let p = inner.choices.postponed, p.version == update.version, t < p.until { state.shouldPrompt = false }
        }
        return state
    }

    /// Works out the state now and hands it to onChange when it differs from the last one handed.
    @discardableResult
    private func delivered() -> ReleaseState? {
        delivery.lock()
        defer { delivery.unlock() }
        let t = clock()
        let (now, callbacks) = locked { inner -> (ReleaseState?, [@Sendable (ReleaseState) -> Void]) in
            guard let s = self.state(inner, at: t) else { return (nil, []) }
            guard inner.shown != s else { return (s, []) }
            inner.shown = s
            return (s, (inner.onChange.map { [$0] } ?? []) + inner.listeners.map(\.body))
        }
        if let now { for callback in callbacks { callback(now) } }
        return now
    }

    private struct Decoded {
        var snapshot: ProjectSnapshot
        var seal: SignedDocument.Seal?
        /// The pinned keys that signed it.
        var keyIDs: [String]
    }

    /// The document's snapshot and seal, checked in SignedDocument's order:
    /// the signature over the raw bytes, then the parse, the project, the
    /// expiry at `now` (nil: none, a stored document read again); the
    /// revision is checked by `load` against what it accepted.
    private func decode(_ bytes: [UInt8], project: String?, at now: Int64?) throws(Failure) -> Decoded {
        guard bytes.count <= ReleaseControl.maximumBytes else { throw .unreadable("the document is \(bytes.count) bytes, more than \(ReleaseControl.maximumBytes)") }
        var payload = bytes, keyIDs: [String] = []
        do {
            if !trustedKeys.isEmpty { (payload, keyIDs) = try SignedDocument.verified(bytes, keys: trustedKeys) }
            // An app that pins no key reads a signed document's payload as it reads a plain one.
            else if SignedDocument.isEnvelope(bytes) { payload = try SignedDocument.unpack(bytes).payload }
        } catch { throw .refused(error.message) }
        let file: ControlImport.File
        do { file = try ControlImport.read(payload) } catch { throw .unreadable(error.message) }
        if !trustedKeys.isEmpty {
            do { try SignedDocument.check(file.seal, project: project, at: now) } catch { throw .refused(error.message) }
        }
        var snapshot = file.snapshot
        guard snapshot.platforms.contains(where: { $0.name == device.platform }) else { throw .unknownPlatform(device.platform) }
        snapshot.zone = ReleaseControl.zone(snapshot.project.timeZone)
        return Decoded(snapshot: snapshot, seal: file.seal, keyIDs: keyIDs)
    }

    private func readWhatsNew(_ bytes: [UInt8]) throws(Failure) {
        let read = try ReleaseControl.notes(bytes)
        locked { inner in
            inner.notes = read
            keep(Data(bytes), as: "whatsnew.json")
        }
        delivered()
    }

    /// Writes a file of `storage` (under the lock: the file on disk is the one in memory).
    private func keep<D: DataProtocol>(_ bytes: D, as name: String) {
        guard let storage else { return }
        try? FileManager.default.createDirectory(at: storage, withIntermediateDirectories: true)
        try? Data(bytes).write(to: storage.appendingPathComponent(name), options: .atomic)
    }

    /// version → notes (lines joined by newlines) of a what's-new file.
    static func notes(_ bytes: [UInt8]) throws(Failure) -> [String: String] {
        guard bytes.count <= maximumBytes, case .object(let top)? = try? JSONReader.parse(bytes), case .array(let versions)? = top["versions"] else {
            throw .unreadable("not a what's-new file (an object with a versions list)")
        }
        var out: [String: String] = [:]
        for v in versions {
            guard case .object(let o) = v, case .string(let version)? = o["version"] else { throw .unreadable("a what's-new entry without a version") }
            // Lines, as the file lists them (null: the version has no notes in any locale).
            if case .array(let lines)? = o["notes"] {
                out[version] = lines.compactMap { if case .string(let line) = $0 { return line } else { return nil } }.joined(separator: "\n")
            }
        }
        return out
    }

    /// The project's zone for dates in messages: the device's zone files, as
    /// relctl reads them; else Foundation's transitions of that zone.
    static func zone(_ name: String) -> ZoneRules? {
        if ZoneRules.isUTC(name) { return .utc }
        for dir in ["/usr/share/zoneinfo", "/var/db/timezone/zoneinfo"] {
            if let data = FileManager.default.contents(atPath: "\(dir)/\(name)"), let rules = ZoneRules(tzif: Array(data)) { return rules }
        }
        guard let tz = TimeZone(identifier: name) else { return nil }
        return zone(tz)
    }

    /// A zone's offsets from 1970 to 2100 as Foundation gives them.
    static func zone(_ tz: TimeZone) -> ZoneRules {
        var date = Date(timeIntervalSince1970: 0)
        let end = Date(timeIntervalSince1970: 4_102_444_800)
        func at(_ d: Date) -> (Int64, String) { (Int64(tz.secondsFromGMT(for: d)), tz.abbreviation(for: d) ?? "") }
        var list: [(at: Int64, offset: Int64, name: String)] = []
        while list.count < 1_000, let next = tz.nextDaylightSavingTimeTransition(after: date), next < end {
            let (offset, name) = at(next)
            list.append((Int64(next.timeIntervalSince1970), offset, name))
            date = next
        }
        let first = at(Date(timeIntervalSince1970: 0))
        return ZoneRules(initial: (first.0, first.1), transitions: list)
    }

    static func fetch(_ url: URL, timeout: TimeInterval = 30) async throws -> [UInt8] {
        var request = URLRequest(url: url)
        request.cachePolicy = .reloadIgnoringLocalCacheData
        request.timeoutInterval = timeout
        let running = RunningRequest()
        let (data, response): (Data, URLResponse?) = try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                guard running.wait(continuation) else { return }
                URLSession.shared.dataTask(with: request) { data, response, error in
                    running.answer(error.map { .failure($0) } ?? .success((data ?? Data(), response)))
                }.resume()
            }
        } onCancel: { running.cancel() }
        if let http = response as? HTTPURLResponse, http.statusCode != 200 { throw Failure.download("HTTP \(http.statusCode) from \(url)") }
        guard data.count <= maximumBytes else { throw Failure.download("\(data.count) bytes from \(url), more than \(maximumBytes)") }
        return Array(data)
    }
}

/// Silent pushes: relctl's hint that a new revision of the files exists
/// (`relctl push`, `relctl deploy --push`). The hint is never obeyed as
/// such: it only makes the app download control.json now, and the document
/// is checked as any download is (its signature, its revision, its project).
extension ReleaseControl {
    /// What a push came to.
    public enum PushOutcome: Equatable, Sendable {
        /// Downloaded and read; the state now.
        case downloaded(ReleaseState)
        /// Nothing to do: what it names is held already (the same bytes, or a revision not newer).
        case alreadyHeld
        /// For another project than this control's.
        case otherProject(String)
        /// relctl's, but not readable (a field missing or malformed, a revision more than a day ahead).
        case malformed
        /// The download or the document failed (lastError says the same).
        case failed(Failure)
    }

    /// The fields of relctl's push, from a notification's user info (APNs: beside `aps`; FCM: its data).
    struct PushFields: Equatable {
        var project: String
        var revision: Int64
        var sha256: String?

        /// nil: not relctl's; .some(nil): relctl's, but unreadable.
        static func read(_ userInfo: [AnyHashable: Any]) -> PushFields?? {
            func text(_ key: String) -> String? {
                switch userInfo[key] {
                case let s as String: return s
                case let n as NSNumber: return n.stringValue
                default: return nil
                }
            }
            guard text("relctl") == "1" else { return nil }
            guard let project = text("relctlProject"), (1...64).contains(project.utf8.count),
                  let revisionText = text("relctlRevision"), revisionText.utf8.count <= 20, let revision = Int64(revisionText), revision >= 0 else { return .some(nil) }
            var sha = text("relctlSha256")?.lowercased()
            if let s = sha, s.utf8.count != 64 || !s.utf8.allSatisfy({ ($0 >= 48 && $0 <= 57) || ($0 >= 97 && $0 <= 102) }) { sha = nil }
            return .some(PushFields(project: project, revision: revision, sha256: sha))
        }
    }

    /// Hands a notification to the control: true when it is relctl's (the
    /// app has nothing more to do with it), false otherwise. A push naming
    /// control.json bytes other than those held (or, without a SHA-256, a
    /// revision newer than the one held) downloads it at once from `source`
    /// (the state goes to onChange and the listeners as always) and
    /// `completion` is told how it went, within about 25 s, iOS's budget
    /// for a background push (release notes follow after it); a stale,
    /// repeated, foreign or unreadable one is ignored. Call it from the app
    /// delegate's `application(_:didReceiveRemoteNotification:fetchCompletionHandler:)`
    /// (and FirebaseMessaging's data messages), mapping `.downloaded` to
    /// `.newData`, `.failed` to `.failed` and the rest to `.noData`.
    @discardableResult
    public func handlePush(_ userInfo: [AnyHashable: Any], completion: (@Sendable (PushOutcome) -> Void)? = nil) -> Bool {
        guard let read = PushFields.read(userInfo) else { return false }
        guard let fields = read else { completion?(.malformed); return true }
        let now = clock()
        let key = fields.sha256 ?? "r\(fields.revision)"
        let decided = locked { inner -> PushOutcome? in
            let ours = project ?? inner.trust.project ?? inner.document?.project.slug
            if let ours, ours != fields.project { return .otherProject(fields.project) }
            // A revision is an instant in seconds: one far ahead is none relctl wrote, and would silence every push after it.
            if fields.revision > now + 86_400 { return .malformed }
            if inner.pushesInFlight.contains(key) { return .alreadyHeld }
            if let sha = fields.sha256 {
                if sha == inner.heldSHA256 { return .alreadyHeld }
            } else if fields.revision <= max(inner.seal?.revision ?? 0, inner.pushRevision) {
                return .alreadyHeld
            }
            inner.pushesInFlight.insert(key)
            return nil
        }
        if let decided {
            // Woken all the same: what the app holds is worked out for now (a window that began, a rollout step).
            if decided == .alreadyHeld { delivered() }
            completion?(decided)
            return true
        }
        Task {
            // iOS gives a background push about 30 s: the answer comes within 25, whatever the network does.
            let outcome = await withTaskGroup(of: PushOutcome?.self) { group -> PushOutcome in
                group.addTask { await self.answer(fields) }
                group.addTask { try? await Task.sleep(nanoseconds: ReleaseControl.pushBudget * 1_000_000_000); return nil }
                let first = await group.next() ?? nil
                group.cancelAll()
                return first ?? .failed(.download("no answer within \(ReleaseControl.pushBudget) s"))
            }
            if case .failed(let failure) = outcome { locked { $0.lastError = failure } }
            locked { _ = $0.pushesInFlight.remove(key) }
            completion?(outcome)
            if case .downloaded(let state) = outcome, let source { await fetchWhatsNew(for: state, from: source) }
        }
        return true
    }

    /// Seconds a push's answer may take (iOS allows a background push about 30).
    static let pushBudget: UInt64 = 25

    /// Downloads what the push names and reads it.
    private func answer(_ fields: PushFields) async -> PushOutcome {
        guard let source else { return .failed(.download("no source URL")) }
        let bytes: [UInt8]
        do {
            var got = try await ReleaseControl.fetch(source, timeout: 15)
            // A cache in front (a CDN) may still hold the bytes from before the push: asked once more past it.
            if let sha = fields.sha256, SHA256Digest.hex(SHA256Digest.hash(got)) != sha,
               var parts = URLComponents(url: source, resolvingAgainstBaseURL: false) {
                parts.queryItems = (parts.queryItems ?? []) + [URLQueryItem(name: "relctl", value: String(sha.prefix(16)))]
                if let busted = parts.url { got = try await ReleaseControl.fetch(busted, timeout: 8) }
            }
            bytes = got
        } catch {
            // Said by the caller (lastError), which knows whether it was cut short by the deadline.
            return .failed((error as? Failure) ?? .download("\(error)"))
        }
        do {
            let state = try load(bytes)
            // Acted on once it holds what the push named (not bytes a cache held back).
            if fields.sha256 == nil || fields.sha256 == SHA256Digest.hex(SHA256Digest.hash(bytes)) {
                locked { inner in
                    // Never past now: a sender's fast clock would otherwise silence the pushes after it.
                    inner.pushRevision = max(inner.pushRevision, min(fields.revision, clock()))
                    keep(Data(String(inner.pushRevision).utf8), as: "push-revision")
                }
            }
            return .downloaded(state)
        } catch {
            return .failed(error)
        }
    }

}

extension ReleaseControl.Failure: CustomStringConvertible {
    /// One line for a log.
    public var description: String {
        switch self {
        case .unreadable(let why): return "unreadable document: \(why)"
        case .unknownPlatform(let p): return "the document has no platform '\(p)'"
        case .badVersion(let v): return "'\(v)' is not a version (1 to 4 numbers)"
        case .badBuild(let b): return "\(b) is not a build (0 to 2,100,000,000)"
        case .download(let why): return "download failed: \(why)"
        case .refused(let why): return "refused: \(why)"
        case .badKey(let k): return "'\(k)' is not an Ed25519 public key (base64 of 32 bytes)"
        case .badInstallID(let id): return "'\(id.prefix(40))' is not an install id: 1 to 128 characters, no spaces or control characters"
        }
    }
}

/// The download a cancelled task waits for no longer. Its URLSession task
/// is let go of, not cancelled: Linux's URLSession stops the process when a
/// task is cancelled as it completes (swift-corelibs-foundation's task
/// registry). The request then ends by its answer or its timeout, unread.
private final class RunningRequest: @unchecked Sendable {
    typealias Answer = Result<(Data, URLResponse?), Error>
    private let lock = NSLock()
    private var waiting: CheckedContinuation<(Data, URLResponse?), Error>?
    private var cancelled = false

    /// Holds the one waiting for the answer; false (and it is told at once) when already cancelled.
    func wait(_ continuation: CheckedContinuation<(Data, URLResponse?), Error>) -> Bool {
        lock.lock()
        guard !cancelled else { lock.unlock(); continuation.resume(throwing: CancellationError()); return false }
        waiting = continuation
        lock.unlock()
        return true
    }

    func answer(_ answer: Answer) { take()?.resume(with: answer) }

    func cancel() {
        lock.lock()
        cancelled = true
        lock.unlock()
        take()?.resume(throwing: CancellationError())
    }

    /// The one waiting, once: whichever of the answer and the cancellation comes first tells it.
    private func take() -> CheckedContinuation<(Data, URLResponse?), Error>? {
        lock.lock(); defer { lock.unlock() }
        let c = waiting
        waiting = nil
        return c
    }
}

/// What the signed documents accepted allow next, kept across launches
/// apart from the document (which may no longer verify after an app update
/// changed its pins): the project of the first one, when the app names
/// none, and per key the highest revision it signed.
struct Trust {
    var project: String?
    var floors: [String: Int64] = [:]

    init() {}

    /// Bounded and read like choices.json: a damaged file is as if none were kept.
    init(_ data: Data) {
        guard data.count <= 1 << 16, case .object(let o)? = try? JSONReader.parse(Array(data)) else { return }
        if case .string(let p)? = o["project"] { project = p }
        if case .object(let f)? = o["revisions"] {
            for (id, value) in f where SignedDocument.isKeyID(id) { if case .int(let r) = value { floors[id] = r } }
        }
    }

    mutating func accept(_ seal: SignedDocument.Seal, signedBy keyIDs: [String]) {
        project = project ?? seal.project
        for id in keyIDs { floors[id] = max(floors[id] ?? seal.revision, seal.revision) }
    }

    var data: Data {
        var o: [String: JSON] = ["revisions": .object(floors.mapValues { .int($0) })]
        if let project { o["project"] = .string(project) }
        return Data(JSON.object(o).compactBytes())
    }
}

/// What the user chose, kept across launches.
struct Choices {
    var postponed: (version: String, until: Int64)?
    var skipped: String?

    init() {}

    /// Read with the one reader the document is read with, bounded like it:
    /// a damaged or planted file is as if the user had chosen nothing.
    init(_ data: Data) {
        guard data.count <= ReleaseControl.maximumBytes, case .object(let o)? = try? JSONReader.parse(Array(data)) else { return }
        if case .object(let p)? = o["postponed"], case .string(let v)? = p["version"], case .int(let u)? = p["until"] { postponed = (v, u) }
        if case .string(let s)? = o["skipped"] { skipped = s }
    }

    var data: Data {
        var o: [String: JSON] = [:]
        if let p = postponed { o["postponed"] = .object(["version": .string(p.version), "until": .int(p.until)]) }
        if let s = skipped { o["skipped"] = .string(s) }
        return Data(JSON.object(o).compactBytes())
    }
}
