import RelctlModel

/// What the app should show now. Screens stay the app's: this says what to
/// put on them.
public struct ReleaseState: Equatable, Sendable {
    public enum Kind: String, Sendable { case none, optional, required, maintenance }

    public struct Update: Equatable, Sendable {
        /// The version to install, and its build when the document names one.
        public var version: String
        public var build: Int64?
        /// The App Store or Play Store page (nil when the platform has no id or link).
        public var storeURL: String?
        /// In `locale`, placeholders filled (the deadline in the user's language and the project's zone).
        public var title: String
        public var message: String
        public var updateButton: String
        /// Optional updates only.
        public var laterButton: String?
        public var skipButton: String?
        public var skipAllowed: Bool
        /// How long "later" holds before the app asks again.
        public var remindAfterHours: Int64?
        /// How often the prompt may come back once dismissed: immediately (the
        /// next launch), daily or weekly (the rule for the update's type).
        public var frequency: String?
        /// When this optional update becomes required.
        public var deadline: Int64?
        public var locale: String
        /// What's new in `version`, from whatsnew/<locale>.json (control.json carries no notes); nil when not read or none.
        public var releaseNotes: String?
    }

    public struct Maintenance: Equatable, Sendable {
        public var title: String
        public var message: String
        public var retryButton: String
        /// When the window ends (nil: until stopped); the message already names it.
        public var until: Int64?
        public var window: Int64
        public var locale: String
    }

    public var kind: Kind
    public var update: Update?
    public var maintenance: Maintenance?
    /// False while the user postponed this optional update (`later()`) or skipped its version (`skip()`).
    public var shouldPrompt: Bool
    /// How long to wait before asking the server again.
    public var pollIntervalSeconds: Int64
    /// Set when the last good document, signed, expired at this instant:
    /// nothing it says is obeyed (kind is none) until a fresh one is read,
    /// so an expired signature can never lock users out.
    public var expiredAt: Int64?

    /// Asks for a fresh document as often as usual meanwhile (a fleet whose publisher stopped must not flood the server).
    init(expiredAt: Int64) {
        kind = .none
        shouldPrompt = false
        pollIntervalSeconds = ControlDocument.normalPoll
        self.expiredAt = expiredAt
    }

    /// The state of one answer (ClientAnswer: the one evaluator's), before the user's choices.
    init(_ a: ClientAnswer) {
        pollIntervalSeconds = a.pollIntervalSeconds
        shouldPrompt = a.kind != .none
        switch a.kind {
        case .none:
            kind = .none
        case .maintenance:
            kind = .maintenance
            maintenance = Maintenance(title: a.texts["title"] ?? "", message: a.texts["message"] ?? "", retryButton: a.texts["retry_button"] ?? "",
                                      until: a.until, window: a.window ?? 0, locale: a.locale)
        case .required, .optional:
            kind = a.kind == .required ? .required : .optional
            update = Update(version: a.target ?? "", build: a.targetBuild, storeURL: a.updateURL, title: a.texts["title"] ?? "",
                            message: a.texts["message"] ?? "", updateButton: a.texts["update_button"] ?? "",
                            laterButton: a.texts["later_button"], skipButton: a.skipAllowed ? a.texts["skip_button"] : nil,
                            skipAllowed: a.skipAllowed, remindAfterHours: a.remindAfterHours, frequency: a.frequency, deadline: a.deadline, locale: a.locale,
                            releaseNotes: nil)
        }
    }
}
