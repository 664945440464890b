/// index.json as `IndexFormat` writes it: the bytes not yet handed on, and
/// where they are in the file. Given `send`, it hands them on a piece at a
/// time as they are made, so that a publish never holds the whole index: a
/// thousand projects' is 17 MB, and made whole in memory beside what the
/// projects left for it, it was the peak of a first publish
/// (docs/performance.md). The file list's digest (`treeSha256`) and, when
/// sent, the whole file's are worked out as the bytes go by.
struct IndexOutput {
    /// Made and not yet sent.
    var bytes: [UInt8] = []
    private(set) var sent = 0
    private let send: ((ArraySlice<UInt8>) -> Void)?
    private let piece: Int
    private var whole = SHA256.Hasher()
    /// The file list's start, once begun, and its end, once written.
    private var list: (start: Int, end: Int?)?
    private var listHashed = 0
    private var listDigest = SHA256.Hasher()

    /// Kept whole in memory (`bytes`), reserving `capacity`.
    init(capacity: Int) {
        send = nil
        piece = .max
        bytes.reserveCapacity(capacity)
    }

    /// Sent in pieces of about `piece` bytes.
    init(piece: Int = 1 << 20, send: @escaping (ArraySlice<UInt8>) -> Void) {
        precondition(piece > 0, "an index sent in empty pieces")
        self.send = send
        self.piece = piece
        bytes.reserveCapacity(piece + piece / 4)
    }

    /// Where the next byte goes in the file.
    var position: Int { sent + bytes.count }

    /// Called where the bytes may be cut: a piece is sent once it is full.
    mutating func mayCut() {
        if bytes.count >= piece { sendMade() }
    }

    /// Where the file list starts: here.
    mutating func beginList() -> Int {
        list = (position, nil)
        return position
    }

    /// The file list's digest, taken as its last byte is written.
    mutating func endList() -> String {
        let end = position
        list?.end = end
        hashList()
        return listDigest.finish()
    }

    /// Sends what is left; the whole file's digest.
    mutating func finish() -> String {
        precondition(send != nil, "an index kept whole finished as one sent")
        sendMade()
        return whole.finish()
    }

    private mutating func sendMade() {
        guard let send, !bytes.isEmpty else { return }
        hashList()
        whole.update(bytes[...])
        send(bytes[...])
        sent += bytes.count
        bytes.removeAll(keepingCapacity: true)
    }

    /// The part of the file list made and not yet hashed, hashed.
    private mutating func hashList() {
        guard let list else { return }
        let from = max(list.start, listHashed), to = list.end ?? position
        guard from < to else { return }
        listDigest.update(bytes[(from - sent)..<(to - sent)])
        listHashed = to
    }
}
