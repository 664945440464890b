#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// SIGINT, SIGTERM and SIGHUP (the terminal closed) turned into a flag that a
/// long-running command (`publish --watch`) checks between steps, so a
/// publish in progress finishes (its journal closed, no temporary file left)
/// before it exits.
public enum StopSignals {
    /// A window closed on a deploy or push must clean up as Ctrl-C does (curl's folder holds bearer tokens).
    static let stops = [SIGINT, SIGTERM, SIGHUP]
    static let received = Atomic<Int32>(0)
    /// How many have come: each is passed on to the program a command waits for (Spawn.capture).
    static let arrivals = Atomic<Int>(0)
    private static let installed = Atomic<Bool>(false)
    /// The signals relctl was started ignoring (a job a script put in the background): they stay ignored.
    private static let ignored = Atomic<Int32>(0)
    /// The signal a command stopped for and said so: the process ends by it (`end`).
    private static let ending = Atomic<Int32>(0)

    static func install() {
        received.store(0, ordering: .sequentiallyConsistent)
        // Made here, not first in the handler.
        _ = arrivals.load(ordering: .sequentiallyConsistent)
        var ignoring: Int32 = 0
        for sig in stops {
            // Looked at before any handler is set: one that came meanwhile would be taken.
            var was = sigaction()
            if sigaction(sig, nil, &was) == 0,
               unsafeBitCast(was.__sigaction_handler.sa_handler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self) {
                ignoring |= 1 << sig
                continue
            }
            // The program a command waits for is told by the waiting (Spawn.capture), with what it started.
            signal(sig) { s in
                StopSignals.received.store(s, ordering: .sequentiallyConsistent)
                StopSignals.arrivals.add(1, ordering: .sequentiallyConsistent)
            }
        }
        ignored.store(ignoring, ordering: .relaxed)
        installed.store(true, ordering: .relaxed)
    }

    static func restore() {
        let ignoring = ignored.load(ordering: .relaxed)
        for sig in stops { signal(sig, ignoring & (1 << sig) != 0 ? SIG_IGN : SIG_DFL) }
        installed.store(false, ordering: .relaxed)
    }

    /// Runs `body` with the stop signals held until it has returned and
    /// its own cleanup has run (files that hold secrets), then lets one that
    /// came meanwhile end relctl as it would have, saying what it stopped
    /// (`what`). Inside a command that already takes them as a flag, the flag is left for it.
    static func holding<T>(_ what: @autoclosure () -> String, _ body: () throws -> T) rethrows -> T {
        if isTaken { return try body() }
        install()
        defer {
            let sig = pending
            restore()
            if sig != 0 {
                // The command's own output is not flushed: what stopped is said here, at once.
                let line = Array("relctl: stopped (\(name(sig))) while \(what())\n".utf8)
                _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
                raise(sig)
            }
        }
        return try body()
    }

    /// Whether stop signals are taken as a flag now.
    static var isTaken: Bool { installed.load(ordering: .relaxed) }

    static var pending: Int32 { received.load(ordering: .sequentiallyConsistent) }

    /// The stop signal that came, if any, and the flag cleared: what follows runs as if none had, until another comes.
    static func take() -> Int32 { received.exchange(0, ordering: .sequentiallyConsistent) }

    /// A command stopped by a signal, which says where it stopped, marks the
    /// process to end by that signal once its message is out: a shell script
    /// running it stops too, as bash goes on after a child that exits normally.
    static func endByIt(_ sig: Int32) {
        // The first: the one the message names (a second, SIGTERM after SIGINT, must not change how it ends).
        _ = ending.compareExchange(expected: 0, desired: sig, ordering: .sequentiallyConsistent)
    }

    /// Ends the process: by the signal a command stopped for (`endByIt`), else with `status`.
    public static func end(_ status: Int32) -> Never {
        let sig = ending.load(ordering: .sequentiallyConsistent)
        if sig != 0 {
            signal(sig, SIG_DFL)
            raise(sig)
        }
        exit(status)
    }

    static func name(_ sig: Int32) -> String {
        sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM" : sig == SIGHUP ? "SIGHUP" : "signal \(sig)"
    }

    /// Sleeps up to `seconds`, returning early when a stop signal arrives.
    static func sleep(_ seconds: Double) {
        var ts = timespec(tv_sec: Int(seconds), tv_nsec: Int((seconds - Double(Int(seconds))) * 1e9))
        _ = nanosleep(&ts, nil)
    }
}
