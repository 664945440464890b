import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import RelctlModel

/// The app's side of relctl: reads control.json (from a URL, or bytes the
/// app fetched itself) and says what to show now, deciding with the same
/// evaluator as `relctl check`, so deadlines, windows and release delays
/// take effect on the device at their instant without a new download.
/// Keeps the last good document (and the user's "later" and "skip") in
/// `storage` for offline launches; a bad or cut-short download never
/// replaces it and is reported (`lastError`), never a crash.
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
        /// The download failed (status, network, size).
        case download(String)
    }

    /// Documents larger than this are refused unread (a control.json of a
    /// thousand versions per platform is a few hundred KB).
    public static let maximumBytes = 8 << 20

    private let device: Device
    private let release: Release
    private let source: URL?
    private let storage: URL?
    private let lock = NSLock()
    private var document: ProjectSnapshot?
    /// Release notes by version, from the last what's-new file read.
    private var notes: [String: String] = [:]
    private var choices = Choices()
    private var shown: ReleaseState?
    private var polling: Task<Void, Never>?
    private var _lastError: Failure?
    private var _onChange: (@Sendable (ReleaseState) -> Void)?

    /// The instant, in seconds since 1970. Set it before `start()` (tests move it).
    public var clock: @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970) }

    /// Called with the new state whenever what the app should show changes
    /// (a download, an instant passing, later or skip).
    public var onChange: (@Sendable (ReleaseState) -> Void)? {
        get { lock.withLock { _onChange } }
        set { lock.withLock { _onChange = newValue } }
    }

    /// Why the last download or document was refused (nil after a good one).
    public var lastError: Failure? { lock.withLock { _lastError } }

    /// `storage`: a folder of the app's own (Application Support); nil keeps nothing between launches.
    public init(device: Device, source: URL? = nil, storage: URL? = nil) throws(Failure) {
        guard let version = try? Version(device.version) else { throw .badVersion(device.version) }
        self.device = device
        release = Release(version, build: device.build)
        self.source = source
        self.storage = storage
        guard let storage else { return }
        if let bytes = try? Data(contentsOf: storage.appendingPathComponent("control.json")) {
            // A stored document that no longer reads (damaged on disk) is as if none were stored.
            document = try? decode(Array(bytes))
        }
        if let data = try? Data(contentsOf: storage.appendingPathComponent("choices.json")) { choices = Choices(data) }
        if let data = try? Data(contentsOf: storage.appendingPathComponent("whatsnew.json")) { notes = (try? ReleaseControl.notes(Array(data))) ?? [:] }
    }

    /// Reads a what's-new file (DIR/<project>/<platform>/whatsnew/<locale>.json) the app fetched itself:
    /// the release notes `update.releaseNotes` shows. A bad one is refused; the last good one stays.
    public func loadWhatsNew(_ bytes: [UInt8]) throws(Failure) {
        let read: [String: String]
        do { read = try ReleaseControl.notes(bytes) } catch {
            lock.withLock { _lastError = error }
            throw error
        }
        lock.withLock { notes = read }
        if let storage {
            try? FileManager.default.createDirectory(at: storage, withIntermediateDirectories: true)
            try? Data(bytes).write(to: storage.appendingPathComponent("whatsnew.json"), options: .atomic)
        }
        changed()
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

    /// Reads a document the app fetched itself. Returns the state it gives now.
    @discardableResult
    public func load(_ bytes: [UInt8]) throws(Failure) -> ReleaseState {
        let snapshot: ProjectSnapshot
        do { snapshot = try decode(bytes) } catch {
            lock.withLock { _lastError = error }
            throw error
        }
        lock.withLock { document = snapshot; _lastError = nil }
        if let storage {
            try? FileManager.default.createDirectory(at: storage, withIntermediateDirectories: true)
            try? Data(bytes).write(to: storage.appendingPathComponent("control.json"), options: .atomic)
        }
        // decode() found the platform: the document answers.
        guard let state = changed() else { throw .unknownPlatform(device.platform) }
        return state
    }

    /// Downloads the document from `source` and reads it.
    @discardableResult
    public func refresh() async throws(Failure) -> ReleaseState {
        guard let source else { throw .download("no source URL") }
        let bytes: [UInt8]
        do { bytes = try await ReleaseControl.fetch(source) } catch let failure as Failure {
            lock.withLock { _lastError = failure }
            throw failure
        } catch {
            lock.withLock { _lastError = .download("\(error)") }
            throw .download("\(error)")
        }
        let state = try load(bytes)
        // The notes of the version offered, in the locale of its text: beside control.json, per platform and locale.
        if let locale = state.update?.locale ?? state.maintenance?.locale {
            let whatsNew = source.deletingLastPathComponent().appendingPathComponent(device.platform)
                .appendingPathComponent("whatsnew").appendingPathComponent("\(locale).json")
            if let bytes = try? await ReleaseControl.fetch(whatsNew) { try? loadWhatsNew(bytes) }
        }
        return self.state() ?? state
    }

    /// What to show at `t` (default now); nil before any document was read.
    public func state(at t: Int64? = nil) -> ReleaseState? {
        let t = t ?? clock()
        let (document, choices, notes) = lock.withLock { (self.document, self.choices, self.notes) }
        guard let document, let answer = ClientAnswer.answer(document, platform: device.platform, release: release, os: device.os,
                                                              languages: device.languages, at: t) else { return nil }
        var state = ReleaseState(answer)
        if let version = state.update?.version { state.update?.releaseNotes = notes[version] }
        if state.kind == .optional, let update = state.update {
            if choices.skipped == update.version { state.shouldPrompt = false }
            if let p = choices.postponed, p.version == update.version, t < p.until { state.shouldPrompt = false }
        }
        return state
    }

    /// The user chose "later": an optional update is not prompted again
    /// for its remind-after hours. Returns false when nothing optional is shown.
    @discardableResult
    public func later() -> Bool {
        let t = clock()
        guard let s = state(at: t), s.kind == .optional, let u = s.update else { return false }
        remember { $0.postponed = (u.version, t + (u.remindAfterHours ?? 24) * 3600) }
        return true
    }

    /// The user chose "skip this version": allowed only where the rule
    /// allows it; a newer target is prompted again. Returns false when not allowed.
    @discardableResult
    public func skip() -> Bool {
        guard let s = state(), s.kind == .optional, let u = s.update, u.skipAllowed else { return false }
        remember { $0.skipped = u.version }
        return true
    }

    /// Polls `source` while running: every minute from an hour before a
    /// maintenance window until it ends, else every 15 minutes (as the
    /// document asks), and wakes at each instant the answer changes by
    /// itself (a deadline, a window, a release delay) to call `onChange`.
    public func start() {
        stop()
        let task = Task { [weak self] in
            var nextDownload: Int64 = 0
            while !Task.isCancelled {
                guard let self else { return }
                let now = self.clock()
                if now >= nextDownload {
                    if self.source != nil { _ = try? await self.refresh() }
                    nextDownload = now + (self.state(at: now)?.pollIntervalSeconds ?? ControlDocument.normalPoll)
                }
                _ = self.changed()
                let wake = min(nextDownload, self.nextChange(after: now) ?? nextDownload)
                let seconds = max(1, min(wake - now, ControlDocument.normalPoll))
                try? await Task.sleep(nanoseconds: UInt64(seconds) * 1_000_000_000)
            }
        }
        lock.withLock { polling = task }
    }

    public func stop() {
        lock.withLock { polling?.cancel(); polling = nil }
    }

    // MARK: inside

    private func decode(_ bytes: [UInt8]) throws(Failure) -> ProjectSnapshot {
        guard bytes.count <= ReleaseControl.maximumBytes else { throw .unreadable("the document is \(bytes.count) bytes, more than \(ReleaseControl.maximumBytes)") }
        let file: ControlImport.File
        do { file = try ControlImport.read(bytes) } catch { throw .unreadable(error.message) }
        var snapshot = file.snapshot
        guard snapshot.platforms.contains(where: { $0.name == device.platform }) else { throw .unknownPlatform(device.platform) }
        snapshot.zone = ReleaseControl.zone(snapshot.project.timeZone)
        return snapshot
    }

    /// The project's zone from the device's zone database, for dates in messages.
    static func zone(_ name: String) -> ZoneRules? {
        if ZoneRules.isUTC(name) { return .utc }
        for dir in ["/usr/share/zoneinfo", "/var/db/timezone/zoneinfo"] {
            if let data = FileManager.default.contents(atPath: "\(dir)/\(name)"), let rules = ZoneRules(tzif: Array(data)) { return rules }
        }
        // No file: today's offset from Foundation, as a fixed rule.
        guard let tz = TimeZone(identifier: name) else { return nil }
        let offset = tz.secondsFromGMT()
        return ZoneRules(posix: "<X>\(offset <= 0 ? "" : "-")\(abs(offset) / 3600):\(abs(offset) % 3600 / 60)")
    }

    /// The next instant after `t` at which the answer may change with no download.
    private func nextChange(after t: Int64) -> Int64? {
        lock.withLock { document }.flatMap { NextChange.after($0, at: t)?.at }
    }

    /// Works out the state now and calls onChange when it differs from the last one shown.
    @discardableResult
    private func changed() -> ReleaseState? {
        guard let state = state() else { return nil }
        let callback: (@Sendable (ReleaseState) -> Void)? = lock.withLock {
            guard shown != state else { return nil }
            shown = state
            return _onChange
        }
        callback?(state)
        return state
    }

    private func remember(_ change: (inout Choices) -> Void) {
        let data = lock.withLock { () -> Data in
            change(&choices)
            return choices.data
        }
        if let storage {
            try? FileManager.default.createDirectory(at: storage, withIntermediateDirectories: true)
            try? data.write(to: storage.appendingPathComponent("choices.json"), options: .atomic)
        }
        changed()
    }

    static func fetch(_ url: URL) async throws -> [UInt8] {
        var request = URLRequest(url: url)
        request.cachePolicy = .reloadIgnoringLocalCacheData
        request.timeoutInterval = 30
        let (data, response): (Data, URLResponse?) = try await withCheckedThrowingContinuation { continuation in
            URLSession.shared.dataTask(with: request) { data, response, error in
                if let error { continuation.resume(throwing: error); return }
                continuation.resume(returning: (data ?? Data(), response))
            }.resume()
        }
        if let http = response as? HTTPURLResponse, http.statusCode != 200 { throw Failure.download("HTTP \(http.statusCode) from \(url)") }
        guard data.count <= maximumBytes else { throw Failure.download("\(data.count) bytes from \(url), more than \(maximumBytes)") }
        return Array(data)
    }
}

/// What the user chose, kept across launches.
struct Choices {
    var postponed: (version: String, until: Int64)?
    var skipped: String?

    init() {}

    init(_ data: Data) {
        guard let o = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return }
        if let p = o["postponed"] as? [String: Any], let v = p["version"] as? String, let u = (p["until"] as? NSNumber)?.int64Value { postponed = (v, u) }
        skipped = o["skipped"] as? String
    }

    var data: Data {
        var o: [String: Any] = [:]
        if let p = postponed { o["postponed"] = ["version": p.version, "until": NSNumber(value: p.until)] }
        if let s = skipped { o["skipped"] = s }
        return (try? JSONSerialization.data(withJSONObject: o, options: [.sortedKeys])) ?? Data("{}".utf8)
    }
}
