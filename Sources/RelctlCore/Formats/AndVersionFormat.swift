/// AndVersion manifests: iOS with string values and an App Store id,
/// Android with integer versionCodes (docs/clients.md).
enum AndVersionFormat {
    /// Java's legacy language codes: older Android runtimes report these.
    static let javaTwins = ["he": "iw", "id": "in", "yi": "ji"]

    static func render(_ state: PlatformState, warnings: inout [String]) -> JSON? {
        if case .manifest(let json) = make(state, warnings: &warnings) { return json }
        return nil
    }

    /// Why a platform with a version to offer gets no manifest, nil when it gets one.
    static func gap(_ state: PlatformState) -> String? {
        var ignored: [String] = []
        if case .gap(let why) = make(state, warnings: &ignored) { return why }
        return nil
    }

    /// A manifest; nothing before a release; or a gap: a record the format
    /// needs is missing. A gap is not a refusal of the whole publish (met
    /// when a release delay ends under --watch, it would hold back every
    /// project's files): Fidelity reports it as a limit, with the command
    /// that fills it.
    enum Made { case manifest(JSON), unreleased, gap(String) }

    static func make(_ state: PlatformState, warnings: inout [String]) -> Made {
        let p = state.platform, slug = state.project.slug
        guard let current = state.current else {
            warnings.append("\(slug)/\(p.name): no version is released and past its release delay yet, so no AndVersion manifest is published")
            return .unreleased
        }
        let threshold = minimum(state)
        var manifest: [String: JSON] = [:]
        if p.isAndroid {
            guard let code = current.build else {
                return .gap("no manifest: \(current.version.text), the current version, has no versionCode (relctl version edit \(current.version.text) --platform \(p.name) --build N -p \(slug))")
            }
            manifest["CurrentVersion"] = .int(code)
            switch threshold {
            case .none: manifest["MinVersion"] = .int(0)
            // minimum() names an Android floor only when it has a build.
            case .floor(let f): manifest["MinVersion"] = .int(f.build ?? 0)
            case .version(let v):
                // The first version not forced, or just above the forced ones' highest code
                // when it has none of its own (imported without builds): the same versions forced.
                let below = state.versions.prefix { $0.id != v.id }.compactMap(\.build).max()
                guard let b = v.build ?? below.flatMap({ $0 < Int64.max ? $0 + 1 : nil }) else {
                    return .gap("no manifest: no version up to \(v.version.text), the first not forced, has a versionCode (relctl version edit \(v.version.text) --platform \(p.name) --build N -p \(slug))")
                }
                manifest["MinVersion"] = .int(b)
            }
        } else {
            guard let id = p.appStoreID else {
                return .gap("no manifest without an App Store id (relctl platform edit \(p.name) --app-store-id ID -p \(slug))")
            }
            manifest["CurrentVersion"] = .string(current.version.text)
            // Without trailing zeros: AndVersion ranks "2.0" above "2", so
            // every spelling of the threshold version itself stays allowed.
            switch threshold {
            case .none: manifest["MinVersion"] = .string("0")
            case .floor(let f): manifest["MinVersion"] = .string(shortest(f.version))
            case .version(let v): manifest["MinVersion"] = .string(shortest(v.version))
            }
            manifest["AppStoreId"] = .string(id)
        }
        manifest["WhatsNew"] = .object(whatsNew(state, current, warnings: &warnings))
        return .manifest(.object(["AndVersion": .object(manifest)]))
    }

    static func shortest(_ v: Version) -> String { v.key.map(String.init).joined(separator: ".") }

    /// Where MinVersion goes: below it everything must update.
    enum Threshold { case none, floor(Floor), version(VersionRecord) }

    /// The release a threshold names, nil for none.
    static func release(_ threshold: Threshold) -> Release? {
        switch threshold {
        case .none: return nil
        case .floor(let f): return f.release
        case .version(let v): return v.release
        }
    }

    /// The forced versions AndVersion can carry: those below the oldest
    /// version that is not forced (a floor, a major rule, a pin on the
    /// oldest). The force floor itself is the threshold when it lies between
    /// the last forced and the first free version, so that unrecorded
    /// versions below it are forced too. A forced version above a free one
    /// (a pin, a minor-only rule) cannot be carried; the limits say so.
    /// `marketing`: the threshold as a marketing version on Android too (upgrader
    /// compares those): a floor without a build is itself the threshold, never the
    /// versionCode of the release above it, which would force the installs between.
    static func minimum(_ state: PlatformState, marketing: Bool = false) -> Threshold {
        minimum(state.platform, at: state.at, versions: state.versions, belowOldest: state.belowOldest, marketing: marketing) { state.verdicts[$0].1.kind }
    }

    /// The same from a platform's versions (oldest first) and each one's
    /// verdict, asked for in order up to the first that is not forced.
    /// `belowOldest`: the verdict of an install just below the oldest record.
    static func minimum(_ platform: PlatformRecord, at: Int64, versions: [VersionRecord], belowOldest: Verdict.Kind?, marketing: Bool = false,
                        kind: (Int) -> Verdict.Kind) -> Threshold {
        guard let free = versions.indices.first(where: { kind($0) != .required }) else { return .none }
        let lastForced = free > 0 ? versions[free - 1] : nil
        let firstFree = versions[free]
        if let floor = platform.requiredFloor(at: at), !Release.isBelow(firstFree.release, floor.release),
           lastForced.map({ Release.isBelow($0.release, floor.release) }) ?? true {
            // On Android the threshold is a versionCode: the floor's build, or the first free version's.
            return platform.isAndroid && !marketing && floor.build == nil ? .version(firstFree) : .floor(floor)
        }
        // The oldest record spared (a pin below the floor): what is below it is still forced
        // when `check` forces it; MinVersion 0 would drop the floor for every older install.
        if lastForced == nil { return belowOldest == .required ? .version(firstFree) : .none }
        return .version(firstFree)
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
        // Devices whose language has no key get "en", else an arbitrary key:
        // so "en" is always there, from the default locale when English is missing.
        if out["en"] == nil {
            let project = state.project
            if let (tag, text) = state.evaluator.notes(v, chain: LocaleChain.steps(project.defaultLocale).flatMap { $0 }) {
                out["en"] = .array(text.lines.map { .string($0) })
                warnings.append("\(project.slug)/\(state.platform.name): \(v.version.text) has no English notes, so AndVersion's WhatsNew shows the \(tag) notes to devices in languages it has no notes for")
            } else {
                out["en"] = .array([.string(state.snapshot.messages.generic(locale: "en").value)])
                warnings.append("\(project.slug)/\(state.platform.name): \(v.version.text) has no English or \(project.defaultLocale) notes, so AndVersion's WhatsNew shows the generic English line to devices in languages it has no notes for")
            }
        }
        for (modern, legacy) in javaTwins { if let lines = out[modern] { out[legacy] = lines } }
        return out
    }
}
