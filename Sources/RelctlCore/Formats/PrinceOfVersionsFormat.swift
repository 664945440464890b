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
    static func configurations(_ state: PlatformState, warnings: inout [String]) -> [JSON]? {
        let p = state.platform
        let where_ = "\(state.project.slug)/\(p.name)"
        guard let current = state.current else { return nil }
        let required = AndVersionFormat.minimum(state)
        var requiredRelease: Release? = {
            switch required {
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
            guard current.build != nil, requiredRelease.map({ $0.build != nil }) ?? true else {
                warnings.append("\(where_): a version Prince of Versions needs has no versionCode, so prince-of-versions.json has no android2 list; add builds with 'relctl version edit VERSION --platform android --build N -p \(state.project.slug)'")
                return nil
            }
        } else if current.version.components.count > 3 || (requiredRelease?.version.components.count ?? 0) > 3 {
            warnings.append("\(where_): Prince of Versions drops the fourth component of a version, so it reads \(current.version.text) or the required version as three-part")
        }
        // One configuration per minimum OS, newest first: a device passes
        // the first whose OS it has, and is offered what it can install.
        var bands: [(last: VersionRecord, os: String?)] = [(current, current.minOS ?? p.minOS)]
        for v in state.releasedNewestFirst where Release.isBelow(v.release, current.release) {
            guard let before = bands.last!.os else { break }
            let os = v.minOS ?? p.minOS
            if os.map({ OSVersion.isBelow($0, before) }) ?? true { bands.append((v, os)) }
        }
        let notify = state.project.rules.byType.allSatisfy(\.skipAllowed) ? "ONCE" : "ALWAYS"
        // No install is offered or required anything ("outdated: none", no floor): the
        // version available is one below every install (0), so nobody is prompted.
        if !state.offersOptional && requiredRelease == nil {
            return [.object(["last_version_available": p.isAndroid ? .int(0) : .string("0.0.0"), "notify_last_version_frequency": .string(notify),
                             "meta": .object(["updateUrl": .optional(p.updateURL)])])]
        }
        var out: [JSON] = []
        var osDropped = false
        for (last, os) in bands {
            var c: [String: JSON] = ["last_version_available": version(last.release, p), "notify_last_version_frequency": .string(notify)]
            // A device that cannot install the required version is not blocked by it.
            if let r = requiredRelease, !Release.isBelow(last.release, r) { c["required_version"] = version(r, p) }
            if let os {
                if p.isAndroid {
                    if let sdk = Int64(os), os.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }) {
                        c["requirements"] = .object(["required_os_version": .int(sdk)])
                    } else { osDropped = true }
                } else {
                    c["requirements"] = .object(["required_os_version": .string(os)])
                }
            }
            c["meta"] = .object(["updateUrl": .optional(p.updateURL)])
            out.append(.object(c))
        }
        if osDropped {
            warnings.append("\(where_): Prince of Versions on Android takes the minimum OS as an SDK level (like 24), so a minimum OS like '\(bands.compactMap(\.os).first ?? "")' is left out of prince-of-versions.json")
        }
        return out
    }

    /// iOS and macOS: "2.1.0" or, with a build, "2.1.0-150"; Android: the versionCode.
    static func version(_ r: Release, _ p: PlatformRecord) -> JSON {
        if p.isAndroid { return .int(r.build ?? 0) }
        return .string(r.build.map { "\(r.version.text)-\($0)" } ?? r.version.text)
    }
}

/// Operating system versions as numbers between dots, missing ones as 0.
enum OSVersion {
    static func isBelow(_ a: String, _ b: String) -> Bool { plainIsBelow(a, b) ?? splittingIsBelow(a, b) }

    static func splittingIsBelow(_ a: String, _ b: String) -> Bool {
        let x = a.split(separator: ".").map { Int($0) ?? 0 }, y = b.split(separator: ".").map { Int($0) ?? 0 }
        for i in 0..<max(x.count, y.count) {
            let p = i < x.count ? x[i] : 0, q = i < y.count ? y[i] : 0
            if p != q { return p < q }
        }
        return false
    }

    /// The same for versions of digits between dots, read from their bytes
    /// (every released version is compared when the bands are made); nil,
    /// for `splittingIsBelow`, on any other character, an empty part other
    /// than the last, or a part of over 18 digits.
    static func plainIsBelow(_ a: String, _ b: String) -> Bool? {
        var a = a, b = b
        return a.withUTF8 { x in
            b.withUTF8 { y -> Bool? in
                var i = 0, j = 0
                while i < x.count || j < y.count {
                    guard let (m, afterM) = part(x, i), let (n, afterN) = part(y, j) else { return nil }
                    if m != n { return m < n }
                    (i, j) = (afterM, afterN)
                }
                return false
            }
        }
    }

    /// The number from `i` and where the next one starts; a missing one is 0.
    private static func part(_ bytes: UnsafeBufferPointer<UInt8>, _ i: Int) -> (Int, Int)? {
        guard i < bytes.count else { return (0, i) }
        var n = 0, k = i
        while k < bytes.count, bytes[k] != UInt8(ascii: ".") {
            guard bytes[k] >= 48, bytes[k] <= 57, k - i < 18 else { return nil }
            n = n * 10 + Int(bytes[k] - 48)
            k += 1
        }
        guard k > i else { return nil }
        return (n, k + 1)
    }
}
