// swift-tools-version:6.0
import PackageDescription

// Layers, lowest first; each may import only the ones above it in this list:
//   SQLite      the sqlite3 C API, nothing of relctl
//   RelctlModel versions, records, locales, rules, catalog, time, the evaluator and the
//               reading (and verifying) of control.json: what an app needs (RelctlClient); no dependency
//               but libcrypto on Linux, for Ed25519 where the platform has no CryptoKit
//   RelctlClient  the app's library: control.json to what to show, on the model alone
//   RelctlCore  formats, status pages, the proofs and client simulations, imports: on the model
//   RelctlStore schema, migrations, every query and every write, returning core types
//   RelctlPublish the publish engine: rendering on every core, the tree writer and its
//               state, DIR's index and journals, deploy's record; files, never the CLI
//   RelctlCLI   command model, parser, help, completion, man page, commands
//   relctl      main.swift
// Release: a type's metadata made by a function call, not found by demangling its name at first
// use: every command paid 76 lookups (1.5 M instructions, a tenth of a `version add`) before.
let strict: [SwiftSetting] = [.unsafeFlags(["-warnings-as-errors"], .when(configuration: .debug)),
                              .unsafeFlags(["-Xfrontend", "-disable-concrete-type-metadata-mangled-name-accessors"], .when(configuration: .release))]

let package = Package(
    name: "relctl",
    // What RelctlClient needs on Apple platforms (async/await, String(unsafeUninitializedCapacity:)); the CLI runs on Linux.
    platforms: [.iOS(.v15), .tvOS(.v15), .macOS(.v12)],
    products: [
        .executable(name: "relctl", targets: ["relctl"]),
        .library(name: "RelctlModel", targets: ["RelctlModel"]),
        // What an app adds: reads control.json and decides with the model's evaluator; nothing of the server side.
        .library(name: "RelctlClient", targets: ["RelctlClient"]),
        .library(name: "RelctlCore", targets: ["RelctlCore"]),
        .library(name: "RelctlCLI", targets: ["RelctlCLI"]),
    ],
    targets: [
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        .systemLibrary(
            name: "CCrypto",
            pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"])]
        ),
        .executableTarget(name: "embed-templates", path: "Sources/embed-templates"),
        .plugin(
            name: "EmbedTemplates",
            capability: .buildTool(),
            dependencies: ["embed-templates"],
            path: "Sources/EmbedTemplatesPlugin"
        ),
        .target(name: "SQLite", dependencies: ["CSQLite"], swiftSettings: strict),
        // No unsafe flags on what an app adds (SwiftPM refuses them in a dependency): `make check` builds these two with -warnings-as-errors.
        .target(name: "RelctlModel", dependencies: [.target(name: "CCrypto", condition: .when(platforms: [.linux]))], plugins: ["EmbedTemplates"]),
        .target(name: "RelctlClient", dependencies: ["RelctlModel"]),
        // The wiring an app needs, as a command (and what RelctlClient weighs: bench/client-size).
        .executableTarget(name: "relctl-client-sample", dependencies: ["RelctlClient"], path: "Sources/relctl-client-sample", swiftSettings: strict),
        .target(name: "RelctlCore", dependencies: ["RelctlModel"], swiftSettings: strict),
        .target(name: "RelctlStore", dependencies: ["SQLite", "RelctlCore"], swiftSettings: strict),
        .target(name: "RelctlPublish", dependencies: ["RelctlCore", "RelctlStore", "CCrypto"], swiftSettings: strict),
        // prctl, which Swift cannot call (it is variadic): --exec's orphans are handed to the watcher.
        .target(name: "CSystem", path: "Sources/CSystem"),
        .target(name: "RelctlCLI", dependencies: ["RelctlCore", "RelctlStore", "RelctlPublish", "CSystem"], swiftSettings: strict),
        // Release builds are fully static (Swift runtime, SQLite, libcrypto):
        // the binary runs anywhere and starts without dynamic relocations.
        .executableTarget(
            name: "relctl",
            dependencies: ["RelctlCLI"],
            linkerSettings: [.unsafeFlags(["-static-executable"], .when(configuration: .release))]
        ),
        .testTarget(name: "RelctlTests", dependencies: ["RelctlCLI", "RelctlPublish", "RelctlStore", "RelctlCore", "RelctlModel", "RelctlClient", "SQLite"], exclude: ["Golden", "SchemaGolden"]),
    ],
    swiftLanguageModes: [.v6]
)
