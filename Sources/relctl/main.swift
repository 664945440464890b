import RelctlCLI
#if canImport(Glibc)
import Glibc

// glibc hands freed memory back to the system once 128 KiB lie free at the
// top of a heap, and grows a heap by no more than each request: a publish
// allocates and frees every project's files on every core, and paid for the
// trims in page faults. With these, a full publish of the benchmark fleet
// takes a quarter fewer page faults and a tenth of the brk calls
// (/usr/bin/time, strace -c); peak memory grows by a few MiB.
// malloc.h, which declares these, is not in Swift's Glibc module.
@_silgen_name("mallopt") func mallopt(_ parameter: Int32, _ value: Int32) -> Int32
let trimThreshold: Int32 = -1, topPad: Int32 = -2
_ = mallopt(trimThreshold, 256 << 20)
_ = mallopt(topPad, 16 << 20)
#endif

StopSignals.end(Runner.run(Array(CommandLine.arguments.dropFirst()), context: .process(), tree: Relctl.tree))
