import RelctlCore

/// What a reader of `man relctl` needs beyond the commands: how a verdict is
/// decided, what publish writes, where message text comes from, and how to
/// host the files. Data only, like the rest of the model; the manual is
/// generated from it.
public struct Topic: Sendable {
    public var title: String
    public var text: String
    /// A numbered list (steps in order), shown after the text.
    public var steps: [String]
    /// Literal lines (a layout, a configuration), shown last.
    public var literal: [String]

    public init(_ title: String, _ text: String, steps: [String] = [], literal: [String] = []) {
        self.title = title; self.text = text; self.steps = steps; self.literal = literal
    }
}

public enum Topics {
    public static let all: [Topic] = [
        Topic("HOW A VERDICT IS DECIDED",
              "relctl check and every published file ask one evaluator what a user at a version (and build, and locale) sees at an instant. The first rule that applies decides.",
              steps: [
                "An active maintenance window of the project, or of that platform: maintenance.",
                "A pin on that exact version (relctl policy set 1.4.2 force): force, recommend or none.",
                "The force floor (relctl force 2.0, maybe with --build): a version below it must update (required).",
                "The recommend floor (relctl recommend 2.1), or else the project's policy for outdated versions (relctl rules set --outdated), which follows Siren-style rules per update type and waits for the release delay: optional.",
                "Otherwise nothing.",
              ]),
        Topic("PUBLISHED FILES",
              "relctl publish DIR writes the files below, byte-identical for the same database and instant. Unchanged files are not touched, files that no longer belong are removed, and nothing is written outside DIR. A publish takes a lock on DIR, writes beside each target and renames into place, index.json last; a killed publish is completed by the next one.",
              literal: FileKinds.listing),
        Topic("MESSAGE RESOLUTION",
              "The required, optional and maintenance texts come from a built-in catalog of 45 languages, which relctl message set overrides per project and locale; relctl message show --locale L prints the chain it walked and where each string comes from. Tags are resolved as iOS and Android resolve them, for messages, release notes and every published file alike. The first of these with a text gives it, and at each step the project's text wins over the catalog's.",
              steps: [
                "The user's tag, with its likely script and its parent regions (zh-TW, zh-Hant-TW, zh-Hant; sr-RS, sr-Cyrl; es-MX, es-419), then its language when that is the same script (zh is Simplified, sr Cyrillic), and the written standard of a macrolanguage (no and nn read nb).",
                "The language's default variant: pt reads pt-BR (CLDR's likely region for pt, and Apple's and Google's pt).",
                "The project's default locale, resolved the same way.",
                "English.",
              ]),
        Topic("HOSTING",
              "Any static web server or object store can serve DIR over HTTPS with Content-Type application/json. Cache control.json and index.json for about 60 seconds, Retired, AndVersion and Siren files for 5 minutes, what's-new and lookup files for an hour; shorter before a forced update or a maintenance window. Because unchanged files keep their bytes and mtime, rsync -a --delete and aws s3 sync transfer only what a publish changed; elsewhere upload changed files first and index.json last."),
    ]
}
