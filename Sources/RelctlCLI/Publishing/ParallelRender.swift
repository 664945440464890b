#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import Synchronization
import RelctlCore

/// A rendered file with its SHA-256, as index.json records it.
struct HashedFile: Sendable {
    var path: String
    var bytes: [UInt8]
    var sha256: String
}

/// What rendering one project gave.
struct RenderedProject: Sendable {
    var files: [HashedFile]
    var warnings: [String]
    /// Client decisions that differ from `check` (a relctl bug) ...
    var disagreements: [Finding]
    /// ... and the intents the formats cannot carry, once each: the
    /// findings behind them run to thousands a project, not kept.
    var limits: [Limit]
    /// For DIR/index.html (recorded in index.json).
    var summary: StatusSummary
}

/// Renders, verifies and hashes projects on every core: rendering and
/// hashing are most of a publish, and each project's files depend on it alone.
enum ParallelRender {
    /// One project's files, checked and hashed; `pageRevision` (the
    /// project's own revision) asks for its status page.
    /// `alone`: no other project is rendered beside it, so its platforms take the cores.
    static func render(_ snapshot: ProjectSnapshot, at: Int64, pageRevision: Int64?, alone: Bool = false) -> RenderedProject {
        var warnings: [String] = []
        let page = pageRevision.map { StatusPageOptions(revision: $0) }
        let (files, findings, summary) = ProjectFiles.renderChecked(snapshot, at: at, warnings: &warnings, page: page,
                                                                    forEach: alone ? everyCore : Parallel.serial)
        return RenderedProject(files: files.map { HashedFile(path: $0.path, bytes: $0.bytes, sha256: SHA256.hex($0.bytes)) },
                               warnings: warnings, disagreements: findings.filter(\.isDisagreement),
                               limits: Finding.distinctLimits(findings).map(\.limit), summary: summary)
    }

    /// The calls spread over the cores, for the platforms of a project
    /// rendered alone. Each call writes only its own result (ForEachIndex),
    /// and all are done when this returns: the body may go to other threads.
    static let everyCore: ForEachIndex = { count, body in
        withoutActuallyEscaping(body) { body in
            nonisolated(unsafe) let body = body
            // Not concurrentPerform: called from a worker of the global queue, it ran every call on that one thread.
            let group = DispatchGroup()
            for i in 1..<max(1, count) { DispatchQueue.global().async(group: group) { body(i) } }
            if count > 0 { body(0) }
            group.wait()
        }
    }

    /// Renders `count` projects in a pipeline: this thread reads each
    /// snapshot (`read`: the database connection is this thread's) and hands
    /// it to the other cores, and between reads takes the finished projects
    /// in order (`take`: staging writes files, on this thread only), so
    /// reading, rendering and writing overlap. At most `window` projects are
    /// read and not yet taken, which bounds memory whatever the fleet's size.
    /// Projects read and not yet taken: eight per core, at most 64. With two,
    /// the cores stood idle whenever this thread was held up (a slow database
    /// page, a full write-behind queue); each holds its files in memory,
    /// under a megabyte at the benchmark fleet's shape.
    static let window = min(64, max(8, 8 * cores))
    static let cores = Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))

    /// `read` gives a project's render when it was started before (a project
    /// changed since the last publish renders while the old index is read).
    static func pipeline(count: Int, window: Int, at: Int64, read: (Int) throws -> (ProjectSnapshot, pageRevision: Int64?, started: Pending<RenderedProject>?),
                         take: (Int, ProjectSnapshot, RenderedProject) throws -> Void) throws {
        let finished = Mutex<[Int: RenderedProject]>([:])
        let signal = DispatchSemaphore(value: 0)
        var waiting: [Int: ProjectSnapshot] = [:]
        var started: [Int: Pending<RenderedProject>] = [:]
        var next = 0
        // Takes finished projects in order; with `wait`, waits for the next one first.
        func drain(wait: Bool) throws {
            var wait = wait
            while next < count, let snapshot = waiting[next] {
                // One started before is waited for here, on this thread, never on a worker of the cores.
                if let early = started[next], !wait && !early.isDone { return }
                guard let result = started.removeValue(forKey: next)?.value ?? finished.withLock({ $0.removeValue(forKey: next) }) else {
                    if !wait { return }
                    signal.wait()
                    continue
                }
                wait = false
                waiting[next] = nil
                try take(next, snapshot, result)
                next += 1
            }
        }
        for i in 0..<count {
            if waiting.count >= window { try drain(wait: true) }
            let (snapshot, pageRevision, early) = try read(i)
            waiting[i] = snapshot
            if let early {
                started[i] = early
                try drain(wait: false)
                continue
            }
            // Fewer projects than cores: each one's platforms are rendered at once.
            let alone = count < cores
            DispatchQueue.global().async {
                let result = render(snapshot, at: at, pageRevision: pageRevision, alone: alone)
                finished.withLock { $0[i] = result }
                signal.signal()
            }
            try drain(wait: false)
        }
        while next < count { try drain(wait: true) }
    }

    /// Checks several projects' files at once, one project per core.
    /// `sweeping`: by index, the snapshot (all notes read) to sweep the coming instants with.
    static func verify(_ snapshots: [ProjectSnapshot], sweeping: [Int: ProjectSnapshot] = [:], at: Int64, files: [String: [UInt8]]) -> [(findings: [Finding], decisions: Int)] {
        let results = Mutex<[Int: (findings: [Finding], decisions: Int)]>([:])
        DispatchQueue.concurrentPerform(iterations: snapshots.count) { i in
            let now = Fidelity.run(snapshots[i], at: at) { files[$0] }
            // What publishes to come (--watch, at each change) would write: in-memory files, not DIR's.
            let coming = sweeping[i].map { Fidelity.sweep($0, after: at) } ?? (findings: [], decisions: 0)
            let present = Set(Finding.distinctLimits(now.findings).map { "\($0.limit.platform) \($0.limit.client.rawValue) \($0.limit.intent)" })
            // A limit that comes into force later says from when, in its intent.
            let new = coming.findings.compactMap { f -> Finding? in
                guard let l = f.limit else { return f }
                if present.contains("\(l.platform) \(l.client.rawValue) \(l.intent)") { return nil }
                var g = f
                g.limit?.intent = "from \(Time.format(f.from ?? at)): \(l.intent)"
                return g
            }
            results.withLock { $0[i] = (now.findings + new, now.decisions + coming.decisions) }
        }
        return results.withLock { done in (0..<snapshots.count).map { done[$0]! } }
    }
}

