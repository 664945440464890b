import Foundation
import XCTest
@testable import RelctlCLI
@testable import RelctlCore
@testable import RelctlModel
@testable import RelctlClient

/// The conformance suite (`relctl conformance export`) and RelctlClient,
/// the Swift client of control.json, run against it and on its own.
final class ConformanceSuiteTests: XCTestCase {
    /// The suite is written, validates against its schema, and the same
    /// export gives the same bytes.
    func testTheSuiteIsWrittenDescribedAndStable() throws {
        let h = Harness()
        let dir = h.dir + "/suite"
        let r = h.ok("conformance export \(dir)")
        XCTAssertTrue(r.err.contains("suites") && r.err.contains("cases"), r.err)
        let index = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: dir + "/index.json"))) as? [String: Any])
        let suites = try XCTUnwrap(index["suites"] as? [[String: Any]])
        XCTAssertEqual(suites.map { $0["name"] as? String }, ConformanceScenarios.all.map(\.name))
        let schema = try SchemaValidator(path: Package.root + "/schema/conformance.schema.json")
        let casesSchema = (schema.root["$defs"] as! [String: Any])["cases"] as! [String: Any]
        XCTAssertEqual(schema.validate(try JSONReader.parse(Array(try Data(contentsOf: URL(fileURLWithPath: dir + "/index.json"))))), [])
        var kinds = Set<String>(), total = 0
        for s in suites {
            let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: dir + "/" + (s["cases"] as! String))))
            XCTAssertEqual(schema.validate(try JSONReader.parse(bytes), casesSchema, at: "$").prefix(5), [], s["name"] as! String)
            let cases = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(bytes)) as? [[String: Any]])
            XCTAssertEqual(cases.count, s["count"] as? Int)
            for c in cases { kinds.insert((c["expected"] as! [String: Any])["kind"] as! String) }
            total += cases.count
        }
        XCTAssertEqual(kinds, ["none", "optional", "required", "maintenance"], "the suite asks for every kind of answer")
        for (file, def) in [("refusals.json", "refusals"), ("locales.json", "locales")] {
            let part = (schema.root["$defs"] as! [String: Any])[def] as! [String: Any]
            XCTAssertEqual(schema.validate(try JSONReader.parse(Array(try Data(contentsOf: URL(fileURLWithPath: dir + "/" + file)))), part, at: "$").prefix(5), [], file)
        }
        let pins = String(decoding: try Data(contentsOf: URL(fileURLWithPath: dir + "/pins/cases.json")), as: UTF8.self)
        XCTAssertTrue(pins.contains("https://downloads.example.com/acme.apk"), "a platform's own store link is asked for")
        XCTAssertGreaterThan(total, 2_000)
        let again = h.dir + "/again"
        h.ok("conformance export \(again)")
        for name in ["index.json", "refusals.json", "locales.json", "refusals/schema-version.json", "refusals/cut-short.json"] + suites.flatMap({ [$0["state"] as! String, $0["cases"] as! String] }) {
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: dir + "/" + name)), try Data(contentsOf: URL(fileURLWithPath: again + "/" + name)), name)
        }
    }

    /// RelctlClient passes the whole suite: every case, from the state alone.
    func testRelctlClientPassesTheWholeSuite() throws {
        let h = Harness()
        let dir = h.dir + "/suite"
        h.ok("conformance export \(dir)")
        let index = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: dir + "/index.json"))) as? [String: Any])
        var passed = 0, failed = 0
        for suite in index["suites"] as! [[String: Any]] {
            let state = Array(try Data(contentsOf: URL(fileURLWithPath: dir + "/" + (suite["state"] as! String))))
            let cases = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: dir + "/" + (suite["cases"] as! String)))) as! [[String: Any]]
            var controls: [String: ReleaseControl] = [:]
            for c in cases {
                let device = ReleaseControl.Device(platform: c["platform"] as! String, version: c["version"] as! String,
                                                   build: (c["build"] as? NSNumber)?.int64Value, os: c["os"] as? String, languages: c["languages"] as! [String])
                let installID = c["installId"] as? String
                let key = "\(device.platform) \(device.version) \(device.build ?? -1) \(device.os ?? "-") \(device.languages) \(installID ?? "-")"
                let control: ReleaseControl
                if let known = controls[key] { control = known } else {
                    // An install with no id is one outside every rollout: an id no rollout lets in at any step.
                    control = try ReleaseControl(device: device, installID: installID ?? ConformanceSuiteTests.outsideTheRollout(state, platform: device.platform))
                    try control.load(state)
                    controls[key] = control
                }
                let at = Time.parseUTC(c["at"] as! String)!
                let got = try XCTUnwrap(control.state(at: at))
                let problem = ConformanceSuiteTests.mismatch(got, c["expected"] as! [String: Any])
                if let problem {
                    failed += 1
                    if failed <= 10 { XCTFail("\(suite["name"]!): \(key) at \(c["at"]!): \(problem)") }
                } else { passed += 1 }
            }
        }
        XCTAssertEqual(failed, 0)
        XCTAssertGreaterThan(passed, 2_000)
        print("RelctlClient: \(passed) cases passed")
    }

    /// An install id in bucket 9,999 of the platform's rollout: in it only once it reaches every install.
    static func outsideTheRollout(_ state: [UInt8], platform: String) -> String {
        guard let salt = (try? ControlImport.read(state, texts: false))?.bare.platforms.first(where: { $0.name == platform })?.rollout?.salt else { return "no-rollout" }
        var n = 0
        while Rollout.bucket(salt: salt, installID: "outside-\(n)") != Rollout.unit - 1 { n += 1 }
        return "outside-\(n)"
    }

    /// What differs between the client's state and the expected answer (nil: nothing).
    static func mismatch(_ s: ReleaseState, _ e: [String: Any]) -> String? {
        func string(_ k: String) -> String? { e[k] as? String }
        let texts = e["texts"] as! [String: String]
        var problems: [String] = []
        if s.kind.rawValue != string("kind") { problems.append("kind \(s.kind.rawValue), expected \(string("kind") ?? "?")") }
        if s.pollIntervalSeconds != (e["pollIntervalSeconds"] as! NSNumber).int64Value { problems.append("poll \(s.pollIntervalSeconds)") }
        if let u = s.update {
            let want: [(String, String?, String?)] = [
                ("target", u.version, string("target")), ("updateUrl", u.storeURL, string("updateUrl")), ("locale", u.locale, string("locale")),
                ("title", u.title, texts["title"]), ("message", u.message, texts["message"]), ("updateButton", u.updateButton, texts["updateButton"]),
                ("laterButton", u.laterButton, texts["laterButton"]), ("skipButton", u.skipButton, (e["skipAllowed"] as? Bool) == true ? texts["skipButton"] : nil),
                ("deadline", u.deadline.map(Time.format), string("deadline")),
            ]
            for (name, got, expected) in want where got != expected { problems.append("\(name) '\(got ?? "nil")', expected '\(expected ?? "nil")'") }
            if u.build != (e["targetBuild"] as? NSNumber)?.int64Value { problems.append("build") }
            if u.skipAllowed != (e["skipAllowed"] as? Bool) { problems.append("skipAllowed") }
            if u.remindAfterHours != (e["remindAfterHours"] as? NSNumber)?.int64Value { problems.append("remindAfterHours") }
            if u.frequency != string("frequency") { problems.append("frequency '\(u.frequency ?? "nil")', expected '\(string("frequency") ?? "nil")'") }
        } else if let m = s.maintenance {
            let want: [(String, String?, String?)] = [
                ("title", m.title, texts["title"]), ("message", m.message, texts["message"]), ("retryButton", m.retryButton, texts["retryButton"]),
                ("until", m.until.map(Time.format), string("until")), ("locale", m.locale, string("locale")),
            ]
            for (name, got, expected) in want where got != expected { problems.append("\(name) '\(got ?? "nil")', expected '\(expected ?? "nil")'") }
            if m.window != (e["window"] as? NSNumber)?.int64Value { problems.append("window") }
        } else if string("target") != nil {
            problems.append("no update, expected \(string("target")!)")
        }
        return problems.isEmpty ? nil : problems.joined(separator: "; ")
    }
}

/// RelctlClient's own behaviour: the user's choices, offline launches,
/// damaged documents, instants passing, downloads from a real web server.
final class ReleaseControlTests: XCTestCase {
    /// A published control.json of the harness's sample (`configure` changes it first).
    static func published(_ h: Harness, _ configure: (Harness) -> Void = { _ in }) -> [UInt8] {
        Array(FileManager.default.contents(atPath: tree(h, configure) + "/shop/control.json")!)
    }

    /// The whole published tree, for a web server.
    static func tree(_ h: Harness, _ configure: (Harness) -> Void = { _ in }) -> String {
        configure(h)
        let out = h.dir + "/out-\(UUID().uuidString)"
        h.ok("publish \(out) -q")
        return out
    }

    static func device(_ version: String, build: Int64? = nil, os: String? = nil, languages: [String] = ["en"]) -> ReleaseControl.Device {
        ReleaseControl.Device(platform: "ios", version: version, build: build, os: os, languages: languages)
    }

    /// Later holds an optional update for its remind-after hours; skip
    /// holds it until a newer version is the target; neither applies to a required update.
    func testLaterAndSkip() throws {
        let h = Harness()
        h.sample()
        let storage = URL(fileURLWithPath: h.dir + "/app")
        let now = h.now
        let control = try ReleaseControl(device: Self.device("1.1", build: 110), storage: storage, clock: { now })
        let first = try control.load(Self.published(h))
        XCTAssertEqual(first.kind, .optional)
        XCTAssertEqual(first.update?.version, "2.0")
        XCTAssertEqual(first.update?.storeURL, "https://apps.apple.com/app/id1088280260")
        XCTAssertEqual(first.update?.skipAllowed, true, "the default rule lets a major update be skipped")
        XCTAssertTrue(first.shouldPrompt)
        XCTAssertNil(first.update?.releaseNotes, "control.json carries no notes")
        let tree = Self.tree(h)
        try control.loadWhatsNew(Array(FileManager.default.contents(atPath: tree + "/shop/ios/whatsnew/en.json")!))
        XCTAssertEqual(control.state(at: now)?.update?.releaseNotes, "New look", "the notes of the version offered")
        XCTAssertThrowsError(try control.loadWhatsNew(Array("{\"versions\":[{}]}".utf8)))
        XCTAssertEqual(control.state(at: now)?.update?.releaseNotes, "New look", "a bad what's-new file changes nothing")
        XCTAssertTrue(control.later())
        XCTAssertEqual(control.state(at: now)?.shouldPrompt, false)
        XCTAssertEqual(control.state(at: now + 24 * 3600 - 1)?.shouldPrompt, false)
        XCTAssertEqual(control.state(at: now + 24 * 3600)?.shouldPrompt, true, "asked again after the remind-after hours")
        XCTAssertTrue(control.skip())
        XCTAssertEqual(control.state(at: now + 30 * 86400)?.shouldPrompt, false, "2.0 is skipped for good")
        let stricter = try control.load(Self.published(h) { $0.ok("rules set --major persistent --yes") })
        XCTAssertEqual(stricter.update?.skipAllowed, false)
        XCTAssertEqual(control.state(at: now + 25 * 3600)?.shouldPrompt, true, "a rule that no longer allows skipping asks again (once the later has passed)")
        try control.load(Self.published(h) { $0.ok("rules set --major default --yes") })
        // Kept across launches.
        let relaunched = try ReleaseControl(device: Self.device("1.1", build: 110), storage: storage, clock: { now })
        XCTAssertEqual(relaunched.state(at: now)?.shouldPrompt, false)
        // A newer target is prompted again.
        let newer = try relaunched.load(Self.published(h) { $0.ok("version add 2.1 --platform ios --build 210 --released 2026-11-01T00:00:00Z") })
        XCTAssertEqual(newer.update?.version, "2.1")
        XCTAssertTrue(newer.shouldPrompt)
        // Required: no later, no skip.
        let required = try relaunched.load(Self.published(h) { $0.ok("force 2.0 --platform ios --yes") })
        XCTAssertEqual(required.kind, .required)
        XCTAssertFalse(relaunched.later())
        XCTAssertFalse(relaunched.skip())
        XCTAssertEqual(relaunched.state()?.shouldPrompt, true)
        XCTAssertNil(required.update?.laterButton.flatMap { _ in required.update?.skipButton }, "a required update offers no skip")
    }

    /// A deadline and a window take effect at their instant with no new download; polling speeds up an hour before the window.
    func testInstantsTakeEffectWithoutADownload() throws {
        let h = Harness()
        h.sample()
        let bytes = Self.published(h) {
            $0.ok("project edit shop --time-zone Europe/Berlin --locales en,de")
            $0.ok("force 2.0 --platform ios --deadline 2026-12-06T12:00:00Z --yes")
            $0.ok("maintenance schedule --from 2026-12-08T02:00:00Z --until 2026-12-08T04:00:00Z --locale de --message \"Zurück um {until}\" --yes")
        }
        let control = try ReleaseControl(device: Self.device("1.1", build: 110, languages: ["de-DE", "en"]))
        try control.load(bytes)
        let before = try XCTUnwrap(control.state(at: Time.parseUTC("2026-12-06T11:59:59Z")!))
        XCTAssertEqual(before.kind, .optional)
        XCTAssertEqual(before.update?.locale, "de")
        XCTAssertTrue(before.update?.message.contains("6. Dezember 2026") == true, before.update?.message ?? "")
        XCTAssertEqual(before.update?.deadline, Time.parseUTC("2026-12-06T12:00:00Z"))
        XCTAssertEqual(before.pollIntervalSeconds, 900)
        XCTAssertEqual(control.state(at: Time.parseUTC("2026-12-06T12:00:00Z")!)?.kind, .required)
        XCTAssertEqual(control.state(at: Time.parseUTC("2026-12-08T01:00:00Z")!)?.pollIntervalSeconds, 60, "an hour before the window")
        let down = try XCTUnwrap(control.state(at: Time.parseUTC("2026-12-08T02:00:00Z")!))
        XCTAssertEqual(down.kind, .maintenance)
        XCTAssertEqual(down.maintenance?.message, "Zurück um 8. Dezember 2026 um 05:00 (UTC+1)")
        XCTAssertEqual(down.pollIntervalSeconds, 60)
        XCTAssertEqual(control.state(at: Time.parseUTC("2026-12-08T04:00:00Z")!)?.kind, .required, "the window ends at its instant")
        XCTAssertEqual(control.state(at: Time.parseUTC("2026-12-08T04:00:00Z")!)?.pollIntervalSeconds, 900)
    }

    /// Without the zone files, Foundation's transitions give the same offsets and names.
    func testTheZoneFromFoundationIsTheZoneFromItsFile() throws {
        for name in ["Europe/Berlin", "America/New_York", "Asia/Kolkata", "Australia/Lord_Howe"] {
            let file = try XCTUnwrap(ZoneRules(tzif: Array(try Data(contentsOf: URL(fileURLWithPath: "/usr/share/zoneinfo/" + name)))))
            let foundation = ReleaseControl.zone(try XCTUnwrap(TimeZone(identifier: name)))
            for t in stride(from: Int64(0), to: 4_000_000_000, by: 86_400 * 13 + 3_607) {
                if file.offset(at: t) != foundation.offset(at: t) { return XCTFail("\(name) at \(Time.format(t)): \(file.offset(at: t)) vs \(foundation.offset(at: t))") }
            }
        }
    }

    /// Damaged, cut-short and hostile documents are refused and reported;
    /// the last good one stays, on disk too, and a launch without network reads it.
    func testBadDocumentsNeverReplaceTheLastGoodOne() throws {
        let h = Harness()
        h.sample()
        let storage = URL(fileURLWithPath: h.dir + "/app")
        let good = Self.published(h)
        let control = try ReleaseControl(device: Self.device("1.0", build: 100), storage: storage)
        XCTAssertNil(control.state(), "nothing read yet")
        let shown = try control.load(good)
        var nested = ""
        for _ in 0..<100_000 { nested += "[" }
        let text = String(decoding: good, as: UTF8.self)
        let hostile: [(String, [UInt8])] = [
            ("empty", []), ("cut short", Array(good.prefix(good.count / 2))), ("not JSON", Array("<html>502 Bad Gateway</html>".utf8)),
            ("deeply nested", Array(nested.utf8)), ("not UTF-8", Array(good.prefix(40)) + [0xFF, 0xFE] + Array(good.dropFirst(42))),
            ("another schema", Array(text.replacingOccurrences(of: "\"schemaVersion\":1", with: "\"schemaVersion\":2").utf8)),
            ("a huge number", Array(text.replacingOccurrences(of: "\"releaseDelayDays\":1", with: "\"releaseDelayDays\":1e999").utf8)),
            ("a version that is not one", Array(text.replacingOccurrences(of: "\"version\":\"2.0\"", with: "\"version\":\"2.0-beta\"").utf8)),
            ("no such platform", Array(text.replacingOccurrences(of: "\"ios\":", with: "\"tvos\":").utf8)),
            ("too large", good + [UInt8](repeating: 32, count: ReleaseControl.maximumBytes)),
        ]
        for (what, bytes) in hostile {
            XCTAssertThrowsError(try control.load(bytes), what)
            XCTAssertNotNil(control.lastError, what)
            XCTAssertEqual(control.state(), shown, "\(what): the last good document still answers")
        }
        XCTAssertEqual(try Data(contentsOf: storage.appendingPathComponent("control.json")), Data(good), "the stored document is the good one")
        // Offline: a new launch answers from storage.
        let offline = try ReleaseControl(device: Self.device("1.0", build: 100), storage: storage)
        XCTAssertEqual(offline.state(), shown)
        // A stored document damaged on disk is as if none were stored.
        try Data("{\"schemaVersion\":".utf8).write(to: storage.appendingPathComponent("control.json"))
        XCTAssertNil(try ReleaseControl(device: Self.device("1.0", build: 100), storage: storage).state())
        XCTAssertThrowsError(try ReleaseControl(device: Self.device("1.0-beta")))
    }

    /// Downloads from nginx on loopback: refresh reads the served file, a
    /// missing one is reported, and start() downloads at once and calls onChange.
    func testDownloadsFromAWebServer() throws {
        let h = Harness()
        h.sample()
        let root = Self.tree(h)
        let server = try LocalNginx(root: root, dir: h.dir, probe: "shop/control.json")
        let url = server.url("shop/control.json")
        let control = try ReleaseControl(device: Self.device("1.0", build: 100), source: url)
        let fetched = Self.blocking { try? await control.refresh() }
        XCTAssertEqual(fetched?.kind, .optional)
        XCTAssertEqual(fetched?.update?.releaseNotes, "New look", "refresh reads the what's-new file beside control.json")
        let missing = try ReleaseControl(device: Self.device("1.0", build: 100), source: server.url("nope.json"))
        let failure = Self.blocking { () async -> ReleaseControl.Failure? in
            do { _ = try await missing.refresh(); return nil } catch { return error as? ReleaseControl.Failure }
        }
        XCTAssertEqual(failure, .download("HTTP 404 from \(server.url("nope.json"))"))
        XCTAssertEqual(missing.lastError, failure)
        // The server's file changes; start() downloads at once and says so.
        try Data(Self.published(h) { $0.ok("force 2.0 --platform ios --yes") }).write(to: URL(fileURLWithPath: root + "/shop/control.json"))
        let changed = expectation(description: "onChange")
        control.onChange = { state in if state.kind == .required { changed.fulfill() } }
        control.start()
        wait(for: [changed], timeout: 20)
        control.stop()
        withExtendedLifetime(server) {}
    }

    /// Runs async code to its end from a synchronous test.
    static func blocking<T: Sendable>(_ body: @escaping @Sendable () async -> T) -> T {
        let box = AsyncBox<T>(), done = DispatchSemaphore(value: 0)
        Task.detached { box.value = await body(); done.signal() }
        done.wait()
        return box.value!
    }
}

/// What a detached task hands back to the waiting test.
final class AsyncBox<T>: @unchecked Sendable { var value: T? }
