#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Deterministic kills for the crash-point tests: a debug build given
/// RELCTL_CRASH_AT=N ends the process (exit 86, no clean-up at all) just
/// before the Nth filesystem step of a publish (a mkdir, a temporary file's
/// creation or its second half, the flush, a rename, an unlink, a rmdir).
/// Release builds compile this to nothing.
package enum CrashPoints {
    #if DEBUG
    private static let limit: Int? = getenv("RELCTL_CRASH_AT").flatMap { Int(String(cString: $0)) }
    nonisolated(unsafe) private static var count = 0
    #endif

    /// Whether a kill is set: a file is then written in two halves, so a kill can tear one.
    package static var enabled: Bool {
        #if DEBUG
        limit != nil
        #else
        false
        #endif
    }

    /// Called before each step; publish performs its steps on one thread.
    package static func step() {
        #if DEBUG
        guard let limit else { return }
        count += 1
        if count == limit { _exit(86) }
        #endif
    }
}
