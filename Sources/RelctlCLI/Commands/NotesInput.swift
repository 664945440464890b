import RelctlCore
import RelctlPublish
/// Release notes from arguments, a file, or stdin: UTF-8, CRLF accepted.
enum NotesInput {
    static func read(_ inv: Invocation, lines: [String], file: String?) throws -> String? {
        if !lines.isEmpty && file != nil {
            throw RelctlError.usage("give notes as arguments or from a file, not both", hint: "drop one of them")
        }
        if !lines.isEmpty { return try normalize(lines.joined(separator: "\n"), source: "the notes") }
        guard let file else { return nil }
        let bytes = file == "-" ? try inv.context.readStdin() : try FileSystem.readFile(file, limit: FileSystem.inputLimit)
        let source = file == "-" ? "standard input" : file
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw RelctlError.failure("\(source) is not valid UTF-8", hint: "save the notes as UTF-8 (iconv -t UTF-8)")
        }
        return try normalize(text, source: source)
    }

    /// Lines joined by "\n"; CRLF and a BOM dropped; trailing blank lines trimmed.
    static func normalize(_ text: String, source: String) throws -> String {
        var s = text.replacing("\r\n", with: "\n").replacing("\r", with: "\n")
        if s.hasPrefix("\u{FEFF}") { s.removeFirst() }
        var lines = s.split(separator: "\n", omittingEmptySubsequences: false).map { $0.trimmingSpaces() }
        while let last = lines.last, last.isEmpty { lines.removeLast() }
        while let first = lines.first, first.isEmpty { lines.removeFirst() }
        guard !lines.isEmpty else {
            throw RelctlError.usage("\(source) has no text", hint: "give at least one line of notes")
        }
        if lines.contains(where: { UserText.hasControls($0) }) {
            throw RelctlError.usage("\(source) contains control characters", hint: "remove them; notes are plain text")
        }
        let notes = lines.joined(separator: "\n")
        if let problem = UserText.notesTooLong(notes) {
            throw RelctlError.usage("\(source): \(problem)", hint: "give the release notes users should read, not a whole changelog")
        }
        return notes
    }

    /// Past the store's own limit: a warning, once per platform.
    static func warnSize(_ inv: Invocation, _ text: String?, platforms: [PlatformRecord], version: String, locale: String) {
        guard let text else { return }
        for p in platforms {
            if let warning = UserText.notesSizeWarning(text, platform: p.name, version: version, locale: locale) { inv.warn(warning) }
        }
    }
}
