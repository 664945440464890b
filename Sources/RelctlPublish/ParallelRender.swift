#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import Synchronization
import RelctlCore
import RelctlStore

/// A rendered file with its SHA-256, as index.json records it.
package struct HashedFile: Sendable {
    package var path: String
    package var bytes: [UInt8]
    package var sha256: String
}

/// What rendering one project gave.
package struct RenderedProject: Sendable {
    package var files: [HashedFile]
    package var warnings: [String]
    /// Client decisions that differ from `check` (a relctl bug) ...
    package var disagreements: [Finding]
    /// ... and the intents the formats cannot carry, once each: the
    /// findings behind them run to thousands a project, not kept.
    package var limits: [Limit]
    /// For DIR/index.html (recorded in index.json).
    package var summary: StatusSummary
    /// A project that trusts keys: its control.json's seal (nil: a dry run without its key),
    /// or why it cannot be signed, thrown when the project is taken, in project order.
    package var signed: Result<SignedDocument.Seal?, Error>?
}

/// Renders, verifies and hashes projects on every core: rendering and
/// hashing are most of a publish, and each project's files depend on it alone.
package enum ParallelRender {
    /// One project's files, checked, signed as `signing` says (when the
    /// project trusts keys) and hashed; `page` asks for its status page.
    /// `alone`: no other project is rendered beside it, so its platforms take the cores.
    package static func render(_ snapshot: ProjectSnapshot, at: Int64, page wanted: Bool, alone: Bool = false,
                               signing: Signing.Request) -> RenderedProject {
        var warnings: [String] = []
        let page = wanted ? StatusPageOptions() : nil
        var (files, findings, summary) = ProjectFiles.renderChecked(snapshot, at: at, warnings: &warnings, page: page,
                                                                    forEach: alone ? everyCore : Parallel.serial)
        // One the files a publish writes later would show is no reason to refuse these: it is said.
        let disagreements = findings.filter(\.isDisagreement)
        warnings += disagreements.compactMap { f in
            f.from.map { "from \(Time.format($0)) the files a publish then writes would differ from 'relctl check': \(FindingsReport.disagreementLine(f)); please report it" }
        }
        // Signed last, over the bytes checked.
        let signed = snapshot.project.trustedKeys.isEmpty ? nil
            : Result { try Signing.sign(&files, project: snapshot.project, signing, warnings: &warnings) }
        return RenderedProject(files: files.map { HashedFile(path: $0.path, bytes: $0.bytes, sha256: SHA256.hex($0.bytes)) },
                               warnings: warnings, disagreements: disagreements.filter { $0.from == nil },
                               limits: Finding.distinctLimits(findings).map(\.limit) + Signing.limits(snapshot, paths: files.map(\.path)), summary: summary,
                               signed: signed)
    }

    /// The calls spread over the cores, for the platforms of a project rendered alone.
    package static let everyCore = Parallel.everyCore

    /// Projects read and not yet taken: eight per core, at most 64. With two,
    /// the cores stood idle whenever this thread was held up (a slow database
    /// page, a full write-behind queue); each holds its files in memory,
    /// under a megabyte at the benchmark fleet's shape.
    package static let window = min(64, max(8, 8 * cores))
    package static let cores = Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))
    /// What the results read ahead may hold (`pipeline`'s `weight`): 4 MiB,
    /// as the write-behind queue. On a slow disk the window fills while this
    /// thread waits for the queue: sixteen of the benchmark fleet's projects
    /// held 11 MB of files, and a first publish of a thousand peaked at
    /// 78-79 MB, against 63-66 MB with four (docs/performance.md).
    package static let readAhead = 4 << 20

    /// Works on `count` projects in a pipeline: this thread reads each
    /// snapshot (`read`: the database connection is this thread's) and hands
    /// it to the other cores (`work`: render a publish's files, or prove a
    /// tree's), and between reads takes the finished projects in order
    /// (`take`: staging writes files, on this thread only), so reading,
    /// working and taking overlap. Each project is a task of its own on the
    /// global queue, none of which waits for another: a task that waited
    /// (a batch split over the cores from one) held a worker of the queue's
    /// few, and verify ran on 1.2 of 2 cores. At most `window` projects are
    /// read and not yet taken, which bounds memory whatever the fleet's size.
    /// `read` gives a project's result when it was started before (a project
    /// changed since the last publish renders while the old index is read).
    /// With `weight` (a result's bytes), fewer are read ahead when those taken
    /// so far say `window` of them would hold more than `readAhead`; never
    /// fewer than keep the cores busy.
    package static func pipeline<Result: Sendable>(count: Int, window: Int, weight: ((Result) -> Int)? = nil,
                                                   read: (Int) throws -> (ProjectSnapshot, started: Pending<Result>?),
                                                   work: @escaping @Sendable (ProjectSnapshot) -> Result,
                                                   take: (Int, ProjectSnapshot, Result) throws -> Void) throws {
        var weighed = (results: 0, bytes: 0)
        func room() -> Int {
            guard weighed.results > 0 else { return window }
            return min(window, max(cores + 2, readAhead / max(1, weighed.bytes / weighed.results)))
        }
        let finished = Mutex<[Int: Result]>([:])
        let signal = DispatchSemaphore(value: 0)
        var waiting: [Int: ProjectSnapshot] = [:]
        var started: [Int: Pending<Result>] = [:]
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
                if let weight { weighed = (weighed.results + 1, weighed.bytes + weight(result)) }
                try take(next, snapshot, result)
                next += 1
            }
        }
        for i in 0..<count {
            while waiting.count >= room() { try drain(wait: true) }
            let (snapshot, early) = try read(i)
            waiting[i] = snapshot
            if let early {
                started[i] = early
                try drain(wait: false)
                continue
            }
            DispatchQueue.global().async {
                let result = work(snapshot)
                finished.withLock { $0[i] = result }
                signal.signal()
            }
            try drain(wait: false)
        }
        while next < count { try drain(wait: true) }
    }

    /// One project's files checked as verify checks them: now from DIR's
    /// files, and at the coming instants from the files a publish then
    /// writes. Its findings are cut down to its disagreements and distinct
    /// limits here: a project's run to thousands.
    /// `alone`: no other project is checked beside it, so its platforms and instants take the cores.
    package static func verify(_ snapshot: ProjectSnapshot, at: Int64, files: [String: [UInt8]], alone: Bool) -> Verified {
        let forEach = alone ? everyCore : Parallel.serial
        // Verify reads each limit's first finding and every disagreement.
        let now = Fidelity.run(snapshot, at: at, forEach: forEach, limitsOnce: true) { files[$0] }
        let coming = Fidelity.sweep(snapshot, after: at, forEach: forEach, limitsOnce: true)
        let findings = Fidelity.merged(now: now.findings, coming: coming.findings)
        return Verified(disagreements: findings.filter(\.isDisagreement), limits: Finding.distinctLimits(findings).map(\.limit),
                        decisions: now.decisions + coming.decisions)
    }

    /// One project's proof, as verify keeps it.
    package struct Verified: Sendable {
        package var disagreements: [Finding]
        package var limits: [Limit]
        package var decisions: Int
    }
}

