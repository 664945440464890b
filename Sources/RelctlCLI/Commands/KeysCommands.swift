import RelctlCore
import RelctlPublish
import RelctlStore

/// `relctl keys`: the Ed25519 keys a project's files are signed with. The
/// database holds only public keys; a private key stays in its PEM file,
/// handed to publish with --signing-key.
enum KeysCommands {
    static let key = Argument("KEY", help: "A public key (base64 of 32 bytes, as keys generate prints it) or, to retire, its key id.")

    static let command: RunnableCommand = RunnableCommand(
        "keys", abstract: "Make and trust the keys that sign the project's files.",
        discussion: "A project that trusts keys is published signed: its control.json carries its exact bytes and their Ed25519 signature, with the project, a revision that never goes backwards and an expiry, and its appcasts carry Sparkle's signed-feed block. Apps pin the public keys (an active one and an offline backup) and ignore what fails to verify; publish refuses to write such a project's files unsigned.",
        subcommands: [generate, trust, list, retire],
        examples: [Example("relctl keys generate signing.pem", "Make a key pair; the private key stays in signing.pem."),
                   Example("relctl keys trust BASE64KEY --yes", "Sign the project's files from now on, with that key or another trusted one.")]
    )

    static let generate: RunnableCommand = RunnableCommand(
        "generate", abstract: "Make an Ed25519 key pair: the private key into FILE, the public key printed.",
        discussion: "FILE is written as an unencrypted PKCS#8 PEM file readable by its owner alone (mode 0600), and never overwritten. Keep it out of git and of the database: publish reads it with --signing-key FILE or RELCTL_SIGNING_KEY. The public key printed is what apps pin (ReleaseControl's trustedKeys, Sparkle's SUPublicEDKey) and what 'relctl keys trust' takes.",
        arguments: [Argument("FILE", help: "Where to write the private key; must not exist.", completion: .file)],
        examples: [Example("relctl keys generate ~/keys/shop-2026.pem", "Make the active key; make a backup the same way and keep it offline.")]
    ) { inv in
        let key = try SigningKey.generate(inv.arg("FILE")!)
        inv.render(.object(["file": .string(key.path), "publicKey": .string(key.publicKeyText), "keyId": .string(key.keyID)])) {
            "\(key.publicKeyText)\n"
        }
        inv.info("wrote the private key \(key.path) (mode 0600; keep it secret, out of git); key id \(key.keyID)")
        inv.info("next: 'relctl keys trust \(key.publicKeyText)', and pin the key in the app")
    }

    static func publicKey(_ text: String) throws -> String {
        guard Ed25519.publicKey(text) != nil else {
            throw RelctlError.usage("'\(text)' is not an Ed25519 public key", hint: "give the base64 line keys generate printed (44 characters ending in '=')")
        }
        return text
    }

    static let trust: RunnableCommand = RunnableCommand(
        "trust", abstract: "Trust a public key: the project's files are published signed by a trusted key.",
        discussion: "Trust the active key and an offline backup before apps ship with both pinned. Once a project trusts a key, publish needs a trusted private key (--signing-key) and refuses to write its files unsigned.",
        arguments: [key],
        options: [Shared.dryRun, Shared.yes],
        examples: [Example("relctl keys trust ebVWLo/mVPlAeLES6KmLp5AfhTrmlb7X4OORC60ElmQ= --yes", "Trust a key for the project.")]
    ) { inv in
        let text = try publicKey(inv.arg("KEY")!)
        let store = try inv.store()
        let project = try inv.project(in: store)
        try inv.write(store, project, asking: "trusting key \(Ed25519.keyID(Ed25519.publicKey(text)!))") {
            try $0.trustKey(text, project: project.slug, now: inv.now)
        }
        inv.info("project \(project.slug) trusts key \(Ed25519.keyID(Ed25519.publicKey(text)!)): publish signs its files from now on")
        try inv.printWritten { try listed(store, project.slug) }
    }

    static let retire: RunnableCommand = RunnableCommand(
        "retire", abstract: "Stop trusting a key: publish no longer signs with it.",
        discussion: "Retire a key once every app in use pins its successor (see the README's rotation). Retiring the last key publishes the project unsigned again, which apps that pin keys refuse: that needs --unsigned.",
        arguments: [key],
        options: [Option("unsigned", help: "Retire the last key and publish the project unsigned from now on."), Shared.dryRun, Shared.yes],
        examples: [Example("relctl keys retire 3f9a1c0b7d2e4f68 --yes", "Stop signing with the key of id 3f9a1c0b7d2e4f68.")]
    ) { inv in
        let given = inv.arg("KEY")!
        guard Ed25519.publicKey(given) != nil || SignedDocument.isKeyID(given) else {
            throw RelctlError.usage("'\(given)' is neither a public key nor a key id", hint: "give a key or its id as 'relctl keys list' shows them")
        }
        let store = try inv.store()
        let project = try inv.project(in: store)
        try inv.write(store, project, asking: "retiring key \(given)") {
            try $0.retireKey(given, project: project.slug, allowingUnsigned: inv.flag("unsigned"), now: inv.now)
        }
        inv.info("project \(project.slug) no longer trusts key \(given)")
        try inv.printWritten { try listed(store, project.slug) }
    }

    static func json(_ p: ProjectRecord) -> JSON {
        .object(["project": .string(p.slug), "keys": .array(p.trustedKeys.map { key in
            .object(["publicKey": .string(key), "keyId": .string(Ed25519.keyID(Ed25519.publicKey(key)!))])
        })])
    }

    static func listed(_ store: Store, _ slug: String) throws -> JSON {
        try store.read { json(try store.requireProject(slug)) }
    }

    static let list: RunnableCommand = RunnableCommand(
        "list", abstract: "List the keys the project trusts.",
        examples: [Example("relctl keys list --json", "The trusted keys as JSON.")]
    ) { inv in
        let store = try inv.store(.read)
        let p = try inv.project(in: store)
        inv.render(json(p)) {
            Table.render(["KEY ID", "PUBLIC KEY"], p.trustedKeys.map { [Ed25519.keyID(Ed25519.publicKey($0)!), $0] })
        }
        if p.trustedKeys.isEmpty { inv.info("project \(p.slug) trusts no key: its files are published unsigned; make one with 'relctl keys generate FILE'") }
    }
}
