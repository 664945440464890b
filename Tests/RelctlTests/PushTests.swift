import Foundation
import XCTest
@testable import RelctlCLI
@testable import RelctlClient
@testable import RelctlCore
@testable import RelctlModel
@testable import RelctlPublish
@testable import RelctlStore

/// `relctl push` and `deploy --push` against real protocols on loopback:
/// scripts/push-test-server.py is APNs (HTTP/2, TLS), Google's token
/// endpoint and FCM HTTP v1, verifying every JWT's signature and claims,
/// the headers and the payload, and answering with the services' errors.
/// The keys are real (OpenSSL), the requests go through the real curl.
final class PushTests: XCTestCase {
    /// The server, its folder and the credentials it checks.
    final class PushServer {
        let dir: String
        private var server: LocalServer!

        init(_ h: Harness) throws {
            dir = h.dir + "/push"
            try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
            for args in [["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-subj", "/CN=127.0.0.1",
                          "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", "key.pem", "-out", "cert.pem", "-days", "2"],
                         ["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", "apns.p8"],
                         ["pkey", "-in", "apns.p8", "-pubout", "-out", "apns-public.pem"],
                         ["genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048", "-out", "sa.pem"],
                         ["pkey", "-in", "sa.pem", "-pubout", "-out", "fcm-public.pem"]] {
                let p = try Proc.run("/usr/bin/openssl", args, cwd: dir)
                guard p.status == 0 else { throw NSError(domain: "openssl \(args[0]) failed: \(p.err)", code: 1) }
            }
            let email = "relctl@demo-project.iam.gserviceaccount.com"
            try write("apns.json", #"{"keyId":"ABC123DEFG","teamId":"DEF123GHIJ","topic":"com.example.shop"}"#)
            try write("fcm.json", #"{"clientEmail":"\#(email)","privateKeyId":"k1","projectId":"demo-project","audience":"https://oauth2.googleapis.com/token"}"#)
            let sa: [String: String] = ["type": "service_account", "project_id": "demo-project", "private_key_id": "k1", "client_email": email,
                                        "private_key": try String(contentsOfFile: dir + "/sa.pem", encoding: .utf8), "token_uri": "https://oauth2.googleapis.com/token"]
            try JSONSerialization.data(withJSONObject: sa).write(to: URL(fileURLWithPath: dir + "/sa.json"))
            try write("tokens.txt", "# the shop's testers\n" + String(repeating: "a", count: 64) + "\n" + String(repeating: "B", count: 64) + "\n\n")
            do { server = try LocalServer(script: "push-test-server.py", [dir], what: "the push test server") } catch {
                // Never a skip: .ci/run installs python3-h2.
                throw NSError(domain: "the push test server did not start (python3 with h2 and cryptography: scripts/deps.sh test installs them)", code: 1)
            }
        }

        func write(_ name: String, _ text: String) throws { try text.write(toFile: dir + "/" + name, atomically: true, encoding: .utf8) }

        func env(_ h: Harness) -> [String: String] {
            var env = h.env
            let base = "https://127.0.0.1:\(server.port)"
            env["PATH"] = "/usr/local/bin:/usr/bin:/bin"
            env["HOME"] = h.dir
            env["RCLONE_CONFIG"] = "/dev/null"
            env["CURL_CA_BUNDLE"] = dir + "/cert.pem"
            env["RELCTL_APNS_URL"] = base
            env["RELCTL_FCM_URL"] = base
            env["RELCTL_OAUTH_URL"] = base + "/token"
            env["RELCTL_CACHE_DIR"] = h.dir + "/cache"
            return env
        }

        var fcm: String { "--fcm-credentials \(dir)/sa.json" }
        var apns: String { "--apns-key \(dir)/apns.p8 --apns-key-id ABC123DEFG --apns-team-id DEF123GHIJ --apns-tokens \(dir)/tokens.txt" }
        var both: String { fcm + " " + apns }

        func requests() -> [[String: Any]] {
            ((try? String(contentsOfFile: dir + "/requests.jsonl", encoding: .utf8)) ?? "").split(separator: "\n").compactMap {
                try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
            }
        }

        func requests(_ service: String) -> [[String: Any]] { requests().filter { $0["service"] as? String == service } }
    }

    /// The sample at the real now: the server checks tokens against its own clock.
    func harness() throws -> (Harness, PushServer) {
        let h = Harness()
        h.now = Int64(Date().timeIntervalSince1970)
        h.sample()
        let server = try PushServer(h)
        h.env = server.env(h)
        return (h, server)
    }

    static func header(_ r: [String: Any], _ name: String) -> String? { (r["headers"] as? [String: String])?[name] }

    // Ctrl-C while curl waited on a service ended relctl at once: the private folder
    // holding curl's config, the services' bearer tokens in it, stayed in TMPDIR.
    func testAPushStoppedByCtrlCLeavesNoTokensBehind() throws {
        let (h, server) = try harness()
        let tmp = h.dir + "/tmp"
        try FileManager.default.createDirectory(atPath: tmp, withIntermediateDirectories: true)
        try server.write("mode", "apns-slow\n")
        func folders() -> [String] { ((try? FileManager.default.contentsOfDirectory(atPath: tmp)) ?? []).filter { $0.hasPrefix("relctl-push.") } }
        // Ctrl-C, and the terminal closed on it.
        for (sig, name) in [(SIGINT, "SIGINT"), (SIGHUP, "SIGHUP")] {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: Package.binary)
            p.arguments = ["--db", h.db, "push"] + Harness.split(server.apns)
            p.environment = h.env.merging(["TMPDIR": tmp]) { $1 }
            let err = Pipe()
            p.standardOutput = FileHandle.nullDevice
            p.standardError = err
            try p.run()
            // Signalled while curl waits for the slow answer, its folder there.
            let deadline = Date().addingTimeInterval(10)
            while folders().isEmpty && p.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
            XCTAssertFalse(folders().isEmpty, "curl's folder, while it waits")
            Thread.sleep(forTimeInterval: 0.3)
            kill(p.processIdentifier, sig)
            let said = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            p.waitUntilExit()
            XCTAssertEqual(p.terminationReason, .uncaughtSignal, "ended by the signal, as before")
            XCTAssertEqual(p.terminationStatus, sig)
            XCTAssertEqual(folders(), [], "no config with the services' tokens left")
            XCTAssertTrue(said.contains("relctl: stopped (\(name)) while sending 2 requests to https://127.0.0.1:"), said)
            XCTAssertFalse(said.contains("/3/device/"), "no device token said")
        }
    }

    /// A deploy --push of blog (FCM alone, pushed first) and shop (FCM and APNs), with the
    /// push service in `mode`, told SIGINT once shop's APNs push is waited on: what it said,
    /// printed and left (the changed list, the remote's record).
    struct StoppedWhilePushing {
        var said: String, printed: String, changed: String, seen: [String: Any], status: Int32, bySignal: Bool
    }
    func stopWhilePushing(_ h: Harness, _ server: PushServer, mode: String) throws -> StoppedWhilePushing {
        h.ok("project add blog --name Blog")
        h.ok("-p blog platform add android --bundle-id com.example.blog")
        h.ok("-p blog version add 1.0 --platform android --build 10")
        let fm = FileManager.default
        let out = h.dir + "/out", remote = h.dir + "/remote", tmp = h.dir + "/tmp", list = h.dir + "/changed.txt"
        for d in [remote, tmp] { try fm.createDirectory(atPath: d, withIntermediateDirectories: true) }
        h.ok("publish \(out) -q")
        try server.write("mode", mode)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: Package.binary)
        p.arguments = ["--db", h.db, "deploy", out, remote, "--changed-list", list, "--push"] + Harness.split(server.fcm) + Harness.split(server.apns)
        p.environment = h.env.merging(["TMPDIR": tmp]) { $1 }
        let (stdout, stderr) = (Pipe(), Pipe())
        p.standardOutput = stdout
        p.standardError = stderr
        try p.run()
        let deadline = Date().addingTimeInterval(20)
        while server.requests("apns").isEmpty && p.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        Thread.sleep(forTimeInterval: 0.3)
        kill(p.processIdentifier, SIGINT)
        let said = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let printed = String(decoding: stdout.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        XCTAssertEqual(try fm.contentsOfDirectory(atPath: tmp), [], "no curl folder or path list left")
        XCTAssertEqual(fm.contents(atPath: remote + "/index.json"), fm.contents(atPath: out + "/index.json"))
        let record = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: remote + "/relctl-releases.json"))) as? [String: Any])
        return StoppedWhilePushing(said: said, printed: printed, changed: try String(contentsOfFile: list, encoding: .utf8),
                                   seen: record["seen"] as? [String: Any] ?? [:], status: p.terminationStatus, bySignal: p.terminationReason == .uncaughtSignal)
    }

    func fcm(_ server: PushServer, _ slug: String) -> Int {
        server.requests("fcm").filter { (($0["body"] as? [String: Any])?["message"] as? [String: Any])?["topic"] as? String == "relctl-\(slug)" && $0["status"] as? Int == 200 }.count
    }

    // Ctrl-C while a deploy's push waited on a service ended relctl at once: the
    // changed list a CDN invalidates from, and the remote's record, were lost.
    func testADeployStoppedWhilePushingStillListsWhatChanged() throws {
        let (h, server) = try harness()
        // blog (FCM alone) is pushed first and at once; shop's FCM push goes, its APNs push waits.
        let stop = try stopWhilePushing(h, server, mode: "apns-slow\n")
        XCTAssertTrue(stop.bySignal && stop.status == SIGINT, stop.said)
        XCTAssertEqual([fcm(server, "blog"), fcm(server, "shop")], [1, 1], "both FCM pushes went before the signal")
        XCTAssertTrue(stop.said.contains("stopped (SIGINT) after its files: the new release is in place; the push to shop (sent to some of its services) was not sent in full, owed to the next deploy --push to it"), stop.said)
        // What changed is listed, for the CDN, and the record is finished: blog's push is recorded, shop's owed.
        XCTAssertTrue(stop.changed.contains("shop/control.json\n") && stop.changed.contains("blog/control.json\n") && stop.changed.contains("index.json\n"), stop.changed)
        XCTAssertEqual(stop.printed, stop.changed)
        XCTAssertNotNil(stop.seen["blog"], "blog's push is recorded: \(stop.seen)")
        XCTAssertNil(stop.seen["shop"], "shop's push is owed: \(stop.seen)")
        // The next deploy --push sends shop's again, and not blog's.
        try server.write("mode", "")
        let apns = server.requests("apns").filter { $0["status"] as? Int == 200 }.count
        let push = ["--push"] + Harness.split(server.fcm) + Harness.split(server.apns)
        let again = h.run(["deploy", h.dir + "/out", h.dir + "/remote"] + push)
        XCTAssertEqual(again.status, 0, again.err)
        XCTAssertFalse(again.err.contains("no push"), again.err)
        XCTAssertEqual([fcm(server, "blog"), fcm(server, "shop")], [1, 2], again.err)
        XCTAssertGreaterThan(server.requests("apns").filter { $0["status"] as? Int == 200 }.count, apns)
    }

    // A push that failed before the stop is owed with the one the stop cut short, said once.
    func testADeployStoppedWhilePushingOwesThePushThatFailedBefore() throws {
        let (h, server) = try harness()
        // FCM refuses every push (blog's, then shop's); shop's APNs push waits.
        let stop = try stopWhilePushing(h, server, mode: "fcm-quota\napns-slow\n")
        XCTAssertTrue(stop.bySignal && stop.status == SIGINT, stop.said)
        XCTAssertTrue(stop.said.contains("stopped (SIGINT) after its files: the new release is in place; the pushes to blog, shop were not sent in full, owed to the next deploy --push to it"), stop.said)
        XCTAssertEqual(stop.said.components(separatedBy: "blog: push: fcm topic relctl-blog: not sent: 429").count, 2, "its failure said once: \(stop.said)")
        XCTAssertTrue(stop.said.contains("shop: push: apns com.example.shop: sent to 0 of 2 devices; 2 failed: stopped (SIGINT) before an answer"), stop.said)
        XCTAssertTrue(stop.changed.contains("blog/control.json\n") && stop.changed.contains("index.json\n"), stop.changed)
        XCTAssertNil(stop.seen["blog"], "blog's push is owed: \(stop.seen)")
        XCTAssertNil(stop.seen["shop"], "shop's push is owed: \(stop.seen)")
    }

    func testAPushReachesFCMAndAPNsAsTheServicesRequire() throws {
        let (h, server) = try harness()
        let r = h.ok("push \(server.both) --json")
        let report = try XCTUnwrap(r.json as? [String: Any])
        XCTAssertEqual(report["sent"] as? Bool, true, r.err)
        XCTAssertEqual(report["staleTokens"] as? [String], [], "both tokens are live")
        XCTAssertEqual(try SchemaValidator(path: Package.root + "/schema/json/push.schema.json").validate(try JSONReader.parse(Array(r.out.utf8))), [])
        // FCM: one token exchange, then the message, accepted by a server that verified the RS256 assertion.
        let oauth = server.requests("oauth"), fcm = server.requests("fcm"), apns = server.requests("apns")
        XCTAssertEqual(oauth.map { $0["status"] as? Int }, [200])
        XCTAssertEqual(fcm.map { $0["status"] as? Int }, [200])
        let message = try XCTUnwrap((fcm[0]["body"] as? [String: Any])?["message"] as? [String: Any])
        XCTAssertEqual(message["topic"] as? String, "relctl-shop")
        XCTAssertEqual(message["data"] as? [String: String], ["relctl": "1", "relctlProject": "shop", "relctlRevision": String(h.now)])
        XCTAssertNil(message["notification"], "nothing is shown to users")
        XCTAssertEqual((message["android"] as? [String: String])?["priority"], "normal")
        // APNs: over HTTP/2, one request per device, a background push with a verified ES256 provider token.
        XCTAssertEqual(apns.count, 2)
        for a in apns {
            XCTAssertEqual(a["status"] as? Int, 200, "\(a)")
            XCTAssertEqual(a["http2"] as? Bool, true)
            XCTAssertEqual(Self.header(a, "apns-push-type"), "background")
            XCTAssertEqual(Self.header(a, "apns-priority"), "5")
            XCTAssertEqual(Self.header(a, "apns-topic"), "com.example.shop", "the bundle id of the project's iOS platform")
            let body = try XCTUnwrap(a["body"] as? [String: Any])
            XCTAssertEqual(body["aps"] as? [String: Int], ["content-available": 1])
            XCTAssertEqual(body["relctlProject"] as? String, "shop")
            XCTAssertEqual((a["jwt"] as? [String: Any])?["header"] as? [String: String], ["alg": "ES256", "kid": "ABC123DEFG"])
        }
        XCTAssertEqual(Set(apns.compactMap { ($0["path"] as? String)?.split(separator: "/").last.map(String.init) }),
                       [String(repeating: "a", count: 64), String(repeating: "b", count: 64)], "tokens are read case-blind, comments and blank lines aside")
        // Logged, and not a change: the tree published before it is still current.
        XCTAssertTrue(h.ok("log").out.contains("push shop revision \(h.now) (by hand): sending to fcm topic relctl-shop, apns com.example.shop (2 devices)"))
    }

    func testTokensAreReusedAndAtMostTwoPushesAnHourUnlessUrgent() throws {
        let (h, server) = try harness()
        h.ok("push \(server.both)")
        h.ok("push \(server.both)")
        // One access token for both runs, and one provider token: Apple refuses a new one within 20 minutes.
        XCTAssertEqual(server.requests("oauth").count, 1)
        let jwts = Set(server.requests("apns").compactMap { Self.header($0, "authorization") })
        XCTAssertEqual(jwts.count, 1, "the provider token is kept between runs")
        let cached = try FileManager.default.attributesOfItem(atPath: h.dir + "/cache/apns-DEF123GHIJ-ABC123DEFG")
        XCTAssertEqual((cached[.posixPermissions] as? NSNumber)?.intValue, 0o600)
        // A cache file is outside input: an instant out of reach is no token, never a crash; CRLF token files read as any.
        let kept = try String(contentsOfFile: h.dir + "/cache/apns-DEF123GHIJ-ABC123DEFG", encoding: .utf8)
        try "-9223372036854775808 x\n".write(toFile: h.dir + "/cache/apns-DEF123GHIJ-ABC123DEFG", atomically: true, encoding: .utf8)
        try server.write("crlf.txt", String(repeating: "a", count: 64) + "\r\n" + String(repeating: "b", count: 64) + "\r\n")
        let odd = h.ok("push \(server.apns.replacingOccurrences(of: "tokens.txt", with: "crlf.txt")) --dry-run")
        XCTAssertEqual(odd.out.components(separatedBy: "/3/device/").count - 1, 2, odd.out)
        try kept.write(toFile: h.dir + "/cache/apns-DEF123GHIJ-ABC123DEFG", atomically: true, encoding: .utf8)
        // A third within the hour is held back, says why and how, and sends nothing.
        let before = server.requests().count
        h.fails("push \(server.both)", "shop had 2 pushes in the last hour")
        XCTAssertEqual(server.requests().count, before)
        // Firebase's "/topics/" spelling names the same topic.
        let urgent = h.ok("push \(server.fcm) --urgent --fcm-topic /topics/relctl-shop")
        XCTAssertTrue(urgent.out.contains("fcm topic relctl-shop: sent"), urgent.out)
        // An hour later there is room again.
        h.now += 3601
        try server.write("clock-offset", "3601")
        h.ok("push \(server.fcm)")
        XCTAssertEqual(server.requests("fcm").count, 4)
        // A token minted anew within 20 minutes of the last (the cache lost) is refused by Apple: said, with the cause.
        h.now -= 3601
        try server.write("clock-offset", "0")
        h.env["RELCTL_CACHE_DIR"] = h.dir + "/other-cache"
        let churn = h.run("push \(server.apns) --urgent")
        XCTAssertEqual(churn.status, 1)
        XCTAssertTrue(churn.err.contains("TooManyProviderTokenUpdates") && churn.err.contains("RELCTL_CACHE_DIR"), churn.err)
    }

    func testRefusedTokensAreRenewedOnceAndFailuresAreSaid() throws {
        let (h, server) = try harness()
        h.ok("push \(server.both)")
        // The cached tokens are refused once (expired, revoked): each is renewed and the push retried.
        try server.write("mode", "apns-expired-once\nfcm-unauthenticated-once\n")
        let renewed = h.ok("push \(server.both) --json")
        XCTAssertEqual((renewed.json as? [String: Any])?["sent"] as? Bool, true, renewed.err)
        XCTAssertEqual(server.requests("oauth").count, 2, "a new access token after the 401")
        XCTAssertEqual(server.requests("fcm").map { $0["status"] as? Int }, [200, 401, 200])
        XCTAssertEqual(server.requests("apns").compactMap { $0["status"] as? Int }.filter { $0 == 403 }.count, 1)
        // Google over its quota: said with the wait it asks for; no service took it, so the turn is given back.
        try server.write("mode", "fcm-quota\n")
        // (Not h.fails: a push that failed is logged, as every push is.)
        let quota = h.run("push \(server.fcm) --urgent")
        XCTAssertEqual(quota.status, 1)
        XCTAssertTrue(quota.err.contains("RESOURCE_EXHAUSTED") && quota.err.contains("asked to wait 30 s"), quota.err)
        XCTAssertTrue(h.ok("log").out.contains("push shop revision \(h.now) failed: fcm 429 RESOURCE_EXHAUSTED"))
        // Apple down: retried once, then said; a device Apple no longer knows is named for removal.
        try server.write("mode", "apns-down\n")
        let asked = server.requests("apns").count
        let down = h.run("push \(server.apns) --urgent")
        XCTAssertEqual(down.status, 1)
        XCTAssertTrue(down.err.contains("503 ServiceUnavailable"), down.err)
        XCTAssertEqual(server.requests("apns").count - asked, 4, "each of the two devices asked twice")
        try server.write("mode", "")
        // Twenty devices sent at once: each answer is the one of its own device.
        let tokens = (0..<20).map { String(format: "%064x", $0 * 7919 + 1) }
        try server.write("tokens.txt", tokens.joined(separator: "\n"))
        let gone = [1, 4, 5, 13, 19].map { tokens[$0] }
        try server.write("unregistered", gone.joined(separator: "\n") + "\n")
        let stale = h.ok("push \(server.apns) --urgent --json")
        let report = try XCTUnwrap(stale.json as? [String: Any])
        XCTAssertEqual(Set(report["staleTokens"] as? [String] ?? []), Set(gone))
        XCTAssertTrue((report["lines"] as? [String])?.first?.contains("sent to 15 of 20 devices; 5 tokens no longer valid") == true, "\(report)")
        // APNs throttling every device: said as what it is, nothing to fix but the wait.
        try server.write("mode", "apns-toomany\n")
        let throttled = h.run("push \(server.apns) --urgent --json")
        XCTAssertEqual(throttled.status, 1)
        XCTAssertTrue(throttled.err.contains("apns: no device got it; 20 refused, TooManyRequests (too many pushes to the same devices lately"), throttled.err)
        XCTAssertEqual(((throttled.json as? [String: Any])?["refusedTokens"] as? [String: [String]])?["TooManyRequests"]?.count, 20)
        // A key Apple does not know by that id (403 InvalidProviderToken): renewed once, then said with what to check.
        try server.write("mode", "")
        let real = try String(contentsOfFile: server.dir + "/apns-public.pem", encoding: .utf8)
        XCTAssertEqual(try Proc.run("/usr/bin/openssl", ["pkey", "-in", "key.pem", "-pubout", "-out", "apns-public.pem"], cwd: server.dir).status, 0)
        let invalid = h.run("push \(server.apns) --urgent")
        XCTAssertEqual(invalid.status, 1)
        XCTAssertTrue(invalid.err.contains("403 InvalidProviderToken (check that --apns-key-id and --apns-team-id belong to the key)"), invalid.err)
        try server.write("apns-public.pem", real)
        // Google refusing the service account: said, nothing sent.
        try server.write("mode", "oauth-refuse\n")
        h.env["RELCTL_CACHE_DIR"] = h.dir + "/empty-cache"
        let refused = h.run("push \(server.fcm) --urgent")
        XCTAssertEqual(refused.status, 1)
        XCTAssertTrue(refused.err.contains("invalid_grant"), refused.err)
    }

    func testDryRunPrintsTheRequestsAndSendsNothing() throws {
        let (h, server) = try harness()
        let r = h.ok("push \(server.both) --dry-run")
        XCTAssertTrue(r.out.contains("POST https://127.0.0.1:"), r.out)
        XCTAssertTrue(r.out.contains("/3/device/" + String(repeating: "a", count: 64)))
        XCTAssertTrue(r.out.contains("apns-push-type: background"))
        XCTAssertTrue(r.out.contains(".<signature withheld>"), "a bearer token is never printed whole")
        XCTAssertTrue(r.out.contains("grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer&assertion="))
        XCTAssertEqual(server.requests().count, 0)
        XCTAssertFalse(h.ok("log").out.contains("push shop"))
        // With live tokens in the cache, a dry run prints none of them.
        h.ok("push \(server.fcm)")
        let cache = h.dir + "/cache"
        let cached = try FileManager.default.contentsOfDirectory(atPath: cache).filter { $0.hasPrefix("fcm-") }
        let token = try XCTUnwrap(String(contentsOfFile: cache + "/" + XCTUnwrap(cached.first), encoding: .utf8).split(separator: " ").last)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertEqual(token, "mock-access-1")
        let again = h.ok("push \(server.fcm) --dry-run --json")
        XCTAssertFalse(again.out.contains(token), again.out)
        XCTAssertEqual(server.requests("oauth").count, 1, "a dry run asks Google nothing")
        // At the hour's limit, a dry run still shows the requests, and says the push would be held back.
        h.ok("push \(server.fcm)")
        let limited = h.ok("push \(server.fcm) --dry-run")
        XCTAssertTrue(limited.out.contains("POST https://127.0.0.1:"), limited.out)
        XCTAssertTrue(limited.err.contains("it would be held back"), limited.err)
    }

    func testBadPushOptionsAreRefusedBeforeAnythingIsSent() throws {
        let (h, server) = try harness()
        h.fails("push", status: 2, "push names no service")
        h.fails("push --apns-key \(server.dir)/apns.p8 --apns-tokens \(server.dir)/tokens.txt", status: 2, "--apns-key-id and --apns-team-id not given")
        h.fails("push --apns-key \(server.dir)/apns.p8 --apns-key-id ABC123DEFG --apns-team-id DEF123GHIJ", status: 2, "no --apns-tokens")
        h.fails("push --apns-key \(server.dir)/sa.pem --apns-key-id ABC123DEFG --apns-team-id DEF123GHIJ --apns-tokens \(server.dir)/tokens.txt", status: 1, "not a P-256")
        h.fails("push --fcm-credentials \(server.dir)/apns.json", status: 1, "not a service-account key")
        // Outside files are bounded, and the bound is said in a unit that says something.
        try server.write("huge.json", "{" + String(repeating: " ", count: 100_000) + "}")
        h.fails("push --fcm-credentials \(server.dir)/huge.json", status: 1, "it holds more than 64 KiB")
        h.fails("push \(server.fcm) --fcm-topic \"bad topic\"", status: 2, "not an FCM topic name")
        try server.write("bad-tokens", "abc\n")
        h.fails("push \(server.apns.replacingOccurrences(of: "tokens.txt", with: "bad-tokens"))", status: 1, "bad-tokens:1 is not a device token")
        h.fails("deploy out remote \(server.fcm)", status: 2, "deploy sends none without --push")
        h.ok("project add two --name Two")
        h.ok("platform add ios -p two --bundle-id com.example.two")
        h.ok("platform add macos -p two --bundle-id com.example.two-mac")
        h.fails("push -p two \(server.apns)", status: 2, "no APNs topic for two: its Apple platforms name several bundle ids")
        // One tokens file for two apps in a deploy: refused before anything is sent.
        h.ok("project add three --name Three")
        h.ok("platform add ios -p three --bundle-id com.example.three")
        h.ok("publish \(h.dir)/out -q")
        h.env["RCLONE_CONFIG"] = "/dev/null"
        h.fails("deploy \(h.dir)/out \(h.dir)/remote --push \(server.apns)", status: 2, "would be every project's devices: each app has its own; nothing was uploaded")
        XCTAssertFalse(FileManager.default.fileExists(atPath: h.dir + "/remote/index.json"))
        XCTAssertEqual(server.requests().count, 0)
    }

    /// deploy --push sends once the remote holds the files, and only when
    /// what users see changed since the last deploy to that remote.
    func testDeployPushesOnlyWhenWhatUsersSeeChanged() throws {
        let (h, server) = try harness()
        let out = h.dir + "/out", remote = h.dir + "/remote"
        try FileManager.default.createDirectory(atPath: remote, withIntermediateDirectories: true)
        h.ok("publish \(out) -q")
        let first = h.ok("deploy \(out) \(remote) --push \(server.fcm) --json")
        let pushes = try XCTUnwrap((first.json as? [String: Any])?["pushes"] as? [[String: Any]])
        XCTAssertEqual(pushes.count, 1)
        XCTAssertEqual(try SchemaValidator(path: Package.root + "/schema/json/deploy.schema.json").validate(try JSONReader.parse(Array(first.out.utf8))), [])
        // The hint names the control.json now live, byte for byte.
        let live = try XCTUnwrap(FileManager.default.contents(atPath: remote + "/shop/control.json"))
        let data = try XCTUnwrap(((server.requests("fcm").last?["body"] as? [String: Any])?["message"] as? [String: Any])?["data"] as? [String: String])
        XCTAssertEqual(data["relctlSha256"], SHA256.hex(Array(live)))
        // Nothing new: no push.
        let idle = h.ok("deploy \(out) \(remote) --push \(server.fcm)")
        XCTAssertTrue(idle.err.contains("no push: what users see is what the last deploy"), idle.err)
        // A release nobody is offered yet (its release delay): the files change, what users see does not.
        h.ok("version add 3.0 --platform ios --build 300")
        h.ok("publish \(out) -q")
        let quiet = h.ok("deploy \(out) \(remote) --push \(server.fcm) --json")
        XCTAssertTrue(((quiet.json as? [String: Any])?["uploaded"] as? [String])?.contains("shop/control.json") == true)
        XCTAssertEqual(((quiet.json as? [String: Any])?["pushes"] as? [Any])?.count, 0)
        XCTAssertEqual(server.requests("fcm").count, 1)
        // A window starts: pushed, after the files are there.
        h.ok("maintenance start --until +1h --yes")
        h.ok("publish \(out) -q")
        h.ok("deploy \(out) \(remote) --push \(server.fcm)")
        XCTAssertEqual(server.requests("fcm").count, 2)
        // It ends: a third push within the hour is held back; the deploy itself succeeds.
        h.ok("maintenance stop --yes")
        h.ok("publish \(out) -q")
        let held = h.ok("deploy \(out) \(remote) --push \(server.fcm)")
        XCTAssertTrue(held.err.contains("shop: no push: 2 in the last hour already"), held.err)
        XCTAssertEqual(server.requests("fcm").count, 2)
        // A push that fails once the files are live: the deploy says so (exit 1), and deploying again is the retry.
        h.now += 3601
        try server.write("clock-offset", "3601")
        h.ok("rules set --release-delay 0 --yes")
        h.ok("publish \(out) -q")
        let dry = h.ok("deploy \(out) \(remote) --push \(server.fcm) --dry-run")
        XCTAssertTrue(dry.err.contains("shop: would push (fcm topic relctl-shop)"), dry.err)
        try server.write("mode", "fcm-unavailable\n")
        let failed = h.run("deploy \(out) \(remote) --push \(server.fcm)")
        XCTAssertEqual(failed.status, 1)
        XCTAssertTrue(failed.err.contains("the files are live on \(remote), but the push to shop was not sent: fcm 503 UNAVAILABLE"), failed.err)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: remote + "/shop/control.json")), try Data(contentsOf: URL(fileURLWithPath: out + "/shop/control.json")))
        try server.write("mode", "")
        h.ok("deploy \(out) \(remote) --push \(server.fcm)")
        XCTAssertEqual(server.requests("fcm").filter { $0["status"] as? Int == 200 }.count, 3, "the push the failure owed")
        // With APNs too, a project without a tokens file of its own is left to FCM, and said.
        h.ok("force 1.1 --platform ios --yes")
        h.ok("publish \(out) -q")
        let lenient = h.ok("deploy \(out) \(remote) --push \(server.fcm) --apns-key \(server.dir)/apns.p8 --apns-key-id ABC123DEFG --apns-team-id DEF123GHIJ --apns-tokens \(server.dir)/{project}-tokens.txt")
        XCTAssertTrue(lenient.err.contains("shop: no APNs push: no tokens file \(server.dir)/shop-tokens.txt"), lenient.err)
        XCTAssertEqual(server.requests("fcm").filter { $0["status"] as? Int == 200 }.count, 4)
        // APNs alone, and no tokens file for it: nobody is reached, which is a warning, and owed to the next deploy that reaches it.
        h.ok("recommend 2.0 --platform ios --yes")
        h.ok("publish \(out) -q")
        let apnsOnly = "--apns-key \(server.dir)/apns.p8 --apns-key-id ABC123DEFG --apns-team-id DEF123GHIJ --apns-tokens \(server.dir)/{project}-tokens.txt"
        let unreached = h.ok("deploy \(out) \(remote) --push \(apnsOnly) --urgent --json -q")
        XCTAssertTrue(unreached.err.contains("warning: shop: users see something new, and no push was sent: no APNs push: no tokens file"), unreached.err)
        XCTAssertEqual(((unreached.json as? [String: Any])?["unreached"] as? [[String: String]])?.first?["project"], "shop")
        XCTAssertEqual(try SchemaValidator(path: Package.root + "/schema/json/deploy.schema.json").validate(try JSONReader.parse(Array(unreached.out.utf8))), [])
        try server.write("shop-tokens.txt", String(repeating: "c", count: 64) + "\n")
        h.ok("deploy \(out) \(remote) --push \(apnsOnly) --urgent")
        XCTAssertEqual(server.requests("apns").filter { $0["status"] as? Int == 200 }.count, 1, "the push it owed")
        // A deploy without --push leaves the record as it is: the change is the next --push's to send.
        h.ok("force 2.0 --platform ios --yes")
        h.ok("publish \(out) -q")
        h.ok("deploy \(out) \(remote)")
        h.now += 3601
        try server.write("clock-offset", "7202")
        let after = h.ok("deploy \(out) \(remote) --push \(server.fcm)")
        XCTAssertTrue(after.err.contains("shop: push: fcm topic relctl-shop: sent"), after.err)
        XCTAssertEqual(server.requests("fcm").filter { $0["status"] as? Int == 200 }.count, 5)
        let settled = h.ok("deploy \(out) \(remote) --push \(server.fcm)")
        XCTAssertTrue(settled.err.contains("no push"), settled.err)
    }

    /// The same question at one instant in two states: equal where every
    /// install is told the same, different where one is told otherwise.
    func testWhatUsersSeeIsOneDigestOfEveryAnswer() throws {
        let h = Harness()
        h.sample()
        func seen(at t: Int64? = nil) throws -> String {
            let store = try Store(path: h.db, mode: .read, user: "tester")
            // The text the digest is of: a failure shows where the answers differ.
            return try store.read { Impact.seenText(try store.snapshot(try store.requireProject("shop"), withNotes: false), at: t ?? h.now) }
        }
        let before = try seen()
        XCTAssertEqual(try seen(), before, "the same state, the same digest")
        h.ok("version add 3.0 --platform ios --build 300 --min-os 17.0")
        XCTAssertEqual(try seen(), before, "a release still in its delay is offered to nobody, and its minimum OS tells nobody anything else")
        h.ok("version add 0.9 --platform ios --build 90 --released 2025-06-01T00:00:00Z")
        XCTAssertEqual(try seen(), before, "an older release told what the oldest was told")
        XCTAssertNotEqual(try seen(at: h.now + 2 * 86_400), before, "once its delay is over, it is offered")
        h.ok("notes set 2.0 --platform ios --locale en \"Other words\"")
        let noted = try seen()
        XCTAssertEqual(noted, before, "release notes are no answer")
        for change in ["recommend 2.0 --platform ios --yes", "policy set 1.0 force --platform ios --yes", "rules set --release-delay 0 --yes",
                       "maintenance start --until +1h --yes", "force 2.0.0 --platform android --yes"] {
            h.ok(change)
            XCTAssertNotEqual(try seen(), noted, "\(change) changes what installs are told")
            h.ok("undo --yes")
            XCTAssertEqual(try seen(), noted, "undo of \(change) restores it")
        }
        // A rollout: each step is what users see change, a halt is not (nobody is told otherwise then).
        h.ok("rules set --release-delay 0 --yes")
        h.ok("recommend 3.0 --platform ios --rollout 10,50,100 --every 1d --allow-lockout --yes")
        let first = try seen()
        XCTAssertNotEqual(try seen(at: h.now + 86_400), first, "the step to 50 %")
        h.ok("rollout halt --platform ios --yes")
        XCTAssertEqual(try seen(), first, "halted where it was")
        XCTAssertEqual(try seen(at: h.now + 86_400), first, "and it stays there")
    }

    /// RelctlClient: relctl's push makes it download at once; a stale,
    /// repeated, foreign or other notification changes nothing.
    func testTheClientAnswersRelctlsPushAndNothingElse() throws {
        let h = Harness()
        h.sample()
        let root = h.dir + "/www"
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        let file = URL(fileURLWithPath: root + "/control.json")
        let first = ReleaseControlTests.published(h)
        try Data(first).write(to: file)
        let server = try LocalNginx(root: root, dir: h.dir, probe: "control.json")
        let url = server.url("control.json")
        let control = try ReleaseControl(device: ReleaseControlTests.device("1.0", build: 100), source: url, storage: URL(fileURLWithPath: h.dir + "/app"), clock: { [now = h.now] in now })
        XCTAssertEqual(ReleaseControlTests.blocking { try? await control.refresh() }?.kind, .optional)
        let seenBy = Counter(), alsoSeenBy = Counter()
        let token = control.addListener { _ in seenBy.add() }
        control.addListener { _ in alsoSeenBy.add() }
        func push(_ info: [AnyHashable: Any], to client: ReleaseControl? = nil) -> (Bool, ReleaseControl.PushOutcome?) {
            let box = AsyncBox<ReleaseControl.PushOutcome>(), done = DispatchSemaphore(value: 0)
            let mine = (client ?? control).handlePush(info) { box.value = $0; done.signal() }
            if mine { done.wait() }
            return (mine, box.value)
        }
        XCTAssertEqual(push(["aps": ["content-available": 1], "other": "x"]).0, false, "not relctl's: the app handles it")
        XCTAssertEqual(push(["relctl": "1", "relctlProject": "other", "relctlRevision": "5"]).1, .otherProject("other"))
        XCTAssertEqual(push(["relctl": "1", "relctlProject": "shop"]).1, .malformed)
        XCTAssertEqual(push(["relctl": "1", "relctlProject": "shop", "relctlRevision": "9", "relctlSha256": SHA256.hex(first)]).1, .alreadyHeld, "the bytes it holds")
        // The file changes; the push naming it downloads at once, and every listener hears of it.
        let forced = ReleaseControlTests.published(h) { $0.ok("force 2.0 --platform ios --yes") }
        try Data(forced).write(to: file)
        // A revision no relctl wrote (far ahead) is refused: it would silence every push after it.
        XCTAssertEqual(push(["relctl": "1", "relctlProject": "shop", "relctlRevision": "9223372036854775807"]).1, .malformed)
        guard case .downloaded(let state)? = push(["relctl": "1", "relctlProject": "shop", "relctlRevision": "100", "relctlSha256": SHA256.hex(forced)]).1 else {
            return XCTFail("a newer revision is downloaded")
        }
        XCTAssertEqual(state.kind, .required)
        XCTAssertEqual(control.state()?.kind, .required)
        XCTAssertEqual(seenBy.value, 1)
        XCTAssertEqual(alsoSeenBy.value, 1)
        // Late or repeated: ignored, across launches too (the revision is kept in storage).
        XCTAssertEqual(push(["relctl": "1", "relctlProject": "shop", "relctlRevision": "99"]).1, .alreadyHeld)
        XCTAssertEqual(push(["relctl": "1", "relctlProject": "shop", "relctlRevision": "100"]).1, .alreadyHeld)
        let relaunched = try ReleaseControl(device: ReleaseControlTests.device("1.0", build: 100), source: url, storage: URL(fileURLWithPath: h.dir + "/app"), clock: { [now = h.now] in now })
        XCTAssertEqual(push(["relctl": "1", "relctlProject": "shop", "relctlRevision": "100"], to: relaunched).1, .alreadyHeld)
        // The same revision with other bytes (a second deploy within a second, a signed file's older revision): fetched.
        let other = ReleaseControlTests.published(h) { $0.ok("recommend 1.1 --platform ios --yes") }
        try Data(other).write(to: file)
        guard case .downloaded? = push(["relctl": "1", "relctlProject": "shop", "relctlRevision": "50", "relctlSha256": SHA256.hex(other)]).1 else {
            return XCTFail("other bytes are fetched whatever the revision")
        }
        XCTAssertEqual(seenBy.value, 1, "the state did not change: nobody is told")
        // A download that fails is said, and leaves what was held.
        let lost = try ReleaseControl(device: ReleaseControlTests.device("1.0", build: 100), source: server.url("gone.json"), clock: { [now = h.now] in now })
        XCTAssertEqual(push(["relctl": "1", "relctlProject": "shop", "relctlRevision": "300"], to: lost).1, .failed(.download("HTTP 404 from \(server.url("gone.json"))")))
        // A token is its own control's: another's removes nothing.
        let second = try ReleaseControl(device: ReleaseControlTests.device("1.0", build: 100), source: url, clock: { [now = h.now] in now })
        let heardBySecond = Counter()
        second.addListener { _ in heardBySecond.add() }
        second.removeListener(token)
        guard case .downloaded? = push(["relctl": "1", "relctlProject": "shop", "relctlRevision": "60"], to: second).1 else { return XCTFail("a first document is downloaded") }
        XCTAssertEqual(heardBySecond.value, 1, "its listener stayed")
        withExtendedLifetime((server, lost)) {}
        // A removed listener hears nothing more.
        control.removeListener(token)
        try Data(ReleaseControlTests.published(h) { $0.ok("maintenance start --until +1h --yes") }).write(to: file)
        guard case .downloaded(let later)? = push(["relctl": 1, "relctlProject": "shop", "relctlRevision": 200]).1 else { return XCTFail("numbers are read too") }
        XCTAssertEqual(later.kind, .maintenance)
        XCTAssertEqual(seenBy.value, 1)
        XCTAssertEqual(alsoSeenBy.value, 2)
    }
}

/// A count callbacks add to from any thread.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var n = 0
    func add() { lock.lock(); n += 1; lock.unlock() }
    var value: Int { lock.lock(); defer { lock.unlock() }; return n }
}
