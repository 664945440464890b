import RelctlCore

/// How the command line says a fix (Fix) the core or the store names:
/// a command as the user types it.
extension Fix {
    var spelled: String {
        switch self {
        case .run(let command, let how): return "\(how) 'relctl \(command)'"
        case .flag(let flag, let what): return "add \(flag)" + (what.map { " " + $0 } ?? "")
        case .either(let a, let b): return "\(a.spelled), or \(b.spelled)"
        case .also(let a, let b): return "\(a.spelled); \(b.spelled)"
        case .advice(let words): return words
        }
    }
}
