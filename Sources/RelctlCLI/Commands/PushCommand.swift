import RelctlCore
import RelctlPublish
import RelctlStore

/// `relctl push`: a silent push telling a project's apps that a new
/// revision of its files exists, so that apps in the background fetch
/// control.json now rather than at their next poll. `deploy --push` sends
/// the same hint once the remote holds the files, when what users see changed.
enum PushCommand {
    static let discussion = "A push is a hint, never the channel: it says \"revision N of project P exists\" (relctlProject, relctlRevision and, from deploy, relctlSha256 of the control.json deployed), and the app fetches control.json itself (RelctlClient's handlePush). It goes to an FCM topic (HTTP v1, with an OAuth token from the service account; FCM reaches iOS too) and/or straight to APNs devices (HTTP/2, a provider token signed with the team's .p8 key), as a background push: content-available, apns-push-type background, priority 5, normal priority on Android; nothing is shown to users. At most \(Store.pushesPerHour) pushes per project in an hour (Apple's advice for background pushes), unless --urgent; each is in 'relctl log'. Tokens are reused between runs (a provider token up to 50 minutes, an access token until 5 minutes before it expires), kept in RELCTL_CACHE_DIR, else $XDG_CACHE_HOME/relctl, else ~/.cache/relctl, readable by the owner alone (one that cannot be kept is a warning: Apple refuses a provider token minted within 20 minutes of the last). Answers are handled as the services advise: an expired or revoked token is renewed once, a device APNs no longer knows (410) is named for removal (--json: staleTokens), 5xx is retried once. RELCTL_APNS_URL, RELCTL_FCM_URL and RELCTL_OAUTH_URL move the endpoints (a proxy, a local test server; curl trusts CURL_CA_BUNDLE or SSL_CERT_FILE)."

    static let command: RunnableCommand = RunnableCommand(
        "push", abstract: "Tell a project's apps, by a silent push, that new files exist, so apps in the background fetch control.json before their next poll.",
        discussion: discussion,
        options: PushSetup.options + [Option("dry-run", short: "n", help: "Print the exact requests (a bearer token's signature withheld), and send nothing.")],
        examples: [Example("relctl push --fcm-credentials sa.json", "Push to the FCM topic relctl-<project>, which the apps subscribe to."),
                   Example("relctl push --apns-key AuthKey_ABC123DEFG.p8 --apns-key-id ABC123DEFG --apns-team-id DEF123GHIJ --apns-tokens tokens.txt",
                           "Push straight to the devices in tokens.txt, to the bundle id of the project's iOS platform."),
                   Example("relctl push --dry-run --fcm-credentials sa.json", "Print the exact requests, and send nothing.")]
    ) { inv in
        guard let setup = try PushSetup.read(inv) else {
            throw RelctlError.usage("push names no service to send through",
                                    hint: "give --fcm-credentials FILE (or RELCTL_FCM_CREDENTIALS), or --apns-key, --apns-key-id, --apns-team-id and --apns-tokens")
        }
        let store = try inv.store(inv.dryRun ? .read : .write)
        let (project, platforms) = try store.read { () -> (ProjectRecord, [PlatformRecord]) in
            let p = try inv.project(in: store)
            return (p, try store.platforms(project: p.id))
        }
        let target = try setup.target(project, platforms: platforms)
        let sender = PushSender(setup: setup, curl: inv.dryRun ? nil : try Curl.find(inv.context.env), now: { inv.now }, dryRun: inv.dryRun)
        let outcome = try send(inv, store, sender, PushHint(project: project.slug, revision: inv.now, sha256: nil), target, why: "by hand")
        inv.render(outcome.json) { outcome.text }
        if let warning = sender.cacheWarning { inv.warn(warning) }
        if inv.dryRun, let n = outcome.heldBack { inv.info("it would be held back: \(project.slug) had \(n) push\(n == 1 ? "" : "es") in the last hour (at most \(Store.pushesPerHour); --urgent sends anyway)") }
        if let refusal = outcome.refusal { throw refusal }
    }

    /// What one project's push came to.
    struct Outcome {
        var hint: PushHint
        var target: PushSetup.Target
        var report = PushReport()
        /// The pushes of the last hour that held it back.
        var heldBack: Int?
        var dryRun = false

        var sent: Bool { heldBack == nil && report.delivered }
        /// Tried and not delivered to every service: owed to the next push.
        var failed: Bool { !dryRun && heldBack == nil && !report.delivered }

        var json: JSON {
            .fields([("project", .string(hint.project)), ("revision", .int(hint.revision)), ("sha256", .optional(hint.sha256)),
                     ("sent", .bool(sent)), ("dryRun", .bool(dryRun)), ("heldBack", heldBack.map { .int(Int64($0)) } ?? .null),
                     ("lines", .array(report.lines.map(JSON.string))), ("failures", .array(report.failures.map(JSON.string))),
                     ("staleTokens", .array(report.stale.map(JSON.string))),
                     ("refusedTokens", .object(report.refused.mapValues { .array($0.map(JSON.string)) })),
                     ("requests", .array(report.requests.map { r in .fields([("url", .string(r.url)), ("headers", .fields(r.shownHeaders.map { ($0.0, .string($0.1)) })),
                                                                             ("body", .string(r.shownBody ?? String(decoding: r.body, as: UTF8.self)))]) }))])
        }

        var text: String {
            if dryRun { return report.requests.map(\.shown).joined(separator: "\n") }
            return report.lines.map { "\(hint.project): \($0)\n" }.joined()
        }

        /// Why the command fails: held back, or no service took it.
        var refusal: RelctlError? {
            if let n = heldBack, !dryRun {
                return .failure("\(hint.project) had \(n) push\(n == 1 ? "" : "es") in the last hour (at most \(Store.pushesPerHour): Apple throttles background pushes sent more often); nothing was sent",
                                hint: "apps fetch the files at their next poll (15 minutes at most); to send anyway add --urgent")
            }
            guard !dryRun, !report.delivered else { return nil }
            return .failure("the push to \(hint.project) was not " + (report.reachedAny ? "sent to all: " : "sent: ") + (report.failures.first ?? "no service took it"),
                            hint: "fix the cause and push again: relctl push -p \(hint.project) (with the same options)")
        }
    }

    /// Sends one project's hint within the hourly limit, logged before it is
    /// sent (so two runs at once cannot both take the last turn), and logged
    /// again when no service took it (which gives the turn back).
    static func send(_ inv: Invocation, _ store: Store, _ sender: PushSender, _ hint: PushHint, _ target: PushSetup.Target, why: String) throws -> Outcome {
        var outcome = Outcome(hint: hint, target: target, dryRun: inv.dryRun)
        // Logged before it is sent: "sending to", and a "push failed" row follows when no service took it.
        let action = "push \(hint.project) revision \(hint.revision) (\(why)): sending to \(target.words)" + (sender.setup.urgent ? ", urgent" : "")
        // Both rows at the push's instant: a failure logged later would outlast its push in the hour's count.
        let at = inv.now
        if inv.dryRun {
            let recent = try store.read { try store.recentPushes(project: hint.project, now: at) }
            if !sender.setup.urgent && recent >= Store.pushesPerHour { outcome.heldBack = recent }
        } else {
            outcome.heldBack = try store.logPush(project: hint.project, action, urgent: sender.setup.urgent, now: at)
        }
        // A dry run shows the requests all the same.
        guard outcome.heldBack == nil || inv.dryRun else { return outcome }
        func failed(_ why: String) throws {
            try store.logPushFailed(project: hint.project, "push \(hint.project) revision \(hint.revision) failed: " + why, now: at)
        }
        outcome.report = sender.send(hint, to: target)
        // Reached nobody: the hour's turn is given back (a push that reached some devices spent it).
        if !inv.dryRun && !outcome.report.reachedAny { try failed(outcome.report.failures.first ?? "no service took it") }
        return outcome
    }
}
