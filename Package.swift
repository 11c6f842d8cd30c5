// swift-tools-version: 6.2
import PackageDescription

/// One strictness gate for every target: Swift 6 language mode plus upcoming features.
let strictSettings: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

// MARK: - Platform server (PWAKitBundles, PWAKitServer, server CLI commands, benchmark)
// Declared before `package` because top-level globals are initialised in order.
// NB: jwt-kit 5.7 needs swift-crypto 4.x, so the range spans both majors.

let serverDependencies: [Package.Dependency] = [
    .package(url: "https://github.com/apple/swift-crypto.git", "3.12.3"..<"5.0.0"),
    .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
    .package(url: "https://github.com/vapor/jwt-kit.git", from: "5.7.1"),
    .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
    .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.25.0"),
    // NB: already in the graph through jwt-kit; the tests make their TLS certificates with it.
    .package(url: "https://github.com/apple/swift-certificates.git", from: "1.15.0"),
    .package(url: "https://github.com/apple/swift-asn1.git", from: "1.3.0"),
    .package(url: "https://github.com/vapor/sqlite-nio.git", from: "1.13.2"),
    .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
    .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.35.2"),
    .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
    .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
    .package(url: "https://github.com/apple/swift-distributed-tracing.git", from: "1.7.3"),
    // NB: OTLP/HTTP only (not the default gRPC exporter too): the OTel trait's build stays smaller.
    .package(url: "https://github.com/swift-otel/swift-otel.git", from: "1.6.0", traits: ["OTLPHTTP"]),
]

let serverProducts: [Product] = [
    .library(name: "PWAKitBundles", targets: ["PWAKitBundles"]),
    .library(name: "PWAKitServer", targets: ["PWAKitServer"]),
]

let serverCLIDependencies: [Target.Dependency] = [
    "PWAKitBundles", "PWAKitServer",
    .product(name: "Crypto", package: "swift-crypto"),
    .product(name: "Logging", package: "swift-log"),
]

let serverTargets: [Target] = [
    .target(
        name: "PWAKitBundles",
        dependencies: ["PWAKitErrors", "PWAKitEncoding", .product(name: "Crypto", package: "swift-crypto")],
        swiftSettings: strictSettings
    ),
    .target(
        name: "PWAKitServer",
        dependencies: [
            "PWAKitBundles", "PWAKitFiles", "PWAKitErrors", "PWAKitEncoding",
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "_CryptoExtras", package: "swift-crypto"),
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "HummingbirdCore", package: "hummingbird"),
            .product(name: "JWTKit", package: "jwt-kit"),
            .product(name: "PostgresNIO", package: "postgres-nio"),
            .product(name: "NIOSSL", package: "swift-nio-ssl"),
            .product(name: "SQLiteNIO", package: "sqlite-nio"),
            .product(name: "Logging", package: "swift-log"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
            .product(name: "NIOHTTP1", package: "swift-nio"),
            .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
            .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
            .product(name: "HTTPTypes", package: "swift-http-types"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        ],
        swiftSettings: strictSettings
    ),
    .executableTarget(
        name: "ServerBenchmark",
        dependencies: [
            "PWAKitServer", "PWAKitBundles", "BenchmarkArguments",
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "Logging", package: "swift-log"),
            .product(name: "Crypto", package: "swift-crypto"),
        ],
        path: "Benchmarks/ServerBenchmark",
        exclude: ["nginx.conf", "run.sh"],
        swiftSettings: strictSettings
    ),
    .executableTarget(
        name: "NotesExampleBackend",
        dependencies: [
            "PWAKitAPI",
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "HTTPTypes", package: "swift-http-types"),
        ],
        path: "Examples/miniapps/notes/backend",
        swiftSettings: strictSettings
    ),
    .testTarget(
        name: "PWAKitBundlesTests",
        dependencies: ["PWAKitBundles", .product(name: "Crypto", package: "swift-crypto")],
        swiftSettings: strictSettings
    ),
    .testTarget(
        name: "PWAKitServerTests",
        dependencies: [
            "PWAKitServer",
            "PWAKitBundles",
            "PWAKitTesting",
            "PWAKitEncoding",
            "PWAKitRetry",
            .product(name: "HummingbirdTesting", package: "hummingbird"),
            .product(name: "JWTKit", package: "jwt-kit"),
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "HTTPTypes", package: "swift-http-types"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOEmbedded", package: "swift-nio"),
            .product(name: "NIOSSL", package: "swift-nio-ssl"),
            .product(name: "X509", package: "swift-certificates"),
            .product(name: "SwiftASN1", package: "swift-asn1"),
        ],
        swiftSettings: strictSettings
    ),
]
// MARK: - End of platform server block

let package = Package(
    name: "PWAKit",
    platforms: [.macOS(.v15), .iOS(.v18)],
    products: [
        .library(name: "PWAKitCore", targets: ["PWAKitCore"]),
        .library(name: "PWAKitModules", targets: ["PWAKitModules"]),
        .executable(name: "pwakit", targets: ["pwakit"]),
    ] + serverProducts,
    // NB: the WebKitGTK host needs libwebkit2gtk-4.1-dev; without the trait everything else
    // builds and tests on a machine that lacks it. `scripts/test` builds with it on.
    traits: [
        .trait(name: "WebKitGTK", description: "The Linux host on WebKitGTK 4.1 (`pwakit run`)."),
        .trait(
            name: "OTel",
            description: "OpenTelemetry export over OTLP/HTTP through swift-otel (PWAKitOTel, `pwakit server --otlp-endpoint`)."),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
    ] + serverDependencies,
    targets: [
        .target(
            name: "PWAKitCore",
            dependencies: [
                "PWAKitErrors",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
            ],
            swiftSettings: strictSettings
        ),
        .target(
            name: "PWAKitModules",
            dependencies: ["PWAKitCore", "PWAKitFiles"],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "pwakit",
            dependencies: [
                "PWAKitCore",
                "PWAKitModules",
                "PWAKitHost",
                "PWAKitLinuxHost",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ] + serverCLIDependencies,
            swiftSettings: strictSettings
        ),
        .target(name: "BenchmarkArguments", path: "Benchmarks/BenchmarkArguments", swiftSettings: strictSettings),
        .testTarget(name: "BenchmarkArgumentsTests", dependencies: ["BenchmarkArguments"], swiftSettings: strictSettings),
        .executableTarget(
            name: "BridgeBenchmark",
            dependencies: ["PWAKitCore", "BenchmarkArguments"],
            path: "Benchmarks/BridgeBenchmark",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "PWAKitCoreTests",
            dependencies: [
                "PWAKitCore", "PWAKitTesting", "PWAKitRetry",
                .product(name: "InMemoryLogging", package: "swift-log"),
                .product(name: "MetricsTestKit", package: "swift-metrics"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "PWAKitModulesTests",
            dependencies: ["PWAKitModules", "PWAKitTesting"],
            swiftSettings: strictSettings
        ),
        // Runs the built `pwakit` binary and checks its output and exit status.
        .testTarget(
            name: "pwakitCLITests",
            dependencies: ["pwakit", "PWAKitCore", "PWAKitModules", "PWAKitTesting"],
            swiftSettings: strictSettings
        ),
    ] + serverTargets
)

// MARK: - WatchLink (phone <-> watch messaging); no package dependencies, only the project's own small targets.
package.products += [
    .library(name: "WatchLink", targets: ["WatchLink"]),
    .executable(name: "watchlink-demo", targets: ["WatchLinkDemo"]),
    .executable(name: "watchlink-benchmark", targets: ["WatchLinkBenchmark"]),
]
package.targets += [
    .target(
        name: "WatchLink", dependencies: ["PWAKitFiles", "PWAKitErrors", "PWAKitRetry", "PWAKitEncoding"],
        swiftSettings: strictSettings),
    .target(name: "WatchLinkSimulation", dependencies: ["WatchLink", "PWAKitRetry"], swiftSettings: strictSettings),
    .executableTarget(
        name: "WatchLinkDemo", dependencies: ["WatchLink", "WatchLinkSimulation", "PWAKitRetry"],
        swiftSettings: strictSettings),
    .executableTarget(
        name: "WatchLinkBenchmark",
        dependencies: ["WatchLink", "PWAKitRetry", "BenchmarkArguments"],
        path: "Benchmarks/WatchLinkBenchmark",
        swiftSettings: strictSettings
    ),
    .testTarget(
        name: "WatchLinkTests", dependencies: ["WatchLink", "WatchLinkSimulation", "PWAKitTesting", "PWAKitRetry"],
        swiftSettings: strictSettings),
]
// MARK: - end WatchLink

// MARK: - Hosts: portable host logic, and the WebKitGTK host behind the WebKitGTK trait.
let hostTargets: [Target] = [
    .target(
        name: "PWAKitHost",
        dependencies: ["PWAKitCore", "PWAKitBundles", "PWAKitErrors"],
        swiftSettings: strictSettings
    ),
    .systemLibrary(
        name: "CWebKitGTK",
        pkgConfig: "webkit2gtk-4.1",
        providers: [.apt(["libwebkit2gtk-4.1-dev"])]
    ),
    // NB: libsecret (the Secret Service client) goes with the WebKitGTK trait, so a plain
    // build needs neither; the encrypted-file secret store builds everywhere.
    .systemLibrary(
        name: "CLibSecret",
        pkgConfig: "libsecret-1",
        providers: [.apt(["libsecret-1-dev"])]
    ),
    .target(
        name: "PWAKitLinuxHost",
        dependencies: [
            "PWAKitCore", "PWAKitHost", "PWAKitModules", "PWAKitFiles",
            .product(name: "Crypto", package: "swift-crypto"),
            .target(name: "CWebKitGTK", condition: .when(traits: ["WebKitGTK"])),
            .target(name: "CLibSecret", condition: .when(traits: ["WebKitGTK"])),
        ],
        swiftSettings: strictSettings
    ),
    .testTarget(
        name: "PWAKitHostTests",
        dependencies: ["PWAKitHost", "PWAKitCore", "PWAKitBundles"],
        swiftSettings: strictSettings
    ),
    .testTarget(
        name: "PWAKitLinuxHostTests",
        dependencies: [
            "PWAKitLinuxHost", "PWAKitModules", "PWAKitCore",
            .product(name: "Crypto", package: "swift-crypto"),
        ],
        swiftSettings: strictSettings
    ),
    .executableTarget(
        name: "HostBenchmark",
        dependencies: ["PWAKitCore", "PWAKitHost", "PWAKitLinuxHost", "BenchmarkArguments"],
        path: "Benchmarks/HostBenchmark",
        swiftSettings: strictSettings
    ),
]
package.targets += hostTargets
package.products += [
    .library(name: "PWAKitHost", targets: ["PWAKitHost"]),
    .library(name: "PWAKitLinuxHost", targets: ["PWAKitLinuxHost"]),
]
// MARK: - end hosts

// MARK: - Shared pieces and the device side of the mini-app platform.
// PWAKitAPI: the server's wire types and a client over an injected transport (no Hummingbird);
// PWAKitFiles: crash-safe file replacement and file locks; PWAKitErrors: the one error shape;
// PWAKitRetry: backoff over any Clock and the seeded generator; PWAKitEncoding: hex, base64url; PWAKitMiniApps: account, catalog,
// bundle store, updater, ready-bound rollback and the `session` module (no WebKit, no server).
package.targets += [
    .target(
        name: "PWAKitAPI",
        dependencies: [
            "PWAKitBundles", "PWAKitErrors", "PWAKitRetry", "PWAKitDependencies", "PWAKitEncoding",
            .product(name: "Crypto", package: "swift-crypto"),
        ],
        swiftSettings: strictSettings),
    .target(name: "PWAKitDependencies", swiftSettings: strictSettings),
    .testTarget(
        name: "PWAKitDependenciesTests", dependencies: ["PWAKitDependencies", "PWAKitAPI", "PWAKitFlags", "PWAKitTesting"],
        swiftSettings: strictSettings),
    .target(name: "PWAKitErrors", swiftSettings: strictSettings),
    .target(name: "PWAKitRetry", swiftSettings: strictSettings),
    .target(name: "PWAKitEncoding", swiftSettings: strictSettings),
    .testTarget(
        name: "PWAKitRetryTests", dependencies: ["PWAKitRetry", "PWAKitTesting"], swiftSettings: strictSettings),
    .testTarget(name: "PWAKitEncodingTests", dependencies: ["PWAKitEncoding"], swiftSettings: strictSettings),
    .target(name: "PWAKitTesting", swiftSettings: strictSettings),
    .testTarget(
        name: "PWAKitErrorsTests", dependencies: ["PWAKitErrors", "PWAKitFiles", "PWAKitCore", "PWAKitBundles"],
        swiftSettings: strictSettings),
    .target(name: "PWAKitFiles", dependencies: ["PWAKitErrors"], swiftSettings: strictSettings),
    .testTarget(name: "PWAKitFilesTests", dependencies: ["PWAKitFiles", "PWAKitErrors"], swiftSettings: strictSettings),
    .target(
        name: "PWAKitMiniApps",
        dependencies: [
            "PWAKitAPI", "PWAKitFiles", "PWAKitErrors", "PWAKitBundles", "PWAKitCore", "PWAKitModules",
            .product(name: "Crypto", package: "swift-crypto"),
        ],
        swiftSettings: strictSettings
    ),
    .testTarget(
        name: "PWAKitMiniAppsTests",
        dependencies: [
            "PWAKitMiniApps", "PWAKitAPI", "PWAKitFiles", "PWAKitServer", "PWAKitBundles", "PWAKitCore", "PWAKitModules",
            "PWAKitTesting", "PWAKitRetry",
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "HummingbirdTesting", package: "hummingbird"),
            .product(name: "Crypto", package: "swift-crypto"),
        ],
        swiftSettings: strictSettings
    ),
]
package.products += [
    .library(name: "PWAKitErrors", targets: ["PWAKitErrors"]),
    .library(name: "PWAKitRetry", targets: ["PWAKitRetry"]),
    .library(name: "PWAKitDependencies", targets: ["PWAKitDependencies"]),
    .library(name: "PWAKitEncoding", targets: ["PWAKitEncoding"]),
    .library(name: "PWAKitTesting", targets: ["PWAKitTesting"]),
    .library(name: "PWAKitFiles", targets: ["PWAKitFiles"]),
    .library(name: "PWAKitAPI", targets: ["PWAKitAPI"]),
    .library(name: "PWAKitMiniApps", targets: ["PWAKitMiniApps"]),
]
if let server = package.targets.first(where: { $0.name == "PWAKitServer" }) {
    server.dependencies.append("PWAKitAPI")
}
if let cli = package.targets.first(where: { $0.name == "pwakit" }) {
    cli.dependencies += ["PWAKitAPI", "PWAKitMiniApps", "PWAKitFiles"]
}
// MARK: - end mini-apps

// MARK: - Mobile identity: device enrolment, PIN, authenticators, mobile authentication (device side).
package.targets += [
    .target(
        name: "PWAKitIdentity",
        dependencies: [
            "PWAKitAPI", "PWAKitErrors", "PWAKitEncoding", "PWAKitModules", "PWAKitDependencies",
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "_CryptoExtras", package: "swift-crypto"),
        ],
        swiftSettings: strictSettings
    ),
    .testTarget(
        name: "PWAKitIdentityTests",
        dependencies: [
            "PWAKitIdentity", "PWAKitAPI", "PWAKitServer", "PWAKitModules", "PWAKitTesting", "PWAKitEncoding",
            "PWAKitDependencies", .product(name: "JWTKit", package: "jwt-kit"),
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "HummingbirdTesting", package: "hummingbird"),
            .product(name: "Crypto", package: "swift-crypto"),
        ],
        swiftSettings: strictSettings
    ),
]
package.products += [.library(name: "PWAKitIdentity", targets: ["PWAKitIdentity"])]
if let cli = package.targets.first(where: { $0.name == "pwakit" }) {
    cli.dependencies.append("PWAKitIdentity")
}

// MARK: - App foundation: the crash-safe event buffer and its relay.
package.targets += [
    .target(
        name: "PWAKitEvents", dependencies: ["PWAKitAPI", "PWAKitFiles", "PWAKitErrors", "PWAKitRetry"],
        swiftSettings: strictSettings),
    .testTarget(
        name: "PWAKitEventsTests",
        dependencies: [
            "PWAKitEvents", "PWAKitAPI", "PWAKitTesting", "PWAKitRetry", "PWAKitServer",
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "HummingbirdTesting", package: "hummingbird"),
        ],
        swiftSettings: strictSettings),
]
package.targets.append(
    .executableTarget(
        name: "EventsBenchmark",
        dependencies: [
            "PWAKitEvents", "PWAKitAPI", "PWAKitServer", "PWAKitRetry", "BenchmarkArguments",
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "HummingbirdTesting", package: "hummingbird"),
        ],
        path: "Benchmarks/EventsBenchmark",
        swiftSettings: strictSettings
    ))
package.products += [.library(name: "PWAKitEvents", targets: ["PWAKitEvents"])]

// Remote feature flags on the device: defaults, the server's values cached for offline, overrides; the `flags` module.
package.targets += [
    .target(
        name: "PWAKitFlags", dependencies: ["PWAKitAPI", "PWAKitFiles", "PWAKitCore", "PWAKitDependencies"],
        swiftSettings: strictSettings),
    .testTarget(
        name: "PWAKitFlagsTests", dependencies: ["PWAKitFlags", "PWAKitAPI", "PWAKitCore", "PWAKitTesting"],
        swiftSettings: strictSettings),
]
package.products += [.library(name: "PWAKitFlags", targets: ["PWAKitFlags"])]

// Observability: the telemetry facade over sinks (event buffer, swift-log, swift-metrics), consent and redaction.
package.targets += [
    .target(
        name: "PWAKitObservability",
        dependencies: [
            "PWAKitEvents", "PWAKitAPI", "PWAKitErrors", "PWAKitFiles", "PWAKitDependencies",
            .product(name: "Logging", package: "swift-log"),
            .product(name: "Metrics", package: "swift-metrics"),
            .product(name: "Tracing", package: "swift-distributed-tracing"),
        ],
        swiftSettings: strictSettings),
    .testTarget(
        name: "PWAKitObservabilityTests",
        dependencies: [
            "PWAKitObservability", "PWAKitEvents", "PWAKitAPI", "PWAKitTesting", "PWAKitDependencies",
            .product(name: "InMemoryLogging", package: "swift-log"),
            .product(name: "MetricsTestKit", package: "swift-metrics"),
            .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
        ],
        swiftSettings: strictSettings),
]
package.products += [.library(name: "PWAKitObservability", targets: ["PWAKitObservability"])]

// Push on the device: the provider protocol, the server's device registry kept in step, the permission funnel.
package.targets += [
    .target(name: "PWAKitPush", dependencies: ["PWAKitAPI", "PWAKitObservability"], swiftSettings: strictSettings),
    .testTarget(
        name: "PWAKitPushTests", dependencies: ["PWAKitPush", "PWAKitAPI", "PWAKitObservability", "PWAKitTesting"],
        swiftSettings: strictSettings),
]
package.products += [.library(name: "PWAKitPush", targets: ["PWAKitPush"])]
if let cli = package.targets.first(where: { $0.name == "pwakit" }) {
    cli.dependencies += ["PWAKitFlags"]
}
if let cli = package.targets.first(where: { $0.name == "pwakit" }) {
    cli.dependencies += ["PWAKitEvents"]
}
// MARK: - end app foundation

// MARK: - Deep links: routes as one parser-printer over custom-scheme and universal-link URLs, and the navigator.
package.targets += [
    .target(name: "PWAKitRouting", dependencies: ["PWAKitErrors"], swiftSettings: strictSettings),
    // NB: PWAKitBundles only in the tests, to check the restated app-id rule against ManifestRules.
    .testTarget(
        name: "PWAKitRoutingTests", dependencies: ["PWAKitRouting", "PWAKitErrors", "PWAKitRetry", "PWAKitBundles"],
        swiftSettings: strictSettings),
]
package.products += [.library(name: "PWAKitRouting", targets: ["PWAKitRouting"])]
if let cli = package.targets.first(where: { $0.name == "pwakit" }) {
    cli.dependencies += ["PWAKitRouting"]
}
// MARK: - end deep links
package.targets.append(
    .executableTarget(
        name: "MiniAppBenchmark",
        dependencies: [
            "PWAKitMiniApps", "PWAKitAPI", "PWAKitBundles", "PWAKitModules", "PWAKitServer", "BenchmarkArguments",
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "Logging", package: "swift-log"),
        ],
        path: "Benchmarks/MiniAppBenchmark",
        swiftSettings: strictSettings
    ))

// MARK: - Apple files: Info.plist keys, entitlements, privacy manifest and site association from one configuration.
package.targets += [
    .target(name: "PWAKitAppleFiles", dependencies: ["PWAKitCore", "PWAKitErrors", "PWAKitFiles"], swiftSettings: strictSettings),
    .testTarget(
        name: "PWAKitAppleFilesTests", dependencies: ["PWAKitAppleFiles", "PWAKitCore", "PWAKitTesting"],
        swiftSettings: strictSettings),
]
package.products += [.library(name: "PWAKitAppleFiles", targets: ["PWAKitAppleFiles"])]
if let cli = package.targets.first(where: { $0.name == "pwakit" }) {
    cli.dependencies += ["PWAKitAppleFiles"]
}

// MARK: - OpenTelemetry: OTLP/HTTP export through swift-otel, behind the OTel trait.
package.targets += [
    .target(
        name: "PWAKitOTel",
        dependencies: [
            .product(name: "OTel", package: "swift-otel", condition: .when(traits: ["OTel"])),
            .product(name: "Tracing", package: "swift-distributed-tracing"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        ],
        swiftSettings: strictSettings),
    .testTarget(
        name: "PWAKitOTelTests",
        dependencies: [
            "PWAKitOTel", "PWAKitObservability", "PWAKitAPI", "PWAKitTesting",
            .product(name: "OTel", package: "swift-otel", condition: .when(traits: ["OTel"])),
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "Tracing", package: "swift-distributed-tracing"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        ],
        swiftSettings: strictSettings),
]
package.products += [.library(name: "PWAKitOTel", targets: ["PWAKitOTel"])]
if let cli = package.targets.first(where: { $0.name == "pwakit" }) {
    cli.dependencies += ["PWAKitOTel", .product(name: "ServiceLifecycle", package: "swift-service-lifecycle")]
}

// MARK: - Links: canonical URLs and tracking rules (and, with ingestion, previews and the SSRF checks).
package.targets += [
    .target(name: "PWAKitLinks", dependencies: ["PWAKitErrors"], swiftSettings: strictSettings),
    .testTarget(
        name: "PWAKitLinksTests", dependencies: ["PWAKitLinks", "PWAKitErrors", "PWAKitRetry"],
        swiftSettings: strictSettings),
]
package.products += [.library(name: "PWAKitLinks", targets: ["PWAKitLinks"])]
if let server = package.targets.first(where: { $0.name == "PWAKitServer" }) {
    server.dependencies += ["PWAKitLinks"]
}

// MARK: - Share: the device's outbox of shared links, sent to POST /v1/posts when the server is reachable.
package.targets += [
    .target(
        name: "PWAKitShare", dependencies: ["PWAKitAPI", "PWAKitFiles", "PWAKitLinks", "PWAKitErrors"],
        swiftSettings: strictSettings),
    .testTarget(
        name: "PWAKitShareTests", dependencies: ["PWAKitShare", "PWAKitAPI", "PWAKitLinks"], swiftSettings: strictSettings),
]
package.products += [.library(name: "PWAKitShare", targets: ["PWAKitShare"])]
for name in ["PWAKitMiniApps", "PWAKitMiniAppsTests"] {
    package.targets.first(where: { $0.name == name })?.dependencies.append("PWAKitShare")
}
if let cli = package.targets.first(where: { $0.name == "pwakit" }) {
    cli.dependencies += [
        "PWAKitShare", "PWAKitLinks", .product(name: "UnixSignals", package: "swift-service-lifecycle"),
    ]
}
package.targets.append(
    .executableTarget(
        name: "JobQueueBenchmark", dependencies: ["PWAKitServer", "BenchmarkArguments"], path: "Benchmarks/JobQueueBenchmark",
        swiftSettings: strictSettings))
package.targets.append(
    .executableTarget(
        name: "IdentityBenchmark",
        dependencies: [
            "PWAKitServer", "PWAKitAPI", "PWAKitEncoding", "BenchmarkArguments",
            .product(name: "Crypto", package: "swift-crypto"),
        ],
        path: "Benchmarks/IdentityBenchmark", swiftSettings: strictSettings))
