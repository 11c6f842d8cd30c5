// swift-tools-version: 6.2
import PackageDescription

/// One strictness gate for every target: Swift 6 language mode plus upcoming features.
let strictSettings: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "PWAKit",
    platforms: [.macOS(.v15), .iOS(.v18)],
    products: [
        .library(name: "PWAKitCore", targets: ["PWAKitCore"]),
        .library(name: "PWAKitModules", targets: ["PWAKitModules"]),
        .executable(name: "pwakit", targets: ["pwakit"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
    ],
    targets: [
        .target(
            name: "PWAKitCore",
            dependencies: [
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
            ],
            swiftSettings: strictSettings
        ),
        .target(
            name: "PWAKitModules",
            dependencies: ["PWAKitCore"],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "pwakit",
            dependencies: [
                "PWAKitCore",
                "PWAKitModules",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "BridgeBenchmark",
            dependencies: ["PWAKitCore"],
            path: "Benchmarks/BridgeBenchmark",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "PWAKitCoreTests",
            dependencies: [
                "PWAKitCore",
                .product(name: "InMemoryLogging", package: "swift-log"),
                .product(name: "MetricsTestKit", package: "swift-metrics"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "PWAKitModulesTests",
            dependencies: ["PWAKitModules"],
            swiftSettings: strictSettings
        ),
        // Runs the built `pwakit` binary and checks its output and exit status.
        .testTarget(
            name: "pwakitCLITests",
            dependencies: ["pwakit"],
            swiftSettings: strictSettings
        ),
    ]
)

// MARK: - WatchLink (phone <-> watch messaging); self-contained, no package dependencies.
package.products += [
    .library(name: "WatchLink", targets: ["WatchLink"]),
    .executable(name: "watchlink-demo", targets: ["WatchLinkDemo"]),
    .executable(name: "watchlink-benchmark", targets: ["WatchLinkBenchmark"]),
]
package.targets += [
    .target(name: "WatchLink", swiftSettings: strictSettings),
    .executableTarget(name: "WatchLinkDemo", dependencies: ["WatchLink"], swiftSettings: strictSettings),
    .executableTarget(
        name: "WatchLinkBenchmark",
        dependencies: ["WatchLink"],
        path: "Benchmarks/WatchLinkBenchmark",
        swiftSettings: strictSettings
    ),
    .testTarget(name: "WatchLinkTests", dependencies: ["WatchLink"], swiftSettings: strictSettings),
]
// MARK: - end WatchLink
