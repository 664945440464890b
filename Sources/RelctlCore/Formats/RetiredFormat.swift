/// The Retired (iOS) versions file. Rules (docs/clients.md): both messaging
/// blocks always; `forced` without cancelButtonText, `recommended` with it;
/// every version listed as a string exactly as the app reports it.
enum RetiredFormat {
    /// The version list, the same in every locale.
    static func versions(_ state: PlatformState) -> JSON {
        // Written straight to bytes (what JSON.ordered would write): one entry per recorded version.
        var out: [UInt8] = [91]
        out.reserveCapacity(state.verdicts.count * 40 + 2)
        for i in state.verdicts.indices {
            if i > 0 { out.append(44) }
            out += #"{"policy":"#.utf8
            JSON.quoteBytes(state.verdicts[i].1.retiredPolicy, into: &out)
            out += #","version":"#.utf8
            JSON.quoteBytes(state.versions[i].version.text, into: &out)
            out.append(125)
        }
        out.append(93)
        return .raw(out)
    }

    /// Retired has one recommended message: it names the deadline when
    /// every recommended version is in a force floor's grace period. The
    /// same in every locale, so worked out once per platform.
    static func deadline(_ state: PlatformState) -> Int64? {
        var deadline: Int64? = nil, first = true
        for i in state.verdicts.indices where state.verdicts[i].1.kind == .optional {
            guard state.verdicts[i].1.decidedBy == .forceDeadline else { return nil }
            if first { deadline = state.verdicts[i].1.deadline; first = false }
        }
        return deadline
    }

    static func render(_ state: PlatformState, versions: JSON, deadline: Int64?, locale: String) -> JSON {
        let required = state.message("required", locale: locale)
        var optional = state.message("optional", locale: locale)
        if let d = deadline {
            optional = Evaluator.withDeadline(optional, state.snapshot.localDate(d, locale: locale))
        }
        // Keys in order (no dictionaries to sort): a file per locale and platform.
        return .ordered([
            "messaging": .ordered([
                "forced": .ordered([
                    "continueButtonText": .string(required["update_button"]!.value),
                    "message": .string(required["message"]!.value),
                    "title": .string(required["title"]!.value),
                ]),
                "recommended": .ordered([
                    "cancelButtonText": .string(optional["later_button"]!.value),
                    "continueButtonText": .string(optional["update_button"]!.value),
                    "message": .string(optional["message"]!.value),
                    "title": .string(optional["title"]!.value),
                ]),
            ]),
            "versions": versions,
        ])
    }
}
