import Foundation
import XCTest
@testable import RelctlCLI
@testable import RelctlCore
@testable import RelctlModel
@testable import RelctlStore
@testable import SQLite

/// The status pages: DIR/index.html and DIR/<project>/status.html.
final class StatusPageTests: XCTestCase {
    static let hostile = "<script>alert(1)</script>"

    /// Several platforms, pins, floors, a grace period, an active and an
    /// upcoming window, and hostile text in the name, a note and messages.
    static func scenario(_ h: Harness) {
        h.sample()
        XCTAssertEqual(h.run(["project", "edit", "shop", "--name", "Shop \(hostile) & \"Co\"", "--time-zone", "Europe/Berlin"]).status, 0)
        h.ok("platform add macos --bundle-id com.example.shop.mac --app-store-id 1088280261")
        h.ok("version add 1.5 --platform macos --build 150 --released 2026-03-01T00:00:00Z")
        h.ok("version add 2.0 --platform macos --build 200 --released 2026-11-28T00:00:00Z --notes \"New \(hostile) look\"")
        h.ok("version add 2.1 --platform ios --build 210 --released 2026-11-29T06:00:00Z --notes \"Faster \(hostile) checkout\"")
        h.ok("policy set 1.1 force --platform ios --yes")
        h.ok("policy set 1.0 none --platform ios --yes")
        h.ok("force 1.9 --platform android --yes")
        h.ok("force 2.0 --platform ios --after 7d --yes")
        h.ok("recommend 2.1 --platform ios --yes")
        h.ok("message set required --locale en --title \"Update <img src=x onerror=alert(2)>\"")
        h.ok("maintenance start --platform macos --for 2h --message \"Back at {until} <b>soon</b> \(hostile)\" --yes")
        h.ok("maintenance schedule --from 2026-12-03T02:00:00Z --until 2026-12-03T04:00:00Z --message \"Planned \(hostile)\" --yes")
    }

    func read(_ path: String) -> String { (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }

    /// What `relctl check --json` says for every recorded version of every
    /// platform of every project, at the harness's time.
    static func expected(_ h: Harness) -> [[String: Any]] {
        var out: [[String: Any]] = []
        let store = try! Store(path: h.db, mode: .read, user: "tester")
        let snapshots = try! store.read { try store.projects().map { try store.snapshot($0) } }
        for s in snapshots {
            for p in s.platforms {
                for v in s.versions(of: p) {
                    var args = ["-p", s.project.slug, "--json", "check", v.version.text, "--platform", p.name]
                    if let b = v.build { args += ["--build", String(b)] }
                    let r = h.run(args)
                    let json = r.json as? [String: Any]
                    let verdict = json?["verdict"] as? String ?? "?"
                    let target = (json?["target"] as? [String: Any])?["version"] as? String
                    out.append(["project": s.project.slug, "platform": p.name, "version": v.version.text,
                                "build": v.build.map { NSNumber(value: $0) } ?? NSNull(), "verdict": verdict, "target": target ?? NSNull()])
                }
            }
        }
        return out
    }

    /// Every ladder row as (platform, version, build) → data-verdict and the
    /// version it sends users to ("" for none).
    static func rows(_ page: String) -> [String: String] {
        var out: [String: String] = [:]
        var platform = ""
        for line in page.split(separator: "\n") {
            if let r = line.range(of: "<section class=\"platform\" data-platform=\"") {
                platform = String(line[r.upperBound...].prefix { $0 != "\"" })
            }
            guard line.hasPrefix("<tr data-version=\"") else { continue }
            func attr(_ name: String) -> String {
                let r = line.range(of: " \(name)=\"") ?? line.range(of: "<tr \(name)=\"")!
                return String(line[r.upperBound...].prefix { $0 != "\"" })
            }
            // The verdict cell's first "→ target" (later ones are older OS bands').
            let cells = line.components(separatedBy: "</td><td>")
            let target = cells.count > 2 ? cells[2].components(separatedBy: "<br>")[0].components(separatedBy: "→ ").dropFirst().first?.prefix { $0 != "<" } : nil
            out["\(platform) \(attr("data-version")) \(attr("data-build"))"] = attr("data-verdict") + " " + (target.map(String.init) ?? "")
        }
        return out
    }

    func testPublishWritesBothPagesListedInTheIndexAndVerifyPasses() throws {
        let h = Harness()
        StatusPageTests.scenario(h)
        let out = h.dir + "/out"
        h.ok("publish \(out)")
        let page = read(out + "/shop/status.html"), index = read(out + "/index.html")
        XCTAssertTrue(page.hasPrefix("<!DOCTYPE html>"))
        XCTAssertTrue(index.contains("href=\"shop/status.html\""))
        let listed = (try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out + "/index.json"))) as! [String: Any])["files"] as! [String: Any]
        XCTAssertNotNil(listed["index.html"]); XCTAssertNotNil(listed["shop/status.html"])
        let verify = h.run("verify \(out)")
        XCTAssertEqual(verify.status, 0, verify.out + verify.err)
        XCTAssertFalse(verify.out.contains("index.html"), verify.out)
        // What the page shows: grace period with its date, floors, pins, the windows, limits.
        XCTAssertTrue(page.contains("optional until <time datetime=\"2026-12-06T12:00:00Z\" data-offset=\"3600\">2026-12-06 13:00 CET (12:00 UTC)</time>"), page)
        XCTAssertTrue(page.contains("<tr class=\"floor\"><td colspan=\"5\">▼ force floor 2.0"))
        XCTAssertTrue(page.contains("<tr class=\"floor rec\"><td colspan=\"5\">▼ recommend floor 2.1"))
        XCTAssertTrue(page.contains("<span class=\"tag\">pinned: force</span>"))
        XCTAssertTrue(page.contains("<span class=\"v v-maintenance\">maintenance</span> active now</strong>: window #1 (macos)"))
        XCTAssertTrue(page.contains("<li data-state=\"upcoming\"><span class=\"tag\">upcoming</span> maintenance window #2 (all platforms)"))
        XCTAssertTrue(page.contains("<ul class=\"limits\">") && page.contains("pin 1.1 force"), "the declared limits are listed")
        XCTAssertTrue(page.contains("<svg "))
        XCTAssertTrue(page.contains("Next change: <time datetime=\"2026-11-29T14:00:00Z\" data-offset=\"3600\">"), "the macOS window ends two hours after now")
        XCTAssertTrue(index.contains("<span class=\"v v-maintenance\">maintenance</span> active now"))
        XCTAssertTrue(page.contains("This state since <time datetime=\"2026-11-29T12:00:00Z\" data-offset=\"3600\">"), "the window started at the publish instant: the last change")
        // Nothing private: no OS user, no audit trail, no publish instant.
        for text in [page, index] {
            XCTAssertFalse(text.contains("tester"))
            XCTAssertFalse(text.contains("src=\"") || text.contains("href=\"http") || text.contains("url(") || text.contains("@import"), "nothing is fetched")
        }
    }

    func testEveryVerdictOnThePageIsWhatCheckSays() throws {
        let h = Harness()
        StatusPageTests.scenario(h)
        h.ok("publish \(h.dir)/out")
        let rows = StatusPageTests.rows(read(h.dir + "/out/shop/status.html"))
        let expected = StatusPageTests.expected(h)
        XCTAssertEqual(rows.count, expected.count)
        XCTAssertEqual(Set(expected.map { $0["verdict"] as! String }), ["maintenance", "required", "optional", "none"], "the scenario shows every verdict")
        for e in expected {
            let key = "\(e["platform"]!) \(e["version"]!) \((e["build"] as? NSNumber).map { "\($0)" } ?? "")"
            XCTAssertEqual(rows[key], "\(e["verdict"]!) \(e["target"] as? String ?? "")", "\(key): the verdict and target check gives")
        }
    }

    /// The page's visible text: tags, attributes and the script gone.
    static func visible(_ page: String) -> String {
        var text = page
        for pattern in ["<script>[\\s\\S]*?</script>", "<style>[\\s\\S]*?</style>", "<[^>]*>"] {
            text = text.replacingOccurrences(of: pattern, with: " ", options: .regularExpression)
        }
        return text
    }

    /// What people read on the page (issue 35): filled placeholders, every
    /// text some version reads and what it reads after the next change,
    /// local time first, no RFC 3339 in sentences, no polling in "Next
    /// change", a short window that can be seen.
    func testThePageSaysWhatPeopleRead() throws {
        let h = Harness()
        StatusPageTests.scenario(h)
        h.ok("maintenance schedule --from 2026-12-10T02:00:00Z --for 30m --yes")
        h.ok("status --html \(h.dir)/now.html")
        let page = read(h.dir + "/now.html"), text = StatusPageTests.visible(page)
        // 1. The banner is what the app shows, {until} filled in the project's zone.
        XCTAssertNil(text.range(of: "\\{[a-z_]+\\}", options: .regularExpression), "no unfilled placeholder anywhere: \(text)")
        XCTAssertTrue(page.contains("Apps show a blocking screen: “<bdi>Under maintenance — Back at November 29, 2026 at 3:00 PM (UTC+1) &lt;b&gt;soon"), page)
        // 2. Every text some version reads now: the deadline copy, the required message, the window's copy.
        func section(_ platform: String) -> String {
            let section = page.components(separatedBy: "<section class=\"platform\" data-platform=\"\(platform)\">")[1].components(separatedBy: "</section>")[0]
            return section.components(separatedBy: "<h3>What users read (en)</h3>")[1].components(separatedBy: "<h3>")[0]
        }
        var read = section("ios")
        XCTAssertTrue(read.contains("other versions below 2.0:</span> <bdi>Update available — Version 2.1 of Shop"), "installs nobody recorded read the deadline copy: \(read)")
        XCTAssertTrue(read.contains("Please update by December 6, 2026 at 1:00 PM (UTC+1)"), read)
        XCTAssertTrue(read.contains("<li data-kind=\"required\">"), read)
        XCTAssertTrue(read.contains("1.1 (110):</span> <bdi>Update &lt;img"), "the pinned version's required message names who reads it: \(read)")
        read = section("macos")
        XCTAssertTrue(read.contains("<li data-kind=\"maintenance\">"), read)
        // … and from the next change on: macOS's window ends, its versions read their update texts.
        XCTAssertTrue(read.contains("<p class=\"next\">From <time datetime=\"2026-11-29T14:00:00Z\" data-offset=\"3600\">2026-11-29 15:00 CET (14:00 UTC)</time> (maintenance window #1 (macos) ends):"), read)
        // 3. Local time first, UTC beside; sentences (the Why column, limits) hold no RFC 3339 instant.
        XCTAssertTrue(text.contains("2026-12-06 13:00 CET (12:00 UTC)"))
        XCTAssertNil(text.range(of: "[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:", options: .regularExpression), "no raw instant in what people read")
        XCTAssertTrue(page.contains("Times in Europe/Berlin, the project’s time zone"))
        // 5. The 30-minute window (#3) is a bar at least 6 units wide, labelled.
        let bar = try XCTUnwrap(page.components(separatedBy: "\n").first { $0.contains("<rect class=\"w-upcoming\"") && $0.contains("window #3") })
        let width = Double(bar.components(separatedBy: "width=\"")[1].prefix { $0 != "\"" })!
        XCTAssertGreaterThanOrEqual(width, Timeline.minimumWidth)
        XCTAssertTrue(page.contains(">#3</text>"))
        // 4. An hour before window #2 control.json polls faster: the page's next change is the window itself.
        h.now = try TimeInput.parse("2026-12-03T00:30:00Z", now: 0, timeZone: "UTC")
        h.ok("status --html \(h.dir)/before.html")
        let before = self.read(h.dir + "/before.html")
        let next = before.components(separatedBy: "id=\"next\">")[1].components(separatedBy: "</p>")[0]
        XCTAssertTrue(next.contains("2026-12-03T02:00:00Z") && next.contains("maintenance window #2 (all platforms) starts"), next)
        XCTAssertFalse(before.components(separatedBy: "<h2>For engineers</h2>")[0].contains("polling"), "polling is the engineers' section's")
        XCTAssertTrue(before.contains("every 60 s from an hour before a maintenance window until it ends. Faster from <time datetime=\"2026-12-03T01:00:00Z\""), before)
        // A project on UTC shows UTC alone.
        h.ok("project edit shop --time-zone UTC")
        h.ok("status --html \(h.dir)/utc.html")
        let utc = self.read(h.dir + "/utc.html")
        XCTAssertTrue(utc.contains(">2026-12-06 12:00 UTC</time>") && utc.contains("Times in UTC"), utc)
    }

    /// The summary publish builds from the rendered states is the one built from the snapshot alone.
    func testSummaryFromStatesIsTheSummaryFromTheSnapshot() throws {
        let h = Harness()
        StatusPageTests.scenario(h)
        let store = try Store(path: h.db, mode: .read, user: "tester")
        let snapshot = try store.read { try store.snapshot(try store.requireProject("shop")) }
        var warnings: [String] = []
        let rendered = ProjectFiles.renderChecked(snapshot, at: h.now, warnings: &warnings, page: StatusPageOptions())
        let summary = StatusSummary(snapshot, at: h.now)
        XCTAssertEqual(rendered.summary, summary)
        XCTAssertEqual(summary.platforms.map(\.maintenance), [0, 0, 2], "the macOS window blocks both macOS versions")
        XCTAssertEqual(summary.active.map(\.id), [1]); XCTAssertEqual(summary.upcoming.map(\.id), [2])
    }

    func testAnEmptyProjectHasAPageToo() throws {
        let h = Harness()
        h.ok("init"); h.ok("project add empty --name Empty")
        h.ok("publish \(h.dir)/out")
        let page = read(h.dir + "/out/empty/status.html")
        XCTAssertTrue(page.contains("No platform yet") && page.contains("Nothing dated yet"), page)
        XCTAssertTrue(page.contains("Next change: none ahead"))
        XCTAssertTrue(read(h.dir + "/out/index.html").contains("data-project=\"empty\""))
    }

    /// A platform without a record AndVersion needs (an App Store id, a
    /// versionCode) gets no manifest, and everything else is published: the
    /// gap shows when a release delay ends, under --watch, where refusing the
    /// whole tree would hold back every other project's files. Publish, the
    /// page and status name the limit with its fix; verify agrees.
    func testAManifestThatCannotBeMadeIsALimitNotARefusal() throws {
        let h = Harness()
        h.ok("init"); h.ok("project add app --name App")
        h.ok("platform add ios --bundle-id com.example.app")
        h.ok("platform add android --bundle-id com.example.app")
        h.ok("version add 1.0 --platform ios --released 2026-01-01T00:00:00Z")
        h.ok("version add 1.0 --platform android --build 10 --released 2026-01-01T00:00:00Z")
        // relctl asks every Android version for its versionCode; a row edited by hand may still lack one.
        try Connection(path: h.db, readOnly: false, create: false).execute("UPDATE version SET build = NULL WHERE platform_id = (SELECT id FROM platform WHERE name = 'android')")
        h.ok("project add other --name Other")
        h.ok("-p other platform add ios --bundle-id com.example.other --app-store-id 42")
        h.ok("-p other version add 1.0 --platform ios --released 2026-01-01T00:00:00Z")
        h.ok("-p other maintenance start --until 2026-12-02T00:00:00Z --platform ios --yes")
        let out = h.dir + "/out"
        let r = h.run(["publish", out, "--at", "2026-11-29T12:00:00Z"])
        XCTAssertEqual(r.status, 0, r.err)
        XCTAssertTrue(r.err.contains("not carried: app/ios: updates for AndVersion apps — AndVersion iOS: no manifest without an App Store id (relctl platform edit ios --app-store-id ID -p app)"), r.err)
        XCTAssertTrue(r.err.contains("not carried: app/android: updates for AndVersion apps — AndVersion Android: no manifest: 1.0, the current version, has no versionCode (relctl version edit 1.0 --platform android --build N -p app)"), r.err)
        let fm = FileManager.default
        XCTAssertFalse(fm.fileExists(atPath: out + "/app/ios/andversion.json"))
        XCTAssertFalse(fm.fileExists(atPath: out + "/app/android/andversion.json"))
        XCTAssertTrue(fm.fileExists(atPath: out + "/app/ios/retired/en.json"), "the platform's other files are published")
        let control = read(out + "/other/control.json")
        XCTAssertTrue(control.contains("\"active\":[{"), "the other project's window goes out: \(control)")
        XCTAssertTrue(read(out + "/app/status.html").contains("no manifest without an App Store id"))
        XCTAssertTrue(h.ok("-p app status --at 2026-11-29T12:00:00Z").out.contains("no manifest without an App Store id"))
        XCTAssertEqual(h.run(["verify", out]).status, 0, "a declared limit is not a disagreement")
        // Deleted by hand where relctl publishes one, a manifest is a defect verify reports.
        h.ok("-p app platform edit ios --app-store-id 123")
        XCTAssertEqual(h.run(["publish", out, "--at", "2026-11-29T12:00:00Z"]).status, 0)
        XCTAssertTrue(read(out + "/app/ios/andversion.json").contains("\"AppStoreId\":\"123\""))
        try fm.removeItem(atPath: out + "/app/ios/andversion.json")
        let verify = h.run(["verify", out, "--json"])
        XCTAssertEqual(verify.status, 1)
        let disagreements = (verify.json as? [String: Any])?["disagreements"] as? [[String: Any]] ?? []
        XCTAssertTrue(disagreements.contains { $0["file"] as? String == "app/ios/andversion.json" && $0["clientDoes"] as? String == "nothing (the file is missing)" }, "\(disagreements)")
        // The first version not forced without a versionCode (imported so): MinVersion goes just above
        // the forced ones' highest code, so the manifest still forces exactly them.
        let a = Harness()
        a.ok("init"); a.ok("project add app --name App")
        a.ok("platform add android --bundle-id com.example.app")
        for (v, b) in [("1.0", 10), ("2.0", 20), ("3.0", 30)] { a.ok("version add \(v) --platform android --build \(b) --released 2026-01-01T00:00:00Z") }
        try Connection(path: a.db, readOnly: false, create: false).execute("UPDATE version SET build = NULL WHERE version = '2.0'")
        a.ok("force 2.0 --platform android --yes")
        XCTAssertEqual(a.run(["publish", a.dir + "/out", "--at", "2026-11-29T12:00:00Z"]).status, 0)
        XCTAssertTrue(read(a.dir + "/out/app/android/andversion.json").contains("\"MinVersion\":11"), read(a.dir + "/out/app/android/andversion.json"))
        XCTAssertEqual(a.run(["verify", a.dir + "/out"]).status, 0, a.run(["verify", a.dir + "/out"]).out)
    }

    func testHostileTextStaysText() throws {
        let h = Harness()
        StatusPageTests.scenario(h)
        h.ok("publish \(h.dir)/out")
        for path in ["/out/shop/status.html", "/out/index.html"] {
            let page = read(h.dir + path)
            XCTAssertEqual(page.components(separatedBy: "<script").count, 2, "\(path): only relctl's own script")
            XCTAssertFalse(page.contains("<img") || page.contains("<b>"), path)
            XCTAssertTrue(page.contains("Shop &lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;Co&quot;"), path)
        }
        let page = read(h.dir + "/out/shop/status.html")
        XCTAssertTrue(page.contains("Update &lt;img src=x onerror=alert(2)&gt;"), "the required message is shown escaped")
        XCTAssertTrue(page.contains("&lt;b&gt;soon&lt;/b&gt;"), "the window’s message is shown escaped")
        XCTAssertTrue(page.contains("Faster &lt;script&gt;alert(1)&lt;/script&gt; checkout"), "notes are shown escaped")
        XCTAssertEqual(HTML.escape("a\u{0}b\u{85}c\u{FFFF}d\r'"), "a\u{FFFD}b\u{FFFD}c\u{FFFD}d\n&#39;")
    }

    /// Same database and state: same bytes, whatever the publish instant
    /// between two changes; the next change instant moves them.
    func testPagesChangeOnlyWhenTheStateDoes() throws {
        let h = Harness()
        StatusPageTests.scenario(h)
        let out = h.dir + "/out"
        h.ok("publish \(out) --at 2026-11-29T12:00:00Z")
        let page = read(out + "/shop/status.html"), index = read(out + "/index.html")
        let r = h.ok("--json publish \(out) --at 2026-11-29T13:59:59Z")
        XCTAssertEqual(read(out + "/shop/status.html"), page)
        XCTAssertEqual(read(out + "/index.html"), index)
        XCTAssertEqual((r.json as? [String: Any])?["changed"] as? [String], [], "nothing changed: index.json records the span, not the publish instant")
        h.ok("publish \(out) --at 2026-11-29T14:00:00Z")
        XCTAssertNotEqual(read(out + "/shop/status.html"), page, "the window ended: the page says so")
        XCTAssertFalse(read(out + "/shop/status.html").contains("active now"))
    }

    /// A change to one project leaves the other project's page alone: each
    /// page is its own project's alone.
    func testOneProjectsChangeLeavesTheOthersPageAsItWas() throws {
        let h = Harness()
        h.sample()
        h.ok("project add blog --name Blog")
        h.ok("-p blog platform add android --bundle-id com.example.blog")
        h.ok("-p blog version add 1.0 --build 1 --released 2026-01-01T00:00:00Z")
        let out = h.dir + "/out"
        h.ok("publish \(out)")
        let blog = read(out + "/blog/status.html"), shop = read(out + "/shop/status.html"), index = read(out + "/index.html")
        h.ok("-p shop force 2.0 --platform ios --yes")
        let r = h.ok("--json publish \(out)")
        XCTAssertEqual(read(out + "/blog/status.html"), blog)
        XCTAssertNotEqual(read(out + "/shop/status.html"), shop)
        XCTAssertNotEqual(read(out + "/index.html"), index)
        XCTAssertFalse(((r.json as? [String: Any])?["changed"] as? [String] ?? []).contains("blog/status.html"))
        // Publishing one project still gives the root page every project.
        h.ok("-p blog recommend 1.0 --yes")
        h.ok("-p blog publish \(out)")
        let root = read(out + "/index.html")
        XCTAssertTrue(root.contains("data-project=\"shop\"") && root.contains("data-project=\"blog\""))
        // ... the same bytes as a publish of every project (the others' summaries come from their snapshots).
        h.ok("publish \(h.dir)/all")
        XCTAssertEqual(root, read(h.dir + "/all/index.html"))
    }

    func testNoPagesFlagRemovesThemAndStatusHtmlWritesTheSamePage() throws {
        let h = Harness()
        StatusPageTests.scenario(h)
        let out = h.dir + "/out"
        h.ok("publish \(out)")
        let published = read(out + "/shop/status.html")
        let r = h.ok("--json publish \(out) --no-pages")
        XCTAssertEqual(((r.json as? [String: Any])?["removed"] as? [String])?.sorted(), ["index.html", "shop/status.html"])
        XCTAssertFalse(FileManager.default.fileExists(atPath: out + "/index.html"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: out + "/shop/status.html"))
        XCTAssertEqual(h.run("verify \(out)").status, 0)
        // Pages wanted again: the projects are current, but their pages come back (and the same bytes).
        let again = h.ok("--json publish \(out)")
        XCTAssertEqual(((again.json as? [String: Any])?["added"] as? [String])?.sorted(), ["index.html", "shop/status.html"])
        XCTAssertEqual(read(out + "/shop/status.html"), published)
        // The same renderer, without the link to DIR/index.html.
        h.ok("status --html \(h.dir)/local.html")
        let local = read(h.dir + "/local.html")
        XCTAssertEqual(local, published.replacingOccurrences(of: "<p class=\"meta\"><a href=\"../index.html\">All projects</a></p>\n", with: ""))
        XCTAssertEqual(h.ok("status --html -").out, local)
        h.fails("status --html \(h.dir)", "is a folder")
    }
}

/// The pages in a real browser (headless Chromium through Selenium): what a
/// person sees. Screenshots go to .build/status-page-screenshots/.
final class StatusPageBrowserTests: XCTestCase {
    func testPagesInChromium() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/chromium"), FileManager.default.isExecutableFile(atPath: "/usr/bin/chromedriver"),
              (try? Proc.run("/usr/bin/env", ["python3", "-c", "import selenium, html5lib"]))?.status == 0 else {
            return XCTFail("chromium, chromium-driver, selenium and html5lib are needed; scripts/deps.sh test installs them")
        }
        let h = Harness()
        StatusPageTests.scenario(h)
        // Markup, and a word longer than a phone is wide.
        h.ok("project add blog --name \"Blog <i>x</i> \(String(repeating: "W", count: 70))\"")
        h.ok("-p blog platform add android --bundle-id com.example.blog")
        h.ok("-p blog version add 1.0 --build 1 --released 2026-01-01T00:00:00Z")
        h.ok("-p blog version add 1.1 --build 2 --released 2026-11-20T00:00:00Z")
        h.ok("-p shop maintenance schedule --from 2026-12-10T02:00:00Z --for 30m --yes")
        let out = h.dir + "/out"
        h.ok("publish \(out)")
        let expected = h.dir + "/expected.json"
        try JSONSerialization.data(withJSONObject: StatusPageTests.expected(h)).write(to: URL(fileURLWithPath: expected))
        let shots = Package.root + "/.build/status-page-screenshots"
        // The reader is in New York, the project in Berlin: the page gives both.
        var env = ProcessInfo.processInfo.environment
        env["TZ"] = "America/New_York"
        let r = try Proc.run("/usr/bin/env", ["python3", Package.root + "/Tests/Browser/status_pages.py", out, expected, shots], env: env)
        XCTAssertEqual(r.status, 0, r.err + r.out)
        print(r.out)
        for name in ["shop-status-phone", "shop-status-desktop", "index-phone", "index-desktop-dark"] {
            XCTAssertTrue(FileManager.default.fileExists(atPath: "\(shots)/\(name).png"), name)
        }
    }
}
