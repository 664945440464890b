/// What the text of a message or of release notes may hold: the rule the
/// command line and the imports take text by, and the looser one a row read
/// back from the database (which anyone can edit by hand) is held to, so a
/// publish never sends apps text that breaks a reader or an unfilled placeholder.
public enum UserText {
    /// Why `text` cannot be a field of a `kind` message; nil when it can.
    public static func messageProblem(_ text: String, kind: String) -> String? {
        if text.trimmingSpaces().isEmpty { return "it is empty" }
        if let problem = messageTooLong(text) { return problem }
        if hasControls(text) { return "it contains control characters" }
        if let name = unknownPlaceholder(text, kind: kind) {
            return "unknown placeholder \(name) (use \(Catalog.placeholders(for: kind).joined(separator: ", ")))"
        }
        return nil
    }

    /// A field of a message or of a window's copy (a title, a text, a
    /// button) is read in a dialog: past this it is a mistake, and it would
    /// go into control.json once per locale.
    public static let messageMaximum = 2_000

    public static func messageTooLong(_ text: String) -> String? {
        guard let n = Names.tooLong(text, messageMaximum) else { return nil }
        return "it is \(n) characters long; a message's field is at most \(messageMaximum): apps show it in a dialog"
    }

    /// Why `text` cannot be release notes; nil when it can.
    public static func notesProblem(_ text: String) -> String? {
        if !text.utf8.contains(where: { $0 != 32 && $0 != 9 && $0 != 10 }) { return "it has no text" }
        if hasControls(text) { return "it contains control characters" }
        return notesTooLong(text)
    }

    /// Notes go into every what's-new file apps download on launch, in
    /// every locale: past ten times the App Store's own limit they are a
    /// mistake (a pasted changelog, a wrong file), not release notes.
    public static let notesMaximum = 40_000

    public static func notesTooLong(_ text: String) -> String? {
        // Characters are at most as many as UTF-8 bytes: most notes are counted by their length alone.
        guard text.utf8.count > notesMaximum, text.count > notesMaximum else { return nil }
        return "it is \(text.count) characters long; notes are at most \(notesMaximum) (the App Store shows 4,000, Google Play 500): every app downloads them on launch"
    }

    /// The store's own limit for a platform's release notes, in characters.
    public static func storeLimit(platform: String) -> (characters: Int, store: String) {
        platform == "android" ? (500, "Google Play") : (4000, "the App Store")
    }

    /// A warning when notes are longer than the platform's store allows
    /// (apps still get them whole, and download them on every launch).
    public static func notesSizeWarning(_ text: String, platform: String, version: String, locale: String) -> String? {
        let (limit, store) = storeLimit(platform: platform)
        guard text.utf8.count > limit else { return nil }
        let n = text.count
        guard n > limit else { return nil }
        return "the \(locale) notes of \(platform) \(version) are \(n) characters long, more than \(store) allows (\(limit)); apps download them whole on every launch: shorten them"
    }

    /// What a stored row must hold to be read: looser than what the commands
    /// take now, so that every row an earlier relctl wrote (import did not
    /// check text, `{0}` passed as not a placeholder, CR came with files)
    /// still reads; what would break a reader (NUL, ESC and the other C0
    /// controls) or show a placeholder unfilled does not.
    public static func storedMessageProblem(_ text: String, kind: String) -> String? {
        if hasBreakingControls(text) { return "it contains control characters" }
        // Longer would make apps refuse the control.json that carries it.
        if let problem = messageTooLong(text) { return problem }
        if let name = unknownPlaceholder(text, kind: kind), name.dropFirst().dropLast().allSatisfy({ $0.isLetter || $0 == "_" }), name.count > 2 {
            return "unknown placeholder \(name) (use \(Catalog.placeholders(for: kind).joined(separator: ", ")))"
        }
        return nil
    }

    /// The same for stored release notes; empty notes were never taken.
    public static func storedNotesProblem(_ text: String) -> String? {
        // One pass: every note a publish or `version list` shows comes here.
        var text = text
        return text.withUTF8 { bytes in
            var blank = true
            for b in bytes {
                if b < 0x20 {
                    if b != 9 && b != 10 && b != 13 { return "it contains control characters" }
                } else if b != 32 {
                    blank = false
                }
            }
            return blank ? "it has no text" : nil
        }
    }

    /// C0 controls other than tab, line feed and carriage return.
    package static func hasBreakingControls(_ s: String) -> Bool {
        s.utf8.contains { $0 < 0x20 && $0 != 9 && $0 != 10 && $0 != 13 }
    }

    /// C0 controls other than tab and line feed, DEL, and C1 controls: an
    /// app shows them as boxes, or a parser stops at them (NUL).
    public static func hasControls(_ s: String) -> Bool {
        // C1 controls are C2 80 to C2 9F in UTF-8.
        var previous: UInt8 = 0
        for b in s.utf8 {
            if (b < 0x20 && b != 9 && b != 10) || b == 0x7F || (previous == 0xC2 && b < 0xA0 && b >= 0x80) { return true }
            previous = b
        }
        return false
    }

    /// The first `{name}` this kind of message does not fill: apps would show it as written.
    public static func unknownPlaceholder(_ text: String, kind: String) -> String? {
        let allowed = Catalog.placeholders(for: kind)
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "{") {
            let after = rest[rest.index(after: open)...]
            guard let close = after.firstIndex(of: "}") else { return nil }
            let name = "{" + after[..<close] + "}"
            if !allowed.contains(name) { return name }
            rest = after[after.index(after: close)...]
        }
        return nil
    }
}
