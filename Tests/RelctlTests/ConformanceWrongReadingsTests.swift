import Foundation
import XCTest
@testable import RelctlCLI
@testable import RelctlCore
@testable import RelctlModel
@testable import RelctlClient

/// Issue 48: the conformance suite pins behaviour down. Each wrong reading
/// is a client of control.json that misreads one thing a stranger could
/// misread (its state, the install it is asked about, or the answer it
/// gives); the right reading passes every case, and the suite must fail
/// every wrong one.
final class ConformanceWrongReadingsTests: XCTestCase {
    struct Install: Sendable {
        var platform: String, version: String, build: Int64?, os: String?, languages: [String], at: Int64
        var installID: String? = nil
    }

    struct Suite {
        var name: String
        var state: ProjectSnapshot
        var cases: [(install: Install, expected: JSON)]
    }

    /// A client: what it shows for an install, from the state it read.
    struct Reading: Sendable {
        var name: String
        var answer: @Sendable (ProjectSnapshot, Install) -> ClientAnswer?
    }

    static let publishedAt = Time.parseUTC(ConformanceCommand.start)!

    /// What relctl's evaluator says, as RelctlClient reads it.
    static func right(_ s: ProjectSnapshot, _ i: Install) -> ClientAnswer? {
        guard let v = try? Version(i.version) else { return nil }
        return ClientAnswer.answer(s, platform: i.platform, release: Release(v, build: i.build), os: i.os, languages: i.languages, at: i.at, installID: i.installID)
    }

    /// A client that decides who is in a rollout by `inside` (the rollout, the install id, the instant).
    static func rollout(_ name: String, _ inside: @escaping @Sendable (Rollout, String, Int64) -> Bool) -> Reading {
        Reading(name: name) { s, i in
            guard let v = try? Version(i.version), let p = s.platforms.first(where: { $0.name == i.platform }) else { return nil }
            var s = s
            if let r = p.rollout, let k = s.platforms.firstIndex(where: { $0.name == i.platform }) {
                s.platforms[k] = p.seen(inRollout: i.installID.map { inside(r, $0, i.at) } ?? false, at: i.at)
            }
            return ClientAnswer.answer(s, platform: i.platform, release: Release(v, build: i.build), os: i.os, languages: i.languages, at: i.at)
        }
    }

    /// The bucket as a wrong reading computes it from the digest.
    static func bucket(_ r: Rollout, _ id: String, input: String? = nil, _ read: ([UInt8]) -> UInt32) -> Int {
        Int(read(SHA256Digest.hash(Array((input ?? (r.salt + "." + id)).utf8))) % UInt32(Rollout.unit))
    }

    /// The right reading of a changed state, or a changed install.
    static func state(_ name: String, _ change: @escaping @Sendable (inout ProjectSnapshot, Install) -> Void) -> Reading {
        Reading(name: name) { s, i in var s = s; change(&s, i); return right(s, i) }
    }
    static func install(_ name: String, _ change: @escaping @Sendable (ProjectSnapshot, inout Install) -> Void) -> Reading {
        Reading(name: name) { s, i in var i = i; change(s, &i); return right(s, i) }
    }
    static func answer(_ name: String, _ change: @escaping @Sendable (ProjectSnapshot, Install, inout ClientAnswer) -> Void) -> Reading {
        Reading(name: name) { s, i in
            guard var a = right(s, i) else { return nil }
            change(s, i, &a)
            return a
        }
    }

    static func eachVersion(_ s: inout ProjectSnapshot, _ change: (inout VersionRecord) -> Void) {
        for (k, list) in s.versions { s.versions[k] = list.map { var v = $0; change(&v); return v } }
    }

    /// A client that chooses its locale by `pick` (device languages to a published locale or nil).
    static func locale(_ name: String, _ pick: @escaping @Sendable ([String], [String]) -> String?) -> Reading {
        Reading(name: name) { s, i in
            var i = i
            i.languages = pick(i.languages, s.publishedLocales).map { [$0] } ?? []
            return right(s, i)
        }
    }

    static let readings: [Reading] = [
        state("builds ignored") { s, _ in
            eachVersion(&s) { $0.build = nil }
            for p in s.platforms.indices { s.platforms[p].force?.build = nil; s.platforms[p].recommend?.build = nil }
        },
        install("builds ignored on the install alone") { _, i in i.build = nil },
        install("a build the app does not report read as 0") { _, i in if i.build == nil { i.build = 0 } },
        install("a pin matching every build of its version") { s, i in
            guard let p = s.platforms.first(where: { $0.name == i.platform }), let v = try? Version(i.version) else { return }
            if let pin = s.versions(of: p).first(where: { $0.policy != nil && $0.version == v }) { i.build = pin.build }
        },
        state("the lowest of two active windows shown") { s, i in
            let active = s.windows.filter { w in s.platforms.contains { $0.name == i.platform && w.applies(to: $0.id) } && w.isActive(at: i.at) }
            guard let lowest = active.map(\.id).min() else { return }
            s.windows.removeAll { w in active.contains { $0.id == w.id } && w.id != lowest }
        },
        state("a window with no end read as ended") { s, _ in s.windows.removeAll { $0.endsAt == nil } },
        state("a window for one platform obeyed by every platform") { s, _ in
            for w in s.windows.indices { s.windows[w].platformID = nil; s.windows[w].platformName = nil }
        },
        answer("only the platform's own windows set the poll interval") { s, i, a in
            var own = s
            own.windows.removeAll { w in !s.platforms.contains { $0.name == i.platform && w.applies(to: $0.id) } }
            a.pollIntervalSeconds = ClientAnswer.pollInterval(own, at: i.at)
        },
        install("only the user's first language considered") { _, i in i.languages = Array(i.languages.prefix(1)) },
        locale("exact tags only (no de-AT to de)") { languages, published in languages.first { published.contains($0) } },
        locale("the language alone: no CLDR parent (es-MX to es-419), script or default variant (pt-PT to pt-BR)") { languages, published in
            for l in languages {
                if published.contains(l) { return l }
                let language = LocaleTag.language(l)
                if published.contains(language) { return language }
            }
            return nil
        },
        state("en instead of the project's default locale") { s, _ in s.project.defaultLocale = "en" },
        answer("{deadline} left unfilled") { s, _, a in
            guard let d = a.deadline else { return }
            let written = s.localDate(d, locale: a.locale)
            for (k, v) in a.texts { a.texts[k] = v.replacing(written, with: "{deadline}") }
        },
        state("a deadline written in UTC") { s, _ in s.zone = .utc },
        state("a deadline written in the offset in force when it is read") { s, i in
            s.zone = ZoneRules(initial: (s.zone?.offset(at: i.at) ?? 0, "now"), transitions: [])
        },
        state("a deadline treated as already passed") { s, _ in
            for p in s.platforms.indices { s.platforms[p].force?.deadline = nil }
        },
        state("a deadline never reached") { s, i in
            for p in s.platforms.indices {
                if let d = s.platforms[p].force?.deadline { s.platforms[p].force?.deadline = max(d, i.at + 1) }
            }
        },
        state("the release delay ignored") { s, _ in s.project.releaseDelayDays = 0 },
        state("a rule of none read as a prompt") { s, _ in
            s.project.rules.byType = s.project.rules.byType.map { $0.alert == .none ? Rule(alert: .option, frequency: $0.frequency) : $0 }
        },
        answer("frequency dropped") { _, _, a in a.frequency = nil },
        answer("remindAfterHours dropped") { _, _, a in a.remindAfterHours = nil },
        install("the device's OS ignored") { _, i in i.os = nil },
        state("a floor above every release ignored") { s, i in
            for p in s.platforms.indices {
                let newest = s.newestReleased(s.platforms[p], at: i.at)
                if let f = s.platforms[p].force, newest.map({ Release.isBelow($0.release, f.release) }) ?? true { s.platforms[p].force = nil }
                if let f = s.platforms[p].recommend, newest.map({ Release.isBelow($0.release, f.release) }) ?? true { s.platforms[p].recommend = nil }
            }
        },
        install("the answers at publishedAt trusted at every instant") { _, i in i.at = ConformanceWrongReadingsTests.publishedAt },
        rollout("a rollout's bucket read little-endian") { r, id, t in
            bucket(r, id) { d in UInt32(d[3]) << 24 | UInt32(d[2]) << 16 | UInt32(d[1]) << 8 | UInt32(d[0]) } < r.basisPoints(at: t)
        },
        rollout("a rollout's bucket from the digest's last four bytes") { r, id, t in
            bucket(r, id) { d in UInt32(d[28]) << 24 | UInt32(d[29]) << 16 | UInt32(d[30]) << 8 | UInt32(d[31]) } < r.basisPoints(at: t)
        },
        rollout("salt and install id hashed without the dot") { r, id, t in
            bucket(r, id, input: r.salt + id) { d in UInt32(d[0]) << 24 | UInt32(d[1]) << 16 | UInt32(d[2]) << 8 | UInt32(d[3]) } < r.basisPoints(at: t)
        },
        rollout("an install in when its bucket equals the share") { r, id, t in r.bucket(id) <= r.basisPoints(at: t) },
        rollout("a halt ignored") { r, id, t in var r = r; r.haltedAt = nil; return r.includes(id, at: t) },
        rollout("a rollout's first step held forever") { r, id, _ in r.bucket(id) < r.steps[0] },
        rollout("every install in a rollout") { _, _, _ in true },
        rollout("no install in a rollout") { _, _, _ in false },
    ]

    /// Every suite of a fresh export, read as RelctlClient reads it.
    static func suites(_ dir: String) throws -> [Suite] {
        let index = try JSONReader.parse(Array(try Data(contentsOf: URL(fileURLWithPath: dir + "/index.json"))))
        guard case .array(let list)? = index["suites"] else { throw RelctlError.failure("no suites", hint: "") }
        return try list.map { suite in
            let state = Array(try Data(contentsOf: URL(fileURLWithPath: dir + "/" + suite["state"]!.string!)))
            var snapshot = try ControlImport.read(state).snapshot
            snapshot.zone = ReleaseControl.zone(snapshot.project.timeZone)
            guard case .array(let cases) = try JSONReader.parse(Array(try Data(contentsOf: URL(fileURLWithPath: dir + "/" + suite["cases"]!.string!)))) else {
                throw RelctlError.failure("no cases", hint: "")
            }
            return Suite(name: suite["name"]!.string!, state: snapshot, cases: cases.map { c in
                var build: Int64? = nil
                if case .int(let b)? = c["build"] { build = b }
                let languages: [String] = { if case .array(let l)? = c["languages"] { return l.compactMap(\.string) } else { return [] } }()
                return (Install(platform: c["platform"]!.string!, version: c["version"]!.string!, build: build, os: c["os"]?.string,
                                languages: languages, at: Time.parseUTC(c["at"]!.string!)!, installID: c["installId"]?.string), c["expected"]!)
            })
        }
    }

    /// The cases a reading gets wrong, up to `limit` (a wrong reading needs one to be caught).
    static func failures(_ reading: Reading, _ suites: [Suite], limit: Int = .max) -> [String] {
        var failed: [String] = []
        // The suites' cases taken in turn (each suite's first, then each one's second, …):
        // a reading one scenario is made to catch is caught within the first cases of it.
        for n in 0..<(suites.map(\.cases.count).max() ?? 0) {
            for suite in suites where n < suite.cases.count {
                let (install, expected) = suite.cases[n]
                let got = reading.answer(suite.state, install).flatMap { try? JSONReader.parse(Array($0.json.rendered().utf8)) }
                guard got != expected else { continue }
                failed.append("\(suite.name): \(install.platform) \(install.version) build \(install.build.map(String.init) ?? "none") \(install.languages) at \(Time.format(install.at))")
                if failed.count >= limit { return failed }
            }
        }
        return failed
    }

    func testTheSuiteFailsEveryWrongReadingAndPassesTheRightOne() throws {
        let h = Harness()
        h.ok("conformance export \(h.dir)/suite")
        let suites = try Self.suites(h.dir + "/suite")
        XCTAssertEqual(Self.failures(Reading(name: "right", answer: Self.right), suites, limit: 5), [], "the right reading passes every case")
        XCTAssertGreaterThanOrEqual(Self.readings.count, 20)
        XCTAssertEqual(Set(Self.readings.map(\.name)).count, Self.readings.count, "each reading is named once")
        for reading in Self.readings {
            let caught = Self.failures(reading, suites, limit: 1)
            XCTAssertFalse(caught.isEmpty, "the suite passes a client whose reading is wrong: \(reading.name)")
            print("wrong reading '\(reading.name)' fails \(caught.first ?? "nothing")")
        }
    }

    /// A client refuses each of refusals.json's documents: RelctlClient does, and
    /// one that read any schemaVersion or any platform would not.
    func testEveryRefusalIsRefused() throws {
        let h = Harness()
        h.ok("conformance export \(h.dir)/suite")
        guard case .array(let refusals) = try JSONReader.parse(Array(try Data(contentsOf: URL(fileURLWithPath: h.dir + "/suite/refusals.json")))) else {
            return XCTFail("refusals.json is not an array")
        }
        XCTAssertEqual(refusals.count, 3)
        for r in refusals {
            let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: h.dir + "/suite/" + r["state"]!.string!)))
            let control = try ReleaseControl(device: ReleaseControl.Device(platform: r["platform"]!.string!, version: "1.0", build: 100, os: nil, languages: ["en"]))
            XCTAssertThrowsError(try control.load(bytes), r["reason"]!.string!)
            XCTAssertNil(control.state(at: Self.publishedAt), "nothing of a refused document is obeyed: \(r["reason"]!.string!)")
        }
    }
}
