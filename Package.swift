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
        .target(
            name: "RelctlKit",
            dependencies: ["CSQLite"],
            resources: [],
            swiftSettings: [.unsafeFlags(["-warnings-as-errors"], .when(configuration: .debug))]
        ),
        .executableTarget(name: "relctl", dependencies: ["RelctlKit"]),
        .testTarget(name: "RelctlKitTests", dependencies: ["RelctlKit"]),
    ],
    swiftLanguageModes: [.v6]
)
