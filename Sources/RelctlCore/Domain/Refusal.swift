/// A change the data refuses: what is wrong, and what fixes it, as data.
/// Only the command line spells a fix as a `relctl …` command; the core and
/// the store name it.
public struct Refusal: Error, Equatable, Sendable {
    public var message: String
    public var fix: Fix

    public init(_ message: String, fix: Fix) { self.message = message; self.fix = fix }
}

/// What fixes a refused change.
public indirect enum Fix: Equatable, Sendable {
    /// A relctl command, by its words after `relctl` (an uppercase word is a
    /// value to fill in), with the words before it ("see") and after it.
    case run(_ words: [String], _ how: String, then: String? = nil)
    /// A flag of the refused command, and what adding it does.
    case flag(String, _ what: String? = nil)
    /// One fix, or another.
    case either(Fix, Fix)
    /// One fix, and another.
    case also(Fix, Fix)
    /// Words for a person.
    case advice(String)
}
