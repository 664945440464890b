#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import RelctlCore
import RelctlPublish
import Synchronization

/// The project's time zone for app messages, from the system's zone
/// database: the core gets the UTC offset at each instant a message may
/// show (ProjectSnapshot.offsets) instead of a zone database of its own.
/// Read by ZoneRules from the zone's TZif file, not by the C library:
/// publish fills snapshots while other threads render, and the C library
/// reaches another zone only through the process's TZ, which no thread may
/// change while others run. Each zone's file is read once per process.
enum ZoneOffsets {
    /// Refuses a zone the system does not know (libc would take it for UTC).
    static func check(_ zone: String) throws {
        // A POSIX rule such as GMT+14 counts hours west: it would mean UTC-14. A project names a zone.
        let tzdir = getenv("TZDIR").map { String(cString: $0) } ?? "/usr/share/zoneinfo"
        if !zone.contains("/"), !["UTC0", "GMT0"].contains(zone), zone.contains(where: { $0.isASCII && $0.isNumber }), FileSystem.kind(of: tzdir + "/" + zone) != .file {
            throw InputError("'\(zone)' is a POSIX rule, not a tz database name: its sign is the reverse of what it looks like",
                             hint: "give a zone name, like Europe/Istanbul, or Etc/GMT-14 for UTC+14")
        }
        do { try TimeInput.checkZone(zone) } catch {
            throw InputError("unknown time zone '\(zone)'", hint: "give a name from the tz database, like Europe/Istanbul or UTC")
        }
    }

    private static let read = Mutex<[String: ZoneRules?]>([:])

    /// A zone's rules from its file under TZDIR, or a POSIX rule where no file
    /// is; nil for a zone the system does not know (checkZone), once per zone.
    static func rules(_ zone: String) -> ZoneRules? {
        if let known = read.withLock({ $0[zone] }) { return known }
        guard (try? TimeInput.checkZone(zone)) != nil else {
            read.withLock { $0[zone] = .some(nil) }
            return nil
        }
        let name = zone.hasPrefix(":") ? String(zone.dropFirst()) : zone
        let tzdir = getenv("TZDIR").map { String(cString: $0) } ?? "/usr/share/zoneinfo"
        let rules = FileSystem.regularFile(name.hasPrefix("/") ? name : tzdir + "/" + name).flatMap { ZoneRules(tzif: $0) } ?? ZoneRules(posix: name)
        read.withLock { $0[zone] = rules }
        return rules
    }

    static func fill(_ snapshot: inout ProjectSnapshot) {
        let zone = snapshot.project.timeZone
        // A zone that vanished from the system: nil, and messages show UTC, labelled so.
        snapshot.zone = ZoneRules.isUTC(zone) ? ZoneRules.utc : rules(zone)
    }
}
