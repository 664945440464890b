/// The Retired (iOS) versions file. Rules (clients.md): both messaging
/// blocks always; `forced` without cancelButtonText, `recommended` with it;
/// every version listed as a string exactly as the app reports it.
enum RetiredFormat {
    static func render(_ state: PlatformState, locale: String) -> JSON {
        let required = state.message("required", locale: locale)
        let optional = state.message("optional", locale: locale)
        return .object([
            "messaging": .object([
                "forced": .object([
                    "title": .string(required["title"]!.value),
                    "message": .string(required["message"]!.value),
                    "continueButtonText": .string(required["update_button"]!.value),
                ]),
                "recommended": .object([
                    "title": .string(optional["title"]!.value),
                    "message": .string(optional["message"]!.value),
                    "continueButtonText": .string(optional["update_button"]!.value),
                    "cancelButtonText": .string(optional["later_button"]!.value),
                ]),
            ]),
            "versions": state.retiredVersions,
        ])
    }
}
