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
        // A file laid out by hand (relctl import retired takes one) reads alike; of a version listed twice, the first counts.
        let pretty = try RetiredClient(bytes("{\n  \(ClientSimulationTests.messaging),\n  \"versions\" : [\n    { \"version\" : \"1.0\",\t\"policy\" : \"force\" } ,\r\n"
                                             + "    {\"policy\":\"recommend\", \"version\":\"1.1\"},\n    { \"version\": \"1.0\", \"policy\": \"none\" }\n  ]\n}\n"))
        XCTAssertEqual(pretty.decide("1.0"), .required)
        XCTAssertEqual(pretty.decide("1.1"), .optional)
        crashes { try RetiredClient(bytes("{\(ClientSimulationTests.messaging), \"versions\": [ {\"version\": \"1\", \"policy\": \"force\"} , 7 ]}")) }
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

    /// The platforms are read in one walk, as a decoder's dictionaries keep
    /// them: of a repeated platform or version list, the last; the platform
    /// named when one is refused is the first in the document.
    func testControlPlatformsAreReadAsADecoderKeepsThem() throws {
        func document(_ platforms: String) -> [UInt8] { bytes(#"{"maintenance":{"active":[]},"platforms":{"# + platforms + "}}") }
        func failure(_ platforms: String) -> ClientFailure? {
            do { _ = try ControlClient(document(platforms)); return nil } catch { return error }
        }
        let list = #"[{"version":"1.0","update":"required"},{"version":"2.0","update":"none","byOs":[{"from":null,"below":"16.0","update":"optional"}]}]"#
        let twice = try ControlClient(document(#""ios":{"versions":[{"version":"1.0","update":"none"}]},"android":{"versions":[]},"io\u0073":{"minOs":"15.0","versions":"# + list + "}"))
        XCTAssertEqual(twice.decide(platform: "ios", version: "1.0", build: nil), .required, "the last entry of a repeated platform")
        XCTAssertEqual(twice.decide(platform: "ios", version: "2.0", build: nil, os: "15.0"), .optional)
        XCTAssertEqual(twice.decide(platform: "ios", version: "2.0", build: nil), .none)
        if case .ignored = twice.decide(platform: "android", version: "1.0", build: nil) {} else { XCTFail("android lists nothing") }
        let lists = try ControlClient(document(#""ios":{"versions":7,"versions":"# + list + #","rules":{"a":[1,{"b":2}]}}"#))
        XCTAssertEqual(lists.decide(platform: "ios", version: "1.0", build: nil), .required, "the last of two version lists, whatever the first")
        XCTAssertEqual(lists.decide(platform: "ios", version: "2.0", build: nil, os: "15.0"), .optional, "a member after the list is gone past")
        XCTAssertEqual(failure(#""ios":{"versions":"# + list + #","versions":[1]}"#), .crash("platforms.ios.versions[] is not an object"))
        XCTAssertEqual(failure(#""ios":[],"ios":{"versions":[]}"#), nil, "a refused entry that a later one of its name replaces")
        XCTAssertEqual(failure(#""ios":{"versions":[]},"ios":[]"#), .crash("platforms.ios is not an object"))
        XCTAssertEqual(failure(#""watchos":{"versions":[]},"ios":{"minOs":"15.0"},"android":7"#), .crash("platforms.ios.versions is not an array"),
                       "the first refused platform in the document, not in a dictionary's order")
        XCTAssertEqual(failure(#""android":{"versions":{}},"ios":7"#), .crash("platforms.android.versions is not an array"))
        XCTAssertEqual(try ControlClient(document("")).decide(platform: "ios", version: "1.0", build: nil), .ignored("ios 1.0 is not listed"))
        crashes { try ControlClient(bytes(#"{"maintenance":{"active":[]},"platforms":[]}"#)) }
        // One name in two Unicode forms is one platform, read by its last entry and said as first spelled.
        let spelled = failure(#""\u00e9":{"versions":[]},"e\u0301":{"versions":{}}"#)
        guard case .crash(let message)? = spelled else { return XCTFail("refused: \(String(describing: spelled))") }
        XCTAssertEqual(Array(message.unicodeScalars), Array("platforms.\u{e9}.versions is not an array".unicodeScalars))
    }
}

/// control.json's one-walk reader against the reading it replaced, level by
/// level (object, then elements, then values of each), kept here as the
/// reference: random documents with repeated and escaped names, members of
/// the wrong kind and lists in any place give the same answers, or both refuse.
final class ControlClientWalkTests: XCTestCase {
    typealias Band = ControlClient.Band
    struct Tables: Equatable {
        var platforms: [String: [ControlClient.Key: String]] = [:]
        var byOS: [String: [ControlClient.Key: String]] = [:]
        var inRollout: [String: [ControlClient.Key: String]] = [:]
    }
    static func spelled(_ bands: [Band]) -> String { bands.map { "\($0.from ?? "-")<\($0.below)=\($0.update)" }.joined(separator: ";") }

    /// What ControlClient read (its tables, the bands spelled out).
    static func tables(_ c: ControlClient) -> Tables {
        Tables(platforms: c.platforms, byOS: c.byOS.mapValues { $0.mapValues(spelled) }.filter { !$0.value.isEmpty },
               inRollout: c.inRollout.mapValues { $0.mapValues { "\($0.update)|" + spelled($0.byOS) } }.filter { !$0.value.isEmpty })
    }

    /// The elements of the array at `range`, as ranges (the former `JSONReader.elements`).
    static func elements(_ b: [UInt8], at range: Range<Int>) -> [Range<Int>]? {
        var i = range.lowerBound
        guard i < range.upperBound, b[i] == UInt8(ascii: "[") else { return nil }
        i += 1
        var out: [Range<Int>] = []
        JSONReader.skipSpace(b, &i)
        if b[i] == UInt8(ascii: "]") { return out }
        while i < range.upperBound {
            JSONReader.skipSpace(b, &i)
            let start = i
            JSONReader.skipChecked(b, &i)
            out.append(start..<i)
            JSONReader.skipSpace(b, &i)
            guard i < b.count, b[i] == UInt8(ascii: ",") else { break }
            i += 1
        }
        return out
    }

    /// The former reading: every level found by its members, each platform's entry by name.
    static func reference(_ bytes: [UInt8]) -> Tables? {
        guard let top = try? JSONReader.members(bytes), let platforms = top["platforms"].flatMap({ JSONReader.object(bytes, at: $0) })?.byName else { return nil }
        func string(_ r: Range<Int>?) -> String? { r.flatMap { JSONReader.value(bytes, at: $0) }.flatMap { if case .string(let s) = $0 { s } else { nil } } }
        func bands(_ range: Range<Int>) -> String? {
            guard let list = elements(bytes, at: range) else { return nil }
            var out: [Band] = []
            for e in list {
                guard let b = JSONReader.values(bytes, at: e, of: ControlClient.bandMembers) else { return nil }
                let from: String?
                if let r = b[0], bytes[r.lowerBound] == UInt8(ascii: "n") { from = nil } else { guard let f = string(b[0]) else { return nil }; from = f }
                guard let below = string(b[1]), let update = string(b[2]) else { return nil }
                out.append((from, below, update))
            }
            return spelled(out)
        }
        var t = Tables()
        for (name, range) in platforms {
            guard let p = JSONReader.object(bytes, at: range), let versions = p.last("versions").flatMap({ elements(bytes, at: $0) }) else { return nil }
            var updates: [ControlClient.Key: String] = [:]
            for v in versions {
                guard let o = JSONReader.values(bytes, at: v, of: ControlClient.versionMembers), let text = string(o[0]) else { return nil }
                let key = ControlClient.Key(version: text, build: o[1].flatMap { JSONReader.integer(bytes, $0) })
                guard let update = string(o[2]) else { return nil }
                updates[key] = update
                if let r = o[3] {
                    guard let alt = JSONReader.values(bytes, at: r, of: ControlClient.rolloutMembers), let u = string(alt[0]) else { return nil }
                    var spelledBands = ""
                    if let b = alt[1] { guard let s = bands(b) else { return nil }; spelledBands = s }
                    t.inRollout[name, default: [:]][key] = "\(u)|" + spelledBands
                }
                if let b = o[4] { guard let s = bands(b) else { return nil }; t.byOS[name, default: [:]][key] = s }
            }
            t.platforms[name] = updates
        }
        guard case .object(let m)? = top["maintenance"].flatMap({ JSONReader.value(bytes, at: $0) }), case .array? = m["active"] else { return nil }
        return t
    }

    func testTheWalkReadsAsTheLevelsDid() throws {
        var rng = SplitMix(seed: UInt64(ProcessInfo.processInfo.environment["RELCTL_SEED"] ?? "") ?? 4242)
        func pick<T>(_ xs: [T]) -> T { xs[Int(rng.next() % UInt64(xs.count))] }
        func chance(_ n: UInt64) -> Bool { rng.next() % n == 0 }
        // Space between tokens, as a file edited by hand has it; mostly none, as relctl writes.
        func sp() -> String { chance(4) ? pick([" ", "\n", "\n  ", "\t", " \r\n "]) : "" }
        func object(_ members: [String]) -> String { "{" + sp() + members.joined(separator: sp() + "," + sp()) + sp() + "}" }
        func member(_ name: String, _ value: String) -> String { name + sp() + ":" + sp() + value }
        func string() -> String { pick([#""1.0""#, #""2.0""#, #""1.0.0""#, #""required""#, #""none""#, #""optional""#, #""16.0""#, #""15.\u0030""#]) }
        func odd() -> String { pick(["1", "null", "true", "[]", "{}", "[ ]", #"{"a":[1,{"b":"]"}]}"#, #""x\"]}""#]) }
        func value(_ s: @autoclosure () -> String) -> String { chance(9) ? odd() : s() }
        func band() -> String {
            chance(12) ? odd() : object([member(#""from""#, chance(3) ? "null" : value(string())), member(#""below""#, value(string())), member(#""update""#, value(string()))]
                .filter { _ in !chance(15) }.shuffled(using: &rng))
        }
        func list(_ item: () -> String, _ most: UInt64) -> String {
            "[" + sp() + (0..<Int(rng.next() % most)).map { _ in item() }.joined(separator: sp() + "," + sp()) + sp() + "]"
        }
        func entry() -> String {
            if chance(20) { return odd() }
            var members = [member(#""version""#, value(string())), member(#""update""#, value(string()))]
            // A build of another kind is none: never a fraction, which the document's check refuses before any reading.
            if !chance(2) { members.append(member(#""build""#, pick(["1", "7", #""7""#, "null", "-1", "true"]))) }
            if chance(3) { members.append(member(#""byOs""#, chance(10) ? odd() : list(band, 3))) }
            if chance(4) {
                members.append(member(#""rollout""#, chance(8) ? odd()
                                      : object([member(#""update""#, value(string()))] + (chance(2) ? [member(#""byOs""#, list(band, 3))] : []))))
            }
            if chance(3) { members.append(pick([#""target":"2.0""#, #""skipAllowed":false"#, #""upd\u0061te":"none""#, #""version":"2.0""#])) }
            return object(members.filter { _ in !chance(25) }.shuffled(using: &rng))
        }
        func platform() -> String {
            if chance(15) { return odd() }
            var members = (0..<Int(rng.next() % 3 + (chance(10) ? 0 : 1))).map { _ in member(#""versions""#, chance(12) ? odd() : list(entry, 6)) }
            members += [#""minOs":"15.0""#, #""rules":{"versions":[1,{"x":"}"}]}"#, #""v\u0065rsions":[]"#].filter { _ in chance(3) }
            return object(members.shuffled(using: &rng))
        }
        var accepted = 0, refused = 0
        for _ in 0..<3000 {
            let names = (0..<Int(rng.next() % 4)).map { _ in pick([#""ios""#, #""android""#, #""io\u0073""#, #""macos""#]) }
            let doc = sp() + object([#""maintenance":{"active":[]}"#, member(#""platforms""#, object(names.map { member($0, platform()) })), #""schemaVersion":1"#]) + sp()
            let bytes = Array(doc.utf8)
            XCTAssertNoThrow(try JSONReader.members(bytes), "every document is one the check accepts, which the reading then walks: \(doc)")
            let walked = try? ControlClient(bytes)
            XCTAssertEqual(walked.map(Self.tables), Self.reference(bytes), doc)
            if walked == nil { refused += 1 } else { accepted += 1 }
        }
        // Both kinds are tried, many times each.
        XCTAssertGreaterThan(accepted, 500)
        XCTAssertGreaterThan(refused, 500)
    }
}
