/// Right-to-left languages, and the lines of their text whose direction a
/// placeholder would decide: a line that starts with {app} takes its
/// direction from the first strong letter, so a Latin app name ("Shop נמצאת
/// בתחזוקה") or a date ending in "UTC+3" lays the Hebrew line out left to
/// right. A right-to-left mark (U+200F) before the placeholder keeps it.
public enum RightToLeft {
    public static let languages: Set<String> = ["ar", "he", "fa", "ur", "yi", "ps", "ckb", "ug", "dv", "sd"]

    public static func contains(_ tag: String) -> Bool { languages.contains(LocaleTag.language(tag)) }

    /// The placeholder some line of `text` starts with, unguarded; nil when none does.
    public static func unguardedPlaceholder(_ text: String) -> String? {
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let start = line.drop { $0 == " " }
            if let p = Catalog.placeholders.first(where: { start.hasPrefix($0) }) { return p }
        }
        return nil
    }
}
