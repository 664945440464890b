/// Siren's rules for apps that configure Siren from a file they fetch first.
enum SirenFormat {
    static func render(_ state: PlatformState) -> JSON {
        let rules = state.project.rules
        var members: [String: JSON] = [:]
        for (i, type) in Rules.types.enumerated() {
            // With "outdated: none" nothing is announced: every type says none.
            let r = state.project.outdated == ProjectRecord.Outdated.none ? Rule(alert: .none, frequency: rules.byType[i].frequency) : rules.byType[i]
            members["\(type)UpdateRules"] = .object(["alertType": .string(r.alert.rawValue), "frequency": .string(r.frequency.rawValue), "preset": .string(r.name)])
        }
        // Siren's own delay gate stands in front of the floor the app feeds it
        // (docs/clients.md): while a floor or pin sends users to a release still in
        // its delay, as `check` does at once, the gate must let them through.
        let sentEarly = state.current != nil && state.current?.id != state.announced?.id
        members["showAlertAfterCurrentVersionHasBeenReleasedForDays"] = .int(sentEarly ? 0 : state.project.releaseDelayDays)
        // Below the newest release the floor forces everyone even when it lies
        // above it (--allow-unreleased): the app forces below what it is told.
        // A force floor still in its grace period is not a floor yet.
        let floor = state.platform.requiredFloor(at: state.at).flatMap { f in state.released.map { r in r.version < f.version ? r.version : f.version } }
        members["forceFloor"] = .optional(floor?.text)
        members["currentVersion"] = .optional(state.current?.version.text)
        members["appStoreId"] = .optional(state.platform.appStoreID)
        return .object(members)
    }
}
