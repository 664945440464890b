/// The Retired (iOS) versions file. Rules (clients.md): both messaging
/// blocks always; `forced` without cancelButtonText, `recommended` with it;
/// every version listed as a string exactly as the app reports it.
enum RetiredFormat {
    /// The version list, the same in every locale.
    static func versions(_ state: PlatformState) -> JSON {
        .raw(JSON.array(state.verdicts.map { v, verdict in
            .ordered(["policy": .string(verdict.retiredPolicy), "version": .string(v.version.text)])
        }).compactBytes().dropLast())
    }

    /// Retired has one recommended message: it names the deadline when
    /// every recommended version is in a force floor's grace period. The
    /// same in every locale, so worked out once per platform.
    static func deadline(_ state: PlatformState) -> Int64? {
        let recommended = state.verdicts.filter { $0.1.kind == .optional }
        guard let d = recommended.first?.1.deadline, recommended.allSatisfy({ $0.1.decidedBy == "force-deadline" }) else { return nil }
        return d
    }

    static func render(_ state: PlatformState, versions: JSON, deadline: Int64?, locale: String) -> JSON {
        let required = state.message("required", locale: locale)
        var optional = state.message("optional", locale: locale)
        if let d = deadline {
            optional = Evaluator.withDeadline(optional, state.snapshot.localDate(d, locale: locale))
        }
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
            "versions": versions,
        ])
    }
}
