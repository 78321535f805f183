import Foundation
import PackagePlugin

/// Generates the list of plugins built with Switchyard from the plugin products themselves: every dynamic
/// library product of the package is a plugin, and its manifest file (`<Target>/<Provider>Provider+Manifest.swift`
/// of the target of the same name) gives its id. Adding a provider's line to Package.swift is enough.
@main
struct BundledPluginList: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let plugins = context.package.products.compactMap { $0 as? LibraryProduct }.filter { $0.kind == .dynamic }
        let manifests = plugins.compactMap { product -> URL? in
            let source = context.package.targets.first { $0.name == product.name } as? SourceModuleTarget
            return source?.sourceFiles(withSuffix: "Provider+Manifest.swift").map(\.url).first
        }
        let output = context.pluginWorkDirectoryURL.appending(path: "BundledPlugins+Generated.swift")
        return [
            .buildCommand(
                displayName: "Listing \(manifests.count) bundled plugins",
                executable: try context.tool(named: "BundledPluginListGenerator").url,
                arguments: [output.path] + zip(plugins, manifests).flatMap { [$0.name, $1.path] },
                inputFiles: manifests,
                outputFiles: [output])
        ]
    }
}
