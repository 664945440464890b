#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import RelctlCore
import RelctlPublish

/// `relctl approve FILE --key KEY`: an approval of exactly one plan
/// (Approvals), for `apply --require-approvals`.
enum ApproveCommand {
    static let key = Option("key", value: "FILE", help: "Your SSH private key to sign with (a key with a passphrase needs ssh-agent).", completion: .file)
    static let approvals = Option("approvals", value: "DIR", help: "The folder of the file's approvals (default FILE.approvals beside the file).", completion: .file)

    static let command: RunnableCommand = RunnableCommand(
        "approve", abstract: "Approve the plan of a configuration file with your SSH key.",
        discussion: "Plans FILE against the database as 'relctl plan' does and signs the plan's token with your SSH key (ssh-keygen -Y sign, namespace relctl-approve), into FILE.approvals/ beside the file: commit it with the file. 'relctl apply FILE --require-approvals N --allowed-signers SIGNERS' counts the distinct signers of SIGNERS who approved that exact plan; an edit to the file or a change to the database after an approval voids it. With --token, signs a token already known: to approve afterwards a plan applied with --break-glass.",
        arguments: [ConfigCommands.file],
        options: [key, approvals, Option("token", value: "TOKEN", help: "Approve this plan token (from plan, or a break-glass apply) instead of planning FILE now."),
                  ConfigCommands.endActive],
        examples: [Example("relctl approve shop.relctl.json --key ~/.ssh/id_ed25519", "Approve the plan of shop.relctl.json as it stands, then commit shop.relctl.json.approvals/.")]
    ) { inv in
        guard let keyPath = inv.value("key") else {
            throw RelctlError.usage("approve needs --key", hint: "give your SSH private key, like --key ~/.ssh/id_ed25519")
        }
        let path = inv.arg("FILE")!
        let token: String
        if let given = inv.value("token") {
            guard given.utf8.count == 16, given.utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) }) else {
                throw RelctlError.usage("invalid --token '\(given)'", hint: "give the 16 hex digits plan prints after --expect")
            }
            token = given
        } else {
            let file = try ConfigCommands.read(inv)
            let (_, _, plans) = try ConfigCommands.plannedWithToken(inv, file)
            token = plans()
        }
        let signature = try Approvals.sign(inv, token: token, key: keyPath)
        let folder = Approvals.folder(path, given: inv.value("approvals"))
        if mkdir(folder, 0o755) != 0 && errno != EEXIST {
            throw RelctlError.failure("cannot make the folder \(folder): \(String(cString: strerror(errno)))", hint: "give another with --approvals DIR")
        }
        let file = folder + "/" + Approvals.name(token, signature)
        try FileSystem.writeFile(file, signature)
        inv.render(.object(["token": .string(token), "signature": .string(file)])) { "" }
        inv.info("approved the plan \(token) of \(path): \(file) (commit it with the file)")
    }
}
