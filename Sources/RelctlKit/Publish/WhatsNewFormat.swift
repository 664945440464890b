/// What's new per locale: released versions, newest first, with notes
/// resolved along the locale chain and marked when they fell back.
enum WhatsNewFormat {
    static func render(_ state: PlatformState, locale: String) -> JSON {
        let released = state.verdicts.map(\.0).filter { $0.isReleased(at: state.at) }.reversed()
        return .object([
            "project": .string(state.project.slug), "platform": .string(state.platform.name), "locale": .string(locale),
            "versions": .array(released.map { v in
                let notes = state.notes(v, locale: locale)
                return .object([
                    "version": .string(v.version.text), "build": .optional(v.build), "releasedAt": .time(v.releasedAt),
                    "notes": .array(notes.map { $0.1.lines.map { .string($0) } } ?? []),
                    "notesLocale": .optional(notes?.0),
                    "fallback": .bool(notes.map { $0.0 != locale } ?? false),
                ])
            }),
        ])
    }
}
