import Foundation
import XCTest
@testable import RelctlCore
@testable import RelctlModel

/// What a reviewer checked in each golden file (PublishTests.scenario: iOS
/// 1.0, 1.1, 2.0 and 2.1 released 06:00 today with a one-day delay, a force
/// floor at 1.1 and a pin of 1.1 to recommend; Android 1.9 and 2.0.0 with a
/// force floor at 2.0.0; locales en, tr, he; a Turkish override of the
/// required title; a window 12:30-14:00). A golden without its properties
/// here fails, so a regenerated file cannot slip through unread.
final class GoldenPropertiesTests: XCTestCase {
    typealias Property = (String, (JSON) -> Bool)

    static func retired(forced: [String], recommended: [String], none: [String]) -> [Property] {
        [("messaging.forced and .recommended both present; forced has no cancelButtonText, recommended has one", { j in
            j["messaging"]?["forced"]?["title"]?.string != nil && j["messaging"]?["forced"]?["cancelButtonText"] == nil
                && j["messaging"]?["recommended"]?["cancelButtonText"]?.string != nil
        }),
         ("every shipped version listed as a string with its policy: force \(forced), recommend \(recommended), none \(none)", { j in
            let list = (j["versions"]?.array ?? []).map { ($0["version"]?.string ?? "?", $0["policy"]?.string ?? "?") }
            return list.filter { $0.1 == "force" }.map(\.0) == forced && list.filter { $0.1 == "recommend" }.map(\.0) == recommended
                && list.filter { $0.1 == "none" }.map(\.0) == none
        })]
    }

    static func whatsNew(_ locale: String, newestFirst: [String]) -> [Property] {
        [("locale \(locale), released versions newest first: \(newestFirst)", { j in
            j["locale"]?.string == locale && (j["versions"]?.array ?? []).map { $0["version"]?.string ?? "?" } == newestFirst
        })]
    }

    static func lookup(notes: String) -> [Property] {
        [("trackId is a JSON number, the date is yyyy-MM-ddTHH:mm:ssZ, version 2.1: inside its release delay, but the force floor sends 1.0 to it at once", { j in
            let r = j["results"]?.array?.first
            return j["resultCount"]?.int == 1 && r?["trackId"]?.int == 1088280260 && r?["version"]?.string == "2.1"
                && r?["currentVersionReleaseDate"]?.string == "2026-11-29T06:00:00Z"
        }),
         ("release notes in this locale (or the default's when it has none; 2.1 has none at all)", { j in j["results"]?.array?.first?["releaseNotes"]?.string == notes })]
    }

    static var properties: [String: [Property]] { [
        "index.json": [("lists every other golden file with size and SHA-256, the tree's digest (no database revision), and the span the files hold for: from 11:30 (faster polling began, an hour before the window; published at 12:00) to the next change", { j in
            (j["files"]?.object?.count ?? 0) == 22 && j["files"]?.object?.values.allSatisfy { $0["sha256"]?.string?.count == 64 } == true
                && j["treeSha256"]?.string?.count == 64 && j["revision"] == nil && j["edits"] == nil && j["validFrom"]?.string == "2026-11-29T11:30:00Z" && j["publishedAt"] == nil
                && j["generator"]?.string?.hasPrefix("relctl ") == true
        }),
         ("per project: no revision (the tree's state holds it), its span, no disagreements, the limits (Siren's early offer of 2.1, no pin limit) and warnings publish reports", { j in
            let p = j["projects"]?["shop"]
            return j["projects"]?.object?.count == 1 && p?["revision"] == nil && p?["validFrom"]?.string == "2026-11-29T11:30:00Z"
                && p?["nextChange"] == j["nextChange"] && p?["disagreements"]?.int == 0
                // Siren's gate is open while the floor sends users to 2.1 in its delay: 1.1, pinned to recommend, is offered as check says,
                // and 2.0 (check: in the delay) is offered early, a limit.
                && p?["limits"]?.array?.contains { $0["client"]?.string == "Siren" && $0["intent"]?.string == "release delay of 2.1 while a floor or pin sends users to it" } == true
                && p?["limits"]?.array?.contains { $0["client"]?.string == "Siren" && $0["intent"]?.string == "pin 1.1 recommend" } == false
                // The sweep over installs nobody recorded: Retired matches exact text only.
                && p?["limits"]?.array?.contains { $0["client"]?.string == "Retired" && $0["intent"]?.string == "versions relctl has no record of" } == true
                && p?["warnings"]?.array?.count == 1
        }),
         ("the next change is the scheduled window starting at 12:30 (faster polling began already: it is within the hour)", { j in
            j["nextChange"]?["at"]?.string == "2026-11-29T12:30:00Z"
                && j["nextChange"]?["causes"]?.array?.map { $0.string } == ["maintenance window #1 (all platforms) starts"]
        })],
        "shop/control.json": [
            ("the scheduled window is upcoming, 12:30 to 14:00, with {until} filled in English for people, in the project's zone (UTC)", { j in
                let w = j["maintenance"]?["upcoming"]?.array?.first
                return w?["startsAt"]?.string == "2026-11-29T12:30:00Z" && w?["endsAt"]?.string == "2026-11-29T14:00:00Z"
                    && w?["messages"]?["en"]?["message"]?.string == "Back at November 29, 2026 at 2:00 PM (UTC)"
            }),
            ("messages for exactly en, he and tr", { j in Set(j["messages"]?.object?.keys.map { $0 } ?? []) == ["en", "he", "tr"] }),
            ("the catalog's window copy: Hebrew opens with a Hebrew noun, not the Latin app name; the Turkish title is impersonal", { j in
                let m = j["maintenance"]?["upcoming"]?.array?.first?["messages"]
                return m?["he"]?["message"]?.string?.hasPrefix("האפליקציה Shop ") == true && m?["tr"]?["title"]?.string == "Bakım çalışması"
            }),
            ("floors carry a deadline (none here), and the optional copy has a deadline message for apps to fill", { j in
                j["platforms"]?["ios"]?["force"]?["deadline"] == .null && j["platforms"]?["ios"]?["force"]?["version"]?.string == "1.1"
                    && j["messages"]?["tr"]?["optional"]?["deadlineMessage"]?.string?.contains("{deadline}") == true
            }),
            ("enough to move the project (relctl import control): its zone and what's-new limit, the platforms' ids and minimum OS, each version's release time and own minimum OS", { j in
                let ios = j["platforms"]?["ios"]
                let first = ios?["versions"]?.array?.first
                return j["project"]?["timeZone"]?.string == "UTC" && j["project"]?["whatsNewVersions"]?.int == 10 && ios?["bundleId"]?.string == "com.example.shop"
                    && ios?["appStoreId"]?.string == "1088280260" && ios?["minOs"]?.string == "15.0"
                    && first?["version"]?.string == "1.0" && first?["releasedAt"]?.string == "2026-01-01T00:00:00Z" && first?["minOs"] == .null
            }),
        ],
        "shop/ios/siren.json": [("force floor 1.1, current version 2.1 (the floor acts at once: Siren's delay gate, in front of the floor, is 0 while 2.1 is in its delay, so rule prompts come early, a limit), App Store id a string", { j in
            j["forceFloor"]?.string == "1.1" && j["currentVersion"]?.string == "2.1" && j["appStoreId"]?.string == "1088280260"
                && j["showAlertAfterCurrentVersionHasBeenReleasedForDays"]?.int == 0
        })],
        "shop/ios/andversion.json": [("strings on iOS: CurrentVersion 2.1 (the floor acts at once), MinVersion 1.1, AppStoreId digits; 2.1 has no notes, so every key has the catalog's line, en included", { j in
            let a = j["AndVersion"]
            return a?["CurrentVersion"]?.string == "2.1" && a?["MinVersion"]?.string == "1.1" && a?["AppStoreId"]?.string == "1088280260"
                && a?["WhatsNew"]?["en"]?.array?.first?.string == "Bug fixes and improvements." && a?["WhatsNew"]?["tr"]?.array?.count == 1
        })],
        "shop/android/andversion.json": [("versionCodes as JSON integers (200, floor 200), no AppStoreId, Hebrew under he and iw", { j in
            let a = j["AndVersion"]
            return a?["CurrentVersion"]?.int == 200 && a?["MinVersion"]?.int == 200 && a?["AppStoreId"] == nil
                && a?["WhatsNew"]?["he"] != nil && a?["WhatsNew"]?["iw"] == a?["WhatsNew"]?["he"]
        })],
        "shop/ios/retired/en.json": retired(forced: ["1.0"], recommended: ["1.1"], none: ["2.0", "2.1"]),
        "shop/ios/retired/tr.json": retired(forced: ["1.0"], recommended: ["1.1"], none: ["2.0", "2.1"])
            + [("the project's Turkish title overrides the catalog", { j in j["messaging"]?["forced"]?["title"]?.string == "Shop için güncelleme" })],
        "shop/ios/retired/he.json": retired(forced: ["1.0"], recommended: ["1.1"], none: ["2.0", "2.1"]),
        "shop/android/retired/en.json": retired(forced: ["1.9"], recommended: [], none: ["2.0.0"]),
        "shop/android/retired/tr.json": retired(forced: ["1.9"], recommended: [], none: ["2.0.0"]),
        "shop/android/retired/he.json": retired(forced: ["1.9"], recommended: [], none: ["2.0.0"]),
        "shop/ios/whatsnew/en.json": whatsNew("en", newestFirst: ["2.1", "2.0", "1.1", "1.0"]),
        "shop/ios/whatsnew/tr.json": whatsNew("tr", newestFirst: ["2.1", "2.0", "1.1", "1.0"])
            + [("2.0 in Turkish; older versions fall back to English and say so", { j in
                let v = j["versions"]?.array ?? []
                return v.count == 4 && v[1]["notesLocale"]?.string == "tr" && v[2]["fallback"] == .bool(true)
            })],
        "shop/ios/whatsnew/he.json": whatsNew("he", newestFirst: ["2.1", "2.0", "1.1", "1.0"]),
        "shop/android/whatsnew/en.json": whatsNew("en", newestFirst: ["2.0.0", "1.9"]),
        "shop/android/whatsnew/tr.json": whatsNew("tr", newestFirst: ["2.0.0", "1.9"]),
        "shop/android/whatsnew/he.json": whatsNew("he", newestFirst: ["2.0.0", "1.9"])
            + [("the right-to-left note kept as typed", { j in j["versions"]?.array?.first?["notes"]?.array?.first?.string == "מראה חדש" })],
        "shop/prince-of-versions.json": [
            ("ios2 and android2 only (no ios key, which iOS would read first), meta names the project", { j in
                Set(j.object?.keys.map { $0 } ?? []) == ["ios2", "android2", "meta"] && j["meta"]?["project"]?.string == "shop"
            }),
            ("iOS: one configuration for iOS 15.0 (one minimum OS), required below the force floor 1.1, 2.1 offered (the floor acts at once) without its build (its lower builds are in its delay: issue 48), strings; then one without a requirement that offers nothing to devices below it", { j in
                let c = j["ios2"]?.array
                return c?.count == 2 && c?[0]["required_version"]?.string == "1.1" && c?[0]["last_version_available"]?.string == "2.1"
                    && c?[0]["requirements"]?["required_os_version"]?.string == "15.0" && c?[0]["meta"]?["updateUrl"]?.string == "https://apps.apple.com/app/id1088280260"
                    && c?[1]["requirements"] == nil && c?[1]["last_version_available"]?.string == "0.0.0" && c?[1]["required_version"] == nil
            }),
            ("Android: versionCodes as JSON integers, required below 200, 200 offered, no OS requirement (none set)", { j in
                let c = j["android2"]?.array
                return c?.count == 1 && c?[0]["required_version"] == .int(200) && c?[0]["last_version_available"] == .int(200) && c?[0]["requirements"] == nil
            }),
            ("notify ONCE: the standard rules let users skip a version", { j in
                (j["ios2"]?.array ?? []) .allSatisfy { $0["notify_last_version_frequency"]?.string == "ONCE" }
            }),
        ],
        "shop/ios/lookup/en.json": lookup(notes: ""),
        "shop/ios/lookup/tr.json": lookup(notes: ""),
        "shop/ios/lookup/he.json": lookup(notes: ""),
    ] }

    typealias XMLProperty = (String, (XMLElement) -> Bool)

    static func items(_ root: XMLElement) -> [XMLElement] { root.all("item") }

    static var xmlProperties: [String: [XMLProperty]] { [
        "shop/ios/appcast.xml": [
            ("two items: 2.1 offered (the floor acts at once; no notes, so no description), 1.1 tagged critical (the force floor)", { r in
                let items = items(r)
                return items.map { $0.first("sparkle:version")?.text ?? "?" } == ["2.1", "1.1"] && items[0].first("description") == nil
                    && items.map { $0.first("sparkle:tags")?.first("sparkle:criticalUpdate") != nil } == [false, true]
            }),
            ("the App Store link as the enclosure url, sparkle:os ios, minimum OS 15.0 as the engineer set it", { r in
                items(r).allSatisfy { $0.first("enclosure")?.attributes["url"] == "https://apps.apple.com/app/id1088280260"
                    && $0.first("enclosure")?.attributes["sparkle:os"] == "ios" && $0.first("sparkle:minimumSystemVersion")?.text == "15.0" }
            }),
            ("RSS date of 2.1's release", { r in items(r).first?.first("pubDate")?.text == "Sun, 29 Nov 2026 06:00:00 +0000" }),
        ],
        "shop/android/appcast.xml": [
            ("one item, 2.0.0, critical (the force floor is the newest release), Play link, no minimum OS (none set)", { r in
                let items = items(r)
                return items.count == 1 && items[0].first("sparkle:version")?.text == "2.0.0" && items[0].first("sparkle:tags")?.first("sparkle:criticalUpdate") != nil
                    && items[0].first("enclosure")?.attributes["url"] == "https://play.google.com/store/apps/details?id=com.example.shop"
                    && items[0].first("sparkle:minimumSystemVersion") == nil
            }),
            ("English notes untagged, Hebrew as an xml:lang alternative, Turkish (which falls back to English) not repeated", { r in
                let d = items(r).first?.children.filter { $0.name == "description" } ?? []
                return d.map { $0.attributes["xml:lang"] ?? "" } == ["", "he"] && d.map(\.text) == ["New look", "מראה חדש"]
            }),
        ],
    ] }

    func testEveryGoldenFileHasItsReviewedProperties() throws {
        let golden = Package.root + "/Tests/RelctlTests/Golden"
        var found: [String] = []
        let e = FileManager.default.enumerator(atPath: golden)!
        while let p = e.nextObject() as? String {
            var isDir: ObjCBool = false
            if FileManager.default.fileExists(atPath: golden + "/" + p, isDirectory: &isDir), !isDir.boolValue { found.append(p) }
        }
        XCTAssertEqual(Set(found), Set(GoldenPropertiesTests.properties.keys).union(GoldenPropertiesTests.xmlProperties.keys),
                       "each golden file needs its reviewed properties here, and each entry its file")
        for path in found.sorted() where path.hasSuffix(".xml") {
            let root = try XMLReader.parse(Array(FileManager.default.contents(atPath: golden + "/" + path)!))
            for (what, holds) in GoldenPropertiesTests.xmlProperties[path] ?? [] { XCTAssertTrue(holds(root), "\(path): \(what)") }
        }
        for path in found.sorted() where !path.hasSuffix(".xml") {
            let doc = try JSONReader.parse(Array(FileManager.default.contents(atPath: golden + "/" + path)!))
            for (what, holds) in GoldenPropertiesTests.properties[path] ?? [] {
                XCTAssertTrue(holds(doc), "\(path): \(what)")
            }
        }
    }
}
