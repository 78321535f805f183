// swift-tools-version:6.1
import PackageDescription

/// The __Name__ provider plugin for Switchyard: the dynamic library `lib__Name__Plugin.so`.
///
/// `__Name__Plugin` is the connector (wire types, mapping, signing, flows); `__Name__PluginEntry` holds only
/// the exported entry symbol, so the unit tests link the connector without it. Build with the same Swift
/// toolchain as the Switchyard worker that will load the plugin (README.md).
let package = Package(
    name: "__Name__Plugin",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "__Name__Plugin", type: .dynamic, targets: ["__Name__PluginEntry"])
    ],
    dependencies: [
        __SDK_DEPENDENCY__
    ],
    targets: [
        .target(
            name: "__Name__Plugin",
            dependencies: [
                .product(name: "ProviderKit", package: "__SDK_PACKAGE__"),
                .product(name: "SwitchyardCrypto", package: "__SDK_PACKAGE__"),
            ]
        ),
        .target(
            name: "__Name__PluginEntry",
            dependencies: ["__Name__Plugin", .product(name: "ProviderKit", package: "__SDK_PACKAGE__")]
        ),
        .testTarget(
            name: "__Name__PluginTests",
            dependencies: [
                "__Name__Plugin",
                .product(name: "ProviderKit", package: "__SDK_PACKAGE__"),
                .product(name: "ProviderTestSupport", package: "__SDK_PACKAGE__"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
