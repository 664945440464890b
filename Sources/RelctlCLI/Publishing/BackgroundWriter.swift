import Dispatch
import Synchronization

/// Writes the files of folders a publish makes anew on a thread of its own.
/// Creating ten thousand files waits on the disk (a directory block under
/// writeback, an inode table read): done on the publish's own thread, that
/// wait also stopped it handing snapshots to the cores that render, which
/// then stood idle. Nobody reads a staging folder before its rename, and
/// the commit waits for every write (`finish`) before it flushes and renames.
///
/// At most `budget` bytes wait to be written: the publish's thread waits for
/// room, so memory stays bounded however slow the disk.
final class BackgroundWriter: Sendable {
    private let queue = DispatchQueue(label: "relctl.write")
    private let pending = DispatchGroup()
    /// Free room, in slots of `slot` bytes; a file takes at least one, and at most all.
    private let room: DispatchSemaphore
    private let slots: Int
    static let slot = 256 * 1024
    /// The first write that failed: reported by the next `write` or by `finish`.
    private let failure = Mutex<RelctlError?>(nil)

    init(budget: Int = 16 * 1024 * 1024) {
        slots = max(1, budget / BackgroundWriter.slot)
        room = DispatchSemaphore(value: slots)
    }

    /// Queues `bytes` to be written to the new file `path` (TreeWriter.writeNew);
    /// throws the error of an earlier write that failed.
    func write(_ bytes: [UInt8], at path: String, naming: String) throws {
        if let failed = failure.withLock({ $0 }) { throw failed }
        let taken = min(slots, max(1, (bytes.count + BackgroundWriter.slot - 1) / BackgroundWriter.slot))
        for _ in 0..<taken { room.wait() }
        pending.enter()
        queue.async { [self] in
            do { try TreeWriter.writeNew(bytes, at: path, naming: naming) } catch {
                let reported = error as? RelctlError ?? RelctlError.failure("cannot write \(naming): \(error)")
                failure.withLock { if $0 == nil { $0 = reported } }
            }
            for _ in 0..<taken { room.signal() }
            pending.leave()
        }
    }

    /// Waits until every queued file is written; throws the first failure.
    func finish() throws {
        pending.wait()
        if let failed = failure.withLock({ $0 }) { throw failed }
    }
}
