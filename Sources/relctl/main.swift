import RelctlCLI
#if canImport(Glibc)
import Glibc
#endif

exit(Runner.run(Array(CommandLine.arguments.dropFirst()), context: .process(), tree: Relctl.tree))
