/// XXH64 (Yann Collet's xxHash, 64-bit), as its reference gives it: the
/// tree state's own check (TreeState.checksum), fast and well studied for
/// telling bytes that changed by accident. Not a defence against forgery.
package enum XXH64 {
    private static let p1: UInt64 = 11_400_714_785_074_694_791
    private static let p2: UInt64 = 14_029_467_366_897_019_727
    private static let p3: UInt64 = 1_609_587_929_392_839_161
    private static let p4: UInt64 = 9_650_029_242_287_828_579
    private static let p5: UInt64 = 2_870_177_450_012_600_261

    @inline(__always) private static func rotl(_ x: UInt64, _ r: UInt64) -> UInt64 { (x << r) | (x >> (64 - r)) }
    @inline(__always) private static func round(_ acc: UInt64, _ input: UInt64) -> UInt64 { rotl(acc &+ input &* p2, 31) &* p1 }
    @inline(__always) private static func merge(_ acc: UInt64, _ value: UInt64) -> UInt64 { (acc ^ round(0, value)) &* p1 &+ p4 }

    package static func hash(_ bytes: ArraySlice<UInt8>, seed: UInt64 = 0) -> UInt64 {
        bytes.withUnsafeBytes { raw in
            let n = raw.count
            // Little-endian words on any host: a state reads the same wherever it was written.
            func word(_ at: Int) -> UInt64 { UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: at, as: UInt64.self)) }
            var i = 0
            var h: UInt64
            if n >= 32 {
                var (v1, v2, v3, v4) = (seed &+ p1 &+ p2, seed &+ p2, seed, seed &- p1)
                while i + 32 <= n {
                    v1 = round(v1, word(i)); v2 = round(v2, word(i + 8)); v3 = round(v3, word(i + 16)); v4 = round(v4, word(i + 24))
                    i += 32
                }
                h = rotl(v1, 1) &+ rotl(v2, 7) &+ rotl(v3, 12) &+ rotl(v4, 18)
                h = merge(merge(merge(merge(h, v1), v2), v3), v4)
            } else {
                h = seed &+ p5
            }
            h = h &+ UInt64(n)
            while i + 8 <= n {
                h = rotl(h ^ round(0, word(i)), 27) &* p1 &+ p4
                i += 8
            }
            if i + 4 <= n {
                let w = UInt64(UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: i, as: UInt32.self)))
                h = rotl(h ^ (w &* p1), 23) &* p2 &+ p3
                i += 4
            }
            while i < n {
                h = rotl(h ^ (UInt64(raw[i]) &* p5), 11) &* p1
                i += 1
            }
            h ^= h >> 33; h = h &* p2
            h ^= h >> 29; h = h &* p3
            return h ^ (h >> 32)
        }
    }
}
