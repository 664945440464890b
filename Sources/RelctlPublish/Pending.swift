import Dispatch

/// A value worked out on another core while this thread goes on: the old
/// index, the recorded folders, a project rendered early, what a publish
/// says. `value` waits for it.
package final class Pending<Value>: @unchecked Sendable {
    private let done = DispatchGroup()
    /// Written once, by the other thread, before `done` is left.
    private var result: Value?

    package init(_ work: @escaping @Sendable () -> Value) {
        DispatchQueue.global().async(group: done) { self.result = work() }
    }

    package var isDone: Bool { done.wait(timeout: .now()) == .success }

    package var value: Value {
        done.wait()
        return result!
    }
}
