import XCTest
@testable import RelctlCore
@testable import RelctlModel
@testable import RelctlStore

/// The shortcuts publish takes for speed give what the general code gives:
/// hand-written JSON against the JSON writer, byte readers against the
/// String ones, reused client decisions against fresh ones.
final class RenderShortcutTests: XCTestCase {
    static let now: Int64 = 1_790_000_000

    /// Versions with and without builds, release times, minimum OS, pins
    /// and a text that needs escaping nowhere else (minimum OS is free text
    /// in an old database), under a force floor with a deadline.
    func state() throws -> PlatformState {
        let day: Int64 = 86400
        let project = ProjectRecord(id: 1, slug: "app", name: "App", defaultLocale: "en", locales: ["en", "tr"], rules: .standard,
                                    releaseDelayDays: 1, remindHours: 24, outdated: .recommend)
        let platform = PlatformRecord(id: 1, projectID: 1, name: "ios", bundleID: "b", appStoreID: "1", storeURL: nil, minOS: "15.0",
                                      force: Floor(version: try Version("2.0"), build: nil, deadline: RenderShortcutTests.now + day),
                                      recommend: Floor(version: try Version("2.5"), build: 7))
        let rows: [(String, Int64?, Int64?, String?, String?)] = [
            ("1.0", nil, RenderShortcutTests.now - 90 * day, nil, nil), ("1.0.0", 3, RenderShortcutTests.now - 80 * day, "12.\"0\"", "force"),
            ("2.0", 5, nil, nil, nil), ("2.1", 6, RenderShortcutTests.now - 20 * day, nil, "none"), ("2.5", 7, RenderShortcutTests.now - 10 * day, nil, nil),
            ("3.0.0.1", 9, RenderShortcutTests.now - day / 2, "16.0", nil), ("4", nil, RenderShortcutTests.now + day, nil, nil),
        ]
        let versions = rows.enumerated().map { i, r in
            VersionRecord(id: Int64(i + 1), platformID: 1, version: try! Version(r.0), build: r.1, releasedAt: r.2, minOS: r.3, policy: r.4.map { VersionRecord.Pin(rawValue: $0)! }, notes: [:])
        }
        let snapshot = ProjectSnapshot(project: project, platforms: [platform], versions: [1: versions], windows: [],
                                       messages: MessageResolver(overrides: [:], defaultLocale: "en"))
        return PlatformState(Evaluator(snapshot), platform, at: RenderShortcutTests.now)
    }

    func testControlVersionsWriterMatchesTheGeneralRenderer() throws {
        let s = try state()
        // Each version's answers on older OS, asked of the evaluator directly.
        let bands = OSBands.of(s.platform, s.versions).dropFirst().filter { OSBands.populated($0, s.platform, s.versions) }
        let general = s.verdicts.map { v, verdict in
            ControlFormat.versionJSON(v, verdict, byOS: bands.compactMap { band in
                guard OSBands.installable(v, on: band.os!, s.platform) else { return nil }
                let here = s.evaluator.update(s.platform, v.release, at: s.at, os: band.os)
                return here.kind != verdict.kind || here.target?.id != verdict.target?.id ? (band, here) : nil
            })
        }
        XCTAssertEqual(String(decoding: ControlFormat.versions(s).compactBytes(), as: UTF8.self),
                       String(decoding: JSON.array(general).compactBytes(), as: UTF8.self))
        XCTAssertTrue(ControlFormat.versions(s).compactBytes().count > 0 && String(decoding: ControlFormat.versions(s).compactBytes(), as: UTF8.self).contains("byOs"),
                      "the state has versions that need a newer OS")
        XCTAssertTrue(s.verdicts.contains { $0.1.kind == .optional } && s.verdicts.contains { $0.1.kind == .required })
    }

    func testABandEntryIsWrittenAsTheJSONWriterWritesIt() throws {
        let s = try state()
        let bands = [OSBand(from: nil, below: "15.0", os: "14.0"), OSBand(from: "15.0", below: "16.\"0\"", os: "15.0"), OSBand(from: "16.0", below: nil, os: nil)]
        for band in bands {
            for (v, verdict) in s.verdicts {
                var out: [UInt8] = []
                ControlFormat.writeBand(band, verdict, into: &out)
                var general: [UInt8] = []
                ControlFormat.bandJSON(band, verdict).writeCompact(to: &general)
                XCTAssertEqual(String(decoding: out, as: UTF8.self), String(decoding: general, as: UTF8.self), v.version.text)
            }
        }
        XCTAssertTrue(s.verdicts.contains { $0.1.target != nil } && s.verdicts.contains { $0.1.target == nil })
        XCTAssertTrue(s.verdicts.contains { $0.1.kind == .optional && $0.1.rule?.skipAllowed == true }, "a band entry that allows a skip")
    }

    func testRetiredVersionsWriterMatchesTheGeneralRenderer() throws {
        let s = try state()
        XCTAssertEqual(String(decoding: RetiredFormat.versions(s).compactBytes(), as: UTF8.self),
                       String(decoding: JSON.array(s.verdicts.map { v, verdict in
                           .ordered(["policy": .string(verdict.retiredPolicy), "version": .string(v.version.text)])
                       }).compactBytes(), as: UTF8.self))
    }

    func testRetiredDeadlineOnlyWhenEveryRecommendedVersionIsInTheGracePeriod() throws {
        let s = try state()
        let optional = s.verdicts.filter { $0.1.kind == .optional }
        let expected = optional.allSatisfy { $0.1.decidedBy == .forceDeadline } ? optional.first?.1.deadline : nil
        XCTAssertEqual(RetiredFormat.deadline(s), expected)
        XCTAssertNil(RetiredFormat.deadline(s), "2.1 is recommended by the recommend floor, not the deadline")
    }

    func testIntegersReadAsInt64ReadsTheirText() {
        for text in ["0", "-0", "7", "007", "-12", "9223372036854775807", "-9223372036854775808", "9223372036854775808",
                     "-9223372036854775809", "-", "--1", "1-2", "", "12-"] {
            // As Int64(String) reads it, but that JSON writes no leading zero ("007").
            let digits = text.hasPrefix("-") ? text.dropFirst() : text[...]
            XCTAssertEqual(JSONReader.integer(Array(text.utf8)[...]), digits.count > 1 && digits.hasPrefix("0") ? nil : Int64(text), text)
        }
    }

    /// A template filled Character by Character, as `fill` did before it read bytes.
    static func walk(_ template: String, _ values: [String: String]) -> String {
        var walked = ""
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "{") {
            walked += rest[..<open]
            let after = rest[rest.index(after: open)...]
            if let close = after.firstIndex(of: "}"), let value = values[String(after[..<close])] {
                walked += value
                rest = after[after.index(after: close)...]
            } else {
                walked += "{"
                rest = after
            }
        }
        return walked + rest
    }

    func testFillOnBytesMatchesTheCharacterWalk() {
        let values = ["app": "Shop", "version": "2.1.0", "deadline": "1 Dec"]
        for template in ["Update {app} to {version}", "{app}", "{", "}", "{}", "{unknown} {app", "a {{app}} b", "{app}{version}",
                         "Türkçe {app} sürüm {version}", "{app}の更新", "e\u{301}{app}", "{\u{301}app}", "{app}\u{301}", "x{app\u{200D}}"] {
            XCTAssertEqual(MessageResolver.fill(template, values), Self.walk(template, values), template)
        }
        XCTAssertNil(MessageResolver.fillBytes("{\u{301}app}", values), "a brace with a combining mark is left to the Character walk")
    }

    /// Templates of braces, placeholders and scalars of every kind that
    /// joins (or not) a brace into one Character: the bytes fill exactly as
    /// the Character walk, and takes the templates whose braces stand
    /// alone, as most translations' do ("{app}の更新", "«{version}»").
    func testFillOnBytesMatchesTheCharacterWalkForAnyScalarBesideABrace() {
        let values = ["app": "Shop", "version": "2.1.0", "の": "x"]
        func walk(_ template: String) -> String { Self.walk(template, values) }
        // Letters of other scripts, a combining mark (GB9), a joiner (GB9), a spacing mark (GB9a),
        // prepends (GB9b), an emoji, a regional indicator, a line break.
        let joiners = ["\u{301}", "\u{200D}", "\u{903}", "\u{600}", "\u{110BD}"]
        let pieces = ["{", "}", "app", "version", "a", " ", "の", "é", "Ж", "«", "»", "\u{1F600}", "\u{1F1EB}", "\r\n"] + joiners
        var r = SystemRandomNumberGenerator()
        var taken = 0, left = 0
        for _ in 0..<5_000 {
            let template = (0..<Int.random(in: 1...9, using: &r)).map { _ in pieces.randomElement(using: &r)! }.joined()
            // Bytes, not Strings: String's == would take canonically equivalent text for the same.
            XCTAssertEqual(Array(MessageResolver.fill(template, values).utf8), Array(walk(template).utf8),
                           template.unicodeScalars.map { String($0.value, radix: 16) }.joined(separator: " "))
            if let bytes = MessageResolver.fillBytes(template, values) {
                XCTAssertEqual(Array(bytes.utf8), Array(walk(template).utf8))
                taken += 1
            } else {
                left += 1
            }
        }
        XCTAssertGreaterThan(taken, 1_000)
        XCTAssertGreaterThan(left, 100)
        for template in ["{app}の更新", "«{version}»", "Обновите {app} до {version}", "{app}\u{1F600}"] {
            XCTAssertEqual(MessageResolver.fillBytes(template, values).map { Array($0.utf8) }, Array(walk(template).utf8), template)
        }
        for template in ["{\u{301}app}", "\u{600}{app}", "{app}\u{200D}", "{app}\u{903}"] {
            XCTAssertNil(MessageResolver.fillBytes(template, values), template)
        }
    }

    func testUpgraderVersionParseMatchesTheSplitReading() {
        func split(_ s: String) -> [Int]? {
            var out: [Int] = []
            for part in s.split(separator: ".", omittingEmptySubsequences: false) {
                guard !part.isEmpty, part.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }), part.count <= 9, let n = Int(part) else { return nil }
                out.append(n)
            }
            guard out.count <= 4 else { return nil }
            return Array((out + [0, 0, 0]).prefix(3))
        }
        for text in ["1", "1.2", "1.2.3", "1.2.3.4", "1.2.3.4.5", "", ".", "1.", ".1", "v1.2", "1..2", "123456789", "1234567890", "01.002", "1.2a", "١.٢"] {
            XCTAssertEqual(UpgraderClient.parse(text), split(text), text)
        }
    }

    func testAndVersionComponentsMatchTheSplitReading() {
        for text in ["1", "1.0", "1.0.0", "", ".", "1..2", "007.1", "99999999999999999999", "1.+2", "1.-2", "a.b", "2.1.0-beta"] {
            let split = text.split(separator: ".", omittingEmptySubsequences: false).map { Int($0) ?? 0 }
            if let fast = AndVersionIOSClient.plainComponents(text) { XCTAssertEqual(fast, split, text) }
        }
        XCTAssertNil(AndVersionIOSClient.plainComponents("1.+2"), "a sign goes the general way")
        XCTAssertTrue(AndVersionIOSClient.isBelow("1.0", "1.0.0"))
        XCTAssertFalse(AndVersionIOSClient.isBelow("1.+2", "1.1"))
    }

    func testVersionEqualityIsKeyEquality() throws {
        let texts = ["0", "0.0", "1", "1.0", "1.0.0", "1.0.0.0", "1.0.1", "1.1", "01.0", "2.0.0.1", "2"]
        for a in texts { for b in texts {
            let x = try Version(a), y = try Version(b)
            XCTAssertEqual(x == y, x.key == y.key, "\(a) \(b)")
        } }
    }

    /// A Retired file whose version list matches the last one byte for byte
    /// is read from the memo; one that differs anywhere is read afresh, so a
    /// changed policy is seen and a broken list still crashes.
    func testRetiredMemoReadsOnlyWhatItHasSeen() throws {
        let head = #"{"messaging":{"forced":{"continueButtonText":"U","message":"M","title":"T"},"recommended":{"cancelButtonText":"L","continueButtonText":"U","message":"M","title":"T"}},"versions":"#
        func file(_ versions: String, tail: String = "}") -> [UInt8] { Array((head + versions + tail).utf8) }
        let memo = RetiredMemo()
        let list = #"[{"policy":"force","version":"1.0"},{"policy":"none","version":"2.0"}]"#
        let first = try RetiredClient(file(list), memo: memo)
        XCTAssertEqual(first.decide("1.0"), .required)
        XCTAssertEqual(try RetiredClient(file(list), memo: memo), first)
        let changed = try RetiredClient(file(list.replacingOccurrences(of: "force", with: "recommend")), memo: memo)
        XCTAssertEqual(changed.decide("1.0"), .optional)
        XCTAssertNotEqual(changed, first)
        XCTAssertThrowsError(try RetiredClient(file(list, tail: "}x"), memo: memo), "trailing bytes after a known list")
        XCTAssertThrowsError(try RetiredClient(file(String(list.dropLast())), memo: memo), "a list cut short")
        XCTAssertEqual(try RetiredClient(file(list), memo: memo).decide("1.0"), .required)
    }

    /// A band state's proof takes the records' verdicts on the newest OS from
    /// the newest state (PlatformCheck's `newest`), and the status page a
    /// band's readings from its state (PlatformState.bandStates): both as
    /// the evaluator gives them, in every generated situation with OS bands.
    func testBandShortcutsGiveWhatTheEvaluatorGives() throws {
        var bandStates = 0
        for seed in 0..<400 as Range<UInt64> {
            let snapshot = FidelityScenarioTests.scenario(seed)
            let evaluator = Evaluator(snapshot)
            for p in snapshot.platforms {
                for at in [FidelityScenarioTests.now, FidelityScenarioTests.now + 2 * FidelityScenarioTests.day] {
                    let s = PlatformState(evaluator, p, at: at)
                    for band in Fidelity.onOtherOS(s) {
                        let os = band.os!
                        let shortcut = PlatformCheck(state: band, file: { _ in nil }, control: nil, newest: s)
                        let general = PlatformCheck(state: band, file: { _ in nil }, control: nil)
                        XCTAssertEqual(shortcut.onNewestOS, general.onNewestOS, "seed \(seed), \(p.name) on \(os)")
                        bandStates += 1
                    }
                    // The page's readings from the band states are those it works out for an instant not its state's own.
                    XCTAssertEqual(StatusPage.readings(s, at: at), StatusPage.readings(PlatformState(evaluator, p, at: at - 1), at: at), "seed \(seed), \(p.name)")
                    // The bands the page reads are those it worked out itself, each verdict the evaluator's.
                    let listed = s.bandStates.filter { $0.state != nil }
                    let drawn = OSBands.of(s.platform, s.versions).filter { $0.os != nil && OSBands.populated($0, s.platform, s.versions) }
                    XCTAssertEqual(listed.map(\.band.os), drawn.map(\.os), "seed \(seed)")
                    for (band, state) in listed {
                        let facts = Evaluator.PlatformFacts(snapshot, s.platform, at: at, os: band.os!)
                        for (i, v) in s.versions.enumerated() where OSBands.installable(v, on: band.os!, s.platform) {
                            let (a, b) = (state!.verdicts[i].1, evaluator.update(s.platform, v.release, at: at, facts: facts))
                            XCTAssertEqual([a.kind.rawValue, a.decidedBy.rawValue, a.why, "\(a.target?.id ?? 0)", "\(a.deadline ?? 0)", "\(a.window?.id ?? 0)"],
                                           [b.kind.rawValue, b.decidedBy.rawValue, b.why, "\(b.target?.id ?? 0)", "\(b.deadline ?? 0)", "\(b.window?.id ?? 0)"],
                                           "seed \(seed), \(v.version.text) on \(band.os!)")
                        }
                    }
                }
            }
        }
        XCTAssertGreaterThan(bandStates, 300, "the situations draw OS bands")
    }
}
