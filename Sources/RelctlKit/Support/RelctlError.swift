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
}
