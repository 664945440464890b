#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import RelctlCore
import RelctlPublish

/// Where pushes go and with which credentials: options or the environment,
/// never the database. `{project}` in a topic or a tokens file's name is the
/// project's slug, so one deploy of many projects reaches each one's apps.
struct PushSetup {
    var apns: APNsCredentials?
    var apnsTopic: String?
    var apnsTokens: String?
    var apnsBase: String
    var fcm: ServiceAccount?
    var fcmTopic: String
    var fcmBase: String
    var oauthURL: String?
    var cache: TokenCache?
    var urgent: Bool

    static let apnsProduction = "https://api.push.apple.com", apnsSandbox = "https://api.sandbox.push.apple.com"
    static let fcmProduction = "https://fcm.googleapis.com"
    /// The topic apps subscribe to when none is given (FirebaseMessaging's subscribe(toTopic:)).
    static let defaultTopic = "relctl-{project}"

    static let options: [Option] = [
        Option("apns-key", value: "FILE", help: "The APNs key (.p8) that signs the provider tokens.", env: "RELCTL_APNS_KEY", completion: .file),
        Option("apns-key-id", value: "ID", help: "The APNs key's id (ten characters).", env: "RELCTL_APNS_KEY_ID"),
        Option("apns-team-id", value: "ID", help: "The Apple developer team's id.", env: "RELCTL_APNS_TEAM_ID"),
        Option("apns-topic", value: "BUNDLE", help: "The app's bundle id; default: the bundle id of the project's Apple platform.", env: "RELCTL_APNS_TOPIC"),
        Option("apns-tokens", value: "FILE", help: "The app's device tokens, one (hex) per line; {project} in the name is the project's slug.", env: "RELCTL_APNS_TOKENS", completion: .file),
        Option("apns-sandbox", help: "Send to APNs' development environment (apps built for debugging)."),
        Option("fcm-credentials", value: "FILE", help: "A Firebase service account's JSON key file.", env: "RELCTL_FCM_CREDENTIALS", completion: .file),
        Option("fcm-topic", value: "TOPIC", help: "The FCM topic the apps subscribe to; {project} is the project's slug.", env: "RELCTL_FCM_TOPIC", defaultValue: defaultTopic),
        Option("urgent", help: "Send even when the project had two pushes in the last hour (Apple: no more than two or three an hour)."),
    ]

    /// The setup the options and environment give; nil when they name no service.
    static func read(_ inv: Invocation) throws -> PushSetup? {
        // Any of the APNs options says APNs is meant: what it lacks is then said.
        let apnsGiven = ["apns-key", "apns-key-id", "apns-team-id", "apns-tokens", "apns-topic"].filter { inv.value($0) != nil } + (inv.flag("apns-sandbox") ? ["apns-sandbox"] : [])
        guard !apnsGiven.isEmpty || inv.value("fcm-credentials") != nil else { return nil }
        var setup = PushSetup(apnsBase: try url(inv, "RELCTL_APNS_URL") ?? (inv.flag("apns-sandbox") ? apnsSandbox : apnsProduction),
                              fcmTopic: inv.value("fcm-topic") ?? defaultTopic, fcmBase: try url(inv, "RELCTL_FCM_URL") ?? fcmProduction,
                              oauthURL: try url(inv, "RELCTL_OAUTH_URL"), cache: TokenCache.locate(inv.context.env), urgent: inv.flag("urgent"))
        if !apnsGiven.isEmpty {
            guard let key = inv.value("apns-key"), let id = inv.value("apns-key-id"), let team = inv.value("apns-team-id") else {
                let missing = ["apns-key", "apns-key-id", "apns-team-id"].filter { inv.value($0) == nil }
                let variables = missing.compactMap { inv.option($0)?.env }
                throw RelctlError.usage("APNs needs its key, key id and team id: \(missing.map { "--" + $0 }.joined(separator: " and ")) not given",
                                        hint: "give \(missing.map { "--" + $0 }.joined(separator: ", ")) (or \(variables.joined(separator: ", ")))")
            }
            guard let tokens = inv.value("apns-tokens") else {
                throw RelctlError.usage("APNs sends to devices, and no --apns-tokens FILE names them",
                                        hint: "give the app's device tokens, one per line, with --apns-tokens FILE (or RELCTL_APNS_TOKENS); to reach every install without them, use an FCM topic")
            }
            setup.apns = try APNsCredentials.read(keyFile: key, keyID: id, teamID: team)
            setup.apnsTopic = inv.value("apns-topic")
            setup.apnsTokens = tokens
        }
        if let file = inv.value("fcm-credentials") { setup.fcm = try ServiceAccount.read(file) }
        return setup
    }

    /// An endpoint the environment moves (to a local server, a proxy): http(s), no query, nothing curl's config would read otherwise.
    static func url(_ inv: Invocation, _ name: String) throws -> String? {
        guard let u = inv.context.env[name], !u.isEmpty else { return nil }
        guard u.hasPrefix("https://") || u.hasPrefix("http://"), !u.contains("?"),
              !u.contains(where: { $0 == " " || $0 == "\"" || $0 == "\\" || $0.asciiValue.map { $0 < 32 } ?? false }) else {
            throw RelctlError.usage("\(name) '\(u)' is not an http(s) URL without a query", hint: "set it to a base like https://127.0.0.1:8443, or unset it")
        }
        return u.hasSuffix("/") ? String(u.dropLast()) : u
    }

    /// Where one project's push goes.
    struct Target {
        var project: String
        var apnsTopic: String?
        var tokens: [String] = []
        var fcmTopic: String?
        /// Why a service configured does not reach it (deploy: APNs for a project without a tokens file).
        var skipped: String?
        var reachesNobody: Bool { fcmTopic == nil && apnsTopic == nil }
        /// Which services it reaches, in a few words (for the log and the output).
        var words: String {
            var out: [String] = []
            if let t = fcmTopic { out.append("fcm topic \(t)") }
            if let t = apnsTopic { out.append("apns \(t) (\(tokens.count) device\(tokens.count == 1 ? "" : "s"))") }
            return out.joined(separator: ", ")
        }
    }

    /// `lenient`: a project APNs cannot reach (no bundle id to send to, no tokens file of its
    /// own) is left to FCM, said in `skipped`, instead of refusing the whole run (deploy's many projects).
    func target(_ project: ProjectRecord, platforms: [PlatformRecord], lenient: Bool = false) throws -> Target {
        var t = Target(project: project.slug)
        if fcm != nil {
            // Firebase's legacy spelling "/topics/NAME" names the same topic.
            var topic = fcmTopic.replacingProject(project.slug)
            if topic.hasPrefix("/topics/") { topic.removeFirst("/topics/".count) }
            guard (1...900).contains(topic.utf8.count),
                  topic.utf8.allSatisfy({ ($0 >= 48 && $0 <= 57) || ($0 >= 65 && $0 <= 90) || ($0 >= 97 && $0 <= 122) || [45, 95, 46, 126, 37].contains($0) }) else {
                throw RelctlError.usage("--fcm-topic '\(topic)' is not an FCM topic name (letters, digits and -_.~%)", hint: "give a topic such as \(PushSetup.defaultTopic)")
            }
            t.fcmTopic = topic
        }
        if apns != nil, let tokensFile = apnsTokens {
            let bundles = Set(platforms.filter(\.isApple).compactMap(\.bundleID))
            let file = tokensFile.replacingProject(project.slug)
            if lenient, apnsTopic == nil && bundles.count != 1 || FileSystem.kind(of: file) == .missing {
                t.skipped = "no APNs push: " + (FileSystem.kind(of: file) == .missing ? "no tokens file \(file)" : "no one bundle id of an Apple platform to send to")
                return t
            }
            guard let topic = apnsTopic.map({ $0.replacingProject(project.slug) }) ?? (bundles.count == 1 ? bundles.first : nil) else {
                let why = !platforms.contains(where: \.isApple) ? "it has no Apple platform" : bundles.isEmpty ? "its Apple platforms name no bundle id"
                    : "its Apple platforms name several bundle ids (\(bundles.sorted().joined(separator: ", ")))"
                throw RelctlError.usage("no APNs topic for \(project.slug): " + why,
                                        hint: "give the app's bundle id with --apns-topic BUNDLE (or RELCTL_APNS_TOPIC)")
            }
            guard (1...255).contains(topic.utf8.count), topic.utf8.allSatisfy({ ($0 >= 48 && $0 <= 57) || ($0 >= 65 && $0 <= 90) || ($0 >= 97 && $0 <= 122) || $0 == 45 || $0 == 46 }) else {
                throw RelctlError.usage("--apns-topic '\(topic)' is not a bundle id", hint: "give the app's bundle id, like com.example.shop")
            }
            t.apnsTopic = topic
            t.tokens = try PushSetup.tokens(file)
        }
        return t
    }

    static let maximumTokens = 100_000

    /// Device tokens, one per line (blank lines and # comments aside): hex, as the app's
    /// didRegisterForRemoteNotificationsWithDeviceToken gives them written out.
    static func tokens(_ file: String) throws -> [String] {
        let bytes: [UInt8]
        do { bytes = try FileSystem.readFile(file, limit: 32 << 20) } catch let e as PublishError {
            throw RelctlError.failure("cannot read the device tokens: \(e.message)", hint: "give a file of the app's device tokens, one per line, with --apns-tokens FILE")
        }
        var out: [String] = [], seen = Set<String>()
        for (n, line) in String(decoding: bytes, as: UTF8.self).split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }).enumerated() {
            // CRLF files too: a "\r\n" is one Character, so the split is on both.
            let token = line.trimmingSpaces().lowercased()
            if token.isEmpty || token.hasPrefix("#") { continue }
            guard token.utf8.count % 2 == 0, (64...200).contains(token.utf8.count), token.utf8.allSatisfy({ ($0 >= 48 && $0 <= 57) || ($0 >= 97 && $0 <= 102) }) else {
                throw RelctlError.failure("\(file):\(n + 1) is not a device token (64 to 200 hex digits)", hint: "write each token as hex, one per line (# starts a comment)")
            }
            if seen.insert(token).inserted { out.append(token) }
            guard out.count <= maximumTokens else {
                throw RelctlError.failure("\(file) holds more than \(maximumTokens) device tokens", hint: "reach that many installs through an FCM topic (--fcm-credentials, --fcm-topic)")
            }
        }
        guard !out.isEmpty else { throw RelctlError.failure("\(file) holds no device token", hint: "write the app's device tokens, one per line") }
        return out
    }
}

extension String {
    func replacingProject(_ slug: String) -> String { replacing("{project}", with: slug) }
}

/// What one push did, per service, in words.
struct PushReport {
    var lines: [String] = []
    /// Some service took it (some devices may have it): the hour's turn is spent.
    var reachedAny = false
    /// No service given failed: none owes it to anybody.
    var delivered: Bool { reachedAny && failures.isEmpty }
    var failures: [String] = []
    /// Device tokens APNs no longer knows (410): the app team removes them.
    var stale: [String] = []
    /// Devices APNs refused one by one (BadDeviceToken, DeviceTokenNotForTopic, TooManyRequests), by reason:
    /// said and listed, but no failure of the push when others got it (a tokens file always holds a few).
    var refused: [String: [String]] = [:]
    /// The requests, for --dry-run.
    var requests: [HTTPRequest] = []
}

/// Sends hints: mints and reuses tokens within Apple's and Google's rules,
/// and handles each answer as the services advise.
final class PushSender {
    let setup: PushSetup
    let curl: Curl?
    let now: () -> Int64
    let dryRun: Bool
    /// Said once when a token could not be kept between runs (Apple refuses one minted anew within 20 minutes).
    private(set) var cacheWarning: String?
    /// Tokens of this run: each minted at most once, unless refused.
    private var apnsJWT: (token: String, minted: Bool)?
    private var fcmAccess: (token: String, minted: Bool)?

    init(setup: PushSetup, curl: Curl?, now: @escaping () -> Int64, dryRun: Bool) {
        self.setup = setup; self.curl = curl; self.now = now; self.dryRun = dryRun
    }

    /// Sends to each service given; what one service could not do (a folder for the requests, a
    /// token to sign) is that service's failure, not the end of what the other one did.
    func send(_ hint: PushHint, to target: PushSetup.Target) -> PushReport {
        var report = PushReport()
        if let topic = target.fcmTopic, let account = setup.fcm {
            do { try sendFCM(hint, topic: topic, account, into: &report) } catch { report.failures.append("fcm: " + RelctlError.from(error).message) }
        }
        if let topic = target.apnsTopic, let creds = setup.apns {
            do { try sendAPNs(hint, topic: topic, tokens: target.tokens, creds, into: &report) } catch { report.failures.append("apns: " + RelctlError.from(error).message) }
        }
        return report
    }

    private func kept(_ written: Bool?) {
        guard written != true, cacheWarning == nil else { return }
        cacheWarning = "tokens cannot be kept between runs " + (setup.cache.map { "in \($0.dir) (not writable)" } ?? "(no RELCTL_CACHE_DIR, XDG_CACHE_HOME or HOME)")
            + ": the next run mints new ones, and Apple refuses a provider token minted within 20 minutes of the last; set RELCTL_CACHE_DIR to a folder kept between runs"
    }

    // MARK: APNs

    /// The provider token: this run's, else the cached one while under 50 minutes old, else a new one.
    private func apnsToken(_ creds: APNsCredentials, renew: Bool) throws -> (token: String, minted: Bool) {
        if !renew, let t = apnsJWT { return t }
        let t = now()
        // Under the cache's lock: two deploys at once mint one token between them, not two.
        let made = try TokenCache.locked(setup.cache) { () throws -> (String, Bool) in
            if !renew, let cached = setup.cache?.read(creds.cacheName), cached.at <= t + 60, t - cached.at < 50 * 60 { return (cached.token, false) }
            let token = try creds.token(issuedAt: t)
            if !dryRun { kept(setup.cache?.write(creds.cacheName, at: t, token: token)) }
            return (token, true)
        }
        apnsJWT = made
        return made
    }

    private func apnsRequests(_ hint: PushHint, topic: String, tokens: [String], jwt: String) -> [HTTPRequest] {
        let expiration = String(now() + PushHint.lifetime)
        return tokens.map { device in
            let headers = [("authorization", "bearer \(jwt)"), ("apns-topic", topic), ("apns-push-type", "background"),
                           ("apns-priority", "5"), ("apns-expiration", expiration), ("apns-collapse-id", hint.collapseID), ("content-type", "application/json")]
            var shown = headers
            shown[0].1 = "bearer " + PushSender.withheld(jwt)
            return HTTPRequest(url: "\(setup.apnsBase)/3/device/\(device)", headers: headers, body: hint.apnsBody, shownHeaders: shown)
        }
    }

    /// Devices asked at a time (a first few, to learn quickly whether APNs answers at all), and how
    /// long a push may take before the rest is given up: each request is given its share of what is left.
    static let firstBatch = 20, batch = 1000, patience: Int64 = 300

    private func sendAPNs(_ hint: PushHint, topic: String, tokens: [String], _ creds: APNsCredentials, into report: inout PushReport) throws {
        var jwt = try apnsToken(creds, renew: false)
        guard !dryRun, let curl else { report.requests += apnsRequests(hint, topic: topic, tokens: tokens, jwt: jwt.token); return }
        let started = now()
        var answers: [HTTPResponse] = []
        // curl asks 20 at a time: a batch takes rounds of the longest request.
        func seconds(_ count: Int) -> Int64 { min(20, max(2, (PushSender.patience - (now() - started)) / Int64((count + 19) / 20))) }
        while answers.count < tokens.count {
            let devices = Array(tokens[answers.count..<min(tokens.count, answers.count + (answers.isEmpty ? PushSender.firstBatch : PushSender.batch))])
            var got = try curl.send(apnsRequests(hint, topic: topic, tokens: devices, jwt: jwt.token), maxTime: seconds(devices.count))
            // A cached token Apple no longer takes (expired, or made with a key since replaced): one new token, one retry.
            let refused = got.indices.filter { got[$0].status == 403 && ["ExpiredProviderToken", "InvalidProviderToken"].contains(got[$0].field("reason") ?? "") }
            if !refused.isEmpty && !jwt.minted {
                setup.cache?.remove(creds.cacheName)
                jwt = try apnsToken(creds, renew: true)
                let again = try curl.send(apnsRequests(hint, topic: topic, tokens: refused.map { devices[$0] }, jwt: jwt.token), maxTime: seconds(refused.count))
                for (i, answer) in zip(refused, again) { got[i] = answer }
            }
            // Apple's servers overloaded: once more, a second later (not when nothing answered at all).
            let unanswered = got.indices.filter { got[$0].status == 0 || got[$0].status >= 500 }
            if !unanswered.isEmpty && !got.allSatisfy({ $0.status == 0 }) && now() - started < PushSender.patience {
                sleep(1)
                let again = try curl.send(apnsRequests(hint, topic: topic, tokens: unanswered.map { devices[$0] }, jwt: jwt.token), maxTime: seconds(unanswered.count))
                for (i, answer) in zip(unanswered, again) { got[i] = answer }
            }
            answers += got
            // Nobody answering, or out of time: the rest is not sent, and said so.
            let silent = got.allSatisfy { $0.status == 0 }
            if answers.count < tokens.count && (silent || now() - started > PushSender.patience) {
                let why = silent ? "not sent: APNs did not answer the devices before them" : "not sent: the push took more than \(PushSender.patience / 60) minutes"
                answers += Array(repeating: HTTPResponse(status: 0, error: why), count: tokens.count - answers.count)
            }
        }
        var sent = 0, failed: [String: Int] = [:]
        for (i, a) in answers.enumerated() {
            switch (a.status, a.field("reason")) {
            case (200, _): sent += 1
            // Only 410 says the app is gone from the device; BadDeviceToken is as often a token of the other environment.
            case (410, _): report.stale.append(tokens[i])
            case (400, let r?) where r == "BadDeviceToken" || r == "DeviceTokenNotForTopic": report.refused[r, default: []].append(tokens[i])
            case (429, "TooManyRequests"?): report.refused["TooManyRequests", default: []].append(tokens[i])
            default: failed[a.why, default: 0] += 1
            }
        }
        report.reachedAny = report.reachedAny || sent > 0
        var line = "apns \(topic): sent to \(sent) of \(tokens.count) device\(tokens.count == 1 ? "" : "s")"
        if !report.stale.isEmpty {
            line += "; \(report.stale.count) token\(report.stale.count == 1 ? "" : "s") no longer valid, to remove from the tokens file: \(report.stale.prefix(3).joined(separator: ", "))"
                + (report.stale.count > 3 ? " and \(report.stale.count - 3) more (--json lists them all)" : "")
        }
        for (reason, devices) in report.refused.sorted(by: { $0.key < $1.key }) {
            let what = reason == "TooManyRequests" ? "held back by APNs (too many pushes to them lately; they get the next one)" : "refused, \(reason)\(PushSender.advice(reason))"
            line += "; \(devices.count) \(what): \(devices.prefix(3).joined(separator: ", "))" + (devices.count > 3 ? " and \(devices.count - 3) more (--json lists them all)" : "")
        }
        // Devices refused one by one fail the push only when none got it: then it is the setup, not the devices.
        if sent == 0, let (reason, devices) = report.refused.max(by: { $0.value.count < $1.value.count }) {
            report.failures.append("apns: no device got it; \(devices.count) refused, \(reason)" + PushSender.advice(reason))
        }
        for (why, n) in failed.sorted(by: { $0.key < $1.key }) {
            line += "; \(n) failed: \(why)"
            report.failures.append("apns \(why)" + PushSender.advice(why))
        }
        report.lines.append(line)
    }

    /// What an APNs refusal usually means, for the person reading it.
    static func advice(_ why: String) -> String {
        let known = [("InvalidProviderToken", " (check that --apns-key-id and --apns-team-id belong to the key)"),
                     ("TooManyProviderTokenUpdates", " (a new provider token within 20 minutes of the last: keep RELCTL_CACHE_DIR between runs)"),
                     ("BadDeviceToken", " (tokens of a development build need --apns-sandbox, of a store build none)"),
                     ("DeviceTokenNotForTopic", " (the tokens are of another app: check --apns-topic)"),
                     ("TopicDisallowed", " (the key may not send to this bundle id: check --apns-topic)"),
                     ("BadTopic", " (check --apns-topic)"),
                     ("TooManyRequests", " (too many pushes to the same devices lately: wait before pushing again)")]
        return known.first { why.contains($0.0) }?.1 ?? ""
    }

    // MARK: FCM

    /// The access token: this run's, else a cached one with over five minutes left, else traded for a new assertion.
    private func fcmToken(_ account: ServiceAccount, renew: Bool, report: inout PushReport) throws -> (token: String, minted: Bool)? {
        if !renew, let t = fcmAccess { return t }
        let t = now()
        // A dry run shows where the token would come from, never a live one.
        if !renew, !dryRun, let cached = setup.cache?.read(account.cacheName), cached.at - t > 300 {
            fcmAccess = (cached.token, false)
            return fcmAccess
        }
        let assertion = try account.assertion(issuedAt: t)
        let form = "grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer&assertion=" + assertion
        let request = HTTPRequest(url: setup.oauthURL ?? account.tokenURI, headers: [("content-type", "application/x-www-form-urlencoded")], body: Array(form.utf8),
                                  shownBody: "grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer&assertion=" + PushSender.withheld(assertion))
        guard !dryRun, let curl else {
            report.requests.append(request)
            fcmAccess = ("<the access token " + (setup.oauthURL ?? account.tokenURI) + " answers>", true)
            return fcmAccess
        }
        let answer = try curl.send([request])[0]
        guard answer.status == 200, case .object(let o)? = try? JSONReader.parseForeign(answer.body), case .string(let token)? = o["access_token"],
              (1...4096).contains(token.utf8.count), token.utf8.allSatisfy({ $0 > 32 && $0 < 127 && $0 != 34 && $0 != 92 }) else {
            report.failures.append("fcm: Google did not give an access token (\(answer.why))"
                                   + (answer.field("error") == "invalid_grant" ? ": the service account's key may be revoked, or this machine's clock is off" : ""))
            report.lines.append("fcm: no access token from \(setup.oauthURL ?? account.tokenURI): \(answer.why)")
            return nil
        }
        var lifetime: Int64 = 3600
        if case .int(let n)? = o["expires_in"], n >= 60, n <= 86_400 { lifetime = n }
        kept(setup.cache?.write(account.cacheName, at: t + lifetime, token: token))
        fcmAccess = (token, true)
        return fcmAccess
    }

    private func sendFCM(_ hint: PushHint, topic: String, _ account: ServiceAccount, into report: inout PushReport) throws {
        guard var access = try fcmToken(account, renew: false, report: &report) else { return }
        func request(_ token: String) -> HTTPRequest {
            HTTPRequest(url: "\(setup.fcmBase)/v1/projects/\(account.projectID)/messages:send",
                        headers: [("authorization", "Bearer \(token)"), ("content-type", "application/json; charset=utf-8")], body: hint.fcmBody(topic: topic, now: now()),
                        shownHeaders: [("authorization", "Bearer <access token withheld>"), ("content-type", "application/json; charset=utf-8")])
        }
        guard !dryRun, let curl else { report.requests.append(request(access.token)); return }
        var answer = try curl.send([request(access.token)])[0]
        if answer.status == 401 && !access.minted {
            // A cached token Google no longer takes: a new one, once.
            setup.cache?.remove(account.cacheName)
            guard let renewed = try fcmToken(account, renew: true, report: &report) else { return }
            access = renewed
            answer = try curl.send([request(access.token)])[0]
        }
        // Overloaded or unreachable: Google asks for a retry after a while; once, when that is soon.
        if answer.status == 0 || answer.status == 429 || answer.status >= 500 {
            let wait = answer.retryAfter ?? 1
            if wait <= 10 {
                sleep(UInt32(wait))
                answer = try curl.send([request(access.token)])[0]
            }
        }
        guard answer.status == 200 else {
            var why = answer.why
            if answer.status == 429 || answer.status >= 500, let wait = answer.retryAfter { why += ", asked to wait \(wait) s" }
            if answer.status == 404 { why += " (check project_id in the service-account file: the Firebase project it names has no messaging)" }
            if answer.status == 403 { why += " (the service account may not send messages: give it the Firebase Cloud Messaging API Admin role)" }
            report.failures.append("fcm \(why)")
            report.lines.append("fcm topic \(topic): not sent: \(why)")
            return
        }
        report.reachedAny = true
        report.lines.append("fcm topic \(topic): sent")
    }

    /// A JWT as --dry-run prints it: header and claims, the signature withheld.
    static func withheld(_ jwt: String) -> String {
        guard let dot = jwt.lastIndex(of: ".") else { return "<withheld>" }
        return jwt[..<dot] + ".<signature withheld>"
    }
}
