#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import RelctlPublish
import Synchronization

/// Everything a command may touch of the outside world, so that tests can run
/// commands in-process with captured streams, a fixed clock and their own env.
public final class Context {
    public let stdout: Sink
    public let stderr: Sink
    public var env: [String: String]
    public var clock: () -> Int64
    public var stdinIsTerminal: Bool
    public var stdoutIsTerminal: Bool
    public var stderrIsTerminal: Bool
    public var width: Int
    public var noColor = false

    /// Colour and cursor control on stderr: only on a terminal that is not
    /// "dumb", without --no-color, and without a non-empty NO_COLOR
    /// (no-color.org: an empty NO_COLOR does not count).
    public var stderrStyled: Bool {
        stderrIsTerminal && !noColor && (env["NO_COLOR"] ?? "").isEmpty && env["TERM"] != "dumb"
    }
    /// How long a publish waits for another one writing the same folder.
    public var publishLockWait = 10.0
    /// Who makes a change, as the audit log names them: looked up (USER,
    /// LOGNAME, then /etc/passwd) when first asked, which a command that only
    /// reads never does.
    public var user: String {
        get {
            if let knownUser { return knownUser }
            let found = lookUpUser()
            knownUser = found
            return found
        }
        set { knownUser = newValue }
    }
    var knownUser: String?
    var lookUpUser: () -> String = { "" }
    public var readStdin: () throws -> [UInt8]
    /// The process ends when the command does (relctl itself, not a test that calls Runner):
    /// what it still holds then is the kernel's to take back, all at once (`leaveToExit`).
    private(set) var endsWithCommand = false
    /// What commands left for the process's end to free (only when `endsWithCommand`): held
    /// by no context, which is freed before the process ends.
    private static let leftToExit = Mutex<[any Sendable]>([])

    /// Keeps `value` to the process's end rather than free it piece by piece: freeing the
    /// rows of a plan into an empty database one by one (the five-project file's 42,000, each
    /// with its dictionaries) was 5 % of it. Only plain values: a store or session kept here
    /// would never be closed, and closing the database is what folds its log into it.
    func leaveToExit(_ value: any Sendable) {
        if endsWithCommand { Context.leftToExit.withLock { $0.append(value) } }
    }
    /// Reads one answer from the terminal (confirmations).
    public var readLine: () -> String?

    public init(stdout: Sink = Sink(fd: -1), stderr: Sink = Sink(fd: -1), env: [String: String] = [:],
                clock: @escaping () -> Int64 = { Int64(time(nil)) }, user: String = "tester",
                stdin: [UInt8] = []) {
        self.stdout = stdout; self.stderr = stderr; self.env = env; self.clock = clock
        self.stdinIsTerminal = false; self.stdoutIsTerminal = false; self.stderrIsTerminal = false
        self.width = 80; self.knownUser = user
        self.readStdin = { stdin }
        self.readLine = { nil }
    }

    /// The real process: fds 0-2, the environment, the wall clock.
    public static func process() -> Context {
        var env: [String: String] = [:]
        var p = environ
        while let entry = p.pointee {
            // Split as bytes: a String searched for "=" by Character was 3 % of a `version add`.
            let bytes = UnsafeRawBufferPointer(start: entry, count: strlen(entry))
            if let eq = bytes.firstIndex(of: UInt8(ascii: "=")) {
                env[String(decoding: bytes[..<eq], as: UTF8.self)] = String(decoding: bytes[(eq + 1)...], as: UTF8.self)
            }
            p += 1
        }
        let c = Context(stdout: Sink(fd: 1), stderr: Sink(fd: 2), env: env)
        c.endsWithCommand = true
        c.knownUser = nil
        c.lookUpUser = { FileSystem.currentUser(env: env) }
        c.stdinIsTerminal = isatty(0) == 1
        c.stdoutIsTerminal = isatty(1) == 1
        c.stderrIsTerminal = isatty(2) == 1
        var size = winsize()
        if c.stdoutIsTerminal, ioctl(1, UInt(TIOCGWINSZ), &size) == 0, size.ws_col >= 20 {
            c.width = Int(size.ws_col)
        } else if let cols = env["COLUMNS"].flatMap(Int.init), cols >= 20 {
            c.width = cols
        }
        c.readStdin = { try FileSystem.readAll(fd: 0, name: "standard input", limit: FileSystem.inputLimit) }
        c.readLine = { Swift.readLine(strippingNewline: true) }
        return c
    }
}
