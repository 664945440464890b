#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import RelctlCore
import RelctlPublish

/// The project's time zone for app messages, from the C library's zone
/// database: the core gets the UTC offset at each instant a message may show
/// (ProjectSnapshot.offsets) instead of a zone database of its own. One
/// tzset per project and a localtime_r per instant: no measurable start-up
/// cost, and the system's zone rules (kept current by the OS) decide.
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

    static func fill(_ snapshot: inout ProjectSnapshot) {
        let zone = snapshot.project.timeZone
        let instants = snapshot.messageInstants
        guard !instants.isEmpty else { return }
        guard zone != "UTC" else {
            for t in instants { snapshot.offsets[t] = 0 }
            return
        }
        // A zone that vanished from the system: messages show UTC, labelled so.
        guard (try? TimeInput.checkZone(zone)) != nil else { return }
        let offsets = TimeInput.withZone(zone) {
            instants.map { t -> (Int64, Int64) in
                var time = time_t(t)
                var parts = tm()
                localtime_r(&time, &parts)
                return (t, Int64(parts.tm_gmtoff))
            }
        }
        for (t, o) in offsets { snapshot.offsets[t] = o }
    }
}
