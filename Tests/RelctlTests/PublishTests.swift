import Foundation
import XCTest
@testable import RelctlCLI
@testable import RelctlCore
@testable import RelctlModel
@testable import RelctlPublish
@testable import RelctlStore
@testable import SQLite

final class PublishTests: XCTestCase {
    static let at = "2026-11-29T12:00:00Z"

    /// The scenario behind the golden files: two platforms, three locales,
    /// floors, a pin, a scheduled window, overrides and right-to-left text.
    func scenario() -> Harness { PublishTests.scenario() }

    static func scenario() -> Harness {
        let h = Harness()
        h.sample()
        h.ok("project edit shop --locales en,tr,he")
        h.ok("notes set 2.0 --platform ios --locale tr \"Yeni görünüm\" \"Daha hızlı ödeme\"")
        h.ok("notes set 2.0.0 --platform android --locale he \"מראה חדש\"")
        h.ok("version add 2.1 --platform ios --build 210 --released 2026-11-29T06:00:00Z")
        h.ok("force 1.1 --platform ios --yes")
        h.ok("policy set 1.1 recommend --platform ios --yes")
        h.ok("force 2.0.0 --platform android --yes")
        h.ok("message set required --locale tr --title \"{app} için güncelleme\"")
        h.ok("maintenance schedule --from 2026-11-29T12:30:00Z --until 2026-11-29T14:00:00Z --message \"Back at {until}\" --yes")
        return h
    }

    func publish(_ h: Harness, _ dir: String, _ extra: [String] = []) -> Harness.Result {
        h.run(["publish", dir, "--at", PublishTests.at] + extra)
    }

    func tree(_ dir: String) -> [String: [UInt8]] {
        fileTree(dir).mapValues { Array($0) }
    }

    func parse(_ bytes: [UInt8], _ name: String) -> JSON {
        do { return try JSONReader.parse(bytes) } catch { XCTFail("\(name) is not valid JSON"); return .null }
    }

    func testGoldenFiles() throws {
        let h = scenario()
        let out = h.dir + "/out"
        // The files clients read; the status pages for people have their own tests (StatusPageTests).
        XCTAssertEqual(publish(h, out, ["--no-pages"]).status, 0)
        let produced = tree(out)
        let golden = Package.root + "/Tests/RelctlTests/Golden"
        if ProcessInfo.processInfo.environment["RELCTL_UPDATE_GOLDEN"] == "1" {
            try? FileManager.default.removeItem(atPath: golden)
            for (path, bytes) in produced {
                let url = URL(fileURLWithPath: golden + "/" + path)
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(bytes).write(to: url)
            }
            // Recording never passes: a regenerated golden is reviewed (git diff, and
            // GoldenPropertiesTests for what a reviewer checked), then the tests run without it.
            XCTFail("golden files rewritten in Tests/RelctlTests/Golden; review 'git diff', update GoldenPropertiesTests if a property changed, and run again without RELCTL_UPDATE_GOLDEN")
        }
        let expected = tree(golden)
        XCTAssertEqual(Set(produced.keys), Set(expected.keys))
        for (path, bytes) in expected {
            XCTAssertEqual(String(decoding: produced[path] ?? [], as: UTF8.self), String(decoding: bytes, as: UTF8.self), path)
        }
    }

    /// Retired's own fixture: 1.0 forced, 1.1 recommended, 2.0 none.
    func testRetiredFixtureSemantics() throws {
        let h = Harness()
        h.ok("init")
        h.ok("project add app")
        h.ok("platform add ios --bundle-id com.example.app --app-store-id 123")
        for (v, b) in [("1.0", 1), ("1.1", 2), ("2.0", 3)] {
            h.ok("version add \(v) --build \(b) --released 2026-01-0\(b)T00:00:00Z")
        }
        h.ok("force 1.1 --yes")
        h.ok("recommend 2.0 --yes")
        XCTAssertEqual(publish(h, h.dir + "/out").status, 0)
        let file = parse(Array(FileManager.default.contents(atPath: h.dir + "/out/app/ios/retired/en.json")!), "retired")
        let versions = file["versions"]!.array!.map { ($0["version"]!.string!, $0["policy"]!.string!) }
        XCTAssertEqual(versions.map(\.0), ["1.0", "1.1", "2.0"])
        XCTAssertEqual(versions.map(\.1), ["force", "recommend", "none"])
    }

    /// Every rule of docs/clients.md, asserted on the files produced.
    func testPublishedFilesObeyTheClientRules() throws {
        let h = scenario()
        let out = h.dir + "/out"
        let r = publish(h, out)
        XCTAssertEqual(r.status, 0, r.err)
        let files = tree(out)
        let allVersions: [String: [String]] = ["ios": ["1.0", "1.1", "2.0", "2.1"], "android": ["1.9", "2.0.0"]]
        for (path, bytes) in files {
            XCTAssertEqual(bytes.last, 10, "\(path) ends with a newline")
            XCTAssertNotNil(String(validating: bytes, as: UTF8.self), "\(path) is UTF-8")
            // The status pages are for people; StatusPageTests checks them.
            if path.hasSuffix(".html") { continue }
            if path.hasSuffix(".xml") {
                XCTAssertNoThrow(try XMLReader.parse(bytes), "\(path) is well-formed XML")
                continue
            }
            let doc = parse(bytes, path)
            let platform = path.split(separator: "/").dropFirst().first.map(String.init) ?? ""
            if path.contains("/retired/") {
                let messaging = doc["messaging"]!
                let forced = messaging["forced"]!, recommended = messaging["recommended"]!
                for block in [forced, recommended] {
                    for key in ["title", "message", "continueButtonText"] { XCTAssertFalse(block[key]?.string?.isEmpty ?? true, "\(path) \(key)") }
                }
                XCTAssertNil(forced["cancelButtonText"], "\(path): forced must not carry cancelButtonText")
                XCTAssertNotNil(recommended["cancelButtonText"]?.string, "\(path): recommended carries cancelButtonText")
                let versions = doc["versions"]!.array!
                XCTAssertEqual(versions.compactMap { $0["version"]?.string }, allVersions[platform], "\(path) lists every version as a string")
                for v in versions { XCTAssertTrue(["force", "recommend", "none"].contains(v["policy"]?.string ?? ""), path) }
                XCTAssertEqual(versions.last?["policy"]?.string, "none", "\(path): the newest is listed as none")
            }
            if path.hasSuffix("andversion.json") {
                let m = doc["AndVersion"]!
                let whatsNew = m["WhatsNew"]!.object!
                XCTAssertFalse(whatsNew.isEmpty, path)
                for (key, lines) in whatsNew {
                    XCTAssertTrue(key.count == 2 && key == key.lowercased(), "\(path): key \(key)")
                    XCTAssertFalse(lines.array!.isEmpty, path)
                    XCTAssertTrue(lines.array!.allSatisfy { $0.string != nil }, path)
                }
                if platform == "ios" {
                    for key in ["CurrentVersion", "MinVersion", "AppStoreId"] { XCTAssertFalse(m[key]?.string?.isEmpty ?? true, "\(path) \(key) is a non-empty string") }
                    XCTAssertTrue(m["AppStoreId"]!.string!.allSatisfy(\.isNumber))
                    XCTAssertNotNil(whatsNew["en"], "English exists, so en is present")
                    // The current version is 2.1 (see below), which has no notes: every key gets the catalog's line.
                    XCTAssertEqual(whatsNew["tr"], .array([.string("Hata düzeltmeleri ve iyileştirmeler.")]))
                } else {
                    XCTAssertNotNil(m["CurrentVersion"]?.int, "\(path): CurrentVersion is an integer")
                    XCTAssertNotNil(m["MinVersion"]?.int, "\(path): MinVersion is an integer")
                    XCTAssertNil(m["AppStoreId"])
                    XCTAssertEqual(whatsNew["he"], whatsNew["iw"], "Hebrew is published under both codes")
                    XCTAssertNotNil(whatsNew["iw"])
                }
            }
            if path.contains("/lookup/") {
                XCTAssertEqual(doc["resultCount"]?.int, 1)
                let result = doc["results"]!.array![0]
                XCTAssertNotNil(result["trackId"]?.int, "trackId is a number")
                for key in ["bundleId", "version", "currentVersionReleaseDate", "minimumOsVersion", "releaseNotes", "trackViewUrl"] {
                    XCTAssertNotNil(result[key]?.string, "\(path) \(key)")
                }
                let date = result["currentVersionReleaseDate"]!.string!
                XCTAssertNotNil(date.range(of: "^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z$", options: .regularExpression), date)
            }
        }
        // 2.1 was released six hours ago, inside its release delay, but the force
        // floor sends 1.0 to it at once, as check says: clients are told about 2.1.
        let ios = parse(files["shop/ios/andversion.json"]!, "andversion")["AndVersion"]!
        XCTAssertEqual(ios["CurrentVersion"]?.string, "2.1")
        XCTAssertEqual(ios["MinVersion"]?.string, "1.1")
        let android = parse(files["shop/android/andversion.json"]!, "andversion")["AndVersion"]!
        XCTAssertEqual(android["CurrentVersion"]?.int, 200)
        XCTAssertEqual(android["MinVersion"]?.int, 200, "the floor 2.0.0 maps to the versionCode of 2.0.0")
        XCTAssertNil(files["shop/android/lookup/en.json"], "lookup files are for iOS")
        XCTAssertNotNil(files["shop/ios/siren.json"])
    }

    /// AndVersion on iOS ranks "2.0" above "2": whatever the floor's spelling,
    /// the manifest must force exactly the versions relctl forces.
    func testAndVersionMinimumAgreesWithTheEvaluator() throws {
        func andVersionLess(_ a: String, _ b: String) -> Bool {
            let x = a.split(separator: ".").map { Int($0)! }, y = b.split(separator: ".").map { Int($0)! }
            for i in 0..<min(x.count, y.count) where x[i] != y[i] { return x[i] < y[i] }
            return x.count < y.count
        }
        for floor in ["2", "2.0", "2.0.0"] {
            let h = Harness()
            h.ok("init"); h.ok("project add app")
            h.ok("platform add ios --bundle-id a.b --app-store-id 1")
            for v in ["1.9", "2", "2.0", "2.0.0", "2.0.1"] { h.ok("version add \(v) --released 2026-01-01T00:00:00Z") }
            h.ok("force \(floor) --yes")
            XCTAssertEqual(publish(h, h.dir + "/out").status, 0)
            let manifest = parse(Array(FileManager.default.contents(atPath: h.dir + "/out/app/ios/andversion.json")!), "m")
            let minimum = manifest["AndVersion"]!["MinVersion"]!.string!
            for v in ["1.9", "2", "2.0", "2.0.0", "2.0.1"] {
                let ours = (h.ok("--json check \(v)").json as! [String: Any])["verdict"] as! String == "required"
                XCTAssertEqual(andVersionLess(v, minimum), ours, "floor \(floor), app \(v), MinVersion \(minimum)")
            }
        }
    }

    func testControlDocumentMatchesItsSchema() throws {
        let h = scenario()
        XCTAssertEqual(publish(h, h.dir + "/out").status, 0)
        let validator = try SchemaValidator(path: Package.root + "/schema/control.schema.json")
        let control = parse(Array(FileManager.default.contents(atPath: h.dir + "/out/shop/control.json")!), "control")
        XCTAssertEqual(validator.validate(control), [])
        XCTAssertEqual(control["pollIntervalSeconds"]?.int, 60, "a window starts within the hour")
        XCTAssertEqual(control["maintenance"]?["upcoming"]?.array?.count, 1)
        // The validator itself must catch a broken document.
        var broken = control.object!
        broken["pollIntervalSeconds"] = .string("60")
        broken.removeValue(forKey: "platforms")
        XCTAssertEqual(validator.validate(.object(broken)).count, 2)
        // Far from the window, the poll interval relaxes.
        XCTAssertEqual(h.run(["publish", h.dir + "/later", "--at", "2026-11-29T16:00:00Z"]).status, 0)
        let later = parse(Array(FileManager.default.contents(atPath: h.dir + "/later/shop/control.json")!), "control")
        XCTAssertEqual(later["pollIntervalSeconds"]?.int, 900)
        XCTAssertEqual(validator.validate(later), [])
    }

    func testDeterministicIndexedAndUntouchedWhenUnchanged() throws {
        let h = scenario()
        let a = h.dir + "/a", b = h.dir + "/b"
        XCTAssertEqual(publish(h, a).status, 0)
        XCTAssertEqual(publish(h, b).status, 0)
        XCTAssertEqual(tree(a), tree(b))
        let index = parse(Array(FileManager.default.contents(atPath: a + "/index.json")!), "index")
        let files = index["files"]!.object!
        XCTAssertEqual(Set(files.keys), Set(tree(a).keys).subtracting(["index.json"]))
        for (path, entry) in files {
            let bytes = Array(FileManager.default.contents(atPath: a + "/" + path)!)
            XCTAssertEqual(entry["size"]?.int, Int64(bytes.count), path)
            XCTAssertEqual(entry["sha256"]?.string, SHA256.hex(bytes), path)
        }
        // The tree's digest is that of its file list; it names no database revision (two databases
        // holding the same configuration publish the same index).
        let listBytes = Array(FileManager.default.contents(atPath: a + "/index.json")!)
        let located = try IndexFormat.located(try XCTUnwrap(IndexFormat.parse(listBytes)))
        XCTAssertEqual(index["treeSha256"]?.string, SHA256.hex(Array(located.bytes[located.fileList])))
        XCTAssertNil(index["revision"])

        // Age every file, publish again: nothing may be touched.
        let old = Date(timeIntervalSince1970: 1_000_000_000)
        for path in tree(a).keys { try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: a + "/" + path) }
        let again = publish(h, a, ["--json"])
        let summary = again.json as! [String: Any]
        XCTAssertEqual((summary["added"] as? [String])?.count, 0)
        XCTAssertEqual((summary["changed"] as? [String])?.count, 0)
        XCTAssertEqual(summary["unchanged"] as? Int, tree(a).count)
        for path in tree(a).keys {
            let date = try FileManager.default.attributesOfItem(atPath: a + "/" + path)[.modificationDate] as! Date
            XCTAssertEqual(date, old, "\(path) was touched")
        }
        // A file replaced behind relctl's back (as editors and rsync do: a new file renamed over it)
        // is put right, even at the same size: its folder changed.
        let victim = a + "/shop/ios/retired/en.json"
        let bytes = alteredAtSameSize(victim)
        try bytes.write(to: URL(fileURLWithPath: victim), options: .atomic)
        let repaired = publish(h, a, ["--json"]).json as! [String: Any]
        XCTAssertEqual(repaired["changed"] as? [String], ["shop/ios/retired/en.json"])
        XCTAssertEqual(tree(a)["shop/ios/retired/en.json"], tree(b)["shop/ios/retired/en.json"])
        // One edited in place leaves its folder as it was: verify names it and says how to put it right,
        // and --full does, without touching any other file.
        try bytes.write(to: URL(fileURLWithPath: victim))
        let verify = h.run(["verify", a])
        XCTAssertEqual(verify.status, 1)
        XCTAssertTrue(verify.out.contains("shop/ios/retired/en.json: its content differs from index.json"), verify.out)
        XCTAssertTrue(verify.err.contains("relctl publish \(a) --full"), verify.err)
        let thorough = publish(h, a, ["--full", "--json"]).json as! [String: Any]
        XCTAssertEqual(thorough["changed"] as? [String], ["shop/ios/retired/en.json"])
        XCTAssertEqual(tree(a), tree(b))
        // One change touches only the files it affects, and the index.
        h.ok("notes set 2.1 --platform ios --locale tr \"Başka\"")
        let changed = publish(h, a, ["--json"]).json as! [String: Any]
        XCTAssertEqual((changed["changed"] as? [String])?.count, 5, "whatsnew/tr, andversion, lookup/tr, the appcast (Turkish notes of 2.1), index: not the status pages, which name no revision")
    }

    func testDryRunAndRemovalOfFilesThatNoLongerBelong() throws {
        let h = scenario()
        let out = h.dir + "/out"
        let dry = publish(h, out, ["--dry-run"])
        XCTAssertEqual(dry.status, 0)
        XCTAssertTrue(dry.out.contains("add     shop/ios/retired/tr.json"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: out), "a dry run writes nothing, not even DIR")
        XCTAssertEqual(publish(h, out).status, 0)
        try Data("mine\n".utf8).write(to: URL(fileURLWithPath: out + "/README.txt"))
        h.ok("platform rm android --yes")
        let plan = publish(h, out, ["--dry-run", "--json"]).json as! [String: Any]
        XCTAssertTrue((plan["removed"] as! [String]).contains("shop/android/andversion.json"))
        XCTAssertTrue(FileManager.default.fileExists(atPath: out + "/shop/android/andversion.json"))
        XCTAssertEqual(publish(h, out).status, 0)
        XCTAssertFalse(FileManager.default.fileExists(atPath: out + "/shop/android"), "stale files and their empty folders go")
        XCTAssertTrue(FileManager.default.fileExists(atPath: out + "/README.txt"), "files relctl did not publish stay")
        // Publishing one project keeps the others' files.
        h.ok("project add blog")
        h.ok("-p blog platform add android --bundle-id a.b")
        h.ok("-p blog version add 1.0 --build 1 --released 2026-01-01T00:00:00Z")
        XCTAssertEqual(publish(h, out).status, 0)
        h.ok("-p shop notes set 2.0 --platform ios --locale tr Yeni")
        XCTAssertEqual(h.run(["publish", out, "-p", "shop", "--at", PublishTests.at]).status, 0)
        XCTAssertTrue(FileManager.default.fileExists(atPath: out + "/blog/android/andversion.json"))
        let index = parse(Array(FileManager.default.contents(atPath: out + "/index.json")!), "index")
        XCTAssertNotNil(index["files"]?["blog/control.json"])
    }

    func testRefusalsWriteNothing() throws {
        let h = scenario()
        let out = h.dir + "/out"
        h.ok("project add blog")
        h.ok("-p blog platform add android --bundle-id a.b")
        h.ok("-p blog version add 1.0 --build 1 --released 2026-01-01T00:00:00Z")
        XCTAssertEqual(publish(h, out).status, 0)
        let before = tree(out)
        // blog's new files are staged before shop's bad row is read: the refusal comes mid-publish.
        h.ok("-p blog version add 1.1 --build 2 --released 2026-02-01T00:00:00Z")
        try Connection(path: h.db, readOnly: false, create: false).execute(
            "UPDATE version SET version = '2.x' WHERE version = '2.0' AND platform_id = (SELECT p.id FROM platform p JOIN project j ON j.id = p.project_id WHERE j.slug = 'shop' AND p.name = 'ios')")
        let r = publish(h, out)
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.err.contains("has a bad row") && r.err.contains("version #"), r.err)
        XCTAssertEqual(tree(out), before, "a refused publish leaves the tree as it was")
        XCTAssertEqual(publish(h, h.dir + "/fresh/out").status, 1)
        XCTAssertFalse(FileManager.default.fileExists(atPath: h.dir + "/fresh"), "nor creates folders")

        let file = h.dir + "/file"
        try Data().write(to: URL(fileURLWithPath: file))
        let notDir = h.run(["publish", file])
        XCTAssertEqual(notDir.status, 1)
        XCTAssertTrue(notDir.err.contains("is not a directory"))
    }

    /// DIR may hold files relctl did not write (a site, a conformance suite):
    /// a publish that would write over one refuses, naming it, and leaves
    /// DIR as it was; a dry run says the same. What relctl wrote, as its
    /// index.json or a killed publish's journal names it, is its own.
    func testFilesRelctlDidNotWriteAreNeverReplaced() throws {
        let h = scenario()
        let fm = FileManager.default
        // Every entry under `dir`, hidden ones and folders too (nil), with its bytes.
        func entries(_ dir: String) -> [String: Data?] {
            Dictionary(uniqueKeysWithValues: ((try? fm.subpathsOfDirectory(atPath: dir)) ?? []).map { path in
                var isDir: ObjCBool = false
                _ = fm.fileExists(atPath: dir + "/" + path, isDirectory: &isDir)
                return (path, isDir.boolValue ? nil : fm.contents(atPath: dir + "/" + path))
            })
        }
        func refused(_ dir: String, _ extra: [String] = [], naming path: String, file: StaticString = #filePath, line: UInt = #line) {
            let before = entries(dir)
            let r = publish(h, dir, extra)
            XCTAssertEqual(r.status, 1, r.err, file: file, line: line)
            let index = path == "index.json"
            XCTAssertTrue(r.err.hasPrefix("relctl: \(dir)/\(path) " + (index ? "is not an index relctl wrote" : "is not a file relctl published")), r.err, file: file, line: line)
            XCTAssertTrue(r.err.contains(index ? "publish into an empty folder" : "move the file away"), r.err, file: file, line: line)
            XCTAssertEqual(r.err.split(separator: "\n").count, 1, r.err, file: file, line: line)
            XCTAssertEqual(entries(dir), before, "DIR is left as it was", file: file, line: line)
        }
        func modified(_ path: String) throws -> Date? { try fm.attributesOfItem(atPath: path)[.modificationDate] as? Date }
        // A site's own page where relctl writes its status page: found before anything is written.
        let site = h.dir + "/site"
        try fm.createDirectory(atPath: site + "/assets", withIntermediateDirectories: true)
        try Data("<html>my site</html>".utf8).write(to: URL(fileURLWithPath: site + "/index.html"))
        let siteTime = try modified(site)
        refused(site, naming: "index.html")
        refused(site, ["--dry-run"], naming: "index.html")
        XCTAssertEqual(try modified(site), siteTime, "nothing was written in DIR and taken back")
        // What a publish killed there left goes with the refusal: a spill file at DIR's root (before any
        // journal); then a journal naming nothing, and a temporary in a folder (the folder stays).
        try Data("runs".utf8).write(to: URL(fileURLWithPath: site + "/.relctl-tmp.runs.0123456789abcdef"))
        XCTAssertEqual(publish(h, site).status, 1)
        XCTAssertEqual(Set(entries(site).keys), ["assets", "index.html"])
        try Data(#"{"paths":[]}"#.utf8).write(to: URL(fileURLWithPath: site + "/.relctl-journal"))
        try Data("half".utf8).write(to: URL(fileURLWithPath: site + "/assets/.relctl-tmp.en.json.0123456789abcdef"))
        XCTAssertEqual(publish(h, site).status, 1)
        XCTAssertEqual(Set(entries(site).keys), ["assets", "index.html"])
        // Without the status pages nothing is in the way; relctl's index.json then does not list the page either.
        XCTAssertEqual(publish(h, site, ["--no-pages"]).status, 0)
        XCTAssertEqual(fm.contents(atPath: site + "/index.html"), Data("<html>my site</html>".utf8))
        refused(site, naming: "index.html")
        // Nor does the state that publish recorded, once relctl's index.json is gone.
        try fm.removeItem(atPath: site + "/index.json")
        refused(site, naming: "index.html")
        // A site's index.json (a search index, with numbers relctl's reader would not take) is someone else's too, state or not.
        for text in [#"[{"title":"Home","url":"/"}]"#, #"{"pages":[{"url":"/","score":0.5,"hits":12345678901234567890}]}"#] {
            try Data(text.utf8).write(to: URL(fileURLWithPath: site + "/index.json"))
            refused(site, ["--no-pages"], naming: "index.json")
        }
        // Someone else's file inside a project's folder.
        let out = h.dir + "/out"
        try fm.createDirectory(atPath: out + "/shop", withIntermediateDirectories: true)
        try Data("mine".utf8).write(to: URL(fileURLWithPath: out + "/shop/control.json"))
        refused(out, naming: "shop/control.json")
        // A conformance suite, index.json and all; and its index.json copied over a tree relctl published
        // (an export there is refused: it would replace the published index).
        let suite = h.dir + "/suite", over = h.dir + "/over"
        h.ok("conformance export \(suite)")
        XCTAssertEqual(publish(h, over).status, 0)
        let published = entries(over)
        // Known by its state, its index.json or a journal alone.
        let state = try Data(contentsOf: URL(fileURLWithPath: over + "/.relctl-state"))
        let index = try Data(contentsOf: URL(fileURLWithPath: over + "/index.json"))
        try fm.removeItem(atPath: over + "/index.json")
        h.fails("conformance export \(over)", "\(over) is a folder relctl publishes into (its .relctl-state is relctl's)")
        try index.write(to: URL(fileURLWithPath: over + "/index.json"))
        try fm.removeItem(atPath: over + "/.relctl-state")
        h.fails("conformance export \(over)", "\(over) is a folder relctl publishes into (its index.json is relctl's)")
        let cut = h.dir + "/cut"
        try fm.createDirectory(atPath: cut, withIntermediateDirectories: true)
        try Data(#"{"paths":[]}"#.utf8).write(to: URL(fileURLWithPath: cut + "/.relctl-journal"))
        h.fails("conformance export \(cut)", "(its .relctl-journal is relctl's)")
        XCTAssertEqual(Set(entries(cut).keys), [".relctl-journal"], "nothing was written")
        try state.write(to: URL(fileURLWithPath: over + "/.relctl-state"))
        XCTAssertEqual(entries(over), published, "nothing was written")
        try fm.removeItem(atPath: over + "/index.json")
        try fm.copyItem(atPath: suite + "/index.json", toPath: over + "/index.json")
        for dir in [suite, over] {
            for extra in [[], ["--dry-run"]] {
                let before = entries(dir)
                let r = publish(h, dir, extra)
                XCTAssertEqual(r.status, 1, r.err)
                XCTAssertTrue(r.err.hasPrefix("relctl: \(dir)/index.json is not an index relctl wrote"), r.err)
                XCTAssertEqual(entries(dir), before)
            }
        }

        // A file relctl published and someone edited is put back.
        let tree = h.dir + "/tree"
        XCTAssertEqual(publish(h, tree).status, 0)
        let page = fm.contents(atPath: tree + "/index.html")
        try Data("edited".utf8).write(to: URL(fileURLWithPath: tree + "/index.html"))
        XCTAssertEqual(publish(h, tree).status, 0)
        XCTAssertEqual(fm.contents(atPath: tree + "/index.html"), page)
        // relctl's tree whose index.json went (its state is still there) is still relctl's.
        try fm.removeItem(atPath: tree + "/index.json")
        try Data("edited".utf8).write(to: URL(fileURLWithPath: tree + "/index.html"))
        XCTAssertEqual(publish(h, tree).status, 0)
        XCTAssertEqual(fm.contents(atPath: tree + "/index.html"), page)
        // Also after a publish cut short there (a journal naming nothing, a temporary left).
        try fm.removeItem(atPath: tree + "/index.json")
        try Data(#"{"paths":[]}"#.utf8).write(to: URL(fileURLWithPath: tree + "/.relctl-journal"))
        try Data("half".utf8).write(to: URL(fileURLWithPath: tree + "/shop/.relctl-tmp.control.json.0123456789abcdef"))
        try Data("edited".utf8).write(to: URL(fileURLWithPath: tree + "/index.html"))
        XCTAssertEqual(publish(h, tree).status, 0)
        XCTAssertEqual(fm.contents(atPath: tree + "/index.html"), page)
        XCTAssertEqual(Set(entries(tree).keys.filter { $0.contains(".relctl-tmp") || $0.hasSuffix("journal") }), [])
        // A first publish killed between its renames: its journal names the files it put in place.
        let killed = h.dir + "/killed"
        try fm.createDirectory(atPath: killed + "/shop", withIntermediateDirectories: true)
        try Data("half".utf8).write(to: URL(fileURLWithPath: killed + "/shop/control.json"))
        try Data(#"{"paths":["shop/control.json"]}"#.utf8).write(to: URL(fileURLWithPath: killed + "/.relctl-journal"))
        XCTAssertEqual(publish(h, killed).status, 0)
        XCTAssertEqual(fm.contents(atPath: killed + "/shop/control.json"), fm.contents(atPath: tree + "/shop/control.json"))
    }

    /// JSON by its grammar alone, however deep and whatever its numbers:
    /// what tells someone else's index.json from one cut short.
    func testJSONIsToldByItsGrammar() {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        for text in ["{}", "[]", " 0 ", "-0.5e-7", "1E+400", "123456789012345678901234567890", "true", "null", #""a\u00e9\n""#,
                     #"{"a":[1,2.5,{"b":null}],"c":"\"","d":{}}"#, " [ 1 , [ ] , { \"x\" : false } ] ", "\u{FEFF}{}", deep] {
            XCTAssertTrue(IndexFormat.isJSON(Array(text.utf8)), text.prefix(40).description)
        }
        for text in ["", " ", "{", "[1,]", "{\"a\"}", "{\"a\":1,}", "01", "-", "1.", "1e", ".5", "+1", "tru", "nul", "[1] x", "\"a", "\"\\x\"",
                     "\"\\u12G4\"", "\"a\u{01}b\"", "\u{FEFF}", "{1:2}", "[1 2]", String(deep.dropLast())] {
            XCTAssertFalse(IndexFormat.isJSON(Array(text.utf8)), text.prefix(40).description)
        }
        XCTAssertEqual(IndexFormat.author(of: Array(#"{"generator":"relctl 9.9 (formats 9)","files":{"a":{}}}"#.utf8), parsed: nil), .relctl)
        // What relctl's reader cannot read is not an index relctl wrote, whatever it says.
        XCTAssertEqual(IndexFormat.author(of: Array(#"{"generator":"relctl 9.9 (formats 9)","files":{"a":1.5}}"#.utf8), parsed: nil), .other)
        XCTAssertEqual(IndexFormat.author(of: Array(#"{"generator":"hugo","score":0.5}"#.utf8), parsed: nil), .other)
        // relctl before the generator field: revision, files and (later) publishedAt, nothing else.
        XCTAssertEqual(IndexFormat.author(of: Array(#"{"files":{"a.json":{"sha256":"00","size":2}},"revision":1}"#.utf8), parsed: nil), .relctl)
        XCTAssertEqual(IndexFormat.author(of: Array(#"{"files":{},"revision":1,"title":"My site"}"#.utf8), parsed: nil), .other)
        XCTAssertEqual(IndexFormat.author(of: Array(#"{"files":{},"nextChange":null,"publishedAt":"2026-11-29T12:00:00Z","revision":1}"#.utf8), parsed: nil), .relctl)
        XCTAssertEqual(IndexFormat.author(of: Array(#"{"files":{},"nextChange":{"at":"2026-11-29T12:30:00Z","causes":["a window starts"]},"revision":1}"#.utf8), parsed: nil), .relctl)
        XCTAssertEqual(IndexFormat.author(of: Array(#"{"files":{},"nextChange":{"at":"2026-11-29T12:30:00Z"},"revision":1}"#.utf8), parsed: nil), .other)
        XCTAssertEqual(IndexFormat.author(of: Array(#"{"files":{"a.json":{"sha256":"00","size":2,"url":"/a"}},"revision":1}"#.utf8), parsed: nil), .other)
        XCTAssertEqual(IndexFormat.author(of: Array(#"{"files":{},"publishedAt":"2026-11-29T12:00:00Z","revision":"1"}"#.utf8), parsed: nil), .other)
        XCTAssertEqual(IndexFormat.author(of: Array(#"{"files":{"a.json":{"sha256":"00","size":2}},"publishedAt":"2026-11-29T12:00:00Z","revision":1}"#.utf8), parsed: nil), .relctl)
        XCTAssertEqual(IndexFormat.author(of: Array(#"{"files":{},"publishedAt":3}"#.utf8), parsed: nil), .other)
        XCTAssertEqual(IndexFormat.author(of: Array(#"{"files":[],"publishedAt":"2026-11-29T12:00:00Z"}"#.utf8), parsed: nil), .other)
        XCTAssertEqual(IndexFormat.author(of: Array(#"{"publishedAt":"2026-11-29T12:00:00Z"}"#.utf8), parsed: nil), .other)
        XCTAssertEqual(IndexFormat.author(of: Array(#"{"generator":"relctl 1 (formats 5)","files":{"#.utf8), parsed: nil), .unknown)
    }

    /// What a killed publish left (a staging folder with folders, files and a link
    /// in it, and the journal's first form) goes with the next publish; a link named
    /// like a staging folder stays, and what any link points to is never touched.
    func testStagingLeftoversGoButNeverThroughALink() throws {
        let h = PublishTests.scenario()
        let fm = FileManager.default
        let out = h.dir + "/out", outside = h.dir + "/outside"
        XCTAssertEqual(publish(h, out).status, 0)
        try fm.createDirectory(atPath: outside + "/kept", withIntermediateDirectories: true)
        try Data("mine".utf8).write(to: URL(fileURLWithPath: outside + "/kept/file"))
        let staged = out + "/shop/.relctl-tmp.macos.0123456789abcdef"
        try fm.createDirectory(atPath: staged + "/retired", withIntermediateDirectories: true)
        try Data("half".utf8).write(to: URL(fileURLWithPath: staged + "/retired/en.json"))
        try fm.createSymbolicLink(atPath: staged + "/retired/escape", withDestinationPath: outside + "/kept")
        let link = out + "/shop/.relctl-tmp.link.fedcba9876543210"
        try fm.createSymbolicLink(atPath: link, withDestinationPath: outside)
        try Data(#"{"paths":[]}"#.utf8).write(to: URL(fileURLWithPath: out + "/.relctl-journal"))
        XCTAssertEqual(publish(h, out).status, 0)
        XCTAssertFalse(fm.fileExists(atPath: staged), "a killed publish's staging folder is swept")
        XCTAssertFalse(fm.fileExists(atPath: out + "/.relctl-journal"))
        XCTAssertEqual(try fm.destinationOfSymbolicLink(atPath: link), outside, "a link is neither removed nor followed")
        XCTAssertEqual(fm.contents(atPath: outside + "/kept/file"), Data("mine".utf8))
    }

    func testNoSymlinkIsFollowedOutOfDIR() throws {
        let h = scenario()
        let out = h.dir + "/out", elsewhere = h.dir + "/elsewhere"
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: elsewhere, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: out + "/shop", withDestinationPath: elsewhere)
        let r = publish(h, out)
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.err.contains("symbolic link"), r.err)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: elsewhere), [])
        XCTAssertFalse(FileManager.default.fileExists(atPath: out + "/index.json"))
        // A link in place of a published file is replaced, never written through.
        try FileManager.default.removeItem(atPath: out + "/shop")
        XCTAssertEqual(publish(h, out).status, 0)
        let target = elsewhere + "/victim.json"
        try Data("keep\n".utf8).write(to: URL(fileURLWithPath: target))
        try FileManager.default.removeItem(atPath: out + "/shop/control.json")
        try FileManager.default.createSymbolicLink(atPath: out + "/shop/control.json", withDestinationPath: target)
        XCTAssertEqual(publish(h, out).status, 0)
        XCTAssertEqual(try String(contentsOfFile: target, encoding: .utf8), "keep\n")
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: out + "/shop/control.json")[.type] as? FileAttributeType, .typeRegular)
        // Removing stale files never reaches through a link put where a folder was.
        try Data("keep\n".utf8).write(to: URL(fileURLWithPath: elsewhere + "/andversion.json"))
        h.ok("platform rm android --yes")
        try FileManager.default.removeItem(atPath: out + "/shop/android")
        try FileManager.default.createSymbolicLink(atPath: out + "/shop/android", withDestinationPath: elsewhere)
        XCTAssertEqual(publish(h, out).status, 0)
        XCTAssertEqual(try String(contentsOfFile: elsewhere + "/andversion.json", encoding: .utf8), "keep\n")
    }

    /// The hand-written what's-new entry is byte for byte the general one.
    func testWhatsNewEntryWriterMatchesTheGeneralRenderer() throws {
        let cases: [(VersionRecord, (String, String)?, String)] = [
            (VersionRecord(id: 1, platformID: 1, version: try Version("2.1.0"), build: 210, releasedAt: 1_790_000_000, minOS: nil, policy: nil,
                           notes: [:]), ("tr", "Daha hızlı \"ödeme\"\n\tİkinci\u{2028}satır\\"), "tr"),
            (VersionRecord(id: 2, platformID: 1, version: try Version("1"), build: nil, releasedAt: nil, minOS: nil, policy: nil,
                           notes: [:]), ("en", "Fixes"), "pt-BR"),
            (VersionRecord(id: 3, platformID: 1, version: try Version("1.0.0.1"), build: 0, releasedAt: 0, minOS: nil, policy: nil,
                           notes: [:]), nil, "en"),
        ]
        for (v, notes, locale) in cases {
            var bytes: [UInt8] = []
            let parts = WhatsNewFormat.parts(v)
            WhatsNewFormat.entry(head: parts.head, tail: parts.tail, notes: notes, locale: locale, into: &bytes)
            XCTAssertEqual(String(decoding: bytes, as: UTF8.self),
                           String(decoding: WhatsNewFormat.entryJSON(v, notes: notes, locale: locale).compactBytes().dropLast(), as: UTF8.self))
        }
    }

    func testMissingNotesFallBackToTheGenericLineWithAWarning() throws {
        let h = Harness()
        h.ok("init"); h.ok("project add app --locales en,de")
        h.ok("platform add android --bundle-id a.b")
        h.ok("version add 1.0 --build 1 --released 2026-01-01T00:00:00Z")
        let r = publish(h, h.dir + "/out")
        XCTAssertEqual(r.status, 0)
        XCTAssertTrue(r.err.contains("has no release notes"), r.err)
        let manifest = parse(Array(FileManager.default.contents(atPath: h.dir + "/out/app/android/andversion.json")!), "m")
        XCTAssertEqual(manifest["AndVersion"]?["WhatsNew"]?["de"], .array([.string("Fehlerbehebungen und Verbesserungen.")]))
        XCTAssertEqual(manifest["AndVersion"]?["WhatsNew"]?["en"], .array([.string("Bug fixes and improvements.")]))
        let whatsNew = parse(Array(FileManager.default.contents(atPath: h.dir + "/out/app/android/whatsnew/de.json")!), "w")
        XCTAssertEqual(whatsNew["versions"]?.array?.first?["notes"], .array([]))
    }
}

/// The one table of published file kinds (FileKinds) and what reads it.
final class FileKindsTests: XCTestCase {
    /// Every file a publish writes is of exactly one kind, at the path the kind gives.
    func testEveryPublishedFileIsOfOneKind() throws {
        let h = PublishTests.scenario()
        XCTAssertEqual(h.run(["publish", h.dir + "/out", "--at", "2026-11-29T12:00:00Z"]).status, 0)
        let index = try JSONReader.parse(Array(FileManager.default.contents(atPath: h.dir + "/out/index.json")!))
        let paths = index["files"]!.object!.keys.sorted()
        var seen = Set<String>()
        for path in paths {
            let kinds = FileKinds.all.filter { $0.matches(path) }
            XCTAssertEqual(kinds.count, 1, "\(path): \(kinds.map(\.pattern))")
            guard let kind = kinds.first else { continue }
            seen.insert(kind.pattern)
            let parts = path.split(separator: "/").map(String.init)
            let locale = parts.last.map { String($0.prefix { $0 != "." }) } ?? ""
            XCTAssertEqual(kind.path(project: parts.count > 1 ? parts[0] : "", platform: parts.count > 2 ? parts[1] : "", locale: locale), path)
        }
        // index.json lists every file but itself.
        XCTAssertTrue(FileManager.default.fileExists(atPath: h.dir + "/out/" + FileKinds.index.path(project: "")))
        XCTAssertEqual(seen.union([FileKinds.index.pattern]), Set(FileKinds.all.map(\.pattern)), "the scenario publishes every kind")
        XCTAssertNil(FileKinds.of("shop/ios/retired"), "a folder is no file")
        XCTAssertNil(FileKinds.of("shop/ios/retired/.json"), "a placeholder stands for something")
    }

    /// The README lists the published files as the table does.
    func testTheReadmeListsTheTable() {
        let readme = Package.read("README.md")
        let section = readme.components(separatedBy: "## Published files\n")[1]
        let listed = section.split(separator: "\n").prefix { $0.isEmpty || $0.hasPrefix("    DIR/") }.filter { !$0.isEmpty }.map { String($0.dropFirst(4)) }
        XCTAssertEqual(listed, FileKinds.listing, "README.md's list of published files differs from FileKinds")
        // The manual as committed (make generate writes it), not the model it is made from.
        let manual = Package.read("man/relctl.1").components(separatedBy: ".Sh PUBLISHED FILES\n")[1]
        let block = manual.components(separatedBy: ".Bd -literal -offset indent\n")[1].components(separatedBy: "\n.Ed")[0]
        XCTAssertEqual(block.split(separator: "\n").map(String.init), FileKinds.listing, "and so does the manual's (make generate)")
    }
}
