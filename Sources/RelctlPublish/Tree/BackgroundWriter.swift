import Dispatch
import Synchronization

/// Writes the files of folders a publish makes anew on threads of their own.
/// Creating ten thousand files waits on the disk (a directory block under
/// writeback, an inode table read): done on the publish's own thread, that
/// wait also stopped it handing snapshots to the cores that render, which
/// then stood idle. Nobody reads a staging folder before its rename, and
/// the commit waits for every write (`finish`) before it flushes and renames.
/// Each run of one folder's files goes to the next of several queues:
/// creating a file is mostly the kernel's work (a full publish of the
/// benchmark fleet spent 0.9 s of system time in it), and on one thread that
/// work held up the whole publish while the rendering cores waited. Of the
/// writes that fail, the one queued first is reported, as on one thread.
///
/// At most `budget` bytes wait to be written (a larger file waits alone):
/// the publish's thread waits for room, so memory stays bounded however
/// slow the disk. `synchronous` writes on the caller's thread instead, for
/// the crash-point tests, which count the steps of one thread.
package final class BackgroundWriter: Sendable {
    private let queues: [DispatchQueue]
    private let pending = DispatchGroup()
    private let budget: Int
    private let synchronous: Bool
    private struct Backlog {
        package var bytes = 0
        /// The publish's thread waits for `room`.
        package var waiting = false
        /// The folder of the last file queued, and the queue it went to.
        package var folder: Substring = ""
        package var queue = 0
        /// How many files were queued.
        package var queued = 0
    }
    private let backlog = Mutex(Backlog())
    private let room = DispatchSemaphore(value: 0)
    /// The write queued first of those that failed (by its place in the
    /// queue): reported by the next `write` or by `finish`.
    private let failure = Mutex<(order: Int, error: PublishError)?>(nil)

    /// 4 MiB: several projects' files at the benchmark fleet's shape; 16 MiB
    /// was no faster here and let a publish's peak memory reach 62 MiB in bench/run.
    /// `threads`: how many files are written at once.
    package init(budget: Int = 4 * 1024 * 1024, threads: Int = 2, synchronous: Bool = false) {
        self.budget = budget
        self.synchronous = synchronous
        queues = (0..<max(1, threads)).map { DispatchQueue(label: "relctl.write.\($0)") }
    }

    /// Queues `bytes` to be written to the new file `path` (TreeFiles.writeNew);
    /// throws the error of an earlier write that failed.
    package func write(_ bytes: [UInt8], at path: String, naming: String) throws {
        if synchronous {
            try TreeFiles.writeNew(bytes, at: path, naming: naming)
            return
        }
        if let failed = failure.withLock({ $0 }) { throw failed.error }
        let size = bytes.count, folder = path.utf8.lastIndex(of: UInt8(ascii: "/")).map { path[..<$0] } ?? ""
        var queue = 0, order = 0
        while !backlog.withLock({ b in
            if b.bytes == 0 || b.bytes + size <= budget {
                b.bytes += size
                if b.folder != folder { (b.folder, b.queue) = (folder, (b.queue + 1) % queues.count) }
                (queue, order) = (b.queue, b.queued)
                b.queued += 1
                return true
            }
            b.waiting = true
            return false
        }) { room.wait() }
        pending.enter()
        queues[queue].async { [self, order] in
            // After a failure the publish aborts: what was queued after it need not be written.
            if failure.withLock({ $0.map { $0.order > order } ?? true }) {
                do { try TreeFiles.writeNew(bytes, at: path, naming: naming) } catch {
                    let reported = error as? PublishError ?? PublishError("cannot write \(naming): \(error)")
                    failure.withLock { if $0.map({ order < $0.order }) ?? true { $0 = (order, reported) } }
                }
            }
            let wake = backlog.withLock { b -> Bool in
                b.bytes -= size
                defer { b.waiting = false }
                return b.waiting
            }
            if wake { room.signal() }
            pending.leave()
        }
    }

    /// Waits until every queued file is written; throws the failure queued first.
    package func finish() throws {
        pending.wait()
        if let failed = failure.withLock({ $0 }) { throw failed.error }
    }
}
