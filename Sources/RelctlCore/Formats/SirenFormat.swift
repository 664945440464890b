/// Siren's rules for apps that configure Siren from a file they fetch first.
enum SirenFormat {
    static func render(_ state: PlatformState) -> JSON {
        let rules = state.project.rules
        var members: [String: JSON] = [:]
        for (i, type) in Rules.types.enumerated() {
            let r = rules.byType[i]
            members["\(type)UpdateRules"] = .object(["alertType": .string(r.alert), "frequency": .string(r.frequency), "preset": .string(r.name)])
        }
        members["showAlertAfterCurrentVersionHasBeenReleasedForDays"] = .int(state.project.releaseDelayDays)
        members["forceFloor"] = .optional(state.platform.force?.version.text)
        members["currentVersion"] = .optional(state.announced?.version.text)
        members["appStoreId"] = .optional(state.platform.appStoreID)
        return .object(members)
    }
}
