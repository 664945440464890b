#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs a shell command and waits for it (`publish --watch --exec`).
enum Spawn {
    /// The exit status, or a negative signal number; nil when it could not start.
    static func shell(_ command: String, arguments: [String], env: [String: String]) -> Int32? {
        let argv = ["/bin/sh", "-c", command, "relctl-exec"] + arguments
        let envp = env.map { "\($0.key)=\($0.value)" }.sorted()
        var cArgs: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
        var cEnv: [UnsafeMutablePointer<CChar>?] = envp.map { strdup($0) } + [nil]
        defer { cArgs.forEach { free($0) }; cEnv.forEach { free($0) } }
        var pid: pid_t = 0
        guard posix_spawn(&pid, "/bin/sh", nil, nil, &cArgs, &cEnv) == 0 else { return nil }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            if errno != EINTR { return nil }
        }
        let low = status & 0x7f
        return low == 0 ? (status >> 8) & 0xff : -low
    }
}
