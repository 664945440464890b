import RelctlCore

/// How the command line says a fix (Fix) the core or the store names:
/// a command as the user types it, each word quoted as a shell needs.
extension Fix {
    var spelled: String {
        switch self {
        case .run(let words, let how, let then):
            return "\(how) 'relctl \(words.map(PastedHints.quoted).joined(separator: " "))'" + (then.map { " " + $0 } ?? "")
        case .flag(let flag, let what): return "add \(flag)" + (what.map { " " + $0 } ?? "")
        case .either(let a, let b): return "\(a.spelled), or \(b.spelled)"
        case .also(let a, let b): return "\(a.spelled); \(b.spelled)"
        case .advice(let words): return words
        }
    }
}
