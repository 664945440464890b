import RelctlCore

/// How the command line says a fix (Fix) the core or the store names:
/// a command as the user types it.
extension Fix {
    var spelled: String {
        switch self {
        case .run(let words, let why): return "\(why) ('relctl \(words.joined(separator: " "))')"
        case .flag(let flag): return "add \(flag)"
        case .either(let a, let b): return "\(a.spelled), or \(b.spelled)"
        case .advice(let words): return words
        }
    }
}
