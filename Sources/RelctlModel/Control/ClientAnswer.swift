/// What an app at one version (build, device OS), whose user reads the
/// given languages, is shown at one instant: the one evaluator's verdict
/// and the text it reads. relctl works it out from the database (the
/// conformance suite's expected answers, `relctl conformance export`);
/// RelctlClient from control.json, read back into the same kind of
/// snapshot (`ControlImport.File.snapshot`). One function for both, so a
/// difference between them is a difference in the document.
public struct ClientAnswer: Equatable, Sendable {
    public var kind: Verdict.Kind
    /// The version the app is sent to (required and optional).
    public var target: String?
    public var targetBuild: Int64?
    public var updateURL: String?
    /// The locale the texts are in: the first of the user's languages the
    /// project publishes, else the project's default locale.
    public var locale: String
    /// The catalog's fields (title, message, update_button, …) as the app
    /// shows them, placeholders filled; empty for none.
    public var texts: [String: String]
    public var skipAllowed: Bool
    public var remindAfterHours: Int64?
    /// How often a dismissed optional prompt comes back (the rule's frequency:
    /// immediately, daily, weekly); nil but for optional updates.
    public var frequency: String?
    /// When an optional update becomes required (a force floor's deadline).
    public var deadline: Int64?
    /// The maintenance window shown, and its end.
    public var window: Int64?
    public var until: Int64?
    /// How often to ask again: every minute from an hour before a window until it ends.
    public var pollIntervalSeconds: Int64

    /// Nil when the snapshot has no such platform. `installID`: the install's
    /// id, which a rollout decides by (nil: an install outside every rollout).
    public static func answer(_ snapshot: ProjectSnapshot, platform name: String, release: Release, os: String?,
                              languages: [String], at t: Int64, installID: String? = nil) -> ClientAnswer? {
        let t = min(max(t, Time.earliest), Time.latest)
        guard let platform = snapshot.platforms.first(where: { $0.name == name }) else { return nil }
        let evaluator = Evaluator(snapshot)
        let verdict = evaluator.evaluate(platform, release, at: t, os: os, install: installID)
        let locale = ClientAnswer.locale(for: languages, among: snapshot.publishedLocales, defaultLocale: snapshot.project.defaultLocale)
        var texts: [String: String] = [:]
        for (field, text) in evaluator.message(verdict, locale: locale) ?? [:] { texts[field] = text.value }
        let update = verdict.kind == .required || verdict.kind == .optional
        return ClientAnswer(kind: verdict.kind, target: verdict.target?.version.text, targetBuild: verdict.target?.build,
                            updateURL: update ? platform.updateURL : nil, locale: locale, texts: texts,
                            skipAllowed: verdict.kind == .optional && verdict.rule?.skipAllowed == true,
                            remindAfterHours: verdict.kind == .optional ? snapshot.project.remindHours : nil,
                            frequency: verdict.kind == .optional ? verdict.rule?.frequency.rawValue : nil,
                            deadline: verdict.deadline, window: verdict.window?.id, until: verdict.window?.endsAt,
                            pollIntervalSeconds: pollInterval(snapshot, at: t))
    }

    /// The first of the user's languages (device order) the project
    /// publishes, along that language's own chain (de-AT, de); the default
    /// locale (else the first published) only when no language of the user's is there.
    public static func locale(for languages: [String], among published: [String], defaultLocale: String) -> String {
        for language in languages {
            guard let tag = try? LocaleTag.normalize(language) else { continue }
            for candidate in LocaleChain.steps(tag).flatMap({ $0 }) where published.contains(candidate) { return candidate }
        }
        return published.contains(defaultLocale) || published.isEmpty ? defaultLocale : published[0]
    }

    /// As control.json asks (`pollIntervalSeconds`), worked out for the instant.
    public static func pollInterval(_ snapshot: ProjectSnapshot, at t: Int64) -> Int64 {
        let near = snapshot.windows.contains { w in
            !w.isCancelled && !w.isOver(at: t) && (w.isActive(at: t) || w.startsAt - t <= ControlDocument.urgentLead)
        }
        return near ? ControlDocument.urgentPoll : ControlDocument.normalPoll
    }

    /// As the conformance suite writes it: camelCase fields, RFC 3339 times, keys sorted.
    public var json: JSON {
        .ordered([
            "deadline": .time(deadline), "frequency": .optional(frequency), "kind": .string(kind.rawValue), "locale": .string(locale), "pollIntervalSeconds": .int(pollIntervalSeconds),
            "remindAfterHours": .optional(remindAfterHours), "skipAllowed": .bool(skipAllowed), "target": .optional(target),
            "targetBuild": .optional(targetBuild),
            "texts": .object(Dictionary(uniqueKeysWithValues: texts.map { (ControlDocument.camel($0.key), JSON.string($0.value)) })),
            "until": .time(until), "updateUrl": .optional(updateURL), "window": .optional(window),
        ])
    }
}

extension ControlImport.File {
    /// The document as a project the evaluator decides on, with the texts
    /// it publishes as the project's own (each published locale's update
    /// messages; each window's copy as published, {until} filled), so a
    /// device decides as relctl does, at any instant, without relctl.
    public var snapshot: ProjectSnapshot {
        var s = bare
        // The link users update at, as published (a platform's own --store-url, else the store's page).
        for i in s.platforms.indices {
            if let url = updateURLs[s.platforms[i].name], url != s.platforms[i].updateURL { s.platforms[i].storeURL = url }
        }
        var overrides: [String: [String: [String: String]]] = [:]
        for (locale, kinds) in messages {
            for (kind, fields) in kinds { overrides[kind, default: [:]][locale] = fields }
        }
        for i in s.windows.indices {
            for (locale, fields) in windowMessages[s.windows[i].id] ?? [:] {
                s.windows[i].copy[locale] = (fields["title"], fields["message"])
                if let retry = fields["retry_button"] { overrides["maintenance", default: [:]][locale, default: [:]]["retry_button"] = retry }
            }
        }
        s.messages = MessageResolver(overrides: overrides, defaultLocale: bare.project.defaultLocale)
        return s
    }
}
