// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "relctl",
    products: [
        .executable(name: "relctl", targets: ["relctl"]),
        .library(name: "RelctlKit", targets: ["RelctlKit"]),
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
        .target(
            name: "RelctlKit",
            dependencies: ["CSQLite", "CCrypto"],
            swiftSettings: [.unsafeFlags(["-warnings-as-errors"], .when(configuration: .debug))],
            plugins: ["EmbedTemplates"]
        ),
        // Release builds are fully static (Swift runtime, SQLite, libcrypto):
        // the binary runs anywhere and starts without dynamic relocations.
        .executableTarget(
            name: "relctl",
            dependencies: ["RelctlKit"],
            linkerSettings: [.unsafeFlags(["-static-executable"], .when(configuration: .release))]
        ),
        .testTarget(name: "RelctlKitTests", dependencies: ["RelctlKit"], exclude: ["Golden"]),
    ],
    swiftLanguageModes: [.v6]
)
