/// A file that cannot be imported: which, and why.
public struct ImportProblem: Error, Equatable, Sendable {
    public var message: String
    public init(_ message: String) { self.message = message }

    /// Refuses a file with bytes that are not UTF-8, naming where: read on,
    /// they would be stored as U+FFFD, text nobody wrote.
    package static func checkText(_ bytes: [UInt8]) throws(ImportProblem) {
        if let place = JSONReader.invalidUTF8(bytes) { throw ImportProblem("\(place): holds bytes that are not UTF-8 text") }
        if let place = JSONReader.loneSurrogate(bytes) {
            throw ImportProblem("\(place): holds a \\u escape of half a character (a lone surrogate, like \\ud800), which is no text: write the character itself, or both halves of its pair")
        }
        if let number = JSONReader.fractionalNumber(bytes) {
            throw ImportProblem("\(number.path) is the number \(number.text), where a string is expected: write it in quotes, \"\(number.text)\"")
        }
    }
}
