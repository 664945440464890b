#if canImport(Glibc)
import Glibc

// malloc.h, which declares it, is not in Swift's Glibc module.
@_silgen_name("malloc_trim") private func malloc_trim(_ pad: Int) -> Int32
#endif

/// Memory the allocator keeps after it was freed, handed back to the system.
/// A publish frees each project's files once they are staged, but glibc
/// keeps the pages (main.swift keeps the heap's top, for speed, and the
/// entries each project leaves for the index pin pages between them).
/// Handed back every 64 projects (and once more before the index is made
/// when more rendered since), a first publish of a thousand projects peaks
/// 4 to 6 MB lower; every 128 runs let go while the index is written over
/// them, and once after it, 20 MB lower (docs/performance.md).
enum FreedMemory {
    static func handBack() {
        #if canImport(Glibc)
        _ = malloc_trim(0)
        #endif
    }
}
