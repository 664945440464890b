#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// SIGINT and SIGTERM turned into a flag that a long-running command
/// (`publish --watch`) checks between steps, so a publish in progress
/// finishes (its journal closed, no temporary file left) before it exits.
enum StopSignals {
    static let received = Atomic<Int32>(0)

    static func install() {
        received.store(0, ordering: .relaxed)
        for sig in [SIGINT, SIGTERM] {
            signal(sig) { s in StopSignals.received.store(s, ordering: .relaxed) }
        }
    }

    static func restore() {
        for sig in [SIGINT, SIGTERM] { signal(sig, SIG_DFL) }
    }

    static var pending: Int32 { received.load(ordering: .relaxed) }

    static func name(_ sig: Int32) -> String { sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM" : "signal \(sig)" }

    /// Sleeps up to `seconds`, returning early when a stop signal arrives.
    static func sleep(_ seconds: Double) {
        var ts = timespec(tv_sec: Int(seconds), tv_nsec: Int((seconds - Double(Int(seconds))) * 1e9))
        _ = nanosleep(&ts, nil)
    }
}
