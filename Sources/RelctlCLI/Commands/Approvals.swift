#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CSystem
import RelctlCore
import RelctlPublish
import RelctlStore

/// A two-person rule without a server: an approval is an OpenSSH signature
/// (`ssh-keygen -Y sign`, namespace `relctl-approve`) of a plan's token,
/// which names the file and every row it changes as it was before
/// (ConfigCommands.expectToken): an edit to the file or a change to the
/// database after the approval makes another token, and the approval
/// approves nothing. Signatures are files in a folder beside the
/// configuration file (FILE.approvals), kept in git; who may approve is an
/// allowed-signers file (ssh-keygen(1), ALLOWED SIGNERS) in the repository.
enum Approvals {
    static let namespace = "relctl-approve"
    /// The most signatures of one plan read: far above any team's approvers.
    static let maximumSignatures = 100

    /// What is signed: the plan, by its token.
    static func message(_ token: String) -> [UInt8] { Array("relctl-approve plan \(token)\n".utf8) }

    /// The folder of a configuration file's approvals.
    static func folder(_ file: String, given: String?) -> String { given ?? file + ".approvals" }

    /// A signature's file: the token, then a digest of the signature (one file per signer).
    static func name(_ token: String, _ signature: [UInt8]) -> String { "\(token).\(SHA256.hex(signature).prefix(16)).sig" }

    static func sshKeygen(_ inv: Invocation) throws -> String {
        guard let path = Spawn.find("ssh-keygen", env: inv.context.env) else {
            throw RelctlError.failure("approvals need ssh-keygen, which is not on PATH", hint: "install OpenSSH's client (apt-get install openssh-client)")
        }
        return path
    }

    /// Signs the plan `token` with `key` (a private key file; a key with a passphrase needs ssh-agent).
    static func sign(_ inv: Invocation, token: String, key: String) throws -> [UInt8] {
        let tool = try sshKeygen(inv)
        let signed = try withMessage(inv, token) { message in Spawn.capture(tool, ["-Y", "sign", "-f", key, "-n", namespace], env: inv.context.env, stdin: message) }
        guard let signed, signed.status == 0, !signed.stdout.isEmpty else {
            throw RelctlError.failure("ssh-keygen could not sign with \(key): \(signed?.lastErrorLine ?? "it did not start")",
                                      hint: "give a private key file with --key (a key with a passphrase needs ssh-agent)")
        }
        return signed.stdout
    }

    /// The distinct principals of `signers` whose signature in `folder` approves `token`, and why each other signature of it does not.
    static func principals(_ inv: Invocation, token: String, folder: String, signers: String) throws -> (approved: [String], refused: [String]) {
        let tool = try sshKeygen(inv)
        guard FileSystem.kind(of: signers) == .file else {
            throw RelctlError.failure("no allowed-signers file at \(signers)", hint: "give the file that lists who may approve (ssh-keygen(1), ALLOWED SIGNERS) with --allowed-signers")
        }
        var names: [String] = []
        if let dir = opendir(folder) {
            defer { closedir(dir) }
            while let entry = readdir(dir) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
                if name.hasPrefix(token + "."), name.hasSuffix(".sig") { names.append(name) }
            }
        }
        // The folder comes from a repository anyone may push to: bounded.
        guard names.count <= maximumSignatures else {
            throw RelctlError.failure("\(folder) holds \(names.count) signatures of the plan \(token), more than the \(maximumSignatures) relctl reads", hint: "remove the signatures that are no approver's")
        }
        var approved: [String] = [], refused: [String] = []
        try withMessage(inv, token) { message in
            for name in names.sorted() {
                let sig = folder + "/" + name
                // The signature's key, among the allowed signers: its principal (the first, when several share one key).
                guard let found = Spawn.capture(tool, ["-Y", "find-principals", "-s", sig, "-f", signers], env: inv.context.env), found.status == 0,
                      let principal = String(decoding: found.stdout, as: UTF8.self).split(separator: "\n").first.map(String.init) else {
                    refused.append("\(name): its key is no allowed signer's"); continue
                }
                guard let verified = Spawn.capture(tool, ["-Y", "verify", "-f", signers, "-I", principal, "-n", namespace, "-s", sig], env: inv.context.env, stdin: message),
                      verified.status == 0 else {
                    refused.append("\(name): not a \(namespace) signature of this plan by \(principal)"); continue
                }
                if !approved.contains(principal) { approved.append(principal) }
            }
        }
        return (approved, refused)
    }

    /// Runs `body` with the path of a temporary file holding the message of `token`.
    static func withMessage<T>(_ inv: Invocation, _ token: String, _ body: (String) throws -> T) throws -> T {
        var template = Array((Spawn.temporaryFolder(inv.context.env) + "/relctl-approve.XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { relctl_mkstemp_cloexec($0.baseAddress!) }
        guard fd >= 0 else { throw RelctlError.failure("cannot make a temporary file: \(String(cString: strerror(errno)))", hint: "check TMPDIR") }
        let path = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        defer { close(fd); unlink(path) }
        let bytes = message(token)
        guard bytes.withUnsafeBytes({ write(fd, $0.baseAddress, $0.count) }) == bytes.count else {
            throw RelctlError.failure("cannot write a temporary file: \(String(cString: strerror(errno)))", hint: "check TMPDIR")
        }
        return try body(path)
    }

    /// Warns of each break-glass apply still short of its approvals (status, verify, until they are added).
    static func warnOwed(_ inv: Invocation, _ store: Store) throws {
        for b in try store.breakGlasses() {
            let found = try? principals(inv, token: b.token, folder: b.approvals, signers: b.signers).approved.count
            if let found, found >= b.required { continue }
            inv.warn("the plan \(b.token) was applied with break-glass by \(b.user) \(inv.people(b.at)) (\(b.reason)) and has \(found.map(String.init) ?? "unknown (\(b.signers) or ssh-keygen missing)") of its \(b.required) approvals: approve it with 'relctl approve FILE --token \(b.token) --key KEY --approvals \(b.approvals)'")
        }
    }
}
