/// Prince of Versions (infinum): one configuration file per project with a
/// list of configurations per platform (docs/clients.md). Each configuration says
/// below which version the update is required and which version is the
/// newest available; the first whose requirements pass is used, so the
/// configurations go newest minimum OS first and older devices fall through
/// to the newest version they can install.
enum PrinceOfVersionsFormat {
    /// The platforms the library reads, and the key of each. iOS and macOS
    /// read `ios`/`macos` first: those keys are never written, so the `2`
    /// lists are what they read.
    static let keys = ["ios": "ios2", "android": "android2", "macos": "macos2"]

    static func render(_ states: [PlatformState], warnings: inout [String]) -> JSON? {
        var top: [String: JSON] = [:]
        for state in states {
            guard let key = keys[state.platform.name], let list = configurations(state, warnings: &warnings) else { continue }
            top[key] = .array(list)
        }
        guard let project = states.first?.project, !top.isEmpty else { return nil }
        top["meta"] = .object(["project": .string(project.slug), "name": .string(project.name)])
        return .object(top)
    }

    /// The configurations of one platform, nil when it has nothing to offer
    /// (no version released) or cannot be written (Android without versionCodes).
    /// One per OS band (OSBands), newest first, each requiring the band's
    /// lowest OS: a device passes the first whose OS it has and is offered,
    /// or required, what `check --os` says for its band. Bands that say the
    /// same share the lower band's configuration; the last has no
    /// requirement, so a device below every minimum still reads one.
    static func configurations(_ state: PlatformState, warnings: inout [String]) -> [JSON]? {
        let p = state.platform
        let where_ = "\(state.project.slug)/\(p.name)"
        guard state.current != nil else { return nil }
        let notify = state.project.rules.byType.allSatisfy(\.skipAllowed) ? "ONCE" : "ALWAYS"
        var bands = state.bands()
        // Android reads the requirement as an SDK level: bands of OS versions like 7.0 cannot be told apart.
        if p.isAndroid, let odd = bands.compactMap(\.band.from).first(where: { !isSDKLevel($0) }) {
            warnings.append("\(where_): Prince of Versions on Android takes the minimum OS as an SDK level (like 24), so a minimum OS like '\(odd)' is left out of prince-of-versions.json and every device is offered what the newest OS is")
            bands = [(OSBand(from: nil, below: nil, os: nil), state)]
        }
        var out: [(content: [String: JSON], from: String?)] = []
        for (i, (band, s)) in bands.enumerated() {
            var said: [String] = []
            guard let content = content(s, notify: notify, warnings: &said) else {
                // The newest band without a versionCode: no list at all (a limit Fidelity names).
                if i == 0 { warnings += said; return nil }
                continue
            }
            for w in said where !warnings.contains(w) { warnings.append(w) }
            if let last = out.last, last.content == content { out[out.count - 1].from = band.from } else { out.append((content, band.from)) }
        }
        // Devices below every minimum: nothing they can install, nothing offered.
        if out.last?.from != nil {
            let none = nothingOffered(p, notify: notify)
            if out.last!.content == none { out[out.count - 1].from = nil } else { out.append((none, nil)) }
        }
        return out.map { entry in
            var c = entry.content
            if let os = entry.from {
                c["requirements"] = .object(["required_os_version": p.isAndroid ? .int(Int64(os)!) : .string(os)])
            }
            c["meta"] = .object(["updateUrl": .optional(p.updateURL)])
            return .object(c)
        }
    }

    /// What one band's configuration says (without its requirement and meta);
    /// nil when a version it names has no versionCode on Android.
    static func content(_ state: PlatformState, notify: String, warnings: inout [String]) -> [String: JSON]? {
        let p = state.platform
        let where_ = "\(state.project.slug)/\(p.name)"
        guard let last = state.current else { return nothingOffered(p, notify: notify) }
        var requiredRelease: Release? = {
            switch AndVersionFormat.minimum(state) {
            case .none: return nil
            case .floor(let f): return p.isAndroid && f.build == nil ? nil : f.release
            case .version(let v): return v.release
            }
        }()
        // iOS and macOS read three components and a build: "1.2.3.4" is 1.2.3 build 0,
        // which forces no 1.2.3 install. With the build of the release recorded at that
        // version ("1.2.3.4-2", read as 1.2.3 build 2) the client meets the threshold.
        if !p.isAndroid, let r = requiredRelease, r.version.components.count > 3, r.build == nil,
           let b = state.versions.first(where: { $0.version == r.version && $0.build != nil })?.build {
            requiredRelease = Release(r.version, build: b)
        }
        if p.isAndroid {
            guard last.build != nil, requiredRelease.map({ $0.build != nil }) ?? true else {
                warnings.append("\(where_): a version Prince of Versions needs has no versionCode, so prince-of-versions.json has no android2 list\(state.os.map { " for devices on \(OSBands.osName(p.name)) \($0)" } ?? ""); add builds with 'relctl version edit VERSION --platform android --build N -p \(state.project.slug)'")
                return nil
            }
        } else if last.version.components.count > 3 || (requiredRelease?.version.components.count ?? 0) > 3 {
            warnings.append("\(where_): Prince of Versions drops the fourth component of a version, so it reads \(last.version.text) or the required version as three-part")
        }
        // No install is offered or required anything ("outdated: none", no floor): the
        // version available is one below every install (0), so nobody is prompted.
        if !state.offersOptional && requiredRelease == nil { return nothingOffered(p, notify: notify) }
        let available = p.isAndroid ? last.release : availableOnApple(state, last)
        var c: [String: JSON] = ["last_version_available": version(available, p), "notify_last_version_frequency": .string(notify)]
        // A device that cannot install the required version is not blocked by it.
        if let r = requiredRelease, !Release.isBelow(last.release, r) { c["required_version"] = version(r, p) }
        return c
    }

    /// The version iOS and macOS are offered, `last` with or without its build.
    /// They compare builds: a release still in its delay (sent to by a floor or
    /// pin) named with its build would offer it early to the lower builds of its
    /// version, which `check` tells nothing until the delay ends. Named by its
    /// version alone (build 0), or the build of it already announced, those
    /// builds stay quiet; only when no floor lies above that and no pin of its
    /// version sends one of them to it (which the file could then not offer).
    static func availableOnApple(_ state: PlatformState, _ last: VersionRecord) -> Release {
        let p = state.platform
        guard last.id != state.announced?.id, last.build != nil else { return last.release }
        let quiet = Release(last.version, build: state.announced.flatMap { $0.version == last.version ? $0.build : nil })
        let floors = [p.requiredFloor(at: state.at), p.pendingFloor(at: state.at), p.recommend].compactMap { $0 }
        let pinned = state.versions.contains { $0.version == last.version && $0.id != last.id && ($0.policy == .force || $0.policy == .recommend) }
        if pinned || floors.contains(where: { Release.isBelow(Release(quiet.version, build: quiet.build ?? 0), $0.release) }) { return last.release }
        return quiet
    }

    static func nothingOffered(_ p: PlatformRecord, notify: String) -> [String: JSON] {
        ["last_version_available": p.isAndroid ? .int(0) : .string("0.0.0"), "notify_last_version_frequency": .string(notify)]
    }

    /// An Android API level: digits alone, as the library's integer requirement.
    static func isSDKLevel(_ os: String) -> Bool {
        !os.isEmpty && os.utf8.count <= 9 && os.utf8.allSatisfy { $0 >= 48 && $0 <= 57 }
    }

    /// iOS and macOS: "2.1.0" or, with a build, "2.1.0-150"; Android: the versionCode.
    static func version(_ r: Release, _ p: PlatformRecord) -> JSON {
        if p.isAndroid { return .int(r.build ?? 0) }
        return .string(r.build.map { "\(r.version.text)-\($0)" } ?? r.version.text)
    }
}
