#if canImport(Glibc)
import Glibc
#endif
import Foundation
import XCTest
@testable import RelctlCLI
@testable import RelctlCore
@testable import RelctlModel

/// The zone reader publish uses (ZoneRules: the TZif file, no C library)
/// agrees with the C library's localtime_r, for every zone of the system's
/// database, at every transition and around it, and far past the last one
/// (the file's POSIX rule), from 1900 to 2100.
final class ZoneRulesTests: XCTestCase {
    func testEveryZoneAgreesWithTheCLibrary() throws {
        let root = "/usr/share/zoneinfo"
        var zones: [String] = []
        // Every zone file (not right/, whose clocks count leap seconds, nor posix/, a copy), Etc/ and the top-level names included.
        for name in (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? [] where !["right", "posix"].contains(name) {
            var dir: ObjCBool = false
            if FileManager.default.fileExists(atPath: root + "/" + name, isDirectory: &dir), !dir.boolValue { zones.append(name) }
        }
        for region in ["Africa", "America", "Antarctica", "Asia", "Atlantic", "Australia", "Etc", "Europe", "Indian", "Pacific"] {
            let e = FileManager.default.enumerator(atPath: root + "/" + region)
            while let p = e?.nextObject() as? String {
                var dir: ObjCBool = false
                if FileManager.default.fileExists(atPath: root + "/\(region)/\(p)", isDirectory: &dir), !dir.boolValue { zones.append("\(region)/\(p)") }
            }
        }
        XCTAssertGreaterThan(zones.count, 300, "the zone database (tzdata) must be installed")
        var compared = 0, afterLast = 0
        for zone in zones.sorted() {
            let bytes = Array(FileManager.default.contents(atPath: root + "/" + zone) ?? Data())
            // zone.tab, tzdata.zi and their kind are not zones.
            guard bytes.starts(with: Array("TZif".utf8)) else { continue }
            guard let rules = ZoneRules(tzif: bytes) else { XCTFail("\(zone) was not read"); continue }
            var instants = Set<Int64>()
            for t in rules.transitions where t > -2_208_988_800 && t < 4_102_444_800 { instants.formUnion([t - 1, t, t + 1]) }
            // Every 97 hours from 1900 to 2100: all seasons, every weekday.
            for t in stride(from: -2_208_988_800 as Int64, to: 4_102_444_800, by: 97 * 3600) { instants.insert(t) }
            let sorted = instants.sorted()
            // One switch of the process's zone per zone (this test runs alone on its thread).
            let theirs = TimeInput.withZone(zone) {
                sorted.map { t -> (Int64, String) in
                    var time = time_t(t)
                    var parts = tm()
                    localtime_r(&time, &parts)
                    return (Int64(parts.tm_gmtoff), parts.tm_zone.map { String(cString: $0) } ?? "")
                }
            }
            for (t, libc) in zip(sorted, theirs) {
                let ours = rules.local(at: t)
                if ours.offset != libc.0 || ours.name != libc.1 {
                    XCTFail("\(zone) at \(Time.format(t)): \(ours) s, the C library says \(libc) s"); break
                }
                compared += 1
                if let last = rules.transitions.last, t > last { afterLast += 1 }
            }
        }
        XCTAssertGreaterThan(compared, 1_000_000)
        XCTAssertGreaterThan(afterLast, 100_000, "the POSIX rules past the last transition must be tried")
    }

}

/// POSIX rules alone, and bytes that are no zone: quick, so `make test` runs them.
final class PosixZoneTests: XCTestCase {
    func testPosixRules() {
        XCTAssertEqual(ZoneRules(posix: "UTC0")?.offset(at: 0), 0)
        let ny = ZoneRules(posix: "EST5EDT,M3.2.0,M11.1.0")
        XCTAssertEqual(ny?.offset(at: 1_783_000_000), -4 * 3600, "2026-07: summer time")
        XCTAssertEqual(ny?.offset(at: 1_795_000_000), -5 * 3600, "2026-11-18: standard time")
        XCTAssertEqual(ZoneRules(posix: "<+03>-3")?.offset(at: 0), 3 * 3600, "a number for a name, east of UTC")
        XCTAssertEqual(ZoneRules(posix: "<+03>-3")?.local(at: 0).name, "+03")
        XCTAssertEqual(ny?.local(at: 1_783_000_000).name, "EDT")
        XCTAssertEqual(ny?.local(at: 1_795_000_000).name, "EST")
        XCTAssertNil(ZoneRules(posix: "EST5EDT,M13.1.0,M11.1.0"), "month 13")
        XCTAssertNil(ZoneRules(tzif: Array("not a zone".utf8)))
        XCTAssertNil(ZoneRules(tzif: Array("TZif2".utf8) + [UInt8](repeating: 0xFF, count: 60)), "counts out of range")
    }
}
