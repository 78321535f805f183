// swift-tools-version:6.1
import PackageDescription

/// The provider plugins: one line each. A provider named `Citcon` is the dynamic library `CitconPlugin`
/// built from `Plugins/Citcon` (its exported entry symbol in `Plugins/Citcon/Entry`, a target of its own
/// linked only into the plugin's shared object, so several plugins' code can share one test binary) and
/// its unit tests in `Tests/CitconPluginTests`. Its emulator lives in `Sources/ProviderSandbox/Citcon`.
let providers = [
    provider("Citcon"),
    provider("WorldlineDirect"),
    provider("Antom"),
    provider("WorldlineSips"),
]

/// The product and targets of the provider `name`.
func provider(_ name: String) -> (product: Product, targets: [Target]) {
    let plugin = name + "Plugin"
    return (
        .library(name: plugin, type: .dynamic, targets: [plugin + "Entry"]),
        [
            .target(
                name: plugin, dependencies: ["ProviderKit", "SwitchyardCrypto", "CSwitchyardPlugin"],
                path: "Plugins/" + name, exclude: ["Entry", "scenario.json"]),
            .target(
                name: plugin + "Entry", dependencies: [.target(name: plugin), "ProviderKit"],
                path: "Plugins/\(name)/Entry"),
            .testTarget(
                name: plugin + "Tests",
                dependencies: [
                    .target(name: plugin), "ProviderKit", "CSwitchyardPlugin", "ProviderTestSupport",
                    "SwitchyardCrypto",
                ]),
        ]
    )
}

let package = Package(
    name: "Switchyard",
    platforms: [.macOS(.v14)],
    products: [
        // The development executable: the shared commands plus the workshop (the embedded default with its
        // private PostgreSQL, provider sandboxes and demo tenant; `sandbox`; the bench flows that need them).
        .executable(name: "switchyard", targets: ["switchyard"]),
        // The production executable: the shared commands only, against an external database. It links no
        // provider emulator and no demo seed (Tests/Deploy/check_production_binary.sh holds it to that).
        .executable(name: "switchyard-server", targets: ["SwitchyardServer"]),
        .executable(name: "switchyard-plugin-worker", targets: ["SwitchyardPluginWorker"]),
        // The plugin SDK, for plugin packages outside this repository (by path or URL): what a plugin
        // imports (its C ABI comes along), the cryptography connectors sign with (HMAC, RSA, AES over
        // OpenSSL 3), and the scripted host its unit tests use. docs/plugins.md.
        .library(name: "ProviderKit", targets: ["ProviderKit"]),
        .library(name: "SwitchyardCrypto", targets: ["SwitchyardCrypto"]),
        .library(name: "ProviderTestSupport", targets: ["ProviderTestSupport"]),
    ] + providers.map(\.product),
    dependencies: [
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.35.2"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        .package(url: "https://github.com/apple/swift-distributed-tracing.git", from: "1.7.3"),
        .package(url: "https://github.com/apple/swift-service-context.git", from: "1.5.1"),
        .package(url: "https://github.com/swift-otel/swift-otel.git", from: "1.6.0", traits: ["OTLPHTTP"]),
        .package(url: "https://github.com/swiftlang/swift-subprocess.git", from: "1.0.2"),
    ],
    targets: [
        // Plugin ABI: the C header shared by host and plugins.
        .target(name: "CSwitchyardPlugin", exclude: ["schema"]),
        // The seccomp filter a plugin scanner process installs on itself before opening a plugin.
        .target(name: "CPluginSandbox"),
        // OpenSSL 3 and the Swift wrapper over it.
        .systemLibrary(name: "COpenSSL", pkgConfig: "openssl", providers: [.apt(["libssl-dev"])]),
        .target(name: "SwitchyardCrypto", dependencies: ["COpenSSL"]),
        // What a plugin author imports.
        .target(name: "ProviderKit", dependencies: ["CSwitchyardPlugin", "SwitchyardCrypto"]),
        // The plugin worker process (its frame protocol with the server, the host services it forwards)
        // and the small executable that runs it: no server code and no NIO, so a worker costs little
        // memory. Its framing is the one the server's channel uses; the worker restricts itself with the
        // scanner's seccomp filter.
        .target(name: "PluginWorkerCore", dependencies: ["CSwitchyardPlugin", "CPluginSandbox", "ProviderKit"]),
        .executableTarget(name: "SwitchyardPluginWorker", dependencies: ["PluginWorkerCore"]),
        // The domain: pure logic over ports.
        .target(
            name: "SwitchyardCore",
            dependencies: [
                "ProviderKit", "SwitchyardObservability", .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
            ]
        ),
        // Process-wide metrics registry, the JSON log handler and span helpers.
        .target(
            name: "SwitchyardObservability",
            dependencies: [
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "ServiceContextModule", package: "swift-service-context"),
            ]
        ),
        // libpq and the store over it.
        .systemLibrary(name: "CLibPQ", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),
        .target(
            name: "SwitchyardStore",
            dependencies: [
                "CLibPQ", "SwitchyardCore", "SwitchyardCrypto", "SwitchyardObservability",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ]
        ),
        // dlopen loader, policy checks, host services.
        .target(
            name: "PluginHost",
            dependencies: [
                "CSwitchyardPlugin", "CPluginSandbox", "ProviderKit", "PluginWorkerCore", "SwitchyardCore",
                "SwitchyardCrypto", "SwitchyardObservability",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOExtras", package: "swift-nio-extras"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "Subprocess", package: "swift-subprocess"),
            ]
        ),
        // The HTTP surface: merchant API, admin API, notification intake.
        .target(
            name: "SwitchyardHTTP",
            dependencies: [
                "SwitchyardCore", "SwitchyardCrypto", "ProviderKit",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                "SwitchyardObservability",
                .product(name: "Metrics", package: "swift-metrics"),
            ],
            resources: [.copy("Resources/openapi.json")]
        ),
        // The composition root: the runtime wiring and the background workers (webhook dispatcher).
        .target(
            name: "SwitchyardApp",
            dependencies: [
                "SwitchyardHTTP", "SwitchyardStore", "PluginHost", "SwitchyardCore", "SwitchyardCrypto",
                "SwitchyardObservability",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
            ]
        ),
        // Emulators of the providers' servers; never imports a plugin's wire types. The list of emulators
        // is generated from the provider folders (BuildTools/RegistrationList).
        .target(
            name: "ProviderSandbox",
            dependencies: [
                "SwitchyardCrypto",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            plugins: ["RegistrationList"]
        ),
        .executableTarget(name: "RegistrationListGenerator", path: "BuildTools/RegistrationListGenerator"),
        .plugin(
            name: "RegistrationList", capability: .buildTool(), dependencies: ["RegistrationListGenerator"],
            path: "BuildTools/RegistrationList"),
        // The commands both executables share (serve against an external database, migrate, plugins,
        // doctor, policy, kek, bench --url) and the list of bundled plugins, generated from the Plugins folder
        // (BuildTools/BundledPluginList). Never depends on ProviderSandbox or the demo seed.
        .target(
            name: "SwitchyardCommands",
            dependencies: [
                "SwitchyardHTTP", "SwitchyardStore", "SwitchyardCore", "PluginHost", "ProviderKit", "SwitchyardCrypto",
                "SwitchyardApp", "SwitchyardObservability",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "OTel", package: "swift-otel"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ],
            plugins: ["BundledPluginList", "PluginKitFiles"]
        ),
        // The plugin kit's files (the C SDK and the `plugins new` templates) embedded in the commands.
        .executableTarget(name: "PluginKitFilesGenerator", path: "BuildTools/PluginKitFilesGenerator"),
        .plugin(
            name: "PluginKitFiles", capability: .buildTool(), dependencies: ["PluginKitFilesGenerator"],
            path: "BuildTools/PluginKitFiles"),
        .executableTarget(name: "BundledPluginListGenerator", path: "BuildTools/BundledPluginListGenerator"),
        .plugin(
            name: "BundledPluginList", capability: .buildTool(), dependencies: ["BundledPluginListGenerator"],
            path: "BuildTools/BundledPluginList"),
        // `switchyard-server`: the shared commands, nothing else.
        .executableTarget(
            name: "SwitchyardServer",
            dependencies: ["SwitchyardCommands", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        // `switchyard`: the shared commands and the workshop (embedded default, sandboxes, demo tenant).
        .executableTarget(
            name: "switchyard",
            dependencies: [
                "SwitchyardCommands", "SwitchyardBench", "SwitchyardCluster", "SwitchyardHTTP", "SwitchyardStore",
                "SwitchyardCore", "PluginHost", "ProviderSandbox", "ProviderKit", "SwitchyardCrypto", "SwitchyardApp",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // A private PostgreSQL cluster run from the system's server binaries: the embedded default's database
        // and the tests' throwaway clusters. The production executable does not link it.
        .target(
            name: "SwitchyardCluster",
            dependencies: ["CLibPQ", "SwitchyardStore", .product(name: "Logging", package: "swift-log")]
        ),
        // `switchyard bench`: load, latency, CPU and memory of a server beside pgbench's ceiling. Only the
        // development executable links it.
        .target(
            name: "SwitchyardBench",
            dependencies: [
                "SwitchyardCommands", "SwitchyardCluster", "SwitchyardStore", "SwitchyardCrypto",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // Helpers shared by the test targets (throwaway PostgreSQL cluster, paths).
        .target(
            name: "SwitchyardTestSupport",
            dependencies: ["SwitchyardStore", "SwitchyardCluster", .product(name: "Logging", package: "swift-log")]
        ),
        // Waiting for events in tests: change notifications, process exits, bounded polls and deadlines.
        .target(name: "TestWaiting"),
        // The scripted host plugin unit tests share.
        .target(name: "ProviderTestSupport", dependencies: ["ProviderKit"]),

        .testTarget(name: "SwitchyardCryptoTests", dependencies: ["SwitchyardCrypto", "ProviderTestSupport"]),
        .testTarget(name: "ProviderKitTests", dependencies: ["ProviderKit", "SwitchyardCrypto", "TestWaiting"]),
        .testTarget(
            name: "SwitchyardCoreTests",
            dependencies: ["SwitchyardCore", "SwitchyardDomainTestSupport"]
        ),
        .testTarget(
            name: "SwitchyardStoreTests",
            dependencies: [
                "SwitchyardStore", "SwitchyardTestSupport", "SwitchyardCore", "SwitchyardCrypto", "ProviderKit",
                "SwitchyardCluster", "TestWaiting", .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "PluginHostTests",
            dependencies: [
                "PluginHost", "PluginWorkerCore", "ProviderKit", "CSwitchyardPlugin", "SwitchyardCore",
                "SwitchyardTestSupport", "TestWaiting",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),
        .testTarget(
            name: "ProviderSandboxTests",
            dependencies: [
                "ProviderSandbox", "SwitchyardCrypto", "TestWaiting",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
            ]
        ),
        .testTarget(
            name: "SwitchyardHTTPTests",
            dependencies: [
                "SwitchyardHTTP", "SwitchyardStore", "SwitchyardTestSupport", "PluginHost", "ProviderSandbox",
                "SwitchyardCore", "SwitchyardCrypto", "SwitchyardApp", "SwitchyardCluster", "TestWaiting",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                "SwitchyardObservability",
            ]
        ),
        // The pure parts of `switchyard bench` (statistics, table, plot, report, /proc parsing).
        .testTarget(name: "BenchTests", dependencies: ["switchyard", "SwitchyardCommands", "SwitchyardBench"]),
        .testTarget(
            name: "CommandTests",
            dependencies: [
                "SwitchyardCommands", "PluginHost", "SwitchyardStore", "SwitchyardTestSupport",
                "SwitchyardDomainTestSupport",
            ]),
    ] + providers.flatMap(\.targets),
    swiftLanguageModes: [.v6]
)

// In-memory repositories, a scripted provider gateway and a manual clock: the domain tested without
// PostgreSQL, sandboxes or plugins; and the repository contract both stores must keep.
package.targets += [
    .target(name: "SwitchyardDomainTestSupport", dependencies: ["SwitchyardCore", "ProviderKit"]),
    .testTarget(
        name: "SwitchyardDomainTests",
        dependencies: [
            "SwitchyardCore", "ProviderKit", "SwitchyardDomainTestSupport", "TestWaiting",
            .product(name: "Logging", package: "swift-log"),
        ]
    ),
    .testTarget(
        name: "RepositoryContractTests",
        dependencies: [
            "SwitchyardCore", "ProviderKit", "SwitchyardDomainTestSupport", "SwitchyardStore", "SwitchyardTestSupport",
            "SwitchyardCrypto", .product(name: "Logging", package: "swift-log"),
        ]
    ),
]

// The HTTP router in process (Hummingbird's test client) over in-memory repositories: no PostgreSQL,
// sandboxes or plugins.
package.targets += [
    .testTarget(
        name: "SwitchyardRouterTests",
        dependencies: [
            "SwitchyardHTTP", "SwitchyardCore", "ProviderKit", "SwitchyardDomainTestSupport", "SwitchyardObservability",
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "HummingbirdTesting", package: "hummingbird"),
            .product(name: "Logging", package: "swift-log"),
        ]
    )
]
