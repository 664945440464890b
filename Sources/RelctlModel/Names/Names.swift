/// Validation for names that reach file paths and clients.
public enum Names {
    public static func slug(_ s: String) throws -> String {
        let ok = !s.isEmpty && s.utf8.count <= 64
            && s.utf8.allSatisfy { ($0 >= 97 && $0 <= 122) || ($0 >= 48 && $0 <= 57) || $0 == 45 }
            && s.utf8.first != 45
        guard ok else {
            let hint = "use lowercase letters, digits and '-', starting with a letter or digit, at most 64 characters (like shop or my-app)"
            if s.utf8.count > 64 { throw InputError("invalid project slug: it is \(s.utf8.count) characters long", hint: hint) }
            throw InputError("invalid project slug '\(s)'", hint: hint)
        }
        return s
    }

    /// The app's display name, which messages show as {app}: braces would
    /// turn into placeholders that apps fill in (control.json leaves
    /// {version} to them), so they are refused as in message text.
    public static func appName(_ s: String) throws -> String {
        let trimmed = s.trimmingSpaces()
        guard !trimmed.isEmpty else { throw InputError("the app name is empty", hint: "give the name users know the app by, like --name \"Shop\"") }
        if let long = tooLong(s, appNameMaximum) {
            throw InputError("the app name is \(long) characters long, more than \(appNameMaximum)", hint: "give the name users know the app by (the stores allow 30 characters)")
        }
        guard !s.contains("{") && !s.contains("}") else {
            throw InputError("the app name '\(s)' contains a brace", hint: "leave out { and }: messages would read them as placeholders")
        }
        guard !s.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
            throw InputError("the app name contains a control character", hint: "use plain text on one line")
        }
        // {app} stands inside every message: an override or isolate it left open would reverse the rest of each one.
        guard !s.unicodeScalars.contains(where: { (0x202A...0x202E).contains($0.value) || (0x2066...0x2069).contains($0.value) }) else {
            throw InputError("the app name contains a direction override (U+202A to U+202E, U+2066 to U+2069)",
                             hint: "leave it out: every message shows the name, and the override would reverse the text after it")
        }
        return s
    }

    /// The limits of every text relctl publishes, in characters (docs/design.md,
    /// "Limits"): each is far past what a store or a dialog shows, and they
    /// keep one value from making a file that a client refuses for its size
    /// (publish refuses such a file all the same, ControlDocument.maximumBytes).
    public static let appNameMaximum = 100
    public static let bundleIDMaximum = 255
    public static let urlMaximum = 2_000

    /// The length of `s` in characters when it is more than `limit`; nil
    /// otherwise (most texts are judged by their UTF-8 size alone).
    package static func tooLong(_ s: String, _ limit: Int) -> Int? {
        guard s.utf8.count > limit else { return nil }
        let n = s.count
        return n > limit ? n : nil
    }

    /// Platform names become folder names too, and decide the manifest flavour.
    public static let knownPlatforms = ["ios", "ipados", "macos", "tvos", "watchos", "visionos", "android"]
    public static let applePlatforms: Set<String> = ["ios", "ipados", "macos", "tvos", "watchos", "visionos"]

    /// A time-zone name as the tz database spells it (Europe/Istanbul, UTC,
    /// America/Argentina/Buenos_Aires): whether the zone exists is checked
    /// where the database is (the command line).
    public static func timeZoneName(_ s: String) throws -> String {
        let ok = !s.isEmpty && s.count <= 64 && s.first != "/" && s.last != "/" && !s.contains("//") && !s.contains("..")
            && s.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "/_+-".contains($0)) }
        guard ok else {
            throw InputError("'\(s)' is not a time-zone name", hint: "give a name from the tz database, like Europe/Istanbul or UTC")
        }
        return s
    }

    public static func platform(_ s: String) throws -> String {
        let lower = s.lowercased()
        guard knownPlatforms.contains(lower) else {
            throw InputError("unknown platform '\(s)'\(Suggest.didYouMean(s, knownPlatforms))",
                                    hint: "use one of: \(knownPlatforms.joined(separator: ", "))")
        }
        return lower
    }

    public static func appStoreID(_ s: String) throws -> String {
        guard !s.isEmpty, s.utf8.count <= 12, s.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }), s.utf8.first != 48 else {
            var hint = "use the digits of the App Store id only, like 1088280260"
            if s.lowercased().hasPrefix("id") { hint = "drop the 'id' prefix: --app-store-id \(s.dropFirst(2))" }
            throw InputError("invalid App Store id '\(s)'", hint: hint)
        }
        return s
    }

    /// Reverse-DNS bundle or package id, as the stores require.
    public static func bundleID(_ s: String) throws -> String {
        if let long = tooLong(s, bundleIDMaximum) {
            throw InputError("the bundle id is \(long) characters long, more than \(bundleIDMaximum)", hint: "use the app's reverse-DNS id, like com.example.shop")
        }
        let parts = s.split(separator: ".", omittingEmptySubsequences: false)
        let ok = parts.count >= 2 && parts.allSatisfy { p in
            !p.isEmpty && p.utf8.allSatisfy { c in
                (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c == 45 || c == 95
            }
        }
        guard ok else {
            throw InputError("invalid bundle id '\(s)'", hint: "use reverse-DNS form, like com.example.shop")
        }
        return s
    }

    public static func url(_ s: String) throws -> String {
        if let long = tooLong(s, urlMaximum) {
            throw InputError("the URL is \(long) characters long, more than \(urlMaximum)", hint: "give the store page's own address, like https://apps.apple.com/app/id1088280260")
        }
        guard s.hasPrefix("https://") || s.hasPrefix("http://") || s.hasPrefix("itms-apps://") || s.hasPrefix("market://"),
              !s.contains(where: { $0.isWhitespace }) else {
            throw InputError("invalid URL '\(s)'", hint: "give an absolute https:// URL without spaces")
        }
        return s
    }

    public static func osVersion(_ s: String) throws -> String {
        do { _ = try Version(s) } catch {
            throw InputError("invalid minimum OS version '\(s)'", hint: "use numbers separated by dots, like 15.0")
        }
        return s
    }
}
