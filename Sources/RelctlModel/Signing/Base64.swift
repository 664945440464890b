/// Standard base64 (RFC 4648, with padding), written and read strictly: a
/// text decodes only when it is the one encoding of its bytes (no line
/// breaks, no spaces, no missing padding, unused bits zero), so a signed
/// file altered by one character never reads as the same bytes.
public enum Base64 {
    static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
    static let values: [Int8] = {
        var t = [Int8](repeating: -1, count: 256)
        for (i, c) in alphabet.enumerated() { t[Int(c)] = Int8(i) }
        return t
    }()

    public static func encode<C: Collection>(_ bytes: C) -> String where C.Element == UInt8 {
        String(decoding: encodedBytes(bytes), as: UTF8.self)
    }

    /// The encoding as bytes, written in place: a signed control.json's
    /// payload is most of a hundred kilobytes, for every project a publish signs.
    public static func encodedBytes<C: Collection>(_ bytes: C) -> [UInt8] where C.Element == UInt8 {
        let b = Array(bytes)
        let count = (b.count + 2) / 3 * 4
        return [UInt8](unsafeUninitializedCapacity: count) { out, written in
            b.withUnsafeBufferPointer { b in
                alphabet.withUnsafeBufferPointer { a in
                    var i = 0, o = 0
                    while i + 2 < b.count {
                        let n = UInt32(b[i]) << 16 | UInt32(b[i + 1]) << 8 | UInt32(b[i + 2])
                        out[o] = a[Int(n >> 18 & 63)]; out[o + 1] = a[Int(n >> 12 & 63)]
                        out[o + 2] = a[Int(n >> 6 & 63)]; out[o + 3] = a[Int(n & 63)]
                        i += 3; o += 4
                    }
                    if b.count - i > 0 {
                        let two = b.count - i == 2
                        let n = UInt32(b[i]) << 16 | (two ? UInt32(b[i + 1]) << 8 : 0)
                        out[o] = a[Int(n >> 18 & 63)]; out[o + 1] = a[Int(n >> 12 & 63)]
                        out[o + 2] = two ? a[Int(n >> 6 & 63)] : 61; out[o + 3] = 61
                    }
                }
            }
            written = count
        }
    }

    /// The bytes of a canonical encoding; nil for anything else.
    public static func decode(_ text: String) -> [UInt8]? {
        let c = Array(text.utf8)
        guard c.count % 4 == 0 else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(c.count / 4 * 3)
        var i = 0
        while i < c.count {
            let last = i + 4 == c.count
            let pad = last ? (c[i + 3] == 61 ? (c[i + 2] == 61 ? 2 : 1) : 0) : 0
            var n: UInt32 = 0
            for j in 0..<4 {
                if j >= 4 - pad { n <<= 6; continue }
                let v = values[Int(c[i + j])]
                guard v >= 0 else { return nil }
                n = n << 6 | UInt32(v)
            }
            out.append(UInt8(n >> 16 & 255))
            if pad < 2 { out.append(UInt8(n >> 8 & 255)) } else if n & 0xFFFF != 0 { return nil }
            if pad < 1 { out.append(UInt8(n & 255)) } else if n & 0xFF != 0 { return nil }
            i += 4
        }
        return out
    }
}
