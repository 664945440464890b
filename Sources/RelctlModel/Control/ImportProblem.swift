/// A file that cannot be imported: which, and why.
public struct ImportProblem: Error, Equatable, Sendable {
    public var message: String
    public init(_ message: String) { self.message = message }

    /// Refuses a file with bytes that are not UTF-8, naming where: read on,
    /// they would be stored as U+FFFD, text nobody wrote.
    /// `skipping`: whole JSON values known to pass (a configuration file's
    /// sections a plan leaves unread), in order: a plan of a fleet's file that
    /// the database holds walked its 60 MB twice for nothing, 38 % of its samples.
    package static func checkText(_ bytes: [UInt8], skipping: [Range<Int>] = []) throws(ImportProblem) {
        let parts = parts(of: bytes, skipping: skipping)
        try checkUTF8(bytes, in: parts)
        if let place = JSONReader.loneSurrogate(bytes, in: parts) {
            throw ImportProblem("\(place): holds a \\u escape of half a character (a lone surrogate, like \\ud800), which is no text: write the character itself, or both halves of its pair")
        }
        if let number = JSONReader.fractionalNumber(bytes, in: parts) {
            throw ImportProblem("\(number.path) is the number \(number.text), where a string is expected: write it in quotes, \"\(number.text)\"")
        }
    }

    /// The ranges of `bytes` between those `skipping`.
    package static func parts(of bytes: [UInt8], skipping: [Range<Int>]) -> [Range<Int>] {
        var parts: [Range<Int>] = [], at = 0
        for skipped in skipping {
            parts.append(at..<skipped.lowerBound)
            at = skipped.upperBound
        }
        parts.append(at..<bytes.count)
        return parts
    }

    /// The first of those checks alone: what JSONReader.parse takes (as U+FFFD) and must not.
    /// It refuses a lone surrogate and a fractional number itself, and a caller whose parse
    /// succeeded need not look for them (`checkText` names them once it fails).
    package static func checkUTF8(_ bytes: [UInt8], in parts: [Range<Int>]? = nil) throws(ImportProblem) {
        if let place = JSONReader.invalidUTF8(bytes, in: parts) { throw ImportProblem("\(place): holds bytes that are not UTF-8 text") }
    }
}
