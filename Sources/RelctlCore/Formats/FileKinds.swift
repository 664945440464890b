/// One kind of file a publish writes: where it lives under DIR, what it
/// is, who reads it, and how it is served. The one table that rendering's
/// paths, deploy's headers, the manual, the README's list of published
/// files and the nginx test read.
public struct FileKind: Sendable, Equatable {
    /// Its path under DIR as people read it: `<project>/<platform>/retired/<locale>.json`.
    /// A `<…>` stands for one path segment (with what follows it in that segment, if anything).
    public var pattern: String
    /// What it is, for people.
    public var what: String
    /// Who reads it.
    public var reader: String
    public var contentType: String
    /// How long a cache may keep it, in seconds (deploy caps it at the next change).
    public var maxAge: Int64

    /// Its path for one project (platform, locale): what the renderer writes and the checks read.
    /// Compared and cut as bytes: the proof asks for a path at every file it
    /// reads back, and comparing characters was 3% of a verify.
    public func path(project: String, platform: String = "", locale: String = "") -> String {
        var out: [UInt8] = []
        out.reserveCapacity(pattern.utf8.count + project.utf8.count + platform.utf8.count + locale.utf8.count)
        // Segment by segment over the pattern's bytes, empty segments left out; a `<…>` opens its segment.
        func fill(_ p: UnsafeBufferPointer<UInt8>) {
            func opens(_ at: Int, _ end: Int, _ name: StaticString) -> Bool {
                let n = name.utf8CodeUnitCount
                guard end - at >= n else { return false }
                for k in 0..<n where p[at + k] != name.utf8Start[k] { return false }
                return true
            }
            var i = 0
            while i < p.count {
                var end = i
                while end < p.count && p[end] != UInt8(ascii: "/") { end += 1 }
                if end > i {
                    if !out.isEmpty { out.append(UInt8(ascii: "/")) }
                    var rest = i
                    if opens(i, end, "<project>") { out += project.utf8; rest += 9 }
                    else if opens(i, end, "<platform>") { out += platform.utf8; rest += 10 }
                    else if opens(i, end, "<locale>") { out += locale.utf8; rest += 8 }
                    out.append(contentsOf: UnsafeBufferPointer(rebasing: p[rest..<end]))
                }
                i = end + 1
            }
        }
        if pattern.utf8.withContiguousStorageIfAvailable(fill) == nil { Array(pattern.utf8).withUnsafeBufferPointer(fill) }
        return String(decoding: out, as: UTF8.self)
    }

    /// Whether `path` (relative to DIR) is one of these: the same number of
    /// components, each the pattern's, or for `<name>suffix` a non-empty name
    /// and the suffix. Compared as UTF-8 bytes, as a file system compares
    /// names (a "/" followed by a combining mark still ends a component), one
    /// component at a time with nothing made: a signed publish asks it of
    /// each of a project's files per platform.
    public func matches(_ path: String) -> Bool {
        func match(_ want: UnsafeBufferPointer<UInt8>, _ have: UnsafeBufferPointer<UInt8>) -> Bool {
            let slash = UInt8(ascii: "/")
            var w = 0, h = 0
            while true {
                var wEnd = w, hEnd = h
                while wEnd < want.count && want[wEnd] != slash { wEnd += 1 }
                while hEnd < have.count && have[hEnd] != slash { hEnd += 1 }
                if wEnd > w, want[w] == UInt8(ascii: "<"), let close = (w..<wEnd).first(where: { want[$0] == UInt8(ascii: ">") }) {
                    // `<name>suffix`: a non-empty name, then the suffix.
                    let suffix = wEnd - close - 1
                    guard hEnd - h > suffix else { return false }
                    for k in 0..<suffix where want[close + 1 + k] != have[hEnd - suffix + k] { return false }
                } else {
                    guard wEnd - w == hEnd - h else { return false }
                    for k in 0..<(wEnd - w) where want[w + k] != have[h + k] { return false }
                }
                // Both ended, or both go on past a slash.
                guard wEnd < want.count, hEnd < have.count else { return wEnd >= want.count && hEnd >= have.count }
                w = wEnd + 1
                h = hEnd + 1
            }
        }
        func over(_ have: UnsafeBufferPointer<UInt8>) -> Bool {
            pattern.utf8.withContiguousStorageIfAvailable { match($0, have) } ?? Array(pattern.utf8).withUnsafeBufferPointer { match($0, have) }
        }
        return path.utf8.withContiguousStorageIfAvailable(over) ?? Array(path.utf8).withUnsafeBufferPointer(over)
    }
}

public enum FileKinds {
    static let json = "application/json", short: Int64 = 60, medium: Int64 = 300, long: Int64 = 3600

    public static let index = FileKind(pattern: "index.json", what: "every file with size and SHA-256, the tree's digest, the span the files hold for, per project what the next publish needs",
                                       reader: "relctl (deploy, verify, the next publish)", contentType: json, maxAge: short)
    public static let control = FileKind(pattern: "<project>/control.json", what: "relctl's control document (schema/control.schema.json)",
                                         reader: "apps that read relctl's own document", contentType: json, maxAge: short)
    public static let princeOfVersions = FileKind(pattern: "<project>/prince-of-versions.json", what: "Prince of Versions configuration (ios2, android2, macos2)",
                                                  reader: "Prince of Versions", contentType: json, maxAge: medium)
    public static let appcast = FileKind(pattern: "<project>/<platform>/appcast.xml", what: "upgrader's appcast (Sparkle RSS)",
                                         reader: "upgrader (Flutter)", contentType: "application/rss+xml", maxAge: medium)
    public static let retired = FileKind(pattern: "<project>/<platform>/retired/<locale>.json", what: "Retired versions file",
                                         reader: "Retired (iOS)", contentType: json, maxAge: medium)
    public static let andVersion = FileKind(pattern: "<project>/<platform>/andversion.json", what: "AndVersion manifest (strings on Apple platforms, versionCodes on Android)",
                                            reader: "AndVersion (iOS, Android)", contentType: json, maxAge: medium)
    public static let whatsNew = FileKind(pattern: "<project>/<platform>/whatsnew/<locale>.json", what: "the 10 newest released versions with notes (`rules set --whats-new N`, 0: all)",
                                          reader: "apps showing what's new", contentType: json, maxAge: long)
    public static let lookup = FileKind(pattern: "<project>/ios/lookup/<locale>.json", what: "App Store lookup-shaped file",
                                        reader: "Siren", contentType: json, maxAge: long)
    public static let siren = FileKind(pattern: "<project>/ios/siren.json", what: "Siren rules", reader: "Siren", contentType: json, maxAge: medium)
    public static let statusIndex = FileKind(pattern: "index.html", what: "status page for people: every project (not with --no-pages)",
                                             reader: "people", contentType: "text/html; charset=utf-8", maxAge: short)
    public static let statusPage = FileKind(pattern: "<project>/status.html", what: "status page for people: one project (not with --no-pages)",
                                            reader: "people", contentType: "text/html; charset=utf-8", maxAge: short)

    /// In the order the README and the manual list them.
    public static let all = [index, control, princeOfVersions, appcast, retired, andVersion, whatsNew, lookup, siren, statusIndex, statusPage]

    /// The kind of a published path; nil for a path no publish writes.
    public static func of(_ path: String) -> FileKind? { all.first { $0.matches(path) } }

    /// The list of published files as the README and the manual show it.
    public static var listing: [String] {
        let width = all.map { $0.pattern.count }.max()! + 5
        return all.map { k in
            let path = "DIR/" + k.pattern
            return path + String(repeating: " ", count: width - path.count) + k.what
        }
    }
}
