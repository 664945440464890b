import XCTest
@testable import RelctlCore
@testable import RelctlModel

/// The client simulations on hand-made files, independently of relctl's
/// publishers and evaluator: each rule of docs/clients.md, the known
/// crash shapes included.
final class ClientSimulationTests: XCTestCase {
    func bytes(_ s: String) -> [UInt8] { Array(s.utf8) }

    func crashes<T>(_ make: () throws -> T, _ file: StaticString = #filePath, line: UInt = #line) {
        do { _ = try make(); XCTFail("expected a crash", file: file, line: line) } catch {
            guard case .crash? = error as? ClientFailure else { return XCTFail("expected a crash, got \(error)", file: file, line: line) }
        }
    }

    func ignored<T>(_ make: () throws -> T, _ file: StaticString = #filePath, line: UInt = #line) {
        do { _ = try make(); XCTFail("expected the file to be ignored", file: file, line: line) } catch {
            guard case .ignored? = error as? ClientFailure else { return XCTFail("expected ignored, got \(error)", file: file, line: line) }
        }
    }

    static let messaging = #""messaging":{"forced":{"title":"T","message":"M","continueButtonText":"U"},"recommended":{"title":"T","message":"M","continueButtonText":"U","cancelButtonText":"Later"}}"#

    func testRetired() throws {
        let good = try RetiredClient(bytes(#"{\#(ClientSimulationTests.messaging),"versions":[{"version":"1.0","policy":"force"},{"version":"1.1","policy":"recommend"},{"version":"2.0","policy":"none"},{"version":"1.2","policy":"later"}]}"#))
        XCTAssertEqual(good.decide("1.0"), .required)
        XCTAssertEqual(good.decide("1.1"), .optional)
        XCTAssertEqual(good.decide("2.0"), .none)
        XCTAssertEqual(good.decide("1.0.0"), .none, "exact text: 1.0.0 is not 1.0")
        XCTAssertEqual(good.decide("1.2"), .none, "an unknown policy means none")
        XCTAssertEqual(good.decide("9.9"), .none, "an unlisted version gets nothing")
        // Crash shapes.
        crashes { try RetiredClient(bytes(#"{"messaging":{"forced":{"title":"T","message":"M","continueButtonText":"U"}},"versions":[]}"#)) }
        crashes { try RetiredClient(bytes(#"{"versions":[]}"#)) }
        crashes { try RetiredClient(bytes(#"{"messaging":{"forced":{"title":1,"message":"M","continueButtonText":"U"},"recommended":{"title":"T","message":"M","continueButtonText":"U"}},"versions":[]}"#)) }
        crashes { try RetiredClient(bytes(#"{\#(ClientSimulationTests.messaging),"versions":[{"version":1.0,"policy":"force"}]}"#)) }
        crashes { try RetiredClient(bytes(#"{\#(ClientSimulationTests.messaging),"versions":[{"version":1,"policy":"force"}]}"#)) }
        crashes { try RetiredClient(bytes(#"{\#(ClientSimulationTests.messaging),"versions":[{"version":"1","policy":2}]}"#)) }
        crashes { try RetiredClient(bytes(#"{\#(ClientSimulationTests.messaging),"versions":[{"version":"1","policy":"force"}"#)) }
        // Force and recommend differ only by the cancel button.
        let dismissable = try RetiredClient(bytes(#"{"messaging":{"forced":{"title":"T","message":"M","continueButtonText":"U","cancelButtonText":"X"},"recommended":{"title":"T","message":"M","continueButtonText":"U"}},"versions":[{"version":"1","policy":"force"},{"version":"2","policy":"recommend"}]}"#))
        XCTAssertEqual(dismissable.decide("1"), .optional, "a forced alert with a cancel button can be dismissed")
        XCTAssertEqual(dismissable.decide("2"), .required, "a recommended alert without one cannot")
    }

    func testAndVersionIOS() throws {
        let m = try AndVersionIOSClient(bytes(#"{"AndVersion":{"CurrentVersion":"1.8.3","MinVersion":"1.2.5","AppStoreId":"1088280260","WhatsNew":{"en":["New"],"tr":["Yeni"],"pt":["Novo"]}}}"#))
        XCTAssertEqual(m.decide("1.2"), .required)
        XCTAssertEqual(m.decide("1.2.5"), .optional)
        XCTAssertEqual(m.decide("1.8.3"), .none)
        XCTAssertEqual(m.decide("1.8.3.0"), .none, "more components is newer")
        XCTAssertEqual(m.decide("1.8"), .optional, "1.8 ranks below 1.8.3")
        XCTAssertTrue(AndVersionIOSClient.isBelow("1.0", "1.0.0"))
        XCTAssertFalse(AndVersionIOSClient.isBelow("2.0", "2"))
        XCTAssertEqual(m.notes(deviceLanguage: "pt-BR"), ["Novo"])
        XCTAssertEqual(m.notes(deviceLanguage: "tr"), ["Yeni"])
        XCTAssertEqual(m.notes(deviceLanguage: "de"), ["New"], "then en")
        let noEnglish = try AndVersionIOSClient(bytes(#"{"AndVersion":{"CurrentVersion":"2","MinVersion":"0","AppStoreId":"1","WhatsNew":{"tr":["Yeni"],"de":["Neu"]}}}"#))
        XCTAssertEqual(noEnglish.notes(deviceLanguage: "fr"), ["Neu"], "then an arbitrary key")
        crashes { try AndVersionIOSClient(bytes(#"{"AndVersion":{"CurrentVersion":"2","MinVersion":2,"AppStoreId":"1","WhatsNew":{"en":["x"]}}}"#)) }
        ignored { try AndVersionIOSClient(bytes(#"{"AndVersion":{"CurrentVersion":"","MinVersion":"1","AppStoreId":"1","WhatsNew":{"en":["x"]}}}"#)) }
        ignored { try AndVersionIOSClient(bytes(#"{"AndVersion":{"CurrentVersion":"2","MinVersion":"1","WhatsNew":{"en":["x"]}}}"#)) }
        ignored { try AndVersionIOSClient(bytes(#"{"AndVersion":{"CurrentVersion":"2","MinVersion":"1","AppStoreId":"id1","WhatsNew":{"en":["x"]}}}"#)) }
        ignored { try AndVersionIOSClient(bytes(#"{"AndVersion":{"CurrentVersion":"2","MinVersion":"1","AppStoreId":"1","WhatsNew":{}}}"#)) }
        crashes { try AndVersionIOSClient(bytes("not json")) }
    }

    func testAndVersionAndroid() throws {
        let m = try AndVersionAndroidClient(bytes(#"{"AndVersion":{"CurrentVersion":300,"MinVersion":200,"WhatsNew":{"en":["New"],"iw":["חדש"],"he":["חדש"]}}}"#))
        XCTAssertEqual(m.decide(199), .required)
        XCTAssertEqual(m.decide(200), .none, "no optional prompt on Android")
        XCTAssertEqual(m.decide(299), .none)
        XCTAssertEqual(m.notes(javaLanguage: "iw"), ["חדש"])
        XCTAssertEqual(m.notes(javaLanguage: "fr"), ["New"])
        let strings = try AndVersionAndroidClient(bytes(#"{"AndVersion":{"CurrentVersion":"3","MinVersion":"1.5","WhatsNew":{"en":["x"]}}}"#))
        XCTAssertEqual(strings.decide(0), .required, "\"1.5\" is read as 1")
        XCTAssertEqual(strings.decide(1), .none)
        let noRule = try AndVersionAndroidClient(bytes(#"{"AndVersion":{"CurrentVersion":"soon","MinVersion":200,"WhatsNew":{"en":["x"]}}}"#))
        XCTAssertEqual(noRule.decide(1), .none, "forced only when CurrentVersion is valid too")
    }

    func testSiren() throws {
        let config = #"{"majorUpdateRules":{"alertType":"force","frequency":"immediately"},"minorUpdateRules":{"alertType":"option","frequency":"daily"},"patchUpdateRules":{"alertType":"skip","frequency":"daily"},"revisionUpdateRules":{"alertType":"none","frequency":"weekly"},"showAlertAfterCurrentVersionHasBeenReleasedForDays":1,"forceFloor":"1.5"}"#
        let lookup = #"{"resultCount":1,"results":[{"trackId":1,"bundleId":"a.b","version":"2.3.1.1","currentVersionReleaseDate":"2026-11-20T10:00:00Z","minimumOsVersion":"15.0","releaseNotes":"","trackViewUrl":"https://x"}]}"#
        let released = Time.parseUTC("2026-11-20T10:00:00Z")!
        let s = try SirenClient(config: bytes(config), lookup: bytes(lookup))
        let later = released + 2 * 86400
        // Siren's delay gate stands in front of the floor the app feeds it (docs/clients.md, Wiring).
        XCTAssertEqual(s.decide("1.4.9", at: released), .none, "below the force floor, but within Siren's release delay")
        XCTAssertEqual(s.decide("1.4.9", at: later), .required, "below the force floor")
        let atOnce = try SirenClient(config: bytes(config.replacingOccurrences(of: "ForDays\":1", with: "ForDays\":0")), lookup: bytes(lookup))
        XCTAssertEqual(atOnce.decide("1.4.9", at: released), .required, "with no delay, below the force floor at once")
        XCTAssertEqual(s.decide("1.9", at: later), .required, "major: force")
        XCTAssertEqual(s.decide("2.2", at: later), .optional, "minor: option")
        XCTAssertEqual(s.decide("2.3", at: later), .optional, "patch: skip is optional")
        XCTAssertEqual(s.decide("2.3.1", at: later), .none, "revision: none")
        XCTAssertEqual(s.decide("2.3.1.1", at: later), .none)
        XCTAssertEqual(s.decide("2.2", at: released + 3600), .none, "within the release delay")
        XCTAssertEqual(SirenClient.compare("2.3", "2.3.0").below, false, "Siren 7: missing components are 0")
        // A lookup that does not decode: Siren reports an error and shows nothing.
        for bad in [lookup.replacingOccurrences(of: #""trackId":1"#, with: #""trackId":"1""#),
                    lookup.replacingOccurrences(of: "10:00:00Z", with: "10:00:00.000Z"),
                    lookup.replacingOccurrences(of: #""bundleId":"a.b","#, with: "")] {
            ignored { try SirenClient(config: bytes(config), lookup: bytes(bad)) }
        }
        crashes { try SirenClient(config: bytes(#"{"majorUpdateRules":{}}"#), lookup: nil) }
        let noLookup = try SirenClient(config: bytes(config), lookup: nil)
        XCTAssertEqual(noLookup.decide("2.0", at: later), .none)
    }

    func testControlDocument() throws {
        let doc = #"{"maintenance":{"active":[{"platform":"android"}],"upcoming":[]},"platforms":{"ios":{"versions":[{"version":"1.0","build":100,"update":"required"},{"version":"2.0","build":null,"update":"none"}]},"android":{"versions":[{"version":"1.0","build":1,"update":"required"}]}}}"#
        let c = try ControlClient(bytes(doc))
        XCTAssertEqual(c.decide(platform: "ios", version: "1.0", build: 100), .required)
        XCTAssertEqual(c.decide(platform: "ios", version: "2.0", build: nil), .none)
        XCTAssertEqual(c.decide(platform: "android", version: "1.0", build: 1), .maintenance, "maintenance comes first")
        if case .ignored = c.decide(platform: "ios", version: "3.0", build: nil) {} else { XCTFail("an unlisted version is not decided") }
        crashes { try ControlClient(bytes(#"{"platforms":{}}"#)) }
    }

    /// An entry is read as a decoder reads it: a repeated member is its last,
    /// an escaped name is its text, a build is an integer or none, and each
    /// member of the wrong kind is named, the entry's members in order.
    func testControlEntriesAreReadAsADecoderReadsThem() throws {
        func document(_ entry: String) -> [UInt8] {
            bytes(#"{"maintenance":{"active":[]},"platforms":{"ios":{"versions":["# + entry + "]}}}")
        }
        func failure(_ entry: String) -> ClientFailure? {
            do { _ = try ControlClient(document(entry)); return nil } catch { return error }
        }
        let repeated = try ControlClient(document(#"{"version":"1.0","build":7,"update":"none","upd\u0061te":"required"}"#))
        XCTAssertEqual(repeated.decide(platform: "ios", version: "1.0", build: 7), .required, "the last of two spellings of one member")
        let textBuild = try ControlClient(document(#"{"version":"1.0","build":"7","update":"required"}"#))
        XCTAssertEqual(textBuild.decide(platform: "ios", version: "1.0", build: nil), .required, "a build that is not an integer is none")
        let banded = try ControlClient(document(#"{"version":"1.0","update":"none","byOs":[{"from":null,"below":"16.0","update":"required"},{"from":"16.0","below":"17.0","update":"optional"}]}"#))
        XCTAssertEqual(banded.decide(platform: "ios", version: "1.0", build: nil, os: "15.2"), .required)
        XCTAssertEqual(banded.decide(platform: "ios", version: "1.0", build: nil, os: "16.1"), .optional)
        XCTAssertEqual(banded.decide(platform: "ios", version: "1.0", build: nil, os: "17.0"), .none)
        XCTAssertEqual(failure(#"{"version":1,"update":2}"#), .crash("version is not a string"), "the entry's members in order")
        XCTAssertEqual(failure(#"{"update":"none"}"#), .crash("version is missing"))
        XCTAssertEqual(failure(#"{"version":"1.0","update":null}"#), .crash("update is not a string"))
        XCTAssertEqual(failure(#"{"version":"1.0","update":"none","rollout":null}"#), .crash("platforms.ios.versions[].rollout is not an object"))
        XCTAssertEqual(failure(#"{"version":"1.0","update":"none","rollout":{"update":"none","byOs":{}}}"#), .crash("platforms.ios.versions[].rollout.byOs is not an array"))
        XCTAssertEqual(failure(#"{"version":"1.0","update":"none","byOs":{}}"#), .crash("platforms.ios.versions[].byOs is not an array"))
        XCTAssertEqual(failure(#"{"version":"1.0","update":"none","byOs":[1]}"#), .crash("byOs[] is not an object"))
        XCTAssertEqual(failure(#"{"version":"1.0","update":"none","byOs":[{"below":"16.0","update":"none"}]}"#), .crash("byOs[].from is missing"))
        XCTAssertEqual(failure(#"{"version":"1.0","update":"none","byOs":[{"from":1,"below":"16.0","update":"none"}]}"#), .crash("byOs[].from is not a string"))
        XCTAssertEqual(failure(#"{"version":"1.0","update":"none","byOs":[{"from":null,"update":"none"}]}"#), .crash("byOs[].below is missing"))
        XCTAssertEqual(failure(#""1.0""#), .crash("platforms.ios.versions[] is not an object"))
        XCTAssertEqual(failure(#"{"version":1,"version":"1.0","update":"none"}"#), nil, "the last of a repeated member, whatever the first")
        XCTAssertEqual(failure(#"{"version":"1.0","version":1,"update":"none"}"#), .crash("version is not a string"))
        XCTAssertEqual(failure(#"{"version":"1.0","update":"none","rollout":{"byOs":[]}}"#), .crash("rollout.update is missing"))
        XCTAssertEqual(failure(#"{"version":"1.0","update":"none","byOs":[{"from":1,"below":2,"update":3}]}"#), .crash("byOs[].from is not a string"), "a band's members in order")
        XCTAssertEqual(failure(#"{"version":"1.0","update":"none","byOs":[{"from":null,"below":"16.0","update":3}]}"#), .crash("byOs[].update is not a string"))
    }
}
