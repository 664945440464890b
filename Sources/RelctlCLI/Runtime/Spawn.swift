#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CSystem
import RelctlPublish

/// Runs programs: `publish --watch --exec` (a shell command it does not
/// wait for) and deploy's rclone (captured).
enum Spawn {
    /// A shell command running in a process group of its own, so that it and
    /// whatever it started (an upload's children) can be told to stop at once.
    struct Running {
        let pid: pid_t

        /// Starts `command` with /bin/sh; nil when it could not start.
        static func shell(_ command: String, arguments: [String], env: [String: String]) -> Running? {
            let argv = ["/bin/sh", "-c", command, "relctl-exec"] + arguments
            let envp = env.map { "\($0.key)=\($0.value)" }.sorted()
            var cArgs: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
            var cEnv: [UnsafeMutablePointer<CChar>?] = envp.map { strdup($0) } + [nil]
            defer { cArgs.forEach { free($0) }; cEnv.forEach { free($0) } }
            var attributes = posix_spawnattr_t()
            posix_spawnattr_init(&attributes)
            defer { posix_spawnattr_destroy(&attributes) }
            posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
            posix_spawnattr_setpgroup(&attributes, 0)
            var pid: pid_t = 0
            guard posix_spawn(&pid, "/bin/sh", nil, &attributes, &cArgs, &cEnv) == 0 else { return nil }
            return Running(pid: pid)
        }

        /// The exit status (a negative signal number when killed) once it
        /// has ended, else nil; `wait` blocks until it ends.
        func status(wait: Bool = false) -> Int32? {
            var status: Int32 = 0
            while true {
                let r = waitpid(pid, &status, wait ? 0 : WNOHANG)
                if r == pid { break }
                if r == 0 { return nil }
                if errno != EINTR { return -SIGKILL }
            }
            let low = status & 0x7f
            return low == 0 ? (status >> 8) & 0xff : -low
        }

        /// Sends `signal` to its whole process group, and to every process
        /// below it that left the group (setsid, a daemon's double fork): those
        /// still under it, and those orphaned to this process as their subreaper.
        func signal(_ signal: Int32) {
            kill(-pid, signal)
            for other in Spawn.descendants(of: pid) { kill(other, signal) }
        }

        /// Whether something it started is still running (a zombie is not).
        var leftBehind: Bool { !Spawn.descendants(of: pid).isEmpty }
    }

    /// Makes this process the subreaper of what it starts (Linux): a process
    /// whose parent ends is handed here, not to init, so what --exec leaves
    /// running can still be found, told to stop, and reaped.
    static func becomeSubreaper() {
        _ = relctl_become_subreaper()
    }

    /// The live processes below `root`, and those this process adopted as
    /// subreaper (each of its children but `root` and those in `adoptedBut`;
    /// none with nil), with theirs; zombies among the adopted are reaped on
    /// the way. From /proc: none elsewhere.
    static func descendants(of root: pid_t, adoptedBut known: Set<pid_t>? = []) -> [pid_t] {
        guard let dir = opendir("/proc") else { return [] }
        defer { closedir(dir) }
        var children: [pid_t: [pid_t]] = [:]
        var zombies = Set<pid_t>()
        while let entry = readdir(dir) {
            let name = withUnsafePointer(to: entry.pointee.d_name) { String(cString: UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self)) }
            guard let pid = pid_t(name), let stat = try? FileSystem.readFile("/proc/\(name)/stat", limit: 4096) else { continue }
            // "pid (comm) state ppid ...": comm may hold spaces and parentheses, so read after the last ')'.
            guard let close = stat.lastIndex(of: UInt8(ascii: ")")) else { continue }
            let fields = stat[(close + 1)...].split(separator: 32)
            guard fields.count > 2, let ppid = pid_t(String(decoding: fields[1], as: UTF8.self)) else { continue }
            if fields[0].first == UInt8(ascii: "Z") { zombies.insert(pid) }
            children[ppid, default: []].append(pid)
        }
        let adopted = known.map { known in (children[getpid()] ?? []).filter { $0 != root && !known.contains($0) } } ?? []
        for pid in adopted where zombies.contains(pid) {
            var status: Int32 = 0
            _ = waitpid(pid, &status, WNOHANG)
        }
        var out: [pid_t] = []
        var queue = [root] + adopted.filter { !zombies.contains($0) }
        var seen = Set(queue)
        out += queue.dropFirst()
        while let next = queue.popLast() {
            for child in children[next] ?? [] where seen.insert(child).inserted && !zombies.contains(child) {
                out.append(child)
                queue.append(child)
            }
        }
        return out
    }
}

extension Spawn {
    /// The first executable `name` on `env`'s PATH (the command's own
    /// environment, not relctl's process: tests give their own), or nil.
    static func find(_ name: String, env: [String: String]) -> String? {
        for dir in (env["PATH"] ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":") where !dir.isEmpty {
            let path = dir + "/" + name
            var st = stat()
            if stat(path, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG, access(path, X_OK) == 0 { return path }
        }
        return nil
    }

    /// What a program said and how it ended.
    struct Captured {
        /// The exit status, or a negative signal number.
        var status: Int32
        var stdout: [UInt8]
        var stderr: [UInt8]
        /// The last non-empty line of stderr: what a failing tool says last is usually why.
        /// The tool's last word on stderr, without the timestamp rclone puts
        /// first; a "caused by" line keeps the line it explains.
        var lastErrorLine: String {
            let lines = String(decoding: stderr, as: UTF8.self).split(separator: "\n").map(Captured.untimed).filter { !$0.isEmpty }
            guard let last = lines.last else { return "no message" }
            if last.hasPrefix("caused by"), lines.count > 1 { return lines[lines.count - 2] + " " + last }
            return last
        }

        /// "2026/11/30 23:08:33 ERROR : x" → "ERROR : x".
        static func untimed(_ line: Substring) -> String {
            let t = line.trimmingSpaces()
            let u = Array(t.utf8)
            let shape = Array("0000/00/00 00:00:00 ".utf8)
            guard u.count > shape.count, zip(u, shape).allSatisfy({ $1 == UInt8(ascii: "0") ? (48...57).contains($0) : $0 == $1 }) else { return t }
            return String(t.dropFirst(shape.count))
        }
    }

    /// Where relctl's temporary files go: TMPDIR, unless unset or empty, else /tmp.
    static func temporaryFolder(_ env: [String: String]) -> String {
        env["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
    }

    /// Runs `path` with `arguments`, stdin from `stdin` (a file; /dev/null
    /// by default), stdout and stderr captured through unlinked temporary
    /// files (no pipe to fill up and block on); nil when it could not start.
    /// With `limit`, stdout is read through a pipe instead, and past `limit`
    /// bytes the program is killed: what another party sends (a download) is
    /// bounded, and stdout then holds `limit + 1` bytes for the caller to refuse.
    static func capture(_ path: String, _ arguments: [String], env: [String: String], stdin: String = "/dev/null", limit: Int? = nil) -> Captured? {
        func temporary() -> Int32 {
            var template = Array((temporaryFolder(env) + "/relctl-spawn.XXXXXX").utf8CString)
            // Close-on-exec: the program gets it as its fd 1 or 2 (dup2), not again under this number.
            let fd = template.withUnsafeMutableBufferPointer { relctl_mkstemp_cloexec($0.baseAddress!) }
            if fd >= 0 { template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) } }
            return fd
        }
        var pipeEnds: [Int32] = [-1, -1]
        if limit != nil {
            // Neither end leaks into another program started meanwhile (close-on-exec from the start on
            // Linux); dup2 gives the child its own fd 1.
            guard relctl_pipe_cloexec(&pipeEnds) == 0 else { return nil }
        }
        let out = limit == nil ? temporary() : pipeEnds[1], err = temporary()
        // The pipe's write end is closed once the child holds it (below), the rest here.
        defer { if limit == nil && out >= 0 { close(out) }; if err >= 0 { close(err) }; if pipeEnds[0] >= 0 { close(pipeEnds[0]) } }
        guard out >= 0, err >= 0 else { if limit != nil { close(pipeEnds[1]) }; return nil }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, stdin, O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, out, 1)
        posix_spawn_file_actions_adddup2(&actions, err, 2)
        let argv = [path] + arguments
        var cArgs: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
        let envp: [String] = env.map { "\($0.key)=\($0.value)" }.sorted()
        var cEnv: [UnsafeMutablePointer<CChar>?] = envp.map { strdup($0) } + [nil]
        defer { cArgs.forEach { free($0) }; cEnv.forEach { free($0) } }
        // While stop signals are taken as a flag (StopSignals), one that comes is passed on, so a step of
        // rclone or curl ends now, whoever was signalled: to the program and to everything below it, found
        // before any of them is told (a wrapper that does not `exec` ends at once, and what it started would
        // be out of reach, uploading after relctl said it stopped). As subreaper, relctl is handed what
        // the program leaves behind, which is told too. The program stays in relctl's process group: a
        // terminal's Ctrl-C and Ctrl-Z, and a group's SIGKILL, reach it as they reach relctl, and what runs
        // under it can still ask the terminal (ssh's host key question).
        let passing = StopSignals.isTaken
        if passing { Spawn.becomeSubreaper() }
        // Children this process had already (others' in a test run in-process) are none of the program's.
        let known: Set<pid_t>? = passing ? Set(Spawn.descendants(of: getpid(), adoptedBut: nil)) : nil
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, path, &actions, nil, &cArgs, &cEnv) == 0
        if limit != nil && !spawned { close(pipeEnds[1]) }
        guard spawned else { return nil }
        func tree() -> [pid_t] { [pid] + Spawn.descendants(of: pid, adoptedBut: known) }
        var passed = 0, told = Set<pid_t>()
        func passOn() {
            let sig = StopSignals.pending
            guard passing, sig != 0 else { return }
            // Each stop that comes is passed to all of them; one found later (started since, or left behind) is told then.
            let arrived = StopSignals.arrivals.load(ordering: .sequentiallyConsistent), again = arrived != passed
            passed = arrived
            for p in tree() where again || !told.contains(p) {
                kill(p, sig)
                told.insert(p)
            }
        }
        // Waits until one of `fds` is readable (a negative one is passed over), a signal comes, or a moment
        // passes, then passes on a stop that came; which were readable. The program's end is its pidfd
        // (Linux 5.3 and later); without one, a short sleep between looks.
        let ends = passing ? relctl_pidfd_open(pid) : -1
        defer { if ends >= 0 { close(ends) } }
        @discardableResult
        func watch(_ fds: [Int32]) -> [Bool] {
            var watched = fds.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            let any = poll(&watched, nfds_t(watched.count), ends >= 0 ? 100 : 10) > 0
            passOn()
            return watched.map { any && $0.revents != 0 }
        }
        var piped: [UInt8] = []
        if let limit {
            // The write end is the child's alone now: the read sees its end of file.
            close(pipeEnds[1])
            var buffer = [UInt8](repeating: 0, count: 65536)
            var running = ends
            while true {
                if passing {
                    let ready = watch([pipeEnds[0], running])
                    if ready[1] {
                        // Ended, told to stop: what it left holding its output is not waited for.
                        if passed != 0 { break }
                        running = -1
                    }
                    // Read once there is something to read (or its end): a read would wait through a stop.
                    if !ready[0] { continue }
                }
                let n = buffer.withUnsafeMutableBytes { read(pipeEnds[0], $0.baseAddress, $0.count) }
                if n < 0 && errno == EINTR { continue }
                // A read that fails must not leave the program blocked on a full pipe while it is waited for.
                if n < 0 { for p in tree() { kill(p, SIGKILL) }; break }
                if n == 0 { break }
                piped += buffer[0..<n]
                if piped.count > limit { piped.removeLast(piped.count - limit - 1); for p in tree() { kill(p, SIGKILL) }; break }
            }
        }
        var status: Int32 = 0
        // Ended, and not yet reaped: its pid is no one else's until then, so no signal goes astray.
        var ended = siginfo_t()
        while true {
            if passing { passOn() }
            ended = siginfo_t()
            let r = waitid(P_PID, id_t(pid), &ended, WEXITED | WNOWAIT | (passing ? WNOHANG : 0))
            if r == 0 && (!passing || ended._sifields._sigchld.si_pid == pid) { break }
            if r < 0 && errno != EINTR { break }
            if passing { watch([ends]) }
        }
        while waitpid(pid, &status, 0) < 0 {
            if errno != EINTR { return nil }
        }
        func readAll(_ fd: Int32) -> [UInt8] {
            var bytes: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 65536)
            lseek(fd, 0, SEEK_SET)
            while true {
                let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { break }
                bytes += buffer[0..<n]
            }
            return bytes
        }
        let low = status & 0x7f
        return Captured(status: low == 0 ? (status >> 8) & 0xff : -low, stdout: limit == nil ? readAll(out) : piped, stderr: readAll(err))
    }
}
