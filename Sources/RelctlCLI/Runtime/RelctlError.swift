import RelctlCore
import RelctlStore
import RelctlPublish

/// Every error a user can see. `status` is the exit code: 2 for usage, 1 for failure.
public struct RelctlError: Error, Equatable {
    public var message: String
    public var hint: String?
    public var status: Int32
    /// Usage line to print under a usage error.
    public var usage: String?

    public static func usage(_ message: String, hint: String? = nil, usage: String? = nil) -> RelctlError {
        RelctlError(message: message, hint: hint, status: 2, usage: usage)
    }

    public static func failure(_ message: String, hint: String? = nil) -> RelctlError {
        RelctlError(message: message, hint: hint, status: 1, usage: nil)
    }

    /// The one place where the errors of every layer become a message and an
    /// exit status: a value the user typed is a usage error (2); the store,
    /// a publish and anything else are failures (1).
    public static func from(_ error: Error) -> RelctlError {
        switch error {
        case let e as RelctlError: return e
        case let e as InputError: return .usage(e.message, hint: e.hint)
        case let e as StoreError: return .failure(e.message, hint: e.fix?.spelled)
        case let e as Refusal: return .failure(e.message, hint: e.fix.spelled)
        case let e as PublishError: return e.isUsage ? .usage(e.message, hint: e.hint) : .failure(e.message, hint: e.hint)
        default: return .failure("\(error)")
        }
    }
}
