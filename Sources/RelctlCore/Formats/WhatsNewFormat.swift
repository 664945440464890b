/// What's new per locale: released versions, newest first, up to the
/// project's limit, with notes resolved along the locale chain and marked
/// when they fell back.
enum WhatsNewFormat {
    /// The versions listed: the project's limit of the newest released (0: all).
    static func listed(_ state: PlatformState) -> ArraySlice<VersionRecord> {
        listed(state.releasedNewestFirst, limit: state.project.whatsNewLimit)
    }

    static func listed(_ releasedNewestFirst: [VersionRecord], limit: Int64) -> ArraySlice<VersionRecord> {
        limit > 0 && releasedNewestFirst.count > limit ? releasedNewestFirst.prefix(Int(limit)) : releasedNewestFirst[...]
    }

    static func render(_ state: PlatformState, parts: [(head: [UInt8], tail: [UInt8])], locale: String) -> JSON {
        var versions: [UInt8] = [91]
        let chain = state.evaluator.chain(locale)
        for (i, v) in listed(state).enumerated() {
            if i > 0 { versions.append(44) }
            entry(head: parts[i].head, tail: parts[i].tail, notes: state.evaluator.notes(v, chain: chain), locale: locale, into: &versions)
        }
        versions.append(93)
        return .object([
            "project": .string(state.project.slug), "platform": .string(state.platform.name), "locale": .string(locale),
            "versions": .raw(versions),
        ])
    }

    /// The parts of a version's entry that no locale changes, rendered once
    /// per platform: keys in sorted order are build, fallback, notes,
    /// notesLocale, releasedAt, version.
    static func parts(_ v: VersionRecord) -> (head: [UInt8], tail: [UInt8]) {
        var head = Array(#"{"build":"#.utf8)
        head += (v.build.map(String.init) ?? "null").utf8
        head += #","fallback":"#.utf8
        var tail = Array(#","releasedAt":"#.utf8)
        if let t = v.releasedAt { JSON.quoteBytes(Time.format(t), into: &tail) } else { tail += "null".utf8 }
        tail += #","version":"#.utf8
        JSON.quoteBytes(v.version.text, into: &tail)
        tail.append(125)
        return (head, tail)
    }

    /// One version's entry, written straight to bytes: this runs for every
    /// released version in every locale of every platform, the bulk of a
    /// publish. `entryJSON` builds the same object the general way; a test
    /// holds the two to the same bytes.
    static func entry(head: [UInt8], tail: [UInt8], notes: (String, String)?, locale: String, into out: inout [UInt8]) {
        out += head
        out += ((notes.map { $0.0 != locale } ?? false) ? "true" : "false").utf8
        out += #","notes":"#.utf8
        if let text = notes?.1 { JSON.quoteLines(text, into: &out) } else { out += "[]".utf8 }
        out += #","notesLocale":"#.utf8
        if let l = notes?.0 { JSON.quoteBytes(l, into: &out) } else { out += "null".utf8 }
        out += tail
    }

    static func entryJSON(_ v: VersionRecord, notes: (String, String)?, locale: String) -> JSON {
        .object([
            "version": .string(v.version.text), "build": .optional(v.build), "releasedAt": .time(v.releasedAt),
            "notes": .array(notes.map { $0.1.lines.map { .string($0) } } ?? []),
            "notesLocale": .optional(notes?.0),
            "fallback": .bool(notes.map { $0.0 != locale } ?? false),
        ])
    }
}
