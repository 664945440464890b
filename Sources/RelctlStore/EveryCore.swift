import Dispatch
import RelctlCore

extension Parallel {
    /// The calls spread over the cores. Each call writes only its own result
    /// (ForEachIndex), and all are done when this returns: the body may go to
    /// other threads. Here, in the lowest target that may use threads (the
    /// core is the model's alone), for the store's parse of a large change and
    /// for a publish's render.
    public static let everyCore: ForEachIndex = { count, body in
        withoutActuallyEscaping(body) { body in
            nonisolated(unsafe) let body = body
            // Not concurrentPerform: called from a worker of the global queue, it ran every call on that one thread.
            let group = DispatchGroup()
            for i in 1..<max(1, count) { DispatchQueue.global().async(group: group) { body(i) } }
            if count > 0 { body(0) }
            group.wait()
        }
    }

    /// The calls as tasks of their own on the cores, none waiting for
    /// another (a worker of the queue that waited held one of its few):
    /// a plan reads the next projects of a file while this thread writes those read.
    public static let ahead: StartEach = { count, body in
        let group = DispatchGroup()
        for i in 0..<count { DispatchQueue.global().async(group: group) { body(i) } }
        return { group.wait() }
    }
}
