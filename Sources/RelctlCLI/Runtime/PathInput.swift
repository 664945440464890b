#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import RelctlCore

/// Paths as people type them, checked before anything touches the disk:
/// an empty path would mean the current folder to some calls and the
/// filesystem root to others ("" + "/index.json"), and a name longer than
/// the system takes fails only after folders were made.
public enum PathInput {
    public static func check(_ text: String, for name: String) throws {
        guard !text.isEmpty else {
            throw InputError("\(name) is empty", hint: "give a path, like ./out or ./relctl.db")
        }
        guard !text.utf8.contains(0), text.utf8.count < Int(PATH_MAX) else {
            throw InputError("\(name) is not a usable path (\(text.utf8.count) bytes)", hint: "give a path shorter than \(PATH_MAX) bytes")
        }
        if let long = text.split(separator: "/").first(where: { $0.utf8.count > Int(NAME_MAX) }) {
            throw InputError("\(name) has a name of \(long.utf8.count) bytes, more than the \(NAME_MAX) a file system takes",
                             hint: "shorten that part of the path")
        }
    }
}
