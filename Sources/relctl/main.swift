import RelctlKit
#if canImport(Glibc)
import Glibc
#endif

exit(Runner.run(Array(CommandLine.arguments.dropFirst()), context: .process()))
