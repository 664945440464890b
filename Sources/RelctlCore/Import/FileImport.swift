/// Reading files teams already host (Retired, AndVersion) into an
/// ImportPlan. A file is first read by the client simulation, so a shape
/// that would crash the app or that the library ignores is refused with the
/// client's own reason; then every value is checked as relctl checks input.
public enum FileImport {
    static func reason(_ failure: ClientFailure, _ client: String) -> ImportProblem {
        switch failure {
        case .crash(let why): return ImportProblem("\(why) (\(client) crashes on this file)")
        case .ignored(let why): return ImportProblem("\(why) (\(client) ignores this file)")
        }
    }

    static func version(_ text: String, _ what: String) throws(ImportProblem) -> Version {
        do { return try Version(text) } catch {
            throw ImportProblem("\(what) '\(text)' is not a version relctl can store: \((error as? InputError)?.message ?? "\(error)")")
        }
    }

    /// Versions listed in a live file have shipped and are announced: they
    /// are created released one release delay before the import.
    public static func releaseTime(_ project: ProjectRecord, now: Int64) -> Int64 { now - project.releaseDelayDays * 86400 }

    /// A Retired versions file in `locale`: the versions with their
    /// policies, the leading forced versions as a force floor, the rest as
    /// pins (Retired's model is a policy per version), and the messaging
    /// where it differs from what relctl would write.
    public static func retired(_ bytes: [UInt8], snapshot: ProjectSnapshot, platform: PlatformRecord, locale: String) throws(ImportProblem) -> ImportPlan {
        try ImportProblem.checkText(bytes)
        do { _ = try RetiredClient(bytes) } catch { throw reason(error, "Retired") }
        guard case .object(let top)? = try? JSONReader.parse(bytes), case .array(let list)? = top["versions"],
              case .object(let messaging)? = top["messaging"] else { throw ImportProblem("not a Retired versions file") }
        var seen = Set<String>(), unknown: [String] = []
        var entries: [(Version, String)] = []
        for (i, e) in list.enumerated() {
            guard case .object(let o) = e else { continue }
            // Retired reads these as strings; anything else is a mistake to name, not an entry to skip.
            for key in ["version", "policy"] {
                if let value = o[key], case .string = value {} else if let value = o[key] {
                    throw ImportProblem("versions[\(i)].\(key) is \(String(decoding: value.compactBytes().dropLast(), as: UTF8.self)), where a string is expected: write it in quotes")
                }
            }
            guard case .string(let text)? = o["version"], case .string(let policy)? = o["policy"] else { continue }
            let v = try version(text, "versions[\(i)].version")
            // Retired's linear search: the first entry of a version wins; an unknown policy is none.
            guard seen.insert(text).inserted else { continue }
            if !VersionRecord.policies.contains(policy) {
                unknown.append("versions[\(i)] (\(text)): policy '\(policy)' is not one Retired knows (\(VersionRecord.policies.joined(separator: ", "))), so Retired reads it as none, and so does the import\(Suggest.didYouMean(policy, VersionRecord.policies))")
            }
            entries.append((v, VersionRecord.policies.contains(policy) ? policy : "none"))
        }
        guard !entries.isEmpty else { throw ImportProblem("the versions list is empty: nothing to import") }
        entries.sort { $0.0 < $1.0 || ($0.0 == $1.0 && $0.0.text < $1.0.text) }
        var plan = ImportPlan()
        plan.versions = entries.map { ImportedVersion($0.0, build: nil) }
        // Retired takes a policy it does not know as none, and so does the import: said, not silent.
        plan.warnings += unknown
        let forced = entries.prefix { $0.1 == "force" }.count
        if forced > 0 && forced < entries.count {
            plan.force = .some(Floor(version: entries[forced].0, build: nil))
        }
        for (i, (v, policy)) in entries.enumerated().dropFirst(forced == entries.count ? 0 : forced) {
            // The newest version has nothing newer: none is what it gets anyway.
            if i == entries.count - 1 && policy == "none" { continue }
            plan.pins.append((v.text, policy))
        }
        // Messaging: only what differs from the text relctl would write.
        let newest = entries.last!.0.text
        let values = ["app": snapshot.project.name, "version": newest]
        for (block, kind, fields) in [("forced", "required", [("title", "title"), ("message", "message"), ("continueButtonText", "update_button")]),
                                      ("recommended", "optional", [("title", "title"), ("message", "message"), ("continueButtonText", "update_button"), ("cancelButtonText", "later_button")])] {
            guard case .object(let m)? = messaging[block] else { continue }
            let ours = snapshot.messages.message(kind, locale: locale, values: values)
            for (key, field) in fields {
                guard case .string(let text)? = m[key], text != ours[field]?.value else { continue }
                if let problem = UserText.messageProblem(text, kind: kind) { throw ImportProblem("messaging.\(block).\(key): \(problem)") }
                plan.messages.append((kind, locale, field, text))
            }
        }
        return plan
    }

    /// An AndVersion manifest: CurrentVersion as a released version,
    /// MinVersion as the force floor, WhatsNew as the current version's
    /// notes per language, AppStoreId (iOS). On Android the values are
    /// versionCodes, which must name recorded versions.
    public static func andVersion(_ bytes: [UInt8], snapshot: ProjectSnapshot, platform: PlatformRecord) throws(ImportProblem) -> ImportPlan {
        try ImportProblem.checkText(bytes)
        var plan = ImportPlan()
        let whatsNew: [String: [String]]
        let current: String
        if platform.isAndroid {
            let client: AndVersionAndroidClient
            do { client = try AndVersionAndroidClient(bytes) } catch { throw reason(error, "AndVersion") }
            guard case .object(let top)? = try? JSONReader.parse(bytes), case .object(let m)? = top["AndVersion"],
                  case .int(let code)? = m["CurrentVersion"], case .int(let minimum)? = m["MinVersion"] else {
                throw ImportProblem("CurrentVersion and MinVersion must be JSON integers (versionCodes) on Android")
            }
            let recorded = snapshot.versions(of: platform)
            func named(_ code: Int64, _ key: String) throws(ImportProblem) -> VersionRecord {
                guard let v = recorded.first(where: { $0.build == code }) else {
                    throw ImportProblem("\(key) \(code) is a versionCode no recorded \(platform.name) version has: add it first with 'relctl version add VERSION --platform \(platform.name) --build \(code)'")
                }
                return v
            }
            let v = try named(code, "CurrentVersion")
            current = v.version.text
            plan.versions = [ImportedVersion(v.version, build: code)]
            if minimum > 0 {
                let floor = try named(minimum, "MinVersion")
                plan.force = .some(Floor(version: floor.version, build: minimum))
            } else { plan.force = .some(nil) }
            whatsNew = client.whatsNew
        } else {
            let client: AndVersionIOSClient
            do { client = try AndVersionIOSClient(bytes) } catch { throw reason(error, "AndVersion") }
            let v = try version(client.current, "CurrentVersion")
            current = v.text
            plan.versions = [ImportedVersion(v, build: nil)]
            plan.force = .some(client.minimum == "0" ? nil : Floor(version: try version(client.minimum, "MinVersion"), build: nil))
            plan.appStoreID = client.appStoreID
            whatsNew = client.whatsNew
        }
        var chosen: [String: (key: String, notes: String)] = [:]
        for (key, lines) in whatsNew.sorted(by: { $0.key < $1.key }) {
            // Java's legacy twins repeat the modern key; the catalog's
            // generic line is what relctl writes when there are no notes.
            if let modern = AndVersionFormat.javaTwins.first(where: { $0.value == key })?.key, whatsNew[modern] == lines { continue }
            if lines == [snapshot.messages.generic(locale: key).value] || lines.isEmpty { continue }
            let locale: String
            do { locale = try LocaleTag.normalize(key) } catch { throw ImportProblem("WhatsNew key '\(key)' is not a language tag") }
            let notes = lines.joined(separator: "\n")
            if let problem = UserText.notesProblem(notes) { throw ImportProblem("WhatsNew.\(key): \(problem)") }
            guard let earlier = chosen[locale] else { chosen[locale] = (key, notes); continue }
            // Two keys of one language ("he" and Java's "iw", "en-US" and "en_US"): the one spelled
            // as relctl spells it, else the later; said, as the other's notes are not imported.
            let kept: (key: String, notes: String) = earlier.key == locale && key != locale ? earlier : (key, notes)
            chosen[locale] = kept
            plan.warnings.append("WhatsNew has more than one key for \(locale): the notes of '\(kept.key)' are imported")
        }
        for (locale, c) in chosen.sorted(by: { $0.key < $1.key }) {
            if let warning = UserText.notesSizeWarning(c.notes, platform: platform.name, version: current, locale: locale) { plan.warnings.append(warning) }
            plan.notes.append((current, locale, c.notes))
        }
        return plan
    }
}
