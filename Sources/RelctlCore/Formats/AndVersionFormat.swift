/// AndVersion manifests: iOS with string values and an App Store id,
/// Android with integer versionCodes (clients.md).
enum AndVersionFormat {
    /// Java's legacy language codes: older Android runtimes report these.
    static let javaTwins = ["he": "iw", "id": "in", "yi": "ji"]

    static func render(_ state: PlatformState, warnings: inout [String]) throws -> JSON? {
        let p = state.platform
        let where_ = "\(state.project.slug)/\(p.name)"
        guard let current = state.announced else {
            warnings.append("\(where_): no version is released and past its release delay yet, so no AndVersion manifest is published")
            return nil
        }
        var manifest: [String: JSON] = ["WhatsNew": .object(whatsNew(state, current, warnings: &warnings))]
        if p.isAndroid {
            guard let code = current.build else {
                throw PublishProblem(message: "\(where_): version \(current.version.text) has no build number, and AndVersion on Android needs the versionCode",
                                     fix: "relctl version edit \(current.version.text) --platform \(p.name) --build N -p \(state.project.slug)")
            }
            manifest["CurrentVersion"] = .int(code)
            manifest["MinVersion"] = .int(try androidMinimum(state))
        } else {
            guard let id = p.appStoreID else {
                throw PublishProblem(message: "\(where_) has no App Store id, and AndVersion on iOS needs one",
                                     fix: "relctl platform edit \(p.name) --app-store-id ID -p \(state.project.slug)")
            }
            manifest["CurrentVersion"] = .string(current.version.text)
            // The floor without trailing zeros: AndVersion ranks "2.0" above
            // "2", so every spelling of the floor itself stays allowed.
            manifest["MinVersion"] = .string(p.force.map { $0.version.key.map(String.init).joined(separator: ".") } ?? "0")
            manifest["AppStoreId"] = .string(id)
        }
        return .object(["AndVersion": .object(manifest)])
    }

    /// The lowest versionCode that is not forced: the floor's build, else
    /// the build of the oldest version at or above the floor.
    static func androidMinimum(_ state: PlatformState) throws -> Int64 {
        guard let floor = state.platform.force else { return 0 }
        if let b = floor.build { return b }
        if let first = state.verdicts.map(\.0).first(where: { !Release.isBelow($0.release, floor.release) }), let b = first.build {
            return b
        }
        throw PublishProblem(message: "\(state.project.slug)/\(state.platform.name): no version at or above the force floor \(floor.text) has a versionCode",
                             fix: "relctl force \(floor.version.text) --build N --platform \(state.platform.name) -p \(state.project.slug)")
    }

    /// Two-letter language keys from the current version's notes; the
    /// catalog's generic line when it has none.
    static func whatsNew(_ state: PlatformState, _ v: VersionRecord, warnings: inout [String]) -> [String: JSON] {
        var byLanguage: [String: String] = [:]
        // Prefer the bare language tag, then the default locale, then the first tag.
        for tag in v.notes.keys.sorted() {
            let language = LocaleTag.language(tag)
            guard language.count == 2 else { continue }
            let better = byLanguage[language] == nil || tag == language || (tag == state.project.defaultLocale && byLanguage[language] != language)
            if better { byLanguage[language] = tag }
        }
        var out: [String: JSON] = [:]
        for (language, tag) in byLanguage {
            out[language] = .array(v.notes[tag]!.lines.map { .string($0) })
        }
        if out.isEmpty {
            warnings.append("\(state.project.slug)/\(state.platform.name): \(v.version.text) has no release notes, so AndVersion's WhatsNew uses the generic line")
            for tag in ["en"] + state.snapshot.publishedLocales.sorted() {
                let language = LocaleTag.language(tag)
                guard language.count == 2, out[language] == nil || tag == language else { continue }
                out[language] = .array([.string(state.snapshot.messages.generic(locale: tag).value)])
            }
        }
        for (modern, legacy) in javaTwins { if let lines = out[modern] { out[legacy] = lines } }
        return out
    }
}
